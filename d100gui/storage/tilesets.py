"""Tile sets on disk: the bundled standard set and the player's own in ``<user data>/tilesets``.

A player's set is one JSON file per set, named by its id (``my-printed-sheet.json``). Every
set is checked (:func:`d100gui.engine.dungeon.tiles.load_tileset_text`) when it is read, saved,
imported or exported, so a set with a disconnected floor, an exit off a side middle, a wrong
tile count or a bad colour never gets in: the problems name the tile and the reason, and
the standard set stays in use. The standard set is built in: always listed, never written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from d100gui.engine.dungeon.tiles import MAX_TILESET_BYTES, TileProblem, TileSet, TileSetInvalid, load_tileset_text
from d100gui.storage import safe_read
from d100gui.storage.atomic import write_text_atomic
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import standard_tileset as load_standard_tileset

STANDARD_ID = "standard"
TILESETS_DIR = "tilesets"
_ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_ID_LENGTH = 40


def read_tileset_file(path: Path) -> TileSet:
    """Read and check one tile set file; problems name the file and tile.

    Only a regular file of at most 5 MB is read, its JSON shape checked before parsing.
    """
    name = str(path)
    try:
        text = safe_read.read_regular_text(path, MAX_TILESET_BYTES, "tile set")
        safe_read.check_json_shape(text, "tile set")
    except safe_read.UnreadableFile as exc:
        raise TileSetInvalid([TileProblem(name, None, "", str(exc))]) from None
    tileset = load_tileset_text(text, name)
    try:  # a "\udc00" escape parses to a lone surrogate, which no file can hold: refused here, not when saved
        tileset_json(tileset).encode("utf-8")
    except UnicodeEncodeError:
        problem = "the tile set holds a broken character (a lone surrogate) in its text"
        raise TileSetInvalid([TileProblem(name, None, "", problem)]) from None
    return tileset


class TileSetStorageError(ValueError):
    """A tile-set file operation that cannot be done; the message says why."""


@dataclass(frozen=True)
class TileSetEntry:
    """One tile set the player can choose: built in, or a file (maybe broken) of their own."""

    id: str
    title: str
    path: Path | None
    builtin: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        return not self.problems


def user_tilesets_dir() -> Path:
    """``<user data>/tilesets`` (created on first use)."""
    path = user_data_dir() / TILESETS_DIR
    path.mkdir(parents=True, exist_ok=True)
    return path


def tileset_id_for(title: str) -> str:
    """A file-safe id from a set's name: ``"My Sheet #2"`` gives ``my-sheet-2``."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:MAX_ID_LENGTH].strip("-")
    return slug or "my-tiles"


def _check_id(set_id: str) -> str:
    if not _ID_PATTERN.match(set_id) or len(set_id) > MAX_ID_LENGTH:
        raise TileSetStorageError(f"{set_id!r} is not a tile set id: use lower-case letters, digits and dashes.")
    return set_id


def _path_for(set_id: str) -> Path:
    return user_tilesets_dir() / f"{_check_id(set_id)}.json"


def tileset_json(tileset: TileSet) -> str:
    """The set as JSON, one tile per line (easy to read and to compare)."""
    head = tileset.model_dump(exclude={"tiles"})
    lines = [json.dumps(t.model_dump(), ensure_ascii=False) for t in sorted(tileset.tiles, key=lambda t: t.number)]
    body = ",\n    ".join(lines)
    head_text = json.dumps(head, indent=2, ensure_ascii=False)[:-2]  # drop the closing "\n}"
    return f'{head_text},\n  "tiles": [\n    {body}\n  ]\n}}\n'


def check_tileset(tileset: TileSet, file: str = "<tile set>") -> TileSet:
    """The set as it would be read back from its JSON; :class:`TileSetInvalid` if it is not usable."""
    return load_tileset_text(tileset_json(tileset), file)


