"""Skill tests as commands: preview, roll, Fate, experience, outcomes and their effects.

The procedure (rulebook "Skill Tests", "Experience Tracks", "Fate Points"):

1. :class:`RollTest` reads a ``Test:`` line (``notation.parse_test``) or an ad hoc test
   (characteristic, modifier, skills), works out the target (adjusted characteristic +
   modifier + the bonus of every listed skill; :func:`preview_test` shows it before the
   roll, e.g. ``65 -10 +5 +10 = 70``) and rolls d100. The rolled test is a pending
   decision: the player accepts it or spends Fate.
2. :class:`UseFate` re-rolls the tens die, the units die or both for 1 Fate (again and
   again while Fate lasts).
3. :class:`AcceptTest` settles it: a natural roll <= target succeeds. A natural roll <= 10
   leaves an :class:`~.character.ExperienceChoice` (:class:`AssignExperience`). The
   outcome's effects apply: "," effects all apply; a "/" choice leaves an
   :class:`~.character.OutcomeChoice` (:class:`ChooseOutcome`); an effect that lets the
   player pick its target leaves a :class:`~.character.TargetChoice`
   (:class:`ChooseTarget`); a test inside an outcome leaves a
   :class:`~.character.CalledTest` (roll it with ``RollTest(called=...)``).

Rolls against a count (``Roll equal to or less than the number of keys``) roll a d10
against the keys or levers held; they earn no experience (a d10 is always 10 or less).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.tables import TableError
from d100gui.engine.game import Campaign, Command, Event, GameContext
from d100gui.engine.hero.character import (
    STATS,
    CalledTest,
    Character,
    ExperienceChoice,
    OutcomeChoice,
    PendingTest,
    TargetChoice,
    TestPart,
    TimeBonus,
    add_pending,
    advance_time,
    at_maximum,
    clamp_hp,
    derive,
    destroy_belt_check,
    enforce,
    pending_of,
    refuse,
    shade_experience,
    take_pending,
)
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Effect, Option, Outcome, TestSpec, parse_test


def living_character(campaign: Campaign, *, created: bool = True) -> Character:
    """The campaign's character; refused if there is none, it is dead, or (``created``) unfinished."""
    ch = campaign.character
    if ch is None:
        refuse("There is no character yet: create one first.")
    if ch.dead:
        refuse(f"{ch.name or 'The character'} is dead.")
    if created and ch.creation is not None:
        refuse("Finish creating the character first.")
    return ch


def _event(kind: str, message: str, topic: str = "character", **data: object) -> Event:
    return Event(kind=kind, message=message, topic=topic, data=data)


# --------------------------------------------------------------------------- preview


class TestPreview(BaseModel):
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
                refuse("This test does not say which characteristic it tests: choose STR, DEX or INT.")
            spec = spec.model_copy(update={"characteristic": characteristic.upper()[:3]})
        return spec
    char = characteristic.upper()[:3]
    if char not in STATS:
        refuse("Choose the characteristic to test: STR, DEX or INT.")
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
        chance = max(0, min(10, target)) * 10
        formula = (
            f"d10 ≤ {held} {spec.against}" + "".join(f" {p.value:+d}" for p in parts[1:]) + (f" = {target}" if bonus else "")
        )
        return TestPreview(
            label=spec.label(), against=spec.against, die="d10", parts=parts, target=target, chance=chance, formula=formula
        )
    stat = spec.characteristic
    if stat not in STATS:
        refuse("A test needs a characteristic (STR, DEX or INT).")
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
        chance=max(0, min(100, target)),
        formula=formula,
    )


# --------------------------------------------------------------------------- effects

_SUPPLY = {"pick": "picks", "oil": "oil", "food": "food"}
_PIPS = {
    "key": ("keys", "keys_track"),
    "lever": ("levers", "levers_track"),
    "poison": ("poison", "poison_track"),
    "disease": ("disease", "disease_track"),
}


def _clamped(value: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, value))


