"""What the rules call for next: the fights an event or a rolled result offers (no UI)."""

from __future__ import annotations

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice_commands import RollDice, RollTable
from d100gui.engine.fight_commands import FaceEscapedMonster
from d100gui.engine.fight_start import StartCombat, fight_from_roll, follow_up
from d100gui.engine.game import Game
from d100gui.engine.protocol import Event
from d100gui.storage.resources import bundled_rules, standard_tilesets


def game(bundled_library, *faces: int) -> Game:
    g = Game(Campaign(), bundled_library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    g.override = ScriptedSource(list(faces))
    return g


def test_an_escaped_monster_in_the_area_must_be_faced():
    event = Event(kind="escaped_monster_here", message="...", topic="decision", data={"pos": "7,9"})
    assert follow_up(event) == FaceEscapedMonster(pos="7,9")


def test_other_events_call_for_nothing():
    assert (
        follow_up(Event(kind="door_row_missing", message="", topic="decision", data={"pos": "7,9", "side": "E", "roll": 32}))
        is None
    )
    assert follow_up(Event(kind="roll_made", message="", topic="dice", data={"index": 0})) is None


def test_a_table_e_roll_offers_its_fight(bundled_library):
    g = game(bundled_library, 0, 5)  # d100 05: Giant Rats
    g.execute(RollTable(table_id="d100.E"))
    [entry] = g.campaign.dice_history
    assert fight_from_roll(entry) == StartCombat(source="table_e", table_value=5)


def test_other_rolls_offer_no_fight(bundled_library):
    g = game(bundled_library, 4, 2, 0, 5)
    g.execute(RollDice(expression="d100"))
    g.execute(RollTable(table_id="d100.D"))
    assert [fight_from_roll(e) for e in g.campaign.dice_history] == [None, None]
