"""Aerial and naval combat's dice: a crash, a bomb's fall, water shipped, a ram, a patch, shearing oars, grappling.

Every chance and count is read from ``classic.air_sea`` as printed (its rules quoted there);
the code reads "10%", "3 turns", "1 d6" and rolls the dice written in a cell ("10% to 60%",
"3-18") through the table roller.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.dice.tables import Table, TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import a_die, percent_die, rule_die, rule_number, rule_range
from d100gui.engine.toolbox.inputs import ToolInputError, in_range

__all__ = [
    "AIR_SEA_TABLE",
    "Bombing",
    "Crash",
    "NavalAction",
    "bomb",
    "bomb_dice",
    "crash",
    "direct_hit",
    "grapple_attempts",
    "naval",
]

AIR_SEA_TABLE = "classic.air_sea"
BOMB_DICE = "2d6"  # "To determine where the bomb hits, roll 2d6": the text's, without the row
DIRECT_HIT = 7  # "a score of 7 indicating a direct hit": the text's, for a summary without the row
PATCH_TURNS = 5  # "Patching a hole below the waterline requires 5 turns of work": the text's, without the row
GRAPPLE_ATTEMPTS = 3  # "Allow 3 grappling attempts per ship": the text's, for a label without the row
MAX_HEIGHT = 100  # inches: a bound on typing
MAX_TURNS = 60
MAX_CREW = 10_000
_NUMBER = re.compile(r"\d+")
#: "A die is also rolled to determine where the bomb lands 1, 2 it is left || right; 3, 4 it is left || right and
#: short || long; and 5, 6 it is short || long": classic.air_sea's rows (key, the way, the text's faces without them)
BOMB_LANDING = (
    ("Bomb lands: left or right", "left or right", (1, 2)),
    ("Bomb lands: left or right, and short or long", "left or right, and short or long", (3, 4)),
    ("Bomb lands: short or long", "short or long", (5, 6)),
)


def bomb_landing(library: TableLibrary) -> tuple[tuple[int, int, str], ...]:
    """(low face, high face, way) for the bomb's direction die, as classic.air_sea prints them."""
    return tuple((*rule_range(library, AIR_SEA_TABLE, key, faces), way) for key, way, faces in BOMB_LANDING)


def _way(landing: tuple[tuple[int, int, str], ...], face: int) -> str:
    """The way a bomb misses on ``face``; a face no row names lands short or long (the text's last row)."""
    return next((way for low, high, way in landing if low <= face <= high), BOMB_LANDING[-1][1])


def _number(table: Table, key: str) -> int:
    row = table.find_key(key)
    if row is None:
        raise ToolInputError(f"{table.title} has no row {key!r}.")
    found = _NUMBER.search(row.fields["value"])
    if found is None:
        raise ToolInputError(f"{table.title}: no number in {row.fields['value']!r}.")
    return int(found.group())


def _percent_roll(roller: TableRoller, chance: int, purpose: str) -> tuple[RollRecord, bool]:
    roll = roller.dice.roll(percent_die(roller.library), f"{purpose} ({chance}%)?")
    return roll, roll.final <= chance


# --------------------------------------------------------------------------- aerial


class Crash(Model):
    """A flyer crashes from a height: a d6 for every inch, the total scored on its rider."""

    height: int
    roll: RollRecord

    def describe(self) -> str:
        return f'Crash from {self.height}": {self.height}d6 = {self.roll.final} damage to the rider.'


def crash(roller: TableRoller, height: int) -> Crash:
    table = roller.library.get(AIR_SEA_TABLE)
    in_range("Height (inches)", height, 1, MAX_HEIGHT)
    per_inch = _number(table, "Crash damage per inch of height")
    return Crash(height=height, roll=roller.dice.roll(f"{height * per_inch}d6", f"crash from {height} inches"))


