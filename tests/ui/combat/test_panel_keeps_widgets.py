"""The combat panel keeps its widgets from action to action (issue 18, performance): an action gives them new
data instead of making them again, so it costs no polish, first layout or deletion. Played by real clicks."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from test_combat_structure import RATS, click, d10, d100, hero, push, rats_to_victory

from d100gui.engine.combat.monster import typed_monster
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.protocol import Event
from d100gui.engine.quest.events import TurnEnded
from d100gui.ui.combat.record import FightRecord, Section, Step
from d100gui.ui.combat.steps_view import StepsView

pytestmark = pytest.mark.gui


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_roll_waiting_keeps_its_dice_and_buttons_and_the_actions_stay_put(qtbot, make_window):
    table, panel = make_window(hero())
    steps = rats_to_victory(qtbot, table.game, panel)
    continues, dice, fate_by_names, action_at = set(), set(), {}, set()
    for step in steps[:7]:
        step()
        if panel.continue_button is not None:
            continues.add(id(panel.continue_button))
            dice.add(id(panel.big_dice))
            names = tuple(b.text() for b in panel.fate_buttons)
            fate_by_names.setdefault(names, set()).add(tuple(id(b) for b in panel.fate_buttons))
            assert panel.continue_button.isVisible() and panel.big_dice.isVisible()
        else:
            assert not panel.decision.roll_choice.isVisible()
        if panel.combat is not None:
            attack = panel.buttons["attack_main"]
            action_at.add(attack.mapTo(panel, QPoint(0, 0)).y())
    assert len(continues) == len(dice) == 1  # one Continue and one set of big dice, shown again and again
    assert fate_by_names and all(len(sets) == 1 for sets in fate_by_names.values())  # each set of Fate buttons made once
    assert len(action_at) == 1  # a roll waiting or an action waiting: the attack button does not move
    assert panel.combat is None and panel.decision_buttons  # won: the experience it left is asked ...
    assert not panel.decision.roll_choice.sizePolicy().retainSizeWhenHidden()  # ... with no empty room above it


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_fate_picked_button_follows_the_dice_picked(qtbot, make_window):
    table, panel = make_window(hero(fate=10))
    start, reaction = rats_to_victory(qtbot, table.game, panel)[:2]
    start()
    reaction()
    push(table.game, d100(80))
    click(qtbot, panel.buttons["attack_main"])
    picked = next(b for b in panel.fate_buttons if b.text() == "Re-roll picked")
    assert not picked.isEnabled()  # no die picked yet
    qtbot.mouseClick(panel.big_dice, Qt.MouseButton.LeftButton, pos=panel.big_dice._rect(0).center().toPoint())
    assert panel.big_dice.selected() == [0] and picked.isEnabled()
    push(table.game, 3)
    click(qtbot, picked)  # Fate on the tens only
    assert table.game.campaign.character.fate < 10
    again = next(b for b in panel.fate_buttons if b.text() == "Re-roll picked")
    assert again is picked and not again.isEnabled()  # the same button, greyed until dice are picked again


def test_the_monster_s_badges_and_the_menus_are_kept_and_told_what_changed(qtbot, make_window):
    table, panel = make_window(hero(fate=0))
    push(table.game, d10(5))
    assert panel.send(StartCombat(source="monster", monster=typed_monster(**RATS), fate_windows=False))
    badges = list(panel.ability_row.widgets)
    menu = panel.change_menu.actions()
    tip = {w.text(): w.toolTip() for w in badges}["Pack"]
    push(table.game, d100(5), 3, d10(3), d100(90), d10(2))  # a hit that kills one rat of the pack
    click(qtbot, panel.buttons["attack_main"])
    while panel.continue_button is not None:
        click(qtbot, panel.continue_button)
    assert panel.ability_row.widgets == badges  # the same labels
    assert {w.text(): w.toolTip() for w in badges}["Pack"] != tip  # ... told the pack's new bonus
    assert panel.change_menu.actions() == menu  # nothing changed in the hands or the backpack: the menu is kept


def test_a_step_that_grows_keeps_its_row_and_only_a_new_step_gets_one(qtbot):
    """The steps view is told the round again after each action: the rows of unchanged steps stay, a step whose
    words grew is told them in its own row, and only a new step (or another one in its place) gets a new row."""
    view = StepsView()
    qtbot.addWidget(view)
    view.show()
    head = Step("Round 1", kind="round")
    attack = Step("You attack", ["Hit: 5"], kind="action", event="hero_attacked")

    def record(*steps: Step, events: int) -> FightRecord:
        return FightRecord(
            start=0, end=-1, sections=[Section(1, list(steps))], events=[Event.of(TurnEnded(number=1), "")] * events
        )

    view.show_record(record(head, attack, events=2))
    rows = list(view.step_rows)
    grown = Step("You attack", ["Hit: 5", "The monster loses 5 HP."], kind="action", event="hero_attacked")
    view.show_record(record(head, grown, events=3))
    assert view.step_rows == rows  # the same two rows ...
    assert "loses 5 HP" in rows[1].text_label.text()  # ... the second told its new line
    other = Step("The monster attacks", kind="action", event="monster_attacked")
    view.show_record(record(head, grown, other, events=4))
    assert view.step_rows[:2] == rows and len(view.step_rows) == 3  # one row more, for the new step only
    view.show_record(record(head, other, events=5))  # another step in the second place: its own new row
    assert view.step_rows[0] is rows[0] and view.step_rows[1] not in rows and len(view.step_rows) == 2
    assert "monster attacks" in view.step_rows[1].text_label.text()
