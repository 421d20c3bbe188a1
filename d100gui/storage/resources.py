"""The one loader of the data bundled in ``resources/``: rules, sheet layout, table packs, tiles.

Everything the app ships as data is read here and nowhere else. The engine never reads a file:
it receives what this module loads (``Rules`` travels in ``GameContext.rules``; tile sets and
the table library are handed to :class:`~d100gui.engine.game.Game`). Each bundled file is read
once per process.
"""

from __future__ import annotations

import functools
import json
import os
from importlib import resources
from pathlib import Path

from pydantic import ConfigDict, ValidationError

from d100gui.engine.dice.tables import Pack, TableLibrary, load_pack_text
from d100gui.engine.dungeon.tiles import TileSet, load_tileset_text
from d100gui.engine.game import GameData
from d100gui.engine.model import Model
from d100gui.engine.rules.model import LAYOUT_FILE, RULES_FILE, Rules, RulesInvalid, SheetLayout, load_rules_text
from d100gui.storage import safe_read
from d100gui.storage.atomic import write_text_atomic
from d100gui.storage.paths import user_layout_path

STANDARD_TILESET = "standard"


def resource_dir() -> Path:
    """The bundled ``resources`` folder (``d100gui.resources`` once installed).

    Run from a source folder (``python -m d100gui`` in the checkout) while the app is installed from
    a wheel, the folder's ``d100gui/`` shadows the installed package, and ``resources/`` sits beside
    it rather than inside it (pyproject maps it to ``d100gui.resources`` only when installing): the
    checkout's own ``resources/`` is used then.
    """
    try:
        return Path(str(resources.files("d100gui.resources")))
    except ModuleNotFoundError:
        beside = source_resources()
        if beside is None:
            raise
        return beside


def source_resources(package: Path | None = None) -> Path | None:
    """``resources/`` beside the ``d100gui`` package folder (a source checkout's layout), if it is there."""
    package = package or Path(__file__).resolve().parents[1]
    candidate = package.parent / "resources"
    return candidate if (candidate / "__init__.py").is_file() and (candidate / RULES_FILE).is_file() else None


def app_icon_path() -> Path:
    """The window icon: a copy of ``packaging/``'s 256 px icon (a test keeps the two the same)."""
    return resource_dir() / "d100gui-icon.png"


def read_text(relative: str) -> str:
    """The text of one bundled file, e.g. ``"tables/d100-dungeon.json"``."""
    return (resource_dir() / relative).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def bundled_rules() -> Rules:
    """The rulebook's numbers (d100-rules.json) with the sheet layout (sheet-layout.json) laid in."""
    return load_rules_text(read_text(RULES_FILE), read_text(LAYOUT_FILE))


def bundled_layout_text() -> str:
    """The shipped sheet layout, for a player who resets their edited copy to the defaults."""
    return read_text(LAYOUT_FILE)


def bundled_pack_files() -> list[Path]:
    """The JSON table packs shipped in ``resources/tables``."""
    return sorted((resource_dir() / "tables").glob("*.json"))


def standard_tileset_path() -> Path:
    return resource_dir() / "tilesets" / "standard.json"


@functools.lru_cache(maxsize=1)
def standard_tileset() -> TileSet:
    """Our own 100 Table M tiles, the set the game plays with out of the box."""
    path = standard_tileset_path()
    return load_tileset_text(path.read_text(encoding="utf-8"), str(path))


def standard_tilesets() -> dict[str, TileSet]:
    """The tile sets a new game knows before any of the player's own are added."""
    return {STANDARD_TILESET: standard_tileset()}


@functools.lru_cache(maxsize=1)
def bundled_packs() -> tuple[Pack, ...]:
    """The shipped table packs, parsed and checked once (a library never changes a pack)."""
    return tuple(load_pack_text(path.read_text(encoding="utf-8"), str(path)) for path in bundled_pack_files())


def bundled_game_data() -> GameData:
    """Everything a headless game needs from the bundle: rules, a fresh table library, tile sets.

    Each call gives a library of its own (a typed row lands in one session only); the parsed
    files are shared.
    """
    return GameData(rules=bundled_rules(), library=TableLibrary(bundled_packs()), tilesets=standard_tilesets())


# ---------------------------------------------------------------------- help (the tour and the help topics)
HELP_DIR = "help"


class TourStep(Model):
    """One step of the first-run tour: the widget it points at (by objectName) and what it says."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    target: str
    title: str
    text: str


class HelpTopic(Model):
    """One help topic: a procedure the app automates, in our own words (Markdown), and the panels it explains."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str
    title: str
    file: str
    panels: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    text: str = ""


