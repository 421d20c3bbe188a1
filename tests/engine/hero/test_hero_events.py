"""Every event the character feature emits is declared once with a typed payload, and goes through ``Event.of``.

Creation, skill tests with each kind of effect, item moves and hand corrections are played
through the Game with scripted dice; every event they return must be of a declared kind, on
its declared topic (or the one the emission names), and its data must validate as the payload.
"""

from __future__ import annotations

import ast
import pathlib
from typing import ClassVar, Literal

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.effects.interpreter import EFFECT_HANDLERS, NEEDS_AMOUNT, apply_effect
from d100gui.engine.game import Command, Game, GameContext
from d100gui.engine.hero import events as ev
from d100gui.engine.hero.creation import STEP_LABELS, creation_commands, step_labels
from d100gui.engine.hero.model import Item, new_character
from d100gui.engine.hero.sheet_edits import SHEET_EDIT_COMMANDS, SetSheetField, SetSkillBonus, SetTrackPips
from d100gui.engine.item_commands import CHARACTER_COMMANDS, AddItem, EquipItem, MoveToBelt, TakeFromBelt, UnequipItem
from d100gui.engine.phases import ANY_TIME, Phases
from d100gui.engine.protocol import EVENT_KINDS, Event
from d100gui.engine.rules.notation import Effect
from d100gui.engine.skill_test_commands import AcceptTest, AssignExperience, RollTest
from d100gui.storage.resources import bundled_rules, standard_tilesets

RULES = bundled_rules()
HERO = pathlib.Path(__file__).parents[3] / "d100gui" / "engine" / "hero"


class ApplyEffect(Command):
    """Test-only: apply one effect, as an outcome would."""

    kind: Literal["test_apply_effect"] = "test_apply_effect"
    when: ClassVar[Phases] = ANY_TIME
    effect: Effect

    def apply(self, ctx: GameContext) -> list[Event]:
        return apply_effect(ctx, self.effect, "Test")


def _game(library, character=None):
    campaign = Campaign()
    campaign.character = character
    commands = [*CHARACTER_COMMANDS, *SHEET_EDIT_COMMANDS, ApplyEffect]
    return Game(campaign, library, commands=commands, rules=RULES, tilesets=standard_tilesets())


