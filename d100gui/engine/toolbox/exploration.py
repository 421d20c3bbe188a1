"""The exploration procedure: the dungeon clock, light sources, the travel clock, rests and injuries.

In our own words: in a dungeon, time is counted in 6-second Turns; 10 Turns make a 1-minute
Round, and every 10 Rounds the card is cleared and a 2d12 encounter check is made (7 or
less: an encounter, then a d% on the dungeon's own table). Actions cost Turns; lit items
burn down Turn by Turn. Travel uses the same shape at a larger scale: 1-hour Turns, 8-hour
Rounds (Morning from 4am, Afternoon from noon, Night from 8pm), 3 Rounds a day, and a 2d6
check each Round (3 or less hostile or neutral, 11-12 friendly, the hour from 1d8). After
two Rounds of travel the party should rest a Round; pushing on costs Stress and Strength and
risks an injury (3d4, 5 or less). The injury table may say "roll again" and most of its
effects have dice written in them.

Table data (action costs, item durations, the injury table) is read from the
:class:`~d100gui.engine.dice.tables.Table` models handed in, never from files. Everything is
a pure function returning a new clock and a typed result.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import Field

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.tables import Row, Table, TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import rule_die, rule_number
from d100gui.engine.toolbox.inline import InlineDice, roll_inline
from d100gui.engine.toolbox.inputs import ToolInputError, in_range

ACTIONS_TABLE = "explore.exploration_actions"
TRAVEL_ACTIONS_TABLE = "explore.travel_actions"
DURATIONS_TABLE = "explore.item_durations"
INJURY_TABLE = "explore.injury"

TURNS_PER_ROUND = 10  # dungeon: 6-second Turns, 1-minute Rounds
SECONDS_PER_TURN = 6
ROUNDS_PER_CARD = 10  # the encounter check comes when the card of 10 Rounds is full
DUNGEON_ENCOUNTER_DIE = "2d12"
DUNGEON_ENCOUNTER_AT_MOST = 7
HOURS_PER_TRAVEL_ROUND = 8
TRAVEL_ROUNDS = (("Morning", 4), ("Afternoon", 12), ("Night", 20))  # name, starting hour (24 h): the text's
HOURS_PER_DAY = 24
TRAVEL_ROUNDS_TABLE = "explore.travel_rounds"  # the same, as data: a clock reads its rounds from it when shipped
_CLOCK_TIME = re.compile(r"^\s*(\d{1,2})\s*(am|pm)\s*$", re.IGNORECASE)
TRAVEL_HOSTILE_AT_MOST = 3
TRAVEL_FRIENDLY_AT_LEAST = 11
TRAVEL_ROUNDS_BEFORE_REST = 2
PUSH_ON_DIE = "3d4"
PUSH_ON_INJURED_AT_MOST = 5
TRAVEL_ENCOUNTER_DIE = "2d6"
ENCOUNTER_HOUR_DIE = "1d8"  # which hour of the Round a travel encounter comes in
PUSH_ON_WOUND_DIE = "1d4"
HOURS_PER_TRAVEL_TURN = 1  # "travel tracks 1-hour turns"
REST_ROUNDS_OWED = 1  # "must take a round of rest after every 2 rounds of travel"
PUSH_ON_STRESS_PER_HD = 1  # "each character takes 1 point per HD of Stress and 1 Strength damage"
PUSH_ON_STRENGTH_DAMAGE = 1
ENCOUNTER_TABLE_DIE = "d100"  # "the Referee then rolls a d% and consults a Random Encounter table"
#: the checks' numbers as data (the text's above are used when the player's tables lack a row)
RULES_TABLE = "explore.procedure_rules"
MAX_TURNS = 10_000  # one spend: more than a lantern's whole life
MAX_HOURS = 24 * 30
MAX_WOUNDS = 100  # wounds healed by one rest
REST_MINUTES_STEP = 10  # a partial rest is counted in whole 10 minutes
MAX_REST_MINUTES = 24 * 60
MAX_INJURY_DEPTH = 10  # "roll again" chains deeper than this stop (they need ten 99s/100s in a row)

__all__ = [
    "ACTIONS_TABLE",
    "DURATIONS_TABLE",
    "INJURY_TABLE",
    "TRAVEL_ACTIONS_TABLE",
    "ActionCost",
    "DungeonClock",
    "DungeonEncounterCheck",
    "DungeonStep",
    "ExplorationNumbers",
    "InjuryResult",
    "LightEvent",
    "LightSource",
    "PushOnResult",
    "PushOnRoll",
    "RestKind",
    "RestResult",
    "TravelClock",
    "TravelEncounter",
    "TravelEncounterCheck",
    "TravelStep",
    "Traveller",
    "action_cost",
    "action_costs",
    "dungeon_clock_numbers",
    "duration_turns",
    "exploration_numbers",
    "item_durations",
    "light",
    "partial_rest_step",
    "push_on",
    "rest",
    "rest_in_dungeon",
    "rest_on_the_road",
    "roll_injury",
    "snuff",
    "spend_hours",
    "spend_turns",
    "take_action",
    "take_travel_action",
    "travel_clock_numbers",
]


# --------------------------------------------------------------------------- table data


class ActionCost(Model):
    """An action and its cost in Turns, from an actions table or typed by the player."""

    action: str
    turns: int
    note: str = ""  # the cost cell as printed ("1 turn with a Strength check."), empty for custom actions
    rest: bool = False  # a travel rest: counts towards the Round of rest after two of travel
    custom: bool = False


_LEADING_NUMBER = re.compile(r"^\s*([\d,]+)")


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def action_costs(table: Table) -> list[ActionCost]:
    """Every action of an actions table with its cost (the first number of its cost cell)."""
    costs = []
    for row in table.rows:
        name = row.fields.get("action", row.key)
        cell = row.fields.get("cost", "")
        match = _LEADING_NUMBER.match(cell)
        if not name or match is None:
            continue  # a row the player typed without a number: not an action button
        costs.append(ActionCost(action=name, turns=_number(match.group(1)), note=cell, rest=name.lower().endswith("rest")))
    return costs


def action_cost(table: Table, action: str) -> ActionCost:
    """The named action of an actions table (case does not matter)."""
    for cost in action_costs(table):
        if cost.action.lower() == action.strip().lower():
            return cost
    known = "; ".join(c.action for c in action_costs(table))
    raise ToolInputError(f"{table.title} has no action {action!r} (actions: {known}).")


_TURNS = re.compile(r"([\d,]+)\s+turns?\b", re.IGNORECASE)
_ROUNDS = re.compile(r"([\d,]+)\s+rounds?\b", re.IGNORECASE)
_HOURS = re.compile(r"([\d,]+)\s+hours?\b", re.IGNORECASE)


def duration_turns(text: str) -> int | None:
    """A duration cell in dungeon Turns: its Turns figure, else Rounds x 10, else hours x 600."""
    for pattern, factor in ((_TURNS, 1), (_ROUNDS, TURNS_PER_ROUND), (_HOURS, 60 * TURNS_PER_ROUND)):
        found = pattern.findall(text)
        if found:
            return _number(found[-1]) * factor
    return None


def item_durations(table: Table) -> dict[str, int]:
    """Each item of the durations table and how many Turns it lasts once activated."""
    durations = {}
    for row in table.rows:
        turns = duration_turns(row.fields.get("duration", ""))
        name = row.fields.get("item", row.key)
        if name and turns:
            durations[name] = turns
    return durations


# --------------------------------------------------------------------------- the dungeon clock


class LightSource(Model):
    """A lit (or activated) item burning down, in Turns."""

    name: str
    duration: int = Field(ge=1)
    burned: int = Field(default=0, ge=0)
    warned: bool = False

    @property
    def remaining(self) -> int:
        return max(0, self.duration - self.burned)


class DungeonClock(Model):
    """The dungeon's Turn and Round card, the lit items, and the encounter schedule (saved with the campaign)."""

    elapsed: int = Field(default=0, ge=0)  # Turns since the clock started
    lights: list[LightSource] = Field(default_factory=list)
    encounter_every_rounds: int = Field(default=ROUNDS_PER_CARD, ge=1)  # the text's card of 10 Rounds
    light_warning_turns: int = Field(default=TURNS_PER_ROUND, ge=0)  # warn when this many Turns are left
    encounter_die: str = DUNGEON_ENCOUNTER_DIE  # the check's dice and its top face for an encounter, as the
    encounter_at_most: int = DUNGEON_ENCOUNTER_AT_MOST  # procedure rules table prints them (see exploration_numbers)
    turns_per_round: int = Field(default=TURNS_PER_ROUND, ge=1)  # the rules table's, like the check's numbers
    seconds_per_turn: int = Field(default=SECONDS_PER_TURN, ge=1)
    table_die: str = ENCOUNTER_TABLE_DIE  # the d% read on the player's encounter table (the rules table's)

    @property
    def turn(self) -> int:
        """Turns ticked on the current Round (0-9)."""
        return self.elapsed % self.turns_per_round

    @property
    def round(self) -> int:
        """Rounds ticked on the current card."""
        return (self.elapsed // self.turns_per_round) % self.encounter_every_rounds

    @property
    def rounds(self) -> int:
        """Whole Rounds since the clock started."""
        return self.elapsed // self.turns_per_round

    @property
    def seconds(self) -> int:
        return self.elapsed * self.seconds_per_turn

    @property
    def turns_per_minute(self) -> int:
        return max(1, 60 // self.seconds_per_turn)

    def describe(self) -> str:
        lit = ", ".join(f"{x.name} {x.remaining} turns left" for x in self.lights) or "no light"
        return f"Round {self.rounds}, turn {self.turn} ({self.seconds // 60} min {self.seconds % 60} s); {lit}."


class LightEvent(Model):
    """A light source running low (a warning) or going out, at a Turn of the clock."""

    name: str
    kind: str  # "low" or "out"
    at_turn: int
    remaining: int

    def describe(self) -> str:
        if self.kind == "out":
            return f"{self.name} goes out (turn {self.at_turn})."
        return f"{self.name} is running low: {self.remaining} turn(s) left."


class DungeonEncounterCheck(Model):
    """The encounter check when the card is full: 2d12, 7 or less an encounter, then a d% for the dungeon's table."""

    at_turn: int
    roll: RollRecord
    encounter: bool
    table_roll: RollRecord | None = None  # the d% the player reads on their dungeon's encounter table
    die: str = DUNGEON_ENCOUNTER_DIE

    def describe(self) -> str:
        die = self.die.removeprefix("1")
        if not self.encounter:
            return f"Encounter check {die} {self.roll.final}: nothing comes."
        d100 = f", {_pct(self.table_roll)} {self.table_roll.final} on the dungeon's table" if self.table_roll else ""
        return f"Encounter check {die} {self.roll.final}: an encounter{d100}."


class DungeonStep(Model):
    """Turns spent on the dungeon clock and what happened meanwhile."""

    label: str = ""
    asked: int  # Turns the action costs
    spent: int  # Turns actually spent (fewer when an encounter interrupts)
    clock: DungeonClock
    lights: list[LightEvent] = Field(default_factory=list)
    checks: list[DungeonEncounterCheck] = Field(default_factory=list)

    @property
    def interrupted(self) -> bool:
        return self.spent < self.asked

    @property
    def unspent(self) -> int:
        return self.asked - self.spent

    def describe(self) -> str:
        head = f"{self.label}: " if self.label else ""
        parts = [f"{head}{self.spent} turn(s)"]
        parts += [c.describe() for c in self.checks]
        parts += [x.describe() for x in self.lights]
        if self.interrupted:
            parts.append(f"Interrupted with {self.unspent} turn(s) of the action left.")
        return " ".join(p if p.endswith(".") else p + "." for p in parts)


def _burn(clock: DungeonClock, at_turn: int) -> tuple[list[LightSource], list[LightEvent]]:
    burning: list[LightSource] = []
    events: list[LightEvent] = []
    for source in clock.lights:
        burnt = source.model_copy(update={"burned": source.burned + 1})
        if burnt.remaining == 0:
            events.append(LightEvent(name=burnt.name, kind="out", at_turn=at_turn, remaining=0))
            continue
        if not burnt.warned and burnt.remaining <= clock.light_warning_turns:
            burnt = burnt.model_copy(update={"warned": True})
            events.append(LightEvent(name=burnt.name, kind="low", at_turn=at_turn, remaining=burnt.remaining))
        burning.append(burnt)
    return burning, events


def spend_turns(clock: DungeonClock, dice: Dice, turns: int, label: str = "") -> DungeonStep:
    """Spend ``turns`` Turns: lights burn each Turn, and the encounter check comes when the card fills.

    Choice: an encounter interrupts the action at the Turn it comes; the rest of the action's
    Turns are left unspent (``unspent``) for the player to resume or drop.
    """
    in_range("Turns", turns, 1, MAX_TURNS)
    checks: list[DungeonEncounterCheck] = []
    lights: list[LightEvent] = []
    spent = 0
    every = clock.turns_per_round * clock.encounter_every_rounds
    while spent < turns:
        at = clock.elapsed + 1
        burning, events = _burn(clock, at)
        clock = clock.model_copy(update={"elapsed": at, "lights": burning})
        lights += events
        spent += 1
        if at % every == 0:
            roll = dice.roll(clock.encounter_die, f"dungeon encounter check (round {at // clock.turns_per_round})")
            met = roll.final <= clock.encounter_at_most
            table = _table_roll(dice, clock.table_die, "dungeon encounter table") if met else None
            checks.append(DungeonEncounterCheck(at_turn=at, roll=roll, encounter=met, table_roll=table, die=clock.encounter_die))
            if met:
                break
    return DungeonStep(label=label, asked=turns, spent=spent, clock=clock, lights=lights, checks=checks)


def take_action(clock: DungeonClock, dice: Dice, actions: Table, action: str) -> DungeonStep:
    """Spend the Turns an action of the exploration actions table costs."""
    cost = action_cost(actions, action)
    return spend_turns(clock, dice, cost.turns, cost.action)


def light(clock: DungeonClock, durations: Table, item: str, turns: int | None = None) -> tuple[DungeonClock, LightEvent | None]:
    """Light (or activate) an item: its duration from the durations table, or ``turns`` for one of the player's own.

    It burns from the next Turn spent. An item that lasts no longer than the warning is
    already low when lit (a matchstick), so the warning comes now.
    """
    if turns is None:
        known = {name.lower(): (name, t) for name, t in item_durations(durations).items()}
        found = known.get(item.strip().lower())
        if found is None:
            names = ", ".join(name for name, _ in known.values())
            raise ToolInputError(f"{durations.title} has no item {item!r} (items: {names}); give its duration in turns.")
        name, duration = found
    else:
        name, duration = item.strip() or "light", in_range("Duration in turns", turns, 1, MAX_TURNS)
    source = LightSource(name=name, duration=duration)
    warning = None
    if duration <= clock.light_warning_turns:
        source = source.model_copy(update={"warned": True})
        warning = LightEvent(name=name, kind="low", at_turn=clock.elapsed, remaining=duration)
    return clock.model_copy(update={"lights": [*clock.lights, source]}), warning


def snuff(clock: DungeonClock, index: int) -> DungeonClock:
    """Put out the lit item at ``index`` (from 0) before it burns out."""
    if not clock.lights:
        raise ToolInputError("Nothing is lit.")
    in_range("Light number", index, 0, len(clock.lights) - 1)
    return clock.model_copy(update={"lights": [x for i, x in enumerate(clock.lights) if i != index]})


# --------------------------------------------------------------------------- the travel clock


class TravelEncounter(StrEnum):
    NONE = "none"
    HOSTILE_OR_NEUTRAL = "hostile_or_neutral"
    FRIENDLY = "friendly"


class TravelEncounterCheck(Model):
    """A travel Round's encounter check: 2d6, and for an encounter the hour (1d8) and a d% for the Round's table."""

    day: int
    round_name: str
    roll: RollRecord
    kind: TravelEncounter
    hour_roll: RollRecord | None = None
    table_roll: RollRecord | None = None
    die: str = TRAVEL_ENCOUNTER_DIE

    @property
    def hour(self) -> int | None:
        """The hour of the Round (1-8) the encounter comes in."""
        return self.hour_roll.final if self.hour_roll is not None else None

    def describe(self) -> str:
        head = f"Day {self.day} {self.round_name} encounter check {self.die.removeprefix('1')} {self.roll.final}"
        if self.kind is TravelEncounter.NONE:
            return f"{head}: no encounter."
        what = "a hostile or neutral encounter" if self.kind is TravelEncounter.HOSTILE_OR_NEUTRAL else "a friendly encounter"
        d100 = (
            f", {_pct(self.table_roll)} {self.table_roll.final} on the {self.round_name.lower()} table" if self.table_roll else ""
        )
        return f"{head}: {what} in hour {self.hour}{d100}."


class TravelClock(Model):
    """The travel clock: hours since dawn of day 1 (4am), each Round's check, the rest owed (saved with the campaign)."""

    elapsed: int = Field(default=0, ge=0)  # hours since 4am of day 1
    checked_round: int = -1  # the last Round (counted from 0) whose encounter check was rolled
    pending: TravelEncounterCheck | None = None  # an encounter rolled for this Round, not reached yet
    rounds_since_rest: int = Field(default=0, ge=0)
    rest_hours_this_round: int = Field(default=0, ge=0)
    rounds: tuple[tuple[str, int], ...] = TRAVEL_ROUNDS  # (name, starting hour) of each Round of the day
    # the check's numbers and the Rounds of travel before a rest, as the procedure rules table prints them
    encounter_die: str = TRAVEL_ENCOUNTER_DIE
    hostile_at_most: int = TRAVEL_HOSTILE_AT_MOST
    friendly_at_least: int = TRAVEL_FRIENDLY_AT_LEAST
    rest_after_rounds: int = TRAVEL_ROUNDS_BEFORE_REST
    hour_die: str = ENCOUNTER_HOUR_DIE
    hours_per_round: int = Field(default=HOURS_PER_TRAVEL_ROUND, ge=1)  # "8-hour rounds", the rules table's
    table_die: str = ENCOUNTER_TABLE_DIE

    @property
    def round_number(self) -> int:
        return self.elapsed // self.hours_per_round

    @property
    def day(self) -> int:
        return self.round_number // len(self.rounds) + 1

    @property
    def round_name(self) -> str:
        return self.rounds[self.round_number % len(self.rounds)][0]

    @property
    def hour_of_round(self) -> int:
        """The hour of the Round in progress (1-8)."""
        return self.elapsed % self.hours_per_round + 1

    @property
    def clock_hour(self) -> int:
        """The time of day (0-23) at the start of the hour in progress."""
        return (self.rounds[0][1] + self.elapsed) % 24

    @property
    def must_rest(self) -> bool:
        """Two Rounds of travel (the rules table's number) without a Round of rest: rest now or push on."""
        return self.rounds_since_rest >= self.rest_after_rounds

    def describe(self) -> str:
        owed = "; rest or push on" if self.must_rest else ""
        return f"Day {self.day}, {self.round_name}, hour {self.hour_of_round} ({self.clock_hour:02d}:00){owed}."


class TravelStep(Model):
    """Hours spent on the travel clock and the checks and encounters they met."""

    label: str = ""
    asked: int
    spent: int
    rest: bool = False
    clock: TravelClock
    checks: list[TravelEncounterCheck] = Field(default_factory=list)
    met: TravelEncounterCheck | None = None  # the encounter that interrupted the action
    rounds_ended: int = 0

    @property
    def interrupted(self) -> bool:
        return self.met is not None and self.spent < self.asked

    @property
    def unspent(self) -> int:
        return self.asked - self.spent

    def describe(self) -> str:
        head = f"{self.label}: " if self.label else ""
        parts = [f"{head}{self.spent} hour(s)"] + [c.describe() for c in self.checks]
        if self.met is not None:
            parts.append(f"The encounter comes in hour {self.met.hour} of the {self.met.round_name.lower()}")
        if self.interrupted:
            parts.append(f"Interrupted with {self.unspent} hour(s) of the action left")
        if self.clock.must_rest and self.rounds_ended:
            parts.append(f"{self.clock.rest_after_rounds} rounds of travel: rest a round or push on")
        return " ".join(p if p.endswith(".") else p + "." for p in parts)


def _check_round(clock: TravelClock, dice: Dice) -> TravelEncounterCheck:
    day, name = clock.day, clock.round_name
    roll = dice.roll(clock.encounter_die, f"travel encounter check (day {day}, {name.lower()})")
    die = clock.encounter_die
    if roll.final <= clock.hostile_at_most:
        kind = TravelEncounter.HOSTILE_OR_NEUTRAL
    elif roll.final >= clock.friendly_at_least:
        kind = TravelEncounter.FRIENDLY
    else:
        return TravelEncounterCheck(day=day, round_name=name, roll=roll, kind=TravelEncounter.NONE, die=die)
    hour = dice.roll(clock.hour_die, "hour of the encounter")
    table = _table_roll(dice, clock.table_die, f"{name.lower()} encounter table")
    return TravelEncounterCheck(day=day, round_name=name, roll=roll, kind=kind, hour_roll=hour, table_roll=table, die=die)


def _hour(text: str) -> int | None:
    match = _CLOCK_TIME.match(text)
    if match is None:
        return None
    hour = int(match.group(1)) % 12
    return hour + 12 if match.group(2).lower() == "pm" else hour


def travel_rounds(table: Table, hours_per_round: int = HOURS_PER_TRAVEL_ROUND) -> tuple[tuple[str, int], ...]:
    """The Rounds of a travel day as the travel rounds table prints them ("Morning", "4am"), or the text's
    own when the table's Rounds are not ``hours_per_round`` hours each filling a day."""
    read = [(row.key, _hour(row.fields.get("from", ""))) for row in table.rows]
    rounds = tuple((name, hour) for name, hour in read if hour is not None)
    if len(rounds) != len(read) or len(rounds) * hours_per_round != HOURS_PER_DAY:
        return TRAVEL_ROUNDS
    hours = [hour for _, hour in rounds]
    ok = all((hours[i] + hours_per_round) % HOURS_PER_DAY == hours[(i + 1) % len(hours)] for i in range(len(hours)))
    return rounds if ok else TRAVEL_ROUNDS


def spend_hours(clock: TravelClock, dice: Dice, hours: int, label: str = "", rest: bool = False) -> TravelStep:
    """Spend ``hours`` travel Turns. Each Round's check is rolled when the Round is entered.

    Choices: the check is rolled as the Round begins (so its 1d8 hour lies ahead), and the
    action stops at the start of the encounter's hour, leaving the rest unspent. A Round
    counts as rest only when all 8 of its hours were spent resting (``rest``); any other
    Round counts as travel towards the Round of rest owed after two.
    """
    in_range("Hours", hours, 1, MAX_HOURS)
    checks: list[TravelEncounterCheck] = []
    met = None
    spent = ended = 0
    while spent < hours:
        if clock.round_number > clock.checked_round:
            check = _check_round(clock, dice)
            checks.append(check)
            pending = check if check.kind is not TravelEncounter.NONE else None
            clock = clock.model_copy(update={"checked_round": clock.round_number, "pending": pending})
        if clock.pending is not None and clock.pending.hour == clock.hour_of_round:
            met = clock.pending
            clock = clock.model_copy(update={"pending": None})
            break
        at = clock.elapsed + 1
        resting = clock.rest_hours_this_round + (1 if rest else 0)
        update: dict[str, object] = {"elapsed": at, "rest_hours_this_round": resting}
        if at % clock.hours_per_round == 0:
            ended += 1
            rested = resting >= clock.hours_per_round
            update.update(
                {"rounds_since_rest": 0 if rested else clock.rounds_since_rest + 1, "rest_hours_this_round": 0, "pending": None}
            )
        clock = clock.model_copy(update=update)
        spent += 1
    return TravelStep(label=label, asked=hours, spent=spent, rest=rest, clock=clock, checks=checks, met=met, rounds_ended=ended)


def take_travel_action(clock: TravelClock, dice: Dice, actions: Table, action: str) -> TravelStep:
    """Spend the hours a travel action costs (the rests count as rest)."""
    cost = action_cost(actions, action)
    return spend_hours(clock, dice, cost.turns, cost.action, rest=cost.rest)


# --------------------------------------------------------------------------- injuries


class InjuryResult(Model):
    """A roll on the injury table, with its dice rolled and any "roll again" results under it."""

    table_roll: TableRoll
    injury: str | None = None  # None when the player's tables lack the row
    details: str = ""
    dice: list[InlineDice] = Field(default_factory=list)
    as_injury: InjuryResult | None = None  # the row an "as ..." effect refers to, with its own dice
    again: list[InjuryResult] = Field(default_factory=list)
    cut_short: bool = False  # a "roll again" chain stopped at MAX_INJURY_DEPTH

    def all_dice(self) -> list[InlineDice]:
        """Every dice expression of this injury, the referred row's included (not the re-rolls')."""
        return [*self.dice, *(self.as_injury.all_dice() if self.as_injury else [])]

    def describe(self) -> str:
        """The injury, its dice, and each "roll again" result in brackets of its own, numbered, so a chain
        nested in a chain reads unambiguously: ``... -> [1: ... -> [1: ...; 2: ...]; 2: ...]``."""
        return self._line() + "."

    def _line(self) -> str:
        if self.injury is None:
            return self.table_roll.describe()
        rolled = "; ".join(d.describe() for d in self.all_dice())
        line = f"Injury d% {self.table_roll.value}: {self.injury}" + (f" ({rolled})" if rolled else "")
        if self.again:
            line += " -> [" + "; ".join(f"{n}: {a._line()}" for n, a in enumerate(self.again, 1)) + "]"
        if self.cut_short:
            line += " (the roll-again chain stops here)"
        return line


_AS_ROW = re.compile(r"^\s*as\s+(.+?)(?:\s+plus\b|\s+but\b|[.,]|$)", re.IGNORECASE)


def _referred_row(table: Table, row: Row, details: str) -> Row | None:
    """The row an effect "as Pulled Muscle ..." or "as off-hand ..." refers to, if the table has it.

    Choice: a name is matched whole ("pulled muscle"); a bare variant ("off-hand") means the row
    of the same injury with that variant in brackets ("dislocated shoulder (off-hand)").
    """
    match = _AS_ROW.match(details)
    if match is None:
        return None
    phrase = match.group(1).strip().lower()
    mine = row.fields.get("injury", "").lower()
    for other in table.rows:
        name = other.fields.get("injury", "").lower()
        if other is not row and name == phrase:
            return other
    for other in table.rows:
        name = other.fields.get("injury", "").lower()
        if other is not row and f"({phrase})" in name and name.split(" ")[0] == mine.split(" ")[0]:
            return other
    return None


def _row_dice(tables: TableRoller, rolled: TableRoll, row: Row, details: str) -> list[InlineDice]:
    """The row's dice: those the table roller already rolled from the row's dice (as the dice panel shows them),
    or, for a row without them (a referred row, a player's own row), the dice written in the text, rolled now."""
    if row is rolled.row and rolled.dice:
        return [InlineDice(expression=t.spec.dice, clause=t.spec.text, later=t.spec.later, roll=t.roll) for t in rolled.dice]
    return roll_inline(tables.dice, details, f"injury: {row.fields.get('injury', '')}")


def _row_injury(tables: TableRoller, table: Table, rolled: TableRoll, row: Row, seen: frozenset[int]) -> InjuryResult:
    details = row.fields.get("details", "")
    result = InjuryResult(
        table_roll=rolled,
        injury=row.fields.get("injury", "") or row.key,
        details=details,
        dice=_row_dice(tables, rolled, row, details),
    )
    referred = _referred_row(table, row, details)
    if referred is not None and referred.low not in seen:
        inner = _row_injury(tables, table, rolled, referred, seen | {row.low})
        result = result.model_copy(update={"as_injury": inner})
    return result


def _injury(tables: TableRoller, rolled: TableRoll, depth: int) -> InjuryResult:
    table = tables.library.get(rolled.table_id)
    if rolled.row is None:
        return InjuryResult(table_roll=rolled)
    result = _row_injury(tables, table, rolled, rolled.row, frozenset())
    again = [link for link in rolled.row.links if link.table == table.id]
    if again and depth >= MAX_INJURY_DEPTH:
        return result.model_copy(update={"cut_short": True})
    rerolls = [_injury(tables, r, depth + 1) for link in again for r in tables.follow(link, "injury (roll again)")]
    return result.model_copy(update={"again": rerolls})


def roll_injury(tables: TableRoller) -> InjuryResult:
    """Roll the injury table: dice in the effect rolled, "roll again" followed (through the row's links)."""
    return _injury(tables, tables.roll(INJURY_TABLE, "injury"), 0)


# --------------------------------------------------------------------------- pushing on


class Traveller(Model):
    """A character of the party, as the rest and push-on rules need them."""

    name: str
    hd: int = 1  # checked by the tool (0 or more), so a refusal names the range in its own words


class PushOnRoll(Model):
    """One character pushing on: the Stress and Strength cost, the 3d4 check, any wounds and injury."""

    name: str
    stress: int
    strength_damage: int = PUSH_ON_STRENGTH_DAMAGE
    check: RollRecord
    injured: bool
    wound_points: RollRecord | None = None
    injury: InjuryResult | None = None

    def describe(self) -> str:
        die = self.check.expression.removeprefix("1")
        head = f"{self.name}: {self.stress} Stress, {self.strength_damage} Strength damage, {die} {self.check.final}"
        if not self.injured:
            return f"{head}: no injury."
        wounds = self.wound_points.final if self.wound_points else 0
        injury = f"; {self.injury.describe()}" if self.injury else ""
        return f"{head}: {wounds} wound point(s){injury}".rstrip(".") + "."


class PushOnResult(Model):
    """The party pushes on without the Round of rest it owes."""

    rolls: list[PushOnRoll]

    def describe(self) -> str:
        return "Pushing on. " + " ".join(r.describe() for r in self.rolls)


def push_on(tables: TableRoller, party: list[Traveller]) -> PushOnResult:
    """Each character takes 1 Stress per HD and 1 Strength damage, then rolls 3d4: at 5 or less, 1d4 wound points and an injury."""
    if not party:
        raise ToolInputError("Party size must be 1 or more; 0 is out of range.")
    rolls = []
    n = exploration_numbers(tables.library)
    for who in party:
        in_range(f"{who.name}'s HD", who.hd, 0)
        check = tables.dice.roll(n.push_on_die, f"{who.name}: pushing on")
        injured = check.final <= n.push_on_injured_at_most
        wounds = tables.dice.roll(n.push_on_wound_die, f"{who.name}: wound points") if injured else None
        injury = roll_injury(tables) if injured else None
        rolls.append(
            PushOnRoll(
                name=who.name,
                stress=who.hd * n.push_on_stress_per_hd,
                strength_damage=n.push_on_strength_damage,
                check=check,
                injured=injured,
                wound_points=wounds,
                injury=injury,
            )
        )
    return PushOnResult(rolls=rolls)


# --------------------------------------------------------------------------- rests


class RestKind(StrEnum):
    PARTIAL = "partial"  # 10-minute spells of calm in a secure spot
    SHORT = "short"  # 8 hours in camp with a meal
    FULL = "full"  # 24 hours of bed rest


SHORT_REST_HOURS = 8  # the text's; the procedure rules table's are used (ExplorationNumbers)
FULL_REST_HOURS = 24
SHORT_HEAL_DIE = "1d4"  # per wound with the Heal skill at the end of a Short rest
FULL_HEAL_DIE = "3d4"  # per wound at the end of a Full rest
HEAL_TN_BASE = 10  # "a TN of 10 plus the highest damage value among wounds that character has"
MAX_WOUND_DAMAGE = 100


def heal_tn(worst_wound: int, base: int = HEAL_TN_BASE) -> int:
    """The Heal check's target number for a resting character: ``base`` (the text's 10, or the procedure rules
    table's) plus the highest damage among their wounds."""
    return base + in_range("Worst wound's damage", worst_wound, 0, MAX_WOUND_DAMAGE)


class RestResult(Model):
    """What a rest restores to one character, in numbers (the sheet is the player's)."""

    kind: RestKind
    name: str = ""
    hd: int
    minutes: int
    stress: int  # points of Stress restored (see all_stress_and_mana)
    attribute_points: int  # restored to each damaged Attribute
    wound_points_per_wound: int  # the hourly healing on each wound
    mana: int
    all_stress_and_mana: bool = False  # a Full Rest restores all Stress and Mana
    heal_rolls: list[RollRecord] = Field(default_factory=list)  # end-of-rest dice, one per wound
    heal_tn: int = 0  # the Heal check's target number, when the worst wound was given (0: not shown)
    heal_tn_base: int = HEAL_TN_BASE  # the number the worst wound is added to

    def describe(self) -> str:
        who = f"{self.name}: " if self.name else ""
        length = f"{self.minutes} min" if self.minutes < 60 else f"{self.minutes // 60} h"
        stress = "all Stress and Mana" if self.all_stress_and_mana else f"{self.stress} Stress, {self.mana} Mana"
        parts = [f"{who}{self.kind.value} rest ({length}): {stress}, {self.attribute_points} per damaged attribute"]
        if self.wound_points_per_wound:
            parts.append(f"{self.wound_points_per_wound} wound point(s) per wound")
        if self.heal_rolls:
            parts.append("then " + ", ".join(f"{r.final}" for r in self.heal_rolls) + " on the wounds")
        tn = f" The Heal check's TN: {self.heal_tn_base} + the worst wound = {self.heal_tn}." if self.heal_tn else ""
        return ", ".join(parts) + "." + tn


def rest(
    dice: Dice,
    kind: RestKind,
    hd: int = 1,
    wounds: int = 0,
    minutes: int = 10,
    heal_check: bool = False,
    name: str = "",
    numbers: ExplorationNumbers | None = None,
) -> RestResult:
    """What a rest restores.

    Partial rest: ``minutes`` (whole 10s) give 1 Stress and 1 point per damaged Attribute per 10
    minutes, and with a made Heal check 1 wound point per wound per whole hour. Short rest: 8
    hours at HD points of Stress, Attribute and Mana per hour and 1 wound point per wound per
    hour, plus 1d4 per wound with the Heal skill. Full rest: 24 hours at the Short rate, all
    Stress and Mana, and 3d4 per wound. Choice: the Short rest's Heal bonus is not added to a
    Full rest, which has its own 3d4.
    """
    in_range("HD", hd, 0)
    in_range("Number of wounds", wounds, 0, MAX_WOUNDS)
    if kind is RestKind.PARTIAL:
        step = partial_rest_step(minutes, numbers)
        spells = minutes // step
        per_wound = minutes // 60 if heal_check and wounds else 0
        return RestResult(
            kind=kind,
            name=name,
            hd=hd,
            minutes=minutes,
            stress=spells,
            attribute_points=spells,
            wound_points_per_wound=per_wound,
            mana=0,
        )
    n = numbers or ExplorationNumbers()
    hours = n.rest_hours(kind)
    die = n.short_heal_die if kind is RestKind.SHORT else n.full_heal_die
    rolls = []
    if kind is RestKind.FULL or heal_check:
        rolls = [dice.roll(die, f"{name + ': ' if name else ''}{kind.value} rest, wound {i + 1}") for i in range(wounds)]
    return RestResult(
        kind=kind,
        name=name,
        hd=hd,
        minutes=hours * 60,
        stress=hd * hours,
        attribute_points=hd * hours,
        wound_points_per_wound=hours if wounds else 0,
        mana=hd * hours,
        all_stress_and_mana=kind is RestKind.FULL,
        heal_rolls=rolls,
    )


def partial_rest_step(minutes: int, numbers: ExplorationNumbers | None = None) -> int:
    """The partial rest's step in minutes (the rules table's "10 minutes"), refusing ``minutes`` not whole steps."""
    step = (numbers or ExplorationNumbers()).rest_step_minutes
    in_range("Minutes of partial rest", minutes, step, MAX_REST_MINUTES)
    if minutes % step:
        raise ToolInputError(f"A partial rest is counted in whole {step} minutes; {minutes} is not.")
    return step


def rest_in_dungeon(
    clock: DungeonClock,
    dice: Dice,
    minutes: int = REST_MINUTES_STEP,
    wounds: int = 0,
    heal_check: bool = False,
    name: str = "",
    numbers: ExplorationNumbers | None = None,
) -> tuple[DungeonStep, RestResult | None]:
    """A partial rest on the dungeon clock: the minutes pass (a minute's Turns each) and then what they restore.

    Choice: an encounter cuts the rest short; the whole steps (10 minutes) rested before it still count,
    and none at all gives no rest (None).
    """
    rest_step = partial_rest_step(minutes, numbers)
    step = spend_turns(clock, dice, minutes * clock.turns_per_minute, "partial rest")
    rested = step.spent // (rest_step * clock.turns_per_minute) * rest_step
    if rested == 0:
        return step, None
    return step, rest(dice, RestKind.PARTIAL, 0, wounds, rested, heal_check, name, numbers)


def rest_on_the_road(
    clock: TravelClock,
    dice: Dice,
    kind: RestKind,
    hd: int = 1,
    wounds: int = 0,
    heal_check: bool = False,
    name: str = "",
    numbers: ExplorationNumbers | None = None,
) -> tuple[TravelStep, RestResult | None]:
    """A short (8 hours) or full (24 hours) rest on the travel clock: the hours pass as rest, then what they restore.

    Choice: both need their hours uninterrupted, so an encounter during them gives no rest (None).
    """
    if kind is RestKind.PARTIAL:
        raise ToolInputError("A partial rest is counted in minutes: take it on the dungeon clock.")
    in_range("HD", hd, 0)
    n = numbers or ExplorationNumbers()
    hours = n.rest_hours(kind)
    step = spend_hours(clock, dice, hours, f"{kind.value} rest", rest=True)
    if step.spent < hours:
        return step, None
    return step, rest(dice, kind, hd, wounds, heal_check=heal_check, name=name, numbers=n)


# --------------------------------------------------------------------------- the procedure's numbers, as data


class ExplorationNumbers(Model):
    """The checks' numbers as the procedure rules table prints them (the text's, the defaults, for a row it lacks)."""

    dungeon_die: str = DUNGEON_ENCOUNTER_DIE
    dungeon_at_most: int = DUNGEON_ENCOUNTER_AT_MOST
    travel_die: str = TRAVEL_ENCOUNTER_DIE
    hostile_at_most: int = TRAVEL_HOSTILE_AT_MOST
    friendly_at_least: int = TRAVEL_FRIENDLY_AT_LEAST
    rounds_before_rest: int = TRAVEL_ROUNDS_BEFORE_REST
    push_on_die: str = PUSH_ON_DIE
    push_on_injured_at_most: int = PUSH_ON_INJURED_AT_MOST
    push_on_wound_die: str = PUSH_ON_WOUND_DIE
    hour_die: str = ENCOUNTER_HOUR_DIE
    heal_tn_base: int = HEAL_TN_BASE
    turns_per_round: int = TURNS_PER_ROUND
    seconds_per_turn: int = SECONDS_PER_TURN
    short_rest_hours: int = SHORT_REST_HOURS
    full_rest_hours: int = FULL_REST_HOURS
    short_heal_die: str = SHORT_HEAL_DIE
    full_heal_die: str = FULL_HEAL_DIE
    rounds_per_card: int = ROUNDS_PER_CARD
    hours_per_travel_round: int = HOURS_PER_TRAVEL_ROUND
    rest_step_minutes: int = REST_MINUTES_STEP
    table_die: str = ENCOUNTER_TABLE_DIE
    hours_per_travel_turn: int = HOURS_PER_TRAVEL_TURN
    rest_rounds_owed: int = REST_ROUNDS_OWED
    push_on_stress_per_hd: int = PUSH_ON_STRESS_PER_HD
    push_on_strength_damage: int = PUSH_ON_STRENGTH_DAMAGE

    def rest_hours(self, kind: RestKind) -> int:
        return self.short_rest_hours if kind is RestKind.SHORT else self.full_rest_hours


def exploration_numbers(library: TableLibrary) -> ExplorationNumbers:
    """The numbers of ``explore.procedure_rules`` ("2d12", "7 or less", "11 or 12": the first number)."""
    t, text = RULES_TABLE, ExplorationNumbers()
    return ExplorationNumbers(
        dungeon_die=rule_die(library, t, "Dungeon encounter check", text.dungeon_die),
        dungeon_at_most=rule_number(library, t, "Dungeon encounter on", text.dungeon_at_most),
        travel_die=rule_die(library, t, "Travel encounter check", text.travel_die),
        hostile_at_most=rule_number(library, t, "Travel encounter: hostile or neutral", text.hostile_at_most),
        friendly_at_least=rule_number(library, t, "Travel encounter: friendly", text.friendly_at_least),
        rounds_before_rest=rule_number(library, t, "Rounds of travel before a rest", text.rounds_before_rest),
        push_on_die=rule_die(library, t, "Pushing on check", text.push_on_die),
        push_on_injured_at_most=rule_number(library, t, "Pushing on: injured on", text.push_on_injured_at_most),
        heal_tn_base=rule_number(library, t, "Heal check TN", text.heal_tn_base),
        turns_per_round=max(1, rule_number(library, t, "Turns in a Round", text.turns_per_round)),
        seconds_per_turn=max(1, rule_number(library, t, "Seconds in a Turn", text.seconds_per_turn)),
        push_on_wound_die=rule_die(library, t, "Pushing on: wound points", text.push_on_wound_die),
        hour_die=rule_die(library, t, "Hour of a travel encounter", text.hour_die),
        short_rest_hours=rule_number(library, t, "Short rest", text.short_rest_hours),
        full_rest_hours=rule_number(library, t, "Full rest", text.full_rest_hours),
        short_heal_die=rule_die(library, t, "Heal skill on a Short rest", text.short_heal_die),
        full_heal_die=rule_die(library, t, "Full rest healing", text.full_heal_die),
        rounds_per_card=max(1, rule_number(library, t, "Rounds on the card", text.rounds_per_card)),
        hours_per_travel_round=max(1, rule_number(library, t, "Hours in a travel Round", text.hours_per_travel_round)),
        rest_step_minutes=max(1, rule_number(library, t, "Partial rest step", text.rest_step_minutes)),
        table_die=_d100(rule_die(library, t, "Encounter table roll", text.table_die)),
        hours_per_travel_turn=max(1, rule_number(library, t, "Hours in a travel Turn", text.hours_per_travel_turn)),
        rest_rounds_owed=max(1, rule_number(library, t, "Rounds of rest owed", text.rest_rounds_owed)),
        push_on_stress_per_hd=rule_number(library, t, "Pushing on: Stress per HD", text.push_on_stress_per_hd),
        push_on_strength_damage=rule_number(library, t, "Pushing on: Strength damage", text.push_on_strength_damage),
    )


def _pct(roll: RollRecord) -> str:
    """ "d%" for the text's d100, else the die rolled ("d20")."""
    return "d%" if roll.expression == ENCOUNTER_TABLE_DIE else roll.expression.removeprefix("1")


def _d100(die: str) -> str:
    return die.removeprefix("1") if die == "1d100" else die


def _table_roll(dice: Dice, die: str, purpose: str) -> RollRecord:
    """The d% read on the player's encounter table (a d100's 00 with 0 reads 100)."""
    return dice.roll(die, purpose, clamp=(1, 100) if die == ENCOUNTER_TABLE_DIE else None)


def dungeon_clock_numbers(clock: DungeonClock, n: ExplorationNumbers) -> DungeonClock:
    """``clock`` checking encounters by ``n`` (the same clock when it already does)."""
    update = {
        "encounter_die": n.dungeon_die,
        "encounter_at_most": n.dungeon_at_most,
        "turns_per_round": n.turns_per_round,
        "seconds_per_turn": n.seconds_per_turn,
        "encounter_every_rounds": n.rounds_per_card,
        "table_die": n.table_die,
    }
    return clock if all(getattr(clock, k) == v for k, v in update.items()) else clock.model_copy(update=update)


def travel_clock_numbers(clock: TravelClock, n: ExplorationNumbers) -> TravelClock:
    """``clock`` checking encounters and counting Rounds before a rest by ``n``."""
    update: dict[str, object] = {
        "encounter_die": n.travel_die,
        "hostile_at_most": n.hostile_at_most,
        "friendly_at_least": n.friendly_at_least,
        "rest_after_rounds": n.rounds_before_rest,
        "hour_die": n.hour_die,
        "hours_per_round": n.hours_per_travel_round,
        "table_die": n.table_die,
    }
    return clock if all(getattr(clock, k) == v for k, v in update.items()) else clock.model_copy(update=update)
