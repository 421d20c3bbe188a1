"""Campaign files: JSON from the pydantic models, versioned, migrated, written atomically.

* ``save_campaign`` rotates three backups (``NAME.json.1`` newest .. ``.3`` oldest) and then
  writes atomically, so a crash or kill loses at most the action in progress.
* ``load_campaign`` never changes the file it reads. It refuses, with a message a player can
  act on, a file that is too big, not JSON, truncated, from a newer version of the app, or
  not a campaign. Loading is parsing only: no code in a file is ever executed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from d100gui.engine.game import CAMPAIGN_SCHEMA_VERSION, Campaign
from d100gui.storage.atomic import write_text_atomic
from d100gui.storage.paths import user_data_dir

MAX_CAMPAIGN_BYTES = 50 * 1024 * 1024
BACKUPS = 3
SUFFIX = ".d100.json"
CURRENT_PREFIX = f'{{"schema_version":{CAMPAIGN_SCHEMA_VERSION},'


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


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _migrate_0_to_1, 1: _migrate_1_to_2}


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
        size = path.stat().st_size
    except OSError as exc:
        raise CampaignFileError(path, f"it cannot be read ({exc.strerror})") from None
    backups = backups_of(path)
    if size > MAX_CAMPAIGN_BYTES:
        raise CampaignFileError(path, f"it is {size // (1024 * 1024)} MB; campaign files are at most 50 MB", backups)
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except OSError as exc:
        raise CampaignFileError(path, f"it cannot be read ({exc.strerror})", backups) from None
    except UnicodeDecodeError:
        raise CampaignFileError(path, "it is not a text file (not UTF-8)", backups) from None
    if not text.strip():
        raise CampaignFileError(path, "it is empty", backups)
    if text.startswith(CURRENT_PREFIX):
        # the common case, a file this version wrote: validate straight from the text (fast)
        try:
            return Campaign.model_validate_json(text)
        except (ValidationError, RecursionError):
            pass  # fall through to the careful path for a precise message
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = "it is cut short (truncated)" if exc.pos >= len(text.rstrip()) - 1 else "it is not valid JSON"
        raise CampaignFileError(path, f"{hint} (line {exc.lineno}, column {exc.colno})", backups) from None
    except RecursionError:
        raise CampaignFileError(path, "it is nested too deeply to be a campaign", backups) from None
    if not isinstance(data, dict):
        raise CampaignFileError(path, "it is not a d100gui campaign (the top level is not an object)", backups)
    try:
        data = migrate(data)
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


def save_campaign(campaign: Campaign, path: Path, text: str | None = None) -> None:
    """Rotate backups, then write atomically. ``text`` may be pre-serialized (autosave)."""
    text = campaign_json(campaign) if text is None else text
    if path.exists():
        for i in range(BACKUPS, 1, -1):
            older = path.with_name(f"{path.name}.{i - 1}")
            if older.exists():
                older.replace(path.with_name(f"{path.name}.{i}"))
        newest = path.with_name(f"{path.name}.1")
        try:
            newest.unlink(missing_ok=True)
            os.link(path, newest)  # the atomic replace below leaves this link on the old content
        except OSError:
            try:
                newest.write_bytes(path.read_bytes())
            except OSError:
                pass
    write_text_atomic(path, text)


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


def _mapping(value: object) -> dict[str, Any]:
    """``value`` if it is a JSON object, else an empty one (a summary reads files defensively)."""
    return value if isinstance(value, dict) else {}


def summarize(path: Path) -> CampaignSummary:
    """What the campaign list shows of one file, without validating it (a broken file is listed with its problem)."""
    try:
        if path.stat().st_size > MAX_CAMPAIGN_BYTES:
            raise ValueError("too big")
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not a campaign")
    except (OSError, ValueError, RecursionError) as exc:
        return CampaignSummary(path, path.stem, None, None, None, "", problem=str(exc) or "unreadable")
    hero = data.get("character") or {}
    if not isinstance(hero, dict):
        hero = {}
    meta = _mapping(data.get("meta"))
    quest_log = _mapping(hero.get("quest_log"))

    def _int(value: object) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    return CampaignSummary(
        path=path,
        hero=str(hero.get("name") or "(no hero yet)"),
        rep=_int(hero.get("rep")),
        gold=_int(hero.get("gp")),
        quests_done=_int(quest_log.get("completed")),
        last_played=str(meta.get("last_played", "")),
    )


def list_campaigns(directory: Path | None = None) -> list[CampaignSummary]:
    directory = directory or campaigns_dir()
    found = [summarize(p) for p in directory.glob(f"*{SUFFIX}")]
    return sorted(found, key=lambda s: s.last_played, reverse=True)
