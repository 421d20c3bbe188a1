"""Gems, jewelry and the treasure hoard of a dungeon level, every sub-roll expanded, valued in gold.

Gems: each gem's base value is rolled, then a d6: a 1 steps it up to the next category
(10, 50, 100, 500, 1000, then 5000 up to 500,000), and the die is rolled again for the
stepped-up gem; anything else leaves it where it is. Many gems are rolled in groups (of 5
above 10 gems, of 10 above 50), each group sharing its rolls. Jewelry: each piece's value
is the dice its base-value row names. The hoard reads the kind-of-treasure row for the level:
silver always (the base times a d6, or a d12 where the table says), gold half the time,
gems and jewelry each on their chance (their number a d6 or d12), magic on its chance.
"""

from __future__ import annotations

import re

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.levels import check_level, treasure_row_key
from d100gui.engine.toolbox.classic.magic import MagicFind, TreasureMap, magic_find
from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE, percent_die, rule_number, rule_numbers
from d100gui.engine.toolbox.inputs import in_range

__all__ = [
    "GEM_TABLE",
    "JEWELRY_TABLE",
    "STEP_UP_TABLE",
    "TREASURE_TABLE",
    "Gem",
    "Gems",
    "Hoard",
    "HoardPart",
    "Jewelry",
    "gem_categories",
    "hoard",
    "roll_gems",
    "roll_jewelry",
]

GEM_TABLE = "classic.gem_base_value"
STEP_UP_TABLE = "classic.gem_step_up"
ABOVE_1000_TABLE = "classic.gem_categories_above_1000"
JEWELRY_TABLE = "classic.jewelry_base_value"
TREASURE_TABLE = "classic.treasure_by_level"
GOLD_CHANCE = 50  # gold is there half the time
SILVER_PER_GOLD = 10  # the exchange rate: ten silver to the gold piece (read from the exchange-rate table when shipped)
EXCHANGE_TABLE = "classic.exchange_rate"
MAX_GEMS = 10_000
_NUMBER = re.compile(r"\d[\d,]*")


def _number(text: str) -> int:
    match = _NUMBER.search(text)
    if match is None:
        raise ValueError(f"{text!r} holds no number")
    return int(match.group(0).replace(",", ""))


def gem_categories(roller: TableRoller) -> list[int]:
    """Every gem category in gold pieces, lowest first, as the two gem tables print them."""
    base = [_number(r.fields["value"]) for r in roller.library.get(GEM_TABLE).rows]
    above = [_number(r.fields["value"]) for r in roller.library.get(ABOVE_1000_TABLE).rows]
    return sorted({*base, *above})


class Gem(Model):
    """A gem (or a group of ``count`` gems sharing their rolls): base value, step-up rolls, value each."""

    count: int = 1
    base: TableRoll
    steps: list[TableRoll] = Field(default_factory=list)
    value: int

    @property
    def stepped(self) -> int:
        return sum(1 for s in self.steps if s.row is not None and not s.row.implied)

    @property
    def total(self) -> int:
        return self.value * self.count

    def describe(self) -> str:
        group = f"{self.count} gems" if self.count > 1 else "gem"
        if self.base.row is None:
            return f"{group}: {self.base.describe()} (type the row when asked; counted at 0 GP till then)"
        up = f", stepped up {self.stepped}" if self.stepped else ""
        each = " each" if self.count > 1 else ""
        return f"{group}: base {_number(self.base.text):,} GP{up} -> {self.value:,} GP{each}"


class Gems(Model):
    gems: list[Gem] = Field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(g.count for g in self.gems)

    @property
    def total(self) -> int:
        return sum(g.total for g in self.gems)

    def describe(self) -> str:
        """Gems that kept their base value grouped by value ("100 GP x4"); each stepped-up gem told in full."""
        plain: dict[int, int] = {}
        for gem in self.gems:
            if not gem.stepped and gem.base.row is not None:
                plain[gem.value] = plain.get(gem.value, 0) + gem.count
        parts = [f"{value:,} GP" + (f" x{n}" if n > 1 else "") for value, n in sorted(plain.items())]
        parts += [g.describe() for g in self.gems if g.stepped or g.base.row is None]
        return f"{self.count} gem(s) worth {self.total:,} GP: " + "; ".join(parts)


GEM_GROUPS = (5, 10)  # "Roll a d6 for every gem (or group of 5 or 10 gems where large numbers are involved)"
GEM_GROUPS_OVER = (10, 50)  # a reading of "large numbers": in fives over 10 gems, in tens over 50


