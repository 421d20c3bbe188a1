"""The underworld's d6 checks and its move/turn: doors, secret doors, listening, traps and spikes;
moves per turn, the rest each hour and the doubled rest after a flight.

Every chance is read from the table ``classic.underworld_checks`` (the faces of a d6 that
succeed, per check and race, with the rule as printed) and every count from
``classic.underworld_time`` (moves per turn, feet per inch, the rest), so the numbers are the
text's, not the code's. Several characters forcing a door (up to 3) each roll; the door opens
on any success. A trap is rolled for each character passing, in order, until one springs it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.dice.tables import Table, TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import A_DIE, rule_number, rule_text
from d100gui.engine.toolbox.inputs import ToolInputError, in_range

__all__ = [
    "CHECKS_TABLE",
    "TIME_TABLE",
    "UnderworldCheck",
    "UnderworldClock",
    "UnderworldStep",
    "check",
    "check_on",
    "max_forcers",
    "time_number",
    "underworld_turns",
    "wall_searched",
]

CHECKS_TABLE = "classic.underworld_checks"
TIME_TABLE = "classic.underworld_time"
#: the underworld time table's numbers as the text prints them (used without the table's row)
TIME_TEXT = {
    "Rest turns per hour": 1,
    "Rest after a flight or pursuit": 2,
    "Moves per turn": 2,
    "Moves per turn in flight or pursuit": 4,
    "Minutes per turn": 10,
    "Melee rounds per turn": 10,
    "Feet per inch": 10,
}
WALL_SEARCHED = "10 feet"  # "searching a 10 foot section of wall ... a full turn": the text's, without the row
MAX_FORCERS = 3  # "up to 3 characters attempting to force open a door"
MAX_ROLLERS = 20  # characters passing a trap, spikes in a door: a bound on typing
MAX_TURNS = 60
MAX_SPEED = 48  # inches per move: a bound on typing, above the fastest flyer of the texts
MINUTES_PER_HOUR = 60

Procedure = Literal["secret_door", "sense_secret_door", "force_door", "listen", "trap", "spike"]
Race = Literal["human", "elf", "dwarf", "hobbit"]
_RACE_WORDS = {"human": "Men", "elf": "Elves", "dwarf": "Dwarves", "hobbit": "Hobbits"}


def _row_key(procedure: Procedure, race: Race, small: bool) -> str:
    """The check's row in the table: by race for secret doors and listening, by size for doors."""
    if procedure == "secret_door":
        return "Secret passage: Elves" if race == "elf" else "Secret passage: Men, Dwarves, Hobbits"
    if procedure == "listen":
        return "Listen: Humans" if race == "human" else "Listen: Elves, Dwarves, Hobbits"
    if procedure == "force_door":
        return "Force a door: smaller and lighter character" if small else "Force a door"
    return {"sense_secret_door": "Elf senses a secret door passed", "trap": "Trap springs", "spike": "Spike slips"}[procedure]


def faces(text: str) -> tuple[int, int]:
    """The faces a cell names: "1-2" is 1 to 2, "1" is 1."""
    low, _, high = text.strip().partition("-")
    return int(low), int(high or low)


class UnderworldCheck(Model):
    """One check of the underworld: its rule as printed, the faces that succeed, each roll, the outcome."""

    procedure: Procedure
    check: str
    rule: str
    on: tuple[int, int]
    rolls: list[RollRecord] = Field(default_factory=list)
    nothing_to_hear: bool = False  # listening where there is no sound (undead never make one)

    def hit(self, roll: RollRecord) -> bool:
        return self.on[0] <= roll.final <= self.on[1]

    @property
    def succeeded(self) -> bool:
        """Whether it happened: found, opened, heard, sprung, slipped (any roll in the faces)."""
        return not self.nothing_to_hear and any(self.hit(r) for r in self.rolls)

    @property
    def first(self) -> int:
        """Which roll (from 1) did it: the character who springs the trap, the spike that slips; 0 if none."""
        return next((n for n, r in enumerate(self.rolls, 1) if self.hit(r)), 0) if self.succeeded else 0

    def describe(self) -> str:
        on = f"{self.on[0]}" if self.on[0] == self.on[1] else f"{self.on[0]}-{self.on[1]}"
        rolled = ", ".join(str(r.final) for r in self.rolls)
        outcome = _OUTCOMES[self.procedure][self.succeeded]
        if self.succeeded and len(self.rolls) > 1 and self.procedure in ("trap", "spike"):
            outcome += f" (roll {self.first})"
        if self.nothing_to_hear:
            outcome = "nothing heard: there is no sound to hear"
        die = self.rolls[0].expression.removeprefix("1") if self.rolls else A_DIE.removeprefix("1")
        return f"{self.check} (succeeds on {on} on a {die}): rolled {rolled}: {outcome}. Rule: {self.rule}"


