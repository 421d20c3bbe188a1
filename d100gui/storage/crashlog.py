"""Crash safety without Qt: the app's log file, the "running" marker, what a crash left, the bug report.

* The log: the ``d100gui`` logger writes to ``d100gui.log`` in the user's log folder
  (:func:`~d100gui.storage.paths.user_log_dir`), rotated at :data:`LOG_BYTES` with
  :data:`LOG_BACKUPS` old files, so months of play never fill a disk.
* The marker: each running app writes ``running-<pid>.json`` in the user data folder and
  removes it when it quits cleanly. One left behind by a process that is gone means that run
  ended uncleanly (a crash, a kill, a power cut); it names the campaign that was open.
* What a crash left: the store commits each action in its own transaction, so the newest good
  state is the store as it is, up to its last committed action (:func:`last_good_state`), and
  the JSON files beside it (the original of a converted campaign, its rotated backups) are the
  older ones a player may prefer.
* The bug report: version, platform, the traceback and the campaign's JSON with its log, as
  plain text to paste in an issue (:func:`bug_report`).
"""

from __future__ import annotations

import json
import logging
import os
import platform
import sqlite3
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from d100gui.storage.atomic import write_text_atomic
from d100gui.storage.campaigns import SUFFIX, CampaignFileError, backups_of, load_campaign
from d100gui.storage.paths import user_data_dir, user_log_dir
from d100gui.storage.store import STORE_SUFFIX, CampaignStore, is_store

LOGGER = "d100gui"
LOG_NAME = "d100gui.log"
#: the log file rotates past this size, keeping LOG_BACKUPS older files: at most 2 MB in all
LOG_BYTES = 512 * 1024
LOG_BACKUPS = 3
MARKER_PREFIX = "running-"

log = logging.getLogger(LOGGER)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# --------------------------------------------------------------------------- the log file


def log_path() -> Path:
    return user_log_dir() / LOG_NAME


class RotatingLog(logging.Handler):
    """The rotating log file, made on the first record: a start without errors never imports
    ``logging.handlers`` (about 30 ms: it brings in sockets and pickle) nor opens the file."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self._file: logging.Handler | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self._file is None:
            from logging.handlers import RotatingFileHandler

            self._file = RotatingFileHandler(self.path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8")
            self._file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        self._file.emit(record)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        super().close()


def start_log_file() -> RotatingLog:
    """Send the ``d100gui`` logger to the rotating log file."""
    handler = RotatingLog(log_path())
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return handler


def stop_log_file(handler: logging.Handler) -> None:
    log.removeHandler(handler)
    handler.close()


# --------------------------------------------------------------------------- the running marker


@dataclass(frozen=True)
class RunMarker:
    """One run of the app, as its marker file says."""

    path: Path
    pid: int
    started: str
    version: str
    campaign: Path | None = None


def _marker_dir() -> Path:
    return user_data_dir()


def write_marker(version: str, campaign: Path | None = None) -> RunMarker:
    """This process is running (with ``campaign`` open): written at start, rewritten when the campaign changes."""
    marker = RunMarker(_marker_dir() / f"{MARKER_PREFIX}{os.getpid()}.json", os.getpid(), _now(), version, campaign)
    _write(marker)
    return marker


def with_campaign(marker: RunMarker, campaign: Path | None) -> RunMarker:
    """The marker naming another campaign (it keeps its start time)."""
    moved = RunMarker(marker.path, marker.pid, marker.started, marker.version, campaign)
    _write(moved)
    return moved


def _write(marker: RunMarker) -> None:
    data = {"pid": marker.pid, "started": marker.started, "version": marker.version}
    data["campaign"] = str(marker.campaign) if marker.campaign is not None else None
    write_text_atomic(marker.path, json.dumps(data))


def clear_marker(marker: RunMarker) -> None:
    """A clean exit: the marker goes."""
    marker.path.unlink(missing_ok=True)


def _read(path: Path) -> RunMarker:
    """A marker file; a damaged one still counts (the run it stood for did not end cleanly)."""
    named = path.stem.removeprefix(MARKER_PREFIX)
    pid = int(named) if named.isdigit() else 0
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return RunMarker(path, pid, "", "")
    data = data if isinstance(data, dict) else {}
    campaign = data.get("campaign")
    return RunMarker(
        path,
        data["pid"] if isinstance(data.get("pid"), int) else pid,
        str(data.get("started", "")),
        str(data.get("version", "")),
        Path(campaign) if isinstance(campaign, str) and campaign else None,
    )


def is_running(pid: int) -> bool:
    """Whether a process with this id is alive (another copy of the app playing: not a crash)."""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if handle:
            ctypes.windll.kernel32.CloseHandle(handle)
        return bool(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def left_behind() -> list[RunMarker]:
    """The markers of runs that did not end cleanly (their process is gone), the newest first."""
    found = []
    for path in _marker_dir().glob(f"{MARKER_PREFIX}*.json"):
        marker = _read(path)
        if marker.pid != os.getpid() and not is_running(marker.pid):
            found.append(marker)
    return sorted(found, key=lambda m: m.started, reverse=True)


def dismiss(markers: list[RunMarker]) -> None:
    """The player has been told: the markers go."""
    for marker in markers:
        clear_marker(marker)


# --------------------------------------------------------------------------- what a crash left


@dataclass(frozen=True)
class LastGood:
    """A campaign after an unclean exit: its store up to the last committed action, and older copies."""

    path: Path
    hero: str = ""
    title: str = ""  # what the player calls it: the hero, else the file's name unless that is the campaign's id
    actions: int = 0
    last_action: str = ""
    at: str = ""
    backups: list[Path] = field(default_factory=list)
    problem: str = ""  # why the store could not be read (then only the backups are offered)


def json_copies(store_path: Path) -> list[Path]:
    """The JSON files beside a store: the original it was converted from and that file's rotated backups."""
    stem = store_path.name.removesuffix(STORE_SUFFIX)
    copies: list[Path] = []
    for name in (stem + SUFFIX, stem + ".json"):
        original = store_path.with_name(name)
        copies += ([original] if original.is_file() else []) + backups_of(original)
    return copies


