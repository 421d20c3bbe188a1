"""The gate (issues 18, 26): every command declares when it may run, and the engine refuses the rest.

A fallen hero's campaign takes no command at all; while a fight is on every dungeon, quest and
town command is refused with the reason (or declares which rule lets it run), headless through
``Session`` like the window. Refused commands change nothing.
"""

from __future__ import annotations

import enum
import random
import types
import typing
from typing import Any, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel

from d100gui.demo import build_demo_campaign
from d100gui.engine import CommandRefused, ScriptExhausted, Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import CombatState, Monster
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.game import Command
from d100gui.engine.gate import declared, refusal, refusal_for_kind
from d100gui.engine.hero.model import Character
from d100gui.storage.resources import bundled_game_data

DATA = bundled_game_data()
DEMO = build_demo_campaign(DATA.library)
KINDS = {c.model_fields["kind"].default: c for c in ALL_COMMANDS}


def sample(annotation: Any) -> Any:
    """A value of ``annotation`` pydantic accepts (the gate only needs the command to parse)."""
    origin = get_origin(annotation)
    if origin is Literal:
        return get_args(annotation)[0]
    if origin in (typing.Union, types.UnionType):
        return sample(next(a for a in get_args(annotation) if a is not type(None)))
    if origin is list:
        return [0] if get_args(annotation) == (int,) else []
    if origin is dict:
        return {}
    if annotation is int:
        return 1
    if annotation is str:
        return "1,1"
    if annotation is bool:
        return False
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return next(iter(annotation)).value
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        required = {n: sample(f.annotation) for n, f in annotation.model_fields.items() if f.is_required()}
        if "range" in annotation.model_fields:
            required["range"] = [1, 1]
        return required
    raise AssertionError(f"no sample for {annotation!r}")


def command_dict(cls: type[Command]) -> dict[str, Any]:
    kind = cls.model_fields["kind"].default
    fields = {n: sample(f.annotation) for n, f in cls.model_fields.items() if f.is_required() and n != "kind"}
    return {"kind": kind, **fields}


def demo() -> Campaign:
    return DEMO.model_copy(deep=True)


def fighting_session() -> Session:
    """The demo hero on a quest, a fight with a goblin on."""
    campaign = demo()
    campaign.combat = CombatState(monster=Monster(name="Goblin", av=30, hp=[5]), hp=[5])
    return Session(DATA, campaign)


def fallen_session() -> Session:
    campaign = demo()
    assert campaign.character is not None
    campaign.character.dead = True
    return Session(DATA, campaign)


def test_every_command_kind_declares_when_it_may_run():
    undeclared = [kind for kind, cls in KINDS.items() if declared(cls) is None]
    assert undeclared == [], f"declare Command.when on: {undeclared}"


def test_a_command_that_declares_nothing_never_runs():
    class Forgetful(Command):
        kind: Literal["test_forgetful"] = "test_forgetful"

        def apply(self, ctx):  # pragma: no cover - never reached
            raise AssertionError("ran")

    session = Session(DATA, demo())
    with pytest.raises(CommandRefused, match="declares no phase"):
        session.game.execute(Forgetful())
    assert "declares no phase" in refusal(session.campaign, Forgetful(), DATA.rules)


def test_every_kind_has_a_sample_that_parses():
    session = fighting_session()
    for cls in ALL_COMMANDS:
        session.game.parse_command(command_dict(cls))  # raises if the sample is wrong


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_fallen_campaign_refuses_every_command_headless(kind):
    session = fallen_session()
    before = session.to_json()
    with pytest.raises(CommandRefused, match="has fallen"):
        session.run(command_dict(KINDS[kind]))
    assert session.to_json() == before
    assert "has fallen" in refusal_for_kind(session.campaign, kind, DATA.rules)