class _TourFile(Model):
    model_config = ConfigDict(extra="forbid")
    steps: tuple[TourStep, ...]


class _TopicsFile(Model):
    model_config = ConfigDict(extra="forbid")
    topics: tuple[HelpTopic, ...]


class HelpInvalid(ValueError):
    """A help file that does not parse: names the file and the field at fault."""


def _help_json(name: str) -> object:
    relative = f"{HELP_DIR}/{name}"
    try:
        return json.loads(read_text(relative))
    except (OSError, json.JSONDecodeError) as exc:
        raise HelpInvalid(f"{relative}: {exc}") from exc


@functools.lru_cache(maxsize=1)
def help_tour() -> tuple[TourStep, ...]:
    """The first-run tour's steps (``resources/help/tour.json``), in order."""
    try:
        return _TourFile.model_validate(_help_json("tour.json")).steps
    except ValidationError as exc:
        raise HelpInvalid(f"{HELP_DIR}/tour.json: {exc}") from exc


@functools.lru_cache(maxsize=1)
def help_topics() -> tuple[HelpTopic, ...]:
    """The help topics (``resources/help/topics.json``), each with the text of its Markdown file."""
    try:
        index = _TopicsFile.model_validate(_help_json("topics.json")).topics
    except ValidationError as exc:
        raise HelpInvalid(f"{HELP_DIR}/topics.json: {exc}") from exc
    topics = []
    for topic in index:
        try:
            text = read_text(f"{HELP_DIR}/{topic.file}")
        except OSError as exc:
            raise HelpInvalid(f"{HELP_DIR}/topics.json: topic {topic.id!r} names {topic.file!r}, which cannot be read") from exc
        topics.append(topic.model_copy(update={"text": text}))
    return tuple(topics)


# --------------------------------------------------------------------------- the player's sheet layout


def check_layout_text(text: str, name: str = "your sheet layout") -> Rules:
    """The shipped rules with ``text`` as their sheet layout; :class:`RulesInvalid` names the field at fault.

    The layout is checked against the rules it is laid into (a hit-location mod names a real slot).
    """
    try:
        return load_rules_text(read_text(RULES_FILE), text)
    except RulesInvalid as exc:
        raise RulesInvalid(str(exc).replace(LAYOUT_FILE, name)) from None


#: the player's sheet layout is a few KB; a file past this is refused before it is read
MAX_LAYOUT_BYTES = 1024 * 1024


def player_layout_text() -> str:
    """The sheet layout the player edits: their saved copy if they have one, else the shipped file.

    The copy is read like every player file (``safe_read``): only a regular file within
    :data:`MAX_LAYOUT_BYTES`, its JSON shape checked; :class:`~d100gui.storage.safe_read.UnreadableFile` says why not.
    """
    path = user_layout_path()
    if has_player_layout():
        text = safe_read.read_regular_text(path, MAX_LAYOUT_BYTES, "sheet layout")
        safe_read.check_json_shape(text, "sheet layout")
        return text
    return bundled_layout_text()


def has_player_layout() -> bool:
    """Whether the player saved a layout (a pipe or a link there counts: it is refused with why, never skipped)."""
    return os.path.lexists(user_layout_path())


def save_player_layout(layout: SheetLayout) -> Path:
    """Check ``layout`` and keep it as the player's own (written whole or not at all); a bad one raises."""
    text = layout.model_dump_json(indent=2) + "\n"
    check_layout_text(text)
    path = user_layout_path()
    write_text_atomic(path, text)
    return path


def reset_player_layout() -> None:
    """Back to the shipped layout: the player's copy is removed."""
    user_layout_path().unlink(missing_ok=True)


def player_rules() -> tuple[Rules, str]:
    """The rules a game on this machine plays by: the shipped numbers with the player's sheet layout.

    A saved copy that no longer loads (edited by hand, from a newer version) is not used: the
    shipped layout is, and the second value says why ("" when nothing was refused).
    """
    if not has_player_layout():
        return bundled_rules(), ""
    try:
        return check_layout_text(player_layout_text(), str(user_layout_path())), ""
    except (RulesInvalid, OSError, UnicodeDecodeError, safe_read.UnreadableFile) as exc:
        return bundled_rules(), f"Your sheet layout was not used (the shipped one is): {exc}"


def shipped_layout() -> SheetLayout:
    """The sheet layout as shipped (what "Reset to defaults" puts back)."""
    return bundled_rules().sheet


def player_layout() -> SheetLayout:
    """The sheet layout a game here plays by: the player's copy if it loads, else the shipped one."""
    return player_rules()[0].sheet
