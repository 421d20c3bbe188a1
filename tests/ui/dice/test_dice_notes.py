"""Issue 10 #17: the dice panel shows every note of the table clicked, roll modifiers first, scrollable."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.game import Game
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.dice.panel import DicePanel

pytestmark = pytest.mark.gui

EVASION = "classic.wilderness_evasion"  # eight notes: five roll modifiers, then the pursuit rules last


@pytest.fixture
def panel(qtbot, bundled_library):
    game = Game(Campaign(), bundled_library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    widget = DicePanel(EngineBridge(game))
    qtbot.addWidget(widget)
    widget.resize(440, 900)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def click_table(qtbot, panel: DicePanel, table_id: str) -> None:
    """Click the table's line in the tree, as the player does."""
    [item] = [i for i in panel._table_items() if i.data(0, Qt.ItemDataRole.UserRole) == table_id]
    panel.table_list.scrollToItem(item)
    rect = panel.table_list.visualItemRect(item)
    qtbot.mouseClick(panel.table_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert panel.selected_table_id() == table_id


def test_every_note_shows_modifiers_first(qtbot, panel, bundled_library):
    table = bundled_library.get(EVASION)
    assert len(table.notes) > 3
    click_table(qtbot, panel, EVASION)
    text = panel.table_notes.text()
    for note in table.notes:
        assert note.text in text, note.text
    pursuit = table.notes[-1].text
    assert pursuit.startswith("Pursuit") and pursuit in text  # the last note, hidden before
    modifiers = [n.text for n in table.notes if n.kind == "roll_modifier"]
    others = [n.text for n in table.notes if n.kind != "roll_modifier"]
    assert max(text.index(m) for m in modifiers) < min(text.index(o) for o in others)


def test_long_notes_scroll_instead_of_pushing_the_panel(qtbot, panel):
    click_table(qtbot, panel, EVASION)
    scroll = panel.table_notes_scroll
    assert isinstance(scroll, QScrollArea) and scroll.widget() is panel.table_notes
    assert scroll.isVisible() and scroll.height() <= scroll.maximumHeight() < 400
    assert scroll.verticalScrollBar().maximum() > 0  # more to read below: it scrolls


def test_a_table_without_notes_hides_the_notes_box(qtbot, panel):
    tables = [panel.library.get(table_id) for table_id in panel.visible_table_ids()]
    plain = next(t for t in tables if not t.notes and not t.missing_ranges())
    click_table(qtbot, panel, EVASION)
    click_table(qtbot, panel, plain.id)
    assert not panel.table_notes_scroll.isVisible()
