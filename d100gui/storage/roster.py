"""The roster: every hero of this installation, living or fallen, with the campaigns that hold them.

Each campaign file is one hero's story (its ``character``); a copy made with Save As or an export
and import keeps the campaign's id, so the roster lists a hero once with every file that holds
them and opens the one played last. A campaign whose hero has died
(:func:`d100gui.engine.hero.fallen.fallen_hero`: the sheet in ``hall_of_fallen``, no living
character) lists the hero in the hall of the fallen, with the cause and date of the log's death
event. Files are read without validating them whole and without locking a store; a broken one is
listed with its problem. The campaign being played (its store locked by the window) is passed in.
A store keeping the statistics' state (``CampaignStore`` ``STATS``, written while the Statistics view
counts) gives the hero's headline figures (:class:`Headline`: quests begun, fights and fights won, the
cause of death) as of that state. A store that keeps none yet is counted once by :func:`count_statistics`
(the roster window runs it off the GUI thread), which keeps the state in the store for next time.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from d100gui.engine.campaign import Campaign
from d100gui.engine.game import LogEntry
from d100gui.engine.hero.fallen import Death, death_in, death_of, fallen_hero
from d100gui.engine.stats import Statistics
from d100gui.storage.campaigns import SUFFIX, campaigns_dir, read_json_object
from d100gui.storage.store import (
    KEPT_STATS,
    STORE_SUFFIX,
    CampaignStore,
    file_problem,
    is_store,
    peek_store,
    store_path_for,
)

#: the newest log entries read for the death event and its fight's start (nothing is played after a death)
DEATH_TAIL = 100
_PARTS = ("character", "meta", "hall_of_fallen")


@dataclass(frozen=True)
class Headline:
    """A hero's headline figures from the statistics' kept state (``Statistics.figures()["campaign"]``)."""

    quests: int  # quest attempts begun
    fights: int
    fights_won: int
    cause: str = ""  # the last death's cause (the statistics' ``deaths``), "" if the hero never died


def headline(state: object) -> Headline | None:
    """The headline figures of a kept ``Statistics.state()``, or None if it is missing or does not load."""
    if not isinstance(state, dict):
        return None
    try:
        return headline_from(Statistics.from_state(state).figures())
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, ZeroDivisionError):
        return None


def headline_from(figures: dict[str, Any]) -> Headline:
    """The headline figures of ``Statistics.figures()``."""
    campaign = figures["campaign"]
    deaths = campaign["deaths"]
    cause = str(deaths[-1].get("cause") or "") if deaths else ""
    return Headline(int(campaign["quests_attempted"]), int(campaign["fights"]), int(campaign["fights_won"]), cause)


@dataclass(frozen=True)
class HeroLine:
    """One hero as the roster lists them: their sheet's figures, their campaigns, how they died."""

    name: str
    rep: int | None
    gold: int | None
    quests_done: int | None
    last_played: str
    path: Path  # the campaign to open: the one played last
    campaigns: tuple[Path, ...] = ()
    fallen: bool = False
    death: Death | None = None
    problem: str = ""  # a file that cannot be read: listed with why
    key: str = field(default="", compare=False)  # the campaign's id and the hero's name: one line per hero
    headline: Headline | None = None  # from the statistics' kept state, if the store keeps one


@dataclass(frozen=True)
class Roster:
    """The living heroes (played last first) and the hall of the fallen (fallen last first), and unreadable files."""

    living: list[HeroLine]
    fallen: list[HeroLine]
    broken: list[HeroLine]


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def line_from(path: Path, parts: dict[str, Any], log: list[LogEntry]) -> HeroLine:
    """A roster line from a campaign's raw ``character``, ``meta`` and ``hall_of_fallen`` and its newest log entries."""
    character, meta = _dict(parts.get("character")), _dict(parts.get("meta"))
    hall = parts.get("hall_of_fallen")
    hall = hall if isinstance(hall, list) else []
    fallen = bool(character.get("dead")) if character else bool(hall)
    sheet = character if character else (_dict(hall[-1]) if hall else {})
    death = (death_in(log) or Death()) if fallen else None
    return HeroLine(
        name=str(sheet.get("name") or ("(no hero yet)" if not sheet else "Unnamed hero")),
        rep=_int(sheet.get("rep")),
        gold=_int(sheet.get("gp")),
        quests_done=_int(_dict(sheet.get("quest_log")).get("completed")),
        last_played=str(meta.get("last_played", "")),
        path=path,
        campaigns=(path,),
        fallen=fallen,
        death=death,
        key=f"{meta.get('id', path.name)}/{sheet.get('name', '')}",
        headline=headline(parts.get(KEPT_STATS)),
    )


def _broken(path: Path, exc: BaseException) -> HeroLine:
    return HeroLine(
        path.name, None, None, None, "", path, (path,), problem=getattr(exc, "reason", "") or str(exc) or "unreadable"
    )


def read_store(path: Path) -> HeroLine:
    """The roster line of one campaign store, read-only."""
    try:
        parts, log = peek_store(path, _PARTS, DEATH_TAIL, stats=True)
    except (OSError, ValueError, sqlite3.Error) as exc:
        return _broken(path, exc)
    return line_from(path, parts, log)