_OUTCOMES: dict[Procedure, dict[bool, str]] = {
    "secret_door": {True: "found", False: "not found"},
    "sense_secret_door": {True: "the elf senses something there", False: "nothing sensed"},
    "force_door": {True: "the door opens", False: "the door holds"},
    "listen": {True: "a sound is heard", False: "nothing heard"},
    "trap": {True: "the trap springs", False: "the trap does not spring"},
    "spike": {True: "a spike slips and the door shuts", False: "the spikes hold"},
}


def check(
    dice: Dice,
    table: Table,
    procedure: Procedure,
    race: Race = "human",
    characters: int = 1,
    small: bool = False,
    sound: bool = True,
    die: str = A_DIE,
    forcers: int = MAX_FORCERS,
) -> UnderworldCheck:
    """Roll an underworld check: ``characters`` forcing a door (up to ``forcers``, the checks table's 3), passing a
    trap, or spikes holding a door."""
    limit = forcers if procedure == "force_door" else MAX_ROLLERS
    in_range("Characters" if procedure != "spike" else "Spikes", characters, 1, limit)
    if procedure == "sense_secret_door" and race != "elf":
        raise ToolInputError("Only Elves may sense a secret door they pass (at the referee's option).")
    row = table.find_key(_row_key(procedure, race, small))
    if row is None:
        raise ToolInputError(f"{table.title} has no row for {_row_key(procedure, race, small)!r}.")
    result = UnderworldCheck(
        procedure=procedure, check=row.fields.get("check", row.key), rule=row.fields.get("rule", ""),
        on=faces(row.fields["on"]), nothing_to_hear=procedure == "listen" and not sound,
    )  # fmt: skip
    rollers = characters if procedure in ("force_door", "trap", "spike") else 1
    who = _RACE_WORDS[race] if procedure in ("secret_door", "listen") else ""
    for n in range(rollers):
        label = f"{result.check}{f' ({who})' if who else ''}" + (f", {n + 1} of {rollers}" if rollers > 1 else "")
        roll = dice.roll(die, label)
        result.rolls.append(roll)
        if procedure == "trap" and result.hit(roll):
            break  # sprung by this character: those behind do not roll
    return result


# --------------------------------------------------------------------------- the move/turn and rest


class UnderworldClock(Model):
    """Turns underground: how many passed, how many since the last rest, and the rest now owed."""

    turns: int = 0
    since_rest: int = 0
    fled: bool = False  # a flight or pursuit since the last rest: the rest is doubled
    rested: int = 0  # turns of the rest due already taken

    def describe(self) -> str:
        return f"{self.turns} turn(s) underground, {self.since_rest} since the last rest" + (
            ", a flight since (the rest doubled)" if self.fled else ""
        )


Activity = Literal["move", "flight", "other", "rest"]


class UnderworldStep(Model):
    """What ``turns`` turns of an activity did: moves, feet, mapping, and the rest due or taken."""

    activity: Activity
    turns: int
    moves_per_turn: int = 0
    feet: int = 0
    rest_turns_due: int = 0  # after this step: turns of rest owed now (0: none due yet)
    rested: int = 0
    clock: UnderworldClock

    def describe(self) -> str:
        if self.activity == "rest":
            head = f"Rested {self.rested} turn(s) motionless"
        elif self.activity == "other":
            head = f"{self.turns} turn(s) spent searching, listening or the like"
        else:
            mapping = "; no mapping allowed" if self.activity == "flight" else ""
            what = "in flight or pursuit" if self.activity == "flight" else "moving"
            head = f"{self.turns} turn(s) {what}: {self.moves_per_turn} moves a turn, {self.feet} feet{mapping}"
        due = f"; a rest of {self.rest_turns_due} turn(s) is due" if self.rest_turns_due else ""
        return f"{head}{due}. {self.clock.describe()}."