def apply_effect(ctx: GameContext, effect: Effect, source: str = "") -> list[Event]:
    """Apply one effect to the character; returns what happened. Unknown effects are narrative."""
    campaign = ctx.campaign
    ch = living_character(campaign)
    rules = ctx.rules
    kind = effect.kind
    amount = effect.amount
    head = f"{source}: " if source else ""
    if kind == "gp" and amount is not None:
        before = ch.gp
        ch.gp = max(0, ch.gp + amount)
        return [
            _event(
                "gp", f"{head}{'Gained' if amount >= 0 else 'Lost'} {abs(ch.gp - before)} gp (now {ch.gp}).", delta=ch.gp - before
            )
        ]
    if kind == "gp_half":
        lost = (ch.gp + 1) // 2
        ch.gp -= lost
        return [_event("gp", f"{head}Lost half your gold, rounded up: {lost} gp (now {ch.gp}).", delta=-lost)]
    if kind == "hp" and (amount is not None or "max" in effect.note.lower()):
        maximum = derive(ch, rules).max_hp
        before = ch.hp
        if amount is None:
            ch.hp = max(ch.hp, maximum)
        elif amount > 0:
            ch.hp = max(ch.hp, min(ch.hp + amount, maximum))  # healing restores lost HP only
        else:
            ch.hp = max(0, ch.hp + amount)
        events = [_event("hp", f"{head}HP {before} -> {ch.hp} (maximum {maximum}).", delta=ch.hp - before)]
        if ch.hp <= 0:
            events.append(_event("hp_zero", "HP is 0: the character must use a Life (or RES) or die.", topic="decision"))
        return events
    if kind == "hp_primary" and amount is not None:
        ch.hp_primary = max(1, ch.hp_primary + amount)
        lost = clamp_hp(ch, rules)
        extra = f", current HP down by {lost}" if lost else ""
        return [_event("hp_primary", f"{head}Primary HP {amount:+d} (now {ch.hp_primary}){extra}.")]
    if kind == "characteristic" and amount is not None:
        if effect.stat not in STATS:
            return _choose_target(campaign, effect, list(STATS), source)
        score = ch.characteristics[effect.stat]
        score.primary = max(0, score.primary + amount)
        clamp_hp(ch, rules)
        return [_event("characteristic", f"{head}{effect.stat} {amount:+d} (primary now {score.primary}).")]
    if kind == "skill" and amount is not None:
        if not effect.target:
            choices = [
                s
                for s, sc in ch.skills.items()
                if (amount >= 0 and sc.bonus < rules.skill_max) or (amount < 0 and sc.bonus >= -amount)
            ]
            if not choices:
                return [_event("narrative", f"{head}No skill can take {amount:+d}: {effect.describe()}.", topic="log")]
            return _choose_target(campaign, effect, choices, source)
        score = ch.skills[effect.target]
        before = score.bonus
        score.bonus = _clamped(score.bonus + amount, 0, rules.skill_max)
        return [_event("skill", f"{head}{effect.target} {before:+d} -> {score.bonus:+d}.")]
    if kind == "rep" and amount is not None:
        before = ch.rep
        ch.rep = _clamped(ch.rep + amount, rules.reputation.min, rules.reputation.max)
        note = "" if ch.rep == before + amount else f" (REP stays within {rules.reputation.min}-{rules.reputation.max})"
        return [_event("rep", f"{head}REP {before} -> {ch.rep}{note}.")]
    if kind in ("fate", "life") and amount is not None:
        name = "fate" if kind == "fate" else "lives"
        before = getattr(ch, name)
        setattr(ch, name, max(0, before + amount))
        return [_event(kind, f"{head}{name.title()} {before} -> {getattr(ch, name)}.")]
    if kind in _SUPPLY and amount is not None:
        key = _SUPPLY[kind]
        before = getattr(ch.supplies, key)
        maximum = rules.supplies_max[key]
        after = _clamped(before + amount, 0, maximum)
        setattr(ch.supplies, key, after)
        note = ""
        if before + amount > maximum:
            note = f" ({before + amount - maximum} more would pass the maximum of {maximum})"
        elif before + amount < 0:
            note = f" (there were only {before})"
        return [_event("supplies", f"{head}{key.title()} {before} -> {after}{note}.")]
    if kind in _PIPS and amount is not None:
        name, track = _PIPS[kind]
        length = int(getattr(rules.sheet, track))
        before = getattr(ch, name)
        setattr(ch, name, _clamped(before + amount, 0, length))
        return [_event(kind, f"{head}{name.title()} track {before} -> {getattr(ch, name)} of {length}.")]
    if kind == "objective" and amount is not None:
        ch.objectives = max(0, ch.objectives + amount)
        return [_event("objective", f"{head}Objectives {ch.objectives}.")]
    if kind == "belt_check":
        return belt_check(ctx, source)
    if kind == "time" and amount is not None:
        fired = advance_time(ch, rules, amount)
        listed = ", ".join(f"{t.kind}{f' (d10 ≤ {t.number})' if t.number else ''} at clock {t.clock}" for t in fired)
        message = f"{head}+{amount} time: {ch.time_track.shaded} of {rules.sheet.time_track.clocks} clocks shaded."
        if listed:
            message += f" Triggers: {listed}."
        return [_event("time", message, triggers=[t.model_dump() for t in fired], clocks=amount)]
    if kind == "time_track_bonus" and amount is not None and effect.stat in ("STR", "DEX", "INT", "DEF", "DMG", "HP"):
        ch.time_track.bonuses.append(TimeBonus(stat=effect.stat, amount=amount, source=source or effect.text))  # type: ignore[arg-type]
        return [_event("time_track_bonus", f"{head}{amount:+d} {effect.stat} on the time track until it refreshes.")]
    if kind == "roll_table" and effect.table:
        return roll_on_table(ctx, effect, source)
    if kind == "xp" and amount is not None and amount > 0:
        if effect.target == "characteristic":
            choices = [s for s in STATS if not at_maximum(ch, rules, s)]
        else:
            choices = [s for s in ch.skills if not at_maximum(ch, rules, s)]
        if not choices:
            return [_event("narrative", f"{head}Every {effect.target} is at its maximum: no pip to shade.", topic="log")]
        return _choose_target(campaign, effect, choices, source)
    if kind in ("avoid", "no_effect", "open", "cast"):
        return [_event(kind, f"{head}{effect.describe()}.", topic="log")]
    return [_event("narrative", f"{head}{effect.describe()}", topic="log", effect=effect.model_dump(mode="json"))]


