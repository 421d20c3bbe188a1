"""Repair pips on a random equipped item (Table F 21-25): a d10 for the location, re-rolled until it finds one.

"Roll one d10 for location of the item and shade in 1 pip of its repair track, if no item is
equipped roll again until you select an item that is equipped." The d10 reads the sheet's hit
locations (:meth:`~d100gui.engine.rules.model.Rules.slot_at_location`); a location whose item
has no repair track counts as empty. With nothing equipped that has a track no roll can find one,
so none is made; the re-rolls are capped (:attr:`~d100gui.engine.quest.model.AdventureRules.location_rolls`) as a guard.
A full track destroys the item, as in a fight.
"""

from __future__ import annotations

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.hero.derive import clamp_hp, items_at
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.magic.curses import has_repair_track
from d100gui.engine.quest.events import RepairShaded
from d100gui.engine.quest.model import adventure_rules
from d100gui.engine.rules.model import Rules


def _tracked_at(character: Character, rules: Rules, roll: int) -> tuple[str, Item] | None:
    slot = rules.slot_at_location(roll)
    if slot is None:
        return None
    items = [i for i in items_at(character, slot.id) if has_repair_track(i)]
    return (slot.name, items[0]) if items else None


def _any_tracked(character: Character, rules: Rules) -> bool:
    return any(_tracked_at(character, rules, n) is not None for n in range(1, 11))


def shade_random_item(character: Character, rules: Rules, dice: Dice, pips: int, source: str = "") -> RepairShaded:
    """Roll d10 locations until one holds an equipped item with a repair track; shade ``pips`` on it."""
    if not _any_tracked(character, rules):
        return RepairShaded(pips=pips, source=source)
    rolls: list[RollRecord] = []
    found: tuple[str, Item] | None = None
    for _ in range(adventure_rules(rules).location_rolls):
        roll = dice.roll("d10", f"{source + ': ' if source else ''}location of the item")
        rolls.append(roll)
        found = _tracked_at(character, rules, roll.final)
        if found is not None:
            break
    if found is None:
        return RepairShaded(rolls=rolls, pips=pips, source=source)
    slot, item = found
    length = item.repair_track or rules.sheet.repair_track
    item.repair_pips = min(length, item.repair_pips + pips)
    destroyed = item.repair_pips >= length
    if destroyed:
        for key, held in character.equipment.items():
            if held is item:
                character.equipment[key] = None
        clamp_hp(character, rules)
    return RepairShaded(
        rolls=rolls,
        slot=slot,
        item=item.name,
        pips=pips,
        shaded=item.repair_pips,
        length=length,
        destroyed=destroyed,
        source=source,
    )
