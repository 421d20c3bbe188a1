"""Every event the character feature emits, declared once with its typed payload.

Creation, skill tests and their effects, item moves and hand corrections emit these with
:func:`emit` (``Event.of`` plus an optional topic): views render from the payloads
(:meth:`~d100gui.engine.protocol.Event.payload`), never from the sentences. Kind strings and
data keys are stable (saved campaigns keep them in their logs); new fields always have a
default, so an old log still validates.

Kinds the character shares with other features are declared where they belong, and the
modules that emit them import them from there: ``decision`` and ``fate_used`` in :mod:`d100gui.engine.protocol`
(:class:`Decision`, :class:`FateUsed`), ``row_provided`` in :mod:`d100gui.engine.dice.events`
(:class:`RowProvided`).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.hero.time_track import FiredTrigger
from d100gui.engine.protocol import Event, Payload, Told, declare
from d100gui.engine.rules.notation import Effect


def emit(payload: Payload, message: str = "", topic: str | None = None) -> Event:
    """The event of ``payload``; ``topic`` sends it to another view than its kind's usual one."""
    event = Event.of(payload, message)
    if topic is not None and topic != event.topic:
        event = event.model_copy(update={"topic": topic})
    return event


# --------------------------------------------------------------------------- creation


@declare("character_started", topic="character")
class CharacterStarted(Payload):
    """A blank sheet was laid out; ``next_step`` is the first creation step."""

    next_step: str = ""


@declare("fallen", topic="campaign")
class Fallen(Payload):
    """A dead character joined the hall of the fallen."""

    name: str = ""


@declare("characteristics", topic="character")
class CharacteristicsAssigned(Payload):
    """Creation: the starting values were assigned to STR, DEX and INT."""

    scores: dict[str, int] = Field(default_factory=dict)


@declare("skills", topic="character")
class StartingSkills(Payload):
    """Creation: the starting skills were chosen, each at ``bonus``."""

    skills: list[str] = Field(default_factory=list)
    bonus: int = 0


@declare("rep", topic="character")
class RepChanged(Payload):
    """REP was recorded (creation) or changed by an effect; ``rep`` is the new value."""

    rep: int | None = None
    before: int | None = None


@declare("backpacked", topic="character")
class Backpacked(Payload):
    """Creation: a starting item found no slot and went in the backpack."""

    item: str = ""


@declare("armour_rerolled", topic="log")
class ArmourRerolled(Payload):
    """Creation: a clashing armour piece was set aside and Table A is rolled again."""

    item: str = ""


@declare("supplies", topic="character")
class SuppliesChanged(Payload):
    """Oil, food or picks were taken (creation) or changed by an effect; the values now."""

    oil: int | None = None
    food: int | None = None
    picks: int | None = None


@declare("finishing", topic="character")
class FinishingValues(Payload):
    """Creation: the finishing HP, Fate and Lives were recorded."""

    hp: int | None = None
    fate: int | None = None
    lives: int | None = None


@declare("named", topic="character")
class Named(Payload):
    """The character was given a name."""

    name: str = ""


@declare("character_finished", topic="character")
class CharacterFinished(Payload):
    """Creation is over: the character is ready for a quest."""

    name: str = ""


@declare("table_rolled", topic="dice")
class TableRolled(Payload):
    """A roll on a table (a starting item, an effect's "Roll on Table X")."""

    table_roll: TableRoll


# --------------------------------------------------------------------------- items


@declare("equipped", topic="character")
class Equipped(Payload):
    """An item went into equipment slot ``slot``."""

    slot: str


@declare("unequipped", topic="character")
class Unequipped(Payload):
    """The item in ``slot`` went into the backpack."""

    slot: str


@declare("belt", topic="character")
class BeltChanged(Payload):
    """Items went on or came off the belt (``belt_slot``: the slot, 1-based, when one)."""

    belt_slot: int | None = None


@declare("item_added", topic="character")
class ItemAdded(Payload):
    """An item was written on the sheet by hand (``to``: backpack, potions, non_slot, belt)."""

    item: str = ""
    to: str = ""


# --------------------------------------------------------------------------- hand corrections


@declare("sheet_field", topic="character")
class SheetFieldSet(Payload):
    """Hand correction of a simple field (``field`` names it)."""

    field: str


@declare("track", topic="character")
class TrackSet(Payload):
    """Hand correction of a track's shaded pips."""

    track: str
    target: str = ""
    value: int


@declare("characteristic", topic="character")
class CharacteristicChanged(Payload):
    """A primary characteristic changed (by an effect or by hand)."""

    stat: str = ""
    primary: int | None = None


@declare("skill", topic="character")
class SkillChanged(Payload):
    """A skill bonus changed (by an effect or by hand)."""

    skill: str = ""
    bonus: int | None = None


@declare("spell", topic="character")
class SpellSet(Payload):
    """Hand correction of the spell book at ``position`` (1-based)."""

    position: int


@declare("item_edited", topic="character")
class ItemEdited(Payload):
    """Hand correction: an item was rewritten where it is (``where``)."""

    where: str


@declare("item_discarded", topic="character")
class ItemDiscarded(Payload):
    """Hand correction: an item was rubbed off the sheet (``where`` it was; ``item`` its name, "" in older logs)."""

    where: str
    item: str = ""


