"""The round's own steps: start, reaction, Dark Magic, FEAR, the action, the round's end, victory.

Each step is a function ``(Fight) -> bool`` registered with :func:`.flow.step`; the hero's
damage is in :mod:`.attack`, the monster's attack and damage in :mod:`.defence`, spells in
:mod:`.spells`. The handlers of settled combat tests that are not an attack or a spell are
here too. Importing this module registers every step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from d100gui.engine.combat import abilities as ab
from d100gui.engine.combat import attack as _attack  # noqa: F401 - registers its steps
from d100gui.engine.combat import spells as _spells  # noqa: F401 - registers its steps
from d100gui.engine.combat.actions import action_words, available_actions, round_weapons
from d100gui.engine.combat.defence import hero_loses, monster_av
from d100gui.engine.combat.events import (
    CombatBlock,
    CombatDarkMagic,
    CombatDazed,
    CombatEscape,
    CombatEscaping,
    CombatFear,
    CombatFreeze,
    CombatReaction,
    CombatResurrection,
    CombatRound,
    CombatSurprise,
    CombatWeb,
    CombatWon,
)
from d100gui.engine.combat.flow import (
    Fight,
    die_value,
    end,
    hold,
    monster_escapes,
    on_test,
    roll_test,
    row_text,
    step,
    take_held,
)
from d100gui.engine.combat.monster import EscapedMonster, MonsterHit
from d100gui.engine.combat.printed import FAILED_TEST_HP, FREEZE_DEF_PENALTY, TEST_SPECS
from d100gui.engine.combat.rewards import record_on_track, start_loot
from d100gui.engine.dungeon import map as dg

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


@step("start")
def s_start(f: Fight) -> bool:
    f.c.step = "round_start"
    if f.c.surprise:
        return roll_test(f, "surprise", TEST_SPECS["surprise"], "round_start")
    return True


@step("round_start")
def s_round_start(f: Fight) -> bool:
    c = f.c
    c.round += 1
    c.damaged_last_round, c.damaged_this_round = c.damaged_this_round, False
    c.forfeit_attack, c.next_forfeit_attack = c.next_forfeit_attack, ""
    c.no_escape, c.next_no_escape = c.next_no_escape, ""
    c.no_belt, c.next_no_belt = c.next_no_belt, ""
    c.def_penalty, c.next_def_penalty = c.next_def_penalty, 0
    c.reaction, c.reaction_text, c.monster_escaping, c.av_bonus = None, "", False, 0
    c.dark_spell, c.dark_av, c.dark_def, c.dark_dmg, c.drain_life = "", 0, 0, 0, False
    c.frozen, c.attack_bonus = False, 0
    c.action, c.attack, c.casting, c.hero_hit, c.monster_hit = "", None, None, None, None
    c.after_tests = []
    c.round_weapons = round_weapons(f.ch)
    c.pack_bonus = ab.pack_bonus(f.m, c.living)
    pack = f" Pack: AV +{c.pack_bonus} for {c.living - 1} more alive." if c.pack_bonus else ""
    f.say(
        CombatRound(round=c.round, hp=list(c.hp), pack_bonus=c.pack_bonus),
        f"Round {c.round} against {f.m.name} (HP {f.m.hp_label(c.hp)}).{pack}",
    )
    c.step = "spell" if c.queued_spell else "reaction"
    return True


@step("reaction")
def s_reaction(f: Fight) -> bool:
    if f.c.frozen:
        f.c.reaction_text = "Frozen: no reaction"
        f.c.step = "dark_magic"
        return True
    return hold(f, "d10", "Monster reaction", "reaction_resolve")


@step("reaction_resolve")
def s_reaction_resolve(f: Fight) -> bool:
    c = f.c
    r = die_value(take_held(f), 0)
    reaction = ab.reaction(r, c.damaged_last_round, c.below_half)
    c.reaction, c.monster_escaping, c.av_bonus = r, reaction.escaping, reaction.av_bonus
    c.reaction_text = reaction.text[0].upper() + reaction.text[1:]
    printed = row_text(f, "d100.reaction", r, "reaction")
    head = f"Reaction {r}" + (f" ({printed})" if printed else "")
    f.say(
        CombatReaction(reaction=r, escaping=c.monster_escaping, av_bonus=c.av_bonus, text=reaction.text, printed=printed),
        f"{head}: {reaction.text}.",
    )
    if c.monster_escaping:
        f.say(
            CombatEscaping(),
            "It tries to escape: let it go (you may still attack; if it survives it is gone) or block it "
            "(BLOCK ESCAPE, instead of attacking).",
        )
    c.step = "dark_magic"
    return True


@step("dark_magic")
def s_dark_magic(f: Fight) -> bool:
    if not ab.acts_with_dark_magic(f.m, f.c.frozen):
        f.c.step = "fear"
        return True
    return hold(f, "d10", "Dark Magic", "dark_magic_resolve")


@step("dark_magic_resolve")
def s_dark_magic_resolve(f: Fight) -> bool:
    c = f.c
    r = die_value(take_held(f), 0)
    c.step = "fear"
    spell = ab.dark_magic(r)
    c.dark_spell, c.dark_av, c.dark_def, c.dark_dmg, c.drain_life = spell.name, spell.av, spell.defence, spell.dmg, spell.drain
    f.say(CombatDarkMagic(spell=spell.name, roll=r), f"Dark Magic {r}: {spell.name} - {spell.text}.")
    if spell.hero_loses:
        return hero_loses(f, spell.hero_loses, spell.name)
    return True


@step("fear")
def s_fear(f: Fight) -> bool:
    f.c.step = "action"
    if f.m.has("fear"):
        return roll_test(f, "fear", TEST_SPECS["fear"], "action")
    return True


@step("action")
def s_action(f: Fight) -> bool:
    f.c.waiting = "action"
    allowed = [name for name, why in available_actions(f.campaign, f.rules).items() if not why]
    f.ask(f"Round {f.c.round}: choose your action ({action_words(allowed, f.ch)}).", actions=allowed)
    return False


@step("after_tests")
def s_after_tests(f: Fight) -> bool:
    if f.c.after_tests:
        kind = f.c.after_tests.pop(0)
        return roll_test(f, kind, TEST_SPECS[kind], "after_tests")
    f.c.step = "after_monster"
    return True


@step("after_monster")
def s_after_monster(f: Fight) -> bool:
    c = f.c
    if c.free_attack:
        c.free_attack = False
        c.monster_hit = None
        c.step = "round_start"
    else:
        c.step = "round_end"
    return True


@step("round_end")
def s_round_end(f: Fight) -> bool:
    if not f.c.alive:
        f.c.step = "monster_dead"
        return True
    f.c.step = "round_start"
    if f.m.has("web"):
        return roll_test(f, "web", TEST_SPECS["web"], "round_start")
    return True


@step("monster_dead")
def s_monster_dead(f: Fight) -> bool:
    if f.m.has("resurrection"):
        return hold(f, "d10", f"Resurrection: does {f.m.name} rise again (1)?", "resurrection_resolve")
    f.c.step = "victory"
    return True


@step("resurrection_resolve")
def s_resurrection_resolve(f: Fight) -> bool:
    roll = die_value(take_held(f), 0)
    if ab.resurrects(f.m, roll):
        f.c.hp = list(f.m.hp)
        f.c.resurrections += 1
        f.say(CombatResurrection(roll=roll, risen=True), f"Resurrection ({roll}): {f.m.name} rises again at full HP - fight on!")
        f.c.step = "round_start"
    else:
        f.say(CombatResurrection(roll=roll), f"Resurrection ({roll}): {f.m.name} stays dead.")
        f.c.step = "victory"
    return True


@step("victory")
def s_victory(f: Fight) -> bool:
    m = f.m
    f.say(CombatWon(), f"{m.name} is defeated!")
    record_on_track(f)
    if f.over:  # pragma: no cover - a milestone cannot kill
        return False
    options = m.loot.options if m.loot is not None else []
    if len(options) > 1:
        f.c.step = "loot"
        f.c.waiting = "loot"
        f.ask(f"{m.loot.describe() if m.loot else 'Loot'}: choose the table.", options=[o.text for o in options])
        return False
    if options:
        start_loot(f, options[0])
    else:
        f.c.step = "won"
    return True


@step("loot")
def s_loot(f: Fight) -> bool:  # pragma: no cover - only reached through CombatChooseLoot
    f.c.waiting = "loot"
    return False


# --------------------------------------------------------------------------- settled tests


@on_test("surprise")
def surprise_settled(f: Fight, ok: bool) -> None:
    if ok:
        f.say(CombatSurprise(), "Not surprised: the fight starts normally.")
        return
    f.say(CombatSurprise(surprised=True), f"Surprised! {f.m.name} has a free attack, then the fight starts normally.")
    f.c.free_attack = True
    f.c.pack_bonus = ab.pack_bonus(f.m, f.c.living)
    f.c.monster_hit = MonsterHit(attacks=f.m.attacks, target=monster_av(f))
    f.c.step = "monster_attack"


@on_test("fear")
def fear_settled(f: Fight, ok: bool) -> None:
    if not ok:
        f.c.forfeit_attack = "you failed the FEAR test"
        f.say(CombatFear(), "Fear grips you: you forfeit your attack this round.")


@on_test("escape")
def escape_settled(f: Fight, ok: bool) -> None:
    if ok:
        area = mark_escaped_on_map(f.campaign, f.m.name)
        f.campaign.escaped_monsters.append(EscapedMonster(monster=f.m, escaped_by="hero", round=f.c.round, area=area))
        end(f, "hero_escaped", f"You escape from {f.m.name}. Mark it on the map: next time it is back at full HP.")
    else:
        f.say(CombatEscape(), "You fail to escape.")
        hero_loses(f, FAILED_TEST_HP["escape"], "ESCAPE COMBAT failed")


@on_test("block")
def block_settled(f: Fight, ok: bool) -> None:
    if ok:
        f.c.monster_escaping = False
        f.say(CombatBlock(), f"You block {f.m.name}'s escape: on to step 3, your damage roll.")
        f.c.step = "hero_damage"
    else:
        monster_escapes(f, "It slips past your block.")


@on_test("web")
def web_settled(f: Fight, ok: bool) -> None:
    if not ok:
        f.c.next_forfeit_attack = f.c.next_forfeit_attack or "you are caught in the web"
        f.c.next_no_escape = f.c.next_no_escape or "you are caught in the web"
        f.say(CombatWeb(), "Caught in the web: next round you forfeit your attack and cannot escape.")


@on_test("fire")
def fire_settled(f: Fight, ok: bool) -> None:
    if not ok:
        hero_loses(f, FAILED_TEST_HP["fire"], "AVOID FIRE failed")


@on_test("freeze")
def freeze_settled(f: Fight, ok: bool) -> None:
    if not ok:
        f.c.next_def_penalty = FREEZE_DEF_PENALTY
        f.say(CombatFreeze(), "Frozen: -2 DEF next combat round.")
        hero_loses(f, FAILED_TEST_HP["freeze"], "AVOID FREEZE failed")


@on_test("dazed")
def dazed_settled(f: Fight, ok: bool) -> None:
    if not ok:
        f.c.next_forfeit_attack = "you are dazed"
        f.c.next_no_escape = "you are dazed"
        f.c.next_no_belt = "you are dazed"
        f.say(CombatDazed(), "Dazed: next round you forfeit your attack, cannot escape and cannot use your belt.")


def mark_escaped_on_map(campaign: Campaign, name: str) -> str:
    """Mark the monster on the hero's map area ("If you escape a monster, mark the monster in
    that section"); returns the area key, or "" when no dungeon is in play."""
    dungeon = campaign.dungeons.current_dungeon
    if dungeon is None or dungeon.hero is None or dungeon.area_at(dungeon.hero) is None:
        return ""
    campaign.dungeons = dg.replace_current(campaign.dungeons, dg.mark_escaped(dungeon, dungeon.hero, name))
    return dg.pos_key(dungeon.hero)
