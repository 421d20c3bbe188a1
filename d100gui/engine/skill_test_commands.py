"""Skill tests as commands: roll, Fate, settle, outcomes and their effects, experience.

The procedure (rulebook "Skill Tests", "Experience Tracks", "Fate Points"); the target and the
roll's settling are the hero's (:mod:`d100gui.engine.hero.skill_test`):

1. :class:`RollTest` reads a ``Test:`` line or an ad hoc test, shows its target
   (:func:`~d100gui.engine.hero.skill_test.preview_test`) and rolls. The rolled test is a pending
   decision: the player accepts it or spends Fate.
2. :class:`UseFate` re-rolls the tens die, the units die or both for 1 Fate (again and
   again while Fate lasts).
3. :class:`AcceptTest` settles it (:func:`settle_test`): a natural roll <= target succeeds. A
   natural roll <= 10 leaves an :class:`~d100gui.engine.hero.decisions.ExperienceChoice`
   (:class:`AssignExperience`). The outcome's effects apply through the effects interpreter:
   "," effects all apply; a "/" choice leaves an ``OutcomeChoice`` (:class:`ChooseOutcome`); an
   effect that lets the player pick its target leaves a ``TargetChoice`` (:class:`ChooseTarget`);
   a test inside an outcome leaves a ``CalledTest`` (roll it with ``RollTest(called=...)``). A
   CAST SPELL test's outcome casts the spell (:func:`d100gui.engine.magic.commands.settle_cast`).

These commands sit on a floor above the effects interpreter and magic, which they drive, and
below the adventure, whose doors and turn roll tests with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field

from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dungeon.door_tests import check_door, door_for_test
from d100gui.engine.dungeon.map import DoorAt
from d100gui.engine.effects.interpreter import apply_effect, apply_option, apply_outcome
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero import events as ev
from d100gui.engine.hero.decisions import (
    CalledTest,
    ExperienceChoice,
    OutcomeChoice,
    PendingTest,
    TargetChoice,
    add_pending,
    fight_test_id,
    fight_test_reason,
    pending_of,
    take_pending,
)
from d100gui.engine.hero.experience import shade_experience
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.invariants import enforce
from d100gui.engine.hero.primaries import changed_primaries, primaries
from d100gui.engine.hero.skill_test import make_spec, preview_test, settle_roll
from d100gui.engine.magic.commands import settle_cast
from d100gui.engine.phases import ANSWER, Phases
from d100gui.engine.protocol import Event, FateUsed
from d100gui.engine.rules.model import Rules

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

__all__ = [
    "SKILL_TEST_COMMANDS",
    "AcceptTest",
    "AssignExperience",
    "ChooseOutcome",
    "ChooseTarget",
    "DismissDecision",
    "RollTest",
    "UseFate",
    "settle_test",
]


@register_command
class RollTest(Command):
    """Roll a test: from ``text`` (a ``Test:`` line), ``called`` (a CalledTest decision), or ad hoc.

    ``bonus`` is a situational modifier the text leaves open (a brew, the spell bonus, Fly).
    With ``auto_accept`` the roll is settled at once (no Fate window). ``door`` is the door a
    Table D test is for (without it, the one closed door of the hero's area with this test, see
    :mod:`~d100gui.engine.dungeon.door_tests`): an ``Open`` outcome opens it on the map.
    """

    kind: Literal["roll_test"] = "roll_test"
    when: ClassVar[Phases] = ANSWER
    text: str = ""
    called: str = ""
    characteristic: str = ""
    modifier: int = 0
    skills: list[str] = Field(default_factory=list)
    name: str = ""
    bonus: int = 0
    bonus_label: str = "bonus"
    auto_accept: bool = False
    door: DoorAt | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        ch = living_character(campaign)
        rules = ctx.rules
        if fight_test_reason(campaign):
            refuse(fight_test_reason(campaign))
        if pending_of(campaign, PendingTest):
            refuse("A rolled test is waiting: accept it or use Fate first.")
        door = check_door(campaign, self.door) if self.door is not None else None
        if self.called:
            called = take_pending(campaign, self.called, CalledTest)
            spec, door = called.spec, door or called.door
        else:
            spec = make_spec(self.text, self.characteristic, self.modifier, self.skills, self.name, rules=rules)
            door = door or door_for_test(campaign, ctx.tables.library, self.text)
        preview = preview_test(ch, rules, spec, self.bonus, self.bonus_label)
        purpose = f"Test {spec.label()}"
        roll = ctx.dice.roll("d10", purpose) if preview.die == "d10" else ctx.dice.d100(purpose)
        test = add_pending(
            campaign,
            PendingTest(
                spec=spec,
                parts=preview.parts,
                target=preview.target,
                roll=roll,
                prompt=f"{purpose}: accept the roll or use Fate.",
                door=door,
            ),
        )
        assert isinstance(test, PendingTest)
        payload = ev.TestRolled(decision=test.id, target=preview.target, roll=roll, success=test.success)
        outcome = "success" if test.success else "failure"
        events = [ev.emit(payload, f"{purpose}: {preview.formula}; rolled {roll.natural} - {outcome}.")]
        if self.auto_accept:
            events += settle_test(ctx, test.id)
        return events


def _test_to_settle(campaign: Campaign, decision: str) -> PendingTest | None:
    """The waiting test ``decision`` names (or the first one); refused if it is the fight's
    (:func:`~.decisions.fight_test_reason`): the fight settles its own tests."""
    tests = pending_of(campaign, PendingTest)
    test = next((t for t in tests if t.id == decision), None) if decision else (tests[0] if tests else None)
    if test is not None and test.id == fight_test_id(campaign):
        refuse(fight_test_reason(campaign))
    if decision and test is None and any(d.id == decision for d in campaign.pending):
        refuse(f"Decision {decision} is not a rolled test.")
    return test


@register_command
class UseFate(Command):
    """Spend Fate to re-roll dice of the waiting test: ``dice`` 0 = tens, 1 = units (a d10 count test: 0)."""

    kind: Literal["use_fate"] = "use_fate"
    when: ClassVar[Phases] = ANSWER
    decision: str = ""
    dice: list[int] = Field(default_factory=lambda: [0, 1])

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        ch = living_character(campaign)
        rules = ctx.rules
        test = _test_to_settle(campaign, self.decision)
        if test is None:
            refuse("There is no rolled test waiting for Fate.")
        if ch.fate < rules.fate_cost:
            refuse("No Fate left to spend.")
        try:
            again = ctx.dice.reroll(test.roll, self.dice)
        except DiceError as exc:
            refuse(str(exc))
        ch.fate -= rules.fate_cost
        before = test.roll.natural
        test.roll = again
        test.fate_spent += 1
        payload = FateUsed(
            roll=again.model_dump(mode="json"), decision=test.id, success=test.success, before=before, fate=ch.fate
        )
        outcome = "success" if test.success else "failure"
        return [ev.emit(payload, f"Fate spent ({ch.fate} left): {before} re-rolled to {again.natural} - {outcome}.")]


def settle_test(ctx: GameContext, decision_id: str) -> list[Event]:
    """Settle a rolled test: its roll (experience on a low natural d100, :func:`~.hero.skill_test.settle_roll`),
    then its outcome through the effects interpreter; a CAST SPELL test casts its spell (magic's commands)."""
    ch = living_character(ctx.campaign)  # the sheet is checked after the outcome, even one the hero fell in
    test, events = settle_roll(ctx, decision_id)
    spec, success = test.spec, test.success
    if test.spell is not None:
        return events + settle_cast(ctx, test.spell, success)
    events += apply_outcome(ctx, spec.success if success else spec.failure, spec.name or spec.label(), test.door)
    enforce(ch, ctx.rules)
    return events


@register_command
class AcceptTest(Command):
    """Accept the waiting test's roll and settle it."""

    kind: Literal["accept_test"] = "accept_test"
    when: ClassVar[Phases] = ANSWER
    decision: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        test = _test_to_settle(ctx.campaign, self.decision)
        if test is None:
            refuse("There is no rolled test waiting.")
        return settle_test(ctx, test.id)


@register_command
class ChooseOutcome(Command):
    """Pick option ``option`` (0-based) of a "/" choice."""

    kind: Literal["choose_outcome"] = "choose_outcome"
    when: ClassVar[Phases] = ANSWER
    decision: str
    option: int

    def apply(self, ctx: GameContext) -> list[Event]:
        choice = take_pending(ctx.campaign, self.decision, OutcomeChoice)
        options = choice.outcome.options
        if not 0 <= self.option < len(options):
            refuse(f"Choose option 1 to {len(options)}.")
        head = f"{choice.source}: " if choice.source else ""
        events = [ev.emit(ev.OutcomeChosen(option=self.option), f"{head}chose {options[self.option].describe()}.")]
        events += apply_option(ctx, options[self.option], choice.source, choice.door)
        enforce(living_character(ctx.campaign), ctx.rules)
        return events


@register_command
class ChooseTarget(Command):
    """Say what a "choose which" effect applies to (the characteristic of -1 CHA, the skill of -5 Skill)."""

    kind: Literal["choose_target"] = "choose_target"
    when: ClassVar[Phases] = ANSWER
    decision: str
    target: str

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        choice = take_pending(ctx.campaign, self.decision, TargetChoice)
        stat = self.target.upper()[:3]
        target = stat if stat in rules.characteristics else (rules.canonical_skill(self.target) or self.target)
        if target not in choice.choices:
            refuse(f"Choose one of: {', '.join(choice.choices)}.")
        effect = choice.effect
        ch = living_character(ctx.campaign)
        if effect.kind == "xp":
            before = primaries(ch)
            notes = shade_experience(ch, rules, target, effect.amount or 1)
            events = [ev.emit(ev.ExperienceShaded(track=target), n) for n in notes] + changed_primaries(ch, before)
        elif effect.kind == "characteristic":
            events = apply_effect(ctx, effect.model_copy(update={"stat": target}))
        else:
            events = apply_effect(ctx, effect.model_copy(update={"target": target}))
        enforce(ch, rules)
        return events


@register_command
class AssignExperience(Command):
    """Settle an experience decision: ``characteristic`` (1 pip on the tested characteristic),
    ``skills`` (pips over the listed skills; name a skill twice for both pips on it) or ``decline``."""

    kind: Literal["assign_experience"] = "assign_experience"
    when: ClassVar[Phases] = ANSWER
    decision: str
    choice: Literal["characteristic", "skills", "decline"]
    skills: list[str] = Field(default_factory=list)

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        xp = take_pending(ctx.campaign, self.decision, ExperienceChoice)
        if self.choice == "decline":
            return [ev.emit(ev.ExperienceShaded(), f"{xp.test_name}: experience not taken.")]
        before = primaries(ch)  # a full track raises the characteristic: told by its typed event too
        if self.choice == "characteristic":
            notes = shade_experience(ch, rules, xp.characteristic, rules.experience.characteristic_pips)
            tracks = [xp.characteristic] * len(notes)
        else:
            if not xp.skills:
                refuse(f"{xp.test_name} lists no skills: shade the {xp.characteristic} pip instead.")
            if not 1 <= len(self.skills) <= rules.experience.skill_pips:
                refuse(f"Name 1 to {rules.experience.skill_pips} skills for the pips (name one twice to put both on it).")
            notes, tracks = [], []
            for name in self.skills:
                skill = rules.canonical_skill(name)
                if skill is None or skill not in xp.skills:
                    refuse(f"{name} was not listed for {xp.test_name}: choose from {', '.join(xp.skills)}.")
                shaded = shade_experience(ch, rules, skill, 1)
                notes += shaded
                tracks += [skill] * len(shaded)
        enforce(ch, rules)
        pips = [ev.emit(ev.ExperienceShaded(track=track), n) for track, n in zip(tracks, notes, strict=True)]
        return pips + changed_primaries(ch, before)


@register_command
class DismissDecision(Command):
    """Let go of an optional decision (a called test not attempted, experience not taken)."""

    kind: Literal["dismiss_decision"] = "dismiss_decision"
    when: ClassVar[Phases] = ANSWER
    decision: str

    @classmethod
    def refuse_now(cls, campaign: Campaign, rules: Rules, command: Command | None) -> str:
        """A trap's or a feature's test must be rolled, even in an older save that marked it optional."""
        if not isinstance(command, DismissDecision):
            return ""
        for d in campaign.pending:
            if d.id == command.decision and (not d.optional or (isinstance(d, CalledTest) and d.door is None)):
                return f"{d.prompt or 'This decision'} must be settled."
        return ""

    def apply(self, ctx: GameContext) -> list[Event]:
        for i, d in enumerate(ctx.campaign.pending):
            if d.id == self.decision:
                if not d.optional or (isinstance(d, CalledTest) and d.door is None):  # a trap's test, even in an old save
                    refuse(f"{d.prompt or 'This decision'} must be settled.")
                del ctx.campaign.pending[i]
                return [ev.emit(ev.DecisionDismissed(decision=d.id), f"Let go: {d.prompt}")]
        refuse(f"There is no pending decision {self.decision!r}.")


SKILL_TEST_COMMANDS: tuple[type[Command], ...] = (
    RollTest,
    UseFate,
    AcceptTest,
    ChooseOutcome,
    ChooseTarget,
    AssignExperience,
    DismissDecision,
)
