"""Casting a spell outside a fight: pay the cost, the CAST SPELL test, the effect or Table C.

Rulebook (Spell Caster): "To use a spell the character must spend the cost (HP) and perform a
spell test": ``CAST SPELL – Test: INT (+/- Spell Bonus) [S:Cast] [F: Roll on TABLE C - CURSES]
(Magic)`` (the spec is :data:`d100gui.engine.combat.printed.TEST_SPECS` ``["cast"]``, parsed
once). Table S: spells "can be cast at anytime"; in a fight a spell replaces the attack and
goes through the combat commands instead.

What a spell does outside a fight (:func:`spell_effect`) is typed, so the caller applies what
is not the sheet's: HEAL and HEALING restore HP, RESURRECTION writes RES, OPEN MAGIC returns
``open_magic_seal`` for the dungeon to open the magic-sealed door the hero stands at. The
attack spells (FIRE BLAST, FIRE BALL, ICE STORM) strike "at the start of the next combat
round": outside a fight :func:`check_castable` refuses them before anything is paid.
"""

from __future__ import annotations

from typing import Literal

from d100gui.engine.combat.printed import TEST_SPECS
from d100gui.engine.combat.spells import QUEUED_SPELLS, spell_id
from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.hero.derive import clamp_hp, derive
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.skill_test import TestPreview, preview_test
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import parse_effects

#: HEAL's HP, when the spell's effect text does not say ("Restores 10 lost HP" in the bundled Table S)
HEAL_HP = 10

EffectKind = Literal["healed", "resurrection", "open_magic_seal", "narrative"]


class SpellEffect(Model):
    """What a cast spell did outside a fight; ``open_magic_seal`` is for the dungeon to apply."""

    kind: EffectKind
    hp_before: int | None = None
    hp: int | None = None
    text: str = ""


class CastTest(Model):
    """The CAST SPELL test as rolled: its target (with what makes it up), the roll, the result."""

    preview: TestPreview
    roll: RollRecord
    success: bool


def check_castable(name: str) -> None:
    """Refuse, before anything is paid, a spell that only works in a fight."""
    if spell_id(name) in QUEUED_SPELLS:
        refuse(f"{name} strikes a monster at the start of the next combat round: cast it in a fight, instead of an attack.")


def pay_cost(character: Character, rules: Rules, cost: str) -> list[str]:
    """Spend the spell's cost: HP (``-1 HP``) or a characteristic's primary value (``-2 STR``). Returns what was paid."""
    paid: list[str] = []
    for option in parse_effects(cost).options[:1]:
        for effect in option.effects:
            amount = effect.amount or 0
            if effect.kind == "hp" and amount < 0:
                character.hp += amount
                paid.append(f"{-amount} HP (now {character.hp})")
            elif effect.kind == "characteristic" and effect.stat in rules.characteristics and amount < 0:
                score = character.characteristics[effect.stat]
                score.primary = max(0, score.primary + amount)
                clamp_hp(character, rules)
                paid.append(f"{-amount} {effect.stat} (primary now {score.primary})")
    return paid


def cast_test(character: Character, rules: Rules, dice: Dice, bonus: int = 0, name: str = "") -> CastTest:
    """Roll CAST SPELL: INT + the spell bonus + Magic; a natural roll at or under the target succeeds."""
    spec = TEST_SPECS["cast"]
    preview = preview_test(character, rules, spec, bonus, "spell bonus")
    roll = dice.d100(f"CAST SPELL{f' ({name})' if name else ''}")
    return CastTest(preview=preview, roll=roll, success=roll.natural <= preview.target)


def spell_effect(character: Character, rules: Rules, name: str, effect_text: str) -> SpellEffect:
    """Carry out a cast spell's effect outside a fight (see the module)."""
    sid = spell_id(name)
    if sid in ("heal", "healing"):
        maximum = derive(character, rules).max_hp
        before = character.hp
        if sid == "healing":
            character.hp = max(character.hp, maximum)
        else:
            amounts = [e.amount for o in parse_effects(effect_text).options for e in o.effects if e.kind == "hp" and e.amount]
            character.hp = max(character.hp, min(maximum, character.hp + (amounts[0] if amounts else HEAL_HP)))
        return SpellEffect(kind="healed", hp_before=before, hp=character.hp, text=f"{name}: HP {before} -> {character.hp}.")
    if sid == "resurrection":
        character.res = True
        return SpellEffect(kind="resurrection", text=f"{name}: RES is written in the Lives box.")
    if sid == "open_magic":
        return SpellEffect(kind="open_magic_seal", text=f"{name}: the magic-sealed door opens.")
    return SpellEffect(kind="narrative", text=f"{name} is cast: {effect_text or 'apply its effect on the sheet'}.")
