"""The statistics' state kept beside the log (issue 24): the ``stats`` meta row of a campaign store.

Only a cache: it is written with an action's transaction, dropped by an undo that goes below the
entries it counts, and a missing or damaged one is read as none (the log is folded instead)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from d100gui.engine.api import Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.stats import Statistics, statistics_of
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.roster import Headline, read_store
from d100gui.storage.store import STATS, CampaignStore

ROLLS = ["2d6", "d100", "3d6", "d10", "d20"]


def _played(path: Path, actions: int) -> tuple[CampaignStore, Session]:
    session = Session.new(bundled_game_data(), seed=11, policy="reroll")
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    for i in range(actions):
        session.run({"kind": "roll_dice", "expression": ROLLS[i % len(ROLLS)]})
    return store, session


def _whole_log(store: CampaignStore) -> list:
    return store.log_page(0, store.log_length)


def _row(path: Path) -> str | None:
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (STATS,)).fetchone()
    finally:
        db.close()
    return None if row is None else str(row[0])


def _set_row(path: Path, value: str) -> None:
    db = sqlite3.connect(path)
    try:
        with db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (STATS, value))
    finally:
        db.close()


def test_a_kept_state_is_written_with_the_next_action_and_read_back_after_reopening(tmp_path):
    path = tmp_path / "c.d100"
    store, session = _played(path, 12)
    assert store.kept_statistics() is None, "a new store keeps none"
    store.keep_statistics(12, Statistics().fold_all(_whole_log(store)).state())
    assert store.kept_statistics() is None, "kept with the next action's transaction, not before"
    session.run({"kind": "roll_dice", "expression": "d6"})
    kept = store.kept_statistics()
    assert kept is not None and kept[0] == 12
    store.close()

    store = CampaignStore.open(path)
    store.load()
    length, state = store.kept_statistics() or (0, {})
    assert length == 12
    resumed = Statistics.from_state(state).fold_all(store.log_page(length, 100))
    assert resumed.figures() == statistics_of(_whole_log(store)), "kept state + newer entries = a full read"
    store.close()


def test_close_writes_a_state_no_action_followed(tmp_path):
    path = tmp_path / "c.d100"
    store, _session = _played(path, 5)
    store.keep_statistics(5, Statistics().fold_all(_whole_log(store)).state())
    store.close()
    store = CampaignStore.open(path)
    assert (store.kept_statistics() or (0,))[0] == 5
    store.close()


def test_an_undo_below_the_counted_entries_drops_the_kept_state(tmp_path):
    path = tmp_path / "c.d100"
    store, session = _played(path, 8)
    store.keep_statistics(8, Statistics().fold_all(_whole_log(store)).state())
    session.run({"kind": "roll_dice", "expression": "d6"})  # writes it: 9 entries, 8 counted
    session.undo()  # back to 8: the 8 counted are still the log's first 8
    assert (store.kept_statistics() or (0,))[0] == 8
    session.undo()  # 7: entry 8 it counted is gone
    assert store.kept_statistics() is None
    assert store._meta(STATS) is None, "dropped in the undo's own transaction"
    session.run({"kind": "roll_dice", "expression": "d20"})  # a different 8th entry
    assert store.kept_statistics() is None
    store.close()


def test_a_pending_state_an_undo_went_below_is_never_written(tmp_path):
    path = tmp_path / "c.d100"
    store, session = _played(path, 6)
    store.keep_statistics(6, Statistics().fold_all(_whole_log(store)).state())
    session.undo()
    session.run({"kind": "roll_dice", "expression": "d20"})
    assert store.kept_statistics() is None
    store.close()
    assert _row(path) is None


def test_a_damaged_or_misfit_row_is_read_as_none_and_the_store_still_opens(tmp_path):
    path = tmp_path / "c.d100"
    store, _session = _played(path, 4)
    store.close()
    for value in (
        "{not json",
        "[1, 2]",
        '{"log_length": "4", "state": {}}',
        '{"log_length": 4}',
        '{"log_length": 99, "state": {}}',  # counts more entries than the log holds
        '{"log_length": 0, "state": {}}',
    ):
        _set_row(path, value)
        store = CampaignStore.open(path)
        campaign = store.load()
        assert store.kept_statistics() is None, value
        assert campaign.log_length == 4, "the campaign opens as ever"
        store.close()


def test_a_damaged_row_is_dropped_by_the_next_save_without_failing_it(tmp_path):
    path = tmp_path / "c.d100"
    store, _session = _played(path, 3)
    store.close()
    _set_row(path, "{not json")
    store = CampaignStore.open(path)
    session = Session(bundled_game_data(), store.load(), "reroll")
    store.attach(session.game)
    session.run({"kind": "roll_dice", "expression": "d6"})
    assert store.log_length == 4
    assert store._meta(STATS) is None
    store.close()


def test_replacing_the_campaign_drops_the_kept_state(tmp_path):
    path = tmp_path / "c.d100"
    store, session = _played(path, 4)
    store.keep_statistics(4, Statistics().fold_all(_whole_log(store)).state())
    session.run({"kind": "roll_dice", "expression": "d6"})
    assert store.kept_statistics() is not None
    store.replace(Campaign())
    assert store.kept_statistics() is None
    store.close()


def test_the_roster_reads_headline_figures_from_the_kept_state_and_shrugs_off_a_damaged_one(tmp_path):
    path = tmp_path / "c.d100"
    store, _session = _played(path, 4)
    store.keep_statistics(4, Statistics().fold_all(_whole_log(store)).state())
    store.close()
    line = read_store(path)
    assert line.headline == Headline(quests=0, fights=0, fights_won=0) and not line.problem
    for value in ("{damaged", '{"log_length": 4, "state": {"version": 1}}', '{"log_length": 4, "state": 3}'):
        _set_row(path, value)
        line = read_store(path)
        assert line.headline is None and not line.problem, value


def test_the_hall_of_the_fallen_reads_the_cause_of_death_from_the_statistics() -> None:
    """The roster's headline (the statistics' query) carries the death event's cause and the fight it ended, in the
    words of the log's death event; the hall's cell shows it, the log's own only while the figures are counted."""
    from d100gui.engine.game import LogEntry
    from d100gui.engine.hero.fallen import death_in, how
    from d100gui.engine.protocol import EVENT_KINDS, Event
    from d100gui.storage.roster import HeroLine, headline_from
    from d100gui.ui.roster.dialog import cause_of

    def ev(kind: str, **data: object) -> Event:
        return Event(kind=kind, topic=EVENT_KINDS[kind].topic, data=data)

    actions = [
        [ev("finishing", hp=5, fate=0, lives=0)],
        [ev("quest_begun", name="The Pit")],
        [ev("combat_started", monster={"name": "Dragon", "av": 90, "hp": [30]}), ev("combat_hero_hp", delta=-5, hp=0)],
        [ev("hero_died", reason="burnt by the Dragon")],
    ]
    log = [LogEntry(index=i, command={"kind": "scripted"}, events=e) for i, e in enumerate(actions)]
    figures = headline_from(statistics_of(log))
    death = death_in(log)
    assert death is not None and figures.cause == how(death) == "burnt by the Dragon, fighting Dragon"
    line = HeroLine("Wilma", 1, 0, 0, "", Path("w.d100"), fallen=True, death=death)
    assert cause_of(line, figures) == figures.cause
    assert cause_of(line, Headline(1, 1, 0, cause="from the statistics")) == "from the statistics", "the statistics first"
    assert cause_of(line, None) == how(death), "the log's death event while the figures are counted"
