"""The first-run tour: shown once on the first start, after the first-run question; Next walks every step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QDockWidget, QMenu, QWidget

from d100gui.storage.resources import help_tour
from d100gui.ui.help.lookup import on_screen, shown, target_rect

pytestmark = pytest.mark.gui


def _first_start(win, qtbot):
    """What the app does once the window is up; the missing-rows question comes first and is answered."""
    win.table_files.show_startup_problems()
    dialog = win.table_setup.choice_dialog
    if dialog is not None and dialog.isVisible():
        assert win.help.tour is None, "the tour waits until the first-run question is answered"
        qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_first_start_shows_the_tour_and_next_walks_every_step_on_a_real_widget(make_window, qtbot):
    win = make_window()
    _first_start(win, qtbot)
    tour = win.help.tour
    assert tour is not None and tour.active
    steps = help_tour()
    assert len(steps) >= 6
    seen = []
    for n, step in enumerate(steps):
        assert tour.index == n
        qtbot.wait(1)  # let a dock brought forward lay itself out
        widget = on_screen(win, step.target)
        assert widget is not None, f"step {n + 1} points at {step.target!r}, which is not on screen"
        rect = target_rect(win, step.target)
        assert rect is not None and not rect.isEmpty()
        assert tour.overlay.hole is not None and tour.overlay.hole.intersects(rect), "the highlight is on the widget"
        callout = tour.overlay.callout
        assert callout.title.text() == step.title
        assert callout.counter.text() == f"{n + 1} of {len(steps)}"
        assert win.rect().contains(callout.geometry()), "the callout stays inside the window"
        seen.append(step.target)
        qtbot.mouseClick(callout.next_button, Qt.MouseButton.LeftButton)
    assert seen == [s.target for s in steps]
    assert not tour.active, "Finish on the last step ends the tour"
    assert shown(win.dice_dock) and not shown(win.toolbox_dock), "the tabs in front before the tour are in front again"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_second_start_does_not_show_the_tour_and_help_tour_shows_it_again(make_window, qtbot):
    first = make_window()
    _first_start(first, qtbot)
    assert first.help.tour is not None
    qtbot.mouseClick(first.help.tour.overlay.callout.skip_button, Qt.MouseButton.LeftButton)
    assert not first.help.tour.active
    first.close()
    second = make_window()
    _first_start(second, qtbot)
    assert second.help.tour is None, "shown once: the setting remembers"
    help_menu = second.findChild(QMenu, "helpMenu")
    assert second.tour_action in help_menu.actions()
    second.tour_action.trigger()  # Help > Tour of the panels
    assert second.help.tour is not None and second.help.tour.active


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_back_skip_and_the_keys(make_window, qtbot):
    win = make_window()
    win.tour_action.trigger()
    tour = win.help.tour
    callout = tour.overlay.callout
    qtbot.waitUntil(lambda: QApplication.focusWidget() is callout.next_button)  # the tour takes the keyboard
    assert not callout.back_button.isEnabled(), "no step before the first"
    qtbot.keyClick(callout.next_button, Qt.Key.Key_Right)
    assert tour.index == 1
    qtbot.mouseClick(callout.next_button, Qt.MouseButton.LeftButton)
    assert tour.index == 2
    qtbot.mouseClick(callout.back_button, Qt.MouseButton.LeftButton)
    assert tour.index == 1
    qtbot.keyClick(callout.next_button, Qt.Key.Key_Left)
    assert tour.index == 0
    qtbot.keyClick(callout.next_button, Qt.Key.Key_Escape)
    assert not tour.active


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_step_in_a_tabbed_away_dock_brings_it_to_the_front(make_window, qtbot):
    win = make_window()
    assert not shown(win.toolbox_dock), "the toolbox starts behind the dice tab"
    win.tour_action.trigger()
    tour = win.help.tour
    index = next(n for n, s in enumerate(tour.steps) if s.target == "toolboxDock")
    tour.show_step(index)
    assert shown(win.toolbox_dock)
    assert isinstance(win.findChild(QDockWidget, "toolboxDock"), QDockWidget)
    tour.close()
    assert shown(win.dice_dock) and not shown(win.toolbox_dock), "the tabs in front before the tour are in front again"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_return_answers_the_first_run_question_then_steps_the_tour_one_at_a_time(make_window, qtbot):
    """The tour opens at its first step when Return closes the question; in the tour Return is Next, one step."""
    win = make_window()
    win.table_files.show_startup_problems()
    dialog = win.table_setup.choice_dialog
    qtbot.waitUntil(dialog.isVisible)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    ok.setFocus()
    qtbot.keyClick(ok, Qt.Key.Key_Return)
    tour = win.help.tour
    assert tour is not None and tour.active and tour.index == 0
    win.activateWindow()  # the dialog that had the keyboard is gone
    tour.overlay.callout.next_button.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is tour.overlay.callout.next_button)
    qtbot.keyClick(tour.overlay.callout.next_button, Qt.Key.Key_Return)  # Return is Next: one step
    assert tour.active and tour.index == 1


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_callout_shows_its_whole_text(make_window, qtbot):
    win = make_window()
    win.tour_action.trigger()
    tour = win.help.tour
    for n in range(len(tour.steps)):
        tour.show_step(n)
        text = tour.overlay.callout.text
        qtbot.wait(1)
        assert text.height() >= text.heightForWidth(text.width()), f"step {n + 1}'s text is cut"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_dock_the_player_closed_is_opened_for_its_step_and_closed_again(make_window, qtbot):
    win = make_window()
    win.log_dock.close()
    win.tour_action.trigger()
    tour = win.help.tour
    tour.show_step(next(n for n, s in enumerate(tour.steps) if s.target == "adventureLogDock"))
    assert shown(win.log_dock), "the step shows what it talks about"
    qtbot.mouseClick(tour.overlay.callout.skip_button, Qt.MouseButton.LeftButton)
    assert not win.log_dock.isVisible(), "closed again, as the player left it"


def _top_widget(win):
    return [c for c in win.children() if isinstance(c, QWidget) and c.isVisible()][-1]


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_dock_raised_during_the_tour_stays_under_it(make_window, qtbot):
    """A fight coming up raises the Combat tab (the window's fight_active_changed wiring): the tour's overlay and
    callout stay on top, not half painted under the dock (seen at 1280x720 in a real window)."""
    win = make_window()
    win.tour_action.trigger()
    tour = win.help.tour
    assert _top_widget(win) is tour.overlay
    win.combat_panel.fight_active_changed.emit(True)  # what a fight starting does to the docks
    qtbot.waitUntil(lambda: _top_widget(win) is tour.overlay)  # the overlay is raised again above the dock
    assert shown(win.combat_dock)
    win.sheet_dock.raise_()
    qtbot.waitUntil(lambda: _top_widget(win) is tour.overlay)
    tour.close()
    assert not tour.active and tour.overlay.watched == [], "after the tour nothing is watched any more"