class Bombing(Model):
    """Where a bomb falls: 2d6, 7 a direct hit; otherwise a die per point off 7 for the inches of the miss, and a die for which way."""

    roll: RollRecord
    direct: int
    miss_roll: RollRecord | None = None
    where_roll: RollRecord | None = None
    way: str = ""  # the landing row the where roll fell on ("left or right"), read when it was rolled

    @property
    def hit(self) -> bool:
        return self.roll.final == self.direct

    def describe(self) -> str:
        if self.hit:
            return f"Bomb: {self.roll.expression.removeprefix('1')} {self.roll.final}: a direct hit."
        assert self.miss_roll is not None and self.where_roll is not None
        under = self.roll.final < self.direct
        way = self.way or _way(bomb_landing(TableLibrary([])), self.where_roll.final)
        way = way.replace("left or right", "left" if under else "right").replace("short or long", "short" if under else "long")
        off = abs(self.roll.final - self.direct)
        return f'Bomb: {self.roll.expression.removeprefix("1")} {self.roll.final} ({off} off {self.direct}): misses by {self.miss_roll.final}" ({self.miss_roll.expression}), {way} of the target (die {self.where_roll.final}).'


def bomb_dice(library: TableLibrary) -> str:
    """The dice of where a bomb hits, as the air and sea table prints them ("roll 2d6")."""
    return rule_die(library, AIR_SEA_TABLE, "Bomb: where it hits", BOMB_DICE)


def direct_hit(library: TableLibrary) -> int:
    """The bomb's score for a direct hit, as the air and sea table prints it."""
    return rule_number(library, AIR_SEA_TABLE, "Bomb: direct hit", DIRECT_HIT)


def grapple_attempts(library: TableLibrary) -> int:
    """Grappling (or cutting) attempts a ship may make in a turn, as the air and sea table prints them."""
    return rule_number(library, AIR_SEA_TABLE, "Attempts per turn", GRAPPLE_ATTEMPTS)


def bomb(roller: TableRoller) -> Bombing:
    table = roller.library.get(AIR_SEA_TABLE)
    direct = _number(table, "Bomb: direct hit")
    roll = roller.dice.roll(bomb_dice(roller.library), "where the bomb hits")
    result = Bombing(roll=roll, direct=direct)
    if not result.hit:
        off = abs(roll.final - direct)
        die = a_die(roller.library)  # "3 dice are rolled for the distance in inches of the miss": bare dice
        result.miss_roll = roller.dice.roll(f"{off}{die.removeprefix('1')}", "the bomb's miss (inches)")
        result.where_roll = roller.dice.roll(die, "which way the bomb misses")
        result.way = _way(bomb_landing(roller.library), result.where_roll.final)
    return result


# --------------------------------------------------------------------------- naval

NavalKind = Literal["ship_water", "ram", "patch", "grapple", "cut_grapple", "shear"]


class NavalAction(Model):
    """One naval procedure: its rolls and the outcome in words and numbers."""

    kind: NavalKind
    rolls: list[RollRecord] = Field(default_factory=list)
    lines: list[str] = Field(default_factory=list)
    speed_lost: int = 0  # percent, after shipping water
    sunk: bool = False
    succeeded: bool = False  # a grapple or a cut that held; a patch that held; a hole made by a ram

    def describe(self) -> str:
        return " ".join(self.lines)


def _ship_water(roller: TableRoller, table: Table, turns: int, speed_lost: int) -> NavalAction:
    chance, loss, sinks = (_number(table, k) for k in ("Shipping water", "Speed lost to water shipped", "Sinks at speed lost"))
    result = NavalAction(kind="ship_water", speed_lost=speed_lost)
    for turn in range(1, turns + 1):
        roll, shipped = _percent_roll(roller, chance, f"turn {turn}: the galley ships water")
        result.rolls.append(roll)
        if shipped:
            result.speed_lost += loss
            result.lines.append(f"Turn {turn}: {roll.final}, water shipped: {result.speed_lost}% of SPEED lost.")
            if result.speed_lost >= sinks:
                result.sunk = True
                result.lines.append(f"{sinks}% of its SPEED lost: the galley sinks.")
                break
    if not result.sunk:
        result.lines.append(f"{turns} turn(s) in a fresh to strong breeze: {result.speed_lost}% of SPEED lost in all.")
    return result


