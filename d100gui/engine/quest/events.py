"""Every event the adventure emits, declared once with its typed payload.

The time track's procedure and the HP-zero rule return these payloads as their outcome
(:mod:`.time`, :mod:`d100gui.engine.hero.health`); each says its sentence for the log with ``sentence()``, and
views render from the fields. Kinds shared with other features are declared elsewhere (the modules
that emit them import them from there):
``decision`` (:class:`~d100gui.engine.protocol.Decision`) and ``row_provided``
(:class:`~d100gui.engine.dice.events.RowProvided`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.hero.model import Item
from d100gui.engine.hero.time_track import FiredTrigger
from d100gui.engine.protocol import Payload, Told, declare

# --------------------------------------------------------------------------- the time track


@declare("time_advanced", topic="character")
class TimeAdvanced(Told):
    """``shaded`` clocks were shaded (of ``clocks`` asked); ``clocks_left`` wait behind an offered fight.

    ``on_track`` is the clocks shaded on the track now, ``total`` since the quest began;
    ``triggers`` lists the symbols reached, in order (their results follow as their own events).
    """

    clocks: int
    shaded: int
    on_track: int
    total: int
    clocks_left: int = 0
    triggers: list[FiredTrigger] = Field(default_factory=list)

    def sentence(self) -> str:
        text = f"+{self.shaded} on the time track ({self.on_track} {'clock' if self.on_track == 1 else 'clocks'} shaded)."
        if self.clocks_left:
            text += f" {self.clocks_left} more after the fight."
        return text


@declare("oil_burned", topic="character")
class OilBurned(Told):
    """An oil symbol: a flask was spent (``spent``), or there was none and the hero is in darkness."""

    clock: int
    spent: bool
    oil: int
    in_darkness: bool
    lit_again: bool = False  # the flask ended darkness

    def sentence(self) -> str:
        if self.spent:
            again = " The lantern is lit again: darkness ends." if self.lit_again else ""
            return f"Clock {self.clock}: a flask of oil is spent ({self.oil} left).{again}"
        return f"Clock {self.clock}: no oil to spend - you are in darkness until a flask is spent again."


@declare("food_eaten", topic="character")
class FoodEaten(Told):
    """A food symbol: a ration was eaten (``spent``), or there was none and ``hp_lost`` HP were lost."""

    clock: int
    spent: bool
    food: int
    hp_lost: int = 0
    hp: int = 0

    def sentence(self) -> str:
        if self.spent:
            return f"Clock {self.clock}: a ration is eaten ({self.food} left)."
        return f"Clock {self.clock}: no food - fatigued and weak, you lose {self.hp_lost} HP (HP {self.hp})."


@declare("wandering_checked", topic="dice")
class WanderingChecked(Told):
    """A wandering-monster symbol: ``roll`` at or under ``number`` brings a monster (``appeared``)."""

    clock: int
    number: int
    roll: RollRecord
    appeared: bool

    def sentence(self) -> str:
        verdict = "a monster appears!" if self.appeared else "nothing comes."
        return f"Clock {self.clock}: wandering monster check {self.roll.final} (needs {self.number} or less) - {verdict}"


@declare("fight_offered", topic="combat")
class FightOffered(Told):
    """Table E was rolled for a monster the time track brought: the fight is offered, not started.

    ``table_roll`` carries the encounter modifier and the 1-100 clamp; ``missing`` is the gap it
    fell in when the player's tables lack the row.
    """

    table_roll: TableRoll
    clock: int
    source: str = "wandering monster"
    missing: list[int] = Field(default_factory=list)
    surprise: bool = False
    area: str = ""

    def sentence(self) -> str:
        return f"{self.source.capitalize()}: {self.table_roll.describe()}"


@declare("time_track_refreshed", topic="character")
class TrackRefreshed(Told):
    """The last clock was shaded: the track is blank again and ``bonuses_cleared`` bonuses ended.

    An HP bonus that ended brings current HP down to the new maximum: ``hp_lost`` HP, ``hp`` left (None if none lost).
    """

    clock: int
    bonuses_cleared: int = 0
    hp_lost: int = 0
    hp: int | None = None

    def sentence(self) -> str:
        ended = f"; {self.bonuses_cleared} time-track bonus(es) end" if self.bonuses_cleared else ""
        lost = f" (HP down {self.hp_lost} to {self.hp})" if self.hp_lost else ""
        return f"Clock {self.clock} was the last: the time track refreshes{ended}{lost}."


@declare("affliction_checked", topic="character")
class AfflictionChecked(Told):
    """A refresh's poison or disease check: ``roll`` at or under ``pips`` costs ``hp_lost`` HP (``hit``)."""

    track: Literal["poison", "disease"]
    pips: int
    roll: RollRecord
    hit: bool
    hp_lost: int = 0
    hp: int = 0
    pips_after: int = 0

    def sentence(self) -> str:
        head = f"{self.track.capitalize()} check {self.roll.final} against {self.pips} pip(s)"
        if not self.hit:
            return f"{head}: no harm."
        lost = f"; a pip is removed ({self.pips_after} left)" if self.pips_after != self.pips else ""
        return f"{head}: you lose {self.hp_lost} HP (HP {self.hp}){lost}."


