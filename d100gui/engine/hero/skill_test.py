"""Skill tests as the hero's: the target before the roll, and a rolled test's roll settled.

The procedure (rulebook "Skill Tests", "Experience Tracks", "Fate Points"):

1. A test is read from a ``Test:`` line (``notation.parse_test``) or made ad hoc
   (characteristic, modifier, skills) by :func:`make_spec`; its target is the adjusted
   characteristic + modifier + the bonus of every listed skill (:func:`preview_test` shows it
   before the roll, e.g. ``65 -10 +5 +10 = 70``).
2. :func:`settle_roll` settles a rolled test's roll: a natural roll <= target succeeds, and a
   natural roll <= 10 leaves an :class:`~.decisions.ExperienceChoice`.

What the outcome then does (effects, choices, a called test, a CAST SPELL test's spell) is
applied a floor up, through the effects interpreter: the skill-test commands
(:mod:`d100gui.engine.skill_test_commands`) for the player's tests, the fight's own steps for
a fight's tests (:func:`d100gui.engine.combat.flow.settle`).

Rolls against a count (``Roll equal to or less than the number of keys``) roll a d10
against the keys or levers held; they earn no experience (a d10 is always 10 or less).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from d100gui.engine.game import GameContext
from d100gui.engine.hero import events as ev
from d100gui.engine.hero.decisions import ExperienceChoice, PendingTest, add_pending, take_pending
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.experience import earns_experience
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.model import Character, TestPart
from d100gui.engine.model import Model
from d100gui.engine.protocol import Decision, Event
from d100gui.engine.rules.faces import chance_of
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import TestSpec, parse_test

__all__ = ["TestPreview", "make_spec", "preview_test", "settle_roll"]


# --------------------------------------------------------------------------- preview


class TestPreview(Model):
    """The target and chance of a test before it is rolled."""

    __test__: ClassVar[bool] = False  # not a pytest class

    label: str
    characteristic: str = ""
    against: str = ""
    die: Literal["d100", "d10"] = "d100"
    parts: list[TestPart]
    target: int
    chance: int  # percent
    formula: str


def _one_of(rules: Rules) -> str:
    """``STR, DEX or INT``: the characteristics, as a refusal names them."""
    *first, last = rules.characteristics
    return f"{', '.join(first)} or {last}" if first else last


def make_spec(
    text: str = "",
    characteristic: str = "",
    modifier: int = 0,
    skills: list[str] | None = None,
    name: str = "",
    *,
    rules: Rules,
) -> TestSpec:
    """A test from a ``Test:`` line, or ad hoc from a characteristic, modifier and skills."""
    if text.strip():
        spec = parse_test(text)
        if spec is None:
            refuse(f"No test found in {text!r}: a test reads like 'Test: Dex -10 [S:...] [F:...] (Skills)'.")
        if not spec.characteristic and not spec.against:
            if not characteristic:
                refuse(f"This test does not say which characteristic it tests: choose {_one_of(rules)}.")
            spec = spec.model_copy(update={"characteristic": characteristic.upper()[:3]})
        return spec
    char = characteristic.upper()[:3]
    if char not in rules.characteristics:
        refuse(f"Choose the characteristic to test: {_one_of(rules)}.")
    named: list[str] = []
    for s in skills or []:
        canonical = rules.canonical_skill(s)
        if canonical is None:
            refuse(f"There is no skill called {s!r}. Skills: {', '.join(rules.skills)}.")
        if canonical not in named:
            named.append(canonical)
    return TestSpec(name=name, characteristic=char, modifier=modifier, skills=named)


def preview_test(character: Character, rules: Rules, spec: TestSpec, bonus: int = 0, bonus_label: str = "bonus") -> TestPreview:
    """Target and chance: adjusted characteristic + modifier + listed skills' bonuses (+ bonus)."""
    if spec.against:
        held = character.keys if spec.against.startswith("key") else character.levers
        parts = [TestPart(label=spec.against, value=held)]
        if bonus:
            parts.append(TestPart(label=bonus_label, value=bonus))
        target = sum(p.value for p in parts)
        chance = chance_of(target, "d10")
        formula = (
            f"d10 ≤ {held} {spec.against}" + "".join(f" {p.value:+d}" for p in parts[1:]) + (f" = {target}" if bonus else "")
        )
        return TestPreview(
            label=spec.label(), against=spec.against, die="d10", parts=parts, target=target, chance=chance, formula=formula
        )
    stat = spec.characteristic
    if stat not in rules.characteristics:
        refuse(f"A test needs a characteristic ({_one_of(rules)}).")
    adjusted = derive(character, rules).characteristics[stat]
    parts = [TestPart(label=stat, value=adjusted)]
    if spec.modifier:
        parts.append(TestPart(label="test modifier", value=spec.modifier))
    for skill in spec.skills:
        score = character.skills.get(skill)
        if score is not None and score.bonus:
            parts.append(TestPart(label=skill, value=score.bonus))
    if bonus:
        parts.append(TestPart(label=bonus_label, value=bonus))
    target = sum(p.value for p in parts)
    formula = f"{parts[0].value}" + "".join(f" {p.value:+d}" for p in parts[1:]) + f" = {target}"
    return TestPreview(
        label=spec.label(),
        characteristic=stat,
        parts=parts,
        target=target,
        chance=chance_of(target, "d100"),
        formula=formula,
    )


# --------------------------------------------------------------------------- settling the roll


def settle_roll(ctx: GameContext, decision_id: str) -> tuple[PendingTest, list[Event]]:
    """Take rolled test ``decision_id`` off the pending decisions and settle its roll: success or
    failure told, and experience on a low natural d100 (:func:`earns_experience`). The test comes
    back for the caller to apply its outcome."""
    campaign = ctx.campaign
    living_character(campaign)
    rules = ctx.rules
    test = take_pending(campaign, decision_id, PendingTest)
    spec = test.spec
    success = test.success
    name = spec.name or spec.label()
    payload = ev.TestSettled(success=success, name=name, natural=test.roll.natural, target=test.target)
    events = [ev.emit(payload, f"{name}: {'success' if success else 'failure'} ({test.roll.natural} vs {test.target}).")]
    if earns_experience(rules, test.roll, spec):
        pips = rules.experience
        prompt = (
            f"{name}: natural {test.roll.natural}. Shade {pips.characteristic_pips} pip on {spec.characteristic}"
            + (f" or {pips.skill_pips} pips over {', '.join(spec.skills)}" if spec.skills else "")
            + "."
        )
        choice = ExperienceChoice(characteristic=spec.characteristic, skills=list(spec.skills), test_name=name, prompt=prompt)
        xp = add_pending(campaign, choice)
        events.append(ev.emit(Decision(decision=xp.id), xp.prompt))
    return test, events
