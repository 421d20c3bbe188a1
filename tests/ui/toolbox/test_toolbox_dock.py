"""The Toolbox dock through its real widgets: pick a tool, set its inputs, Roll, read the result and the results list."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QSpinBox, QTreeWidgetItem

from d100gui.engine.campaign import Campaign
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.commands import TOOLBOX_COMMANDS
from d100gui.ui.toolbox.clock_panels import DungeonClockPanel, TravelClockPanel
from d100gui.ui.toolbox.dock import ToolboxPanel
from d100gui.ui.toolbox.tool_panel import ToolPanel
from d100gui.ui.toolbox.tools import CLASSIC, EXPLORATION, SCARS, tool_groups

pytestmark = pytest.mark.gui


def tool_item(dock: ToolboxPanel, title: str) -> QTreeWidgetItem:
    [item] = dock.tree.findItems(title, Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive)
    return item


def click_tool(qtbot, dock: ToolboxPanel, title: str):
    """Click the tool's line in the list, as a player does; return the panel shown."""
    item = tool_item(dock, title)
    dock.tree.scrollToItem(item)
    rect = dock.tree.visualItemRect(item)
    qtbot.mouseClick(dock.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    return dock.current_panel


def type_into(qtbot, spin: QSpinBox, text: str) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)
    spin.interpretText()


def click(qtbot, button: QPushButton) -> None:
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_the_tools_are_grouped_by_rule_text_and_each_says_its_units(make_dock):
    _table, dock = make_dock()
    groups = [dock.tree.topLevelItem(i).text(0) for i in range(dock.tree.topLevelItemCount())]
    assert groups[:2] == [SCARS, EXPLORATION]
    kinds = {c.model_fields["kind"].default for c in TOOLBOX_COMMANDS}
    assert (CLASSIC in groups) == any(k.startswith("toolbox_classic_") for k in kinds)
    scars_tools = [dock.tree.topLevelItem(0).child(i).text(0) for i in range(dock.tree.topLevelItem(0).childCount())]
    assert scars_tools == [  # the Ritual tool added by issue 22
        "Attack", "Fight tracker", "Initiative", "Morale", "Hireling morale", "Reaction", "Encounter distance", "Zero health",
        "Pack retrieval", "Ritual", "Turn tracker",
    ]  # fmt: skip
    scars_units = dock.panels["scars_attack"].findChild(QLabel, "toolUnits").text()
    explore_units = dock.panels["explore_dungeon_clock"].findChild(QLabel, "toolUnits").text()
    assert "10 minutes" in scars_units and "6 seconds" in explore_units
    for _text, tools in tool_groups():
        for tool in tools:
            assert tool.summary
            if tool.panel == "reference":  # a panel of tables to read: no command, tables instead
                assert tool.command is None and tool.tables
            else:
                assert tool.command is not None and tool.command.model_fields["kind"].default in kinds


