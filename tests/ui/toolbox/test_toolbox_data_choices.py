"""Choices that carry a rulebook number follow the player's tables (issue 22, deliver 2): the magic item's map
guardians (the monster levels printed) and the rests' lengths (the hours printed)."""

from __future__ import annotations

import pytest
from test_toolbox_dock import click_tool

from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE

pytestmark = pytest.mark.gui


def _edited(library: TableLibrary, table_id: str, values: dict[str, str]) -> TableLibrary:
    table = library.get(table_id)
    rows = [r.model_copy(update={"fields": {**r.fields, "value": values[r.key]}}) if r.key in values else r for r in table.rows]
    return TableLibrary(
        [
            Pack(
                id="mine",
                title="mine",
                tables=[table.model_copy(update={"rows": rows}) if t.id == table_id else t for t in library],
            )
        ]
    )


def _labels(combo) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def test_the_shipped_choices_name_the_text_s_numbers(qtbot, make_dock):
    _table, dock = make_dock()
    magic = click_tool(qtbot, dock, "Magic item")
    assert _labels(magic.inputs["guardians"]) == ["Left to you", "Rolled on monster level 5", "Rolled on monster level 6"]
    rest = click_tool(qtbot, dock, "Rest")
    assert _labels(rest.inputs["rest"]) == ["Partial (minutes)", "Short (8 hours)", "Full (24 hours)"]


def test_the_choices_follow_the_player_s_tables(qtbot, make_dock):
    table, dock = make_dock()
    library = _edited(table.game.library, ITEM_RULES_TABLE, {"A map's guardians": "4th level"})
    table.game.library = _edited(library, ex.RULES_TABLE, {"Short rest": "6 hours"})
    magic = click_tool(qtbot, dock, "Magic item")
    assert _labels(magic.inputs["guardians"]) == ["Left to you", "Rolled on monster level 4"]
    rest = click_tool(qtbot, dock, "Rest")
    assert _labels(rest.inputs["rest"])[1] == "Short (6 hours)"


def _summary(panel) -> str:
    from PySide6.QtWidgets import QLabel

    return panel.findChild(QLabel, "toolSummary").text()


def test_the_summaries_name_the_player_s_numbers(qtbot, make_dock):
    from d100gui.engine.toolbox import scars as sc
    from d100gui.engine.toolbox.classic.healing import HEALING_TABLE

    _shipped_table, shipped = make_dock()
    assert "a d20 against 10 + its HD" in _summary(click_tool(qtbot, shipped, "Morale"))
    assert "nothing on the first day, then a hit point" in _summary(click_tool(qtbot, shipped, "Healing by rest"))
    assert "2d12 encounter check (7 or less" in _summary(click_tool(qtbot, shipped, "Dungeon clock"))
    table, dock = make_dock()
    library = _edited(table.game.library, sc.RULES_TABLE, {"Morale test": "8 + HD"})
    library = _edited(library, HEALING_TABLE, {"HP regained every other day": "2 HP"})
    table.game.library = _edited(library, ex.RULES_TABLE, {"Dungeon encounter on": "6 or less", "Short rest": "6 hours"})
    assert "a d20 against 8 + its HD" in _summary(click_tool(qtbot, dock, "Morale"))
    assert "then 2 hit points on every second day" in _summary(click_tool(qtbot, dock, "Healing by rest"))
    assert "2d12 encounter check (6 or less" in _summary(click_tool(qtbot, dock, "Dungeon clock"))
    assert "a short rest (6 hours)" in _summary(click_tool(qtbot, dock, "Rest"))


