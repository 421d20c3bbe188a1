"""Spells in a fight: casting (book or scroll), costs, what each spell does, and Table C's curses.

The spells' names, effects and costs are Table S in the table library (``d100.S``), read
here and nowhere else; the engine knows by id only the spells it applies itself
(:data:`KNOWN_SPELLS`). Fire Blast, Fire Ball and Ice Storm land at the start of the next
round (steps ``spell`` / ``spell_resolve`` / ``after_spell``).
"""

from __future__ import annotations

import re

from d100gui.engine.combat import abilities as ab
from d100gui.engine.combat.attack import ICE_STORM_ATTACK_BONUS, damage_monster
from d100gui.engine.combat.defence import cheat_death, die, hero_loses
from d100gui.engine.combat.events import (
    CombatCast,
    CombatCastCost,
    CombatCurse,
    CombatFrozen,
    CombatItemDestroyed,
)
from d100gui.engine.combat.events import CombatSpell as SpellPayload
from d100gui.engine.combat.flow import (
    Fight,
    die_value,
    hold,
    hold_table,
    on_test,
    roll_test,
    step,
    take_held,
    take_table,
    wait_for_row,
)
from d100gui.engine.combat.monster import CastInfo, QueuedSpell
from d100gui.engine.combat.printed import TEST_SPECS
from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dice.tables import TableError, TableLibrary
from d100gui.engine.hero.derive import clamp_hp, derive
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Item, TestPart
from d100gui.engine.hero.vitals import changed_vitals, vitals
from d100gui.engine.rules.model import STATS
from d100gui.engine.rules.notation import parse_effects

SPELL_TABLE = "d100.S"
#: the spells whose effect the combat applies itself (others are read from their effect text)
KNOWN_SPELLS = ("fire_blast", "fire_ball", "ice_storm", "heal", "healing", "resurrection", "open_magic")
QUEUED_SPELLS = ("fire_blast", "fire_ball", "ice_storm")
FIRE_BLAST_DAMAGE = 2


def _squash(name: str) -> str:
    return re.sub(r"[^A-Z]", "", (name or "").upper())


#: ``"FIREBALL"`` -> ``"fire_ball"``
SPELL_IDS: dict[str, str] = {_squash(sid): sid for sid in KNOWN_SPELLS}


def spell_id(name: str) -> str:
    """``"Fire Ball"`` -> ``"fire_ball"``; ``""`` for a spell the engine does not know by name."""
    return SPELL_IDS.get(_squash(name), "")


def table_s(library: TableLibrary) -> list[tuple[str, str, str]]:
    """Table S as (name, effect, cost), longest name first (so FIRE BALL is not read as FIRE)."""
    try:
        rows = library.get(SPELL_TABLE).rows
    except TableError:  # pragma: no cover - the bundled library has Table S
        rows = []
    spells = [(r.fields.get("spell", ""), r.fields.get("effect", ""), r.fields.get("cost", "")) for r in rows]
    return sorted((s for s in spells if s[0]), key=lambda s: -len(s[0]))


def printed_spell(library: TableLibrary, sid: str) -> tuple[str, str, str]:
    """(name, effect, cost) of a known spell as Table S prints it (blank when the table lacks it)."""
    return next((s for s in table_s(library) if spell_id(s[0]) == sid), ("", "", ""))


def scroll_spell(library: TableLibrary, item: Item) -> tuple[str, str, str, str]:
    """(name, id, effect, cost) of the spell written on a scroll, from Table S."""
    squashed = _squash(f"{item.name} {item.effect}")
    for name, effect, cost in table_s(library):
        if _squash(name) in squashed:
            return name, spell_id(name), effect, cost
    refuse(f"Cannot tell which spell is written on {item.name}: name the spell in the item (e.g. 'Scroll of Fire Ball').")


# --------------------------------------------------------------------------- casting


