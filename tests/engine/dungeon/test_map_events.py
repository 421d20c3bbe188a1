"""Map events are declared, typed and keep the data keys the main window reads."""

from __future__ import annotations

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.events import RollMade, RowProvided
from d100gui.engine.dice.tables import Pack, Row, TableLibrary
from d100gui.engine.dungeon.commands import AddNote, MarkArea, MoveHero, ResolveDoorRow
from d100gui.engine.dungeon.events import DoorRowMissing, EscapedMonsterHere, MapChanged
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon
from d100gui.engine.game import Game
from d100gui.engine.protocol import EVENT_KINDS
from d100gui.storage.resources import bundled_rules, standard_tilesets

PORTCULLIS = Row(range=(88, 92), fields={"door": "TEST PORTCULLIS (TP)", "effect": "Test: Str -20 [S:Open] [F:-1HP] (Strong)"})


def explored(bundled_library) -> Game:
    """Entrance tile 3; north tile 12 (door E OPEN 5); east tile 6 turned 90: E = TLD 32, N = ? 90, S = OPEN 1."""
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    game = Game(Campaign(), library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource([0, 3, 1, 2, 0, 5, 0, 6, 3, 2, 9, 0, 0, 1])
    for command in (NewDungeon(quest="Dungeon Training 1"), EnterDungeon(), MoveHero(side="N"), MoveHero(side="E")):
        game.execute(command)
    return game


def test_map_kinds_are_declared_with_their_topics():
    assert EVENT_KINDS["map_changed"].payload is MapChanged and EVENT_KINDS["map_changed"].topic == "map"
    assert EVENT_KINDS["door_row_missing"].payload is DoorRowMissing
    assert EVENT_KINDS["escaped_monster_here"].payload is EscapedMonsterHere
    assert {EVENT_KINDS[k].topic for k in ("door_row_missing", "escaped_monster_here")} == {"decision"}


def test_a_move_reports_its_rolls_the_missing_door_row_and_the_new_position(bundled_library):
    game = explored(bundled_library)
    move_east = game.campaign.log[-1].events
    payloads = [e.payload() for e in move_east]
    assert payloads == [
        RollMade(index=3),
        RollMade(index=4),
        RollMade(index=5),
        DoorRowMissing(pos="8,9", side="N", roll=90),
        RollMade(index=6),
        MapChanged(pos="8,9"),
    ]
    door = move_east[3]
    assert (door.topic, door.data) == ("decision", {"pos": "8,9", "side": "N", "roll": 90})


def test_a_typed_door_row_is_a_row_provided_with_the_row(bundled_library):
    game = explored(bundled_library)
    changed, provided = game.execute(ResolveDoorRow(pos="8,9", side="N", row=PORTCULLIS))
    assert changed.payload() == MapChanged()
    assert provided.payload() == RowProvided(table_id="d100.D", row=PORTCULLIS)
    assert "index" not in provided.data


def test_a_map_edit_is_a_map_changed_without_position(bundled_library):
    game = explored(bundled_library)
    [event] = game.execute(AddNote(pos="7,9", text="Lever"))
    assert (event.kind, event.topic, event.data) == ("map_changed", "map", {"pos": None})


def test_walking_into_an_escaped_monster_names_it(bundled_library):
    game = explored(bundled_library)
    game.execute(MarkArea(pos="7,9", mark="escaped", monster="Giant Rats"))
    events = game.execute(MoveHero(side="W"))
    assert [e.payload() for e in events] == [MapChanged(pos="7,9"), EscapedMonsterHere(pos="7,9", monster="Giant Rats")]
    assert events[-1].data["pos"] == "7,9"