def test_the_three_fallen_commands_the_issue_names_are_refused():
    session = fallen_session()
    before = session.to_json()
    for command in (
        {"kind": "roll_dice", "expression": "d100"},
        {"kind": "new_dungeon"},
        {"kind": "toolbox_injury"},
        {"kind": "create_character"},
    ):
        with pytest.raises(CommandRefused, match="has fallen"):
            session.run(command)
    assert session.to_json() == before


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_command_kind_during_a_fight(kind):
    """Refused with the reason and nothing changed, unless the kind is the fight's own or names the rule that lets it run."""
    cls = KINDS[kind]
    when = declared(cls)
    assert when is not None
    session = fighting_session()
    before = session.to_json()
    if when.fight == "no":
        with pytest.raises(CommandRefused, match=r"[Ff]ight with Goblin"):
            session.run(command_dict(cls))
        assert session.to_json() == before
        assert "Goblin" in refusal_for_kind(session.campaign, kind, DATA.rules)
    elif when.fight == "any":
        assert when.why, f"{kind} runs during a fight: say which rule lets it (Phases.why)"
        assert refusal_for_kind(session.campaign, kind, DATA.rules) == ""
    else:
        assert kind.startswith("combat_") and refusal_for_kind(session.campaign, kind, DATA.rules) == ""


@pytest.mark.parametrize(
    "command",
    [
        {"kind": "leave_dungeon"},
        {"kind": "learn_spell", "spell": "Heal"},
        {"kind": "new_dungeon"},
        {"kind": "begin_quest"},
        {"kind": "fail_quest"},
        {"kind": "complete_quest"},
        {"kind": "move_hero", "side": "N"},
        {"kind": "begin_town"},
        {"kind": "advance_time", "clocks": 1},
        {"kind": "equip_item", "index": 0, "slot": "head"},
    ],
)
def test_the_commands_the_issues_name_are_refused_in_a_fight(command):
    session = fighting_session()
    before = session.to_json()
    with pytest.raises(CommandRefused, match="Goblin"):
        session.run(command)
    assert session.to_json() == before


def test_the_fight_commands_need_a_fight_and_a_hero():
    session = Session.new(DATA)
    with pytest.raises(CommandRefused, match="no character yet"):
        session.run({"kind": "combat_attack"})
    session = Session(DATA, demo())
    with pytest.raises(CommandRefused, match="no fight in progress"):
        session.run({"kind": "combat_attack"})


def test_a_hero_is_made_only_before_the_game_begins():
    campaign = Campaign()
    campaign.character = Character()
    session = Session(DATA, campaign)
    assert refusal_for_kind(session.campaign, "roll_dice", DATA.rules) == ""
    assert refusal_for_kind(session.campaign, "no_such_kind", DATA.rules).startswith("Unknown command")


#: values a player's file, a script or a widget bug might put in any field
ODD_VALUES = [0, -1, 2**60, -(2**60), "", "1,1", "99999,99999", None, [], {}, [1, 2], True, 3.5, "Test: Str", "x" * 3000]


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_no_input_makes_a_command_raise_anything_but_a_refusal(kind):
    """Issue 18, Deliver 2: odd field values, in a fight, a quest and free play, give a refusal or a valid action."""
    cls = KINDS[kind]
    pick = random.Random(kind)
    fields = [n for n in cls.model_fields if n != "kind"]
    for trial in range(3):
        command = command_dict(cls)
        for name in fields:
            if pick.random() < 0.5:
                command[name] = pick.choice(ODD_VALUES)
        session = fighting_session() if trial == 0 else Session(DATA, demo(), policy="reroll")
        if trial == 2:
            session.campaign.adventure.quest = session.campaign.adventure.turn = None
        try:
            session.run(command)
        except (CommandRefused, ScriptExhausted):
            pass


def test_undo_and_redo_never_step_through_a_fallen_campaign():
    """The death is the last word, headless too: undo would take the fatal blow back (issue 18)."""
    session = Session(DATA, demo())
    session.run({"kind": "roll_dice", "expression": "d6"})
    session.run({"kind": "roll_dice", "expression": "d6"})
    session.undo()  # one step on the redo stack, one on the undo stack
    assert session.character is not None
    session.character.dead = True  # the hero falls (as a fight's death leaves the sheet)
    before = session.to_json()
    with pytest.raises(CommandRefused, match="has fallen"):
        session.undo()
    with pytest.raises(CommandRefused, match="has fallen"):
        session.redo()
    assert session.to_json() == before
