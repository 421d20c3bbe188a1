"""The Statistics view's feed on a campaign opened from its store (issue 24): it starts from the state the
store keeps beside the log and reads only the entries that state does not count; a missing or damaged
one, or one an undo went below, costs a read of the log, never a wrong figure."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from d100gui.engine.api import Session
from d100gui.engine.stats import Statistics, statistics_of
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import OPEN_LOG_TAIL, STATS, CampaignStore
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.stats.feed import StatsFeed

pytestmark = pytest.mark.gui

ROLLS = ["2d6", "d100", "3d6", "d10", "d20"]
#: more entries than a store reads on open: the older ones come from log_page
ACTIONS = OPEN_LOG_TAIL + 40


@pytest.fixture
def stored(tmp_path) -> Path:
    path = tmp_path / "c.d100"
    session = Session.new(bundled_game_data(), seed=3, policy="reroll")
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    for i in range(ACTIONS):
        session.run({"kind": "roll_dice", "expression": ROLLS[i % len(ROLLS)]})
    store.close()
    return path


class Opened:
    """A stored campaign opened as the window opens it, with a feed counting the older pages it reads."""

    def __init__(self, path: Path, qtbot) -> None:
        self.store = CampaignStore.open(path)
        self.session = Session(bundled_game_data(), self.store.load(), "reroll")
        self.store.attach(self.session.game)
        self.bridge = EngineBridge(self.session.game)
        self.read: list[tuple[int, int]] = []  # the older entries read: as entries (older) or their rows (SQL)
        self.rows_read: list[tuple[int, int]] = []
        self.store.fold_statistics = self.rows  # type: ignore[method-assign]  # counted, then the store's own
        self.feed = StatsFeed(self.bridge, self.older, keeper=lambda: self.store)
        qtbot.waitUntil(lambda: self.feed.ready)

    def older(self, offset: int, limit: int):
        self.read.append((offset, limit))
        return self.store.log_page(offset, limit)

    def rows(self, stats, end: int):
        self.read.append((stats.next_index, end - stats.next_index))
        self.rows_read.append((stats.next_index, end - stats.next_index))
        return CampaignStore.fold_statistics(self.store, stats, end)

    def whole(self) -> dict:
        return statistics_of(self.store.log_page(0, self.store.log_length))

    def send(self, command: dict) -> None:
        assert self.bridge.send(self.session.game.parse_command(command))


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_first_read_is_kept_and_the_next_opening_reads_no_older_entry(stored, qtbot):
    opened = Opened(stored, qtbot)
    assert opened.read, "no state kept yet: the older entries are read"
    assert opened.feed.figures() == opened.whole()
    opened.send({"kind": "roll_dice", "expression": "d6"})  # the read state is written with this action
    assert opened.feed.figures() == opened.whole()
    opened.store.close()

    again = Opened(stored, qtbot)
    assert again.read == [], "the kept state counts every entry older than the ones in memory"
    assert again.feed.figures() == again.whole(), "the same figures as a full read"
    again.send({"kind": "roll_dice", "expression": "4d6"})
    assert again.feed.figures() == again.whole()
    again.store.close()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_after_undo_the_figures_are_right(stored, qtbot):
    opened = Opened(stored, qtbot)
    opened.send({"kind": "roll_dice", "expression": "d6"})  # keeps the state of the first ACTIONS entries
    opened.store.close()

    again = Opened(stored, qtbot)
    assert again.bridge.undo()  # back to ACTIONS entries: the kept state still fits
    qtbot.waitUntil(lambda: again.feed.ready)
    assert again.feed.figures() == again.whole()
    assert again.bridge.undo()  # below the kept state: dropped, the log is read again
    qtbot.waitUntil(lambda: again.feed.ready)
    assert again.feed.figures() == again.whole()
    assert again.store.kept_statistics() is None or again.store.kept_statistics()[0] <= again.store.log_length
    again.send({"kind": "roll_dice", "expression": "d100"})
    assert again.feed.figures() == again.whole()
    again.store.close()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize(
    "value",
    ["{damaged", '{"log_length": 5, "state": {"version": 999}}', '{"log_length": 5, "state": {"version": 1}}'],
)
def test_a_damaged_kept_state_falls_back_to_the_log(stored, qtbot, value):
    db = sqlite3.connect(stored)
    with db:
        db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (STATS, value))
    db.close()
    opened = Opened(stored, qtbot)
    assert opened.read and opened.read[0][0] == 0, "the log is read from its first entry"
    assert opened.feed.figures() == opened.whole()
    opened.store.close()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_missing_kept_state_falls_back_to_the_log(stored, qtbot):
    opened = Opened(stored, qtbot)
    assert opened.store.kept_statistics() is None
    assert opened.read and opened.read[0][0] == 0
    assert opened.rows_read == opened.read, "counted in SQL (dice and the events the statistics read), not as entries"
    assert opened.feed.figures() == opened.whole()
    opened.store.close()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_row_sql_cannot_read_is_read_as_entries(stored, qtbot):
    """A log row whose rolls are not JSON: the SQL count refuses whole (the feed then reads the entries, and
    log_page names the damaged one)."""
    db = sqlite3.connect(stored)
    with db:
        db.execute("UPDATE log SET rolls = 'not json' WHERE idx = 3")
    db.close()
    store = CampaignStore.open(stored)
    assert store.fold_statistics(Statistics(), store.log_length) is None, "refused, nothing half counted"
    store.close()
