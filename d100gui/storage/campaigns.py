"""Campaign files: JSON from the pydantic models, versioned, migrated, written atomically.

* ``save_campaign`` writes the new file beside the target first; only once it is safely on
  disk does it rotate three backups (``NAME.json.1`` newest .. ``.3`` oldest) and replace the
  file, so a failed save (a full disk) never rotates a backup, and a crash or kill loses at most
  the action in progress. It writes through a symlink to its target, keeps the file's
  permissions, refuses a read-only campaign, cleans temporary files a killed save left, and
  refuses to write a file bigger than the app can open.
* ``load_campaign`` never changes the file it reads. It refuses, with a message a player can
  act on, a file that is too big, not JSON, truncated, from a newer version of the app, or
  not a campaign, and a value out of range: a number beyond +-2^53 (``gp = 10**30``, a
  5,000-digit integer), a string with a lone surrogate, a broken random state. Loading is
  parsing only: no code in a file is ever executed.
"""

from __future__ import annotations

import gc
import json
import math
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from d100gui.engine.campaign import Campaign
from d100gui.engine.checks import campaign_problems
from d100gui.engine.game import CAMPAIGN_SCHEMA_VERSION
from d100gui.storage import safe_read
from d100gui.storage.atomic import clean_temporary_files, write_bytes_atomic
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules

MAX_CAMPAIGN_BYTES = 50 * 1024 * 1024
#: a save past this size still works, and :func:`save_campaign` says the file nears the limit
WARN_CAMPAIGN_BYTES = 40 * 1024 * 1024
#: the largest integer a campaign may hold anywhere (JSON readers elsewhere lose precision beyond it)
MAX_INT = 2**53
BACKUPS = 3
#: the longest list a hero's sheet may hold (a backpack, a belt, a spell book, the combat track): far past any game
MAX_LIST_ITEMS = 10_000
#: the largest hero's sheet a campaign may hold (a few KB in play); a store's is refused before it is read
MAX_SHEET_BYTES = 1024 * 1024
SUFFIX = ".d100.json"
CURRENT_PREFIX = f'{{"schema_version":{CAMPAIGN_SCHEMA_VERSION},'


class CampaignSaveError(OSError):
    """A campaign could not be saved; the message says why. The file on disk is as it was."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path.name} was not saved: {reason}")


class CampaignFileError(ValueError):
    """A campaign file that cannot be opened; the message says why and what to do."""

    def __init__(self, path: Path, reason: str, backups: list[Path] | None = None) -> None:
        self.path = path
        self.reason = reason
        self.backups = backups or []
        super().__init__(f"{path.name} cannot be opened: {reason}")


# --------------------------------------------------------------------------- migrations


def _migrate_0_to_1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 0 (the pre-release format) kept the seed at the top level and called the
    command log ``history``."""
    data = dict(data)
    meta = dict(data.get("meta") or {})
    if "seed" in data:
        meta.setdefault("seed", data.pop("seed"))
    data["meta"] = meta
    if "history" in data:
        data["log"] = data.pop("history")
    data["schema_version"] = 1
    return data


def _migrate_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 kept only the sentences of each action's events. Each sentence becomes a
    ``legacy_message`` event (its payload is unknown, so views show the sentence as it was),
    and the campaign's meta notes how many log entries were converted."""
    data = dict(data)
    log = []
    converted = 0
    for entry in data.get("log") or []:
        if isinstance(entry, dict) and any(isinstance(e, str) for e in entry.get("events") or []):
            entry = dict(entry)
            entry["events"] = [
                {"kind": "legacy_message", "message": e, "topic": "log", "data": {}} if isinstance(e, str) else e
                for e in entry["events"]
            ]
            converted += 1
        log.append(entry)
    data["log"] = log
    if converted:
        meta = dict(data.get("meta") or {})
        notes = list(meta.get("notes") or [])
        notes.append(
            f"{converted} log entries were saved by an earlier version that kept only their sentences; "
            "they are shown as they were written."
        )
        meta["notes"] = notes
        data["meta"] = meta
    data["schema_version"] = 2
    return data