@declare("lantern_lit", topic="character")
class LanternLit(Told):
    """In darkness, a flask of oil was spent: the darkness ends (``oil`` left)."""

    oil: int

    def sentence(self) -> str:
        return f"A flask of oil lights the lantern ({self.oil} left): the darkness ends."


# --------------------------------------------------------------------------- quests


@declare("quest_offered", topic="decision")
class QuestOffered(Payload):
    """Table Q was rolled once per REP point (``quests``: each roll's quest, "" where the row is missing).

    ``completed`` marks the quests already ticked (they may be rolled again); ``training`` and
    ``missing`` are set when the next Dungeon Training quest's row must be typed in.
    """

    decision: str
    quests: list[str] = Field(default_factory=list)
    completed: list[bool] = Field(default_factory=list)
    missing: list[list[int]] = Field(default_factory=list)  # per roll: the gap [lo, hi], or [] when found
    training: int | None = None
    sample: bool = False


@declare("quest_rerolled", topic="dice")
class QuestRerolled(Payload):
    """An offered quest already completed was rolled again (``index``, 0-based)."""

    index: int
    table_roll: TableRoll
    quest: str = ""


@declare("quest_begun", topic="character")
class QuestBegun(Payload):
    """A quest began: written on the sheet with its objective and encounter modifier; an attempt is logged."""

    name: str
    objective: str = ""
    encounter_modifier: int = 0
    attempted: int = 0
    training: int | None = None
    sample: bool = False


@declare("quest_completed", topic="character")
class QuestCompleted(Payload):
    """The current quest's objective was met: the reward is paid (its own events follow) and the quest ticked."""

    name: str
    reward: str = ""
    completed: int = 0


@declare("quest_failed", topic="character")
class QuestFailed(Payload):
    """The player ended the quest: the fail costs (``costs``, as paid) were applied and a failure logged."""

    name: str
    costs: list[str] = Field(default_factory=list)
    failed: int = 0


# --------------------------------------------------------------------------- the turn

AreaOutcome = Literal["proceed", "encounter", "geographic", "objective", "monster_waits", "mapped"]


