"""The monster's side of the round (steps 4 and 5) and HP on the hero.

The monster attacks (Attacks N against one AV), rolls damage and hit location (Large), and
the damage meets the hero's Defence Bonus and DEF (Death Touch, Dodge brews, Freeze);
Regenerate, Disease, Poison, Fire and Freeze act on natural 1s; offsets onto items come
before the HP are lost; a waist hit calls for a Belt Check. The arithmetic is in
:mod:`.abilities`, shared with the odds simulator.
"""

from __future__ import annotations

from d100gui.engine.combat import abilities as ab
from d100gui.engine.combat.attack import heal_monster, take_boost
from d100gui.engine.combat.events import (
    CombatBeltCheck,
    CombatDisease,
    CombatEscape,
    CombatFrozen,
    CombatHeroHp,
    CombatItemDestroyed,
    CombatLife,
    CombatMonsterAttack,
    CombatMonsterDamage,
    CombatPoison,
    CombatRes,
    CombatRoll,
    CombatSimultaneous,
    HeroDied,
)
from d100gui.engine.combat.flow import Fight, die_value, hold, location_name, monster_escapes, step, take_held
from d100gui.engine.combat.monster import MonsterHit
from d100gui.engine.hero import health
from d100gui.engine.hero.derive import clamp_hp, derive, items_at
from d100gui.engine.hero.equipment import destroy_belt_check
from d100gui.engine.hero.events import DeathCheated, HeroFell
from d100gui.engine.hero.model import Item
from d100gui.engine.hero.vitals import changed_vitals, vitals

_TRACK_PAYLOADS = {"disease": CombatDisease, "poison": CombatPoison}

# --------------------------------------------------------------------------- HP on the hero


def hero_loses(f: Fight, amount: int, source: str) -> bool:
    """The hero loses ``amount`` HP (Drain Life feeds the monster). False if the hero died."""
    if amount <= 0:
        return True
    before = f.ch.hp
    f.ch.hp -= amount
    f.c.hero_hp_lost += amount
    f.say(CombatHeroHp(delta=-amount, hp=f.ch.hp, source=source), f"{source}: you lose {amount} HP ({before} -> {f.ch.hp}).")
    if f.c.drain_life and f.c.alive:
        heal_monster(f, amount, "Drain Life")
    if f.ch.hp <= 0:
        return cheat_death(f)
    return True


def cheat_death(f: Fight) -> bool:
    """HP 0 or less: the one HP-zero rule (:func:`~d100gui.engine.hero.health.cheat_death`:
    RES first, then a Life); with neither the hero dies. False if dead."""
    outcome = health.cheat_death(f.ch, f.rules, f.m.name)
    if isinstance(outcome, DeathCheated):
        if outcome.how == "res":
            f.say(CombatRes(hp=outcome.hp), f"RES: you are resurrected instead of using a Life (HP {outcome.hp}).")
        else:
            f.say(
                CombatLife(lives=outcome.lives, hp=outcome.hp),
                f"You cheat death: a Life is spent ({outcome.lives} left), HP back to {outcome.hp}.",
            )
        return True
    if isinstance(outcome, HeroFell):
        die(f, "HP 0 and no Lives left")
        return False
    return True


def die(f: Fight, reason: str) -> None:
    """The hero is dead: the sheet joins the hall of the fallen and the fight is gone
    (:func:`~d100gui.engine.hero.health.lay_to_rest`)."""
    ch = f.ch
    ch.dead = True
    health.lay_to_rest(f.campaign, ch)
    f.over = True
    name = ch.name or "The hero"
    f.say(HeroDied(reason=reason), f"{name} has died ({reason}) fighting {f.m.name} and joins the hall of the fallen.")


def shade_item(f: Fight, item: Item, pips: int, source: str) -> None:
    """Shade ``pips`` on the item's repair track; a full track destroys it."""
    length = item.repair_track or f.rules.sheet.repair_track
    item.repair_pips = min(length, item.repair_pips + pips)
    if item.repair_pips >= length:
        before = vitals(f.ch)
        for slot, held in f.ch.equipment.items():
            if held is item:
                f.ch.equipment[slot] = None
        clamp_hp(f.ch, f.rules)
        f.say(CombatItemDestroyed(item=item.name), f"{source}: {item.name}'s repair track is full - it is destroyed.")
        f.events += changed_vitals(f.ch, f.rules, before)  # an HP item destroyed: HP down to the new maximum


# --------------------------------------------------------------------------- step 4: the attack