def _migrate_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 kept a curse waiting for its Table C row apart, as ``town.curse_waiting`` (the roll); from
    version 3 every roll waiting for a row the player's tables lack is in ``adventure.rows_waiting``
    (:mod:`d100gui.engine.dice.waiting`): the curse's roll moves there, as a ``"curse"`` row waiting."""
    data = dict(data)
    town = data.get("town")
    if isinstance(town, dict) and "curse_waiting" in town:
        town = dict(town)
        rolled = town.pop("curse_waiting")
        data["town"] = town
        if isinstance(rolled, dict):
            adventure = dict(data.get("adventure") or {})
            record = rolled.get("roll")
            purpose = record.get("purpose", "") if isinstance(record, dict) else ""
            waiting = {"table_id": rolled.get("table_id", ""), "source": purpose, "then": "curse", "table_roll": rolled}
            adventure["rows_waiting"] = [*(adventure.get("rows_waiting") or []), waiting]
            data["adventure"] = adventure
    data["schema_version"] = 3
    return data


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    0: _migrate_0_to_1,
    1: _migrate_1_to_2,
    2: _migrate_2_to_3,
}


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """Bring a parsed campaign up to the current schema, one version at a time."""
    version = data.get("schema_version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ValueError(f"its schema_version {version!r} is not a version number")
    if version > CAMPAIGN_SCHEMA_VERSION:
        raise ValueError(
            f"it was saved by a newer d100gui (campaign format {version}; this app reads up to {CAMPAIGN_SCHEMA_VERSION}). "
            "Update d100gui to open it; the file has not been changed"
        )
    while version < CAMPAIGN_SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version = data["schema_version"]
    return data


# --------------------------------------------------------------------------- load / save


def backups_of(path: Path) -> list[Path]:
    return [p for i in range(1, BACKUPS + 1) if (p := path.with_name(f"{path.name}.{i}")).exists()]


def load_campaign(path: Path) -> Campaign:
    """Read, check, migrate and validate a campaign file. The file is never modified."""
    try:
        info = path.stat()
    except OSError as exc:
        raise CampaignFileError(path, f"it cannot be read ({exc.strerror})") from None
    backups = backups_of(path)
    if not stat.S_ISREG(info.st_mode):
        raise CampaignFileError(path, "it is not a regular file", backups)
    size = info.st_size
    if size > MAX_CAMPAIGN_BYTES:
        raise CampaignFileError(path, f"it is {size // (1024 * 1024)} MB; campaign files are at most 50 MB", backups)
    try:  # never blocking: the file may have become a pipe since it was looked at
        text = safe_read.read_regular_text(path, MAX_CAMPAIGN_BYTES, "campaign file")
    except safe_read.UnreadableFile as exc:
        reason = "it is not a text file (not UTF-8)" if "UTF-8" in str(exc) else str(exc)
        raise CampaignFileError(path, reason, backups) from None
    return campaign_from_text(path, text, backups=backups)


# A quick look at the raw text for what the careful path must check value by value: a long
# run of digits (an integer out of range), an exponent, a \uD800-\uDFFF escape, NaN/Infinity.
# A number only follows ``:``, ``[`` or ``,``: a string such as a hex id ("...999e742...") is not one.
_SUSPECT = re.compile(r"[:\[,]\s*-?(?:\d{16}|\d+(?:\.\d+)?[eE][+-]?\d{3}|NaN|Infinity)|\\u[dD][89a-fA-F]")
_SUSPECT_BYTES = re.compile(_SUSPECT.pattern.encode("ascii"))
#: every digit as 0 and E as e, so a run of 16 digits or an exponent is a plain substring search
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789E", b"000000000e")
_SHAPES = (b"0" * 16, b"0e000", b"0e+000", b"0e-000")
_AROUND = 64  # bytes looked at around a candidate: the number's start and its digits


def _suspect(text: str) -> bool:
    """Whether the careful path must look at ``text`` (see :data:`_SUSPECT`).

    The regular expression over megabytes costs more than validating them, so substring searches
    (C speed) find the candidates first, and the expression looks only around each of them (a hex
    id such as ``"...999e742..."`` is a candidate, not a number).
    """
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    if b"NaN" in data or b"Infinity" in data or b"\\u" in data:
        return _SUSPECT_BYTES.search(data) is not None
    shapes = data.translate(_DIGITS_AS_ZERO)
    for shape in _SHAPES:
        at = shapes.find(shape)
        while at != -1:
            if _SUSPECT_BYTES.search(data, max(0, at - _AROUND), at + _AROUND) is not None:
                return True
            at = shapes.find(shape, at + 1)
    return False


class _OutOfRange(ValueError):
    pass


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 16 or abs(value := int(text)) > MAX_INT:
        raise _OutOfRange(f"the number {text[:24]}{'...' if len(text) > 24 else ''} is out of range (at most 2^53)")
    return value


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_INT:
        raise _OutOfRange(f"the number {text[:24]} is out of range")
    return value


def _no_constant(text: str) -> float:
    raise _OutOfRange(f"{text} is not a number a campaign may hold")


def _check_strings(data: object, where: str = "") -> None:
    """Refuse a string (key or value) holding a lone surrogate: it cannot be shown or saved."""
    stack: list[tuple[object, str]] = [(data, where)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise _OutOfRange(f"{at or 'a text'} holds a broken character (a lone surrogate)") from None
        elif isinstance(value, dict):
            for key, item in value.items():
                stack.append((key, f"{at}.{key}" if at else "a key"))
                stack.append((item, f"{at}.{key}" if at else str(key)))
        elif isinstance(value, list):
            stack.extend((item, f"{at}[{i}]") for i, item in enumerate(value))


@contextmanager
def gc_paused() -> Iterator[None]:
    """No garbage collection while a campaign is built: its objects are all kept, and the
    collector's passes over millions of new objects used to cost more than the validation."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def long_list(data: object, where: str) -> str:
    """The first list in ``data`` longer than :data:`MAX_LIST_ITEMS`, in words ("the hero's backpack holds
    1,000,000 items; ..."), or "" (read iteratively: any depth)."""
    stack: list[tuple[object, str]] = [(data, where)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, list):
            if len(value) > MAX_LIST_ITEMS:
                return f"{at} holds {len(value):,} items; a list in a campaign holds at most {MAX_LIST_ITEMS:,}"
            stack.extend((item, at) for item in value if isinstance(item, (list, dict)))
        elif isinstance(value, dict):
            stack.extend(
                (item, f"{at}'s {str(key).replace('_', ' ')}") for key, item in value.items() if isinstance(item, (list, dict))
            )
    return ""


def campaign_from_text(path: Path, text: str, backups: list[Path] | None = None, migrate_old: bool = True) -> Campaign:
    """A campaign from its JSON text (see :func:`_campaign_from_text`), built with the collector paused,
    then checked against the rules: a value no game could have produced (HP -40, Fate 9999, the
    hero where no area is, tile -5) refuses the file with the reason, leaving it untouched."""
    with gc_paused():
        campaign = _campaign_from_text(path, text, backups, migrate_old)
    if campaign.character is not None and (too_long := long_list(campaign.character.model_dump(), "the hero")):
        raise CampaignFileError(path, too_long, backups)
    problems = campaign_problems(campaign, bundled_rules())
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise CampaignFileError(path, "it holds values the rules do not allow: " + " ".join(problems[:3]) + more, backups)
    return campaign


def _campaign_from_text(path: Path, text: str, backups: list[Path] | None, migrate_old: bool) -> Campaign:
    """A campaign from its JSON text (``path`` names it in messages), checked for type and range.

    The common case (a file this version wrote, with nothing the quick look finds suspect) is
    validated straight from the text; anything else goes the careful way: parsed with bounded
    numbers, strings checked, migrated (``migrate_old``), validated, the first problem named.
    """
    backups = backups or []
    if not text.strip():
        raise CampaignFileError(path, "it is empty", backups)
    if text.startswith(CURRENT_PREFIX) and not _suspect(text):
        try:
            return Campaign.model_validate_json(text)
        except (ValidationError, RecursionError):
            pass  # fall through to the careful path for a precise message
    try:
        data = json.loads(text, parse_int=_bounded_int, parse_float=_finite_float, parse_constant=_no_constant)
        _check_strings(data)
    except _OutOfRange as exc:
        raise CampaignFileError(path, f"it holds a value out of range: {exc}", backups) from None
    except json.JSONDecodeError as exc:
        hint = "it is cut short (truncated)" if exc.pos >= len(text.rstrip()) - 1 else "it is not valid JSON"
        raise CampaignFileError(path, f"{hint} (line {exc.lineno}, column {exc.colno})", backups) from None
    except (RecursionError, ValueError):
        raise CampaignFileError(path, "it is nested too deeply or holds a number that cannot be read", backups) from None
    if not isinstance(data, dict):
        raise CampaignFileError(path, "it is not a d100gui campaign (the top level is not an object)", backups)
    try:
        data = migrate(data) if migrate_old else data
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CampaignFileError(path, str(exc), backups) from None
    try:
        return Campaign.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "top level"
        raise CampaignFileError(
            path, f"it is not a valid campaign ({where}: {first['msg']}; {exc.error_count()} problem(s))", backups
        ) from None
    except RecursionError:
        raise CampaignFileError(path, "it is nested too deeply to be a campaign", backups) from None


def campaign_json(campaign: Campaign) -> str:
    """Compact JSON: a large campaign is megabytes, and autosave runs after every action."""
    return campaign.model_dump_json()


def save_campaign(campaign: Campaign, path: Path, text: str | None = None) -> int:
    """Write the campaign safely and return its size in bytes. ``text`` may be pre-serialized (autosave).

    The new content goes to a temporary file beside the real file (through a symlink, to its
    target) with the file's permissions; only once it is on disk are the backups rotated and the
    file replaced. :class:`CampaignSaveError` (the file as it was, no backup rotated) when the
    campaign is read-only, too big to open again, or the disk refuses the write.
    """
    text = campaign_json(campaign) if text is None else text
    data = text.encode("utf-8")
    if len(data) > MAX_CAMPAIGN_BYTES:
        raise CampaignSaveError(
            path, f"it would be {len(data) // (1024 * 1024)} MB, more than the 50 MB a campaign file may hold"
        )
    target = path.resolve() if path.is_symlink() else path
    try:
        info: os.stat_result | None = target.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise CampaignSaveError(path, f"it cannot be reached ({exc.strerror})") from None
    if info is not None:
        if not stat.S_ISREG(info.st_mode):
            raise CampaignSaveError(path, "it is not a regular file")
        if not os.access(target, os.W_OK) or not info.st_mode & stat.S_IWUSR:
            raise CampaignSaveError(path, "the file is read-only; make it writable to keep playing it")
    clean_temporary_files(target)
    try:
        write_bytes_atomic(target, data, mode=None if info is None else stat.S_IMODE(info.st_mode), before_replace=_rotate)
    except OSError as exc:
        raise CampaignSaveError(path, f"the disk refused the write ({exc.strerror or exc})") from None
    return len(data)


def size_warning(size: int) -> str:
    """A sentence for the player once a campaign file nears the size the app can open (else empty)."""
    if size < WARN_CAMPAIGN_BYTES:
        return ""
    return (
        f"This campaign file is {size // (1024 * 1024)} MB; at 50 MB it can no longer be saved. "
        "Export it and start a new campaign for the next quests."
    )


def _rotate(path: Path) -> None:
    """Rotate the backups (the new content is safely on disk already)."""
    if not path.exists():
        return
    for i in range(BACKUPS, 1, -1):
        older = path.with_name(f"{path.name}.{i - 1}")
        if older.exists():
            older.replace(path.with_name(f"{path.name}.{i}"))
    newest = path.with_name(f"{path.name}.1")
    try:
        newest.unlink(missing_ok=True)
        os.link(path, newest)  # the atomic replace that follows leaves this link on the old content
    except OSError:
        try:
            newest.write_bytes(path.read_bytes())
        except OSError:
            pass


# --------------------------------------------------------------------------- the campaign list


def campaigns_dir() -> Path:
    path = user_data_dir() / "campaigns"
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass(frozen=True)
class CampaignSummary:
    """What the campaign list shows, read without validating the whole file."""

    path: Path
    hero: str
    rep: int | None
    gold: int | None
    quests_done: int | None
    last_played: str
    problem: str = ""
    dungeon: str = ""  # the dungeon in play (a quest's is named after it), "" before the first one

    @property
    def title(self) -> str:
        """How a player names the campaign: its hero and its dungeon ("Aria — The Old Mine"); the file is an id."""
        return " — ".join(part for part in (self.hero, self.dungeon) if part)


def _mapping(value: object) -> dict[str, Any]:
    """``value`` if it is a JSON object, else an empty one (a summary reads files defensively)."""
    return value if isinstance(value, dict) else {}


def read_json_object(path: Path) -> dict[str, Any]:
    """A campaign file's JSON object, read defensively for a list (the campaign list, the roster):
    only a regular file within the size limit is read (a FIFO there would block the list for ever);
    :class:`ValueError` or :class:`OSError` says why not."""
    data = json.loads(safe_read.read_regular_text(path, MAX_CAMPAIGN_BYTES, "campaign file"))
    if not isinstance(data, dict):
        raise ValueError("not a campaign")
    return data


def summarize(path: Path) -> CampaignSummary:
    """What the campaign list shows of one file, without validating it (a broken file is listed with its problem)."""
    try:
        data = read_json_object(path)
    except (OSError, ValueError, RecursionError) as exc:
        return CampaignSummary(path, path.stem, None, None, None, "", problem=str(exc) or "unreadable")
    book = _mapping(data.get("dungeons"))
    dungeons, current = book.get("dungeons"), book.get("current", 0)
    dungeon = (
        dungeons[current] if isinstance(dungeons, list) and isinstance(current, int) and 0 <= current < len(dungeons) else None
    )
    return summary_from(path, data.get("character"), data.get("meta"), _mapping(dungeon).get("name"))


def summary_from(path: Path, hero: object, meta: object, dungeon: object = None) -> CampaignSummary:
    """The campaign list's line from a campaign's raw ``character`` and ``meta`` (JSON file or store)
    and the name of its current dungeon."""
    sheet = _mapping(hero)
    quest_log = _mapping(sheet.get("quest_log"))

    def _int(value: object) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    return CampaignSummary(
        path=path,
        hero=str(sheet.get("name") or "(no hero yet)"),
        rep=_int(sheet.get("rep")),
        gold=_int(sheet.get("gp")),
        quests_done=_int(quest_log.get("completed")),
        last_played=str(_mapping(meta).get("last_played", "")),
        dungeon=dungeon.strip()[:200] if isinstance(dungeon, str) else "",
    )
