"""Equipping, unequipping and Belt Checks: where an item may go and what takes it away.

:func:`check_equip` is the one statement of the slot rules (one item per slot, a two-handed
weapon takes both weapon slots, a shield only the off weapon slot); views call it to grey
out a drop they would refuse.
"""

from __future__ import annotations

from d100gui.engine.hero.derive import clamp_hp, items_at
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.rules.model import Rules


def belt_check_target(character: Character, rules: Rules, roll: int) -> tuple[str, Item | None]:
    """Where a Belt Check roll lands: (label, item there or None)."""
    if rules.belt_check == "belt":
        if 1 <= roll <= len(character.belt):
            return f"belt slot {roll}", character.belt[roll - 1]
        return f"belt slot {roll}", None
    slot = rules.slot_at_location(roll)
    if slot is None:
        return f"hit location {roll}", None
    items = items_at(character, slot.id)
    return slot.name, items[0] if items else None


def destroy_belt_check(character: Character, rules: Rules, roll: int) -> tuple[str, Item | None]:
    """Make the Belt Check ``roll`` destroy the item it lands on; returns (where, item destroyed)."""
    where, item = belt_check_target(character, rules, roll)
    if item is None:
        return where, None
    if rules.belt_check == "belt":
        character.belt[roll - 1] = None
    else:
        for slot, held in character.equipment.items():
            if held is item:
                character.equipment[slot] = None
        clamp_hp(character, rules)
    return where, item


def check_equip(character: Character, rules: Rules, item: Item, slot_id: str) -> None:
    """Refuse if ``item`` cannot go in ``slot_id`` now (one item per slot, weapons, shields)."""
    try:
        slot = rules.slot(slot_id)
    except KeyError:
        refuse(f"There is no equipment slot {slot_id!r}.")
    if item.kind in rules.belt_kinds:
        refuse(f"{item.name} is a {item.kind}: brews, potions and scrolls go on the belt.")
    held = character.equipment.get(slot_id)
    if held is not None:
        refuse(f"The {slot.name} slot already holds {held.name}: only one item per slot. Unequip it first.")
    main = character.equipment.get("main_weapon")
    if item.kind == "shield":
        if slot_id != "off_weapon":
            refuse(f"{item.name} is a shield: shields are always equipped to the off weapon slot.")
    elif item.kind == "weapon":
        if slot_id not in ("main_weapon", "off_weapon"):
            refuse(f"{item.name} is a weapon: it goes in the main or off weapon slot.")
        if item.two_handed:
            if slot_id != "main_weapon":
                refuse(f"{item.name} is two-handed: it uses both weapon slots and is recorded in the main weapon slot.")
            off = character.equipment.get("off_weapon")
            if off is not None:
                refuse(
                    f"{item.name} is two-handed and needs both weapon slots: unequip {off.name} from the off weapon slot first."
                )
    else:
        if not item.slot:
            refuse(f"{item.name} has no equipment slot: keep it in the backpack.")
        rings = ("ring_1", "ring_2")
        same = item.slot == slot_id or (item.slot in rings and slot_id in rings)
        if not same:
            target = rules.slot(item.slot).name if item.slot in rules.slot_ids() else item.slot
            refuse(f"{item.name} is worn on the {target} slot, not {slot.name}.")
    if slot_id == "off_weapon" and main is not None and main.two_handed:
        refuse(f"{main.name} is two-handed and uses both weapon slots: the off weapon slot is taken.")


def equip(character: Character, rules: Rules, item: Item, slot_id: str) -> None:
    check_equip(character, rules, item, slot_id)
    character.equipment[slot_id] = item


def unequip(character: Character, rules: Rules, slot_id: str) -> Item:
    """Take the item out of ``slot_id`` into the backpack (damage kept); HP drops to the new maximum."""
    item = character.equipment.get(slot_id)
    if item is None:
        if slot_id == "off_weapon" and items_at(character, slot_id):
            refuse("The off weapon slot is taken by a two-handed main weapon: unequip the main weapon.")
        refuse(f"Nothing is equipped in the {slot_id.replace('_', ' ')} slot.")
    character.equipment[slot_id] = None
    character.backpack.append(item)
    clamp_hp(character, rules)
    return item
