"""Table B - Boosts, applied in full wherever one is rolled (a combat-track milestone, a find, a spell).

STRONGER, FASTER, WISDOM, TOUGHNESS and MIGHTIER sit in the time track's bonus section
(:class:`~d100gui.engine.hero.model.TimeBonus`): :func:`~d100gui.engine.hero.derive.derive`
counts them and they end when the track refreshes (in the dungeon, or in town's Refresh
Tracks). HEAL MINOR WOUNDS restores up to 3 lost HP, TREAT DISEASE removes up to 3 disease
pips. ITEM follows the row's link to Table I: the item found goes in the backpack.
DOOR RELEASED is for the map: :attr:`BoostResult.door_released` tells the dungeon to let the
player open one closed door.

:func:`roll_boost` rolls with the missing-row policy; :func:`apply_boost` applies a row.
"""

from __future__ import annotations

from pydantic import Field

from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.row_values import row_price
from d100gui.engine.dice.tables import Row, TableError
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.magic.sheet_effects import apply_to_sheet
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import parse_effects

BOOST_TABLE = "d100.B"


class BoostResult(Model):
    """What a Table B roll did, and what is left for the caller (a door to open, an item row to type)."""

    boost: str = ""
    table_roll: TableRoll | None = None
    missing: bool = False  # the Table B roll fell in a gap: the row is to be typed in
    notes: list[str] = Field(default_factory=list)
    item_rolls: list[TableRoll] = Field(default_factory=list)  # ITEM: the Table I rolls (a row of None: missing)
    items: list[str] = Field(default_factory=list)  # items put in the backpack
    door_released: bool = False


def item_from_row(row: Row, table_id: str) -> Item:
    """An item found on Table I: its name, printed effect and value."""
    name = row.fields.get("item", "").strip().title() or "Item"
    source = f"{table_id} {row.range_label()}"
    return Item(name=name, effect=row.fields.get("effect", ""), value=row_price(row) or 0, source=source)


def _item(character: Character, row: Row, tables: TableRoller, result: BoostResult) -> None:
    for link in row.links:
        try:
            rolls = tables.follow(link, f"{result.boost}: {link.label or link.table}")
        except TableError as exc:
            result.notes.append(f"{result.boost}: {exc}")
            continue
        for rolled in rolls:
            result.item_rolls.append(rolled)
            if rolled.row is None:
                result.notes.append(rolled.describe())
                continue
            item = item_from_row(rolled.row, rolled.table_id)
            character.backpack.append(item)
            result.items.append(item.name)
            result.notes.append(f"{result.boost}: {item.name} appears - it goes in the backpack.")


def apply_boost(
    character: Character, rules: Rules, row: Row, tables: TableRoller, table_roll: TableRoll | None = None
) -> BoostResult:
    """Apply one Table B row in full; the result says what the caller must still do."""
    name = row.fields.get("name", "").strip().upper()
    effect = row.fields.get("effect", "")
    result = BoostResult(boost=name.title() or "Boost", table_roll=table_roll)
    if row.links:
        _item(character, row, tables, result)
    elif "DOOR" in name:
        result.door_released = True
        result.notes.append(f"{result.boost}: one closed door of the dungeon is opened - choose it on the map.")
    else:
        for option in parse_effects(effect).options[:1]:
            for e in option.effects:
                said = apply_to_sheet(character, rules, e, result.boost)
                if said is not None:
                    result.notes.append(said)
    if not result.notes:
        result.notes.append(f"{result.boost}: {effect} (apply it on the sheet).")
    return result


def roll_boost(character: Character, rules: Rules, tables: TableRoller, purpose: str = "Table B - Boosts") -> BoostResult:
    """Roll Table B and apply the row; a roll on a missing row is returned with ``missing`` (nothing applied)."""
    rolled = tables.roll(BOOST_TABLE, purpose)
    if rolled.row is None:
        return BoostResult(table_roll=rolled, missing=True, notes=[rolled.describe()])
    return apply_boost(character, rules, rolled.row, tables, rolled)
