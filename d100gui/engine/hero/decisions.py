"""The decisions the character procedures leave to the player, stored in ``Campaign.pending``.

Keep or re-roll armour, a missing table row, a rolled test waiting for Fate, experience
pips, a "/" choice, a "choose which" target, a test an outcome calls for: each is a
serializable model (the views render prompts and choices from these models), discriminated
by ``decision`` in :data:`PendingDecision`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal, TypeVar

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dungeon.map import DoorAt
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Item, TestPart
from d100gui.engine.model import Model
from d100gui.engine.rules.notation import Effect, Outcome, TestSpec

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


class _Pending(Model):
    id: str = ""
    prompt: str = ""
    optional: bool = False  # the player may dismiss it


class ArmourClash(_Pending):
    """Creation: a starting armour roll landed on a slot already equipped: keep new or re-roll."""

    decision: Literal["armour_clash"] = "armour_clash"
    slot: str
    new_item: Item
    old_item: Item
    table_roll: TableRoll


class RowNeeded(_Pending):
    """Creation: a starting roll landed on a row the player's tables do not have."""

    decision: Literal["row_needed"] = "row_needed"
    purpose: Literal["weapon", "armour"]
    table_roll: TableRoll


class SpellWaiting(Model):
    """A spell cast outside a fight whose CAST SPELL test waits for Fate: what applies once it is settled
    (the spell's effect on a success, Table C on a failure; the magic package applies it)."""

    name: str
    effect: str = ""
    source: Literal["book", "scroll"] = "book"


class PendingTest(_Pending):
    """A rolled test waiting for the player: accept the roll or spend Fate to re-roll dice."""

    decision: Literal["test_roll"] = "test_roll"
    spec: TestSpec
    parts: list[TestPart]
    target: int
    roll: RollRecord
    fate_spent: int = 0
    door: DoorAt | None = None  # the door a Table D test is for: its Open outcome opens it
    spell: SpellWaiting | None = None  # the CAST SPELL test of a spell cast outside a fight

    @property
    def success(self) -> bool:
        return self.roll.natural <= self.target


class ExperienceChoice(_Pending):
    """A natural roll of 10 or less: one pip on the characteristic or pips over the skills."""

    decision: Literal["experience"] = "experience"
    characteristic: str
    skills: list[str]
    test_name: str = ""
    optional: bool = True


class OutcomeChoice(_Pending):
    """A "/" in an outcome: the player picks one option."""

    decision: Literal["outcome_choice"] = "outcome_choice"
    outcome: Outcome
    source: str = ""
    door: DoorAt | None = None  # the door test it came from, if any


class TargetChoice(_Pending):
    """An effect that lets the player choose what it applies to (``-1 CHA``, ``-5 Skill``, any pip)."""

    decision: Literal["target_choice"] = "target_choice"
    effect: Effect
    choices: list[str]


class CalledTest(_Pending):
    """An outcome calls for another test (the lever door's JAMMED DOOR): roll it when ready."""

    decision: Literal["called_test"] = "called_test"
    spec: TestSpec
    optional: bool = True
    door: DoorAt | None = None  # the door it is for (a lever door's JAMMED DOOR test)


T = TypeVar("T", bound="_Pending")

PendingDecision = Annotated[
    ArmourClash | RowNeeded | PendingTest | ExperienceChoice | OutcomeChoice | TargetChoice | CalledTest,
    Field(discriminator="decision"),
]


def add_pending(campaign: Campaign, decision: _Pending) -> _Pending:
    """Give ``decision`` the campaign's next id and store it."""
    campaign.decision_serial += 1
    decision.id = f"d{campaign.decision_serial}"
    campaign.pending.append(decision)  # type: ignore[arg-type]
    return decision


def take_pending(campaign: Campaign, decision_id: str, kind: type[T]) -> T:
    """The pending decision ``decision_id`` of type ``kind``, removed from the list; refused if absent."""
    for i, d in enumerate(campaign.pending):
        if d.id == decision_id:
            if not isinstance(d, kind):
                refuse(f"Decision {decision_id} is not a {kind.model_fields['decision'].default.replace('_', ' ')} decision.")
            del campaign.pending[i]
            return d
    refuse(f"There is no pending decision {decision_id!r}.")


def pending_of(campaign: Campaign, kind: type[T]) -> list[T]:
    return [d for d in campaign.pending if isinstance(d, kind)]


def fight_test_reason(campaign: Campaign) -> str:
    """Why the skill-test commands leave the waiting test alone ("" when no fight waits on a test).

    A test the fight is waiting on (its ATTACK, FEAR, ESCAPE... test) belongs to the fight:
    only the fight settles it (``combat_continue``) or re-rolls it with Fate (``combat_fate``),
    so the round carries on where it stopped. Settled anywhere else, the fight could never go on.
    """
    combat = campaign.combat
    if combat is None or combat.test is None:
        return ""
    return (
        f"The {combat.test.kind.upper()} test belongs to the fight: carry on in the combat panel "
        "(Continue, or spend Fate there) before any other test."
    )


def fight_test_id(campaign: Campaign) -> str:
    """The id of the pending test the fight is waiting on, or ""."""
    combat = campaign.combat
    return combat.test.decision if combat is not None and combat.test is not None else ""
