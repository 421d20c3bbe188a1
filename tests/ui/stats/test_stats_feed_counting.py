"""An older campaign (its store keeps no statistics yet) opened in the window (issue 24): opening it and playing on
count nothing; View > Statistics counts its log a page per event-loop turn, saying so until the figures are ready,
and an action or an undo made while it counts leaves the figures right once it is done."""

from __future__ import annotations

from pathlib import Path

import pytest

from d100gui.engine.api import Session
from d100gui.engine.stats import statistics_of
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import OPEN_LOG_TAIL, CampaignStore
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow
from d100gui.ui.stats import feed as feed_module
from d100gui.ui.stats.window import StatisticsWindow

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support raise")]

ROLLS = ["2d6", "d100", "3d6", "d10", "d20"]
#: entries older than the ones a store loads on open: counted from the store
OLDER = 40
#: rows counted per event-loop turn in these tests (the feed's ROWS_PAGE is 2,000): several turns for OLDER
PAGE = 10


def saved(path: Path, seed: int = 3, more: int = 0) -> Path:
    """A campaign saved with more entries than a store loads on open, and no statistics kept beside its log."""
    session = Session.new(bundled_game_data(), seed=seed, policy="reroll")
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    for i in range(OPEN_LOG_TAIL + OLDER + more):
        session.run({"kind": "roll_dice", "expression": ROLLS[(i + more) % len(ROLLS)]})
    store.close()
    return path


@pytest.fixture
def older_campaign(tmp_path) -> Path:
    return saved(tmp_path / "older.d100")


@pytest.fixture
def window(qtbot, monkeypatch, older_campaign):
    """The main window with the older campaign opened through File > Open's handler; SQL counts are recorded."""
    monkeypatch.setattr(feed_module, "ROWS_PAGE", PAGE)
    counted: list[tuple[int, int]] = []
    fold = CampaignStore.fold_statistics

    def recording(store: CampaignStore, stats, end: int):
        counted.append((stats.next_index, end))
        return fold(store, stats, end)

    monkeypatch.setattr(CampaignStore, "fold_statistics", recording)
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=4)
    qtbot.addWidget(win)
    assert win.campaigns.open_campaign(older_campaign)
    assert win.bridge.game.campaign.log_start == OLDER
    win.counted = counted  # type: ignore[attr-defined]
    return win


def send(window: MainWindow, command: dict) -> None:
    assert window.bridge.send(window.bridge.game.parse_command(command))


def open_statistics(window: MainWindow) -> StatisticsWindow:
    [menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&View"]
    [action] = [a for a in menu.actions() if a.text() == "&Statistics..."]
    action.trigger()
    stats = window.stats_window
    assert isinstance(stats, StatisticsWindow) and stats.isVisible()
    return stats


def whole_log(window: MainWindow) -> dict:
    """The figures of every entry: the older ones from the store, the newer ones in memory."""
    campaign = window.bridge.game.campaign
    store = window.campaigns.store
    assert store is not None
    return statistics_of([*store.log_page(0, campaign.log_start), *campaign.log])


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_opening_an_older_campaign_and_playing_on_count_nothing(window, qtbot):
    send(window, {"kind": "roll_dice", "expression": "d6"})
    qtbot.wait(10)  # a few turns of the event loop
    assert window.counted == [] and window.stats_window is None
    store = window.campaigns.store
    assert store is not None and store.kept_statistics() is None


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_first_count_is_a_page_a_turn_and_says_so_until_ready(window, qtbot):
    stats = open_statistics(window)
    assert not stats.feed.ready, "opening the view counts no more than one page before the event loop turns"
    assert window.counted == [(0, PAGE)]
    assert "Reading the log" in stats.summary.text()
    qtbot.waitUntil(lambda: stats.feed.ready)
    assert window.counted == [(at, at + PAGE) for at in range(0, OLDER, PAGE)]
    assert "Reading the log" not in stats.summary.text()
    assert stats.figures == whole_log(window)
    send(window, {"kind": "roll_dice", "expression": "d6"})  # the state counted is written with the next action
    store = window.campaigns.store
    assert store is not None and store.kept_statistics() is not None, "counted once: the store keeps it"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_an_action_made_while_counting_is_counted_once(window, qtbot):
    stats = open_statistics(window)
    assert not stats.feed.ready
    send(window, {"kind": "roll_dice", "expression": "40d6"})
    assert not stats.feed.ready and "Reading the log" in stats.summary.text(), "no figures shown before the count ends"
    qtbot.waitUntil(lambda: stats.feed.ready)
    figures = whole_log(window)
    assert stats.figures == figures and figures["entries"] == OPEN_LOG_TAIL + OLDER + 1
    send(window, {"kind": "roll_dice", "expression": "d6"})
    assert stats.figures == whole_log(window), "then each action folds its own entry"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_an_undo_made_while_counting_starts_the_count_again(window, qtbot):
    send(window, {"kind": "roll_dice", "expression": "40d6"})
    stats = open_statistics(window)
    assert not stats.feed.ready
    window.bridge.undo()
    assert not stats.feed.ready
    qtbot.waitUntil(lambda: stats.feed.ready)
    figures = whole_log(window)
    assert stats.figures == figures and figures["entries"] == OPEN_LOG_TAIL + OLDER
    assert window.counted[-1] == (OLDER - PAGE, OLDER)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_undoing_after_the_first_count_counts_no_older_entry_again(window, qtbot, monkeypatch):
    monkeypatch.setattr(feed_module, "KEEP_EVERY", 3)  # a state kept (and marked) every 3 entries
    stats = open_statistics(window)
    qtbot.waitUntil(lambda: stats.feed.ready)
    for expression in ("d6", "2d6", "d10", "d20", "3d6", "d100", "d8"):
        send(window, {"kind": "roll_dice", "expression": expression})
    counted = list(window.counted)
    for _ in range(9):  # back past every state kept since, and into the entries the store loaded on open
        window.bridge.undo()
        assert stats.feed.ready, "an undo starts again from a state marked in memory: no page to wait for"
        assert stats.figures == whole_log(window)
    assert window.counted == counted, "no older entry counted again"
    assert stats.figures["entries"] == OPEN_LOG_TAIL + OLDER - 2
    window.bridge.redo()
    send(window, {"kind": "roll_dice", "expression": "4d6"})
    assert stats.figures == whole_log(window)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_another_campaign_forgets_the_marks(window, qtbot, tmp_path):
    stats = open_statistics(window)
    qtbot.waitUntil(lambda: stats.feed.ready)
    send(window, {"kind": "roll_dice", "expression": "d6"})
    other = saved(tmp_path / "other.d100", seed=9, more=3)  # longer, other dice: a mark of the first would fit
    assert window.campaigns.open_campaign(other)
    qtbot.waitUntil(lambda: stats.feed.ready)
    assert stats.figures == whole_log(window) and stats.figures["entries"] == OPEN_LOG_TAIL + OLDER + 3