@declare("door_tried", topic="map")
class DoorTried(Told):
    """A way of opening a Table D door was tried (``roll`` for a key or lever roll against ``held``).

    For a test (``pick``, ``force``, ``test``) the skill test's own events follow; ``held`` is then the picks held.
    """

    pos: str
    side: str
    door: str
    method: str
    roll: RollRecord | None = None
    success: bool | None = None
    held: int | None = None

    def sentence(self) -> str:
        where = f"The {self.door} door on the {self.side} side of area {self.pos}"
        if self.roll is not None:
            verdict = "it opens" if self.success else "it stays closed"
            return f"{where}: {self.method}s held {self.held}, rolled {self.roll.final} - {verdict}."
        if self.method in ("key", "lever"):
            return f"{where}: no {self.method}s held - it stays closed."
        if self.method in ("spell", "scroll"):
            return f"{where}: Open Magic {'breaks the seal' if self.success else 'fails'}."
        return f"{where}: {self.method} it - roll the test."


@declare("turn_moved", topic="log")
class TurnMoved(Told):
    """Turn ``number``: the hero went through the ``side`` exit into area ``pos`` (``placed``: newly mapped)."""

    number: int
    side: Literal["N", "E", "S", "W"]
    pos: str
    colour: str
    placed: bool
    dungeon: str = ""

    def sentence(self) -> str:
        what = "a new area" if self.placed else "a mapped area"
        return f"Turn {self.number}: through the {self.side} exit into {what} ({self.pos}, {COLOUR_NAMES.get(self.colour, self.colour)})."


#: a map colour's name, for the log's sentences
COLOUR_NAMES = {"Y": "yellow", "R": "red", "G": "green", "B": "blue"}


@declare("area_resolved", topic="log")
class AreaResolved(Told):
    """Turns step 4 for area ``pos``: what its colour did (``outcome``), with the table roll it took, if any.

    ``objectives`` is the count toward the quest objective after a blue area.
    """

    pos: str
    colour: str
    outcome: AreaOutcome
    table_roll: TableRoll | None = None
    objectives: int | None = None
    monster: str = ""
    #: who rolled it when it is not the area's colour (a search's Table F row rolling Table G or E)
    source: str = ""

    def sentence(self) -> str:
        if self.source and self.table_roll is not None:
            return f"{self.source}: {self.table_roll.describe()}"
        name = COLOUR_NAMES.get(self.colour, self.colour).capitalize()
        if self.outcome == "proceed":
            return f"{name} area: nothing happens, proceed."
        if self.outcome == "objective":
            return f"{name} area: the quest's objective - {self.objectives} objective(s) met."
        if self.outcome == "monster_waits":
            return f"The {self.monster or 'monster'} you escaped from waits here: you must encounter it."
        if self.outcome == "mapped":
            return "A mapped area: nothing new here."
        rolled = f" {self.table_roll.describe()}" if self.table_roll else ""
        return f"{name} area:{rolled}"


@declare("area_searched", topic="map")
class AreaSearched(Told):
    """Turns step 5: area ``pos`` was searched on Table F (``bonus``: its colour's column) and marked S."""

    pos: str
    colour: str
    bonus: int
    table_roll: TableRoll

    def sentence(self) -> str:
        return f"Search (column {self.bonus:+d} for a {COLOUR_NAMES.get(self.colour, self.colour)} area): {self.table_roll.describe()}"


@declare("turn_ended", topic="log")
class TurnEnded(Told):
    """Turn ``number`` is over (``searched``: with a search, else the search was skipped)."""

    number: int
    searched: bool = False

    def sentence(self) -> str:
        return f"Turn {self.number} ends" + ("." if self.searched else " without a search.")


# --------------------------------------------------------------------------- rows an effect rolled (rows.py)


@declare("table_row_applied", topic="character")
class TableRowApplied(Told):
    """An effect rolled ``table_roll`` and its row was applied in full (a boost, a curse): ``notes`` say what it did."""

    table_roll: TableRoll
    name: str = ""
    notes: list[str] = Field(default_factory=list)
    items: list[str] = Field(default_factory=list)  # items it put in the backpack
    destroyed: list[str] = Field(default_factory=list)  # items it destroyed

    def sentence(self) -> str:
        return " ".join(self.notes) or f"{self.table_roll.describe()}: applied."