def test_the_partial_rest_s_minutes_and_the_clocks_summaries_follow_the_player_s_tables(qtbot, make_dock):
    _shipped_table, shipped = make_dock()
    minutes = click_tool(qtbot, shipped, "Rest").inputs["minutes"]
    assert (minutes.minimum(), minutes.singleStep()) == (10, 10)
    assert "8-hour Rounds (the text's day: morning" in _summary(click_tool(qtbot, shipped, "Travel clock"))
    assert "card of 10 Rounds (100 Turns)" in _summary(click_tool(qtbot, shipped, "Dungeon clock"))
    assert "A partial rest (10-minute spells)" in _summary(click_tool(qtbot, shipped, "Rest"))
    table, dock = make_dock()
    table.game.library = _edited(
        table.game.library, ex.RULES_TABLE, {"Partial rest step": "15", "Hours in a travel Round": "6", "Rounds on the card": "5"}
    )
    rest = click_tool(qtbot, dock, "Rest")
    minutes = rest.inputs["minutes"]
    assert (minutes.minimum(), minutes.singleStep(), minutes.value()) == (15, 15, 15)
    assert "A partial rest (15-minute spells)" in _summary(rest)
    assert "Travel is counted in hours: 6-hour Rounds" in _summary(click_tool(qtbot, dock, "Travel clock"))
    assert "card of 5 Rounds (50 Turns)" in _summary(click_tool(qtbot, dock, "Dungeon clock"))


def _units(panel) -> str:
    from PySide6.QtWidgets import QLabel

    return panel.findChild(QLabel, "toolUnits").text()


def test_the_labels_and_units_quote_the_player_s_numbers(qtbot, make_dock):
    _shipped_table, shipped = make_dock()
    naval = click_tool(qtbot, shipped, "Naval combat")
    assert _labels(naval.inputs["action"])[:2] == ["Grapple (up to 3 tries a turn)", "Cut a grapple (up to 3 tries)"]
    assert naval.inputs["attempts"].maximum() == 3
    assert "falls true on a 7 on 2d6" in _summary(click_tool(qtbot, shipped, "Aerial combat"))
    doors = click_tool(qtbot, shipped, "Doors, traps and listening")
    assert _labels(doors.inputs["procedure"])[0] == "Search for a secret door (10 feet of wall, a turn)"
    assert "a turn underground is about 10 minutes: 2 moves, 10 rounds of melee; an inch of distance is 10 feet" in _units(doors)
    assert "a Turn is 10 minutes of exploring and a Watch is 6 hours" in _units(click_tool(qtbot, shipped, "Morale"))
    assert "a Turn is 6 seconds, a Round is 10 Turns (1 minute)" in _units(click_tool(qtbot, shipped, "Rest"))
    table, dock = make_dock()
    library = _edited(table.game.library, "classic.air_sea", {"Attempts per turn": "2", "Bomb: where it hits": "3d6"})
    library = _edited(library, "classic.underworld_time", {"Wall searched in a turn": "20 feet", "Moves per turn": "3"})
    library = _edited(library, "d20.rules", {"Hours in a Watch": "8 hours"})
    table.game.library = _edited(library, ex.RULES_TABLE, {"Seconds in a Turn": "12"})
    naval = click_tool(qtbot, dock, "Naval combat")
    assert _labels(naval.inputs["action"])[:2] == ["Grapple (up to 2 tries a turn)", "Cut a grapple (up to 2 tries)"]
    assert naval.inputs["attempts"].maximum() == 2
    assert "falls true on a 7 on 3d6" in _summary(click_tool(qtbot, dock, "Aerial combat"))
    doors = click_tool(qtbot, dock, "Doors, traps and listening")
    assert _labels(doors.inputs["procedure"])[0] == "Search for a secret door (20 feet of wall, a turn)"
    assert "3 moves, 10 rounds of melee" in _units(doors)
    assert "a Watch is 8 hours outside" in _units(click_tool(qtbot, dock, "Morale"))
    assert "a Turn is 12 seconds, a Round is 10 Turns (2 minutes)" in _units(click_tool(qtbot, dock, "Rest"))