def _hero():
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Ada"
    for stat, value in (("STR", 40), ("DEX", 50), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = ch.hp = 20
    ch.fate = 3
    return ch


def _check(events: list[Event]) -> None:
    for event in events:
        spec = EVENT_KINDS.get(event.kind)
        assert spec is not None, f"{event.kind} is not declared"
        assert type(event.payload()) is spec.payload


def test_creation_events_are_declared(bundled_library):
    from d100gui.engine.dice.dice import ScriptedSource

    game = _game(bundled_library)
    game.override = ScriptedSource([0, 5, 0, 1, 0, 5, 1, 0])
    events: list[Event] = []
    for command in creation_commands("Ada", {"STR": 50, "DEX": 40, "INT": 30}, ["Traps", "Locks"]):
        events += game.execute(command)
    kinds = {e.kind for e in events}
    assert {"character_started", "characteristics", "skills", "rep", "table_rolled", "supplies", "finishing"} <= kinds
    _check(events)
    scores = next(e for e in events if e.kind == "characteristics").payload()
    assert isinstance(scores, ev.CharacteristicsAssigned) and scores.scores == {"STR": 50, "DEX": 40, "INT": 30}


def test_skill_test_and_item_events_are_declared(bundled_library):
    from d100gui.engine.dice.dice import ScriptedSource

    game = _game(bundled_library, _hero())
    game.override = ScriptedSource([0, 5])
    events = game.execute(RollTest(text="Test: Dex [S: +5 gp, +1 food] [F: -1 hp] (Traps)"))
    events += game.execute(AcceptTest())
    [xp] = [d for d in game.campaign.pending if d.decision == "experience"]
    events += game.execute(AssignExperience(decision=xp.id, choice="skills", skills=["Traps", "Traps"]))
    events += game.execute(AddItem(item=Item(name="Helm", kind="armour", slot="head", defence=1)))
    events += game.execute(EquipItem(index=0, slot="head"))
    events += game.execute(UnequipItem(slot="head"))
    events += game.execute(AddItem(item=Item(name="Brew", kind="brew"), to="potions"))
    events += game.execute(MoveToBelt(index=0, belt_slot=1))
    events += game.execute(TakeFromBelt(belt_slot=1))
    events += game.execute(SetSheetField(field="gp", value=12))
    events += game.execute(SetSkillBonus(skill="Locks", bonus=5))
    events += game.execute(SetTrackPips(track="poison", value=1))
    kinds = [e.kind for e in events]
    assert {"test_rolled", "test_settled", "decision", "gp", "supplies", "experience", "equipped", "belt"} <= set(kinds)
    _check(events)
    shaded = [e.payload() for e in events if e.kind == "experience"]
    assert [p.track for p in shaded if isinstance(p, ev.ExperienceShaded)] == ["Traps", "Traps"]


@pytest.mark.parametrize(
    "effect",
    [
        Effect(kind="gp", amount=3),
        Effect(kind="gp_half"),
        Effect(kind="hp", amount=-25),
        Effect(kind="hp", note="to maximum"),
        Effect(kind="hp_primary", amount=-1),
        Effect(kind="characteristic", stat="STR", amount=-5),
        Effect(kind="characteristic", stat="CHA", amount=-1),
        Effect(kind="skill", target="Traps", amount=5),
        Effect(kind="skill", amount=-5),
        Effect(kind="rep", amount=1),
        Effect(kind="fate", amount=1),
        Effect(kind="life", amount=-1),
        Effect(kind="oil", amount=2),
        Effect(kind="key", amount=1),
        Effect(kind="poison", amount=1),
        Effect(kind="objective", amount=1),
        Effect(kind="time", amount=3),
        Effect(kind="time_track_bonus", stat="DMG", amount=1),
        Effect(kind="xp", target="skill", amount=1),
        Effect(kind="avoid"),
        Effect(kind="open"),
        Effect(kind="encounter", target="Goblin"),
        Effect(kind="gp"),  # no amount: narrative
    ],
    ids=lambda e: f"{e.kind}-{e.amount}-{e.stat or e.target or e.note}",
)
def test_every_effect_handler_emits_declared_events(bundled_library, effect):
    game = _game(bundled_library, _hero())
    _check(game.execute(ApplyEffect(effect=effect)))


def test_an_effect_without_its_number_is_narrative(bundled_library):
    game = _game(bundled_library, _hero())
    for kind in sorted(NEEDS_AMOUNT):
        [event] = game.execute(ApplyEffect(effect=Effect.model_validate({"kind": kind, "text": kind})))
        assert event.kind == "narrative", kind
    assert set(NEEDS_AMOUNT) < set(EFFECT_HANDLERS)


def test_no_hero_module_builds_an_event_by_hand():
    """Emissions go through ``Event.of`` (``events.emit``): no ``Event(kind=...)`` left in the hero package."""
    for path in sorted(HERO.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Event":
                pytest.fail(f"{path.name}:{node.lineno} builds an Event by hand")


def test_every_hero_payload_is_declared_once():
    payloads = [v for v in vars(ev).values() if isinstance(v, type) and issubclass(v, ev.Payload) and v.event_kind]
    kinds = [p.event_kind for p in payloads]
    assert all(EVENT_KINDS[k].payload.event_kind == k for k in kinds)
    # shared kinds are declared once where they belong (protocol, dice.events) and not passed on by this module:
    # the modules that emit them import them from there
    shared = {
        "decision": "d100gui.engine.protocol",
        "fate_used": "d100gui.engine.protocol",
        "row_provided": "d100gui.engine.dice.events",
    }
    assert not set(shared) & set(kinds)
    assert all(EVENT_KINDS[k].payload.__module__ == module for k, module in shared.items())


def test_step_labels_are_worded_from_the_rules():
    assert step_labels(RULES) == STEP_LABELS
    fewer = RULES.model_copy(update={"creation": RULES.creation.model_copy(update={"skill_choices": 3, "armour_rolls": 1})})
    labels = step_labels(fewer)
    assert labels["skills"] == "choose three skills at +5"
    assert labels["armour"] == "roll once on Table A"