@step("monster_turn")
def s_monster_turn(f: Fight) -> bool:
    c = f.c
    if c.monster_escaping:
        if c.alive:
            monster_escapes(f, "")
            return False
        f.say(CombatEscape(what="monster_cut_down"), f"{f.m.name} is cut down as it tries to flee.")
        c.step = "round_end"
        return True
    if c.frozen:
        f.say(CombatFrozen(), f"{f.m.name} is frozen and cannot attack this round.")
        c.step = "after_monster"
        return True
    if not c.alive:
        f.say(CombatSimultaneous(), f"{f.m.name} is dead, but both attacks are simultaneous: it still attacks.")
    c.monster_hit = MonsterHit(attacks=f.m.attacks, target=monster_av(f))
    c.step = "monster_attack"
    return True


def monster_av(f: Fight) -> int:
    """The monster's AV this round: printed, reaction bonus, Pack bonus, Dark Strike."""
    return f.m.av + f.c.av_bonus + f.c.pack_bonus + f.c.dark_av


@step("monster_attack")
def s_monster_attack(f: Fight) -> bool:
    mh = f.c.monster_hit
    assert mh is not None
    done = len(mh.rolls)
    if done < mh.attacks:
        label = f"{f.m.name} attacks" + (f" ({done + 1} of {mh.attacks})" if mh.attacks > 1 else "") + f", AV {mh.target}"
        return hold(f, "d100", label, "monster_attack_resolve")
    mh.hits = sum(1 for r in mh.rolls if r <= mh.target)
    f.c.step = "monster_damage" if mh.hits else "after_monster"
    return True


@step("monster_attack_resolve")
def s_monster_attack_resolve(f: Fight) -> bool:
    mh = f.c.monster_hit
    assert mh is not None
    natural = take_held(f).natural
    mh.rolls.append(natural)
    hit = natural <= mh.target
    f.say(
        CombatMonsterAttack(hit=hit, roll=natural, target=mh.target, attack=len(mh.rolls), attacks=mh.attacks),
        f"{f.m.name} rolls {natural} against AV {mh.target}: {'hit' if hit else 'miss'}.",
    )
    f.c.step = "monster_attack"
    return True


# --------------------------------------------------------------------------- step 5: the damage


@step("monster_damage")
def s_monster_damage(f: Fight) -> bool:
    mh = f.c.monster_hit
    assert mh is not None
    dice = "d6" if mh.hits == 1 else f"{mh.hits}d6"
    return hold(f, f"{dice}+d10", f"{f.m.name}: damage and hit location", "monster_damage_resolve")


@step("monster_damage_resolve")
def s_monster_damage_resolve(f: Fight) -> bool:
    mh = f.c.monster_hit
    assert mh is not None
    record = take_held(f)
    faces = [d.face for d in record.dice if d.sides == 6]
    mh.location = die_value(record, len(record.dice) - 1)
    for i in range(len(faces)):
        tries = 0
        while ab.rerolled_by_large(f.m, faces[i]) and tries < 1000:
            tries += 1
            purpose = f"Large: re-roll the damage die showing {faces[i]}"
            again = f.ctx.dice.roll("d6", purpose)
            f.say(CombatRoll(roll=again, purpose=purpose), again.describe())
            faces[i] = again.natural
    mh.dice = faces
    slot = f.rules.slot_at_location(mh.location)
    mh.slot = slot.id if slot else ""
    f.c.step = "monster_damage_apply"
    return True


@step("monster_damage_apply")
def s_monster_damage_apply(f: Fight) -> bool:
    mh = f.c.monster_hit
    assert mh is not None
    counted, mh.ones, mh.heal = ab.counted_dice(f.m, mh.dice)
    _apply_damage(f, mh, counted)
    if mh.ones:
        _natural_ones(f, mh.ones)
    f.c.step = "monster_damage_hp"
    if mh.damage > 0:
        return not _offer_offsets(f, mh)
    return True