def time_number(library: TableLibrary, key: str) -> int:
    """A number of the underworld time table (``TIME_TEXT``'s keys), the text's without the row."""
    return rule_number(library, TIME_TABLE, key, TIME_TEXT[key])


def check_on(library: TableLibrary, key: str, default: str) -> str:
    """The faces a check succeeds on as the underworld checks table prints them ("1-2"), ``default`` without it."""
    row = library.get(CHECKS_TABLE).find_key(key) if CHECKS_TABLE in library else None
    return row.fields.get("on", default) if row is not None else default


def max_forcers(library: TableLibrary) -> int:
    """How many characters may force a door together, as the underworld time table prints it."""
    return rule_number(library, TIME_TABLE, "Characters forcing a door", MAX_FORCERS)


def wall_searched(library: TableLibrary) -> str:
    """The length of wall a turn of searching covers, as the underworld time table prints it ("10 feet")."""
    return rule_text(library, TIME_TABLE, "Wall searched in a turn") or WALL_SEARCHED


def time_value(table: Table, key: str) -> int:
    """A count of the underworld time table (moves per turn, feet per inch...)."""
    return _value(table, key)


def _value(table: Table, key: str) -> int:
    row = table.find_key(key)
    if row is None:
        raise ToolInputError(f"{table.title} has no row {key!r}.")
    return int(row.fields["value"])


def turns_per_hour(table: Table) -> int:
    """Turns in an hour, from the time table's minutes per turn (10: six turns)."""
    return MINUTES_PER_HOUR // max(1, _value(table, "Minutes per turn"))


def rest_owed(table: Table, clock: UnderworldClock) -> int:
    """Turns of rest due now: one each hour (doubled after a flight), once the hour's other turns are spent."""
    rest = _value(table, "Rest turns per hour") * (_value(table, "Rest after a flight or pursuit") if clock.fled else 1)
    active = turns_per_hour(table) - _value(table, "Rest turns per hour")
    return max(0, rest - clock.rested) if clock.since_rest >= active else 0


def underworld_turns(table: Table, clock: UnderworldClock, activity: Activity, turns: int = 1, speed: int = 6) -> UnderworldStep:
    """Spend ``turns`` turns: moving at ``speed`` (inches, as in Vol. 1), fleeing (moves doubled), other
    business, or resting. Moving on while a rest is due is refused (a flight never is: the rest is doubled)."""
    in_range("Turns", turns, 1, MAX_TURNS)
    in_range("Speed (inches)", speed, 1, MAX_SPEED)
    owed = rest_owed(table, clock)
    if activity == "rest":
        after = clock.model_copy(update={"turns": clock.turns + turns, "rested": clock.rested + turns})
        if turns >= owed:  # the rest due is complete (a rest before one is due starts the hour afresh)
            after = after.model_copy(update={"since_rest": 0, "fled": False, "rested": 0})
        return UnderworldStep(activity=activity, turns=turns, rested=turns, clock=after, rest_turns_due=rest_owed(table, after))
    if activity in ("move", "other") and owed:
        raise ToolInputError(f"A rest of {owed} turn(s) is due: 1 turn every hour must be spent motionless. Rest first.")
    left = turns_per_hour(table) - _value(table, "Rest turns per hour") - clock.since_rest
    if activity in ("move", "other") and turns > left:
        raise ToolInputError(f"Only {left} turn(s) before the hour's rest: spend those, rest, then go on.")
    moves = 0
    if activity == "move":
        moves = _value(table, "Moves per turn")
    elif activity == "flight":
        moves = _value(table, "Moves per turn in flight or pursuit")
    after = clock.model_copy(
        update={"turns": clock.turns + turns, "since_rest": clock.since_rest + turns, "fled": clock.fled or activity == "flight"}
    )
    feet = moves * turns * speed * _value(table, "Feet per inch")
    return UnderworldStep(
        activity=activity, turns=turns, moves_per_turn=moves, feet=feet, clock=after, rest_turns_due=rest_owed(table, after)
    )