@declare("loot_stowed", topic="character")
class LootStowed(Told):
    """A find went on the sheet: ``place`` is ``backpack`` or ``potions`` (the unequipped potions)."""

    item: Item
    place: Literal["backpack", "potions"] = "backpack"
    table_roll: TableRoll | None = None

    def sentence(self) -> str:
        where = "with your unequipped potions" if self.place == "potions" else "in the backpack"
        value = f" ({self.item.value} gp)" if self.item.value else ""
        return f"{self.item.name}{value} goes {where}."


@declare("loot_waiting", topic="decision")
class LootWaiting(Told):
    """The backpack is full (``held`` of ``limit``): keep ``item`` by dropping one (``keep_loot``) or leave it (``leave_loot``)."""

    item: Item
    held: int
    limit: int

    def sentence(self) -> str:
        return f"Your backpack is full ({self.held} of {self.limit}): drop an item to keep {self.item.name}, or leave it."


@declare("loot_settled", topic="character")
class LootSettled(Told):
    """The waiting find was kept (``dropped`` made room) or left behind (``kept`` False)."""

    item: Item
    kept: bool
    dropped: str = ""

    def sentence(self) -> str:
        if not self.kept:
            return f"You leave {self.item.name} behind."
        return f"You drop {self.dropped} and keep {self.item.name} (backpack)."


@declare("repair_shaded", topic="character")
class RepairShaded(Told):
    """Repair pips were shaded on a random equipped item (``item`` in ``slot``), or none had a repair track.

    The d10 ``rolls`` are re-rolled past empty locations; ``destroyed`` when the track filled."""

    rolls: list[RollRecord] = Field(default_factory=list)
    slot: str = ""
    item: str = ""
    pips: int = 0
    shaded: int = 0
    length: int = 0
    destroyed: bool = False
    source: str = ""

    def sentence(self) -> str:
        head = f"{self.source}: " if self.source else ""
        dice = ", ".join(str(r.final) for r in self.rolls)
        if not self.item:
            return f"{head}Repair pips: no equipped item has a repair track - nothing is shaded."
        text = f"{head}Location d10 {dice}: {self.item} ({self.slot}) takes {self.pips} repair pip(s), {self.shaded} of {self.length}."
        return text + (" Its track is full: it is destroyed." if self.destroyed else "")


@declare("typed_row_applied", topic="character")
class TypedRowApplied(Told):
    """A roll that waited for its typed row (``table_roll``, now with the row) is applied; its effects follow."""

    table_roll: TableRoll
    source: str = ""

    def sentence(self) -> str:
        head = f"{self.source}: " if self.source else ""
        return f"{head}{self.table_roll.describe()} - now applied."


@declare("feature_note", topic="log")
class FeatureNote(Told):
    """What a Table G feature's test refers to ("SPIKES – Roll 1d10, ... -2 HP"): shown, not applied.

    ``feature`` is the feature, ``name`` the printed name the note gives (``SPIKES``), ``text`` the note."""

    feature: str = ""
    name: str = ""
    text: str = ""

    def sentence(self) -> str:
        return f"{self.feature}: {self.text}" if self.feature else self.text


@declare("follow_up_rolled", topic="character")
class FollowUpRolled(Told):
    """A test's outcome rolled the note its feature printed ("roll SPIKES": 1d10, odds miss, evens -2 HP).

    ``roll`` is the die, ``parity`` the side it fell on, ``text`` what that side prints; ``applied``
    says the side has effects, which follow this event (a side with none, "spikes missed", is only told)."""

    name: str
    roll: RollRecord
    parity: Literal["odd", "even"]
    text: str = ""
    source: str = ""
    applied: bool = False

    def sentence(self) -> str:
        head = f"{self.source}: " if self.source else ""
        return f"{head}{self.name} - rolled {self.roll.final} ({self.parity}): {self.text}."