def list_tilesets() -> list[TileSetEntry]:
    """The standard set first, then the player's sets by title; broken files say what is wrong."""
    entries = [TileSetEntry(STANDARD_ID, load_standard_tileset().title, None, builtin=True)]
    mine: list[TileSetEntry] = []
    for path in sorted(user_tilesets_dir().glob("*.json")):
        set_id = path.stem
        if set_id == STANDARD_ID or not _ID_PATTERN.match(set_id):
            mine.append(TileSetEntry(set_id, path.name, path, problems=[f"{path.name}: not a usable tile set file name"]))
            continue
        try:
            tileset = read_tileset_file(path)
        except TileSetInvalid as exc:
            mine.append(TileSetEntry(set_id, path.name, path, problems=[str(p) for p in exc.problems]))
            continue
        mine.append(TileSetEntry(set_id, tileset.title, path))
    return entries + sorted(mine, key=lambda e: e.title.lower())


def load_tileset(set_id: str) -> TileSet:
    """A tile set by id, checked. :class:`TileSetInvalid` names the tile and the reason."""
    if set_id == STANDARD_ID:
        return load_standard_tileset()
    path = _path_for(set_id)
    if not path.exists():
        raise TileSetStorageError(f"There is no tile set {set_id!r} in {path.parent}.")
    return read_tileset_file(path).model_copy(update={"id": set_id})


def load_or_standard(set_id: str) -> tuple[TileSet, str | None]:
    """The set ``set_id``, or the standard set and the reason it is used instead."""
    try:
        return load_tileset(set_id), None
    except TileSetInvalid as exc:
        return load_standard_tileset(), f"Tile set {set_id!r} cannot be used, so the standard set stays in use:\n{exc}"
    except TileSetStorageError as exc:
        return load_standard_tileset(), f"{exc} The standard set stays in use."


def save_tileset(tileset: TileSet, title: str | None = None) -> TileSet:
    """Save a set of the player's under ``title`` (its id comes from the title); the saved set.

    Refuses an invalid set (:class:`TileSetInvalid`) and the standard set's id.
    """
    title = (title if title is not None else tileset.title).strip()
    if not title:
        raise TileSetStorageError("A tile set needs a name.")
    set_id = tileset_id_for(title)
    if set_id == STANDARD_ID:
        raise TileSetStorageError("The standard tile set is built in and is never overwritten: choose another name.")
    named = tileset.model_copy(update={"id": set_id, "title": title})
    checked = check_tileset(named, f"{set_id}.json")
    write_text_atomic(_path_for(set_id), tileset_json(checked))
    return checked


def _free_id(base: str) -> str:
    base = tileset_id_for(base)
    candidate, n = base, 2
    while candidate == STANDARD_ID or (user_tilesets_dir() / f"{candidate}.json").exists():
        suffix = f"-{n}"
        candidate = base[: MAX_ID_LENGTH - len(suffix)] + suffix
        n += 1
    return candidate


def import_tileset(path: Path) -> TileSet:
    """Copy a tile set file into the player's sets (checked first); the imported set.

    It keeps its title; its id is made free if taken (the standard set and the player's
    other sets are never overwritten).
    """
    tileset = read_tileset_file(Path(path))
    set_id = _free_id(tileset.id if tileset.id != STANDARD_ID else f"{tileset.title or 'imported'}")
    named = tileset.model_copy(update={"id": set_id})
    write_text_atomic(_path_for(set_id), tileset_json(named))
    return named


def export_tileset(tileset: TileSet, path: Path) -> None:
    """Write a set to a JSON file of the player's choosing (checked first)."""
    checked = check_tileset(tileset, str(path))
    write_text_atomic(Path(path), tileset_json(checked))


def delete_tileset(set_id: str) -> None:
    """Remove one of the player's sets (never the standard one)."""
    if set_id == STANDARD_ID:
        raise TileSetStorageError("The standard tile set is built in and cannot be deleted.")
    path = _path_for(set_id)
    if not path.exists():
        raise TileSetStorageError(f"There is no tile set {set_id!r}.")
    path.unlink()


__all__ = [
    "STANDARD_ID",
    "TileSetEntry",
    "TileSetStorageError",
    "check_tileset",
    "delete_tileset",
    "export_tileset",
    "import_tileset",
    "list_tilesets",
    "load_or_standard",
    "load_tileset",
    "save_tileset",
    "tileset_id_for",
    "tileset_json",
    "user_tilesets_dir",
]