def test_the_d20_tools_name_the_system_s_die_of_the_player_s_table(qtbot, make_dock):
    _shipped_table, shipped = make_dock()
    assert _summary(click_tool(qtbot, shipped, "Attack")).startswith("Roll a d20: at or under")
    assert "Roll 2d6 on the reaction table" in _summary(click_tool(qtbot, shipped, "Reaction"))
    table, dock = make_dock()
    table.game.library = _edited(table.game.library, "d20.rules", {"The system's die": "d12"})
    table.bridge.tables_changed.emit()  # as the table editor does: the open panel (Attack, the first) follows
    assert _summary(click_tool(qtbot, dock, "Attack")).startswith("Roll a d12: at or under")
    assert "Roll a d12 against Agility" in _summary(click_tool(qtbot, dock, "Initiative"))
    assert "when a d12 comes in over their HD" in _summary(click_tool(qtbot, dock, "Hireling morale"))
    assert "roll a d12 against 10 + its HD" in _summary(click_tool(qtbot, dock, "Morale"))
    assert "is a d12 against Cunning" in _summary(click_tool(qtbot, dock, "Pack retrieval"))
    assert "a Ritual mid-fight is a d12 against Cunning" in _summary(click_tool(qtbot, dock, "Ritual"))


def test_the_cornered_tick_names_the_pursuit_table_s_feet(qtbot, make_dock):
    from d100gui.engine.toolbox.classic.evasion import PURSUIT_TABLE

    _shipped_table, shipped = make_dock()
    assert click_tool(qtbot, shipped, "Fleeing underground").inputs["cornered"].text() == "Surprised within 20 feet"
    table, dock = make_dock()
    table.game.library = _edited(table.game.library, PURSUIT_TABLE, {"No avoiding within": "30 feet"})
    assert click_tool(qtbot, dock, "Fleeing underground").inputs["cornered"].text() == "Surprised within 30 feet"


def test_the_underworld_summaries_name_the_player_s_numbers(qtbot, make_dock):
    _shipped_table, shipped = make_dock()
    doors = _summary(click_tool(qtbot, shipped, "Doors, traps and listening"))
    assert doors.startswith("The d6 checks") and "(up to 3 together; small folk may need a 1)" in doors
    turns = _summary(click_tool(qtbot, shipped, "Underworld turns"))
    assert "2 moves a turn" in turns and "a 10-foot step), 4 in flight" in turns and "1 turn(s) each hour" in turns
    table, dock = make_dock()
    library = _edited(table.game.library, "classic.underworld_time", {"Characters forcing a door": "up to 2"})
    library = _edited(library, "classic.underworld_time", {"Rest after a flight or pursuit": "3"})
    table.game.library = _edited(library, "classic.dice", {"A die": "d8"})
    doors = _summary(click_tool(qtbot, dock, "Doors, traps and listening"))
    assert doors.startswith("The d8 checks") and "(up to 2 together;" in doors
    assert "3 after a flight" in _summary(click_tool(qtbot, dock, "Underworld turns"))


def test_the_classic_summaries_name_the_player_s_numbers(qtbot, make_dock):
    _shipped_table, shipped = make_dock()
    assert "resting: 2 dice" in _summary(click_tool(qtbot, shipped, "Wilderness day"))
    assert "After 6 days of movement" in _summary(click_tool(qtbot, shipped, "Wilderness day"))
    evade = _summary(click_tool(qtbot, shipped, "Evasion and pursuit"))
    assert "at least 2 times as fast" in evade and "50% each hex" in evade and "half a day of rest" in evade
    assert "an NPC told to take it up takes half" in _summary(click_tool(qtbot, shipped, "Sword of another alignment"))
    assert "survives on a d20 at or over" in _summary(click_tool(qtbot, shipped, "Item saving throw"))
    table, dock = make_dock()
    library = _edited(table.game.library, "classic.wilderness_rules", {"Days of movement before a rest": "5"})
    library = _edited(library, "classic.pursuit", {"Caught by a faster monster": "40%", "Rest per hex of pursuit": "1 day"})
    library = _edited(library, "classic.item_rules", {"An NPC directed to take up a sword": "1/4 the damage"})
    table.game.library = _edited(library, "classic.dice", {"A saving throw": "d12"})
    assert "After 5 days of movement" in _summary(click_tool(qtbot, dock, "Wilderness day"))
    evade = _summary(click_tool(qtbot, dock, "Evasion and pursuit"))
    assert "40% each hex" in evade and "each hex costs 1 day(s) of rest" in evade
    assert "takes a quarter" in _summary(click_tool(qtbot, dock, "Sword of another alignment"))
    assert "survives on a d12 at or over" in _summary(click_tool(qtbot, dock, "Item saving throw"))


