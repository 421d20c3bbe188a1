"""The magic item generator: magic or a map, the class of item, the item, and what each needs.

Every item found is first magic (75%) or a map (25%). Magic: the class table names the item
table; swords are completed (:mod:`.swords`), scrolls of spells get a level (d6) per spell and
a 25% chance to hold clerics' spells, potions a duration of 6 + d6 turns for those of limited
effect, and the item's own links (a curse's type, which dragons a potion controls) are rolled.
Maps: the kind of map, then its contents, with the rows they point at, the dice written in
them (how much silver, how many gems) and the items a magic map leads to, each generated in
full. The guardians of a map are the referee's: the text says he *may* roll them on the 5th or
6th level monster table, so the tool rolls them only on the table he picks.
"""

from __future__ import annotations

import re

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import RollTree, TableRoll, TableRoller
from d100gui.engine.dice.tables import Link, TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import (
    ITEM_RULES_TABLE,
    percent_die,
    rule_dice,
    rule_die,
    rule_number,
    rule_numbers,
)
from d100gui.engine.toolbox.classic.swords import SWORDS_TABLE, Sword, complete_sword
from d100gui.engine.toolbox.inputs import ToolInputError

__all__ = [
    "CLASS_TABLE",
    "GUARDIAN_LEVELS",
    "MAGIC_OR_MAP_TABLE",
    "MagicFind",
    "MagicItem",
    "TreasureMap",
    "check_guardians",
    "guardian_levels",
    "magic_find",
    "magic_item",
    "magic_item_by_link",
    "treasure_map",
]

MAGIC_OR_MAP_TABLE = "classic.magic_maps"
CLASS_TABLE = "classic.magic_items"
MAPS_TABLE = "classic.maps"
SCROLLS_TABLE = "classic.scrolls"
POTIONS_TABLE = "classic.potions"
SPELL_LEVEL_DIE = "1d6"  # a d6 per spell gives its level
CLERIC_SPELLS_CHANCE = 25  # a quarter of spell scrolls hold clerics' spells
POTION_DURATION = "1d6+6"  # a potion with a limited effect: six turns and a d6 more
#: the staves whose powers the text lists: the item's name -> the power tables it has (Wizardry has Power's too)
STAFF_POWERS = {
    "Staff of Power": ("classic.staff_of_power",),
    "Staff of Wizardry": ("classic.staff_of_power", "classic.staff_of_wizardry"),
}
#: the monster level tables the text offers for a map's guardians ("5th or 6th level monster clauses"): the
#: text's, used when the player's item rules table lacks the row :func:`guardian_levels` reads
GUARDIAN_LEVELS = (5, 6)
GUARDIANS_TABLE = "classic.monster_level_{}"
_SPELLS = re.compile(r"^(\d+) Spells?$")


class MagicItem(Model):
    """One magic item with every roll it needed."""

    kind: TableRoll | None = None  # the class roll (None where a map names the class: "1 a Potion")
    item: TableRoll
    sword: Sword | None = None
    spell_levels: list[RollRecord] = Field(default_factory=list)
    clerics: RollRecord | None = None  # the 25% roll for a scroll of spells
    clerics_chance: int = CLERIC_SPELLS_CHANCE  # as the item rules table prints it
    duration: RollRecord | None = None  # a potion's turns, if its effect is limited
    further: list[RollTree] = Field(default_factory=list)  # the item row's own links, rolled through
    powers: list[str] = Field(default_factory=list)  # a Staff of Power's or Wizardry's powers, as the text lists them

    @property
    def cleric_scroll(self) -> bool:
        return self.clerics is not None and self.clerics.final <= self.clerics_chance

    def describe(self) -> str:
        if self.sword is not None:
            return self.sword.describe()
        if self.item.row is None:  # a range the text never printed: say so, the dice history asks for the row
            return f"{self.item.describe()}: type the row from your rulebook when asked (or re-roll)"
        parts = [self.item.table_title + ": " + ", ".join([self.item.text, *(d.describe() for d in self.item.dice)])]
        if self.spell_levels:
            owner = "clerics'" if self.cleric_scroll else "magic-users'"
            parts.append(f"{owner} spells of level {', '.join(str(r.final) for r in self.spell_levels)}")
        if self.duration is not None:
            parts.append(f"lasts {self.duration.final} turns if its effect is limited")
        if self.powers:
            parts.append("powers: " + ", ".join(self.powers))
        for tree in self.further:
            parts.extend(node.roll.describe() for node in tree.walk())
        return "; ".join(parts)


