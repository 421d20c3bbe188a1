"""How a fight runs: the :class:`Fight` context, held rolls, combat tests and the step loop.

A fight is a small state machine over :class:`~.monster.CombatState` (``step``/``waiting``).
The steps themselves are plain functions ``(Fight) -> bool`` (True: carry on) in
:mod:`.steps`, :mod:`.attack`, :mod:`.defence` and :mod:`.spells`; they register here in
:data:`STEPS`, and the handlers of settled combat tests in :data:`ON_TEST`, so this module
imports none of them. A command builds a :class:`Fight`, changes the state, then calls
:func:`finish` to run the steps until the fight needs the player again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from d100gui.engine.combat.events import CombatOver, CombatRoll, CombatRowMissing, CombatTest, emit
from d100gui.engine.combat.monster import (
    CombatState,
    CombatStep,
    CombatTestKind,
    CombatTestRef,
    EscapedMonster,
    HeldRoll,
    Monster,
    RowUse,
)
from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoll
from d100gui.engine.dice.tables import TableError
from d100gui.engine.game import GameContext
from d100gui.engine.hero.decisions import PendingTest, add_pending
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.invariants import enforce
from d100gui.engine.hero.model import Character, TestPart
from d100gui.engine.hero.skill_test import preview_test, settle_roll
from d100gui.engine.protocol import Decision, Event, Payload
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Effect, Outcome, TestSpec

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

WAIT_TEXT = {
    "": "nothing",
    "roll": "the roll to be accepted (or re-rolled with Fate)",
    "test": "the test to be accepted (or re-rolled with Fate)",
    "action": "your action: attack, change weapon, cast a spell, use a belt item, escape, block or pass",
    "aim": "Perfect Aim: keep the hit location or re-roll it",
    "aim_pick": "Perfect Aim: pick the first or the second hit location",
    "offset": "how much damage to offset onto your items",
    "loot": "which table to roll the loot on",
    "row": "the row your tables lack (type it from your rulebook, or re-roll among the printed rows)",
}


#: the effects interpreter's ``apply_outcome`` and ``apply_effect`` (:mod:`d100gui.engine.effects.interpreter`)
OutcomeFn = Callable[[GameContext, Outcome, str], list[Event]]
EffectFn = Callable[[GameContext, Effect, str], list[Event]]


@dataclass
class Fight:
    """One command's view of the fight: the context, the state, and the events it collects.

    ``apply_outcome`` / ``apply_effect`` are the effects interpreter's, handed in by the fight's commands
    (:func:`d100gui.engine.fight_commands.fight_of`): a loot row, a milestone, a spell or its cost applies
    through them. The interpreter sits a floor above combat (its rows put loot and monsters into a fight).
    """

    ctx: GameContext
    campaign: Campaign
    rules: Rules
    ch: Character
    c: CombatState
    apply_outcome: OutcomeFn
    apply_effect: EffectFn
    events: list[Event] = field(default_factory=list)
    over: bool = False

    @classmethod
    def of(cls, ctx: GameContext, apply_outcome: OutcomeFn, apply_effect: EffectFn) -> Fight:
        """The fight in progress; refused when there is none (or no living hero)."""
        ch = living_character(ctx.campaign)
        combat = ctx.campaign.combat
        if combat is None:
            refuse("There is no fight in progress.")
        return cls(
            ctx=ctx,
            campaign=ctx.campaign,
            rules=ctx.rules,
            ch=ch,
            c=combat,
            apply_outcome=apply_outcome,
            apply_effect=apply_effect,
        )

    @property
    def m(self) -> Monster:
        return self.c.monster

    def say(self, payload: Payload, message: str) -> None:
        """Emit the event of a declared payload, with its sentence for the log."""
        self.events.append(emit(payload, message))

    def ask(self, message: str, **choice: object) -> None:
        """Tell the player what the fight is waiting for (a ``decision`` event)."""
        self.say(Decision.model_validate({"waiting": self.c.waiting, **choice}), message)

    def window(self) -> bool:
        """Stop for a Fate window? Only while the hero has Fate to spend."""
        return self.c.fate_windows and self.ch.fate >= self.rules.fate_cost

    def need(self, *waiting: str) -> None:
        if self.c.waiting not in waiting:
            refuse(f"Not now: the fight is waiting for {WAIT_TEXT[self.c.waiting]}.")


StepFn = Callable[[Fight], bool]
TestFn = Callable[[Fight, bool], None]

#: the step functions by ``CombatStep`` (filled by the modules that define them)
STEPS: dict[str, StepFn] = {}
#: what a settled combat test does, by ``CombatTestKind``
ON_TEST: dict[str, TestFn] = {}


def step(name: CombatStep) -> Callable[[StepFn], StepFn]:
    """Register a function as the step ``name`` of the fight."""

    def register(fn: StepFn) -> StepFn:
        STEPS[name] = fn
        return fn

    return register


def on_test(kind: CombatTestKind) -> Callable[[TestFn], TestFn]:
    """Register what a settled ``kind`` test does (``ok``: it succeeded)."""

    def register(fn: TestFn) -> TestFn:
        ON_TEST[kind] = fn
        return fn

    return register


# --------------------------------------------------------------------------- running


def run(f: Fight) -> None:
    """Run steps until the fight needs the player, or ends."""
    guard = 0
    while not f.over and f.campaign.combat is f.c and not f.c.waiting:
        guard += 1
        if guard > 10_000:  # pragma: no cover - a bug, never a rule
            raise RuntimeError(f"combat stuck at step {f.c.step}")
        if not STEPS[f.c.step](f):
            break


def finish(f: Fight) -> list[Event]:
    """Run on, then check the sheet (a refused rule undoes the whole command)."""
    run(f)
    ch = f.campaign.character
    if ch is not None and not ch.dead:
        enforce(ch, f.rules)
    return f.events


# --------------------------------------------------------------------------- rolls and tests


def d10(value: int) -> int:
    """A d10 face 0 reads 10."""
    return 10 if value == 0 else value


def die_value(record: RollRecord, index: int) -> int:
    d = record.dice[index]
    return d10(d.face) if d.sides == 10 else d.face


def hold(f: Fight, expression: str, purpose: str, next_step: CombatStep) -> bool:
    """Roll and hold the roll for its Fate window; ``next_step`` resolves it. True: carry on."""
    record = f.ctx.dice.roll(expression, purpose)
    f.c.held = HeldRoll(step=next_step, record=record)
    f.c.step = next_step
    f.say(CombatRoll(roll=record, purpose=purpose), record.describe())
    if f.window():
        f.c.waiting = "roll"
        f.ask(f"{purpose}: accept the roll or spend Fate to re-roll dice.")
        return False
    return True


def take_held(f: Fight) -> RollRecord:
    held = f.c.held
    assert held is not None
    f.c.held = None
    return held.record


def hold_table(f: Fight, table_id: str, purpose: str, modifier: int, next_step: CombatStep) -> bool:
    """Roll on a table (loot, Table C) and hold the roll for its Fate window like any other:
    nothing is applied before the player accepts it. Raises TableError / DiceError for a
    table that cannot be rolled. True: carry on."""
    result = f.ctx.tables.roll(table_id, purpose, modifier, "loot modifier" if modifier else "modifier")
    f.c.held = HeldRoll(step=next_step, record=result.roll, table=result)
    f.c.step = next_step
    f.say(CombatRoll(table_roll=result, purpose=purpose), result.describe())
    if f.window():
        f.c.waiting = "roll"
        f.ask(f"{purpose}: accept the roll or spend Fate to re-roll dice.")
        return False
    return True


def take_table(f: Fight) -> TableRoll:
    """The held table roll as accepted: a die re-rolled with Fate looks the row up again."""
    held = f.c.held
    assert held is not None and held.table is not None
    f.c.held = None
    result, record = held.table, held.record
    if record == result.roll:
        return result
    table = f.ctx.tables.library.get(result.table_id)
    row = table.find(record.final)
    if row is None and f.ctx.tables.policy is MissingRowPolicy.REROLL:
        return f.ctx.tables.roll(result.table_id, record.purpose, sum(m.value for m in record.modifiers))
    gap = None if row is not None else table.gap_containing(record.final)
    return result.model_copy(update={"roll": record, "row": row, "missing": gap, "sample": False, "discarded": []})


def wait_for_row(f: Fight, result: TableRoll, use: RowUse) -> bool:
    """The table roll landed on a row the tables lack: the fight waits for it. False (stop)."""
    f.c.row_wait, f.c.row_use, f.c.waiting = result, use, "row"
    lo, hi = result.missing or (result.value, result.value)
    f.say(
        CombatRowMissing(table_roll=result, use=use),
        f"{result.table_title} rolled {result.value}: rows {lo}-{hi} are not in your tables. Type the row from your "
        "rulebook (it is applied at once), or re-roll among the printed rows.",
    )
    return False


def _bare(spec: TestSpec) -> TestSpec:
    """The spec without outcomes: the combat applies them itself (settle_roll only does experience)."""
    return spec.model_copy(update={"success": Outcome(), "failure": Outcome()})


def roll_test(f: Fight, kind: CombatTestKind, spec: TestSpec, next_step: CombatStep, extra: list[TestPart] | None = None) -> bool:
    """Roll a combat test as a PendingTest; settle it at once unless a Fate window is open."""
    parts = list(preview_test(f.ch, f.rules, spec).parts) + list(extra or [])
    for boost in [b for b in f.c.boosts if b.stat == spec.characteristic]:
        parts.append(TestPart(label=boost.source or f"brew {boost.stat}", value=boost.amount))
        f.c.boosts.remove(boost)
    target = sum(p.value for p in parts)
    purpose = f"Test {spec.label()}"
    roll = f.ctx.dice.d100(purpose)
    prompt = f"{purpose}: accept the roll or use Fate."
    pending = add_pending(f.campaign, PendingTest(spec=_bare(spec), parts=parts, target=target, roll=roll, prompt=prompt))
    assert isinstance(pending, PendingTest)
    f.c.test = CombatTestRef(decision=pending.id, kind=kind, next_step=next_step)
    formula = f"{parts[0].value}" + "".join(f" {p.value:+d}" for p in parts[1:]) + f" = {target}"
    verdict = "success" if pending.success else "failure"
    f.say(
        CombatTest(decision=pending.id, test=kind, target=target, roll=roll, success=pending.success, parts=parts),
        f"{purpose}: {formula}; rolled {roll.natural} - {verdict}.",
    )
    if f.window():
        f.c.waiting = "test"
        f.ask(pending.prompt, decision=pending.id)
        return False
    return settle(f)


def waiting_test(f: Fight) -> PendingTest | None:
    """The pending test the fight is waiting on (None if it was settled elsewhere)."""
    ref = f.c.test
    if ref is None:
        return None
    return next((d for d in f.campaign.pending if d.id == ref.decision and isinstance(d, PendingTest)), None)


def settle(f: Fight) -> bool:
    """Settle the fight's test (experience through the skill-test machinery), then apply it."""
    ref = f.c.test
    assert ref is not None
    test = waiting_test(f)
    if test is None:
        refuse(
            f"The fight's {ref.kind.upper()} test is no longer waiting (it was settled outside the fight): "
            "undo that action to carry on."
        )
    success = test.success
    f.events += settle_roll(f.ctx, ref.decision)[1]
    f.c.test = None
    f.c.waiting = ""
    f.c.step = ref.next_step
    ON_TEST[ref.kind](f, success)
    return not f.over


