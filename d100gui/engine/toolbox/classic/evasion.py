"""Evading monsters, then being pursued: in the wilderness, and in the underworld.

Wilderness evasion reads a chance from the party's size and the share of the possible number
of monsters met, then applies the modifiers in this order: surprise by the party doubles it;
surprise by the monsters wipes it out unless the party has magic to use or is in woods
(woods then give 10%); woods otherwise add 25%; a side at least twice as fast as the other
moves it 25% its way, surprise or not. Percentile dice at or under the chance evade.
Failing, the pursuit runs hex by hex: a random direction (d6), a faster monster catches the
party on 50% (25% in woods or swamp), and a die decides whether the chase goes on; each hex
costs half a day of rest. Underground, monsters follow a fleeing party in a straight line
while within 90 feet; round a corner, through a door or on stairs they follow on 1-2 on a
d6, through a secret door on a 1; food distracts them by their wits, and a surprised
character drops something on 25%.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import Dice, RollRecord, expression_range
from d100gui.engine.dice.tables import Row, Table
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import A_DIE, PERCENT_DIE
from d100gui.engine.toolbox.inputs import ToolInputError, in_range

__all__ = [
    "EVASION_TABLE",
    "Evasion",
    "Pursuit",
    "UnderworldPursuit",
    "evade",
    "pursue",
    "underworld_pursuit",
]

EVASION_TABLE = "classic.wilderness_evasion"
PARTY_BANDS = ((1, 3), (4, 9), (10, 24), (25, None))
SHARE_BANDS = (25, 60)  # 25% or less, 26-60%, over 60%
SHARE_ROWS = len(SHARE_BANDS) + 1  # rows per party band
PURSUIT_TABLE = "classic.pursuit"
PURSUIT_GOES_ON = 3  # the die that decides whether the chase goes on: 1-3 it does
MAX_PURSUIT_HEXES = 60
REST_PER_HEX = 0.5  # days of rest owed for each hex of pursuit
MAX_PARTY = 100_000
Surprise = Literal["none", "party", "monsters"]  # who surprised whom: "party" = the party surprised the monsters
Speed = Literal["even", "party", "monsters"]  # which side is at least twice as fast
Wits = Literal["intelligent", "semi-intelligent", "non-intelligent"]
Escape = Literal["straight", "corner", "secret_door"]
#: "the monster will continue to pursue in a straight line as long as there is not more than 90 feet": no number
#: of the text, only "always": the top face of the chase die (classic.dice's bare "die"), so every face follows
STRAIGHT_ON = expression_range(A_DIE)[1]
_NUMBER = re.compile(r"\d+")
_FRACTION = re.compile(r"(\d+)\s*/\s*(\d+)")


class PursuitNumbers(Model):
    """The evasion and pursuit numbers, read from ``classic.pursuit`` (the text's own, the defaults, when the
    player's tables lack it)."""

    catch: int = 50
    cover: int = 25  # woods or swamp reduce the catch
    woods: int = 25  # woods add to evasion
    woods_surprised: int = 10
    speed_shift: int = 25
    straight_line: int = 90
    corner: int = 2
    secret_door: int = 1
    drop: int = 25
    food: dict[str, int] = Field(default_factory=lambda: {"intelligent": 10, "semi-intelligent": 50, "non-intelligent": 90})
    rest_per_hex: float = REST_PER_HEX  # days of rest owed for each hex of pursuit ("one-half day")
    goes_on: int = PURSUIT_GOES_ON  # the chase die's faces that keep the pursuit going: 1 to this
    die: str = A_DIE  # the text's bare "die" (classic.dice)
    surprise_factor: int = 2  # "Surprise by the party means that the chances of evasion are doubled."
    speed_factor: int = 2  # "one is at least twice as fast as the other"
    cornered_feet: int = 20  # "no chance for avoiding if the monster has surprised the adventurers and is within 20 feet"
    percent: str = PERCENT_DIE  # the die a printed chance is rolled on (classic.dice)

    def follow_on(self, escape: Escape) -> int:
        always = expression_range(self.die)[1]  # "continue to pursue in a straight line": any face of the chase die
        return {"straight": always, "corner": self.corner, "secret_door": self.secret_door}[escape]

    def treasure(self, wits: Wits) -> int:
        """ "Treasure will have the opposite reaction of food": food's chances reversed (the clever stop likeliest)."""
        return self.food[{"intelligent": "non-intelligent", "non-intelligent": "intelligent"}.get(wits, wits)]


_PURSUIT_KEYS = {
    "catch": "Caught by a faster monster", "cover": "Woods or swamp reduce the catch", "woods": "Woods add to evasion",
    "woods_surprised": "Evasion in woods when surprised", "speed_shift": "One side twice as fast",
    "straight_line": "Straight line", "corner": "Corner, door or stairs", "secret_door": "Secret door",
    "drop": "Drops an item when surprised", "surprise_factor": "Surprise by the party: evasion times",
    "speed_factor": "Twice as fast: at least times", "cornered_feet": "No avoiding within",
}  # fmt: skip


def pursuit_numbers(table: Table | None) -> PursuitNumbers:
    """The numbers as ``table`` prints them; a row it lacks keeps the text's number."""
    if table is None:
        return PursuitNumbers()
    found: dict[str, object] = {}
    for name, key in _PURSUIT_KEYS.items():
        row = table.find_key(key)
        number = _NUMBER.search(row.fields.get("value", "")) if row is not None else None
        if number is not None:
            found[name] = int(number.group())
    food = dict(PursuitNumbers().food)
    for wits in food:
        row = table.find_key(f"Food: {wits}")
        number = _NUMBER.search(row.fields.get("value", "")) if row is not None else None
        if number is not None:
            food[wits] = int(number.group())
    row = table.find_key("Rest per hex of pursuit")
    value = row.fields.get("value", "") if row is not None else ""
    rest, whole = _FRACTION.search(value), _NUMBER.search(value)
    if rest is not None and int(rest.group(2)):
        found["rest_per_hex"] = int(rest.group(1)) / int(rest.group(2))  # "1/2 day"
    elif whole is not None:
        found["rest_per_hex"] = float(whole.group())  # "1 day"
    row = table.find_key("Pursuit goes on")
    faces = _NUMBER.findall(row.fields.get("value", "")) if row is not None else []
    if faces:
        found["goes_on"] = int(faces[-1])
    return PursuitNumbers.model_validate({**found, "food": food})


class Evasion(Model):
    """The base chance, each modifier as it was applied, the roll, and the pursuit when evasion failed."""

    row: str
    base: int
    steps: list[tuple[str, int]] = Field(default_factory=list)  # (why, chance after)
    chance: int
    roll: RollRecord
    pursuit: Pursuit | None = None

    @property
    def evaded(self) -> bool:
        return self.roll.final <= self.chance

    def describe(self) -> str:
        steps = "".join(f", {why} -> {after}%" for why, after in self.steps)
        head = f"Evasion ({self.row}): {self.base}%{steps}; rolled {self.roll.final}: " + (
            "evaded" if self.evaded else "not evaded"
        )
        return head + (f"\n{self.pursuit.describe()}" if self.pursuit else "")


class PursuitHex(Model):
    direction: RollRecord
    catch_roll: RollRecord | None = None  # only when the monsters are faster
    caught: bool = False
    goes_on: RollRecord | None = None


class Pursuit(Model):
    """The chase, hex by hex, until the party is caught or the pursuers give up."""

    catch_chance: int
    hexes: list[PursuitHex] = Field(default_factory=list)
    rest_per_hex: float = REST_PER_HEX  # as the pursuit table printed it when the chase was rolled
    goes_on: int = PURSUIT_GOES_ON

    @property
    def caught(self) -> bool:
        return any(h.caught for h in self.hexes)

    @property
    def rest_days(self) -> float:
        return len(self.hexes) * self.rest_per_hex

    def describe(self) -> str:
        steps = []
        for n, h in enumerate(self.hexes, 1):
            text = f"hex {n} direction {h.direction.final}"
            if h.catch_roll is not None:
                text += f", catch {h.catch_roll.final} vs {self.catch_chance}%" + (" CAUGHT" if h.caught else "")
            if h.goes_on is not None:
                text += f", chase die {h.goes_on.final}" + (
                    ": it goes on" if h.goes_on.final <= self.goes_on else ": they give up"
                )
            steps.append(text)
        end = "Caught: melee" if self.caught else "The pursuit is over"
        faster = "" if self.catch_chance else " (the monsters are not faster: they cannot catch the party)"
        return f"Pursuit{faster}: {'; '.join(steps)}. {end}; {self.rest_days:g} day(s) of rest owed"


def _party_band(size: int) -> int:
    return next(i for i, (lo, hi) in enumerate(PARTY_BANDS) if size >= lo and (hi is None or size <= hi))


def _share_band(monsters: int, possible: int) -> int:
    share = monsters * 100 / possible
    return 0 if share <= SHARE_BANDS[0] else 1 if share <= SHARE_BANDS[1] else 2


def _percent(text: str) -> int:
    return int(text.strip().rstrip("%"))


def _printed_row(table: Table, party: int, share: float) -> Row | None:
    """The row whose printed party band ("1-3", "25+") holds ``party`` and whose printed share band ("25% or
    less", "26-60%", "Over 60%": read by their top) is the first to hold ``share``; None if the rows do not
    read so."""
    for row in table.rows:
        sizes = [int(n) for n in _NUMBER.findall(row.fields.get("party", ""))]
        shares = [int(n) for n in _NUMBER.findall(row.fields.get("monsters", ""))]
        if not sizes or not shares:
            return None
        open_ended = "+" in row.fields.get("party", "")
        if party < sizes[0] or (not open_ended and party > sizes[-1]):
            continue
        if row.fields.get("monsters", "").strip().lower().startswith("over") or share <= shares[-1]:
            return row
    return None


def evasion_chance(table: Table, party: int, monsters: int, possible: int) -> tuple[str, int]:
    """The row (party band / share band) and its printed chance, the bands read from the rows as printed
    (the text's bands, by row order, if the rows do not read so)."""
    row = _printed_row(table, party, monsters * 100 / possible)
    if row is None:
        row = table.rows[_party_band(party) * SHARE_ROWS + _share_band(monsters, possible)]
    return row.key, _percent(row.fields["chance"])


def _modified(base: int, surprise: Surprise, woods: bool, magic: bool, speed: Speed, n: PursuitNumbers) -> list[tuple[str, int]]:
    steps: list[tuple[str, int]] = []
    chance = base
    if surprise == "party":
        chance *= n.surprise_factor
        steps.append(
            (
                "the party surprised them: doubled"
                if n.surprise_factor == 2
                else f"the party surprised them: x{n.surprise_factor}",
                chance,
            )
        )
    if surprise == "monsters" and not magic:
        chance = n.woods_surprised if woods else 0
        steps.append(("surprised by the monsters" + (" in woods" if woods else ", no magic"), chance))
    elif woods:
        chance += n.woods
        steps.append((f"woods +{n.woods}", chance))
    if speed != "even":
        chance += n.speed_shift if speed == "party" else -n.speed_shift
        steps.append((f"{'the party' if speed == 'party' else 'the monsters'} twice as fast", chance))
    clamped = max(0, min(100, chance))
    if clamped != chance:
        steps.append(("kept within 0-100", clamped))
    return steps


MAX_SPEED = 480  # inches per move: a bound on typing, well above any speed the texts give


def speeds(party_speed: int, monster_speed: int, factor: int = 2) -> tuple[Speed, bool]:
    """From the two SPEEDs: which side (if any) is at least twice (``factor``, the pursuit table's) as fast, and
    whether the monsters are faster."""
    in_range("Party's speed", party_speed, 1, MAX_SPEED)
    in_range("Monsters' speed", monster_speed, 1, MAX_SPEED)
    f = factor
    twice: Speed = "party" if party_speed >= f * monster_speed else "monsters" if monster_speed >= f * party_speed else "even"
    return twice, monster_speed > party_speed


def evasion_inputs(party: int, monsters: int, possible: int) -> None:
    in_range("Party size", party, 1, MAX_PARTY)
    in_range("Monsters met", monsters, 1)
    if possible < monsters:
        raise ToolInputError(f"The possible number must be at least the number met ({monsters}); {possible} is out of range.")


def evade(
    dice: Dice,
    table: Table,
    party: int,
    monsters: int,
    possible: int,
    surprise: Surprise = "none",
    woods: bool = False,
    magic: bool = False,
    speed: Speed = "even",
    chase: bool = True,
    swamp: bool = False,
    party_speed: int = 0,
    monster_speed: int = 0,
    numbers: PursuitNumbers | None = None,
) -> Evasion:
    """Try to evade; when it fails and ``chase``, run the pursuit (woods or ``swamp`` make the party harder to catch).

    With both SPEEDs given (``party_speed``, ``monster_speed``), they decide the 25% shift (one at least
    twice the other) and the catch (a monster merely faster catches on 50%); without them ``speed`` says
    which side is twice as fast, and only a monster twice as fast can catch."""
    evasion_inputs(party, monsters, possible)
    n = numbers or PursuitNumbers()
    monsters_faster = speed == "monsters"
    if party_speed or monster_speed:
        speed, monsters_faster = speeds(party_speed, monster_speed, n.speed_factor)
    row, base = evasion_chance(table, party, monsters, possible)
    steps = _modified(base, surprise, woods, magic, speed, n)
    chance = steps[-1][1] if steps else base
    roll = dice.roll(n.percent, f"evasion ({chance}%)")
    result = Evasion(row=row, base=base, steps=steps, chance=chance, roll=roll)
    if not result.evaded and chase:
        result.pursuit = pursue(dice, monsters_faster, woods or swamp, n)
    return result


def pursue(dice: Dice, monsters_faster: bool, cover: bool, numbers: PursuitNumbers | None = None) -> Pursuit:
    """Hex by hex until caught, or until the chase die says the pursuers give up."""
    n = numbers or PursuitNumbers()
    chance = n.catch - (n.cover if cover else 0)
    pursuit = Pursuit(catch_chance=chance if monsters_faster else 0, rest_per_hex=n.rest_per_hex, goes_on=n.goes_on)
    for _ in range(MAX_PURSUIT_HEXES):
        step = PursuitHex(direction=dice.roll(n.die, "pursuit: direction"))
        if monsters_faster:
            step.catch_roll = dice.roll(n.percent, f"pursuit: caught ({chance}%)?")
            step.caught = step.catch_roll.final <= chance
        if not step.caught:
            step.goes_on = dice.roll(n.die, "pursuit: does it go on?")
        pursuit.hexes.append(step)
        if step.caught or (step.goes_on is not None and step.goes_on.final > n.goes_on):
            break
    return pursuit


class UnderworldPursuit(Model):
    """One moment of a chase underground: does the monster keep following, is it distracted, is anything dropped."""

    distance: int
    escape: Escape
    cornered: bool = False  # surprised within 20 feet by a monster that was not surprised: no avoiding it
    follow_roll: RollRecord | None = None
    food_roll: RollRecord | None = None
    food_chance: int = 0
    drop_roll: RollRecord | None = None
    treasure_roll: RollRecord | None = None
    treasure_chance: int = 0
    oil: bool = False  # burning oil thrown: it deters many monsters (the referee's call which)
    free_feet: int = 0  # a free move segment from surprising the monster, fled before it moves
    turn_change: int | None = None  # feet the gap opens (+) or closes (-) in a turn of flight, by the two speeds
    straight_line: int = 90  # the table's numbers this chase was read with
    follow_on: int = STRAIGHT_ON
    drop_chance: int = 25
    cornered_feet: int = 20  # the pursuit table's "within 20 feet"

    @property
    def distance_after(self) -> int:
        """The gap after the free segment and a turn of flight (the distance given when no speeds were)."""
        return max(0, self.distance + self.free_feet + (self.turn_change or 0))

    @property
    def follows(self) -> bool:
        if self.cornered:
            return True
        if self.distance_after > self.straight_line:
            return False
        if self.food_roll is not None and self.food_roll.final <= self.food_chance:
            return False
        if self.treasure_roll is not None and self.treasure_roll.final <= self.treasure_chance:
            return False
        return self.follow_roll is None or self.follow_roll.final <= self.follow_on

    def describe(self) -> str:
        if self.cornered:
            return f"No avoiding it: it surprised the party within {self.cornered_feet} feet (unless it was surprised too)."
        parts = [f"At {self.distance} feet"]
        if self.free_feet:
            parts.append(f"a free move segment (the monster was surprised): {self.free_feet} feet gained")
        if self.turn_change is not None:
            way = "opens" if self.turn_change >= 0 else "closes"
            parts.append(f"a turn of flight {way} the gap by {abs(self.turn_change)} feet: {self.distance_after} feet apart")
        if self.distance_after > self.straight_line:
            parts.append(f"more than {self.straight_line} feet apart: it stops")
        if self.follow_roll is not None:
            parts.append(f"{self.escape.replace('_', ' ')}: die {self.follow_roll.final}, follows on {self.follow_on} or less")
        if self.food_roll is not None:
            parts.append(f"food thrown: {self.food_roll.final} against {self.food_chance}%")
        if self.treasure_roll is not None:
            parts.append(f"treasure dropped: {self.treasure_roll.final} against {self.treasure_chance}%")
        if self.oil:
            parts.append("burning oil thrown: it deters many monsters (yours to judge whether this one)")
        if self.drop_roll is not None:
            parts.append(
                f"dropped an item ({self.drop_roll.final})" if self.drop_roll.final <= self.drop_chance else "dropped nothing"
            )
        parts.append("it keeps following" if self.follows else "it gives up the chase")
        return "; ".join(parts)


def underworld_pursuit(
    dice: Dice,
    distance: int,
    escape: Escape = "straight",
    food: Wits | None = None,
    surprised: bool = False,
    cornered: bool = False,
    treasure: Wits | None = None,
    oil: bool = False,
    party_speed: int = 0,
    monster_speed: int = 0,
    free_segment: bool = False,
    flight_moves: int = 4,
    feet_per_inch: int = 10,
    numbers: PursuitNumbers | None = None,
) -> UnderworldPursuit:
    """A fleeing party underground, ``distance`` feet ahead, escaping by ``escape``; ``food`` thrown to a monster of those
    wits, or ``treasure`` dropped (the opposite reaction: likelier to stop the clever), or burning ``oil``.

    With both speeds (inches), a turn of flight (``flight_moves`` moves, doubled from the usual) opens or closes the gap;
    ``free_segment`` (the party surprised the monster) gives the party one such turn before the monster moves."""
    in_range("Distance (feet)", distance, 0)
    n = numbers or PursuitNumbers()
    if cornered:
        return UnderworldPursuit(distance=distance, escape=escape, cornered=True, cornered_feet=n.cornered_feet)
    result = UnderworldPursuit(
        distance=distance, escape=escape, oil=oil, straight_line=n.straight_line, follow_on=n.follow_on(escape),
        drop_chance=n.drop,
    )  # fmt: skip
    if party_speed or monster_speed:
        in_range("Party's speed", party_speed, 1, MAX_SPEED)
        in_range("Monster's speed", monster_speed, 1, MAX_SPEED)
        result.turn_change = (party_speed - monster_speed) * flight_moves * feet_per_inch
        if free_segment:
            result.free_feet = party_speed * flight_moves * feet_per_inch
    if surprised:
        result.drop_roll = dice.roll(n.percent, f"surprised: drops an item ({n.drop}%)?")
    if result.distance_after > n.straight_line:
        return result
    if escape != "straight":
        result.follow_roll = dice.roll(n.die, f"does it follow ({escape})?")
    if food is not None:
        result.food_chance = n.food[food]
        result.food_roll = dice.roll(n.percent, f"distracted by food ({result.food_chance}%)?")
    if treasure is not None:
        result.treasure_chance = n.treasure(treasure)
        result.treasure_roll = dice.roll(n.percent, f"stopped by treasure dropped ({result.treasure_chance}%)?")
    return result
