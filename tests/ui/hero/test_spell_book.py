"""The sheet's spell book through its real buttons: learn (Table S, a scroll), cast outside a fight, remove."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.engine.hero.model import Character, Item, SpellEntry, new_character
from d100gui.engine.policies import FatePolicy
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.hero.actions import HeroActions
from d100gui.ui.hero.sheet import CharacterSheet

RULES = bundled_rules()
LEFT = Qt.MouseButton.LeftButton


def mage(intel: int) -> Character:
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Elric"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", intel)):
        ch.characteristics[stat].primary = value
    ch.hp_primary, ch.hp = 20, 12
    ch.spell_book = [SpellEntry(name="Heal", cost="-1 STR", effect="Restores 10 lost HP.")]
    ch.belt[2] = Item(name="Scroll of Resurrection", kind="scroll")
    return ch


@pytest.fixture
def make_sheet(qtbot, bundled_library):
    def make(ch: Character) -> tuple[Game, CharacterSheet]:
        game = Game(Campaign(character=ch), bundled_library, ALL_COMMANDS, rules=RULES, tilesets=standard_tilesets())
        game.override = ScriptedSource([])
        game.fate_policy = FatePolicy(tests="never")  # the cast settles at once (its Fate window: test_cast_window)
        bridge = EngineBridge(game)
        sheet = CharacterSheet(bridge)
        actions = HeroActions(bridge, sheet)
        actions.attach(sheet)
        qtbot.addWidget(sheet)
        sheet.resize(360, 900)
        sheet.show()
        return game, sheet

    return make


def test_cast_a_book_spell_outside_a_fight_and_see_the_result(qtbot, make_sheet):
    game, sheet = make_sheet(mage(intel=65))
    book = sheet.spells
    assert book.cast_buttons[0].isEnabled() and not book.cast_buttons[1].isEnabled()
    game.override = ScriptedSource([1, 0])  # CAST SPELL 10: a success
    qtbot.mouseClick(book.cast_buttons[0], LEFT)
    ch = game.campaign.character
    assert ch.hp == 20  # Heal restores 10 lost HP (up to the maximum)
    assert "CAST SPELL 10" in book.result.text() and "success" in book.result.text() and book.result.isVisible()


def test_spell_caster_is_needed_to_cast_from_the_book_and_the_button_says_why(qtbot, make_sheet):
    _game, sheet = make_sheet(mage(intel=30))
    book = sheet.spells
    assert not book.cast_buttons[0].isEnabled()
    assert "Spell Caster is locked" in book.cast_buttons[0].toolTip()
    assert book.remove_buttons[0].isEnabled()  # learning and removing never need the ability
    assert book.cast(0) is False  # sent anyway (e.g. by a shortcut): the engine refuses and the sheet says why
    assert "Spell Caster is locked" in sheet.message.text()


def test_positions_above_int_are_greyed_with_the_reason(qtbot, make_sheet):
    ch = mage(intel=55)
    ch.spell_book = [None] * 5 + [SpellEntry(name="Fire Ball", cost="-2 HP")]
    _game, sheet = make_sheet(ch)
    book = sheet.spells
    assert not book.spell_names[5].property("in_reach") and not book.cast_buttons[5].isEnabled()
    assert "needs INT 60 (yours is 55)" in book.cast_buttons[5].toolTip()
    assert "needs INT 60" in book.spell_names[5].toolTip()


def test_learn_from_table_s_and_from_a_scroll_then_remove(qtbot, make_sheet):
    game, sheet = make_sheet(mage(intel=30))
    book = sheet.spells
    game.override = ScriptedSource([2, 2])  # Table S 22: Fire Ball
    qtbot.mouseClick(book.learn_table_button, LEFT)
    ch = game.campaign.character
    assert ch.spell_book[1].name == "Fire Ball" and "position 2" in book.result.text()
    assert book.scrolls.count() == 1
    qtbot.mouseClick(book.learn_scroll_button, LEFT)
    assert ch.spell_book[2].name == "Resurrection" and ch.belt[2] is None
    assert not book.learn_scroll_button.isEnabled() and book.learn_scroll_button.toolTip() == "No scroll on the belt."
    qtbot.mouseClick(book.remove_buttons[1], LEFT)
    assert ch.spell_book[1] is None and ch.spell_book[2].name == "Resurrection"  # positions never swap
    assert book.spell_names[1].text() == "—" and not book.remove_buttons[1].isEnabled()
    game.override = ScriptedSource([1, 3])  # Table S 13: Heal, into the first free position
    qtbot.mouseClick(book.learn_table_button, LEFT)
    assert ch.spell_book[1].name == "Heal"


def test_a_scroll_is_cast_without_spell_caster_and_used_up(qtbot, make_sheet):
    game, sheet = make_sheet(mage(intel=30))
    book = sheet.spells
    game.override = ScriptedSource([0, 5])  # CAST SPELL 5: a success
    qtbot.mouseClick(book.cast_scroll_button, LEFT)
    ch = game.campaign.character
    assert ch.belt[2] is None and ch.res is True
    assert "Resurrection" in book.result.text()
