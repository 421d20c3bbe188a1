"""A fallen hero's campaign in the main window: the sheet says who fell and how and offers the hall and a new
hero; the window's own widgets that would send a command (the map's "New dungeon", the dice panel's rolls, the
toolbox's tools) are greyed with the reason, and come back as they were once a living hero's campaign is shown."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from test_roster_window import click, die_in_a_fight, hero, window_for

from d100gui.engine.campaign import Campaign
from d100gui.ui.toolbox.reference_panel import ReferencePanel

pytestmark = pytest.mark.gui


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_sheet_names_the_fallen_hero_and_offers_the_hall_and_a_new_hero(qtbot):
    window = window_for(qtbot, Campaign(character=hero()))
    sheet = window.sheet
    die_in_a_fight(qtbot, window)
    text = sheet.empty_label.text()
    assert sheet.stack.currentIndex() == 0 and "No character yet" not in text
    assert "Aria fell on" in text and "(HP 0 and no Lives left, fighting Orc)" in text and "hall of the fallen" in text
    assert sheet.create_button.text() == "New hero…" and sheet.hall_button.isVisibleTo(sheet)
    click(qtbot, sheet.hall_button)  # the read-only viewer of the hero in the window
    viewer = window.roster.viewer
    assert viewer is not None and viewer.isVisible() and viewer.sheet.name_edit.text() == "Aria"
    viewer.close()
    window.game.override = None  # the new hero's campaign rolls its own dice
    click(qtbot, sheet.create_button)
    wizard = window.creation_wizard
    assert wizard is not None and wizard.isVisible()
    wizard.reject()


def test_a_campaign_without_a_hero_still_says_no_character_yet(qtbot):
    window = window_for(qtbot, Campaign())
    assert window.sheet.empty_label.text() == "No character yet."
    assert window.sheet.create_button.text() == "Create a character…" and not window.sheet.hall_button.isVisibleTo(window.sheet)


def _rolling_controls(window):
    panel = window.dice_panel
    tool_rolls = [p.roll_button for p in window.toolbox.panels.values() if hasattr(p, "roll_button")]
    assert tool_rolls  # the toolbox has tools that roll
    return [
        window.map_area.new_button,
        panel.d100_button,
        panel.d10_button,
        panel.d6_button,
        panel.expression_button,
        *tool_rolls,
    ]


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_windows_own_rolling_and_mapping_controls_are_greyed_with_the_reason(qtbot):
    window = window_for(qtbot, Campaign(character=hero()))
    controls = _rolling_controls(window)
    tips = {c: c.toolTip() for c in controls}
    assert all(c.isEnabled() for c in controls)
    die_in_a_fight(qtbot, window)
    for control in controls:
        assert not control.isEnabled() and "has fallen" in control.toolTip(), control.text()
    assert not window.roll_d100_action.isEnabled() and "has fallen" in window.roll_d100_action.toolTip()
    # reading stays usable: the table search, Copy, the reference tables
    panel = window.dice_panel
    assert panel.table_filter.isEnabled() and panel.copy_button.isEnabled()
    references = [t for p in window.toolbox.panels.values() if isinstance(p, ReferencePanel) for t in p.tables]
    assert references and all(t.copy_button.isEnabled() for t in references)
    # a table chosen would enable "Roll table": it stays greyed while the campaign is read-only
    panel.select_table("d100.E")
    assert not panel.table_button.isEnabled() and "has fallen" in panel.table_button.toolTip()
    # a click on a greyed button does nothing (and the log does not grow)
    length = window.game.campaign.log_length
    qtbot.mouseClick(panel.d100_button, Qt.MouseButton.LeftButton)
    assert window.game.campaign.log_length == length
    # a living hero's campaign: every control back as its widget wants it, with its own tooltip
    window.campaigns.new_campaign()
    for control in controls:
        assert control.isEnabled() and control.toolTip() == tips[control], control.text()
    assert panel.table_button.isEnabled() and "has fallen" not in panel.table_button.toolTip()
    assert window.roll_d100_action.isEnabled()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_fallen_campaign_opened_from_its_file_is_greyed_at_once(qtbot):
    window = window_for(qtbot, Campaign(character=hero()))
    die_in_a_fight(qtbot, window)
    path = window.campaign_path
    window.close()
    again = window_for(qtbot)
    assert all(c.isEnabled() for c in _rolling_controls(again))
    assert again.open_campaign(path)
    assert all(not c.isEnabled() and "has fallen" in c.toolTip() for c in _rolling_controls(again))
    assert "Aria fell on" in again.sheet.empty_label.text()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_viewer_prints_the_final_sheet_while_everything_else_stays_greyed(qtbot):
    from PySide6.QtPrintSupport import QPrintPreviewDialog

    window = window_for(qtbot, Campaign(character=hero()))
    die_in_a_fight(qtbot, window)
    click(qtbot, window.sheet.hall_button)
    viewer = window.roster.viewer
    sheet = viewer.sheet
    assert not sheet.pdf_button.isEnabled() and not sheet.test_button.isEnabled() and "read-only" in sheet.pdf_button.toolTip()
    click(qtbot, sheet.print_button)
    assert isinstance(viewer.print_dialog, QPrintPreviewDialog) and "Aria" in viewer.print_dialog.windowTitle() + (
        viewer.print_dialog.printer_.docName()
    )
    viewer.print_dialog.reject()
    viewer.close()