def _choose_target(campaign: Campaign, effect: Effect, choices: list[str], source: str) -> list[Event]:
    what = {"characteristic": "characteristic", "skill": "skill", "xp": effect.target or "track"}.get(effect.kind, "target")
    decision = add_pending(
        campaign,
        TargetChoice(
            effect=effect, choices=choices, prompt=f"{source + ': ' if source else ''}{effect.describe()}: choose the {what}."
        ),
    )
    return [_event("decision", decision.prompt, topic="decision", decision=decision.id)]


def belt_check(ctx: GameContext, source: str = "") -> list[Event]:
    """Roll 1d10: the item in the matching slot is destroyed."""
    ch = living_character(ctx.campaign)
    rules = ctx.rules
    roll = ctx.dice.roll("d10", "Belt Check")
    where, item = destroy_belt_check(ch, rules, roll.final)
    head = f"{source}: " if source else ""
    if item is None:
        message = f"{head}Belt Check: rolled {roll.final}, {where} is empty - nothing lost."
    else:
        message = f"{head}Belt Check: rolled {roll.final}, {item.name} in {where} is destroyed."
    return [_event("belt_check", message, roll=roll.model_dump(mode="json"), destroyed=item.name if item else "")]


def roll_on_table(ctx: GameContext, effect: Effect, source: str = "") -> list[Event]:
    """Roll ``effect.times`` times on ``effect.table`` and report each row (or the gap it fell in)."""
    events = []
    for n in range(max(1, effect.times or 1)):
        purpose = f"{source or 'Roll'} ({n + 1})" if (effect.times or 1) > 1 else (source or "")
        try:
            result = ctx.tables.roll(effect.table, purpose, effect.modifier, die=effect.die or None)
        except (TableError, DiceError) as exc:
            events.append(_event("narrative", f"{effect.describe()}: {exc}", topic="log"))
            continue
        events.append(_event("table_rolled", result.describe(), topic="dice", table_roll=result.model_dump(mode="json")))
    return events


def apply_option(ctx: GameContext, option: Option, source: str = "") -> list[Event]:
    """Apply every item of an option: effects in order; a test inside leaves a CalledTest."""
    events: list[Event] = []
    for item in option.items:
        if isinstance(item, TestSpec):
            called = add_pending(ctx.campaign, CalledTest(spec=item, prompt=f"{item.describe()}: roll it when you are ready."))
            events.append(_event("decision", called.prompt, topic="decision", decision=called.id))
        else:
            events += apply_effect(ctx, item, source)
    return events