class TreasureMap(Model):
    """A map: its kind, the contents rolled and read, and the items it leads to."""

    kind: TableRoll
    contents: list[TableRoll] = Field(default_factory=list)
    items: list[MagicItem] = Field(default_factory=list)
    guardians: RollTree | None = None  # rolled only when the referee picks their monster level
    values: dict[str, int] = Field(default_factory=dict)  # the gems' and jewelry's worth in GP, by label
    valuation: list[str] = Field(default_factory=list)  # each valued lot, told in full

    def totals(self) -> dict[str, int]:
        """What the dice written in the contents add up to, by what they count (Silver, Gems...)."""
        out: dict[str, int] = {}
        for roll in self.contents:
            for rolled in roll.dice:
                if rolled.value is not None:
                    out[rolled.spec.label] = out.get(rolled.spec.label, 0) + rolled.value
        return out

    def describe(self) -> str:
        found = [
            f"{n:,} {what}" + (f" worth {self.values[what]:,} GP" if what in self.values else "")
            for what, n in self.totals().items()
        ]
        found += [i.describe() for i in self.items]
        guarded = (
            f"guarded by {' -> '.join(n.roll.text for n in self.guardians.walk())} ({self.guardians.roll.table_title})"
            if self.guardians is not None
            else "guarded: the referee's choice"
        )
        valued = "".join(f"\n  {line}" for line in self.valuation)
        return f"{self.kind.text} to: " + ("; ".join(found) or "nothing the tables name") + f" ({guarded}){valued}"


class MagicFind(Model):
    """An item found: the magic-or-map roll, then the item or the map."""

    determination: TableRoll
    item: MagicItem | None = None
    map: TreasureMap | None = None

    def describe(self) -> str:
        if self.map is not None:
            return self.map.describe()
        if self.item is None and self.determination.row is None:
            return f"{self.determination.describe()}: type the row from your rulebook when asked (or re-roll)"
        return self.item.describe() if self.item else self.determination.describe()


def _staff_powers(roller: TableRoller, name: str) -> list[str]:
    """The listed powers of a Staff of Power or of Wizardry (none for other items, or tables the player lacks)."""
    staff = next((tables for staff, tables in STAFF_POWERS.items() if name.startswith(staff)), ())
    return [
        row.fields.get("power", row.key)
        for table_id in staff
        if table_id in roller.library
        for row in roller.library.get(table_id).rows
    ]


def _details(roller: TableRoller, kind: TableRoll | None, item: TableRoll) -> MagicItem:
    result = MagicItem(kind=kind, item=item)
    if item.table_id == SWORDS_TABLE:
        return result.model_copy(update={"sword": complete_sword(roller, item)})
    update: dict[str, object] = {}
    spells = _SPELLS.match(item.text)
    if item.table_id == SCROLLS_TABLE and spells:
        level_die = rule_die(roller.library, ITEM_RULES_TABLE, "Spell level on a scroll", SPELL_LEVEL_DIE)
        update["spell_levels"] = [roller.dice.roll(level_die, "spell level") for _ in range(int(spells.group(1)))]
        chance = rule_number(roller.library, ITEM_RULES_TABLE, "Clerics' spells on a scroll", CLERIC_SPELLS_CHANCE)
        update["clerics_chance"] = chance
        update["clerics"] = roller.dice.roll(percent_die(roller.library), f"clerics' spells ({chance}%)?")
    if item.table_id == POTIONS_TABLE:
        duration = rule_dice(roller.library, ITEM_RULES_TABLE, "A potion's limited effect", POTION_DURATION)
        update["duration"] = roller.dice.roll(duration, "potion duration")
    update["powers"] = _staff_powers(roller, item.text)
    update["further"] = [
        roller.expand(child, label=link.label)
        for link in roller.links(item)
        if not link.optional
        for child in roller.follow(link)
    ]
    return result.model_copy(update=update)


def _links(roller: TableRoller, roll: TableRoll) -> list[Link]:
    """The links ``roll``'s row asks for. A row the player typed has none: it reads the links of the printed row
    of its table that says the same (a typed "Wands/Staves" class goes on to the wands and staves table)."""
    links = roller.links(roll)
    if links or roll.row is None or not roll.row.user:
        return links
    said = [v.strip().casefold() for v in roll.row.fields.values() if v.strip()]
    for row in roller.library.get(roll.table_id).rows:
        if row.links and [v.strip().casefold() for v in row.fields.values() if v.strip()][: len(said)] == said:
            return [link for link in row.links if link.applies(roll.column)]
    return []


