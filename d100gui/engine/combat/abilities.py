"""The Monster Abilities and the monster's round as rules: pure functions over the models.

The combat round (:mod:`.steps`, :mod:`.attack`, :mod:`.defence`) and the odds simulator
(:mod:`.odds`) both call these, so each rule is written once: the simulator builds its
probability tables by calling them over every die face. The names and one-line summaries a
view shows are data (``Rules.monster_abilities``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from d100gui.engine.combat.monster import Monster
from d100gui.engine.hero.model import TestPart

PACK_AV_PER_MEMBER = 5  # Pack: +5 AV for every individual alive beyond the first
FLY_MOD = -10  # Fly: hand-weapon (STR) attacks
PHASE_MOD = -10  # Phase: every attack
DEATH_TOUCH_DEF = 2  # Death Touch ignores 2 DEF at the location hit
LARGE_MIN_FACE = 3  # Large re-rolls damage dice below this
RESURRECTION_FACE = 1  # Resurrection: a d10 showing this brings the monster back
D10 = range(1, 11)
D6 = range(1, 7)


def pack_bonus(monster: Monster, living: int) -> int:
    """The Pack AV bonus with ``living`` individuals alive (0 without the Pack ability)."""
    return PACK_AV_PER_MEMBER * max(0, living - 1) if monster.has("pack") else 0


def attack_modifiers(monster: Monster, stat: str) -> list[TestPart]:
    """What the monster's abilities do to the hero's attack test with ``stat`` (Fly, Phase)."""
    parts = []
    if stat == "STR" and monster.has("fly"):
        parts.append(TestPart(label="Fly", value=FLY_MOD))
    if monster.has("phase"):
        parts.append(TestPart(label="Phase", value=PHASE_MOD))
    return parts


@dataclass(frozen=True)
class Reaction:
    """What a reaction d10 does: the monster tries to escape, or gains AV this round."""

    escaping: bool
    av_bonus: int
    text: str


def reaction(roll: int, damaged_last_round: bool, below_half: bool) -> Reaction:
    """The monster's reaction (10; 9 if damaged last round; 8 if below half HP: escape; 2 / 1 below half: AV +5 / +10)."""
    if roll == 10 or (roll == 9 and damaged_last_round) or (roll == 8 and below_half):
        return Reaction(True, 0, "it tries to escape")
    if roll == 2 and below_half:
        return Reaction(False, 5, "it gains AV+5 this round")
    if roll == 1 and below_half:
        return Reaction(False, 10, "it gains AV+10 this round")
    if roll == 9:
        return Reaction(False, 0, "it was not damaged last round, so it attacks as normal")
    if roll in (8, 2, 1):
        return Reaction(False, 0, "it is not below half its HP, so it attacks as normal")
    return Reaction(False, 0, "it attacks as normal")


@dataclass(frozen=True)
class DarkSpell:
    """A Dark Magic spell: its bonuses this round and the HP the hero loses at once."""

    name: str
    av: int = 0
    defence: int = 0
    dmg: int = 0
    drain: bool = False
    hero_loses: int = 0
    text: str = ""


NO_SPELL = DarkSpell("")
DARK_SPELLS = (
    DarkSpell("Dark Strike", av=20, text="+20 AV this round"),
    DarkSpell("Shadowy Cloak", defence=4, text="+4 DEF this round"),
    DarkSpell("Evil Touch", dmg=2, text="+2 DMG this round"),
    DarkSpell("Drain Life", drain=True, text="every HP you lose this round is added to the monster"),
    DarkSpell("Death Bolt", hero_loses=2, text="you lose 2 HP"),
)