def pay_cost(f: Fight, name: str, cost: str) -> bool:
    """Pay the spell's cost (HP, or a characteristic's primary score). False if the hero died."""
    if not cost.strip():
        return True
    outcome = parse_effects(cost)
    for effect in outcome.options[0].effects if outcome.options else []:
        if effect.kind == "hp" and effect.amount is not None and effect.amount < 0:
            if not hero_loses(f, -effect.amount, f"{name} costs {cost}"):
                return False
        elif effect.kind == "characteristic" and effect.amount is not None and effect.stat in STATS:
            score = f.ch.characteristics[effect.stat]
            held = vitals(f.ch)
            score.primary = max(0, score.primary + effect.amount)
            clamp_hp(f.ch, f.rules)
            f.say(
                CombatCastCost(stat=effect.stat, primary=score.primary),
                f"{name} costs {cost}: {effect.stat} primary now {score.primary}.",
            )
            f.events += changed_vitals(f.ch, f.rules, held)
        else:
            f.events += f.apply_effect(f.ctx, effect, f"{name} cost")
    return True


def cast(f: Fight, info: CastInfo, cost: str, bonus: int) -> None:
    """Step 2, cast a spell: pay the cost, then CAST SPELL (INT + Magic + the spell bonus)."""
    f.c.casting = info
    f.c.action = "cast"
    f.c.waiting = ""
    f.say(CombatCast(spell=info.name, stage="cast"), f"You cast {info.name}" + (f" (cost {cost})" if cost else "") + ".")
    if not pay_cost(f, info.name, cost):
        return
    extra = [TestPart(label="spell bonus", value=bonus)] if bonus else []
    f.c.step = "monster_turn"
    roll_test(f, "cast", TEST_SPECS["cast"], "monster_turn", extra)


@on_test("cast")
def cast_settled(f: Fight, ok: bool) -> None:
    info = f.c.casting
    assert info is not None
    if ok:
        takes_effect(f, info)
    else:
        f.say(CombatCast(spell=info.name, stage="failed"), f"{info.name} fails: roll on Table C - Curses.")
        curse(f)


def takes_effect(f: Fight, info: CastInfo) -> None:
    """A cast spell works: the attack spells wait for the next round, the others act now."""
    ch = f.ch
    effect = CombatCast(spell=info.name, stage="effect")
    if info.spell in QUEUED_SPELLS:
        f.c.queued_spell = QueuedSpell.model_validate({"spell": info.spell, "name": info.name})
        f.say(CombatCast(spell=info.name, stage="queued"), f"{info.name} is cast: it strikes at the start of the next round.")
    elif info.spell == "heal":
        f.events += f.apply_effect(f.ctx, parse_effects("+10 HP").options[0].effects[0], info.name)
    elif info.spell == "healing":
        held = vitals(ch)
        ch.hp = max(ch.hp, derive(ch, f.rules).max_hp)
        f.say(effect, f"{info.name}: HP {held['hp']} -> {ch.hp}.")
        f.events += changed_vitals(ch, f.rules, held)  # the typed hp event the statistics read
    elif info.spell == "resurrection":
        ch.res = True
        f.say(effect, f"{info.name}: RES is written in your Lives box.")
    elif info.spell == "open_magic":
        f.say(effect, f"{info.name} is cast, but there is no magic seal to open in a fight.")
    else:
        f.say(effect, f"{info.name} is cast.")
        f.events += f.apply_outcome(f.ctx, parse_effects(info.effect), info.name)


# --------------------------------------------------------------------------- spells landing next round


@step("spell")
def s_spell(f: Fight) -> bool:
    queued = f.c.queued_spell
    assert queued is not None
    if queued.spell == "fire_blast":
        f.c.queued_spell = None
        damage_monster(f, FIRE_BLAST_DAMAGE, "Fire Blast", spell=True)
        f.c.step = "after_spell"
        return True
    return hold(f, "d10", f"{queued.name}: damage", "spell_resolve")


@step("spell_resolve")
def s_spell_resolve(f: Fight) -> bool:
    record = take_held(f)
    queued = f.c.queued_spell
    assert queued is not None
    f.c.queued_spell = None
    roll = die_value(record, 0)
    damage = ab.spell_damage(roll, f.m.defence)
    f.say(SpellPayload(spell=queued.name, roll=roll, damage=damage), f"{queued.name}: {roll} - DEF {f.m.defence} = {damage}.")
    damage_monster(f, damage, queued.name, spell=True)
    if queued.spell == "ice_storm" and f.c.alive:
        f.c.frozen = True
        f.c.attack_bonus += ICE_STORM_ATTACK_BONUS
        f.say(CombatFrozen(), f"{f.m.name} is frozen this round: it cannot act, and you gain +10 to your attack.")
    f.c.step = "after_spell"
    return True