def test_the_fire_and_lightning_summary_names_the_table_s_loss(qtbot, make_dock):
    from d100gui.engine.toolbox.classic.items import TREASURE_HARM_TABLE

    _shipped_table, shipped = make_dock()
    assert "both knock 25% off jewelry's value" in _summary(click_tool(qtbot, shipped, "Fire and lightning"))
    table, dock = make_dock()
    library = table.game.library
    harm = library.get(TREASURE_HARM_TABLE)
    rows = [
        r.model_copy(update={"fields": {**r.fields, "fire": "devalue Jewelry by 30%"}}) if r.key == "Jewelry" else r
        for r in harm.rows
    ]
    from d100gui.engine.dice.tables import Pack, TableLibrary

    tables = [harm.model_copy(update={"rows": rows}) if t.id == harm.id else t for t in library]
    table.game.library = TableLibrary([Pack(id="mine", title="mine", tables=tables)])
    assert "both knock 30% off jewelry's value" in _summary(click_tool(qtbot, dock, "Fire and lightning"))


def test_the_travel_turn_the_rest_owed_and_pushing_on_s_costs_follow_the_player_s_tables(qtbot, make_dock):
    _shipped_table, shipped = make_dock()
    assert "travel counts 1-hour Turns." in _units(click_tool(qtbot, shipped, "Rest"))
    assert "Rounds of travel the party should rest one." in _summary(click_tool(qtbot, shipped, "Travel clock"))
    assert "Stress (one per HD) and a point of Strength" in _summary(click_tool(qtbot, shipped, "Push on"))
    table, dock = make_dock()
    table.game.library = _edited(
        table.game.library,
        ex.RULES_TABLE,
        {
            "Hours in a travel Turn": "2",
            "Rounds of rest owed": "2",
            "Pushing on: Stress per HD": "2",
            "Pushing on: Strength damage": "3",
        },
    )
    assert "travel counts 2-hour Turns." in _units(click_tool(qtbot, dock, "Rest"))
    assert "the party should rest 2 Rounds." in _summary(click_tool(qtbot, dock, "Travel clock"))
    assert "Stress (2 per HD) and 3 points of Strength" in _summary(click_tool(qtbot, dock, "Push on"))


def test_the_attack_summary_names_the_table_s_armour_loss(qtbot, make_dock):
    from d100gui.engine.toolbox import scars as sc

    _shipped_table, shipped = make_dock()
    assert "knocks the AC down one (0: broken)" in _summary(click_tool(qtbot, shipped, "Attack"))
    table, dock = make_dock()
    table.game.library = _edited(
        table.game.library, sc.RULES_TABLE, {"AC lost on an exact roll": "2", "Armour breaks at AC": "1"}
    )
    table.bridge.tables_changed.emit()  # as the table editor does: the open panel (Attack, the first) follows
    assert "knocks the AC down 2 (1: broken)" in _summary(click_tool(qtbot, dock, "Attack"))


def test_the_ego_contest_summary_names_the_table_s_ego_per_ability(qtbot, make_dock):
    _shipped_table, shipped = make_dock()
    assert "(plus one for each extraordinary ability)" in _summary(click_tool(qtbot, shipped, "Ego contest"))
    table, dock = make_dock()
    table.game.library = _edited(table.game.library, ITEM_RULES_TABLE, {"Egoism per extraordinary ability": "2"})
    assert "(plus 2 for each extraordinary ability)" in _summary(click_tool(qtbot, dock, "Ego contest"))


def test_the_hire_summary_names_the_table_s_orc_upkeep(qtbot, make_dock):
    _shipped_table, shipped = make_dock()
    assert "(orcs for half)" in _summary(click_tool(qtbot, shipped, "Hire men-at-arms"))
    table, dock = make_dock()
    table.game.library = _edited(table.game.library, "classic.wilderness_rules", {"Orc upkeep, of a man's": "1/4"})
    assert "(orcs for a quarter)" in _summary(click_tool(qtbot, dock, "Hire men-at-arms"))
