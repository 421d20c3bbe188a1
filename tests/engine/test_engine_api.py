"""The public engine API: the documented example runs, and the facade keeps its promises."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

import d100gui.engine as engine
from d100gui.engine import API_VERSION, CommandRefused, GameData, ScriptExhausted, Session, command_kinds, creation_steps
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.storage.resources import bundled_game_data

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine-api.md"


def example_code() -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- runnable example[^>]*-->\n```python\n(.*?)\n```", text, re.S)
    assert found is not None, "docs/engine-api.md lost its runnable example"
    return found.group(1)


def test_the_documented_example_runs(tmp_path, capsys):
    script = tmp_path / "example.py"
    script.write_text(example_code(), encoding="utf-8")
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    assert "Refused: There is no fight in progress." in out
    assert "Goblin fight: won" in out
    assert "commands in the log" in out


def test_the_package_names_the_api_lazily():
    assert set(engine.__all__) == {
        "API_VERSION",
        "CommandRefused",
        "GameData",
        "ScriptExhausted",
        "Session",
        "command_kinds",
        "creation_steps",
    }
    assert API_VERSION == 1
    with pytest.raises(AttributeError):
        engine.no_such_name  # noqa: B018


def test_every_command_is_reachable_by_kind():
    kinds = command_kinds()
    assert kinds == sorted(c.model_fields["kind"].default for c in ALL_COMMANDS)
    assert {"roll_dice", "move_hero", "start_combat", "create_character"} <= set(kinds)


def test_scripted_dice_give_the_faces_asked_for():
    session = Session.new(bundled_game_data(), seed=1)
    session.script_dice([3, 4])
    [event] = session.run({"kind": "roll_dice", "expression": "2d6"})
    assert event == {"kind": "roll_made", "topic": "dice", "data": {"index": 0}, "message": event["message"]}
    assert session.campaign.dice_history[0].roll.natural == 7
    assert session.scripted_left == 0
    session.script_dice([0, 0])
    session.run({"kind": "roll_dice", "expression": "d100"})
    assert session.campaign.dice_history[1].roll.final == 100


def test_running_out_of_scripted_dice_changes_nothing():
    session = Session.new(bundled_game_data(), seed=1)
    session.script_dice([3])
    before = session.to_json()
    with pytest.raises(ScriptExhausted, match="ran out"):
        session.run({"kind": "roll_dice", "expression": "2d6"})
    assert session.to_json() == before
    assert session.scripted_left == 1  # the face is still there for the next roll
    session.script_dice([4])
    session.run({"kind": "roll_dice", "expression": "2d6"})
    assert session.campaign.dice_history[0].roll.natural == 7


def test_refusals_say_why_and_change_nothing():
    session = Session.new(bundled_game_data(), seed=1)
    session.script_dice([5, 5])
    before = session.to_json()
    cases = [
        ({"kind": "combat_attack"}, "no character yet"),
        ({"kind": "no_such_command"}, "Unknown command"),
        ({"kind": "roll_dice"}, "expression"),
        ({"kind": "roll_dice", "expression": "2q6"}, "Cannot read dice expression"),
        ({"kind": "roll_table", "table_id": "d100.ZZ"}, "no table"),
        ({"kind": "move_hero", "side": "E"}, "no dungeon"),
    ]
    for command, reason in cases:
        with pytest.raises(CommandRefused, match=reason):
            session.run(command)
    assert session.to_json() == before
    assert session.scripted_left == 2 and session.log == []


def test_seeded_sessions_repeat_and_seeded_dice_come_back():
    def rolls(seed: int) -> list[int]:
        session = Session.new(bundled_game_data(), seed=seed)
        for _ in range(3):
            session.run({"kind": "roll_dice", "expression": "d100"})
        return [h.roll.final for h in session.campaign.dice_history]

    assert rolls(5) == rolls(5) != rolls(6)
    session = Session.new(bundled_game_data(), seed=5)
    session.script_dice([1, 1, 1])
    session.seeded_dice()
    assert session.scripted_left == 0
    session.run({"kind": "roll_dice", "expression": "d100"})
    assert session.campaign.dice_history[0].roll.final == rolls(5)[0]


def test_json_round_trip_keeps_the_campaign_and_plays_on():
    data = bundled_game_data()
    session = Session.new(data, seed=3)
    session.run({"kind": "roll_dice", "expression": "d100"})
    text = session.to_json()
    again = Session.from_json(bundled_game_data(), text)
    assert again.campaign == session.campaign
    assert again.to_json() == text
    session.run({"kind": "roll_dice", "expression": "d100"})
    again.run({"kind": "roll_dice", "expression": "d100"})
    assert again.campaign.dice_history == session.campaign.dice_history  # the generator travelled too
    with pytest.raises(ValueError, match="not a campaign"):
        Session.from_json(data, '{"schema_version": 2, "meta": {"seed": "many"}}')


def test_undo_and_redo_give_back_the_same_roll():
    session = Session.new(bundled_game_data(), seed=9)
    session.run({"kind": "roll_dice", "expression": "d100"})
    first = session.campaign.dice_history[0].roll
    [undone] = session.undo()
    assert undone["kind"] == "undone" and undone["data"] == {"command": "roll_dice"}
    assert session.campaign.dice_history == [] and session.log == []
    [redone] = session.redo()
    assert redone["kind"] == "redone" and session.campaign.dice_history[0].roll == first
    session.undo()
    session.run({"kind": "roll_dice", "expression": "d100"})
    assert session.campaign.dice_history[0].roll == first  # undo never fishes for a better roll
    with pytest.raises(CommandRefused, match="Nothing to redo"):
        session.redo()


def test_creation_steps_follow_the_rulebook_and_make_a_hero():
    steps = creation_steps("Ida", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"])
    assert [s["kind"] for s in steps][:3] == ["create_character", "assign_characteristics", "choose_starting_skills"]
    assert steps[-1] == {"kind": "finish_character"}
    session = Session.new(bundled_game_data(), seed=4, policy="reroll")
    for step in steps:
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    assert session.character is not None and session.character.name == "Ida" and session.character.creation is None
    assert session.pending == []


def test_the_missing_row_policy_is_the_sessions():
    session = Session.new(bundled_game_data(), seed=1)
    assert session.policy == "ask"
    session.script_dice([9, 0])
    [event] = session.run({"kind": "roll_table", "table_id": "d100.W"})
    assert event["kind"] == "row_missing"
    session.policy = "reroll"
    session.script_dice([9, 0])
    session.seeded_dice()
    events = session.run({"kind": "roll_table", "table_id": "d100.W"})
    assert events[-1]["kind"] == "roll_made"


def test_game_data_is_fresh_per_call():
    first, second = bundled_game_data(), bundled_game_data()
    assert isinstance(first, GameData)
    assert first.library is not second.library and first.rules is second.rules
    assert "standard" in first.tilesets and "d100.E" in first.library
