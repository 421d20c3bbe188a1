"""Every value the sheet derives, computed in one place from the character and the rules.

:func:`derive` gives adjusted STR/DEX/INT (with what makes them up), DEF per location, the
Defence Bonus, DMG, the adjusted maximum HP, the abilities unlocked and the usable spells.
:func:`incoming_damage` is Combat step 5 against the hero; :func:`clamp_hp` brings HP down
to the maximum after an HP bonus is lost.
"""

from __future__ import annotations

from d100gui.engine.hero.model import Character, Item, TestPart
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules

#: the ability that opens the spell book (rules without it: the book is always open)
SPELL_CASTER = "spell_caster"
#: the characteristic the spell book's positions need (``SpellTier.int_min``)
SPELL_BOOK_STAT = "INT"


class Derived(Model):
    """Every value the sheet derives, computed by :func:`derive` from the character and rules."""

    characteristics: dict[str, int]  # adjusted STR/DEX/INT
    sources: dict[str, list[TestPart]]  # what makes up each adjusted value
    max_hp: int
    defence: dict[str, int]  # DEF at each hit location, by slot id
    defence_bonus: int  # DB: the "+" DEF of every equipped item
    dmg_bonus: int  # DMG of equipped non-weapon items and the time track
    weapon_dmg: dict[str, int]  # total DMG attacking with the weapon in each weapon slot
    dmg: int  # total DMG with the main weapon (or without a weapon)
    location_mods: dict[str, int]
    abilities: dict[str, bool]
    spell_thresholds: list[int]
    spells_in_reach: int  # spell-book positions the current INT reaches (0 without Spell Caster)
    usable_spells: list[bool]  # per book position: a spell is there and it can be cast


def equipped(character: Character) -> list[tuple[str, Item]]:
    return [(slot, item) for slot, item in character.equipment.items() if item is not None]


def items_at(character: Character, slot_id: str) -> list[Item]:
    """Items covering a slot: its own item, or a two-handed main weapon for the off-weapon slot."""
    item = character.equipment.get(slot_id)
    if item is not None:
        return [item]
    main = character.equipment.get("main_weapon")
    if slot_id == "off_weapon" and main is not None and main.two_handed:
        return [main]
    return []


def derive(character: Character, rules: Rules) -> Derived:
    """Compute every derived value of the sheet in one place.

    Called several times per action (a combat action's steps and checks derive the sheet 8 times, the
    flow and the sheet again), so the time track's bonuses are added up in one pass. Its models are
    built validated: for models this small pydantic's ``__init__`` is faster than ``model_construct``.
    """
    items = equipped(character)
    time_bonus: dict[str, int] = {}
    for b in character.time_track.bonuses:
        time_bonus[b.stat] = time_bonus.get(b.stat, 0) + b.amount
    adjusted: dict[str, int] = {}
    sources: dict[str, list[TestPart]] = {}
    part = TestPart
    for stat in rules.characteristics:
        primary = character.characteristics[stat].primary if stat in character.characteristics else 0
        parts = [part(label="primary", value=primary)]
        parts += [part(label=item.name, value=item.bonuses[stat]) for _, item in items if item.bonuses.get(stat)]
        if time_bonus.get(stat):
            parts.append(part(label="time track", value=time_bonus[stat]))
        if character.in_darkness:
            parts.append(part(label="darkness", value=rules.darkness_modifier))
        adjusted[stat] = sum(p.value for p in parts)
        sources[stat] = parts
    max_hp = character.hp_primary + sum(item.hp_bonus for _, item in items) + time_bonus.get("HP", 0)
    time_def = time_bonus.get("DEF", 0)
    defence = {}
    location_mods = {}
    for slot in rules.slots:
        if slot.hit_location is None:
            continue
        defence[slot.id] = sum(i.defence for i in items_at(character, slot.id) if not i.defence_bonus) + time_def
        location_mods[slot.id] = rules.damage_mod(slot.id)
    defence_bonus = sum(item.defence for _, item in items if item.defence_bonus)
    dmg_bonus = sum(item.dmg for _, item in items if item.kind != "weapon") + time_bonus.get("DMG", 0)
    weapon_dmg = {
        slot: dmg_bonus + item.dmg for slot, item in items if slot in ("main_weapon", "off_weapon") and item.kind == "weapon"
    }
    abilities = {a.id: adjusted.get(a.characteristic, 0) >= a.threshold for a in rules.abilities}
    thresholds = rules.spell_thresholds()
    caster = abilities.get(SPELL_CASTER, True)
    reach = sum(1 for t in thresholds if adjusted[SPELL_BOOK_STAT] >= t) if caster else 0
    book = list(character.spell_book) + [None] * max(0, len(thresholds) - len(character.spell_book))
    usable = [book[i] is not None and i < reach for i in range(len(thresholds))]
    return Derived(
        characteristics=adjusted,
        sources=sources,
        max_hp=max_hp,
        defence=defence,
        defence_bonus=defence_bonus,
        dmg_bonus=dmg_bonus,
        weapon_dmg=weapon_dmg,
        dmg=weapon_dmg.get("main_weapon", dmg_bonus),
        location_mods=location_mods,
        abilities=abilities,
        spell_thresholds=thresholds,
        spells_in_reach=reach,
        usable_spells=usable,
    )


class DamageSteps(Model):
    """Damage to the character, step by step (Combat step 5 and Defence Bonus)."""

    die: int
    location_mod: int
    monster_dmg: int
    before_defence: int
    defence_bonus: int  # deducted (0 when the die is above DB)
    defence: int
    damage: int


def incoming_damage(character: Character, rules: Rules, slot_id: str, die: int, monster_dmg: int) -> DamageSteps:
    """Damage die + location mod + monster DMG; minus DB if the natural die <= DB; minus the location's DEF."""
    d = derive(character, rules)
    mod = d.location_mods.get(slot_id, 0)
    total = die + mod + monster_dmg
    db = d.defence_bonus if d.defence_bonus > 0 and die <= d.defence_bonus else 0
    defence = d.defence.get(slot_id, 0)
    return DamageSteps(
        die=die,
        location_mod=mod,
        monster_dmg=monster_dmg,
        before_defence=total,
        defence_bonus=db,
        defence=defence,
        damage=max(0, total - db - defence),
    )


def clamp_hp(character: Character, rules: Rules) -> int:
    """Bring current HP down to the adjusted maximum (after losing an HP bonus); returns HP lost."""
    maximum = derive(character, rules).max_hp
    if character.hp > maximum:
        lost = character.hp - maximum
        character.hp = maximum
        return lost
    return 0


def ability_unlocked(character: Character, rules: Rules, ability_id: str) -> bool:
    """Whether ability ``ability_id`` is unlocked now: its adjusted characteristic at or over its threshold.

    An ability locks again while the characteristic is below it (darkness, a lost item).
    """
    return derive(character, rules).abilities.get(ability_id, False)


def unlocks_at(rules: Rules, ability_id: str) -> tuple[str, int]:
    """(characteristic, threshold) that unlock ability ``ability_id`` (``("INT", 50)`` for Spell Caster)."""
    ability = rules.ability(ability_id)
    return ability.characteristic, ability.threshold
