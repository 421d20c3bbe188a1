"""The hero's side of the round: weapons, the attack test, the damage roll (step 3), HP on the monster.

Perfect Aim and Mighty Blow are steps of the damage roll; the monster's abilities that change
the attack or its damage (Fly, Phase, Ethereal, Tough) come from :mod:`.abilities`.
"""

from __future__ import annotations

from d100gui.engine.combat import abilities as ab
from d100gui.engine.combat.events import CombatDamage as DamagePayload
from d100gui.engine.combat.events import CombatHit, CombatMiss, CombatMonsterHeal, CombatMonsterHp
from d100gui.engine.combat.flow import Fight, die_value, hold, location_name, on_test, step, take_held
from d100gui.engine.combat.monster import AttackChoice, HeroHit, Monster
from d100gui.engine.hero.derive import derive, items_at
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character, Item, TestPart

WEAPON_SLOTS = ("main_weapon", "off_weapon")
ICE_STORM_ATTACK_BONUS = 10


def weapon_in(character: Character, slot: str) -> Item | None:
    """The weapon the hero can attack with from ``slot`` (a shield is not one)."""
    for item in items_at(character, slot):
        if item.kind == "weapon":
            if slot == "off_weapon" and character.equipment.get("off_weapon") is None:
                return None  # a two-handed main weapon covers the slot: it attacks from the main slot
            return item
    return None


def has_weapon(character: Character) -> bool:
    return any(weapon_in(character, s) is not None for s in WEAPON_SLOTS)


def weapon_stats(item: Item) -> list[str]:
    """(H) uses STR, (R) DEX, (H,R) either; an item without a type counts as a hand weapon."""
    if item.weapon_type == "R":
        return ["DEX"]
    if item.weapon_type == "H,R":
        return ["STR", "DEX"]
    return ["STR"]


def attack_choice(ch: Character, slot: str, stat: str) -> AttackChoice:
    """The weapon in ``slot`` with the characteristic it attacks with; refused when it cannot."""
    weapon = weapon_in(ch, slot)
    if weapon is None:  # pragma: no cover - available_actions refuses first
        refuse(f"There is no weapon in your {slot.replace('_', ' ')} slot.")
    allowed = weapon_stats(weapon)
    chosen = stat.upper()[:3]
    if not chosen:
        if len(allowed) > 1:
            refuse(f"{weapon.name} is (H,R): choose STR (hand) or DEX (ranged) for the attack.")
        chosen = allowed[0]
    if chosen not in allowed:
        kind = {"STR": "a hand weapon (STR)", "DEX": "a ranged weapon (DEX)"}[allowed[0]]
        refuse(f"{weapon.name} is {kind}: it cannot attack with {chosen}.")
    return AttackChoice.model_validate({"slot": slot, "stat": chosen, "weapon": weapon.name})


def attack_parts(monster: Monster, stat: str, attack_bonus: int) -> list[TestPart]:
    """The attack test's extra terms: the monster's abilities, then Ice Storm's +10."""
    parts = ab.attack_modifiers(monster, stat)
    if attack_bonus:
        parts.append(TestPart(label="Ice Storm: monster frozen", value=attack_bonus))
    return parts


def take_boost(f: Fight, stat: str) -> int:
    """Use up the brews of ``stat`` (DMG, DEF): their total."""
    total = sum(b.amount for b in f.c.boosts if b.stat == stat)
    f.c.boosts = [b for b in f.c.boosts if b.stat != stat]
    return total


@on_test("attack")
def attack_settled(f: Fight, ok: bool) -> None:
    if ok:
        f.say(CombatHit(), f"You hit {f.m.name}.")
        f.c.step = "hero_damage"
    else:
        f.say(CombatMiss(), "You miss.")


# --------------------------------------------------------------------------- HP on the monster


def damage_monster(f: Fight, raw: int, source: str, *, spell: bool = False) -> int:
    """Deal ``raw`` damage: Ethereal, Tough, then over the pack in printed order. Returns HP taken."""
    m, c = f.m, f.c
    if raw <= 0:
        f.say(CombatMonsterHp(source=source, hp=list(c.hp), alive=c.alive, blocked="none"), f"{source}: no damage gets through.")
        return 0
    weapon = weapon_in(f.ch, c.attack.slot) if c.attack else None
    if ab.passes_through(m, weapon is not None and weapon.legendary, spell):
        f.say(
            CombatMonsterHp(raw=raw, source=source, hp=list(c.hp), alive=c.alive, blocked="ethereal"),
            f"{source}: {raw} damage passes straight through the ethereal {m.name}.",
        )
        return 0
    hp_damage = ab.hp_taken(m, raw)
    before = m.hp_label(c.hp)
    remaining, dealt = hp_damage, 0
    for i, value in enumerate(c.hp):
        if remaining <= 0:
            break
        if value <= 0:
            continue
        take = min(value, remaining)
        c.hp[i] = value - take
        remaining -= take
        dealt += take
    if dealt:
        c.damaged_this_round = True
    tough = f" (Tough: {raw} damage takes {hp_damage} HP)" if m.has("tough") else ""
    f.say(
        CombatMonsterHp(dealt=dealt, raw=raw, source=source, hp=list(c.hp), alive=c.alive),
        f"{source}: {raw} damage{tough} - {m.name} HP {before} -> {m.hp_label(c.hp)}" + ("; it is dead." if not c.alive else "."),
    )
    return dealt