def apply_outcome(ctx: GameContext, outcome: Outcome, source: str = "") -> list[Event]:
    """One option: apply it. Several ("/"): leave the choice to the player."""
    if outcome.is_empty:
        return []
    if outcome.is_choice:
        choice = add_pending(
            ctx.campaign,
            OutcomeChoice(
                outcome=outcome, source=source, prompt=f"{source + ': ' if source else ''}choose {outcome.describe()}."
            ),
        )
        return [_event("decision", choice.prompt, topic="decision", decision=choice.id)]
    return apply_option(ctx, outcome.options[0], source)


# --------------------------------------------------------------------------- commands


class RollTest(Command):
    """Roll a test: from ``text`` (a ``Test:`` line), ``called`` (a CalledTest decision), or ad hoc.

    ``bonus`` is a situational modifier the text leaves open (a brew, the spell bonus, Fly).
    With ``auto_accept`` the roll is settled at once (no Fate window).
    """

    kind: Literal["roll_test"] = "roll_test"
    text: str = ""
    called: str = ""
    characteristic: str = ""
    modifier: int = 0
    skills: list[str] = Field(default_factory=list)
    name: str = ""
    bonus: int = 0
    bonus_label: str = "bonus"
    auto_accept: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        ch = living_character(campaign)
        rules = ctx.rules
        if pending_of(campaign, PendingTest):
            refuse("A rolled test is waiting: accept it or use Fate first.")
        if self.called:
            spec = take_pending(campaign, self.called, CalledTest).spec
        else:
            spec = make_spec(self.text, self.characteristic, self.modifier, self.skills, self.name, rules=rules)
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
            ),
        )
        assert isinstance(test, PendingTest)
        events = [
            _event(
                "test_rolled",
                f"{purpose}: {preview.formula}; rolled {roll.natural} - {'success' if test.success else 'failure'}.",
                topic="dice",
                decision=test.id,
                target=preview.target,
                roll=roll.model_dump(mode="json"),
                success=test.success,
            )
        ]
        if self.auto_accept:
            events += settle_test(ctx, test.id)
        return events


class UseFate(Command):
    """Spend Fate to re-roll dice of the waiting test: ``dice`` 0 = tens, 1 = units (a d10 count test: 0)."""

    kind: Literal["use_fate"] = "use_fate"
    decision: str = ""
    dice: list[int] = Field(default_factory=lambda: [0, 1])

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        ch = living_character(campaign)
        rules = ctx.rules
        tests = pending_of(campaign, PendingTest)
        test = next((t for t in tests if t.id == self.decision), None) if self.decision else (tests[0] if tests else None)
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
        return [
            _event(
                "fate_used",
                f"Fate spent ({ch.fate} left): {before} re-rolled to {again.natural} - {'success' if test.success else 'failure'}.",
                topic="dice",
                decision=test.id,
                roll=again.model_dump(mode="json"),
                success=test.success,
            )
        ]


def settle_test(ctx: GameContext, decision_id: str) -> list[Event]:
    """Settle a rolled test: experience on a natural <= 10 (d100), then the outcome."""
    campaign = ctx.campaign
    ch = living_character(campaign)
    rules = ctx.rules
    test = take_pending(campaign, decision_id, PendingTest)
    spec = test.spec
    success = test.success
    name = spec.name or spec.label()
    events = [
        _event(
            "test_settled",
            f"{name}: {'success' if success else 'failure'} ({test.roll.natural} vs {test.target}).",
            success=success,
        )
    ]
    if test.roll.expression == "d100" and test.roll.natural <= rules.experience.natural_max and spec.characteristic in STATS:
        xp = add_pending(
            campaign,
            ExperienceChoice(
                characteristic=spec.characteristic,
                skills=list(spec.skills),
                test_name=name,
                prompt=(
                    f"{name}: natural {test.roll.natural}. Shade {rules.experience.characteristic_pips} pip on {spec.characteristic}"
                    + (f" or {rules.experience.skill_pips} pips over {', '.join(spec.skills)}" if spec.skills else "")
                    + "."
                ),
            ),
        )
        events.append(_event("decision", xp.prompt, topic="decision", decision=xp.id))
    events += apply_outcome(ctx, spec.success if success else spec.failure, name)
    enforce(ch, rules)
    return events


