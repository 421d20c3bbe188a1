"""The skill-test dialog on a real game (no window): target before the roll, dice, Fate, experience, outcomes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.engine.hero.creation import (
    creation_commands,
)
from d100gui.engine.hero.decisions import ExperienceChoice, PendingTest
from d100gui.engine.hero.sheet_edits import SetCharacteristic, SetSkillBonus
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.hero.skill_test_dialog import SkillTestDialog

pytestmark = pytest.mark.gui

TRAPPED_CHEST = "TRAPPED CHEST – Test: Dex -10 [S:+30 gp/ roll x1 Table TA] [F:-10 hp] (Locks, Traps)"


@pytest.fixture
def bridge(bundled_library):
    """A game whose hero is Harry: DEX 65, Locks +5, Traps +10 (made by commands)."""
    campaign = Campaign()
    campaign.meta.seed = 7
    game = Game(campaign, bundled_library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    engine = EngineBridge(game)
    game.override = ScriptedSource([0, 5, 0, 1, 0, 5, 1, 0])
    for command in (
        *creation_commands("Harry", {"STR": 40, "DEX": 50, "INT": 30}, ["Locks", "Traps"]),
        SetCharacteristic(stat="DEX", primary=65),
        SetSkillBonus(skill="Traps", bonus=10),
    ):
        assert engine.send(command), command
    return engine


def dialog_for(qtbot, bridge, text=TRAPPED_CHEST, *faces):
    bridge.game.override = ScriptedSource(faces)
    dialog = SkillTestDialog(bridge, text=text)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def click(qtbot, button):
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def hero(bridge):
    return bridge.game.campaign.character


def test_harrys_chest_shows_target_and_chance_before_the_roll(qtbot, bridge):
    dialog = dialog_for(qtbot, bridge, TRAPPED_CHEST, 6, 8)
    assert dialog.formula_label.text() == "65 -10 +5 +10 = 70"
    assert dialog.chance_label.text() == "70%"
    assert "Gain 30 gp or Roll once on Table TA" in dialog.outcomes_label.text()
    assert "Lose 10 HP" in dialog.outcomes_label.text()
    assert dialog.title.text() == "TRAPPED CHEST"
    assert not dialog.rolled.isVisible()
    assert not bridge.game.campaign.log[-1].command["kind"] == "roll_test"  # nothing rolled yet
    click(qtbot, dialog.roll_button)
    assert [(f.role, f.face) for f in dialog.faces.faces()] == [("tens", 6), ("units", 8)]
    assert "Rolled 68 against 70: SUCCESS" in dialog.result_label.text()
    click(qtbot, dialog.accept_button)
    [choice] = dialog.my_decisions()
    assert not any(isinstance(d, ExperienceChoice) for d in bridge.game.campaign.pending)  # 68: no experience
    gold, table = dialog.decision_buttons[choice.id]
    assert (gold.text(), table.text()) == ("Gain 30 gp", "Roll once on Table TA")
    click(qtbot, gold)
    assert hero(bridge).gp == 30
    assert bridge.game.campaign.pending == []
    assert "Gained 30 gp (now 30)" in dialog.happened.text()


def test_a_failure_applies_its_effects(qtbot, bridge):
    dialog = dialog_for(qtbot, bridge, TRAPPED_CHEST, 7, 1)
    click(qtbot, dialog.roll_button)
    assert "FAILURE" in dialog.result_label.text()
    click(qtbot, dialog.accept_button)
    assert hero(bridge).hp == 10
    assert "HP 20 -> 10" in dialog.happened.text()
    assert dialog.my_decisions() == []


def test_a_natural_8_asks_where_the_experience_goes(qtbot, bridge):
    dialog = dialog_for(qtbot, bridge, TRAPPED_CHEST, 0, 8)
    click(qtbot, dialog.roll_button)
    click(qtbot, dialog.accept_button)
    xp = next(d for d in dialog.my_decisions() if isinstance(d, ExperienceChoice))
    dex, skills, decline = dialog.decision_buttons[xp.id]
    assert (dex.text(), skills.text(), decline.text()) == ("1 pip on DEX", "2 skill pips", "Don't take it")
    first, second = dialog.experience_combos
    assert [first.itemText(i) for i in range(first.count())] == ["Locks", "Traps"]
    first.setCurrentText("Traps")
    second.setCurrentText("Traps")
    click(qtbot, skills)
    assert hero(bridge).skills["Traps"].pips == 2 and hero(bridge).skills["Locks"].pips == 0
    assert xp.id not in dialog.decision_buttons


def test_the_dex_pip_instead(qtbot, bridge):
    dialog = dialog_for(qtbot, bridge, TRAPPED_CHEST, 0, 3)
    click(qtbot, dialog.roll_button)
    click(qtbot, dialog.accept_button)
    xp = next(d for d in dialog.my_decisions() if isinstance(d, ExperienceChoice))
    click(qtbot, dialog.decision_buttons[xp.id][0])
    assert hero(bridge).characteristics["DEX"].pips == 1


def test_fate_rerolls_a_die_and_spends_fate(qtbot, bridge):
    dialog = dialog_for(qtbot, bridge, TRAPPED_CHEST, 8, 5, 1, 9, 9)
    click(qtbot, dialog.roll_button)
    assert "85 against 70: FAILURE" in dialog.result_label.text()
    assert "Fate (3 left" in dialog.fate_label.text()
    click(qtbot, dialog.fate_tens)
    assert hero(bridge).fate == 2
    assert "15 against 70: SUCCESS" in dialog.result_label.text()
    assert [f.face for f in dialog.faces.faces()] == [1, 5]
    assert "Fate (2 left, 1 spent on this roll)" in dialog.fate_label.text()
    click(qtbot, dialog.fate_both)
    assert hero(bridge).fate == 1
    assert "99 against 70: FAILURE" in dialog.result_label.text()
    assert bridge.game.campaign.log[-1].manual is False and bridge.game.campaign.log[-1].command["dice"] == [0, 1]


def test_no_fate_left_disables_the_rerolls(qtbot, bridge):
    from d100gui.engine.hero.sheet_edits import SetSheetField

    assert bridge.send(SetSheetField(field="fate", value=0))
    dialog = dialog_for(qtbot, bridge, TRAPPED_CHEST, 8, 5)
    click(qtbot, dialog.roll_button)
    assert not dialog.fate_tens.isEnabled() and not dialog.fate_both.isEnabled()


def test_ad_hoc_test_previews_as_it_is_set_up(qtbot, bridge):
    dialog = dialog_for(qtbot, bridge, None, 3, 0)
    assert dialog.skill_checks["Traps"].isVisible()
    dialog.characteristic.setCurrentIndex(dialog.characteristic.findData("STR"))
    dialog.modifier.setValue(-5)
    assert (dialog.formula_label.text(), dialog.chance_label.text()) == ("40 -5 = 35", "35%")
    dialog.skill_checks["Traps"].setChecked(True)
    dialog.skill_checks["Strong"].setChecked(True)  # +0: listed, adds nothing
    assert dialog.formula_label.text() == "40 -5 +10 = 45"
    dialog.bonus.setValue(10)
    assert dialog.formula_label.text() == "40 -5 +10 +10 = 55"
    dialog.name.setText("Force the grate")
    click(qtbot, dialog.roll_button)
    test = next(d for d in bridge.game.campaign.pending if isinstance(d, PendingTest))
    assert (test.spec.name, test.spec.characteristic, test.spec.skills, test.target) == (
        "Force the grate",
        "STR",
        ["Strong", "Traps"],
        55,
    )
    assert "30 against 55: SUCCESS" in dialog.result_label.text()


def test_closing_leaves_the_roll_waiting_and_a_new_dialog_picks_it_up(qtbot, bridge):
    dialog = dialog_for(qtbot, bridge, TRAPPED_CHEST, 6, 8)
    click(qtbot, dialog.roll_button)
    dialog.reject()
    assert any(isinstance(d, PendingTest) for d in bridge.game.campaign.pending)
    again = dialog_for(qtbot, bridge, None)
    assert "68 against 70: SUCCESS" in again.result_label.text()
    assert again.formula_label.text() == "65 -10 +5 +10 = 70"
    assert not again.roll_button.isVisible()
    click(qtbot, again.accept_button)
    assert not any(isinstance(d, PendingTest) for d in bridge.game.campaign.pending)


def test_a_refused_roll_shows_the_reason(qtbot, bridge):
    # A rule's refusal (CommandRefused), not a test script running out of dice: that is a bug and
    # goes to the crash dialog now that the bridge catches refusals only (issue 18).
    from d100gui.engine.skill_test_commands import RollTest

    dialog = dialog_for(qtbot, bridge, TRAPPED_CHEST, 5, 5)
    assert bridge.send(RollTest(text="Test: Dex"))  # another test rolled meanwhile waits for its Fate window
    click(qtbot, dialog.roll_button)
    assert "A rolled test is waiting" in dialog.error_label.text()
    assert dialog.roll_button.isVisible()


LEVER_DOOR = (
    "Roll equal to or less than the number of Levers you have to open, [S: Opens, Remove 1 lever pip] "
    "[F: Closed/To open test JAMMED DOOR – Test: Str [S: Open] [F:-1HP,+1] (Strong)"
)


def test_a_count_test_and_the_test_its_outcome_calls_for(qtbot, bridge):
    from d100gui.engine.hero.sheet_edits import SetTrackPips

    assert bridge.send(SetTrackPips(track="levers", value=2))
    dialog = dialog_for(qtbot, bridge, LEVER_DOOR, 7, 3, 2, 5)  # d10 7: fails against 2 levers; Fate: 3; STR 25
    assert dialog.formula_label.text() == "d10 ≤ 2 levers"
    assert dialog.chance_label.text() == "20%"
    assert dialog.roll_button.text() == "Roll d10"
    click(qtbot, dialog.roll_button)
    assert "Rolled 7 against 2: FAILURE" in dialog.result_label.text()
    assert dialog.fate_tens.text() == "Re-roll the die" and not dialog.fate_both.isVisible()
    click(qtbot, dialog.fate_tens)
    assert "Rolled 3 against 2: FAILURE" in dialog.result_label.text()
    click(qtbot, dialog.accept_button)
    [choice] = dialog.my_decisions()
    closed, jammed = dialog.decision_buttons[choice.id]
    assert closed.text() == "Closed" and "JAMMED DOOR" in jammed.text()
    click(qtbot, jammed)
    [called] = dialog.my_decisions()
    roll, not_now = dialog.decision_buttons[called.id]
    assert (roll.text(), not_now.text()) == ("Roll JAMMED DOOR: STR", "Not now")
    click(qtbot, roll)
    assert dialog.title.text() == "JAMMED DOOR"
    assert dialog.formula_label.text() == "40 = 40"
    assert "Rolled 25 against 40: SUCCESS" in dialog.result_label.text()
    click(qtbot, dialog.accept_button)
    assert bridge.game.campaign.character.levers == 2  # the lever door did not open: no pip used