def magic_item(roller: TableRoller, reroll: list[tuple[int, int]] | None = None) -> MagicItem:
    """A magic item: the class (ignoring ``reroll`` ranges, "no swords"), then the item and its details."""
    kind = roller.follow(Link(table=CLASS_TABLE, reroll=reroll or []), "class of magic item")[0]
    links = _links(roller, kind)
    if kind.row is None or len(links) != 1:  # a class row the player's tables lack: asked for, the item waits for it
        return MagicItem(kind=kind, item=kind)
    [item] = roller.follow(links[0], f"magic item: {kind.text}")
    return _details(roller, kind, item)


def magic_item_of(roller: TableRoller, table_id: str) -> MagicItem:
    """An item of a class the text names ("1 a Potion"): rolled on that class's table."""
    return _details(roller, None, roller.roll(table_id, "magic item"))


def magic_item_by_link(roller: TableRoller, link: Link) -> MagicItem:
    """The item a link names, rolled in full: on the class table (ignoring the link's ``reroll`` classes,
    "a weapon") or on one item table (ignoring its ``reroll`` rows, "a wand", "a shield")."""
    if link.table == CLASS_TABLE:
        return magic_item(roller, link.reroll)
    [item] = roller.follow(link.model_copy(update={"times": "1"}), link.label or "magic item")
    return _details(roller, None, item)


def _contents(roller: TableRoller, roll: TableRoll, found: TreasureMap) -> TreasureMap:
    found = found.model_copy(update={"contents": [*found.contents, roll]})
    for link in roller.links(roll):
        if link.optional:
            continue
        if link.table == CLASS_TABLE:
            times = int(link.times) if link.times.isdigit() else 1
            items = [magic_item(roller, link.reroll) for _ in range(times)]
            found = found.model_copy(update={"items": [*found.items, *items]})
        elif link.table in (POTIONS_TABLE, SCROLLS_TABLE):
            found = found.model_copy(update={"items": [*found.items, magic_item_of(roller, link.table)]})
        else:
            for child in roller.follow(link):
                found = _contents(roller, child, found)
    return found


def guardian_levels(library: TableLibrary) -> tuple[int, ...]:
    """The monster levels a map's guardians may be rolled on, as the item rules table prints them ("5th or 6th")."""
    return rule_numbers(library, ITEM_RULES_TABLE, "A map's guardians", GUARDIAN_LEVELS)


def check_guardians(guardians: int, levels: tuple[int, ...] = GUARDIAN_LEVELS) -> None:
    """0 leaves a map's guardians to the referee; otherwise one of the monster ``levels`` the text offers
    (:func:`guardian_levels`)."""
    if guardians and guardians not in levels:
        levels_text = " or ".join(str(level) for level in levels)
        raise ToolInputError(f"Map guardians come from monster level {levels_text} (or 0: left to you); {guardians} is not.")


def treasure_map(roller: TableRoller, kind: TableRoll | None = None, guardians: int = 0) -> TreasureMap:
    """A map (or complete ``kind``, a roll on the maps table): its contents, read and rolled; its guardians
    rolled through on monster level ``guardians`` (0: left to the referee)."""
    check_guardians(guardians, guardian_levels(roller.library))
    kind = kind if kind is not None else roller.roll(MAPS_TABLE, "kind of map")
    found = TreasureMap(kind=kind)
    for link in roller.links(kind):
        for contents in roller.follow(link, "map contents"):
            found = _contents(roller, contents, found)
    if guardians:
        tree = roller.roll_through(GUARDIANS_TABLE.format(guardians), "the map's guardians")
        found = found.model_copy(update={"guardians": tree})
    return found


def magic_find(roller: TableRoller, guardians: int = 0) -> MagicFind:
    """Roll one item found: magic or a map, then everything it needs (a map's guardians on monster
    level ``guardians``, 0 leaving them to the referee)."""
    check_guardians(guardians, guardian_levels(roller.library))
    determination = roller.roll(MAGIC_OR_MAP_TABLE, "magic or map")
    links = _links(roller, determination)
    if determination.row is None or len(links) != 1:  # asked for like the dice panel's; the find waits for it
        return MagicFind(determination=determination)
    [link] = links
    if link.table == MAPS_TABLE:
        [kind] = roller.follow(link, "kind of map")
        return MagicFind(determination=determination, map=treasure_map(roller, kind, guardians))
    kind = roller.follow(link, "class of magic item")[0]
    item_links = _links(roller, kind)
    if kind.row is None or len(item_links) != 1:
        return MagicFind(determination=determination, item=MagicItem(kind=kind, item=kind))
    [item] = roller.follow(item_links[0], f"magic item: {kind.text}")
    return MagicFind(determination=determination, item=_details(roller, kind, item))
