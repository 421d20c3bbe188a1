"""Table M tiles: the bundled standard set, the checks that refuse bad sets, the tile roller."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dungeon.tiles import Tile, TileRoller, TileSetInvalid, check_tile, load_tileset_text, validate_tileset
from d100gui.storage.resources import standard_tileset, standard_tileset_path
from d100gui.storage.tilesets import read_tileset_file


@pytest.fixture(scope="module")
def standard_data() -> dict:
    return json.loads(standard_tileset_path().read_text(encoding="utf-8"))


@pytest.fixture
def data(standard_data: dict) -> dict:
    return copy.deepcopy(standard_data)


def tile_data(data: dict, number: int) -> dict:
    return next(t for t in data["tiles"] if t["number"] == number)


def grid(*rows: str) -> list[list[bool]]:
    return [[c == "." for c in row] for row in rows]


def problems_for(data: dict, number: int | None) -> list[str]:
    return [p.message for p in validate_tileset(data, "bad.json") if p.tile == number]


# --------------------------------------------------------------------------- the standard set


def test_standard_set_colour_counts() -> None:
    tileset = standard_tileset()
    assert tileset.colour_counts() == {"Y": 38, "R": 33, "G": 19, "B": 10}
    first_ninety = Counter(tileset.tile(n).colour for n in range(1, 91))
    assert first_ninety == {"Y": 38, "R": 33, "G": 19}
    assert all(tileset.tile(n).colour == "B" for n in range(91, 101))


def test_standard_set_all_hundred_valid(standard_data: dict) -> None:
    assert validate_tileset(standard_data, "standard.json") == []
    tileset = standard_tileset()
    assert sorted(t.number for t in tileset.tiles) == list(range(1, 101))
    assert all(check_tile(t) == [] for t in tileset.tiles)


def test_standard_set_is_varied_and_playable() -> None:
    tiles = standard_tileset().tiles
    kinds = Counter(t.kind for t in tiles)
    for kind in ("dead end", "straight", "bend left", "bend right", "T junction", "fork", "crossroads"):
        assert kinds[kind] >= 3, kind
    assert kinds["dead end"] <= 10
    rooms = [t for t in tiles if all(all(row) for row in t.floor)]
    assert len(rooms) >= 15
    assert any(not t.exits for t in rooms)  # a closed chamber
    exits = [kind for t in tiles for kind in t.exits.values()]
    doors = exits.count("door")
    assert 0.2 <= doors / len(exits) <= 0.3
    assert sum(1 for t in tiles if t.exits) >= 90
    # a dungeon grows: on average more than one way on per area
    assert len(exits) / len(tiles) > 1.3
    assert len({t.name for t in tiles}) == 100


# --------------------------------------------------------------------------- refusals


def test_disconnected_floor_refused(data: dict) -> None:
    tile = tile_data(data, 12)
    tile["floor"] = grid("#.#", "###", "#.#")
    tile["exits"] = {"ahead": "open"}
    found = problems_for(data, 12)
    assert any("disconnected floor" in m and "ahead" in m for m in found)
    assert any("middle square must be floor" in m for m in found)


def test_floor_round_a_rock_middle_is_not_called_disconnected(data: dict) -> None:
    tile = tile_data(data, 12)
    tile["floor"] = grid("...", ".#.", "...")
    tile["exits"] = {"ahead": "open", "left": "door"}
    found = problems_for(data, 12)
    assert found == ["the middle square must be floor"]


def test_exit_on_rock_square_refused(data: dict) -> None:
    tile = tile_data(data, 30)
    tile["floor"] = grid("#.#", "#.#", "#.#")
    tile["exits"] = {"ahead": "open", "left": "door"}
    found = problems_for(data, 30)
    assert len(found) == 1
    assert "left exit sits on a rock square" in found[0]


def test_exit_off_a_side_middle_refused(data: dict) -> None:
    tile_data(data, 44)["exits"] = {"top-left": "open"}
    tile_data(data, 45)["exits"] = {"back": "door"}
    assert any("off a side middle" in m and "top-left" in m for m in problems_for(data, 44))
    assert any("entry (back) is always open" in m for m in problems_for(data, 45))


def test_entry_must_be_floor(data: dict) -> None:
    tile_data(data, 3)["floor"] = grid("#.#", "#.#", "###")
    tile_data(data, 3)["exits"] = {"ahead": "open"}
    assert any("entry square" in m for m in problems_for(data, 3))


def test_bad_colour_refused(data: dict) -> None:
    tile_data(data, 77)["colour"] = "P"
    found = validate_tileset(data, "bad.json")
    assert len(found) == 1
    assert found[0].tile == 77
    assert "bad colour 'P'" in found[0].message
    assert str(found[0]).startswith("bad.json, tile 77, field colour:")


def test_wrong_tile_count_refused(data: dict) -> None:
    data["tiles"] = [t for t in data["tiles"] if t["number"] != 64]
    messages = [str(p) for p in validate_tileset(data, "bad.json")]
    assert any("wrong tile count" in m and "99" in m for m in messages)
    assert any("missing number" in m and "64" in m for m in messages)


def test_duplicate_and_missing_numbers_refused(data: dict) -> None:
    tile_data(data, 7)["number"] = 8
    found = validate_tileset(data, "bad.json")
    assert any(p.tile == 8 and "duplicate number" in p.message for p in found)
    assert any("missing number" in p.message and "7" in p.message for p in found)
    assert not any("wrong tile count" in p.message for p in found)


def test_number_out_of_range_refused(data: dict) -> None:
    tile_data(data, 100)["number"] = 101
    found = validate_tileset(data, "bad.json")
    assert any(p.tile == 101 and p.field == "number" for p in found)
    assert any("missing number" in p.message and "100" in p.message for p in found)


def test_bad_floor_shape_refused(data: dict) -> None:
    tile_data(data, 9)["floor"] = [[True, True], [True, True]]
    found = validate_tileset(data, "bad.json")
    assert [(p.tile, p.field) for p in found] == [(9, "floor")]
    assert "3 rows of 3" in found[0].message


def test_loader_raises_with_every_problem(data: dict) -> None:
    tile_data(data, 5)["colour"] = "X"
    tile_data(data, 6)["floor"] = grid("#.#", "#.#", "#.#")
    tile_data(data, 6)["exits"] = {"right": "open"}
    with pytest.raises(TileSetInvalid) as info:
        load_tileset_text(json.dumps(data), "mine.json")
    tiles = sorted(p.tile for p in info.value.problems if p.tile is not None)
    assert tiles == [5, 6]
    assert "mine.json, tile 6" in str(info.value)


def test_not_json_refused() -> None:
    with pytest.raises(TileSetInvalid) as info:
        load_tileset_text("{ not json", "broken.json")
    assert "not valid JSON" in str(info.value)
    assert "broken.json" in str(info.value)


def test_not_an_object_refused() -> None:
    found = validate_tileset([1, 2, 3], "list.json")
    assert len(found) == 1 and "JSON object" in found[0].message


def test_read_tileset_file_names_the_file(tmp_path, data: dict) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data), encoding="utf-8")
    assert read_tileset_file(good).tile(1).number == 1
    bad = tmp_path / "bad.json"
    tile_data(data, 50)["colour"] = "Q"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(TileSetInvalid) as info:
        read_tileset_file(bad)
    assert str(bad) in str(info.value) and "tile 50" in str(info.value)
    with pytest.raises(TileSetInvalid, match="cannot read"):
        read_tileset_file(tmp_path / "absent.json")


# --------------------------------------------------------------------------- rolling


def test_tile_roller_reads_d100_as_tens_and_units() -> None:
    tileset = standard_tileset()
    roller = TileRoller(tileset, Dice(ScriptedSource([5, 4, 0, 0, 0, 7])))
    first = roller.roll()
    assert first.roll.final == 54 and first.tile.number == 54
    assert first.roll.purpose == "Table M"
    assert roller.roll().tile.number == 100
    assert roller.roll().tile == tileset.tile(7)


def test_tile_model_refuses_out_of_range_number() -> None:
    with pytest.raises(ValueError):
        Tile(number=0, colour="Y", floor=grid("#.#", "...", "#.#"))