def dark_magic(roll: int) -> DarkSpell:
    """The Dark Magic d10: 1-2 Dark Strike, 3-4 Shadowy Cloak, 5-6 Evil Touch, 7-8 Drain Life, 9-10 Death Bolt."""
    return DARK_SPELLS[min(4, (max(1, roll) - 1) // 2)]


def dark_spell_named(name: str) -> DarkSpell:
    return next((s for s in DARK_SPELLS if s.name == name), NO_SPELL)


def acts_with_dark_magic(monster: Monster, frozen: bool) -> bool:
    return monster.has("dark_magic") and not frozen


# --------------------------------------------------------------------------- damage to the monster


def passes_through(monster: Monster, legendary: bool, spell: bool) -> bool:
    """Ethereal: only legendary weapons and spells hurt it."""
    return monster.has("ethereal") and not spell and not legendary


def hp_taken(monster: Monster, raw: int) -> int:
    """Tough halves damage rounding down (spells included)."""
    return raw // 2 if monster.has("tough") else raw


def hero_damage(dice: int, location_mod: int, weapon_dmg: int, brew: int, defence: int) -> tuple[int, int]:
    """The hero's damage: (total, damage after the monster's DEF)."""
    total = dice + location_mod + weapon_dmg + brew
    return total, max(0, total - defence)


def spell_damage(roll: int, defence: int) -> int:
    """Fire Ball / Ice Storm: d10 less the monster's DEF."""
    return max(0, roll - defence)


def resurrects(monster: Monster, roll: int) -> bool:
    return monster.has("resurrection") and roll == RESURRECTION_FACE


def resurrection_chance(monster: Monster) -> float:
    return sum(resurrects(monster, r) for r in D10) / len(D10)


# --------------------------------------------------------------------------- the monster's damage


def rerolled_by_large(monster: Monster, face: int) -> bool:
    return monster.has("large") and face < LARGE_MIN_FACE


def damage_faces(monster: Monster) -> list[int]:
    """The faces a damage die can end on (Large re-rolls 1 and 2 until 3 or more)."""
    return [f for f in D6 if not rerolled_by_large(monster, f)]


def counted_dice(monster: Monster, faces: list[int]) -> tuple[list[int], int, int]:
    """(dice that deal damage, natural 1s, HP Regenerate restores): a 1 heals instead of hurting."""
    ones = sum(1 for f in faces if f == 1)
    if monster.has("regenerate"):
        return [f for f in faces if f != 1], ones, ones
    return list(faces), ones, 0


@dataclass(frozen=True)
class MonsterDamage:
    total: int
    defence_bonus: int
    defence: int
    damage: int


def monster_damage(
    monster: Monster, natural: int, location_mod: int, dmg_extra: int, db: int, armour: int, dodge: int, def_penalty: int
) -> MonsterDamage:
    """Step 5: dice + location mod + DMG; the Defence Bonus when the natural total is at most DB; DEF (Death Touch -2)."""
    total = natural + location_mod + monster.dmg + dmg_extra
    bonus = db if db > 0 and natural <= db else 0
    touch = DEATH_TOUCH_DEF if monster.has("death_touch") else 0
    defence = max(0, armour + dodge - touch - def_penalty)
    return MonsterDamage(total, bonus, defence, max(0, total - bonus - defence))


def tests_after_damage(monster: Monster, ones: int) -> list[Literal["fire", "freeze"]]:
    """AVOID FIRE / AVOID FREEZE, once per natural 1 on the damage dice."""
    fire: list[Literal["fire", "freeze"]] = ["fire"] * ones if monster.has("fire") else []
    freeze: list[Literal["fire", "freeze"]] = ["freeze"] * ones if monster.has("freeze") else []
    return fire + freeze


def dazes(monster: Monster, lost: int) -> bool:
    """Stunned: a DAZED test whenever the hero actually loses HP to the attack."""
    return lost > 0 and monster.has("stunned")


TRACKS = (("disease", "disease_track"), ("poison", "poison_track"))


def tracks_shaded(monster: Monster) -> list[tuple[str, str]]:
    """(character field, sheet track) shaded by each natural 1 (Disease, Poison)."""
    return [(name, track) for name, track in TRACKS if monster.has(name)]
