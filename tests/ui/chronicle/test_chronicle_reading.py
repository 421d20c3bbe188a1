"""The Chronicle window reads a stored campaign's older entries a page per turn of the event loop (issue 24): the page
says "Reading the campaign's story..." meanwhile, export and print wait, and a change during the read starts it
again, so the page never shows a chronicle the log no longer holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from d100gui.engine import Session, creation_steps
from d100gui.engine.chronicle import ChronicleReader, chronicles_of
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import OPEN_LOG_TAIL, CampaignStore
from d100gui.ui.chronicle import window as chronicle_window
from d100gui.ui.chronicle.window import READING, ChronicleWindow
from d100gui.ui.common.bridge import EngineBridge

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support raise")]


@pytest.fixture
def stored(tmp_path) -> Path:
    """A hero on a quest, then more dice rolled than a store reads on open: the quest is in the older entries."""
    path = tmp_path / "c.d100"
    session = Session.new(bundled_game_data(), seed=2038, policy="reroll")
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    for step in creation_steps("Brana", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    session.run({"kind": "begin_quest"})
    session.run({"kind": "turn_enter"})
    for _ in range(OPEN_LOG_TAIL + 40):
        session.run({"kind": "roll_dice", "expression": "d6"})
    store.close()
    return path


class Opened:
    """A stored campaign opened as the main window opens it, and its Chronicle window counting the pages it reads."""

    def __init__(self, path: Path, qtbot) -> None:
        self.store = CampaignStore.open(path)
        self.session = Session(bundled_game_data(), self.store.load(), "reroll")
        self.store.attach(self.session.game)
        self.bridge = EngineBridge(self.session.game)
        self.pages: list[tuple[int, int]] = []
        self.window = ChronicleWindow(self.bridge, self.store.log_page, None, None, self.rows)
        qtbot.addWidget(self.window)

    def rows(self, reader: ChronicleReader, end: int) -> bool:
        self.pages.append((reader.stats.next_index, end))
        return self.store.fold_chronicle(reader, end)

    def whole(self) -> list:
        return chronicles_of(self.store.log_page(0, self.store.log_length))


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_older_entries_are_read_a_page_at_a_time_saying_so(stored, qtbot, monkeypatch):
    monkeypatch.setattr(chronicle_window, "ROWS_PAGE", 50)
    opened = Opened(stored, qtbot)
    start = opened.session.game.campaign.log_start
    assert start > 50, "the quest's entries are older than the ones in memory"
    window = opened.window
    window.show()
    assert window.reading and READING in window.view.toPlainText() and READING in window.empty.text()
    assert not window.print_button.isEnabled() and not window.pdf_button.isEnabled(), "export and print wait"
    assert READING in window.print_button.toolTip()
    assert opened.pages == [], "nothing read before the event loop turns: the window shows at once"
    qtbot.waitUntil(lambda: not window.reading)
    assert len(opened.pages) >= start // 50 and opened.pages[-1][1] == start, "a page per turn, up to the log in memory"
    assert window.print_button.isEnabled() and window.picker.isEnabled()
    assert window.chronicles() == opened.whole()
    assert window.picker.currentData() == 0 and "Outcome: in progress" in window.view.toPlainText()
    opened.store.close()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_change_during_the_read_starts_it_again(stored, qtbot, monkeypatch):
    monkeypatch.setattr(chronicle_window, "ROWS_PAGE", 50)
    opened = Opened(stored, qtbot)
    window = opened.window
    window.show()
    qtbot.waitUntil(lambda: len(opened.pages) >= 2)
    opened.bridge.undo()  # the last roll undone while the older entries are read
    assert window.reading and opened.pages[-1][0] > 0
    read_before = len(opened.pages)
    qtbot.waitUntil(lambda: not window.reading)
    assert opened.pages[read_before][0] == 0, "read again from the first entry"
    assert window.chronicles() == opened.whole()
    window.show_campaign()
    assert window.picker.currentData() == -1 and "Contents" in window.view.toPlainText()
    opened.store.close()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_quest_asked_for_during_the_read_is_shown_once_read(stored, qtbot):
    opened = Opened(stored, qtbot)
    window = opened.window
    window.show()
    window.show_campaign()  # the Whole campaign button's way, before the read ends
    assert window.reading
    qtbot.waitUntil(lambda: not window.reading)
    assert window.picker.currentData() == -1 and "Contents" in window.view.toPlainText()
    opened.store.close()
