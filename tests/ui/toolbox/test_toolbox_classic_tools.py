"""The classic stocking, wilderness, castle, evasion, healing, ego-contest and reference tools through the dock's widgets."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLabel, QScrollArea
from test_toolbox_dock import click, click_tool, type_into

from d100gui.engine.toolbox.classic.wilderness import WildernessTrip
from d100gui.ui.toolbox.reference_panel import ReferencePanel
from d100gui.ui.toolbox.tool_panel import ToolPanel
from d100gui.ui.toolbox.tools import REFERENCE, WILDERNESS

pytestmark = pytest.mark.gui


def pct(*values: int) -> list[int]:
    return [face for v in values for face in ([0, 0] if v == 100 else [v // 10, v % 10])]


def choose(combo: QComboBox, value: object) -> None:
    index = combo.findData(value)
    assert index >= 0, value
    combo.setCurrentIndex(index)


def test_the_wilderness_tools_have_their_own_group_and_units(make_dock):
    _table, dock = make_dock()
    groups = [dock.tree.topLevelItem(i).text(0) for i in range(dock.tree.topLevelItemCount())]
    assert WILDERNESS in groups and REFERENCE in groups
    assert "a wilderness turn is one day" in dock.panels["classic_wilderness_day"].findChild(QLabel, "toolUnits").text()


def test_a_wilderness_day_moves_checks_and_keeps_the_trip(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Wilderness day")
    assert isinstance(panel, ToolPanel)
    means = panel.inputs["means"]
    assert isinstance(means, QComboBox)
    listed = [means.itemData(i) for i in range(means.count())]
    assert listed[:3] == ["Man on foot", "Wagon or Cart", "Draft Horse"] and "Roc" in listed  # from the movement table
    choose(panel.inputs["terrain"], "woods")
    choose(means, "Light Horse")
    # lost 3 (woods 1-2: on course), encounter 5 (woods 5-6): type 1 Men, typical 1 Bandits, surprise 4/4, 4d6 = 8
    table.dice.push(3, 5, 1, 1, 4, 4, 2, 2, 2, 2)
    click(qtbot, panel.roll_button)
    text = panel.result_box.text.toPlainText()
    assert "Moved 5 hex(es) by Light Horse" in text and "Men -> Bandits" in text and "80 yards away" in text
    assert table.game.campaign.toolbox.wilderness == WildernessTrip(day=1, since_rest=1)
    assert "1 day(s) so far" in panel.status.text()
    assert dock.results.item(dock.results.count() - 1).text().startswith(f"{dock.results.count()}. Wilderness day: ")


def test_a_party_of_six_days_must_rest_and_the_refusal_says_so(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Wilderness day")
    for _ in range(6):
        table.dice.push(6, 1)  # clear: lost 6 (no), encounter 1 (no)
        click(qtbot, panel.roll_button)
    assert "A day of rest is due" in panel.status.text()
    click(qtbot, panel.roll_button)
    assert panel.result_box.error.isVisible() and "must rest a full day first" in panel.result_box.error.text()
    resting = panel.inputs["resting"]
    assert isinstance(resting, QCheckBox)
    resting.setChecked(True)
    table.dice.push(1, 2)
    click(qtbot, panel.roll_button)
    assert "a day of rest" in panel.result_box.text.toPlainText() and "0 moved since" in panel.status.text()


def test_same_dice_reruns_a_wilderness_day_with_a_corrected_terrain(qtbot, make_dock):
    table, dock = make_dock(scripted=False)
    panel = click_tool(qtbot, dock, "Wilderness day")
    click(qtbot, panel.roll_button)
    first = [r.final for r in table.game.campaign.log[-1].rolls][:2]
    choose(panel.inputs["terrain"], "swamp")
    click(qtbot, panel.result_box.same_button)
    assert len(table.game.campaign.log) == 1 and [r.final for r in table.game.campaign.log[-1].rolls][:2] == first
    assert "in swamp" in panel.result_box.text.toPlainText()
    assert table.game.campaign.toolbox.wilderness.day == 1  # the first day was taken back, not added to


def test_stock_rooms_lists_each_room_and_refuses_level_zero(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Stock rooms")
    assert panel.range_labels["level"].text() == "1 or more" and panel.range_labels["rooms"].text() == "1 to 500"
    type_into(qtbot, panel.inputs["level"], "0")
    assert panel.inputs["level"].value() == 1  # the spin box keeps to the engine's range
    type_into(qtbot, panel.inputs["rooms"], "2")
    table.dice.push(1, 1, 1, 3, 4, *pct(50), 3, *pct(99, 99, 99), 3, 2)
    click(qtbot, panel.roll_button)
    lines = panel.result_box.text.toPlainText().splitlines()
    assert (
        lines[1] == "Room 1: Kobolds (Table 1); treasure: 400 SP, 30 GP (worth 70 GP)"
        and lines[2] == "Room 2: empty; no treasure"
    )
    click(qtbot, panel.result_box.copy_button)
    assert "Room 2: empty" in QApplication.clipboard().text()


def test_castle_evasion_and_healing_tools_roll_through_the_engine(qtbot, make_dock):
    table, dock = make_dock()
    castle = click_tool(qtbot, dock, "Castle")
    table.dice.push(5)  # on the hex: 1-3 brings them out
    click(qtbot, castle.roll_button)
    assert "nobody comes out" in castle.result_box.text.toPlainText()
    evade = click_tool(qtbot, dock, "Evasion and pursuit")
    choose(evade.inputs["surprise"], "party")
    table.dice.push(*pct(100))  # 4 of 10 for a party of 4: 50%, doubled: 100%
    click(qtbot, evade.roll_button)
    assert "doubled -> 100%" in evade.result_box.text.toPlainText() and "evaded" in evade.result_box.text.toPlainText()
    heal = click_tool(qtbot, dock, "Healing by rest")
    click(qtbot, heal.roll_button)
    assert "7 day(s) of complete rest: 3 of 5 HP back" in heal.result_box.text.toPlainText()
    assert [e.command["kind"] for e in table.game.campaign.log] == [
        "toolbox_classic_castle", "toolbox_classic_evade", "toolbox_classic_healing",
    ]  # fmt: skip


def test_the_ego_contest_asks_for_a_sword_then_tests_the_one_made(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Ego contest")
    assert "No sword generated yet" in panel.status.text()
    click(qtbot, panel.roll_button)
    assert panel.result_box.error.isVisible() and "No sword yet" in panel.result_box.error.text()
    panel.inputs["new_sword"].setChecked(True)
    choose(panel.inputs["state"], "fresh")
    table.dice.push(*pct(1, 10), 7, *pct(100, 5), 9, *pct(1), 4)  # Egoism 9 sword (17) against 10 + 10 + 4: no roll
    click(qtbot, panel.roll_button)
    text = panel.result_box.text.toPlainText()
    assert "Sword +1" in text and "sword 17 against wielder 24 (fresh: +4)" in text and "wielder prevails" in text
    assert "Sword tested: Sword +1, Intelligence 7, Egoism 9." in panel.status.text()


def test_a_reference_panel_shows_the_tables_as_printed_and_copies_them(qtbot, make_dock):
    _table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Movement and terrain")
    assert isinstance(panel, ReferencePanel)
    move, cost, party = panel.tables
    assert move.grid.rowCount() == 19 and move.grid.item(0, 0).text() == "Man on foot" and move.grid.item(0, 1).text() == "3"
    assert cost.grid.item(0, 0).text() == "Mountains" and party.grid.rowCount() == 2
    click(qtbot, move.copy_button)
    copied = QApplication.clipboard().text().splitlines()
    assert copied[0] == "Wilderness Movement (hexes per day)" and copied[1] == "Type\t# of Hexes\tTravel"
    assert copied[2] == "Man on foot\t3\tland"
    specialists = click_tool(qtbot, dock, "Specialists")
    [table] = specialists.tables
    assert table.grid.horizontalHeaderItem(2).text() == "In short" and table.grid.item(0, 1).text() == "1000/month"
    for key in (
        "ref_swords",
        "ref_staves",
        "ref_artifacts",
        "ref_naval",
        "ref_swimming",
        "ref_aerial",
        "ref_campaign",
        "ref_travel_rounds",
    ):
        shown = dock.choose(key)
        assert isinstance(shown, ReferencePanel) and shown.tables and not shown.missing.isVisible()


def test_the_swimming_tool_lists_the_armour_of_the_table(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Swimming")
    armour = panel.inputs["armor"]
    assert [armour.itemData(i) for i in range(armour.count())] == ["Plate", "Chain-type", "Leather", "None"]
    choose(armour, "Chain-type")
    table.dice.push(*pct(90))
    click(qtbot, panel.roll_button)
    assert "90 against 80%" in panel.result_box.text.toPlainText() and "must shed" in panel.result_box.text.toPlainText()


def test_every_tool_has_a_title_and_a_key_of_its_own():
    from d100gui.ui.toolbox.tools import tool_groups

    tools = [tool for _text, group in tool_groups() for tool in group]
    assert len({t.title for t in tools}) == len(tools) and len({t.key for t in tools}) == len(tools)


def test_the_campaign_time_tool_keeps_the_calendar(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Campaign time")
    assert "0 day(s) of game time" in panel.status.text()
    click(qtbot, panel.roll_button)  # a dungeon expedition: a week
    assert "7 day(s) of game time (1 week(s) and 0 day(s))" in panel.status.text()
    assert table.game.campaign.toolbox.calendar.days == 7


def test_a_hoard_by_level_lists_every_part_with_its_total_and_reruns_on_the_same_dice(qtbot, make_dock):
    table, dock = make_dock(scripted=False)
    panel = click_tool(qtbot, dock, "Treasure by level")
    assert isinstance(panel, ToolPanel) and panel.range_labels["level"].text() == "1 or more"
    type_into(qtbot, panel.inputs["level"], "0")
    assert panel.inputs["level"].value() == 1  # the spin box takes no level above the surface
    type_into(qtbot, panel.inputs["level"], "5")
    click(qtbot, panel.roll_button)
    [event] = table.game.campaign.log[-1].events
    hoard = event.payload().hoard
    text = panel.result_box.text.toPlainText()
    assert text.splitlines() == hoard.lines() and hoard.level == 5 and hoard.row == "4-5"
    assert f"worth {hoard.total_gp:,} GP" in text
    first = table.game.campaign.log[-1].rolls[0].final
    type_into(qtbot, panel.inputs["level"], "13")
    click(qtbot, panel.result_box.same_button)
    assert table.game.campaign.log[-1].rolls[0].final == first and "row 13 or more" in panel.result_box.text.toPlainText()
    assert dock.results.count() == 1 and "Treasure by level: Treasure, level 13" in dock.results.item(0).text()


def test_the_magic_item_tool_rolls_a_maps_guardians_on_the_level_picked(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Magic item")
    assert isinstance(panel, ToolPanel)
    choose(panel.inputs["guardians"], 6)
    table.dice.push(*pct(80, 95), 1, 3, *pct(25, 95), 1)  # a magic & treasure map; the 6th level table's 1: Giants
    click(qtbot, panel.roll_button)
    assert table.dice.remaining == 0
    assert "30,000 Silver" in panel.result_box.text.toPlainText()
    assert "guarded by Giants" in panel.result_box.text.toPlainText()
    assert table.game.campaign.log[-1].command["guardians"] == 6


def test_reference_panels_that_count_time_say_whose_units_they_use(make_dock):
    _table, dock = make_dock()
    travel = dock.panels["ref_travel_rounds"].findChild(QLabel, "toolUnits")
    campaign = dock.panels["ref_campaign"].findChild(QLabel, "toolUnits")
    assert travel is not None and "travel counts 1-hour Turns" in travel.text()  # the exploration text
    assert campaign is not None and "a wilderness turn is one day" in campaign.text()  # the classic text
    assert dock.panels["ref_specialists"].findChild(QLabel, "toolUnits") is None  # money, no time


def test_in_a_short_dock_the_result_is_scrolled_into_view_after_a_roll(qtbot, make_dock):
    table, dock = make_dock()
    dock.resize(420, 520)
    panel = click_tool(qtbot, dock, "Wilderness day")
    scroll = dock.stack.currentWidget()
    assert isinstance(scroll, QScrollArea) and scroll.widget() is panel

    def in_view() -> bool:
        top = panel.result_box.mapTo(panel, QPoint(0, 0)).y() - scroll.verticalScrollBar().value()
        return 0 <= top < scroll.viewport().height()

    assert not in_view()  # below the inputs and the Roll button: out of sight before the roll
    table.dice.push(3, 1)  # clear: lost 3 (no), encounter die 1 (no)
    click(qtbot, panel.roll_button)
    assert "Day 1 in clear" in panel.result_box.text.toPlainText()
    assert in_view()