def read_json(path: Path) -> HeroLine:
    """The roster line of an older JSON campaign not converted to a store yet."""
    try:
        data = read_json_object(path)
        raw_log = data.get("log")
        log = [LogEntry.model_validate(e) for e in raw_log[-DEATH_TAIL:]] if isinstance(raw_log, list) else []
    except (OSError, ValueError, RecursionError) as exc:
        return _broken(path, exc)
    return line_from(path, data, log)


def line_of(campaign: Campaign, path: Path, kept: object = None) -> HeroLine:
    """The roster line of the campaign in play (read from memory: its store is locked by the window);
    ``kept``: the statistics' state its store keeps (``CampaignStore.kept_statistics()[1]``), if any."""
    hero = fallen_hero(campaign) or campaign.character
    return HeroLine(
        name=(hero.name or "Unnamed hero") if hero is not None else "(no hero yet)",
        rep=None if hero is None else hero.rep,
        gold=None if hero is None else hero.gp,
        quests_done=None if hero is None else hero.quest_log.completed,
        last_played=campaign.meta.last_played,
        path=path,
        campaigns=(path,),
        fallen=fallen_hero(campaign) is not None,
        death=death_of(campaign),
        key=f"{campaign.meta.id}/{hero.name if hero is not None else ''}",
        headline=headline(kept),
    )


def _merge(lines: list[HeroLine]) -> list[HeroLine]:
    """One line per hero (a campaign id and a name): the one played last, with every file that holds them."""
    by_key: dict[str, list[HeroLine]] = {}
    for line in lines:
        by_key.setdefault(line.key, []).append(line)
    merged = []
    for same in by_key.values():
        same.sort(key=lambda line: line.last_played, reverse=True)
        first = same[0]
        merged.append(
            HeroLine(
                first.name,
                first.rep,
                first.gold,
                first.quests_done,
                first.last_played,
                first.path,
                tuple(line.path for line in same),
                first.fallen,
                first.death,
                key=first.key,
                headline=first.headline,
            )
        )
    return merged


def _resolved(path: Path) -> Path:
    """``path`` with its links followed; a symlink loop (``resolve`` raises) as it is."""
    return Path(os.path.realpath(path))


def _read_either(path: Path) -> HeroLine:
    """A ``NAME.d100``: a store, or an older JSON campaign under that name (opening it converts it)."""
    if not is_store(path) and not file_problem(path):
        return read_json(path)
    return read_store(path)


def _line_or_problem(read: Callable[[Path], HeroLine], path: Path) -> HeroLine:
    try:
        return read(path)
    except Exception as exc:  # one bad file never hides the other heroes
        return _broken(path, exc)


def read_roster(directory: Path | None = None, current: HeroLine | None = None) -> Roster:
    """Every hero in ``directory`` (the campaigns folder): stores, and JSON files not converted yet.

    ``current`` is the campaign in play, read from memory instead of its (locked) file.
    """
    directory = directory or campaigns_dir()
    stores = set(directory.glob(f"*{STORE_SUFFIX}"))  # a pipe or a loop among them is listed broken, with why
    skip = {_resolved(current.path)} if current is not None else set()
    lines = [_line_or_problem(_read_either, p) for p in sorted(stores) if _resolved(p) not in skip]
    lines += [
        _line_or_problem(read_json, p)
        for p in sorted(directory.glob(f"*{SUFFIX}"))
        if store_path_for(p) not in stores and _resolved(p) not in skip
    ]
    if current is not None:
        lines.append(current)
    broken = [line for line in lines if line.problem]
    heroes = [line for line in lines if not line.problem and line.name != "(no hero yet)"]
    living = _merge([line for line in heroes if not line.fallen])
    fallen = _merge([line for line in heroes if line.fallen])
    living.sort(key=lambda line: line.last_played, reverse=True)
    fallen.sort(key=lambda line: line.death.at if line.death and line.death.at else line.last_played, reverse=True)
    return Roster(living=living, fallen=fallen, broken=broken)


#: log entries read at a time when a store's statistics are counted for the roster
COUNT_PAGE = 1000


def count_statistics(path: Path) -> Headline | None:
    """Count a campaign store's statistics once (from the state it keeps, if any, then the entries after it) and
    keep the state in the store, so the roster and the Statistics view start from it next time; its headline.

    Opens the store for writing (refused, None, while the window plays it: the window counts that one); the
    kept state is written when the store closes, only if the log still holds the entries it counts. Safe in
    a worker thread (its own connection). None when the store cannot be opened or its log cannot be read."""
    try:
        with CampaignStore.open(path) as store:
            kept = store.kept_statistics()
            stats = Statistics()
            if kept is not None:
                try:
                    stats = Statistics.from_state(kept[1])
                except (ValueError, KeyError, TypeError, AttributeError, IndexError):
                    stats = Statistics()
            length = store.log_length
            stats = store.fold_statistics(stats, length) or stats  # in SQL; else the entries themselves
            while stats.next_index < length:
                page = store.log_page(stats.next_index, COUNT_PAGE)
                if not page:
                    break
                stats.fold_all(page)
            state = stats.state()
            if stats.next_index > 0 and (kept is None or kept[0] < stats.next_index):
                store.keep_statistics(stats.next_index, state)
    except (OSError, ValueError, sqlite3.Error):  # a CampaignFileError (busy, broken, newer) is a ValueError
        return None
    return headline(state)