class AcceptTest(Command):
    """Accept the waiting test's roll and settle it."""

    kind: Literal["accept_test"] = "accept_test"
    decision: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        tests = pending_of(ctx.campaign, PendingTest)
        decision = self.decision or (tests[0].id if tests else "")
        if not decision:
            refuse("There is no rolled test waiting.")
        return settle_test(ctx, decision)


class ChooseOutcome(Command):
    """Pick option ``option`` (0-based) of a "/" choice."""

    kind: Literal["choose_outcome"] = "choose_outcome"
    decision: str
    option: int

    def apply(self, ctx: GameContext) -> list[Event]:
        choice = take_pending(ctx.campaign, self.decision, OutcomeChoice)
        options = choice.outcome.options
        if not 0 <= self.option < len(options):
            refuse(f"Choose option 1 to {len(options)}.")
        events = [
            _event(
                "outcome_chosen",
                f"{choice.source + ': ' if choice.source else ''}chose {options[self.option].describe()}.",
                topic="log",
            )
        ]
        events += apply_option(ctx, options[self.option], choice.source)
        enforce(living_character(ctx.campaign), ctx.rules)
        return events


class ChooseTarget(Command):
    """Say what a "choose which" effect applies to (the characteristic of -1 CHA, the skill of -5 Skill)."""

    kind: Literal["choose_target"] = "choose_target"
    decision: str
    target: str

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        choice = take_pending(ctx.campaign, self.decision, TargetChoice)
        target = (
            self.target.upper()[:3] if self.target.upper()[:3] in STATS else (rules.canonical_skill(self.target) or self.target)
        )
        if target not in choice.choices:
            refuse(f"Choose one of: {', '.join(choice.choices)}.")
        effect = choice.effect
        ch = living_character(ctx.campaign)
        if effect.kind == "xp":
            notes = shade_experience(ch, rules, target, effect.amount or 1)
            events = [_event("experience", n) for n in notes]
        elif effect.kind == "characteristic":
            events = apply_effect(ctx, effect.model_copy(update={"stat": target}))
        else:
            events = apply_effect(ctx, effect.model_copy(update={"target": target}))
        enforce(ch, rules)
        return events


class AssignExperience(Command):
    """Settle an experience decision: ``characteristic`` (1 pip on the tested characteristic),
    ``skills`` (pips over the listed skills; name a skill twice for both pips on it) or ``decline``."""

    kind: Literal["assign_experience"] = "assign_experience"
    decision: str
    choice: Literal["characteristic", "skills", "decline"]
    skills: list[str] = Field(default_factory=list)

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        xp = take_pending(ctx.campaign, self.decision, ExperienceChoice)
        if self.choice == "decline":
            return [_event("experience", f"{xp.test_name}: experience not taken.", topic="log")]
        if self.choice == "characteristic":
            notes = shade_experience(ch, rules, xp.characteristic, rules.experience.characteristic_pips)
        else:
            if not xp.skills:
                refuse(f"{xp.test_name} lists no skills: shade the {xp.characteristic} pip instead.")
            if not 1 <= len(self.skills) <= rules.experience.skill_pips:
                refuse(f"Name 1 to {rules.experience.skill_pips} skills for the pips (name one twice to put both on it).")
            notes = []
            for name in self.skills:
                skill = rules.canonical_skill(name)
                if skill not in xp.skills:
                    refuse(f"{name} was not listed for {xp.test_name}: choose from {', '.join(xp.skills)}.")
                notes += shade_experience(ch, rules, skill, 1)
        enforce(ch, rules)
        return [_event("experience", n) for n in notes]


class DismissDecision(Command):
    """Let go of an optional decision (a called test not attempted, experience not taken)."""

    kind: Literal["dismiss_decision"] = "dismiss_decision"
    decision: str

    def apply(self, ctx: GameContext) -> list[Event]:
        for i, d in enumerate(ctx.campaign.pending):
            if d.id == self.decision:
                if not d.optional:
                    refuse(f"{d.prompt or 'This decision'} must be settled.")
                del ctx.campaign.pending[i]
                return [_event("decision_dismissed", f"Let go: {d.prompt}", topic="decision")]
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
