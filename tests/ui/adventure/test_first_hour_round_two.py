"""A new player's first hour, round two (issue 19): what a roll from the strip shows, messages that follow the
campaign, the strip after a theme switch, the skill-test dialog at 1280x720 and the row dialog's nearest rows,
each through the window's real controls."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel
from test_first_hour_in_the_strip import searched_into_a_missing_row
from test_turn_strip import next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

pytestmark = pytest.mark.gui
GREEN_PENDULUM = [1, 0, 0, 3]  # Table M 10, a green crossroads; Table G 3: PENDULUM TRAP (Test: Dex -10)


def strip_key(win, prefix: str) -> str:
    return next(k for k in win.turn_strip.buttons if k.startswith(prefix))


def a_trap_test_rolled_from_the_strip(qtbot, win, *, fate: int = 3, faces=(8, 5)):
    """Into a green area whose trap asks a DEX test, rolled from the strip: it waits for Accept or Fate."""
    player = on_quest_in_the_dungeon(qtbot, win)
    win.game.campaign.character.fate = fate
    win.game.override.push(*next_clock_faces(win), *GREEN_PENDULUM)
    player.click_map(player.exit_point("N"))
    win.game.override.push(*faces)
    qtbot.mouseClick(win.turn_strip.buttons[strip_key(win, "roll_")], Qt.MouseButton.LeftButton)
    [test] = win.game.campaign.pending
    return test


def visible_texts(root) -> list[str]:
    return [w.text() for w in root.findChildren(QLabel) if w.isVisibleTo(root) and w.text()]


# ---------------------------------------------------------------- a test and its Fate in the strip


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_test_rolled_from_the_strip_shows_its_dice_target_result_and_fate_there(qtbot, window):  # noqa: F811
    test = a_trap_test_rolled_from_the_strip(qtbot, window)
    strip = window.turn_strip
    assert strip.faces.isVisible() and [f.face for f in strip.faces.faces()] == [8, 5]  # the dice as rolled
    assert "rolled 85 against 30" in strip.hint.text() and "failure" in strip.hint.text()  # the target and result
    fate = strip.buttons[f"fate_{test.id}"]
    assert fate.isVisible() and fate.isEnabled() and strip.buttons[strip_key(window, "accept_")].isVisible()
    tens = strip.buttons[f"fate_{test.id}_0"]  # Fate re-rolls any dice of the roll: each die alone too
    assert tens.isEnabled() and tens.text() == "Fate: tens only"
    window.game.override.push(1, 2)  # Fate: 85 re-rolled to 12, a success
    qtbot.mouseClick(fate, Qt.MouseButton.LeftButton)
    assert [f.face for f in strip.faces.faces()] == [1, 2] and "rolled 12 against 30" in strip.hint.text()
    assert window.game.campaign.pending[0].id == test.id  # still waits
    window.game.override.push(9)  # Fate again, the units die alone: 12 becomes 19
    qtbot.mouseClick(strip.buttons[f"fate_{test.id}_1"], Qt.MouseButton.LeftButton)
    assert [f.face for f in strip.faces.faces()] == [1, 9] and "rolled 19 against 30" in strip.hint.text()
    qtbot.mouseClick(strip.buttons[strip_key(window, "accept_")], Qt.MouseButton.LeftButton)
    assert not strip.faces.isVisible() and not window.game.campaign.pending


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_no_fate_left_greys_the_strips_fate_and_says_why(qtbot, window):  # noqa: F811
    a_trap_test_rolled_from_the_strip(qtbot, window, fate=0)
    fate = window.turn_strip.buttons[strip_key(window, "fate_")]
    assert not fate.isEnabled() and "No Fate" in fate.toolTip()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_waiting_is_said_once_the_status_line_short_the_strip_with_the_prompt(qtbot, window):  # noqa: F811
    a_trap_test_rolled_from_the_strip(qtbot, window)
    line, strip = window.turn_strip.status_line, window.turn_strip
    said = " ".join(visible_texts(line) + visible_texts(strip))
    assert said.count("Waiting") == 1, said
    assert "Waiting: a test's roll" in line.text() and "rolled 85" not in line.text()  # a few words above the map
    assert "rolled 85 against 30" in strip.hint.text()  # the prompt in full beside its answers
    assert "rolled 85 against 30" in line.waits.toolTip()


# ---------------------------------------------------------------- Hero > Skill test for the roll that waits


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_skill_test_dialogs_fate_line_is_not_cut_after_fate_was_spent(qtbot, window):  # noqa: F811
    window.resize(1280, 720)
    a_trap_test_rolled_from_the_strip(qtbot, window, fate=2)
    window.test_action.trigger()  # Hero > Skill test picks up the roll that waits
    dialog = window.hero_actions.test_dialog
    qtbot.waitExposed(dialog)
    assert dialog.characteristic.currentData() == "DEX" and dialog.formula_label.text().endswith("= 30")
    assert sorted(s for s, box in dialog.skill_checks.items() if box.isChecked()) == ["Aware", "Lucky", "Traps"]
    window.game.override.push(9, 5)
    qtbot.mouseClick(dialog.fate_both, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert "1 left, 1 spent" in dialog.fate_label.text()
    for label in (dialog.fate_label, dialog.result_label):  # wrapped, never cut: as tall as their lines need
        assert label.wordWrap() and label.height() >= label.heightForWidth(label.width()), label.text()
        assert label.width() >= label.fontMetrics().horizontalAdvance(label.text().split()[0]), label.text()
    for button in (dialog.fate_tens, dialog.fate_units, dialog.fate_both, dialog.accept_button):
        assert button.width() >= button.sizeHint().width(), button.text()
    assert dialog.height() <= 720


# ---------------------------------------------------------------- messages that follow the campaign


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_end_turn_says_skip_search_again_once_the_search_is_undone(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    strip = window.turn_strip
    window.game.override.push(*next_clock_faces(window), 2, 2)  # a yellow crossroads
    player.click_map(player.exit_point("N"))
    window.game.override.push(2, 8, *next_clock_faces(window), 5)  # Table F 28: +1 time, a belt check
    qtbot.mouseClick(strip.buttons["search"], Qt.MouseButton.LeftButton)
    assert strip.buttons["end_turn"].text() == "End turn"
    window.undo_action.trigger()
    assert strip.buttons["end_turn"].text() == "End turn (skip search)" and strip.buttons["search"].isEnabled()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_curse_text_on_the_sheet_goes_with_the_undo_of_its_cast(qtbot, window):  # noqa: F811
    from d100gui.engine.magic.book import spell_from_table

    ch = window.game.campaign.character
    ch.characteristics["INT"].primary = 55
    ch.fate, ch.hp = 0, 12  # no Fate: the failure is accepted and Table C rolled
    ch.spell_book[0] = spell_from_table(window.game.library, "Heal")
    window.sheet.refresh()
    window.game.override.push(9, 3)  # CAST SPELL 93 > 55, a failure
    qtbot.mouseClick(window.sheet.spells.cast_buttons[0], Qt.MouseButton.LeftButton)
    window.game.override.push(0, 5)  # Table C 5: CLUELESS, -4 INT
    qtbot.mouseClick(window.turn_strip.buttons[strip_key(window, "accept_")], Qt.MouseButton.LeftButton)
    result = window.sheet.spells.result
    cursed = result.text()
    assert cursed and result.isVisibleTo(window.sheet) and window.game.campaign.pending == []
    window.undo_action.trigger()  # the curse is undone: the roll waits again, and the sheet says so
    assert result.text() != cursed and "use Fate" in result.text()
    window.undo_action.trigger()  # the cast is undone: nothing to say
    assert not result.isVisibleTo(window.sheet) and result.text() == ""


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_spell_cast_settled_from_the_strip_shows_its_outcome_on_the_sheet(qtbot, window):  # noqa: F811
    from d100gui.engine.magic.book import spell_from_table

    ch = window.game.campaign.character
    ch.characteristics["INT"].primary = 55
    ch.fate, ch.hp = 3, 12
    ch.spell_book[0] = spell_from_table(window.game.library, "Heal")
    window.sheet.refresh()
    window.game.override.push(9, 3)  # CAST SPELL 93: it waits for Fate in the strip
    qtbot.mouseClick(window.sheet.spells.cast_buttons[0], Qt.MouseButton.LeftButton)
    result = window.sheet.spells.result
    assert "use Fate" in result.text() and "Table C" not in result.text()  # no curse yet: it waits in the strip
    window.game.override.push(2, 0)  # Fate: 20, a success
    qtbot.mouseClick(window.turn_strip.buttons[strip_key(window, "fate_")], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(window.turn_strip.buttons[strip_key(window, "accept_")], Qt.MouseButton.LeftButton)
    assert "healed" in result.text() and "Table C" not in result.text()  # what the accepted roll did


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_gold_a_typed_row_added_is_not_offered_again_as_a_hand_correction(qtbot, window):  # noqa: F811
    searched_into_a_missing_row(qtbot, window)  # Table F 50: the dice panel's row dialog
    dialog = window.row_requests.dialog
    dialog.fields["time"].setText("+1")
    dialog.fields["effect"].setText("You find a pouch of coins, +10gp")
    gp = window.game.campaign.character.gp
    window.game.override.push(*next_clock_faces(window))
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.game.campaign.character.gp == gp + 10)
    strip = window.turn_strip
    offered = [b.text() for b in strip.fix_buttons]
    assert not any("gold" in t.lower() or "gp" in t.lower() for t in offered), offered
    assert not any("pouch of coins" in t for t in visible_texts(strip)), visible_texts(strip)


# ---------------------------------------------------------------- a theme switch


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_strips_step_labels_take_the_new_theme_at_once(qtbot, window):  # noqa: F811
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1]))
    from test_first_hour_window import choose_theme, contrast, drawn_background

    app = QApplication.instance()
    palette, style = QPalette(app.palette()), app.style().name()
    try:
        on_quest_in_the_dungeon(qtbot, window)
        strip = window.turn_strip
        for theme in ("dark", "light", "dark", "light"):
            choose_theme(window, theme)  # Edit > Preferences, the theme, OK
            ink = QApplication.palette().color(QPalette.ColorRole.WindowText)
            paper = drawn_background(strip.title)
            for step, label in strip.step_labels.items():
                assert label.palette().color(QPalette.ColorRole.WindowText) == ink, (theme, step)
                assert drawn_background(label) == paper, (theme, step)
                assert contrast(ink, drawn_background(label)) >= 4.5, (theme, step)
    finally:
        app.setStyle(style)
        app.setPalette(palette)


# ---------------------------------------------------------------- the row dialog's nearest rows


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_row_dialog_shows_the_printed_rows_nearest_the_roll(qtbot, window):  # noqa: F811
    from PySide6.QtWidgets import QTableWidget

    from d100gui.ui.common.dialogs import MissingRowDialog

    dialog = MissingRowDialog(window.game.library.get("d100.P"), 49, (16, 100), window)  # Table P prints 1-15
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    known = dialog.findChild(QTableWidget)
    shown = [known.item(r, 0).text() for r in range(known.rowCount())]
    assert "13-15" in shown and "1-3" not in shown, shown
    nearest = shown.index("13-15")
    assert known.viewport().rect().contains(known.visualItemRect(known.item(nearest, 0)))  # in view, no scrolling


def test_the_row_dialogs_nearest_rows_are_all_in_view_for_a_creation_roll(qtbot, window):  # noqa: F811
    from PySide6.QtWidgets import QTableWidget

    from d100gui.ui.common.dialogs import MissingRowDialog

    window.resize(1280, 720)
    dialog = MissingRowDialog(window.game.library.get("d100.A"), 50, (17, 100), window, can_sample=True)  # as creation
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.resize(dialog.minimumSizeHint())  # as small as it lets itself be (at 1280x720 it was shown squeezed)
    QApplication.processEvents()
    known = dialog.findChild(QTableWidget)
    shown = [known.item(r, 0).text() for r in range(known.rowCount())]
    assert shown[-1] == "13-16", shown  # the printed row nearest 50
    for row in range(known.rowCount()):
        assert known.viewport().rect().contains(known.visualItemRect(known.item(row, 0))), shown[row]