def last_good_state(path: Path) -> LastGood:
    """What a crash left of a campaign: the store opened (SQLite rolls back the action in progress), summarised.

    A JSON campaign (not a store) is summarised by its file; a file that cannot be read says why.
    """
    copies = json_copies(path) if path.name.endswith(STORE_SUFFIX) else backups_of(path)
    try:
        if is_store(path):
            with CampaignStore.open(path) as store:
                campaign, actions = store.load(tail=1), store.log_length
        else:
            campaign = load_campaign(path)
            actions = campaign.log_length
    except (CampaignFileError, OSError, sqlite3.Error, ValueError) as exc:
        return LastGood(path, backups=copies, problem=str(exc) or type(exc).__name__)
    last = campaign.log[-1] if campaign.log else None
    said = (last.messages[-1] if last.messages else str(last.command.get("kind", ""))) if last else ""
    hero = campaign.character.name.strip() if campaign.character is not None else ""
    stem = path.name.removesuffix(STORE_SUFFIX).removesuffix(SUFFIX)
    title = f"{hero}'s campaign" if hero else ("" if stem == campaign.meta.id else f"the campaign {stem}")
    return LastGood(path, hero, title, actions, said, last.at if last else "", copies)


# --------------------------------------------------------------------------- the bug report


def bug_report(version: str, toolkit: str, trace: str, campaign_json: str | None) -> str:
    """Plain text for an issue: what ran where, what went wrong, and the campaign that was open (JSON, whole log)."""
    lines = [
        "d100gui bug report",
        "",
        f"- d100gui: {version}",
        f"- platform: {platform.platform()} ({platform.machine()})",
        f"- Python: {platform.python_version()} ({platform.python_implementation()})",
        f"- {toolkit}",
        f"- when: {_now()}",
        "",
        "## What went wrong",
        "",
        trace.rstrip(),
        "",
        "## The campaign (JSON with its log; it holds no personal data beyond the hero's name)",
        "",
        campaign_json if campaign_json is not None else "(no campaign was open)",
    ]
    return "\n".join(lines) + "\n"
