"""Views render from data, never from the engine's sentences (issue 8).

The same short game is played twice through the real widgets: once as the engine says it, once
with every sentence the engine produces replaced by "MSG" before any view sees it. The dice
panel's history and result, and everything the character sheet shows, must be the same both
times (the combat panel has its own such test in tests/ui/combat/test_combat_structure.py).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QLineEdit, QSpinBox, QWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.engine.hero.creation import creation_commands
from d100gui.engine.skill_test_commands import AcceptTest, RollTest
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.dice.panel import DicePanel
from d100gui.ui.hero.sheet import CharacterSheet

pytestmark = pytest.mark.gui

TRAP = "PENDULUM TRAP – Test: Dex -10 [S: Avoid Trap] [F:-4 hp] (Traps,Aware,Lucky)"


def reword(game: Game) -> None:
    """Every sentence the engine says becomes "MSG" before the bridge, the log or a view sees it."""
    execute = game.execute

    def run(command):
        events = execute(command)
        for event in [*events, *game.campaign.log[-1].events]:
            if event.message:
                event.message = "MSG"
        return events

    game.execute = run  # type: ignore[method-assign]


def play(qtbot, reworded: bool) -> tuple[DicePanel, CharacterSheet, Game]:
    campaign = Campaign()
    campaign.meta.seed = 3
    library = packs.load_library(user_data_dir()).library
    game = Game(campaign, library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    if reworded:
        reword(game)
    bridge = EngineBridge(game)
    dice, sheet = DicePanel(bridge), CharacterSheet(bridge)
    for widget in (dice, sheet):
        qtbot.addWidget(widget)
    game.override = ScriptedSource([0, 5, 0, 1, 0, 5, 1, 0])
    for command in creation_commands("Harry", {"STR": 50, "DEX": 40, "INT": 30}, ["Traps", "Aware"]):
        assert bridge.send(command), command
    game.override = ScriptedSource([3, 7, 4, 2, 2, 0, 4])
    qtbot.mouseClick(dice.d100_button, Qt.MouseButton.LeftButton)  # 37
    qtbot.mouseClick(dice.d6_button, Qt.MouseButton.LeftButton)
    assert dice.select_table("d100.E")
    qtbot.mouseClick(dice.table_button, Qt.MouseButton.LeftButton)  # Table E: 22
    assert bridge.send(RollTest(text=TRAP))  # DEX test: 04, a natural 4 (experience)
    assert bridge.send(AcceptTest())
    return dice, sheet, game


def shown(widget: QWidget) -> list[str]:
    """Every text the widget shows to the player, in widget order."""
    texts: list[str] = []
    for child in widget.findChildren(QWidget):
        if isinstance(child, QLabel):
            texts.append(child.text())
        elif isinstance(child, QLineEdit):
            texts.append(child.text())
        elif isinstance(child, QSpinBox):
            texts.append(str(child.value()))
        elif isinstance(child, QAbstractButton):
            texts.append(f"{child.text()}|{child.isEnabled()}|{child.isChecked()}")
    return texts


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_dice_history_and_the_sheet_do_not_read_the_engines_sentences(qtbot):
    dice, sheet, game = play(qtbot, reworded=False)
    dice2, sheet2, game2 = play(qtbot, reworded=True)
    assert {e.message for entry in game2.campaign.log for e in entry.events} <= {"MSG", ""}
    assert any(e.message not in ("MSG", "") for entry in game.campaign.log for e in entry.events)
    history = [dice.history.item(i).text() for i in range(dice.history.count())]
    # the creation's weapon and three armour rolls (they reach the dice History since issue 19), then the panel's three
    assert len(history) == 7 and history == [dice2.history.item(i).text() for i in range(dice2.history.count())]
    assert [line.split(": ")[0].split("] ")[-1] for line in history[:4]] == ["Table W – Weapon"] + ["Table A – Armour"] * 3
    assert dice.result_text.text() == dice2.result_text.text() and "MSG" not in dice2.result_text.text()
    assert "Harry" in shown(sheet) and shown(sheet) == shown(sheet2)
    assert not any("MSG" in t for t in shown(sheet2))
    assert game.campaign.character.model_dump() == game2.campaign.character.model_dump()
