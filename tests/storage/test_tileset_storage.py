"""The player's tile sets on disk: listing, loading (checked), saving, import and export."""

from __future__ import annotations

import copy
import json

import pytest

from d100gui.engine.dungeon.tiles import TileSetInvalid, load_tileset_text
from d100gui.storage import tilesets as storage
from d100gui.storage.resources import standard_tileset, standard_tileset_path


@pytest.fixture
def standard_data() -> dict:
    return json.loads(standard_tileset_path().read_text(encoding="utf-8"))


def write_set(path, data: dict) -> None:
    path.write_text(json.dumps(data), encoding="utf-8")


def test_user_sets_live_under_the_user_data_dir(_fresh_home) -> None:
    folder = storage.user_tilesets_dir()
    assert folder == _fresh_home / "data" / "tilesets"
    assert folder.is_dir()


def test_standard_set_is_always_listed_first() -> None:
    entries = storage.list_tilesets()
    assert [(e.id, e.builtin, e.usable) for e in entries] == [("standard", True, True)]
    assert storage.load_tileset("standard") == standard_tileset()


def test_json_round_trip() -> None:
    standard = standard_tileset()
    text = storage.tileset_json(standard)
    assert load_tileset_text(text) == standard
    assert text.count("\n") > 100  # one tile per line


def test_save_list_and_load() -> None:
    edited = standard_tileset()
    tiles = [t.model_copy(update={"colour": "G"}) if t.number == 1 else t for t in edited.tiles]
    saved = storage.save_tileset(edited.model_copy(update={"tiles": tiles}), "Cellar Sheet")
    assert saved.id == "cellar-sheet"
    assert (storage.user_tilesets_dir() / "cellar-sheet.json").exists()
    entries = storage.list_tilesets()
    assert [(e.id, e.title) for e in entries] == [("standard", standard_tileset().title), ("cellar-sheet", "Cellar Sheet")]
    assert storage.load_tileset("cellar-sheet").tile(1).colour == "G"
    assert storage.load_tileset("standard").tile(1).colour == standard_tileset().tile(1).colour


def test_save_refuses_the_standard_name_and_an_invalid_set() -> None:
    standard = standard_tileset()
    with pytest.raises(storage.TileSetStorageError, match="never overwritten"):
        storage.save_tileset(standard, "Standard")
    broken = [
        t.model_copy(update={"floor": [[True] * 3, [True, False, True], [True] * 3]}) if t.number == 12 else t
        for t in standard.tiles
    ]
    with pytest.raises(TileSetInvalid) as caught:
        storage.save_tileset(standard.model_copy(update={"tiles": broken}), "Broken")
    assert any(p.tile == 12 and "middle square" in p.message for p in caught.value.problems)
    assert list(storage.user_tilesets_dir().iterdir()) == []


def test_broken_file_is_listed_with_its_problems_and_the_standard_set_stays(standard_data: dict) -> None:
    data = copy.deepcopy(standard_data)
    data.update(id="bad", title="Bad")
    data["tiles"][6]["colour"] = "X"
    write_set(storage.user_tilesets_dir() / "bad.json", data)
    entry = storage.list_tilesets()[1]
    assert entry.id == "bad" and not entry.usable
    assert any("tile 7" in p and "bad colour" in p for p in entry.problems)
    with pytest.raises(TileSetInvalid):
        storage.load_tileset("bad")
    tileset, reason = storage.load_or_standard("bad")
    assert tileset.id == "standard"
    assert "standard set stays in use" in reason and "tile 7" in reason


def test_missing_set_falls_back_to_standard() -> None:
    tileset, reason = storage.load_or_standard("nowhere")
    assert tileset.id == "standard" and "no tile set 'nowhere'" in reason
    assert storage.load_or_standard("standard") == (standard_tileset(), None)
    with pytest.raises(storage.TileSetStorageError):
        storage.load_tileset("../escape")


def test_import_never_overwrites(tmp_path, standard_data: dict) -> None:
    data = copy.deepcopy(standard_data)
    data.update(id="sheet", title="Sheet")
    source = tmp_path / "sheet.json"
    write_set(source, data)
    first = storage.import_tileset(source)
    second = storage.import_tileset(source)
    assert (first.id, second.id) == ("sheet", "sheet-2")
    # A file claiming to be the standard set gets an id of its own.
    data.update(id="standard", title="Copied standard")
    write_set(source, data)
    third = storage.import_tileset(source)
    assert third.id == "copied-standard"
    assert sorted(p.name for p in storage.user_tilesets_dir().iterdir()) == ["copied-standard.json", "sheet-2.json", "sheet.json"]


def test_import_refuses_a_bad_file_and_writes_nothing(tmp_path, standard_data: dict) -> None:
    data = copy.deepcopy(standard_data)
    data["tiles"] = data["tiles"][:99]
    source = tmp_path / "short.json"
    write_set(source, data)
    with pytest.raises(TileSetInvalid) as caught:
        storage.import_tileset(source)
    assert any("wrong tile count" in p.message for p in caught.value.problems)
    assert list(storage.user_tilesets_dir().iterdir()) == []


def test_export_writes_a_checked_file(tmp_path) -> None:
    out = tmp_path / "out" / "mine.json"
    storage.export_tileset(standard_tileset(), out)
    assert load_tileset_text(out.read_text(encoding="utf-8")) == standard_tileset()
    broken = standard_tileset()
    tiles = [
        t.model_copy(update={"exits": {"ahead": "door"}, "floor": [[True, False, True]] * 3}) if t.number == 40 else t
        for t in broken.tiles
    ]
    bad_out = tmp_path / "bad.json"
    with pytest.raises(TileSetInvalid):
        storage.export_tileset(broken.model_copy(update={"tiles": tiles}), bad_out)
    assert not bad_out.exists()


def test_delete_a_set_but_never_the_standard() -> None:
    storage.save_tileset(standard_tileset(), "Spare")
    storage.delete_tileset("spare")
    assert [e.id for e in storage.list_tilesets()] == ["standard"]
    with pytest.raises(storage.TileSetStorageError):
        storage.delete_tileset("standard")


def test_id_from_a_title() -> None:
    assert storage.tileset_id_for("My Sheet #2!") == "my-sheet-2"
    assert storage.tileset_id_for("***") == "my-tiles"
    assert len(storage.tileset_id_for("x" * 100)) == storage.MAX_ID_LENGTH