@step("after_spell")
def s_after_spell(f: Fight) -> bool:
    if not f.c.alive:
        f.say(SpellPayload(killed=True), f"The spell kills {f.m.name} at the start of the round, before it can act.")
        f.c.step = "monster_dead"
    else:
        f.c.step = "reaction"
    return True


# --------------------------------------------------------------------------- Table C - Curses


CURSE_TABLE = "d100.C"
CURSE_PURPOSE = "Table C - Curses (failed CAST SPELL)"


def curse(f: Fight) -> None:
    """A failed CAST SPELL rolls Table C; the roll is held for its Fate window (step ``curse_resolve``)."""
    try:
        hold_table(f, CURSE_TABLE, CURSE_PURPOSE, 0, "curse_resolve")
    except (TableError, DiceError) as exc:
        f.say(CombatCurse(), f"Table C: {exc}")


@step("curse_resolve")
def s_curse_resolve(f: Fight) -> bool:
    result = take_table(f)
    f.c.step = "monster_turn"
    if result.row is None:
        return wait_for_row(f, result, "curse")
    apply_curse(f, result)
    return not f.over


def apply_curse(f: Fight, result: TableRoll) -> None:
    """Table C's printed curse, as the row names it."""
    assert result.row is not None
    name = result.row.fields.get("name", "").upper()
    effect = result.row.fields.get("effect", "")
    f.say(CombatCurse(table_roll=result), result.describe())
    if "DIVINE WRATH" in name:
        _divine_wrath(f)
    elif "ARCANE" in name:
        m = re.search(r"(\d+)\s*pips?", effect)
        shade_all_items(f, int(m.group(1)) if m else 1, name.title())
    elif "UNSKILLED" in name:
        _unskilled(f)
    else:
        f.events += f.apply_outcome(f.ctx, parse_effects(effect), name.title() or "Curse")
        if f.ch.hp <= 0 and not f.ch.dead:
            cheat_death(f)


def _divine_wrath(f: Fight) -> None:
    ch = f.ch
    if ch.lives >= 2:
        held = vitals(ch)
        ch.hp, ch.fate, ch.lives = 1, 0, ch.lives - 2
        f.say(CombatCurse(), f"Divine Wrath: HP 1, Fate 0, Lives {ch.lives}.")
        f.events += changed_vitals(ch, f.rules, held)  # the typed hp / fate / life events the statistics read
    else:
        die(f, "DIVINE WRATH with fewer than 2 Lives to lose")


def _unskilled(f: Fight) -> None:
    roll = f.ctx.dice.roll("d10", "Unskilled: which skill").natural
    skill = f.rules.skills[(roll - 1) % len(f.rules.skills)]
    score = f.ch.skills[skill]
    if score.bonus >= 10:
        score.bonus -= 10
        f.say(CombatCurse(), f"Unskilled ({roll}): {skill} -10, now +{score.bonus}.")
    else:
        f.say(CombatCurse(), f"Unskilled ({roll}): {skill} has no +10 to lose - suffer 7 HP instead.")
        hero_loses(f, 7, "Unskilled")


def shade_all_items(f: Fight, pips: int, source: str) -> None:
    """Arcane curses: pips on every equipped and backpacked armour, weapon and shield."""
    ch = f.ch

    def length_of(item: Item) -> int:
        return item.repair_track or f.rules.sheet.repair_track

    for slot, item in list(ch.equipment.items()):
        if item is not None and item.kind in ("armour", "weapon", "shield"):
            item.repair_pips = min(length_of(item), item.repair_pips + pips)
            if item.repair_pips >= length_of(item):
                ch.equipment[slot] = None
                f.say(CombatItemDestroyed(item=item.name), f"{source}: {item.name} is destroyed.")
    kept = []
    for item in ch.backpack:
        if item.kind in ("armour", "weapon", "shield"):
            item.repair_pips = min(length_of(item), item.repair_pips + pips)
            if item.repair_pips >= length_of(item):
                f.say(CombatItemDestroyed(item=item.name), f"{source}: {item.name} (backpack) is destroyed.")
                continue
        kept.append(item)
    ch.backpack = kept
    held = vitals(ch)
    clamp_hp(ch, f.rules)
    f.say(CombatCurse(), f"{source}: {pips} repair pips on every equipped and backpacked item.")
    f.events += changed_vitals(ch, f.rules, held)  # an HP item destroyed: HP down to the new maximum