def _ram(roller: TableRoller, table: Table, side: bool, oared: bool, crew: int) -> NavalAction:
    read = roller.read(AIR_SEA_TABLE, key="Ram damage", column="value", purpose="ram damage")
    damage = sum(d.value or 0 for d in read.dice)
    result = NavalAction(kind="ram", rolls=[d.roll for d in read.dice if d.roll is not None])
    result.lines.append(f"Rammed: {damage}% damage.")
    holed, is_holed = _percent_roll(roller, _number(table, "Holed below the waterline"), "holed below the waterline")
    result.rolls.append(holed)
    if is_holed:
        sinks = roller.read(AIR_SEA_TABLE, key="Sinks in", column="value", purpose="turns until it sinks")
        turns = sum(d.value or 0 for d in sinks.dice)
        result.succeeded = True
        result.lines.append(f"Holed below the waterline ({holed.final}): it sinks in {turns} turns unless patched.")
    else:
        result.lines.append(f"Not holed ({holed.final}).")
    lost = _number(table, "Crew lost: rammed in the side" if side else "Crew lost: rammed astern or bow on")
    men = crew * lost // 100
    where = "in the side" if side else "astern or bow on"
    share = _number(table, "Rowers among them")
    rowers = f", {share}% of the crew being rowers" if side and oared else ""
    among = f", {crew * share // 100} of them rowers" if side and oared and crew else ""
    result.lines.append(f"Struck {where}: {lost}% of the crew lost{rowers}" + (f" ({men} of {crew}{among})." if crew else "."))
    return result


def naval(
    roller: TableRoller,
    kind: NavalKind,
    turns: int = 1,
    speed_lost: int = 0,
    side: bool = True,
    oared: bool = True,
    crew: int = 0,
    attempts: int = 1,
    rowers: int = 0,
    sheared_before: bool = False,
) -> NavalAction:
    """Run one naval procedure: water shipped over ``turns``, a ram (``side`` or astern/bow on), a patch, up to
    3 grapple or cut ``attempts``, oars sheared (``rowers`` on that side)."""
    table = roller.library.get(AIR_SEA_TABLE)
    in_range("Turns", turns, 1, MAX_TURNS)
    in_range("SPEED already lost (%)", speed_lost, 0, 100)
    in_range("Crew", crew, 0, MAX_CREW)
    in_range("Rowers on that side", rowers, 0, MAX_CREW)
    if kind == "ship_water":
        return _ship_water(roller, table, turns, speed_lost)
    if kind == "ram":
        return _ram(roller, table, side, oared, crew)
    if kind == "patch":
        roll, fails = _percent_roll(roller, _number(table, "Patch fails"), "the patch fails")
        work = rule_number(roller.library, AIR_SEA_TABLE, "Patch work", PATCH_TURNS)
        line = f"the patch does not hold: another {work} turns to replace it" if fails else "the patch holds"
        return NavalAction(kind=kind, rolls=[roll], succeeded=not fails, lines=[f"Patch ({roll.final}): {line}."])
    if kind in ("grapple", "cut_grapple"):
        in_range("Attempts this turn", attempts, 1, _number(table, "Attempts per turn"))
        key = "Grapple" if kind == "grapple" else "Cut a grapple"
        chance = _number(table, key)
        result = NavalAction(kind=kind)
        for n in range(1, attempts + 1):
            roll, done = _percent_roll(roller, chance, f"{key.lower()}, attempt {n}")
            result.rolls.append(roll)
            if done:
                result.succeeded = True
                break
        rolled = ", ".join(str(r.final) for r in result.rolls)
        outcome = (
            ("grappled: both ships dead in the water; they may board" if kind == "grapple" else "the grapple is cut")
            if result.succeeded
            else "no success this turn"
        )
        result.lines.append(f"{key} ({chance}% each; {rolled}): {outcome}.")
        return result
    killed = rowers * _number(table, "Rowers killed by shearing") // 100
    dead = _number(table, "Dead in the water after shearing")
    after = (
        "it can no longer move by rowing" if sheared_before else f"dead in the water for {dead} turns, then at 1/2 SPEED at most"
    )
    also = "A rowed ship that shears them loses its own oars on that side the same way, unless its orders shipped them."
    return NavalAction(kind=kind, lines=[f"Oars sheared: {killed} of {rowers} rowers on that side killed; {after}.", also])
