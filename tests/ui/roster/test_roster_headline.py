"""The roster's headline figures (issue 24, deliver 4): quests begun and fights, from the statistics'
state the campaign's store keeps, shown in the hall of the fallen through File > Heroes."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.ui.main_window import MainWindow
from d100gui.ui.roster.dialog import FALLEN_COLUMNS, HEADLINE_TIP
from tests.ui.roster.test_roster_window import die_in_a_fight, hero, window_for

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support raise")]


def open_statistics(window: MainWindow) -> None:
    [menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&View"]
    [action] = [a for a in menu.actions() if a.text() == "&Statistics..."]
    action.trigger()


def fallen_cells(window: MainWindow) -> dict[str, str]:
    window.roster_action.trigger()
    dialog = window.roster.dialog
    assert dialog is not None and dialog.fallen.rowCount() == 1
    return {name: dialog.fallen.item(0, c).text() for c, name in enumerate(FALLEN_COLUMNS)}


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_hall_shows_the_fights_the_statistics_counted(qtbot):
    window = window_for(qtbot, Campaign(character=hero()))
    die_in_a_fight(qtbot, window)
    open_statistics(window)
    stats = window.stats_window
    assert stats is not None
    qtbot.waitUntil(lambda: stats.feed.ready)
    window.close()  # the store writes the state the Statistics view handed it

    again = window_for(qtbot)
    cells = fallen_cells(again)
    assert cells["Hero"] == "Aria" and cells["Cause"] == "HP 0 and no Lives left, fighting Orc"
    assert cells["Fights (won)"] == "1 (0 won)"
    assert cells["Quests begun"] == "0"
    assert cells["Gold"].endswith(" gp")
    header = again.roster.dialog.fallen.horizontalHeaderItem(FALLEN_COLUMNS.index("Fights (won)"))
    assert header is not None and header.toolTip() == HEADLINE_TIP


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_without_a_kept_state_the_roster_counts_it_once(qtbot):
    """Issue 24: the roster no longer waits for the Statistics view (this test pinned blank cells before): a
    store keeping no statistics is counted off the GUI thread, and the state it keeps serves the next roster."""
    window = window_for(qtbot, Campaign(character=hero()))
    die_in_a_fight(qtbot, window)
    window.close()  # the Statistics view never counted this campaign

    again = window_for(qtbot)
    cells = fallen_cells(again)
    assert cells["Hero"] == "Aria" and cells["Fights (won)"] in ("counting...", "1 (0 won)")
    dialog = again.roster.dialog
    column = FALLEN_COLUMNS.index("Fights (won)")
    qtbot.waitUntil(lambda: dialog.fallen.item(0, column).text() == "1 (0 won)")
    assert dialog.fallen.item(0, FALLEN_COLUMNS.index("Quests begun")).text() == "0"
    dialog.counter.worker.join()
    dialog.reject()

    counted = []
    again.roster_action.trigger()
    second = again.roster.dialog
    second.counter.counted.connect(lambda path, figures: counted.append(path))
    assert second.fallen.item(0, column).text() == "1 (0 won)", "read from the state the first count kept"
    assert second.counter.paths == [] and counted == []


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_campaign_in_play_is_counted_for_the_roster(qtbot):
    """Its store is the window's: a statistics feed counts it (a page per event-loop turn) and keeps the state."""
    window = window_for(qtbot, Campaign(character=hero()))
    die_in_a_fight(qtbot, window)
    assert window.campaigns.store is not None and window.campaigns.store.kept_statistics() is None
    window.roster_action.trigger()
    dialog = window.roster.dialog
    column = FALLEN_COLUMNS.index("Fights (won)")
    qtbot.waitUntil(lambda: dialog.fallen.item(0, column).text() == "1 (0 won)")
    assert dialog.counter.paths == [], "the campaign in play is not opened a second time"
    window.close()  # the store writes the state the feed handed it

    again = window_for(qtbot)
    assert fallen_cells(again)["Fights (won)"] == "1 (0 won)"
