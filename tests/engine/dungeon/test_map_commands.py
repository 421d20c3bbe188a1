"""Map commands through the game: placing by the rules, door rolls in the dice history, refusals,
manual edits marked in the log, undo and replay."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Pack, Row, TableLibrary
from d100gui.engine.dungeon.commands import (
    AddNote,
    DeleteArea,
    MarkArea,
    MoveHero,
    OpenDoor,
    PlaceTile,
    ResolveDoorRow,
    SetDoor,
    SetTileSet,
)
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon, SecretPassage
from d100gui.engine.game import Game, replay
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.resources import bundled_rules, standard_tilesets


def fresh_game(bundled_library) -> Game:
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    return Game(Campaign(), library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())


def explored(bundled_library) -> Game:
    """Entrance: tile 3 (straight); north: tile 12 (fork, door E = OPEN 5);
    east: tile 6 (crossroads of doors) turned 90: E = TLD 32, N = ? 90, S = OPEN 1."""
    game = fresh_game(bundled_library)
    game.override = ScriptedSource([0, 3, 1, 2, 0, 5, 0, 6, 3, 2, 9, 0, 0, 1])
    game.execute(NewDungeon(quest="Dungeon Training 1"))
    game.execute(EnterDungeon())
    game.execute(MoveHero(side="N"))
    game.execute(MoveHero(side="E"))
    return game


def test_exploring_places_rotated_tiles_and_rolls_doors(bundled_library):
    game = explored(bundled_library)
    dungeon = game.campaign.dungeons.current_dungeon
    assert dungeon.quest == "Dungeon Training 1"
    assert sorted(dungeon.areas) == ["7,10", "7,9", "8,9"]
    assert dungeon.hero == (8, 9)
    east = dungeon.areas["8,9"]
    assert (east.tile, east.rotation, east.entry) == (6, 90, "W")
    assert east.exits["E"].door.label == "TLD (32)"
    assert east.exits["N"].door.label == "? (90)"
    assert east.exits["S"].door.label == "OPEN"
    assert dungeon.areas["7,9"].exits["E"].door.label == "OPEN"


def test_mapping_rolls_appear_in_the_dice_history_and_log(bundled_library):
    game = explored(bundled_library)
    history = game.campaign.dice_history
    assert [h.roll.final for h in history] == [3, 12, 5, 6, 32, 90, 1]
    assert history[0].roll.purpose == "Table M"
    assert history[4].table.row.fields["door"] == "TRAP LOCKED (TLD)"
    assert history[5].table.row is None
    move_east = game.campaign.log[-1]
    assert move_east.command == {"kind": "move_hero", "side": "E"}
    assert [r.final for r in move_east.rolls] == [6, 32, 90, 1]


def test_closed_and_unknown_doors_refuse_with_reason(bundled_library):
    game = explored(bundled_library)
    with pytest.raises(CommandRefused, match=r"TLD \(32\) is closed"):
        game.execute(MoveHero(side="E"))
    with pytest.raises(CommandRefused, match="90"):
        game.execute(MoveHero(side="N"))
    game.execute(OpenDoor(pos="8,9", side="E"))
    assert game.campaign.dungeons.current_dungeon.areas["8,9"].exits["E"].door.is_open


def test_entering_a_mapped_area_places_nothing(bundled_library):
    game = explored(bundled_library)
    game.override = ScriptedSource([])  # any roll would fail: none may be made
    game.execute(MoveHero(side="W"))
    dungeon = game.campaign.dungeons.current_dungeon
    assert dungeon.hero == (7, 9)
    assert len(dungeon.areas) == 3
    assert game.campaign.log[-1].rolls == []


def test_missing_door_row_is_typed_and_labels_the_door(bundled_library):
    game = explored(bundled_library)
    row = Row(range=(88, 92), fields={"door": "TEST PORTCULLIS (TP)", "effect": "Test: Str -20 [S:Open] [F:-1HP] (Strong)"})
    with pytest.raises(CommandRefused, match="cover the roll of 90"):
        game.execute(ResolveDoorRow(pos="8,9", side="N", row=row.model_copy(update={"range": (95, 99)})))
    game.execute(ResolveDoorRow(pos="8,9", side="N", row=row))
    door = game.campaign.dungeons.current_dungeon.areas["8,9"].exits["N"].door
    assert door.label == "TP (90)"
    assert game.library.get("d100.D").find(90).user
    with pytest.raises(CommandRefused, match="not waiting"):
        game.execute(ResolveDoorRow(pos="8,9", side="N", row=row))


def test_manual_edits_are_marked_in_the_log(bundled_library):
    game = explored(bundled_library)
    game.override = ScriptedSource([])
    game.execute(PlaceTile(pos="3,3", tile=24, rotation=180))
    game.execute(SetDoor(pos="8,9", side="E", door_type="jd", roll=35, is_open=False))
    game.execute(DeleteArea(pos="3,3"))
    kinds = [(e.command["kind"], e.manual) for e in game.campaign.log[-3:]]
    assert kinds == [("place_tile", True), ("set_door", True), ("delete_area", True)]
    assert game.campaign.dungeons.current_dungeon.areas["8,9"].exits["E"].door.label == "JD (35)"
    with pytest.raises(CommandRefused, match="1-100"):
        game.execute(SetDoor(pos="8,9", side="E", door_type="JD", roll=0))
    with pytest.raises(CommandRefused, match="numbered 1-100"):
        game.execute(PlaceTile(pos="2,2", tile=101))


def test_notes_marks_and_secret_passage_rules(bundled_library):
    game = explored(bundled_library)
    game.execute(AddNote(pos="7,9", text="Lever on the wall"))
    game.execute(MarkArea(pos="7,9", mark="searched"))
    game.execute(MarkArea(pos="7,9", mark="escaped", monster="Giant Rats"))
    area = game.campaign.dungeons.current_dungeon.areas["7,9"]
    assert [(n.ref, n.text) for n in area.notes] == [(1, "Lever on the wall")]
    assert area.searched and area.escaped == "Giant Rats"
    with pytest.raises(CommandRefused, match="text"):
        game.execute(AddNote(pos="7,9", text="   "))
    with pytest.raises(CommandRefused):
        game.execute(SecretPassage(pos="7,10", side="W"))  # progress is not blocked
    game.execute(SecretPassage(pos="7,10", side="W", force=True))
    assert game.campaign.dungeons.current_dungeon.areas["7,10"].exits["W"].kind == "secret"


def test_no_dungeon_and_bad_position_are_refused(bundled_library):
    game = fresh_game(bundled_library)
    with pytest.raises(CommandRefused, match="no dungeon yet"):
        game.execute(EnterDungeon())
    game.execute(NewDungeon())
    with pytest.raises(CommandRefused, match="not an area position"):
        game.execute(MarkArea(pos="here", mark="searched"))
    with pytest.raises(CommandRefused, match="no tile set"):
        game.execute(SetTileSet(tileset="mine"))
    with pytest.raises(CommandRefused, match="3-200"):
        game.execute(NewDungeon(width=1))


def test_undo_and_replay_reproduce_the_map(bundled_library):
    game = explored(bundled_library)
    before = game.campaign.dungeons.model_dump()
    game.override = None
    game.execute(OpenDoor(pos="8,9", side="E"))
    game.undo()
    assert game.campaign.dungeons.model_dump() == before
    start = Campaign(meta=game.campaign.meta, start_rng_state=game.campaign.start_rng_state)
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    # the scripted faces are not in the generator: replay with the same script
    game2 = Game(start.model_copy(deep=True), library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game2.override = ScriptedSource([0, 3, 1, 2, 0, 5, 0, 6, 3, 2, 9, 0, 0, 1])
    for entry in game.campaign.log:
        game2.execute(game2.parse_command(entry.command))
    assert game2.campaign.dungeons == game.campaign.dungeons


def test_random_exploration_replays_exactly(bundled_library):
    game = fresh_game(bundled_library)
    game.execute(NewDungeon())
    game.execute(EnterDungeon())
    for _ in range(30):
        area = game.campaign.dungeons.current_dungeon.hero_area()
        for side in ("N", "E", "W", "S"):
            try:
                game.execute(MoveHero(side=side))
                break
            except CommandRefused:
                continue
    start = Campaign(meta=game.campaign.meta, start_rng_state=game.campaign.start_rng_state)
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    final = replay(game.campaign.log, library, ALL_COMMANDS, start, rules=bundled_rules(), tilesets=standard_tilesets())
    assert final.dungeons == game.campaign.dungeons
    assert area is not None
    assert Campaign.model_validate_json(game.campaign.model_dump_json()) == game.campaign


def test_the_hero_cannot_walk_out_of_a_fight():
    """Issue 11: a plain move is refused while a fight is on (it used to map a new area mid-fight)."""
    from d100gui.engine.api import Session
    from d100gui.storage.resources import bundled_game_data

    session = Session.new(bundled_game_data(), seed=5, policy="reroll")
    for step in session_creation_steps():
        session.run(step)
    session.run({"kind": "new_dungeon"})
    session.run({"kind": "enter_dungeon"})
    session.run({"kind": "start_combat", "source": "snake"})
    dungeon = session.campaign.dungeons.current_dungeon
    area, areas = dungeon.hero, len(dungeon.areas)
    for side in ("N", "E", "S", "W"):
        with pytest.raises(CommandRefused, match="fight"):
            session.run({"kind": "move_hero", "side": side})
    dungeon = session.campaign.dungeons.current_dungeon
    assert (dungeon.hero, len(dungeon.areas)) == (area, areas)


def session_creation_steps():
    from d100gui.engine.api import creation_steps

    return creation_steps("Wren", {"STR": 50, "DEX": 40, "INT": 30}, ["Aware", "Dodge"])
