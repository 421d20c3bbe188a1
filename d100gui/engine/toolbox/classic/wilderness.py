"""A day of wilderness travel on one terrain: movement, the lost check, the encounter checks.

A day is one wilderness turn. The party moves the hexes per day of its means of travel (the
movement table), less a hex for a party over 100 and two over 1,000; each hex costs the
terrain's movement (mountains and swamps 3, woods and deserts 2, a track less), and
exploring slows horsed parties to a draft horse and flyers to half. A party on foot, mounted
or flying may get lost (a d6 in the terrain's lost range; the direction is another d6 as
numbered on the hex board). At the end of the day a d6 in the terrain's encounter range
brings an encounter, rolled on the type table in the terrain's column and through to the
creature. Afloat or in the air two dice: a 5 on the first is a waterborne or aerial
encounter at mid-day, a 6 on the second the normal one at day's end; a ship that stays on
the water rolls once, an encounter on a 6 read on the type table as any met afloat (Men in the
Men table's Waterbourne column). A day of rest throws two dice instead of one, and
everyone must rest a full day after 6 days of movement.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import RollTree, TableRoller
from d100gui.engine.dice.tables import Link, Table, TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.magic import MagicItem, magic_item_by_link
from d100gui.engine.toolbox.classic.meeting import Meeting, distances, meet, meeting_numbers, surprise_face
from d100gui.engine.toolbox.classic.rules_data import percent_die, rule_fraction, rule_number, rule_range_dice
from d100gui.engine.toolbox.inputs import ToolInputError, in_range

__all__ = [
    "CHECK_TABLE",
    "MOVEMENT_TABLE",
    "TERRAINS",
    "Movement",
    "WildernessDay",
    "WildernessEncounter",
    "WildernessTrip",
    "means_of_travel",
    "wilderness_day",
    "wilderness_scale",
]

CHECK_TABLE = "classic.wilderness_lost_encounter"
TYPE_TABLE = "classic.wilderness_encounter_type"
MOVEMENT_TABLE = "classic.wilderness_movement"
COST_TABLE = "classic.wilderness_terrain_cost"
LARGE_PARTY_TABLE = "classic.wilderness_large_party"
FLYERS_TABLE = "classic.wilderness_flyers"
SWIMMERS_TABLE = "classic.wilderness_swimmers"
LEADER_MAGIC_TABLE = "classic.wilderness_leader_magic"
MEN_TABLE = "classic.wilderness_men"
WATERBORNE_MEN = "waterbourne"  # the Men table's column for a party afloat (the text's spelling)
FOLLOWERS = "2d6"  # a Fighting-Man, MU or Cleric met has 2-12 men of levels 1-4 of his class
TERRAINS = ("clear", "woods", "river", "swamp", "mountains", "desert", "city")
RULES_TABLE = "classic.wilderness_rules"
DAYS_BEFORE_REST = 6  # the text's numbers, used when the player's tables lack the rules table
MIDDAY_ON = 5  # afloat or in the air: a 5 on the first die
EVENING_ON = 6  # ... a 6 on the second, or the one die of a ship at sea
REST_DICE = 2  # a day of rest throws two encounter dice
_RULE_KEYS = {
    "rest_after": ("Days of movement before a rest", DAYS_BEFORE_REST),
    "midday": ("Mid-day encounter afloat or flying", MIDDAY_ON),
    "evening": ("End-of-day encounter afloat or flying", EVENING_ON),
    "at_sea": ("Ship continually at sea", EVENING_ON),
    "rest_dice": ("Encounter dice on a day of rest", REST_DICE),
}


def day_numbers(roller: TableRoller) -> dict[str, int]:
    """The wilderness day's numbers as the rules table prints them (each the text's when a row is missing)."""
    table = roller.library.get(RULES_TABLE) if RULES_TABLE in roller.library else None
    numbers = {}
    for name, (key, text_number) in _RULE_KEYS.items():
        row = table.find_key(key) if table is not None else None
        found = re.search(r"\d+", row.fields.get("value", "")) if row is not None else None
        numbers[name] = int(found.group()) if found else text_number
    return numbers


CHECK_DIE = "1d6"
AIR_EXPLORING = 0.5  # "exploration by air will be at 1/2 normal flying SPEED"
HEX_MILES, TURN_DAYS = 5, 1  # "the greatest distance across a hex is about 5 miles", "Each day is considered a turn"
MAX_PARTY = 100_000
#: the terrain cost rows for each terrain column (off a track, on one)
_COST_ROWS = {
    "mountains": ("Mountains", "Tracks through mountainous terrain"),
    "swamp": ("Swamps", "Tracks through woods or swamps"),
    "woods": ("Woods", "Tracks through woods or swamps"),
    "desert": ("Deserts", "Deserts"),
}
RIVER_CROSSING = "Crossing rivers at non-ford hexes"
_FIRST_NUMBER = re.compile(r"\d[\d,]*")
Mode = Literal["land", "water", "flying"]
EncounterKind = Literal["normal", "waterborne", "aerial"]


def _number(text: str, default: int = 1) -> int:
    match = _FIRST_NUMBER.search(text)
    return int(match.group(0).replace(",", "")) if match else default


def _in_range(text: str, value: int) -> bool:
    """Whether a die ``value`` falls in a printed range such as ``"1-3"``, ``"6"`` (``"---"``: never)."""
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    return bool(numbers) and numbers[0] <= value <= numbers[-1]


class WildernessTrip(Model):
    """The days of a trip so far and the days moved since the last day of rest (saved with the campaign)."""

    day: int = 0
    since_rest: int = 0
    rest_after: int = DAYS_BEFORE_REST  # days of movement before a day of rest (the rules table's)

    @property
    def rest_due(self) -> bool:
        return self.since_rest >= self.rest_after


class Movement(Model):
    """How far the day took the party, and why."""

    means: str
    mode: Mode
    printed: str  # the hexes as the table prints them ("15 (5)")
    pace: int  # hexes of movement before terrain (after exploring and party size)
    cost: int  # movement per hex of this terrain
    river_crossing: bool = False
    hexes: int
    notes: list[str] = Field(default_factory=list)

    def describe(self) -> str:
        why = "; ".join(self.notes)
        return f"Moved {self.hexes} hex(es) by {self.means} ({self.pace} movement, {self.cost} a hex{'; ' + why if why else ''})"


class EncounterDie(Model):
    """One encounter die: when it was thrown, what it needed, whether it brought an encounter."""

    when: str
    roll: RollRecord
    needed: str
    hit: bool


class LeaderItem(Model):
    """One magic item a leader met in the wilderness may carry: its printed chance, the roll, and the
    item itself, generated in full when he carries it (a sword complete, a wand named, a scroll's levels)."""

    item: str
    chance: int
    roll: RollRecord
    found: list[MagicItem] = Field(default_factory=list)

    @property
    def carried(self) -> bool:
        return self.roll.final <= self.chance

    def describe(self) -> str:
        if not self.found:
            return self.item
        return "; ".join(f"{self.item} ({found.describe()})" for found in self.found)


class WildernessEncounter(Model):
    """An encounter of the day: its kind and time, the creature rolled through, a leader's men and magic,
    surprise and distance."""

    kind: EncounterKind
    when: str
    tree: RollTree
    meeting: Meeting
    followers: RollRecord | None = None  # a leader's 2-12 men
    leader_items: list[LeaderItem] = Field(default_factory=list)

    def describe(self) -> str:
        chain = " -> ".join(n.roll.text for n in self.tree.walk())
        extra = "".join(f"; {d.describe()}" for n in self.tree.walk() for d in n.roll.dice)
        if self.followers is not None:
            carried = [i.describe() for i in self.leader_items if i.carried]
            extra += f"; with {self.followers.final} men of levels 1-4; magic: {', '.join(carried) or 'none'}"
        return f"Encounter ({self.kind}, {self.when}): {chain}{extra}; {self.meeting.describe()}"


class WildernessDay(Model):
    """Everything one day of travel (or rest) brought, and the trip after it."""

    terrain: str
    resting: bool
    movement: Movement | None = None
    lost_chance: str = ""
    lost_roll: RollRecord | None = None
    direction: RollRecord | None = None
    checks: list[EncounterDie] = Field(default_factory=list)
    encounters: list[WildernessEncounter] = Field(default_factory=list)
    trip: WildernessTrip

    @property
    def lost(self) -> bool:
        return self.lost_roll is not None and _in_range(self.lost_chance, self.lost_roll.final)

    def lines(self) -> list[str]:
        head = f"Day {self.trip.day} in {self.terrain}: " + ("a day of rest" if self.resting else "travel")
        lines = [head]
        if self.movement is not None:
            lines.append(self.movement.describe())
        if self.lost_roll is not None:
            lost = f"lost! heads off in direction {self.direction.final if self.direction else '?'} (as numbered on your hex board), one change of direction allowed"
            lines.append(f"Lost check {self.lost_roll.final} against {self.lost_chance}: " + (lost if self.lost else "on course"))
        for check in self.checks:
            lines.append(
                f"Encounter die ({check.when}) {check.roll.final}, needs {check.needed}: "
                + ("encounter" if check.hit else "nothing")
            )
        lines += [e.describe() for e in self.encounters]
        if self.trip.rest_due:
            lines.append(f"The party has moved {self.trip.since_rest} days: it must rest a full day next.")
        return lines

    def describe(self) -> str:
        return "\n".join(self.lines())


def means_of_travel(table: Table) -> list[tuple[str, Mode]]:
    """Every means of travel the movement table prints, with how it travels."""
    modes: dict[str, Mode] = {"land": "land", "water": "water", "flying": "flying"}
    return [(r.key, modes.get(r.fields.get("mode", ""), "land")) for r in table.rows]


def _cost(roller: TableRoller, terrain: str, track: bool) -> int:
    rows = _COST_ROWS.get(terrain)
    if rows is None:
        return 1
    row = roller.library.get(COST_TABLE).find_key(rows[1] if track else rows[0])
    return _number(row.fields["cost"]) if row is not None else 1


def _party_penalty(roller: TableRoller, party_size: int) -> int:
    penalty = 0
    for row in roller.library.get(LARGE_PARTY_TABLE).rows:
        if party_size > _number(row.key):
            penalty = max(penalty, _number(row.fields["penalty"]))
    return penalty


def day_movement(
    roller: TableRoller, means: str, terrain: str, party_size: int, exploring: bool, track: bool, crossing: bool
) -> Movement:
    """The hexes moved in a day: the means' pace, slowed by exploring and party size, spent at the terrain's cost."""
    table = roller.library.get(MOVEMENT_TABLE)
    row = table.find_key(means)
    if row is None:
        raise ToolInputError(f"{means!r} is not on the movement table: choose one of {', '.join(r.key for r in table.rows)}.")
    mode: Mode = dict(means_of_travel(table))[means]
    pace, notes = _number(row.fields["hexes"]), []
    if exploring and mode == "flying":
        share = rule_fraction(roller.library, RULES_TABLE, "Exploring by air", AIR_EXPLORING)
        half = "half" if share == AIR_EXPLORING else f"{share:g} of the"
        pace, notes = int(pace * share), [f"exploring by air: {half} pace"]
    elif exploring and "horse" in means.lower():
        draft = table.find_key("Draft Horse")
        pace, notes = (_number(draft.fields["hexes"]) if draft else pace), ["exploring: a draft horse's pace"]
    penalty = _party_penalty(roller, party_size)
    if penalty:
        pace, notes = max(0, pace - penalty), [*notes, f"large party: -{penalty}"]
    cost = 1 if mode != "land" else _cost(roller, terrain, track)
    hexes = pace // cost
    if crossing and mode == "land":
        river = roller.library.get(COST_TABLE).find_key(RIVER_CROSSING)
        crossing_cost = _number(river.fields["cost"]) if river else cost
        hexes = 1 + (pace - crossing_cost) // cost if pace >= crossing_cost else 0
        notes.append(f"a river crossed away from a ford costs {crossing_cost}")
    return Movement(means=means, mode=mode, printed=row.fields["hexes"], pace=pace, cost=cost,
                    river_crossing=crossing, hexes=hexes, notes=notes)  # fmt: skip


def _leader(roller: TableRoller, tree: RollTree) -> tuple[RollRecord | None, list[LeaderItem]]:
    """A Fighting-Man, MU or Cleric met: his 2-12 men, and a roll for each magic item his class may carry;
    each item he carries is rolled on the table its row links to, through to the finished item."""
    links = [link for n in tree.walk() for link in roller.links(n.roll) if link.table == LEADER_MAGIC_TABLE and link.key]
    if not links:
        return None, []
    followers = roller.dice.roll(rule_range_dice(roller.library, RULES_TABLE, "Men with a leader", FOLLOWERS), "the leader's men")
    table = roller.library.get(LEADER_MAGIC_TABLE)
    items = []
    for link in links:
        row = table.find_key(link.key)
        if row is None:
            continue
        chance = _number(row.fields.get("chance", "0"), 0)
        roll = roller.dice.roll(percent_die(roller.library), f"leader's {row.fields.get('item', link.key)} ({chance}%)?")
        item = LeaderItem(item=f"magic {row.fields.get('item', link.key)}", chance=chance, roll=roll)
        if item.carried:
            item = item.model_copy(update={"found": [magic_item_by_link(roller, found) for found in row.links]})
        items.append(item)
    return followers, items


def _afloat_type(roller: TableRoller, terrain: str) -> RollTree:
    """The type of a normal encounter met afloat: Men are read in the Waterbourne column, the rest as on land."""
    kind = roller.roll(TYPE_TABLE, f"type of encounter ({terrain}, afloat)", column=terrain)
    links = roller.links(kind)
    if not any(link.table == MEN_TABLE for link in links) or MEN_TABLE not in roller.library:
        return roller.expand(kind)
    [men] = roller.follow(Link(table=MEN_TABLE, column=WATERBORNE_MEN, label="Men afloat"), "Men met afloat")
    return RollTree(roll=kind, children=[roller.expand(men, label="Men afloat")])


def _encounter(roller: TableRoller, kind: EncounterKind, when: str, terrain: str, afloat: bool = False) -> WildernessEncounter:
    if kind == "normal" and afloat:
        tree = _afloat_type(roller, terrain)
    elif kind == "normal":
        tree = roller.roll_through(TYPE_TABLE, f"type of encounter ({terrain})", column=terrain)
    else:
        tree = roller.roll_through(FLYERS_TABLE if kind == "aerial" else SWIMMERS_TABLE, f"{kind} encounter")
    followers, items = _leader(roller, tree)
    meeting = meet(
        roller.dice, "wilderness", surprised_on=surprise_face(roller), at=distances(roller, "wilderness"),
        numbers=meeting_numbers(roller, "wilderness"),
    )  # fmt: skip
    return WildernessEncounter(kind=kind, when=when, tree=tree, meeting=meeting, followers=followers, leader_items=items)


def _checks(
    roller: TableRoller, mode: Mode, at_sea: bool, resting: bool, encounter_on: str, n: dict[str, int]
) -> list[tuple[EncounterDie, EncounterKind]]:
    """The day's encounter dice and the kind each brings on a hit."""
    dice = roller.dice
    if resting:
        rolls = [dice.roll(CHECK_DIE, f"encounter check, day of rest ({i})") for i in range(1, n["rest_dice"] + 1)]
        return [
            (EncounterDie(when="day of rest", roll=r, needed=encounter_on, hit=_in_range(encounter_on, r.final)), "normal")
            for r in rolls
        ]
    if mode == "land":
        roll = dice.roll(CHECK_DIE, "encounter check, end of day")
        return [
            (EncounterDie(when="end of day", roll=roll, needed=encounter_on, hit=_in_range(encounter_on, roll.final)), "normal")
        ]
    if mode == "water" and at_sea:  # "such an encounter": the type table's, read afloat (Men: the Waterbourne column)
        roll = dice.roll(CHECK_DIE, "encounter check, ship at sea")
        return [(EncounterDie(when="at sea", roll=roll, needed=str(n["at_sea"]), hit=roll.final == n["at_sea"]), "normal")]
    first = dice.roll(CHECK_DIE, "encounter check, mid-day")
    second = dice.roll(CHECK_DIE, "encounter check, end of day")
    kind: EncounterKind = "aerial" if mode == "flying" else "waterborne"
    return [
        (EncounterDie(when="mid-day", roll=first, needed=str(n["midday"]), hit=first.final == n["midday"]), kind),
        (EncounterDie(when="end of day", roll=second, needed=str(n["evening"]), hit=second.final == n["evening"]), "normal"),
    ]


def day_inputs(terrain: str, party_size: int, trip: WildernessTrip, resting: bool) -> None:
    """Refuse an unknown terrain, a party of none, or travel when a day of rest is due."""
    if terrain not in TERRAINS:
        raise ToolInputError(f"Terrain must be one of {', '.join(TERRAINS)}; {terrain!r} is not.")
    in_range("Party size", party_size, 1, MAX_PARTY)
    if trip.rest_due and not resting:
        raise ToolInputError(f"The party has moved {trip.since_rest} days in a row: it must rest a full day first.")


def wilderness_day(
    roller: TableRoller,
    trip: WildernessTrip,
    terrain: str,
    means: str = "Man on foot",
    party_size: int = 4,
    resting: bool = False,
    exploring: bool = False,
    track: bool = False,
    river_crossing: bool = False,
    at_sea: bool = False,
) -> WildernessDay:
    """One day on ``terrain``: movement and the lost check (unless resting), then the encounter dice."""
    day_inputs(terrain, party_size, trip, resting)
    check = roller.library.get(CHECK_TABLE)
    lost_row, encounter_row = check.find_key("Lost"), check.find_key("Encounter")
    assert lost_row is not None and encounter_row is not None  # the pack's two rows
    movement = None if resting else day_movement(roller, means, terrain, party_size, exploring, track, river_crossing)
    lost_chance, lost_roll, direction = lost_row.fields[terrain], None, None
    if movement is not None and movement.mode != "water" and _number(lost_chance, 0):
        lost_roll = roller.dice.roll(CHECK_DIE, f"lost check ({terrain})")
        if _in_range(lost_chance, lost_roll.final):
            direction = roller.dice.roll(CHECK_DIE, "direction the lost party takes")
    mode: Mode = movement.mode if movement is not None else "land"
    numbers = day_numbers(roller)
    checks = _checks(roller, mode, at_sea, resting, encounter_row.fields[terrain], numbers)
    encounters = [_encounter(roller, kind, die.when, terrain, mode == "water") for die, kind in checks if die.hit]
    after = WildernessTrip(day=trip.day + 1, since_rest=0 if resting else trip.since_rest + 1, rest_after=numbers["rest_after"])
    return WildernessDay(
        terrain=terrain, resting=resting, movement=movement, lost_chance=lost_chance if lost_roll else "",
        lost_roll=lost_roll, direction=direction, checks=[d for d, _ in checks], encounters=encounters, trip=after,
    )  # fmt: skip


def wilderness_scale(library: TableLibrary) -> tuple[int, int]:
    """(days in a wilderness turn, miles across a hex) as ``classic.wilderness_rules`` prints them."""
    return (
        rule_number(library, RULES_TABLE, "Days in a wilderness turn", TURN_DAYS),
        rule_number(library, RULES_TABLE, "Miles across a hex", HEX_MILES),
    )