# --------------------------------------------------------------------------- endings


def end(f: Fight, outcome: str, message: str) -> None:
    """The fight is over (won or escaped): the state goes, with any test it was waiting on."""
    f.say(CombatOver(outcome=outcome, rounds=f.c.round, hp_lost=f.c.hero_hp_lost), message)
    if f.c.test is not None:
        f.campaign.pending = [d for d in f.campaign.pending if d.id != f.c.test.decision]
    f.campaign.combat = None
    f.over = True


def monster_escapes(f: Fight, why: str) -> None:
    """The monster got away: removed from play, recorded as ``escaped_by="monster"``."""
    f.campaign.escaped_monsters.append(EscapedMonster(monster=f.m, escaped_by="monster", round=f.c.round))
    gone = f"{f.m.name} escapes: it is removed from play and off the combat track (no loot, no reward)."
    end(f, "monster_escaped", " ".join(filter(None, [why, gone])))


def row_text(f: Fight, table_id: str, value: int, key: str) -> str:
    """A printed field of a table row ("" when the tables lack it)."""
    try:
        row = f.ctx.tables.library.get(table_id).find(value)
    except TableError:
        return ""
    return row.fields.get(key, "") if row is not None else ""


def location_name(f: Fight, location: int) -> str:
    """``"Torso"``, ``"Head +1"``: the slot a hit-location roll names, with its damage mod."""
    slot = f.rules.slot_at_location(location)
    if slot is None:
        return "?"
    mod = f.rules.damage_mod(slot.id)
    return f"{slot.name} {mod:+d}" if mod else slot.name
