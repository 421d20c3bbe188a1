"""What a loot row puts on the sheet: an item for the backpack, or effects (gold, supplies, pips).

Pure functions over a table row: the fight (:mod:`.rewards`) applies the result. A row is read
the way the rulebook prints it:

* Table P (parts): "<monster> <PART>" with its value, as the table's note says.
* Table A (armour) and Table W (weapons): the item as the hero's item rows read them.
* A row whose effect is in brackets ("(+1 Food)", "(Shade in 1 Key Pip)", "(Add one
  Objective)") is a mark on the sheet: the bracket is applied and nothing is carried.
* Coins ("SILVER PIECES", "GOLD PIECES") are gold: their value goes on the sheet's GP.
* Anything else (brews, gems, a whistle) is an item with its effect text and value; a brew,
  potion, scroll or elixir is of that kind so the belt takes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from d100gui.engine.dice.tables import Row
from d100gui.engine.hero.item_rows import apply_adjustments, item_from_armour_row, item_from_weapon_row
from d100gui.engine.hero.model import Item, ItemKind
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Outcome, parse_effects

PARTS_TABLE = "d100.P"
ARMOUR_TABLE = "d100.A"
WEAPON_TABLE = "d100.W"
_COINS = re.compile(r"\b(?:coins?|(?:gold|silver|copper)\s+pieces)\b", re.I)
_KINDS: tuple[tuple[re.Pattern[str], ItemKind], ...] = (
    (re.compile(r"\bbrews?\b", re.I), "brew"),
    (re.compile(r"\bpotions?\b", re.I), "potion"),
    (re.compile(r"\bscrolls?\b", re.I), "scroll"),
    (re.compile(r"\belixirs?\b", re.I), "elixir"),
)
_BRACKETED = re.compile(r"^\s*\(([^()]*)\)")


@dataclass(frozen=True)
class LootGain:
    """What one loot row gives: ``item`` to carry, or ``outcome`` to apply now (never both)."""

    item: Item | None = None
    outcome: Outcome | None = None


def gold_value(text: str) -> int:
    """``"70gp"`` -> 70 (0 when no number is printed)."""
    digits = re.sub(r"[^\d]", "", text or "")
    return int(digits) if digits else 0


def item_kind(name: str) -> ItemKind:
    """A brew, potion, scroll or elixir by its name; any other find is an item."""
    return next((kind for pattern, kind in _KINDS if pattern.search(name)), "item")


def _name_of(row: Row) -> str:
    f = row.fields
    return (f.get("item") or f.get("name") or f.get("legend") or next(iter(f.values()), "")).strip()


def loot_gain(rules: Rules, table_id: str, row: Row, monster: str) -> LootGain:
    """Read the loot ``row`` of ``table_id`` for a defeated ``monster`` (see the module's rules)."""
    f, source = row.fields, f"{table_id} {row.range_label()}"
    if table_id == PARTS_TABLE:
        part = f.get("part", "").strip() or "PART"
        return LootGain(item=Item(name=f"{monster} {part}", kind="item", value=gold_value(f.get("value", "")), source=source))
    if table_id == ARMOUR_TABLE:
        return LootGain(item=item_from_armour_row(rules, row, table_id))
    if table_id == WEAPON_TABLE:
        return LootGain(item=item_from_weapon_row(rules, row, table_id))
    effect = f.get("effect", "")
    bracket = _BRACKETED.match(effect)
    if bracket:
        return LootGain(outcome=parse_effects(bracket.group(1)))
    name = _name_of(row) or "Loot"
    value = gold_value(f.get("value", ""))
    if _COINS.search(name) and value:
        return LootGain(outcome=parse_effects(f"+{value} gp"))
    item = Item(name=name, kind=item_kind(name), effect=effect.strip(), value=value, source=source)
    return LootGain(item=apply_adjustments(item, f.get("adjustment", "")))
