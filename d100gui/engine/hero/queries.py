"""Small questions the hero widgets ask the rules, answered in one place.

Where a question is answered elsewhere in the engine (``derive.unlocks_at``,
``experience.experience_pips``, ``rules.faces.chance_of``) it is re-exported here, so the hero
widgets have one place to import from and each rule is still written once.

The sheet, the skill-test dialog, the creation wizard and the printed sheet show rule
answers (a test's chance, whether an ability is unlocked, how many experience pips a choice
gives, what a full track adds, what the darkness costs). They ask here instead of writing
the rulebook's numbers or rule decisions in a widget, so a changed ``resources/d100-rules.json``
changes every view at once. Pure functions over the models; no Qt, no files.
"""

from __future__ import annotations

from typing import Literal

from d100gui.engine.hero.decisions import PendingTest
from d100gui.engine.hero.derive import Derived, unlocks_at
from d100gui.engine.hero.experience import full_track_step
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.hero.skill_test import TestPreview, preview_test
from d100gui.engine.rules.faces import chance_of
from d100gui.engine.rules.model import Ability, Rules
from d100gui.engine.rules.notation import TestSpec

Track = Literal["characteristic", "skill"]
SPELL_CASTER = "spell_caster"

__all__ = [
    "SPELL_CASTER",
    "ability_for",
    "ability_requirement",
    "ability_unlocked",
    "belt_item",
    "covering_two_handed",
    "darkness_penalty",
    "has_repair_track",
    "is_single_die",
    "item_at",
    "modifier_step",
    "pending_chance",
    "preview",
    "spells_castable",
    "track_full_gain",
    "track_step",
    "unlock_thresholds",
]


# --------------------------------------------------------------------------- tests


def preview(character: Character, rules: Rules, spec: TestSpec, bonus: int = 0, bonus_label: str = "bonus") -> TestPreview:
    """The target, formula and chance of a test before it is rolled (the engine's ``preview_test``)."""
    return preview_test(character, rules, spec, bonus, bonus_label)


def pending_chance(test: PendingTest) -> int:
    """The chance of a rolled test, read again while Fate may re-roll it."""
    return chance_of(test.target, "d10" if is_single_die(test) else "d100")


def is_single_die(test: PendingTest) -> bool:
    """A d10 test (keys, levers) has one die for Fate to re-roll, a d100 test two."""
    return test.roll.expression != "d100"


def modifier_step(rules: Rules) -> int:
    """The step test modifiers and bonuses move in (the rulebook writes them in fives)."""
    return rules.characteristic_step


# --------------------------------------------------------------------------- abilities


def ability_for(rules: Rules, stat: str) -> Ability | None:
    """The ability a characteristic unlocks, if any."""
    return next((a for a in rules.abilities if a.characteristic == stat), None)


def ability_unlocked(derived: Derived, ability_id: str) -> bool:
    """Whether already derived characteristics unlock an ability now (``derive.ability_unlocked`` derives them first)."""
    return derived.abilities.get(ability_id, False)


def ability_requirement(rules: Rules, ability_id: str) -> str:
    """What unlocks an ability, as the sheet writes it: ``INT 50``."""
    stat, threshold = unlocks_at(rules, ability_id)
    return f"{stat} {threshold}"


def unlock_thresholds(rules: Rules) -> list[int]:
    """The distinct characteristic values that unlock abilities, lowest first."""
    return sorted({a.threshold for a in rules.abilities})


def spells_castable(rules: Rules, derived: Derived) -> bool:
    """Whether the spell book can be cast from: Spell Caster is unlocked (or the rules have no such ability)."""
    if not any(a.id == SPELL_CASTER for a in rules.abilities):
        return True
    return derived.abilities.get(SPELL_CASTER, True)


# --------------------------------------------------------------------------- tracks


def track_step(rules: Rules, track: Track) -> int:
    """What a full experience track adds to a characteristic or a skill."""
    return full_track_step(rules, track)


def track_full_gain(rules: Rules, track: Track) -> str:
    """The label at the end of an experience track: ``+5``."""
    return f"+{track_step(rules, track)}"


def darkness_penalty(rules: Rules) -> int:
    """The modifier to STR, DEX and INT without light (negative)."""
    return rules.darkness_modifier


# --------------------------------------------------------------------------- items


def belt_item(rules: Rules, item: Item) -> bool:
    """Whether an item is of a kind the belt holds (brews, potions, scrolls, elixirs)."""
    return item.kind in rules.belt_kinds


def has_repair_track(rules: Rules, item: Item) -> bool:
    """Whether a backpack item has a repair track: equipment, not belt kinds or plain items."""
    return not belt_item(rules, item) and item.kind != "item"


def covering_two_handed(character: Character, slot_id: str) -> Item | None:
    """The two-handed main weapon that fills the off-hand slot, when that slot is empty because of it."""
    main = character.equipment.get("main_weapon")
    if slot_id == "off_weapon" and character.equipment.get(slot_id) is None and main is not None and main.two_handed:
        return main
    return None


def item_at(character: Character, where: str, slot: str = "", index: int = 0) -> Item | None:
    """The item at a place of the sheet (an equipment slot, a belt slot, a list line), or None."""
    if where == "equipment":
        return character.equipment.get(slot)
    if where == "belt":
        return character.belt[index] if 0 <= index < len(character.belt) else None
    items = {"backpack": character.backpack, "potions": character.potions, "non_slot": character.non_slot_items}.get(where, [])
    return items[index] if 0 <= index < len(items) else None