def test_pick_the_attack_tool_set_inputs_roll_and_keep_the_result(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Attack")
    assert isinstance(panel, ToolPanel) and panel.tool.key == "scars_attack"
    type_into(qtbot, panel.inputs["attribute"], "12")
    type_into(qtbot, panel.inputs["armour_class"], "5")
    table.dice.push(12, 3)  # exactly the attribute: a stun, then 1d6 damage
    click(qtbot, panel.roll_button)
    result = panel.result_box.text.toPlainText()
    assert "hit for 3" in result and "stunned" in result and "attribute 12, AC 5" in result
    assert dock.results.count() == 1 and "Attack: " in dock.results.item(0).text()
    assert table.game.campaign.log[-1].command["kind"] == "toolbox_scars_attack"
    table.dice.push(4)  # under the AC: a miss
    click(qtbot, panel.roll_button)
    assert "miss" in panel.result_box.text.toPlainText() and dock.results.count() == 2


def test_an_out_of_range_input_is_refused_with_its_range(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Attack")
    attribute = panel.inputs["attribute"]
    low, high = sc.ATTRIBUTE_RANGE
    assert panel.range_labels["attribute"].text() == f"{low} to {high}" and "Valid: 1 to 20" in attribute.toolTip()
    type_into(qtbot, attribute, str(high + 5))
    assert low <= attribute.value() <= high  # the spin box takes no value outside the engine's range
    panel.inputs["sign"].setCurrentIndex(panel.inputs["sign"].findData(sc.ScarsSign.PLUS))
    type_into(qtbot, panel.inputs["scars"], "0")
    click(qtbot, panel.roll_button)
    assert panel.result_box.error.isVisible() and "needs at least 1 Scar" in panel.result_box.error.text()
    assert table.game.campaign.log == [] and dock.results.count() == 0
    morale = click_tool(qtbot, dock, "Morale")
    assert morale.range_labels["hd"].text() == "0 or more"


def test_copy_puts_the_result_on_the_clipboard(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Initiative")
    table.dice.push(10)
    click(qtbot, panel.roll_button)
    click(qtbot, panel.result_box.copy_button)
    assert (
        QApplication.clipboard().text() == panel.result_box.text.toPlainText()
        and "quick action" in panel.result_box.text.toPlainText()
    )
    click(qtbot, dock.copy_button)
    assert QApplication.clipboard().text() == f"Initiative: {panel.result_box.text.toPlainText()}"
    click(qtbot, dock.noted_button)
    assert dock.results.item(0).text().startswith("\N{CHECK MARK} ")


def test_same_dice_reruns_from_the_random_state_before_the_roll(qtbot, make_dock):
    table, dock = make_dock(scripted=False)
    panel = click_tool(qtbot, dock, "Initiative")
    click(qtbot, panel.roll_button)
    first = table.game.campaign.log[-1].rolls[0].final
    assert panel.result_box.same_button.isEnabled()
    type_into(qtbot, panel.inputs["agility"], "3")  # a corrected input, on the same dice
    click(qtbot, panel.result_box.same_button)
    assert len(table.game.campaign.log) == 1 and table.game.campaign.log[-1].rolls[0].final == first
    assert f"d20 {first} vs Agility 3" in panel.result_box.text.toPlainText()
    assert dock.results.count() == 1
    other = click_tool(qtbot, dock, "Encounter distance")
    click(qtbot, other.roll_button)
    panel.refresh()
    assert not panel.result_box.same_button.isEnabled()  # another action came after it


def test_the_dungeon_clock_warns_before_a_light_goes_out(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Dungeon clock")
    assert isinstance(panel, DungeonClockPanel)
    panel.items.setCurrentIndex(panel.items.findData("Torch"))
    click(qtbot, panel.light_button)
    assert panel.lights.count() == 1 and not panel.warning.isVisible()
    torch = table.game.campaign.toolbox.dungeon_clock.lights[0].duration
    warn = table.game.campaign.toolbox.dungeon_clock.light_warning_turns
    type_into(qtbot, panel.custom_cost, str(torch - warn // 2))
    click(qtbot, panel.custom_button)
    assert panel.warning.isVisible() and "Torch is about to go out" in panel.warning.text()
    assert "running low" in panel.result_box.text.toPlainText()
    search = next(name for name in panel.action_buttons if name.startswith("search a room"))
    assert "(10 turns)" in panel.action_buttons[search].text()
    table.dice.push(12, 12)  # the card is full: the encounter check, nothing comes
    click(qtbot, panel.action_buttons[search])
    assert "Torch goes out" in panel.warning.text() and panel.lights.count() == 0
    assert "nothing comes" in panel.result_box.text.toPlainText()


def test_the_travel_clock_counts_hours_and_asks_for_rest(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Travel clock")
    assert isinstance(panel, TravelClockPanel) and "(4 hours)" in panel.action_buttons["fortify camp"].text()
    table.dice.push(3, 4, 4, 4)  # two Rounds' checks, nothing comes
    type_into(qtbot, panel.custom_cost, str(2 * ex.HOURS_PER_TRAVEL_ROUND))
    click(qtbot, panel.custom_button)
    assert panel.rest_owed.isVisible() and "Day 1, Night" in panel.clock_label.text()


def test_a_reloaded_campaign_restores_the_clock(qtbot, make_dock, new_game):
    table, dock = make_dock()
    panel = dock.choose("explore_dungeon_clock")
    assert isinstance(panel, DungeonClockPanel)
    panel.items.setCurrentIndex(panel.items.findData("Lantern"))
    click(qtbot, panel.light_button)
    type_into(qtbot, panel.custom_cost, "25")
    click(qtbot, panel.custom_button)
    shown = panel.clock_label.text()
    saved = Campaign.model_validate_json(table.game.campaign.model_dump_json())
    _again, reopened = make_dock(saved)
    clock = reopened.choose("explore_dungeon_clock")
    assert clock.clock_label.text() == shown and "Round 2, turn 5" in shown
    assert clock.lights.item(0).text().startswith("Lantern: ")
    assert reopened.results.count() == 2  # the results come back from the log
    table.bridge.undo()  # undo moves the clock back, on screen too
    assert "Round 0, turn 0" in panel.clock_label.text() and dock.results.count() == 1
    table.bridge.set_game(new_game(saved))  # File > Open: the same dock shows the opened campaign's clock
    assert panel.clock_label.text() == shown and dock.results.count() == 2


def test_push_on_and_rest_tools_send_the_engine_commands(qtbot, make_dock):
    table, dock = make_dock()
    push = click_tool(qtbot, dock, "Push on")
    type_into(qtbot, push.inputs["size"], "2")
    table.dice.push(4, 4, 4, 4, 4, 4)  # 3d4 each: 12, no injury
    click(qtbot, push.roll_button)
    assert push.result_box.text.toPlainText().count("no injury") == 2
    rest = click_tool(qtbot, dock, "Rest")
    rest.inputs["on_clock"].setCurrentIndex(rest.inputs["on_clock"].findData("dungeon"))
    table.dice.push(12, 12)
    click(qtbot, rest.roll_button)
    assert table.game.campaign.toolbox.dungeon_clock.elapsed == 10 * ex.TURNS_PER_ROUND
    assert "partial rest" in rest.result_box.text.toPlainText()


def test_the_turn_tracker_shows_its_saved_count(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Turn tracker")
    type_into(qtbot, panel.inputs["count"], "3")
    table.dice.push(2, 1, 5)
    click(qtbot, panel.roll_button)
    assert "1 encounter(s)" in panel.result_box.text.toPlainText()
    assert panel.status.text().startswith("3 Turn(s)") and table.game.campaign.toolbox.scars_clock.turns == 3


def add_fighter(qtbot, panel, name: str, side: sc.Side, ac: int, health: int, scars_or_hd: int) -> None:
    panel.name.setText(name)
    panel.side.setCurrentIndex(panel.side.findData(side))
    type_into(qtbot, panel.ac, str(ac))
    type_into(qtbot, panel.health, str(health))
    type_into(qtbot, panel.scars if side is sc.Side.ADVENTURER else panel.hd, str(scars_or_hd))
    click(qtbot, panel.add_button)


def test_the_fight_tracker_keeps_the_fight_in_the_campaign(qtbot, make_dock):
    table, dock = make_dock()
    panel = click_tool(qtbot, dock, "Fight tracker")
    assert not panel.fight_actions.isEnabled() and "No fight" in panel.round_label.text()
    add_fighter(qtbot, panel, "Vera", sc.Side.ADVENTURER, 4, 6, 2)
    add_fighter(qtbot, panel, "Orc", sc.Side.ENEMY, 5, 10, 2)
    click(qtbot, panel.start_button)
    assert panel.fight_actions.isEnabled() and panel.round_label.text() == "Round 1"
    assert panel.attacker.currentText() == "Vera" and panel.target.currentText() == "Orc"
    type_into(qtbot, panel.attribute, "10")
    table.dice.push(10, 4)  # exactly the attribute: a stun, 4 damage
    click(qtbot, panel.attack_button)
    assert "Orc (enemy): health 6/10, AC 5, HD 2 [stunned]" in panel.fighters.item(1).text()
    click(qtbot, panel.plus_button)  # the Scars shift on the roll just seen: 12 is over the attribute
    assert "miss" in panel.result_box.text.toPlainText()
    assert "health 10/10" in panel.fighters.item(1).text() and "Scars used" in panel.fighters.item(0).text()
    click(qtbot, panel.round_button)
    assert panel.round_label.text() == "Round 2" and "Scars used" not in panel.fighters.item(0).text()
    saved = Campaign.model_validate_json(table.game.campaign.model_dump_json())
    _again, reopened = make_dock(saved)
    assert reopened.choose("scars_fight").round_label.text() == "Round 2"


NARROW_DOCK = 400  # pixels: about what the Toolbox dock gets beside the map, less its scroll bar


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_every_tool_fits_a_narrow_dock_so_nothing_is_clipped(make_dock):
    """The panels scroll up and down, never sideways: a panel wider than the dock would cut off its inputs."""
    _table, dock = make_dock()
    wide = {key: panel.minimumSizeHint().width() for key, panel in dock.panels.items()}
    assert {key: width for key, width in wide.items() if width > NARROW_DOCK} == {}
    day = dock.panels["classic_wilderness_day"]
    assert isinstance(day, ToolPanel)
    assert day.inputs["river_crossing"].minimumSizeHint().width() < NARROW_DOCK  # its long tick has a line of its own
