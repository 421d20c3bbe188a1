"""Items read from printed table rows (Table A armour, Table W weapons) and adjustment text.

The rows come from the player's tables as text; these functions turn ``+5 Str``, ``DEF +1``,
``S2`` or ``2-handed`` into :class:`~.model.Item` fields.
"""

from __future__ import annotations

import re

from d100gui.engine.dice.tables import Row
from d100gui.engine.hero.model import Item, ItemKind, WeaponType
from d100gui.engine.rules.model import STATS, Rules
from d100gui.engine.rules.slots import slot_for_name

_ADJ = re.compile(r"([+\-–−]\s*\d+)\s*(DMG|DEF|STR|DEX|INT|HP)\b", re.I)
_INT = re.compile(r"[+\-–−]?\s*\d+")
_TWO_HANDED = re.compile(r"\b(?:2\s*-?\s*h(?:anded)?|two[\s-]*hand(?:ed)?)\b", re.I)


def _int_in(text: str, default: int = 0) -> int:
    m = _INT.search(text or "")
    if not m:
        return default
    raw = re.sub(r"\s+", "", m.group(0)).replace("–", "-").replace("−", "-")
    return int(raw)


def apply_adjustments(item: Item, text: str) -> Item:
    """Read ``+5 Str``, ``-2 DMG``, ``+1 DEF``, ``+3 HP`` from printed text into the item."""
    bonuses = dict(item.bonuses)
    update: dict[str, object] = {}
    for amount, what in _ADJ.findall(text or ""):
        n = _int_in(amount)
        what = what.upper()
        if what in STATS:
            bonuses[what] = bonuses.get(what, 0) + n
        elif what == "DMG":
            update["dmg"] = int(update.get("dmg", item.dmg)) + n  # type: ignore[call-overload]
        elif what == "HP":
            update["hp_bonus"] = int(update.get("hp_bonus", item.hp_bonus)) + n  # type: ignore[call-overload]
        elif what == "DEF":
            update["defence"] = n
            update["defence_bonus"] = amount.strip().startswith("+")
    update["bonuses"] = bonuses
    return item.model_copy(update=update)


def item_from_armour_row(rules: Rules, row: Row, table_id: str = "d100.A") -> Item:
    """An item from a Table A row (slot, item, def, value, repair; optional condition)."""
    f = row.fields
    slot = slot_for_name(rules, f.get("slot", "")) or ""
    defence_text = f.get("def", "")
    kind: ItemKind = "armour"
    item = Item(name=f.get("item", "").strip() or "Armour", slot=slot, source=f"{table_id} {row.range_label()}")
    m_shield = re.search(r"\bS\s*(\d+)\b", defence_text)
    if m_shield:
        kind = "shield"
        item = item.model_copy(update={"shield": int(m_shield.group(1))})
    elif defence_text.strip():
        item = item.model_copy(
            update={"defence": abs(_int_in(defence_text)), "defence_bonus": defence_text.strip().startswith("+")}
        )
    if slot == "off_weapon":
        kind = "shield"
    elif slot in ("neck", "ring_1", "ring_2"):
        kind = "jewellery"
    item = apply_adjustments(item.model_copy(update={"kind": kind}), f.get("adjustment", ""))
    update: dict[str, object] = {"value": _int_in(f.get("value", ""))}
    if f.get("repair", "").strip():
        update["repair_cost"] = _int_in(f["repair"])
    condition = f.get("condition", "")
    if condition:
        dots = sum(condition.count(ch) for ch in "•●○o")
        update["repair_pips"] = dots or max(0, _int_in(condition))
    if _TWO_HANDED.search(" ".join(f.values())):
        update["two_handed"] = True
    return item.model_copy(update=update)


def item_from_weapon_row(rules: Rules, row: Row, table_id: str = "d100.W") -> Item:
    """An item from a Table W row (type, weapon, adjustment, value, repair)."""
    f = row.fields
    wtype = re.sub(r"[^HR,]", "", f.get("type", "").upper())
    weapon_type: WeaponType = wtype if wtype in ("H", "R", "H,R") else ""  # type: ignore[assignment]
    item = Item(
        name=f.get("weapon", "").strip() or "Weapon",
        kind="weapon",
        slot="main_weapon",
        weapon_type=weapon_type,
        value=_int_in(f.get("value", "")),
        repair_cost=_int_in(f["repair"]) if f.get("repair", "").strip() else None,
        source=f"{table_id} {row.range_label()}",
    )
    item = apply_adjustments(item, f.get("adjustment", ""))
    hands = f.get("hands", "").strip()
    if hands in ("2", "two") or _TWO_HANDED.search(" ".join(f.values())):
        item = item.model_copy(update={"two_handed": True})
    return item
