"""Every event the engine emits is declared: a broad scenario's log holds only declared kinds whose payloads validate.

The scenario is real play through the public API: the demo campaign (a hero made by the
creation commands, two skill tests, a mapped dungeon with doors), dice-panel rolls with a
missing row typed in, a door row typed in, a short scripted fight, then undo and redo.
"""

from __future__ import annotations

from typing import Any

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine.api import Session
from d100gui.engine.protocol import EVENT_KINDS, Event
from d100gui.storage.resources import bundled_game_data

GOBLIN = {"name": "Goblin", "av": 40, "defence": 1, "hp": [4]}
WEAPON_ROW = {
    "range": [89, 92],
    "fields": {"type": "(H)", "weapon": "Blade", "adjustment": "+1 DMG", "value": "100", "repair": "20"},
}


def _dice_panel(session: Session) -> None:
    """A free roll, a table roll on a missing row and the row typed in, a row typed for a table."""
    start = len(session.campaign.dice_history)
    session.policy = "ask"
    session.script_dice([3, 4, 9, 0])
    session.run({"kind": "roll_dice", "expression": "2d6"})
    session.run({"kind": "roll_table", "table_id": "d100.W"})
    session.run({"kind": "provide_row", "entry": start + 1, "row": WEAPON_ROW})
    row = {"range": [99, 99], "fields": {"door": "TEST DOOR (TD)", "effect": "Test: Str [S:Open]"}}
    session.run({"kind": "add_table_row", "table_id": "d100.D", "row": row})


def _fight(session: Session) -> list[dict[str, Any]]:
    """Reaction 5; hit on 30, d6 4 to the head kills the 4-HP goblin; its simultaneous attack misses on 90."""
    session.script_dice([5, 3, 0, 4, 1, 9, 0])
    events = session.run({"kind": "start_combat", "source": "monster", "monster": GOBLIN, "fate_windows": False})
    events += session.run({"kind": "combat_attack"})
    assert session.combat is None and session.scripted_left == 0
    return events


@pytest.fixture(scope="module")
def played() -> tuple[Session, list[dict[str, Any]]]:
    data = bundled_game_data()
    session = Session(data, build_demo_campaign(data.library, data.tilesets, data.rules), policy="reroll")
    _dice_panel(session)
    fight = _fight(session)
    steps = session.undo() + session.redo()
    return session, fight + steps


def _problems(events: list[Event]) -> dict[str, str]:
    """Each kind that is not declared, is off its declared topic or whose data does not validate: why."""
    problems: dict[str, str] = {}
    for event in events:
        spec = EVENT_KINDS.get(event.kind)
        if spec is None:
            problems[event.kind] = "not declared"
        elif event.topic != spec.topic:
            problems[event.kind] = f"topic {event.topic!r}, declared {spec.topic!r}"
        else:
            try:
                event.payload()
            except ValueError as exc:
                problems[event.kind] = f"payload does not validate: {exc}"
    return problems


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_scenario_covers_every_feature(played):
    session, _ = played
    kinds = {e.kind for entry in session.log for e in entry.events}
    assert {"roll_made", "row_missing", "row_provided", "map_changed", "combat_over"} <= kinds
    assert session.character is not None and session.character.name == "Aldric the Demo"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_every_logged_event_is_declared_and_validates(played):
    session, _ = played
    problems = _problems([e for entry in session.log for e in entry.events])
    assert problems == {}, "undeclared or invalid event kinds:\n" + "\n".join(f"  {k}: {v}" for k, v in sorted(problems.items()))


def test_the_events_a_command_returns_are_declared_too(played):
    _, returned = played
    problems = _problems([Event.model_validate(e) for e in returned])
    assert problems == {}, "undeclared or invalid event kinds:\n" + "\n".join(f"  {k}: {v}" for k, v in sorted(problems.items()))