# --------------------------------------------------------------------------- effects


@declare("gp", topic="character")
class GoldChanged(Payload):
    """Gold gained or lost (``delta``)."""

    delta: int


@declare("hp", topic="character")
class HpChanged(Payload):
    """Current HP changed by ``delta``; ``hp`` and ``max_hp`` are the values now."""

    delta: int
    hp: int | None = None
    max_hp: int | None = None


@declare("hp_zero", topic="decision")
class HpZero(Payload):
    """HP reached 0: the character must use a Life (or RES) or die."""


@declare("hp_primary", topic="character")
class PrimaryHpChanged(Payload):
    """Primary HP changed; ``lost`` is the current HP lost to the new maximum."""

    hp_primary: int | None = None
    lost: int = 0


@declare("fate", topic="character")
class FateChanged(Payload):
    """Fate points changed by an effect; ``value`` is the new count."""

    value: int | None = None


@declare("life", topic="character")
class LivesChanged(Payload):
    """Lives changed by an effect; ``value`` is the new count."""

    value: int | None = None


class PipTrack(Payload):
    """A count track (keys, levers, poison, disease) changed: ``value`` of ``length`` pips now."""

    value: int | None = None
    length: int | None = None


@declare("key", topic="character")
class KeysChanged(PipTrack):
    """The keys track changed."""


@declare("lever", topic="character")
class LeversChanged(PipTrack):
    """The levers track changed."""


@declare("poison", topic="character")
class PoisonChanged(PipTrack):
    """The poison track changed."""


@declare("disease", topic="character")
class DiseaseChanged(PipTrack):
    """The disease track changed."""


@declare("objective", topic="character")
class ObjectiveMet(Payload):
    """Objectives met changed; ``objectives`` is the count now."""

    objectives: int | None = None


@declare("belt_check", topic="character")
class BeltCheck(Payload):
    """A Belt Check: ``roll`` landed on a slot; ``destroyed`` names the item lost ("" if none)."""

    roll: RollRecord
    destroyed: str = ""


@declare("time", topic="character")
class TimePassed(Payload):
    """``clocks`` clocks were shaded; ``triggers`` lists the symbols they reached, in order."""

    clocks: int
    triggers: list[FiredTrigger] = Field(default_factory=list)


@declare("time_track_bonus", topic="character")
class TimeTrackBonusAdded(Payload):
    """A bonus was written on the time track until it refreshes."""

    stat: str = ""
    amount: int = 0


class _Narrated(Payload):
    """An effect the player carries out at the table: the message says what it is."""


@declare("avoid", topic="log")
class Avoided(_Narrated):
    """An outcome that avoids something (a trap, damage)."""


@declare("no_effect", topic="log")
class NoEffect(_Narrated):
    """An outcome with no effect."""


@declare("open", topic="log")
class Opened(_Narrated):
    """An outcome that opens something (a door, a chest)."""


@declare("cast", topic="log")
class Cast(_Narrated):
    """An outcome that casts a spell."""


@declare("narrative", topic="log")
class Narrative(Payload):
    """An effect the engine does not carry out: ``effect`` is the parsed effect, when there is one."""

    effect: Effect | None = None


# --------------------------------------------------------------------------- skill tests


@declare("test_rolled", topic="dice")
class TestRolled(Payload):
    """A test was rolled and waits for Fate or acceptance (pending decision ``decision``)."""

    __test__: ClassVar[bool] = False  # not a pytest class

    decision: str
    target: int
    roll: RollRecord
    success: bool


@declare("test_settled", topic="character")
class TestSettled(Payload):
    """A rolled test was accepted: it succeeded or failed."""

    __test__: ClassVar[bool] = False  # not a pytest class

    success: bool
    name: str = ""
    natural: int | None = None
    target: int | None = None


@declare("experience", topic="character")
class ExperienceShaded(Payload):
    """A pip was shaded on an experience track (or experience was declined: ``track`` is "")."""

    track: str = ""


@declare("outcome_chosen", topic="log")
class OutcomeChosen(Payload):
    """An option (0-based) of a "/" choice was chosen."""

    option: int | None = None


@declare("decision_dismissed", topic="decision")
class DecisionDismissed(Payload):
    """An optional pending decision was let go."""

    decision: str = ""


# --------------------------------------------------------------------------- HP at zero (hero/health.py)


@declare("death_cheated", topic="character")
class DeathCheated(Told):
    """HP fell to 0 or less outside a fight: RES (``how`` = ``res``) or a Life was spent, HP back to ``hp``."""

    how: Literal["res", "life"]
    hp: int
    lives: int
    source: str = ""

    def sentence(self) -> str:
        head = f"{self.source}: " if self.source else ""
        if self.how == "res":
            return f"{head}HP 0 - RES: you are resurrected instead of using a Life (HP {self.hp})."
        return f"{head}HP 0 - you cheat death: a Life is spent ({self.lives} left), HP back to {self.hp}."


@declare("hero_fell", topic="campaign")
class HeroFell(Told):
    """HP fell to 0 or less with no RES and no Life: the hero died and joined the hall of the fallen."""

    name: str = ""
    source: str = ""

    def sentence(self) -> str:
        cause = f" ({self.source})" if self.source else ""
        return f"{self.name or 'The hero'} has died{cause} with no Lives left and joins the hall of the fallen."
