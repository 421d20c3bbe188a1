"""Every change of the hero's HP, Fate or Lives outside a fight is told by a typed event (``hp``, ``fate``,
``life``, or one that carries the value), so the statistics' sheet, the quest's HP lost and the chronicle's
start-to-end table follow it (issue 24). Scripted dice through :class:`Session`.

:func:`checked` wraps a session so that after every command and every undo the hero's HP, Fate and
Lives are compared with ``statistics()["campaign"]["now"]``: the property the curse, the spell's cost,
Heal, Divine Wrath, a hand correction and the whole training quest scenario are run under.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from d100gui.engine import Session, creation_steps
from d100gui.engine.chronicle import SheetChange
from d100gui.engine.stats import Statistics
from d100gui.storage.resources import bundled_game_data

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "test_training_quest.py"


def told_now(session: Session) -> tuple[Any, Any, Any]:
    now = session.statistics()["campaign"]["now"]
    return now["hp"], now["fate"], now["lives"]


def on_sheet(session: Session) -> tuple[int, int, int]:
    ch = session.character
    assert ch is not None
    return ch.hp, ch.fate, ch.lives


def agree(session: Session, after: str) -> None:
    """The statistics say the hero's HP, Fate and Lives (once the finishing values are written)."""
    ch = session.character
    if ch is None or (ch.creation is not None and told_now(session) == (None, None, None)):
        return  # no hero, or one being created before its finishing values
    assert told_now(session) == on_sheet(session), f"after {after}: the log's typed events tell another HP/Fate/Lives"


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every Session run or undo in the test checks :func:`agree`; yields the commands checked."""
    seen: list[str] = []
    run, undo = Session.run, Session.undo

    def checked_run(self: Session, command: Any) -> list[dict[str, Any]]:
        events = run(self, command)
        seen.append(str(command.get("kind")))
        agree(self, str(command.get("kind")))
        return events

    def checked_undo(self: Session) -> list[dict[str, Any]]:
        events = undo(self)
        agree(self, "undo")
        return events

    monkeypatch.setattr(Session, "run", checked_run)
    monkeypatch.setattr(Session, "undo", checked_undo)
    yield seen


def caster_in_a_quest(*spells: str) -> Session:
    """A hero with STR 30 and INT 50 who knows ``spells``, on a quest just begun (HP 20, Fate 3, Lives 3)."""
    session = Session.new(bundled_game_data(), seed=2037, policy="reroll")
    for step in creation_steps("Brana", {"STR": 30, "DEX": 40, "INT": 50}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    for spell in spells:
        session.run({"kind": "learn_spell", "spell": spell})
    session.run({"kind": "begin_quest"})
    assert on_sheet(session) == (20, 3, 3)
    return session


def quest_hp_lost(session: Session) -> int:
    return int(session.statistics()["quests"][-1]["hp_lost"])


def hp_row(session: Session) -> SheetChange:
    return next(change for change in session.chronicle(0).sheet if change.key == "hp")


def last_events(session: Session, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in session.game.campaign.log[-1].events if e.kind == kind]


def test_lasting_illness_outside_a_fight_takes_hp_in_the_statistics_and_the_chronicle(checked: list[str]) -> None:
    session = caster_in_a_quest()
    session.script_dice([0, 3])  # Table C 03: LASTING ILLNESS, -4 primary HP (current HP follows)
    session.run({"kind": "roll_curse"})
    assert on_sheet(session)[0] == 16
    assert last_events(session, "hp") == [{"delta": -4, "hp": 16, "max_hp": 16}]
    assert session.statistics()["campaign"]["now"]["hp"] == 16 and quest_hp_lost(session) == 4
    assert (hp_row(session).before, hp_row(session).after) == (20, 16)
    session.undo()
    assert session.statistics()["campaign"]["now"]["hp"] == 20 and quest_hp_lost(session) == 0
    assert hp_row(session).delta == 0
    assert "roll_curse" in checked


def test_open_magics_hp_cost_is_hp_lost(checked: list[str]) -> None:
    session = caster_in_a_quest("Open Magic")
    session.script_dice([1, 0])  # CAST SPELL 10 <= 50: it works; its cost is 1 HP
    session.run({"kind": "cast_spell", "index": 0})
    assert on_sheet(session)[0] == 19
    assert [e["delta"] for e in last_events(session, "hp")] == [-1]
    assert session.statistics()["campaign"]["now"]["hp"] == 19 and quest_hp_lost(session) == 1
    assert hp_row(session).after == 19
    session.undo()
    assert session.statistics()["campaign"]["now"]["hp"] == 20 and quest_hp_lost(session) == 0


def test_heal_restores_hp_in_the_statistics(checked: list[str]) -> None:
    session = caster_in_a_quest("Heal")
    session.run({"kind": "set_sheet_field", "field": "hp", "value": 8})  # a hand correction: told by its hp event too
    assert session.statistics()["campaign"]["now"]["hp"] == 8 and quest_hp_lost(session) == 12
    session.script_dice([1, 0])  # CAST SPELL 10 <= 50: Heal restores 10 HP
    session.run({"kind": "cast_spell", "index": 0})
    assert on_sheet(session)[0] == 18
    assert last_events(session, "hp") == [{"delta": 10, "hp": 18, "max_hp": 20}]
    assert session.statistics()["campaign"]["now"]["hp"] == 18, "healing is no HP lost"
    assert quest_hp_lost(session) == 12 and hp_row(session).after == 18
    session.undo()
    assert session.statistics()["campaign"]["now"]["hp"] == 8 and hp_row(session).after == 8


def test_divine_wrath_outside_a_fight_takes_hp_fate_and_lives(checked: list[str]) -> None:
    session = caster_in_a_quest()
    session.script_dice([0, 1])  # Table C 01: DIVINE WRATH: HP 1, Fate 0, two Lives lost
    session.run({"kind": "roll_curse"})
    assert on_sheet(session) == (1, 0, 1)
    assert last_events(session, "fate") == [{"value": 0}] and last_events(session, "life") == [{"value": 1}]
    now = session.statistics()["campaign"]["now"]
    assert (now["hp"], now["fate"], now["lives"]) == (1, 0, 1) and quest_hp_lost(session) == 19
    assert hp_row(session).after == 1
    session.undo()
    now = session.statistics()["campaign"]["now"]
    assert (now["hp"], now["fate"], now["lives"]) == (20, 3, 3) and quest_hp_lost(session) == 0


def test_fate_and_lives_written_by_hand_reach_the_statistics(checked: list[str]) -> None:
    session = caster_in_a_quest()
    session.run({"kind": "set_sheet_field", "field": "fate", "value": 1})
    session.run({"kind": "set_sheet_field", "field": "lives", "value": 2})
    assert told_now(session) == (20, 1, 2)
    session.undo()
    assert told_now(session) == (20, 1, 3)


def test_lower_primary_hp_by_hand_brings_the_told_hp_down(checked: list[str]) -> None:
    session = caster_in_a_quest()
    session.run({"kind": "set_sheet_field", "field": "hp_primary", "value": 15})
    assert told_now(session) == (15, 3, 3) and quest_hp_lost(session) == 5


@pytest.mark.slow  # the scenario it runs is in the slow lane too (`make test` runs both)
def test_the_whole_training_quest_scenario_tells_every_hp_fate_and_lives_change(checked: list[str]) -> None:
    spec = importlib.util.spec_from_file_location("training_quest_scenario", SCENARIO)
    assert spec is not None and spec.loader is not None
    scenario = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scenario)
    scenario.test_a_whole_training_quest_and_its_replay()
    assert len(checked) > 40 and {"try_door", "turn_move", "begin_quest"} <= set(checked), sorted(set(checked))


def test_the_statistics_read_an_hp_bonus_ending_at_the_refresh_and_fate_and_lives_values() -> None:
    stats = Statistics()
    stats.fold_events(0, [("finishing", {"hp": 25, "fate": 3, "lives": 3}), ("quest_begun", {"name": "The Crypt"})])
    stats.fold_events(1, [("time_track_refreshed", {"clock": 48, "bonuses_cleared": 0, "hp_lost": 0, "hp": None})])
    assert stats.sheet()["hp"] == 25 and stats.figures()["campaign"]["hp_lost"] == 0
    stats.fold_events(2, [("time_track_refreshed", {"clock": 48, "bonuses_cleared": 1, "hp_lost": 5, "hp": 20})])
    stats.fold_events(3, [("fate", {"value": 4}), ("life", {"value": 2}), ("fate_used", {"fate": 3})])
    figures = stats.figures()
    assert (figures["campaign"]["hp_lost"], figures["quests"][0]["hp_lost"]) == (5, 5)
    assert {k: figures["campaign"]["now"][k] for k in ("hp", "fate", "lives")} == {"hp": 20, "fate": 3, "lives": 2}
    assert figures["campaign"]["fate_spent"] == 1 and figures["campaign"]["lives_spent"] == 0, "only what was spent"
    again = Statistics.from_state(stats.state())
    assert again.sheet() == stats.sheet()
