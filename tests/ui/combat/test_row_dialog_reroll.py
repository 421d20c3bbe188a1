"""Issue 19, deliver 5: the combat panel's "type the row" dialog offers "Re-roll among printed rows" like every
other missing-row dialog, and the re-roll settles the fight's loot roll (it was only a button beside the dialog)."""

from __future__ import annotations

import pytest

from d100gui.engine.combat.monster import typed_monster
from tests.ui.combat.test_first_hour_ui import click, d10, d100, fight, make_hero, push

pytestmark = pytest.mark.gui


def test_the_row_dialog_of_a_fights_loot_re_rolls_among_printed_rows(qtbot, make_window):
    table, panel = make_window(make_hero())
    fight(table, panel, typed_monster("Goblin", av=40, hp=2, defence=1, loot="[K:Table P]"))
    push(table, d100(20), 4, d10(4), d100(99), d100(50))  # hit, kills it, it misses; Table P 50: not in the excerpt
    click(qtbot, panel.buttons["attack_main"])
    click(qtbot, next(b for b in panel.row_buttons if b.text().startswith("Type the row")))
    dialog = panel.row_dialog
    assert dialog.sample_once.isVisible() and not dialog.sample_always.isVisible()
    push(table, d100(2))  # the re-roll: 02, EARS
    click(qtbot, dialog.sample_once)
    assert not dialog.isVisible() and table.game.campaign.combat is None
    assert [(i.name, i.value) for i in table.game.campaign.character.backpack] == [("Goblin EARS", 10)]