def _apply_damage(f: Fight, mh: MonsterHit, counted: list[int]) -> None:
    """The damage of the counted dice against the hero's Defence Bonus and DEF at the location hit."""
    c, m = f.c, f.m
    if not counted:
        mh.total = mh.damage = 0
        f.say(
            CombatMonsterDamage(location=mh.location, dice=list(mh.dice)),
            f"{m.name}'s damage dice all show 1: Regenerate - no damage.",
        )
        return
    d = derive(f.ch, f.rules)
    where = location_name(f, mh.location)
    natural = sum(counted)
    mod = f.rules.damage_mod(mh.slot) if mh.slot else 0
    dodge = take_boost(f, "DEF")
    armour = d.defence.get(mh.slot, 0)
    result = ab.monster_damage(m, natural, mod, c.dark_dmg, d.defence_bonus, armour, dodge, c.def_penalty)
    mh.total, mh.defence_bonus, mh.defence, mh.damage = result.total, result.defence_bonus, result.defence, result.damage
    dmg = m.dmg + c.dark_dmg
    steps = f"die {' + '.join(map(str, counted))}" + (f" {mod:+d} ({where})" if mod else f" ({where})") + f" {dmg:+d} DMG"
    steps += f" = {mh.total}"
    if mh.defence_bonus:
        steps += f"; Defence Bonus -{mh.defence_bonus} (natural {natural} ≤ DB {d.defence_bonus}) = {mh.total - mh.defence_bonus}"
    defence_bits = [f"DEF {armour}"]
    if dodge:
        defence_bits.append(f"brew +{dodge}")
    if m.has("death_touch"):
        defence_bits.append(f"Death Touch -{ab.DEATH_TOUCH_DEF}")
    if c.def_penalty:
        defence_bits.append(f"frozen -{c.def_penalty}")
    steps += f"; {' '.join(defence_bits)} -> {mh.damage} damage"
    f.say(
        CombatMonsterDamage(
            damage=mh.damage,
            location=mh.location,
            dice=list(mh.dice),
            total=mh.total,
            defence_bonus=mh.defence_bonus,
            defence=mh.defence,
        ),
        f"{m.name} hits your {where}: {steps}.",
    )


def _natural_ones(f: Fight, ones: int) -> None:
    """Disease and Poison shade their tracks; Fire and Freeze queue their tests."""
    ch = f.ch
    for name, track in ab.tracks_shaded(f.m):
        length = int(getattr(f.rules.sheet, track))
        before = int(getattr(ch, name))
        setattr(ch, name, min(length, before + ones))
        after = int(getattr(ch, name))
        f.say(
            _TRACK_PAYLOADS[name](before=before, after=after),
            f"{name.title()}: a natural 1 on the damage die - {name} track {before} -> {after}.",
        )
    f.c.after_tests += ab.tests_after_damage(f.m, ones)


def _offer_offsets(f: Fight, mh: MonsterHit) -> bool:
    """Offer offsets onto the item at the location and the shield. True: the fight waits."""
    ch = f.ch
    items = items_at(ch, mh.slot) if mh.slot else []
    if items:
        mh.item_name = items[0].name
        mh.item_max = min(f.rules.repair.max_item_offset, mh.damage)
    shield = ch.equipment.get("off_weapon")
    if shield is not None and shield.kind == "shield" and shield.shield > 0:
        mh.shield_name = shield.name
        mh.shield_max = min(shield.shield, mh.damage)
    if not (mh.item_max or mh.shield_max):
        return False
    f.c.waiting = "offset"
    options = []
    if mh.item_max:
        options.append(f"up to {mh.item_max} onto {mh.item_name} (1 repair pip each)")
    if mh.shield_max:
        options.append(f"up to {mh.shield_max} onto {mh.shield_name} (half a pip each)")
    f.ask(
        f"{mh.damage} damage: you may offset {' and '.join(options)}.",
        damage=mh.damage,
        item_max=mh.item_max,
        shield_max=mh.shield_max,
    )
    return True


@step("monster_damage_hp")
def s_monster_damage_hp(f: Fight) -> bool:
    c, mh = f.c, f.c.monster_hit
    assert mh is not None
    lost = mh.damage - mh.offset_item - mh.offset_shield
    if lost > 0 and not hero_loses(f, lost, f"{f.m.name}'s attack"):
        return False
    if mh.heal and c.alive:
        heal_monster(f, mh.heal, "Regenerate")
    if ab.dazes(f.m, lost):
        c.after_tests.append("dazed")
    slot = f.rules.slot(mh.slot) if mh.slot else None
    c.step = "belt_check" if slot is not None and slot.belt_check else "after_tests"
    return True


@step("belt_check")
def s_belt_check(f: Fight) -> bool:
    return hold(f, "d10", "Belt Check (waist hit)", "belt_check_resolve")


@step("belt_check_resolve")
def s_belt_check_resolve(f: Fight) -> bool:
    roll = die_value(take_held(f), 0)
    where, item = destroy_belt_check(f.ch, f.rules, roll)
    if item is None:
        f.say(CombatBeltCheck(roll=roll, where=where), f"Belt Check: rolled {roll}, {where} is empty - nothing lost.")
    else:
        f.say(
            CombatBeltCheck(roll=roll, where=where, item=item.name),
            f"Belt Check: rolled {roll}, {item.name} in {where} is destroyed.",
        )
    f.c.step = "after_tests"
    return True
