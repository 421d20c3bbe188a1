"""The dungeon map: placement and rotation, dead ends, moving, doors, secret passages, saving."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dice.tables import Column, Pack, Row, Table, TableLibrary
from d100gui.engine.dungeon.map import (
    DIRECTIONS,
    ROTATIONS,
    Dungeon,
    DungeonBook,
    EditRefused,
    MoveRefused,
    MoveResult,
    add_dungeon,
    add_note,
    delete_area,
    delete_note,
    edit_note,
    enter,
    leave,
    map_side_to_tile,
    map_square_to_tile,
    mark_escaped,
    mark_interacted,
    mark_searched,
    move,
    move_hero,
    move_note,
    open_door,
    place_manual,
    progress_blocked,
    replace_current,
    rotate_floor,
    secret_passage,
    select_dungeon,
    set_door,
    tile_side_to_map,
    tile_square_to_map,
)
from d100gui.engine.dungeon.tiles import Tile, TileRoller, TileSet

# --------------------------------------------------------------------------- fixtures


def grid(*rows: str) -> list[list[bool]]:
    return [[c == "." for c in row] for row in rows]


def ascii_floor(floor: list[list[bool]]) -> list[str]:
    return ["".join("." if c else "#" for c in row) for row in floor]


ROOM = ("...", "...", "...")

# Numbers used by the tests; every other roll gives a room with all three exits open.
HUB = 1  # room, ahead/left/right open
TEST_TILE = 2  # ahead open, left door, right rock; top-left floor, top-right rock
DEAD = 3  # closed chamber: no exits but the entry
AHEAD_DOOR = 4  # corridor with a door ahead
RIGHT_ONLY = 5  # room, right exit only
LEFT_ONLY = 6  # room, left exit only
AHEAD_ONLY = 7  # corridor


def make_tile(number: int, exits: dict, floor: tuple[str, ...] = ROOM, colour: str = "Y") -> Tile:
    return Tile(number=number, name=f"test {number}", colour=colour, floor=grid(*floor), exits=exits)


def make_tileset() -> TileSet:
    special = {
        HUB: make_tile(HUB, {"ahead": "open", "left": "open", "right": "open"}),
        TEST_TILE: make_tile(TEST_TILE, {"ahead": "open", "left": "door"}, ("..#", "..#", "#.#"), "R"),
        DEAD: make_tile(DEAD, {}, colour="G"),
        AHEAD_DOOR: make_tile(AHEAD_DOOR, {"ahead": "door"}, ("#.#", "#.#", "#.#")),
        RIGHT_ONLY: make_tile(RIGHT_ONLY, {"right": "open"}),
        LEFT_ONLY: make_tile(LEFT_ONLY, {"left": "open"}),
        AHEAD_ONLY: make_tile(AHEAD_ONLY, {"ahead": "open"}, ("#.#", "#.#", "#.#")),
    }
    tiles = [
        special.get(n) or make_tile(n, {"ahead": "open", "left": "open", "right": "open"}, colour="B" if n > 90 else "Y")
        for n in range(1, 101)
    ]
    return TileSet(id="test", title="Test tiles", tiles=tiles)


def door_library() -> TableLibrary:
    """Table D with rows 1-69 known and 70-100 missing, as an excerpt would have."""
    table = Table(
        id="d100.D",
        title="Table D - Doors",
        columns=[Column(key="door", label="Door Type"), Column(key="effect", label="Effect")],
        rows=[
            Row(range=(1, 29), fields={"door": "OPEN (OPEN)", "effect": "The door is open"}),
            Row(range=(30, 49), fields={"door": "LOCKED (LD)", "effect": "Test: Dex [S: Open] (Locks)"}),
            Row(range=(50, 59), fields={"door": "TRAP LOCKED (TLD)", "effect": "Test: Dex [S:Open] (Locks,Traps)"}),
            Row(range=(60, 69), fields={"door": "MAGIC (MS)", "effect": "Sealed"}),
        ],
    )
    return TableLibrary([Pack(id="test", title="test", tables=[table])])


def faces(*values: int) -> list[int]:
    """d10 faces for d100 results: tens then units, 100 is 0 and 0."""
    out: list[int] = []
    for value in values:
        out += [(value // 10) % 10, value % 10]
    return out


class World:
    """Scripted dice shared by the Table M and Table D rollers."""

    def __init__(self, policy: MissingRowPolicy = MissingRowPolicy.ASK) -> None:
        self.source = ScriptedSource()
        dice = Dice(self.source)
        self.tiles = TileRoller(make_tileset(), dice)
        self.doors = TableRoller(door_library(), dice, policy)

    def script(self, *values: int) -> None:
        self.source.push(*faces(*values))

    def move(self, dungeon: Dungeon, side: str, *rolls: int) -> MoveResult:
        self.script(*rolls)
        result = move(dungeon, side, self.tiles, self.doors)  # type: ignore[arg-type]
        assert self.source.remaining == 0, "a scripted roll was not used"
        return result

    def enter(self, dungeon: Dungeon, *rolls: int) -> MoveResult:
        self.script(*rolls)
        result = enter(dungeon, self.tiles, self.doors)
        assert self.source.remaining == 0
        return result

    def tile(self, number: int) -> Tile:
        return self.tiles.tileset.tile(number)


@pytest.fixture
def world() -> World:
    return World()


def hub_at(world: World, pos: tuple[int, int], dungeon: Dungeon | None = None) -> Dungeon:
    """A dungeon with a 4-way room at ``pos`` (entry south) and the hero standing in it."""
    d, _ = place_manual(dungeon or Dungeon(id="q"), pos[0], pos[1], world.tile(HUB), 0)
    return move_hero(d, pos)


# --------------------------------------------------------------------------- geometry helpers


def test_side_helpers_invert_each_other() -> None:
    for rotation in ROTATIONS:
        seen = {tile_side_to_map(s, rotation) for s in ("ahead", "left", "right", "back")}
        assert seen == set(DIRECTIONS)
        for side in ("ahead", "left", "right", "back"):
            assert map_side_to_tile(tile_side_to_map(side, rotation), rotation) == side
        for x in range(3):
            for y in range(3):
                assert map_square_to_tile(tile_square_to_map((x, y), rotation), rotation) == (x, y)


def test_square_helpers_turn_clockwise() -> None:
    assert tile_square_to_map((1, 0), 90) == (2, 1)  # ahead lands east
    assert tile_square_to_map((0, 0), 90) == (2, 0)  # top-left lands top-right
    assert tile_square_to_map((1, 2), 180) == (1, 0)  # entry lands north
    assert tile_square_to_map((1, 0), 270) == (0, 1)  # ahead lands west
    with pytest.raises(EditRefused, match="0, 90, 180 or 270"):
        tile_square_to_map((0, 0), 45)


# --------------------------------------------------------------------------- entering


def test_default_sheet_entrance_is_bottom_middle(world: World) -> None:
    dungeon = Dungeon(id="q")
    assert (dungeon.width, dungeon.height) == (15, 11)
    assert dungeon.entrance == (7, 10)
    result = world.enter(dungeon, HUB)
    assert result.placed and result.end == (7, 10)
    area = result.area
    assert (area.tile, area.rotation, area.entry) == (HUB, 0, "S")
    assert result.dungeon.hero == (7, 10)
    assert result.rolls[0].purpose == "Table M" and result.rolls[0].final == HUB
    # the entrance side is the way out, not a dead end
    assert area.exits["S"].kind == "open"
    assert result.dungeon.dead_ends == []
    with pytest.raises(MoveRefused, match="leads out of the dungeon"):
        world.move(result.dungeon, "S")
    assert leave(result.dungeon).hero is None


def test_configurable_sheet_entrance(world: World) -> None:
    dungeon = Dungeon(id="q", width=9, height=5)
    assert dungeon.entrance == (4, 4)
    assert world.enter(dungeon, DEAD).end == (4, 4)


def test_reentering_a_mapped_entrance_rolls_nothing(world: World) -> None:
    dungeon = leave(world.enter(Dungeon(id="q"), HUB).dungeon)
    again = world.enter(dungeon)
    assert not again.placed and again.rolls == []
    assert again.dungeon.hero == (7, 10)


# --------------------------------------------------------------------------- rotation


# For each travel direction: rotation, the map sides of ahead / left / entry, and the floor.
ROTATION_CASES = {
    "N": (0, "N", "W", "S", ["..#", "..#", "#.#"]),
    "E": (90, "E", "N", "W", ["#..", "...", "###"]),
    "S": (180, "S", "E", "N", ["#.#", "#..", "#.."]),
    "W": (270, "W", "S", "E", ["###", "...", "..#"]),
}


@pytest.mark.parametrize("direction", ["N", "E", "S", "W"])
def test_tile_turns_by_direction_of_travel(world: World, direction: str) -> None:
    rotation, ahead, left, entry, floor = ROTATION_CASES[direction]
    dungeon = hub_at(world, (7, 5))
    result = world.move(dungeon, direction, TEST_TILE, 54)
    area = result.area
    assert area.rotation == rotation
    assert area.entry == entry
    assert area.exits[entry].kind == "open"
    assert area.exits[ahead].kind == "open"
    assert area.exits[left].kind == "door"
    assert area.exits[left].door is not None and area.exits[left].door.label == "TLD (54)"
    right = next(s for s in DIRECTIONS if s not in (ahead, left, entry))
    assert right not in area.exits  # the tile's right side is rock
    assert ascii_floor(area.floor) == floor
    assert area.colour == "R"
    assert result.dungeon.facing == direction


def test_rotate_floor_matches_table() -> None:
    floor = grid("..#", "..#", "#.#")
    for rotation, *_, expected in ROTATION_CASES.values():
        assert ascii_floor(rotate_floor(floor, rotation)) == expected


# --------------------------------------------------------------------------- dead ends


def test_dead_end_against_the_sheet_edge(world: World) -> None:
    dungeon = hub_at(world, (7, 1))
    result = world.move(dungeon, "N", HUB)  # lands on row 0
    area = result.area
    assert area.exits["N"].kind == "dead_end"
    assert area.exits["E"].kind == "open" and area.exits["W"].kind == "open"
    assert [(e.col, e.row, e.side, e.reason) for e in result.dead_ends] == [(7, 0, "N", "edge")]
    assert [(e.col, e.row, e.side) for e in result.dungeon.dead_ends] == [(7, 0, "N")]
    with pytest.raises(MoveRefused, match="dead end: it runs off the edge of the map sheet"):
        world.move(result.dungeon, "N")


def test_manual_tile_in_a_corner_gets_two_edge_dead_ends(world: World) -> None:
    dungeon, placement = place_manual(Dungeon(id="q"), 0, 0, world.tile(HUB), 0)
    assert sorted(e.side for e in placement.dead_ends) == ["N", "W"]
    assert dungeon.areas["0,0"].exits["E"].kind == "open"
    assert dungeon.areas["0,0"].exits["S"].kind == "open"


def test_new_exit_facing_a_wall_is_a_dead_end(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    dungeon, _ = place_manual(dungeon, 8, 4, world.tile(DEAD), 0)  # no exit on its west side
    result = world.move(dungeon, "N", RIGHT_ONLY)  # (7,4): its right exit faces (8,4)
    assert result.area.exits["E"].kind == "dead_end"
    assert [(e.col, e.row, e.side, e.reason) for e in result.dead_ends] == [(7, 4, "E", "area")]
    with pytest.raises(MoveRefused, match="wall of area 8,4"):
        world.move(result.dungeon, "E")


def test_existing_exit_facing_a_new_wall_becomes_a_dead_end(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    dungeon, _ = place_manual(dungeon, 6, 4, world.tile(RIGHT_ONLY), 0)  # exit east, towards (7,4)
    assert dungeon.areas["6,4"].exits["E"].kind == "open"
    result = world.move(dungeon, "N", AHEAD_ONLY)  # (7,4) has no west exit
    assert result.dungeon.areas["6,4"].exits["E"].kind == "dead_end"
    assert (6, 4, "E", "area") in [(e.col, e.row, e.side, e.reason) for e in result.dead_ends]
    # the input dungeon is untouched
    assert dungeon.areas["6,4"].exits["E"].kind == "open"


def test_matching_exits_join_and_rock_inside_the_sheet_stays_open(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    dungeon, _ = place_manual(dungeon, 6, 4, world.tile(RIGHT_ONLY), 0)
    result = world.move(dungeon, "N", HUB)  # (7,4) has a west exit: it meets (6,4)'s east exit
    d = result.dungeon
    assert d.areas["6,4"].exits["E"].kind == "open"
    assert d.areas["7,4"].exits["W"].kind == "open"
    assert d.areas["7,4"].exits["N"].kind == "open"  # faces unmapped rock: unexplored
    assert result.dead_ends == [] and d.dead_ends == []
    walked = world.move(d, "W")  # into the mapped area: nothing rolled
    assert walked.end == (6, 4) and not walked.placed


def test_unbounded_sheet_has_no_edge_dead_ends(world: World) -> None:
    dungeon = hub_at(world, (7, 0), Dungeon(id="q", unbounded=True))
    assert dungeon.areas["7,0"].exits["N"].kind == "open"
    result = world.move(dungeon, "N", HUB)
    assert result.end == (7, -1)
    assert "7,-1" in result.dungeon.areas
    assert result.dead_ends == []
    bounded, _ = place_manual(Dungeon(id="q"), 7, 0, world.tile(HUB), 0)
    assert bounded.areas["7,0"].exits["N"].kind == "dead_end"


def test_delete_area_reopens_the_dead_ends_it_made(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    dungeon, _ = place_manual(dungeon, 6, 4, world.tile(RIGHT_ONLY), 0)
    dungeon = world.move(dungeon, "N", AHEAD_ONLY).dungeon
    dungeon = move_hero(dungeon, (7, 5))
    assert dungeon.areas["6,4"].exits["E"].kind == "dead_end"
    dungeon = delete_area(dungeon, (7, 4))
    assert "7,4" not in dungeon.areas
    assert dungeon.areas["6,4"].exits["E"].kind == "open"
    assert dungeon.dead_ends == []
    with pytest.raises(EditRefused, match="hero stands"):
        delete_area(dungeon, (7, 5))


# --------------------------------------------------------------------------- moving


def test_entering_a_mapped_area_places_nothing(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    first = world.move(dungeon, "N", HUB)
    back = world.move(first.dungeon, "S")  # no dice scripted: none may be rolled
    assert not back.placed and back.rolls == [] and back.dead_ends == []
    assert back.end == (7, 5) and back.dungeon.hero == (7, 5)
    assert back.dungeon.areas == first.dungeon.areas


def test_move_refusals_say_why(world: World) -> None:
    dungeon = world.enter(Dungeon(id="q"), TEST_TILE, 54).dungeon  # left door on the west
    with pytest.raises(MoveRefused, match="no exit on the east side"):
        world.move(dungeon, "E")
    with pytest.raises(MoveRefused) as info:
        world.move(dungeon, "W")
    assert str(info.value) == "The door TLD (54) is closed: open it first."
    assert info.value.door == ((7, 10), "W")
    with pytest.raises(MoveRefused, match="not in the dungeon"):
        world.move(leave(dungeon), "N")


def test_opened_door_lets_the_hero_through(world: World) -> None:
    dungeon = world.enter(Dungeon(id="q"), AHEAD_DOOR, 33).dungeon
    assert dungeon.areas["7,10"].exits["N"].door.label == "LD (33)"  # type: ignore[union-attr]
    opened = open_door(dungeon, (7, 10), "N")
    assert opened.areas["7,10"].exits["N"].door.is_open  # type: ignore[union-attr]
    assert not dungeon.areas["7,10"].exits["N"].door.is_open  # type: ignore[union-attr]
    result = world.move(opened, "N", HUB)
    assert result.end == (7, 9) and result.placed


def test_closed_door_on_the_far_side_blocks_too(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    dungeon, _ = place_manual(dungeon, 7, 4, world.tile(AHEAD_DOOR), 180)  # door faces south, onto the hub
    dungeon = set_door(dungeon, (7, 4), "S", "MS", roll=64)
    with pytest.raises(MoveRefused, match=r"The door MS \(64\) is closed") as info:
        world.move(dungeon, "N")
    assert info.value.door == ((7, 4), "S")


def test_move_does_not_change_its_input(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    snapshot = dungeon.model_dump_json()
    world.move(dungeon, "E", TEST_TILE, 5)
    assert dungeon.model_dump_json() == snapshot


# --------------------------------------------------------------------------- doors


def test_doors_are_rolled_and_labelled(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    result = world.move(dungeon, "N", TEST_TILE, 54)
    assert len(result.door_rolls) == 1
    door_roll = result.door_rolls[0]
    assert (door_roll.col, door_roll.row, door_roll.side) == (7, 4, "W")
    assert door_roll.roll.roll.purpose.startswith("Table D")
    assert door_roll.door.type == "TLD" and door_roll.door.roll == 54 and not door_roll.door.is_open
    assert [r.final for r in result.rolls] == [TEST_TILE, 54]

    open_result = world.move(dungeon, "N", TEST_TILE, 12)
    door = open_result.area.exits["W"].door
    assert door is not None and door.type == "OPEN" and door.label == "OPEN" and door.is_open


def test_dead_end_door_is_not_rolled(world: World) -> None:
    # (8,0) is entered travelling east, so it is turned 90: its left door faces north, off the sheet
    top = world.move(hub_at(world, (7, 0)), "E", TEST_TILE)
    assert top.area.exits["N"].kind == "dead_end" and top.area.exits["N"].door is None
    assert top.door_rolls == [] and [r.final for r in top.rolls] == [TEST_TILE]
    # one row lower the same door faces the sheet and is rolled
    lower = world.move(hub_at(world, (7, 1)), "E", TEST_TILE, 30)
    assert lower.area.exits["N"].kind == "door"
    assert [d.door.label for d in lower.door_rolls] == ["LD (30)"]


def test_missing_door_row_is_pending_under_ask(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    result = world.move(dungeon, "N", AHEAD_DOOR, 85)
    assert [d.door.label for d in result.pending_doors] == ["? (85)"]
    pending = result.pending_doors[0]
    assert pending.roll.row is None and pending.roll.missing == (70, 100)
    with pytest.raises(MoveRefused, match=r"The door \? \(85\) has not been identified yet: type in Table D row 85"):
        world.move(result.dungeon, "N")
    with pytest.raises(EditRefused, match="not been identified"):
        open_door(result.dungeon, (7, 4), "N")


def test_missing_door_row_under_reroll_is_sample_play() -> None:
    world = World(MissingRowPolicy.REROLL)
    dungeon = hub_at(world, (7, 5))
    result = world.move(dungeon, "N", AHEAD_DOOR, 85, 91, 40)
    door_roll = result.door_rolls[0]
    assert door_roll.roll.sample and door_roll.door.label == "LD (40)"
    assert result.pending_doors == []
    assert [r.final for r in result.rolls] == [AHEAD_DOOR, 85, 91, 40]


def test_real_table_d_labels() -> None:
    from d100gui.storage.packs import load_library

    library = load_library().library
    source = ScriptedSource()
    dice = Dice(source)
    world_tiles = TileRoller(make_tileset(), dice)
    doors = TableRoller(library, dice)
    dungeon = hub_at(World(), (7, 5))
    labels = []
    for roll in (33, 5, 41, 77):
        source.push(*faces(AHEAD_DOOR, roll))
        labels.append(move(dungeon, "N", world_tiles, doors).area.exits["N"].door.label)  # type: ignore[union-attr]
    assert labels == ["TLD (33)", "OPEN", "MS (41)", "? (77)"]


def test_set_door_by_hand(world: World) -> None:
    dungeon, placement = place_manual(Dungeon(id="q"), 7, 5, world.tile(AHEAD_DOOR), 0)
    assert placement.door_rolls == []
    assert dungeon.areas["7,5"].exits["N"].door.label == "?"  # type: ignore[union-attr]
    with pytest.raises(MoveRefused, match="roll it on Table D first"):
        world.move(move_hero(dungeon, (7, 5)), "N")
    dungeon = set_door(dungeon, (7, 5), "N", "OPEN")
    assert dungeon.areas["7,5"].exits["N"].door.is_open  # type: ignore[union-attr]
    dungeon = set_door(dungeon, (7, 5), "N", None)
    assert dungeon.areas["7,5"].exits["N"].kind == "open"
    with pytest.raises(EditRefused, match="no exit with a door"):
        set_door(dungeon, (7, 5), "E", "LD")


# --------------------------------------------------------------------------- secret passages


def blocked_dungeon(world: World) -> Dungeon:
    return world.enter(Dungeon(id="q"), DEAD).dungeon


def test_progress_blocked(world: World) -> None:
    assert progress_blocked(blocked_dungeon(world))
    assert not progress_blocked(world.enter(Dungeon(id="q"), HUB).dungeon)
    door = world.enter(Dungeon(id="q"), AHEAD_DOOR, 35).dungeon  # one closed LD door, nothing else
    assert progress_blocked(door)
    assert not progress_blocked(open_door(door, (7, 10), "N"))
    assert not progress_blocked(Dungeon(id="q"))  # not entered yet


def test_progress_blocked_looks_past_mapped_areas(world: World) -> None:
    dungeon = world.enter(Dungeon(id="q"), AHEAD_ONLY).dungeon
    dungeon = world.move(dungeon, "N", AHEAD_DOOR, 45).dungeon  # (7,9): closed door north
    dungeon = move_hero(dungeon, (7, 10))
    assert progress_blocked(dungeon)
    assert not progress_blocked(open_door(dungeon, (7, 9), "N"))


def test_secret_passage_through_rock(world: World) -> None:
    dungeon = blocked_dungeon(world)
    dungeon = secret_passage(dungeon, (7, 10), "E")
    assert dungeon.areas["7,10"].exits["E"].kind == "secret"
    assert not progress_blocked(dungeon)
    result = world.move(dungeon, "E", HUB)
    assert result.end == (8, 10) and result.area.rotation == 90 and result.area.exits["W"].kind == "open"


def test_secret_passage_refusals(world: World) -> None:
    dungeon = blocked_dungeon(world)
    with pytest.raises(EditRefused, match="south side of area 7,10 already has an exit"):
        secret_passage(dungeon, (7, 10), "S")  # the way in
    with pytest.raises(EditRefused, match="already has an exit"):
        secret_passage(world.enter(Dungeon(id="q"), AHEAD_DOOR, 35).dungeon, (7, 10), "N")
    with pytest.raises(EditRefused, match="no mapped area 3,3"):
        secret_passage(dungeon, (3, 3), "N")
    edge, _ = place_manual(dungeon, 0, 10, world.tile(DEAD), 0)
    with pytest.raises(EditRefused, match="off the map sheet"):
        secret_passage(edge, (0, 10), "W")
    open_hub = world.enter(Dungeon(id="q"), AHEAD_ONLY).dungeon
    with pytest.raises(EditRefused, match="only be added when the dungeon blocks all progress"):
        secret_passage(open_hub, (7, 10), "E")
    assert secret_passage(open_hub, (7, 10), "E", force=True).areas["7,10"].exits["E"].kind == "secret"


def test_secret_passage_through_a_dead_end_into_a_mapped_wall(world: World) -> None:
    dungeon = world.enter(Dungeon(id="q"), RIGHT_ONLY).dungeon
    dungeon, _ = place_manual(dungeon, 8, 10, world.tile(DEAD), 180)  # entry north: walls off the east exit
    assert dungeon.areas["7,10"].exits["E"].kind == "dead_end"
    assert progress_blocked(dungeon)
    dungeon = secret_passage(dungeon, (7, 10), "E")
    assert dungeon.areas["7,10"].exits["E"].kind == "secret"
    assert dungeon.areas["8,10"].exits["W"].kind == "secret"
    assert dungeon.dead_ends == []
    assert world.move(dungeon, "E").end == (8, 10)


def test_tile_placed_beside_a_secret_passage_is_broken_into(world: World) -> None:
    dungeon = secret_passage(blocked_dungeon(world), (7, 10), "E")
    dungeon = place_manual(dungeon, 8, 9, world.tile(HUB), 0)[0]
    dungeon, placement = place_manual(dungeon, 8, 10, world.tile(DEAD), 180)  # entry north, no west exit
    assert placement.area.exits["W"].kind == "secret"
    assert dungeon.areas["7,10"].exits["E"].kind == "secret"


# --------------------------------------------------------------------------- notes and marks


def test_notes_and_marks(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    dungeon = world.move(dungeon, "N", HUB).dungeon
    dungeon, first = add_note(dungeon, (7, 5), "Lever on the wall", (2, 0))
    dungeon, second = add_note(dungeon, (7, 4), "Chasm")
    assert (first.ref, second.ref, dungeon.next_note) == (1, 2, 3)
    dungeon = move_note(dungeon, 1, (7, 4), (0, 2))
    assert dungeon.areas["7,5"].notes == []
    assert [(n.ref, n.square) for n in dungeon.areas["7,4"].notes] == [(2, None), (1, (0, 2))]
    dungeon = edit_note(dungeon, 2, "Wide chasm")
    dungeon = delete_note(dungeon, 1)
    assert [n.text for n in dungeon.areas["7,4"].notes] == ["Wide chasm"]
    dungeon, third = add_note(dungeon, (7, 4), "again")
    assert third.ref == 3  # numbers are not reused
    with pytest.raises(EditRefused, match="x and y 0-2"):
        add_note(dungeon, (7, 4), "bad", (3, 0))
    with pytest.raises(EditRefused, match="no note 9"):
        move_note(dungeon, 9, (7, 4))
    dungeon = mark_searched(mark_interacted(mark_escaped(dungeon, (7, 4), "Giant Rats"), (7, 4)), (7, 4))
    area = dungeon.areas["7,4"]
    assert (area.searched, area.interacted, area.escaped) == (True, True, "Giant Rats")
    assert mark_escaped(dungeon, (7, 4), "").areas["7,4"].escaped == ""
    with pytest.raises(EditRefused, match="no mapped area 0,0"):
        mark_searched(dungeon, (0, 0))


def test_place_manual_refusals(world: World) -> None:
    dungeon = hub_at(world, (7, 5))
    with pytest.raises(EditRefused, match="already mapped"):
        place_manual(dungeon, 7, 5, world.tile(HUB), 0)
    with pytest.raises(EditRefused, match="off the map sheet"):
        place_manual(dungeon, 15, 5, world.tile(HUB), 0)
    with pytest.raises(EditRefused, match="off the map sheet"):
        place_manual(dungeon, 7, 11, world.tile(HUB), 0)
    with pytest.raises(EditRefused, match="0, 90, 180 or 270"):
        place_manual(dungeon, 3, 3, world.tile(HUB), 45)


# --------------------------------------------------------------------------- saving


def test_json_round_trip_mid_exploration(world: World) -> None:
    dungeon = world.enter(Dungeon(id="q", name="Training 1", quest="T1"), HUB).dungeon
    dungeon = world.move(dungeon, "N", TEST_TILE, 54).dungeon
    dungeon = world.move(dungeon, "N", AHEAD_DOOR, 85).dungeon  # a pending door
    dungeon = move_hero(dungeon, (7, 10))
    dungeon = world.move(dungeon, "E", DEAD).dungeon
    dungeon, _ = add_note(dungeon, (8, 10), "Statue", (1, 1))
    dungeon = mark_escaped(mark_searched(dungeon, (8, 10)), (7, 9), "Giant Bats")
    dungeon = secret_passage(dungeon, (8, 10), "N", force=True)
    text = dungeon.model_dump_json()
    again = Dungeon.model_validate_json(text)
    assert again == dungeon
    assert again.model_dump_json() == text
    assert again.hero == (8, 10) and isinstance(again.hero, tuple)
    assert again.areas["7,8"].exits["N"].door.label == "? (85)"  # type: ignore[union-attr]

    result = world.move(move_hero(again, (7, 10)), "W", HUB)
    assert MoveResult.model_validate_json(result.model_dump_json()) == result

    book = add_dungeon(add_dungeon(DungeonBook(), Dungeon(id="old")), dungeon)
    assert book.current == 1 and book.current_dungeon == dungeon
    book = replace_current(book, again)
    book = select_dungeon(book, 0)
    assert DungeonBook.model_validate_json(book.model_dump_json()) == book
    assert book.current_dungeon is not None and book.current_dungeon.id == "old"
    with pytest.raises(EditRefused, match="already a dungeon"):
        add_dungeon(book, Dungeon(id="old"))


def test_corrupt_area_key_refused() -> None:
    dungeon_json = '{"id": "q", "areas": {"1,1": {"col": 2, "row": 1, "tile": 1, "colour": "Y", "floor": [[true,true,true],[true,true,true],[true,true,true]]}}}'
    with pytest.raises(ValueError, match="stored under '1,1'"):
        Dungeon.model_validate_json(dungeon_json)


def test_random_walk_keeps_the_map_consistent() -> None:
    """A long seeded walk on the standard tiles: exits always agree with their neighbours."""
    import random

    from d100gui.engine.dice.dice import RandomSource
    from d100gui.engine.dungeon.map import neighbour, opposite
    from d100gui.storage.resources import standard_tileset

    dice = Dice(RandomSource(2024))
    tiles = TileRoller(standard_tileset(), dice)
    doors = TableRoller(door_library(), dice)
    rng = random.Random(7)
    dungeon = enter(Dungeon(id="walk"), tiles, doors).dungeon
    for _ in range(300):
        here = dungeon.hero_area()
        assert here is not None
        for side, ex in here.exits.items():
            if ex.kind == "door" and ex.door is not None and ex.door.pending:
                dungeon = set_door(dungeon, here.pos, side, "JD")
            if ex.kind == "door":
                dungeon = open_door(dungeon, here.pos, side)
        here = dungeon.hero_area()
        assert here is not None
        choices = [s for s, e in here.exits.items() if e.kind != "dead_end" and not (here.pos == dungeon.entrance and s == "S")]
        if progress_blocked(dungeon):
            rock = [
                (a.pos, s)
                for a in dungeon.areas.values()
                for s in DIRECTIONS
                if s not in a.exits and dungeon.placeable(neighbour(a.pos, s)) and dungeon.area_at(neighbour(a.pos, s)) is None
            ]
            if not rock:
                break
            dungeon = secret_passage(dungeon, *rock[0])
            dungeon = move_hero(dungeon, rock[0][0])
            continue
        try:
            fresh = [s for s in choices if dungeon.area_at(neighbour(here.pos, s)) is None]
            dungeon = move(dungeon, rng.choice(fresh or choices), tiles, doors).dungeon
        except MoveRefused as refused:
            assert refused.door is not None  # only a far-side door may stop a listed exit
            dungeon = set_door(dungeon, *refused.door, "OPEN")
    assert len(dungeon.areas) > 40
    for area in dungeon.areas.values():
        assert 0 <= area.col < 15 and 0 <= area.row < 11
        for side, ex in area.exits.items():
            other = dungeon.area_at(neighbour(area.pos, side))
            if other is not None and ex.kind != "secret":
                assert (ex.kind == "dead_end") == (opposite(side) not in other.exits), (area.pos, side)
            if ex.kind == "open" and other is None and not (area.pos == dungeon.entrance and side == "S"):
                assert dungeon.placeable(neighbour(area.pos, side))
    rebuilt = Dungeon.model_validate_json(dungeon.model_dump_json())
    assert rebuilt.dead_ends == dungeon.dead_ends
    assert all(ex.kind == "dead_end" for e in dungeon.dead_ends for ex in [dungeon.areas[f"{e.col},{e.row}"].exits[e.side]])


def test_dead_end_record_is_rebuilt_on_load(world: World) -> None:
    dungeon = hub_at(world, (7, 0))
    assert [(e.col, e.row, e.side) for e in dungeon.dead_ends] == [(7, 0, "N")]
    data = dungeon.model_dump()
    data["dead_ends"] = []
    assert Dungeon.model_validate(data).dead_ends == dungeon.dead_ends
