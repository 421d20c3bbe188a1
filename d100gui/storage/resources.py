"""The one loader of the data bundled in ``resources/``: rules, sheet layout, table packs, tiles.

Everything the app ships as data is read here and nowhere else. The engine never reads a file:
it receives what this module loads (``Rules`` travels in ``GameContext.rules``; tile sets and
the table library are handed to :class:`~d100gui.engine.game.Game`). Each bundled file is read
once per process.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from d100gui.engine.dice.tables import Pack, TableLibrary, load_pack_text
from d100gui.engine.dungeon.tiles import TileSet, load_tileset_text
from d100gui.engine.game import GameData
from d100gui.engine.rules.model import LAYOUT_FILE, RULES_FILE, Rules, load_rules_text

STANDARD_TILESET = "standard"


def resource_dir() -> Path:
    """The bundled ``resources`` folder (``d100gui.resources`` once installed)."""
    return Path(str(resources.files("d100gui.resources")))


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