def heal_monster(f: Fight, amount: int, source: str) -> None:
    """Restore lost HP to the living individual that has been hurt (the dead stay dead)."""
    c = f.c
    for i, value in enumerate(c.hp):
        if value > 0:
            healed = min(amount, f.m.hp[i] - value)
            if healed > 0:
                c.hp[i] = value + healed
                f.say(
                    CombatMonsterHeal(healed=healed, source=source, hp=list(c.hp)),
                    f"{source}: {f.m.name} regains {healed} HP ({f.m.hp_label(c.hp)}).",
                )
            return


# --------------------------------------------------------------------------- step 3: the hero's damage


@step("hero_damage")
def s_hero_damage(f: Fight) -> bool:
    return hold(f, "d6+d10", "Damage and hit location", "hero_damage_resolve")


@step("hero_damage_resolve")
def s_hero_damage_resolve(f: Fight) -> bool:
    record = take_held(f)
    location = die_value(record, 1)
    f.c.hero_hit = HeroHit(dice=[record.dice[0].face], location=location)
    f.c.step = "mighty"
    if derive(f.ch, f.rules).abilities.get("perfect_aim"):
        f.c.hero_hit.first_location = location
        f.c.waiting = "aim"
        f.ask(f"Perfect Aim: hit location {location} ({location_name(f, location)}). Keep it or re-roll once and pick.")
        return False
    return True


@step("aim_resolve")
def s_aim_resolve(f: Fight) -> bool:
    hit = f.c.hero_hit
    assert hit is not None
    hit.second_location = die_value(take_held(f), 0)
    f.c.step = "mighty"
    f.c.waiting = "aim_pick"
    f.ask(
        f"Perfect Aim: first {hit.first_location} ({location_name(f, hit.first_location or 0)}), "
        f"second {hit.second_location} ({location_name(f, hit.second_location)}): pick one."
    )
    return False


@step("mighty")
def s_mighty(f: Fight) -> bool:
    hit = f.c.hero_hit
    assert hit is not None
    if hit.dice[-1] == 6 and derive(f.ch, f.rules).abilities.get("mighty_blow"):
        return hold(f, "d6", "Mighty Blow: a natural 6, roll again and add", "mighty_resolve")
    f.c.step = "hero_hit"
    return True


@step("mighty_resolve")
def s_mighty_resolve(f: Fight) -> bool:
    hit = f.c.hero_hit
    assert hit is not None
    hit.dice.append(take_held(f).dice[0].face)
    f.c.step = "mighty"
    return True


@step("hero_hit")
def s_hero_hit(f: Fight) -> bool:
    c, hit = f.c, f.c.hero_hit
    assert hit is not None and c.attack is not None
    d = derive(f.ch, f.rules)
    slot = f.rules.slot_at_location(hit.location)
    mod = f.rules.damage_mod(slot.id) if slot else 0
    weapon_dmg = d.weapon_dmg.get(c.attack.slot, d.dmg_bonus)
    brew = take_boost(f, "DMG")
    defence = f.m.defence + c.dark_def
    total, raw = ab.hero_damage(sum(hit.dice), mod, weapon_dmg, brew, defence)
    bits = [f"d6 {' + '.join(str(x) for x in hit.dice)}"]
    if mod:
        bits.append(f"{slot.name if slot else 'location'} {mod:+d}")
    if weapon_dmg:
        bits.append(f"DMG {weapon_dmg:+d}")
    if brew:
        bits.append(f"brew {brew:+d}")
    f.say(
        DamagePayload(
            location=hit.location,
            total=total,
            damage=raw,
            dice=list(hit.dice),
            location_mod=mod,
            weapon_dmg=weapon_dmg,
            brew=brew,
            defence=defence,
        ),
        f"Your damage: {', '.join(bits)} = {total}; monster DEF {defence} -> {raw}.",
    )
    damage_monster(f, raw, f"Your hit ({location_name(f, hit.location)})")
    c.step = "monster_turn"
    return True