def _groups(count: int, sizes: tuple[int, ...] = GEM_GROUPS, over: tuple[int, ...] = GEM_GROUPS_OVER) -> list[int]:
    """Gems rolled one by one up to 10, in fives up to 50, in tens beyond (the rest in fives, then singly): the
    ``sizes`` and the counts they start ``over`` as the item rules table prints them."""
    small, large = (sizes + GEM_GROUPS[len(sizes) :])[:2]
    first, second = (over + GEM_GROUPS_OVER[len(over) :])[:2]
    size = 1 if count <= first else small if count <= second else large
    size = max(1, size)
    groups = [size] * (count // size)
    rest = count % size
    groups += [small] * (rest // small) + [1] * (rest % small) if size == large and small > 0 else [1] * rest
    return groups


def _gem(roller: TableRoller, categories: list[int], count: int) -> Gem:
    base = roller.roll(GEM_TABLE, "gem base value")
    if base.row is None:  # a row the player's tables lack: asked for like the dice panel's, counted at 0 till then
        return Gem(count=count, base=base, value=0)
    index = categories.index(_number(base.text))
    steps: list[TableRoll] = []
    while index < len(categories) - 1:
        step = roller.roll(STEP_UP_TABLE, "gem step-up")
        steps.append(step)
        if step.row is None or step.row.implied:
            break
        index += 1
    return Gem(count=count, base=base, steps=steps, value=categories[index])


def roll_gems(roller: TableRoller, count: int) -> Gems:
    """``count`` gems, each (or each group) with its base value and step-up rolls."""
    in_range("Number of gems", count, 1, MAX_GEMS)
    categories = gem_categories(roller)
    sizes = rule_numbers(roller.library, ITEM_RULES_TABLE, "Gems in a group", GEM_GROUPS)
    over = rule_numbers(roller.library, ITEM_RULES_TABLE, "Gems rolled in groups", GEM_GROUPS_OVER)
    return Gems(gems=[_gem(roller, categories, size) for size in _groups(count, sizes, over)])


class Jewelry(Model):
    pieces: list[TableRoll] = Field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(d.value or 0 for p in self.pieces for d in p.dice)

    def describe(self) -> str:
        values = ", ".join(f"{sum(d.value or 0 for d in p.dice):,}" for p in self.pieces)
        return f"{len(self.pieces)} piece(s) of jewelry worth {self.total:,} GP ({values})"


def roll_jewelry(roller: TableRoller, count: int) -> Jewelry:
    """``count`` pieces of jewelry, each valued by the dice of its base-value row."""
    in_range("Pieces of jewelry", count, 1, MAX_GEMS)
    return Jewelry(pieces=[roller.roll(JEWELRY_TABLE, "jewelry value") for _ in range(count)])


# --------------------------------------------------------------------------- a map's gems and jewelry

GEMS_LABEL = "Gems"
JEWELRY_LABEL = "Jewelry"


def value_map(roller: TableRoller, found: TreasureMap) -> TreasureMap:
    """A map's gems and jewelry valued like any others ("34 Gems; 4 Jewelry" rolled on the value tables)."""
    totals = found.totals()
    values: dict[str, int] = {}
    lines: list[str] = []
    if totals.get(GEMS_LABEL) and GEM_TABLE in roller.library:
        gems = roll_gems(roller, totals[GEMS_LABEL])
        values[GEMS_LABEL], lines = gems.total, [*lines, f"Gems: {gems.describe()}"]
    if totals.get(JEWELRY_LABEL) and JEWELRY_TABLE in roller.library:
        jewelry = roll_jewelry(roller, totals[JEWELRY_LABEL])
        values[JEWELRY_LABEL], lines = jewelry.total, [*lines, f"Jewelry: {jewelry.describe()}"]
    return found.model_copy(update={"values": values, "valuation": lines}) if values else found


def value_find(roller: TableRoller, find: MagicFind) -> MagicFind:
    """An item found, a map's gems and jewelry valued."""
    if find.map is None:
        return find
    return find.model_copy(update={"map": value_map(roller, find.map)})


# --------------------------------------------------------------------------- the hoard


class HoardPart(Model):
    """One column of the kind-of-treasure row: whether it is there, and how much."""

    printed: str
    chance: int = 100
    presence: RollRecord | None = None  # the percentile roll, where there is a chance
    base: int = 0
    multiplier: RollRecord | None = None  # the d6 / d12 the base is multiplied by (or the count of gems)

    @property
    def present(self) -> bool:
        return self.presence is None or self.presence.final <= self.chance

    @property
    def amount(self) -> int:
        if not self.present:
            return 0
        return self.base * (self.multiplier.final if self.multiplier else 1)


class Hoard(Model):
    """A treasure by level, every roll kept: metal, gems, jewelry, magic, and its value in gold."""

    level: int
    row: str
    silver: HoardPart
    gold: HoardPart
    gem_part: HoardPart
    jewelry_part: HoardPart
    magic_part: HoardPart
    gems: Gems | None = None
    jewelry: Jewelry | None = None
    magic: MagicFind | None = None
    silver_per_gold: int = SILVER_PER_GOLD

    @property
    def total_gp(self) -> int:
        """Silver at the exchange rate (10 to the gold piece), gold, gems and jewelry (magic is not valued)."""
        gems = self.gems.total if self.gems else 0
        jewelry = self.jewelry.total if self.jewelry else 0
        return self.silver.amount // self.silver_per_gold + self.gold.amount + gems + jewelry

    def lines(self) -> list[str]:
        lines = [f"Treasure, level {self.level} (row {self.row}): worth {self.total_gp:,} GP besides any magic"]
        lines.append(f"Silver: {self.silver.amount:,} SP")
        lines.append(f"Gold: {self.gold.amount:,} GP" if self.gold.present else "Gold: none")
        lines.append(f"Gems: {self.gems.describe()}" if self.gems else "Gems: none")
        lines.append(f"Jewelry: {self.jewelry.describe()}" if self.jewelry else "Jewelry: none")
        lines.append(f"Magic: {self.magic.describe()}" if self.magic else "Magic: none")
        return lines

    def describe(self) -> str:
        return "\n".join(self.lines())

    def short(self) -> str:
        """The hoard on one line (a stocked room's treasure)."""
        parts = [f"{self.silver.amount:,} SP"]
        if self.gold.present:
            parts.append(f"{self.gold.amount:,} GP")
        if self.gems:
            parts.append(f"{self.gems.count} gem(s) {self.gems.total:,} GP")
        if self.jewelry:
            parts.append(f"{len(self.jewelry.pieces)} jewelry {self.jewelry.total:,} GP")
        if self.magic:
            parts.append(f"magic: {self.magic.describe()}")
        return f"{', '.join(parts)} (worth {self.total_gp:,} GP)"


MARK_DICE = {"**": "d12", "*": "d6"}  # "* multiply by # rolled on a d6", "** ... on a d12": the text's notes
_MARK_NOTE = re.compile(r"^\s*(\*+)\s.*?\b(\d*d\d+)\b")


def mark_dice(library: TableLibrary) -> dict[str, str]:
    """The die each mark of the treasure table multiplies by, as its notes print them (longest mark first)."""
    found = dict(MARK_DICE)
    if TREASURE_TABLE in library:
        for note in library.get(TREASURE_TABLE).notes:
            match = _MARK_NOTE.match(note.text)
            if match:
                found[match.group(1)] = match.group(2)
    return dict(sorted(found.items(), key=lambda kv: -len(kv[0])))


def _part(roller: TableRoller, printed: str, purpose: str, chance: int | None = None) -> HoardPart:
    """A cell such as ``1000*`` (the base times a d6), ``5000**`` (times a d12), ``20% each*`` or ``05%``: the
    marks' dice are the treasure table's notes'."""
    die = next((d for mark, d in mark_dice(roller.library).items() if mark in printed), "")
    is_chance = "%" in printed
    chance = _number(printed) if is_chance else chance
    presence = (
        roller.dice.roll(percent_die(roller.library), f"{purpose}: is it there ({chance}%)?") if chance is not None else None
    )
    part = HoardPart(printed=printed, chance=chance if chance is not None else 100, presence=presence)
    if not part.present:
        return part
    multiplier = roller.dice.roll(die, f"{purpose}: times {die}") if die else None
    return part.model_copy(update={"base": 1 if is_chance else _number(printed), "multiplier": multiplier})


def silver_per_gold(roller: TableRoller) -> int:
    """Silver pieces to the gold piece, from the exchange-rate table (the text's 10 when the player lacks it)."""
    if EXCHANGE_TABLE not in roller.library:
        return SILVER_PER_GOLD
    row = roller.library.get(EXCHANGE_TABLE).find_key("sp")
    return _number(row.fields["per_gp"]) if row is not None and _NUMBER.search(row.fields.get("per_gp", "")) else SILVER_PER_GOLD


def hoard(roller: TableRoller, level: int) -> Hoard:
    """The treasure of a room on dungeon ``level``, with every sub-roll made and a total in gold."""
    check_level(level)
    table = roller.library.get(TREASURE_TABLE)
    key = treasure_row_key(table, level)
    row = table.find_key(key)
    assert row is not None  # treasure_row_key found it
    fields = row.fields
    silver = _part(roller, fields["silver"], "silver")
    gold_chance = rule_number(roller.library, ITEM_RULES_TABLE, "Gold in the treasure", GOLD_CHANCE)
    gold = _part(roller, fields["gold"], "gold", gold_chance)
    gem_part = _part(roller, fields["gems_jewelry"], "gems")
    jewelry_part = _part(roller, fields["gems_jewelry"], "jewelry")
    magic_part = _part(roller, fields["magic"], "magic")
    return Hoard(
        level=level,
        row=key,
        silver=silver,
        gold=gold,
        gem_part=gem_part,
        jewelry_part=jewelry_part,
        magic_part=magic_part,
        gems=roll_gems(roller, gem_part.amount) if gem_part.amount else None,
        jewelry=roll_jewelry(roller, jewelry_part.amount) if jewelry_part.amount else None,
        magic=value_find(roller, magic_find(roller)) if magic_part.present else None,
        silver_per_gold=silver_per_gold(roller),
    )
