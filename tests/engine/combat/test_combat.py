"""Combat through the Game with scripted dice: the round, every monster ability, and the rest.

Dice are scripted face by face: a d100 is two d10 faces (tens, units; 0,0 = 100), a lone
d10 face 0 reads 10, a d6 face is 1-6. Every test checks the fight used exactly the dice
it was given, so a step rolled too often or too rarely fails.
"""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.actions import available_actions
from d100gui.engine.combat.monster import Monster, typed_monster
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.fight_commands import (
    CombatAttack,
    CombatBlockEscape,
    CombatCastSpell,
    CombatChangeWeapon,
    CombatChooseLoot,
    CombatContinue,
    CombatEscape,
    CombatFate,
    CombatOffset,
    CombatPass,
    CombatPerfectAim,
    CombatUseBelt,
)
from d100gui.engine.fight_start import COMBAT_COMMANDS, StartCombat
from d100gui.engine.game import Game
from d100gui.engine.hero.decisions import ExperienceChoice, TargetChoice
from d100gui.engine.hero.derive import incoming_damage
from d100gui.engine.hero.model import CombatTrackEntry, Item, SpellEntry, new_character
from d100gui.engine.item_commands import CHARACTER_COMMANDS
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.skill_test_commands import AcceptTest, UseFate
from d100gui.storage.resources import bundled_rules, standard_tilesets

RULES = bundled_rules()
SWORD = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")


def d100(n: int) -> list[int]:
    return [0, 0] if n == 100 else [n // 10, n % 10]


def d10(n: int) -> list[int]:
    return [0 if n == 10 else n]


def flat(parts) -> list[int]:
    out: list[int] = []
    for p in parts:
        out += flat(p) if isinstance(p, list | tuple) else [p]
    return out


def hero(strength=40, dex=40, intelligence=40, hp=20, lives=0, fate=0, weapon=True):
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Aria"
    for stat, value in (("STR", strength), ("DEX", dex), ("INT", intelligence)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = 20
    ch.hp = hp
    ch.lives, ch.fate = lives, fate
    if weapon:
        ch.equipment["main_weapon"] = SWORD.model_copy()
    return ch


def game_for(ch, library, *faces, seed=7):
    campaign = Campaign()
    campaign.meta.seed = seed
    campaign.character = ch
    game = Game(
        campaign, library, commands=[*CHARACTER_COMMANDS, *COMBAT_COMMANDS], rules=bundled_rules(), tilesets=standard_tilesets()
    )
    game.override = ScriptedSource(flat(faces))
    return game


def push(game, *faces) -> None:
    game.override.push(*flat(faces))


def start(game, monster, **kw):
    return game.execute(StartCombat(source="monster", monster=monster, fate_windows=kw.pop("fate_windows", False), **kw))


def text(events) -> str:
    return "\n".join(e.message for e in events)


def used_all(game) -> bool:
    return game.override.remaining == 0


def goblin(**kw) -> Monster:
    args = {"av": 40, "hp": 10, "defence": 1, "dmg": 0}
    args.update(kw)
    return typed_monster("Goblin", **args)


# --------------------------------------------------------------------------- the round


def test_a_full_round_and_the_dead_monster_still_attacks(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    events = start(game, goblin(hp=6, loot="[K:Table P]"))
    c = game.campaign.combat
    assert (c.round, c.waiting, c.reaction, c.step) == (1, "action", 5, "action")
    assert "Reaction 5 (Monster will Attack as normal): it attacks as normal." in text(events)
    # hit 30 <= STR 40; d6 4 + head +3 - DEF 1 = 6 kills it; it still attacks: 20 <= AV 40,
    # d6 3 at the arms = 3 damage; then the loot: Table P 02 = EARS
    push(game, d100(30), 4, d10(1), d100(20), 3, d10(4), d100(2))
    events = game.execute(CombatAttack())
    kinds = [e.kind for e in events]
    assert kinds.index("combat_hit") < kinds.index("combat_monster_hp") < kinds.index("combat_simultaneous")
    assert kinds.index("combat_simultaneous") < kinds.index("combat_monster_attack") < kinds.index("combat_won")
    assert "Your damage: d6 4, Head +3 = 7; monster DEF 1 -> 6." in text(events)
    assert "Goblin HP 6 -> 0; it is dead." in text(events)
    ch = game.campaign.character
    assert ch.hp == 17 and game.campaign.combat is None
    assert ch.combat_track[-1] == CombatTrackEntry(monster="Goblin", av=40, defence=1, dmg=0, hp="6")
    assert [(i.name, i.value) for i in ch.backpack] == [("Goblin EARS", 10)]
    assert events[-1].kind == "combat_over" and events[-1].data["outcome"] == "won"
    assert used_all(game)


def test_a_miss_and_a_new_round(bundled_library):
    game = game_for(hero(), bundled_library, d10(3))
    start(game, goblin())
    push(game, d100(55), d100(75), d10(4))  # miss, monster misses, round 2 reaction
    events = game.execute(CombatAttack())
    assert "You miss." in text(events) and "Goblin rolls 75 against AV 40: miss." in text(events)
    c = game.campaign.combat
    assert (c.round, c.reaction, c.waiting) == (2, 4, "action") and c.hp == [10]
    assert used_all(game)


def test_denny_defence_bonus_through_the_combat_path(bundled_library):
    ch = hero()
    ch.equipment["head"] = Item(name="Mail Coif", kind="armour", slot="head", defence=2)
    ch.equipment["neck"] = Item(name="Amulet", kind="jewellery", slot="neck", defence=2, defence_bonus=True)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50, dmg=2))
    push(game, d100(90), d100(10), 2, d10(1))  # miss; the monster hits the head with a natural 2
    events = game.execute(CombatAttack())
    assert "die 2 +3 (Head +3) +2 DMG = 7; Defence Bonus -2 (natural 2 ≤ DB 2) = 5; DEF 2 -> 3 damage" in text(events)
    mh = game.campaign.combat.monster_hit
    assert (mh.total, mh.defence_bonus, mh.defence, mh.damage) == (7, 2, 2, 3)
    assert mh.damage == incoming_damage(ch, RULES, "head", 2, 2).damage
    assert game.campaign.combat.waiting == "offset" and mh.item_max == 2 and mh.item_name == "Mail Coif"
    push(game, d10(5))
    game.execute(CombatOffset())
    assert game.campaign.character.hp == 17 and used_all(game)


def test_defence_bonus_only_when_the_die_is_at_most_db(bundled_library):
    ch = hero()
    ch.equipment["neck"] = Item(name="Amulet", kind="jewellery", slot="neck", defence=2, defence_bonus=True)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50, dmg=2))
    push(game, d100(90), d100(10), 3, d10(4), d10(5))  # natural 3 > DB 2: no bonus; 3 + 2 = 5
    game.execute(CombatAttack())
    assert game.campaign.combat.monster_hit is None  # a new round began
    assert game.campaign.character.hp == 15 and used_all(game)


# --------------------------------------------------------------------------- monster abilities


def test_attacks_rolls_each_attack_and_adds_the_dice(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(av=50, special="Attacks 2"))
    push(game, d100(99), d100(10), d100(20), 3, 4, d10(4), d10(5))
    events = game.execute(CombatAttack())
    attacks = [e for e in events if e.kind == "combat_monster_attack"]
    assert [e.data["hit"] for e in attacks] == [True, True]
    assert "Goblin attacks (2 of 2), AV 50" in text(events)
    assert "die 3 + 4 (Arms) +0 DMG = 7" in text(events)
    assert game.campaign.character.hp == 13 and used_all(game)


def test_attacks_with_one_miss_rolls_one_damage_die(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(av=50, special="Attacks 2"))
    push(game, d100(99), d100(80), d100(20), 3, d10(4), d10(5))
    game.execute(CombatAttack())
    assert game.campaign.character.hp == 17 and used_all(game)


@pytest.mark.parametrize(
    ("roll", "spell"),
    [(1, "Dark Strike"), (3, "Shadowy Cloak"), (5, "Evil Touch"), (7, "Drain Life"), (9, "Death Bolt"), (10, "Death Bolt")],
)
def test_dark_magic_each_spell(bundled_library, roll, spell):
    game = game_for(hero(), bundled_library, d10(5), d10(roll))
    start(game, goblin(av=20, defence=0, special="Dark Magic"))
    c = game.campaign.combat
    assert c.dark_spell == spell
    ch = game.campaign.character
    if spell == "Death Bolt":
        assert ch.hp == 18 and c.waiting == "action" and used_all(game)  # at the start of the round
        return
    # hero hits for d6 4 at the arms; the monster rolls 35 (hits only with Dark Strike's +20) for d6 3 at the arms
    push(game, d100(30), 4, d10(4), d100(35))
    if spell == "Dark Strike":
        push(game, 3, d10(4))
    push(game, d10(5), d10(2))  # next round: reaction, Dark Magic 2 (Dark Strike again)
    events = game.execute(CombatAttack())
    if spell == "Dark Strike":
        assert "Goblin rolls 35 against AV 40: hit." in text(events) and ch.hp == 17
    else:
        assert "Goblin rolls 35 against AV 20: miss." in text(events) and ch.hp == 20
    if spell == "Shadowy Cloak":
        assert "monster DEF 4 -> 0" in text(events) and c.hp == [10]
    else:
        assert c.hp == [6]
    assert used_all(game)


def test_dark_magic_evil_touch_and_drain_life_change_the_damage(bundled_library):
    game = game_for(hero(), bundled_library, d10(5), d10(5))
    start(game, goblin(av=50, defence=0, special="Dark Magic"))
    push(game, d100(99), d100(10), 3, d10(4), d10(5), d10(7))  # Evil Touch: 3 + 2 = 5
    game.execute(CombatAttack())
    ch, c = game.campaign.character, game.campaign.combat
    assert ch.hp == 15 and c.dark_spell == "Drain Life"
    push(game, d100(30), 4, d10(4), d100(10), 3, d10(4), d10(5), d10(6))  # hit for 4, then lose 3: it regains 3
    events = game.execute(CombatAttack())
    assert "Drain Life: Goblin regains 3 HP (9)." in text(events)
    assert ch.hp == 12 and c.hp == [9] and used_all(game)


def test_death_touch_takes_two_from_def(bundled_library):
    ch = hero()
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", defence=2)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50, special="Death Touch"))
    push(game, d100(99), d100(10), 3, d10(1))  # 3 + 3 = 6, DEF 2 - 2 = 0
    events = game.execute(CombatAttack())
    assert "DEF 2 Death Touch -2 -> 6 damage" in text(events)
    push(game, d10(5))
    game.execute(CombatOffset())
    assert game.campaign.character.hp == 14 and used_all(game)


@pytest.mark.parametrize(("ability", "track"), [("Disease", "disease"), ("Poison", "poison")])
def test_disease_and_poison_on_a_natural_1(bundled_library, ability, track):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(av=50, dmg=2, special=ability))
    push(game, d100(99), d100(10), 1, d10(4), d10(5), d100(99), d100(10), 2, d10(4), d10(5))
    game.execute(CombatAttack())
    ch = game.campaign.character
    assert getattr(ch, track) == 1 and ch.hp == 17
    game.execute(CombatAttack())  # a 2 infects nobody
    assert getattr(ch, track) == 1 and ch.hp == 13 and used_all(game)


def test_ethereal_only_legendary_weapons_hurt(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(defence=0, special="Ethereal"))
    push(game, d100(20), 5, d10(4), d100(99), d10(5))
    events = game.execute(CombatAttack())
    assert "5 damage passes straight through the ethereal Goblin" in text(events)
    assert game.campaign.combat.hp == [10]
    game.campaign.character.equipment["main_weapon"].legendary = True
    push(game, d100(20), 5, d10(4), d100(99), d10(5))
    game.execute(CombatAttack())
    assert game.campaign.combat.hp == [5] and used_all(game)


def test_fear_forfeits_the_attack_on_a_failed_test(bundled_library):
    game = game_for(hero(), bundled_library, d10(5), d100(80))  # FEAR: INT 40 -15 = 25
    start(game, goblin(special="Fear"))
    c = game.campaign.combat
    assert c.forfeit_attack == "you failed the FEAR test"
    with pytest.raises(CommandRefused, match="You forfeit your attack this round: you failed the FEAR test"):
        game.execute(CombatAttack())
    assert available_actions(game.campaign, RULES)["escape"] == ""  # only the attack is forfeit
    push(game, d100(99), d10(5), d100(9))
    game.execute(CombatPass())
    c = game.campaign.combat  # a refused command restores the campaign: fetch it again
    assert c.round == 2 and c.forfeit_attack == ""  # passed (9 <= 25)
    xp = [d for d in game.campaign.pending if isinstance(d, ExperienceChoice)]
    assert len(xp) == 1 and (xp[0].characteristic, xp[0].skills) == ("INT", ["Bravery"])
    assert used_all(game)


def test_fire_natural_1_calls_avoid_fire(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(av=50, dmg=2, special="Fire"))
    push(game, d100(99), d100(10), 1, d10(4), d100(90), d10(5))  # AVOID FIRE: DEX 40 -5 = 35, 90 fails
    events = game.execute(CombatAttack())
    assert "Test AVOID FIRE: DEX -5: 40 -5 = 35; rolled 90 - failure." in text(events)
    assert "AVOID FIRE failed: you lose 2 HP (17 -> 15)." in text(events)
    assert game.campaign.character.hp == 15 and used_all(game)


def test_freeze_costs_one_hp_and_two_def_next_round(bundled_library):
    ch = hero()
    ch.equipment["torso"] = Item(name="Breastplate", kind="armour", slot="torso", defence=2)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50, dmg=2, special="Freeze"))
    push(game, d100(99), d100(10), 1, d10(4), d100(90), d10(5))
    game.execute(CombatAttack())
    c = game.campaign.combat
    assert ch.hp == 16 and c.def_penalty == 2
    push(game, d100(99), d100(10), 4, d10(3))  # torso: 4 + 1 + 2 = 7, DEF 2 - 2 = 0
    events = game.execute(CombatAttack())
    assert "DEF 2 frozen -2 -> 7 damage" in text(events)
    push(game, d10(5))
    game.execute(CombatOffset())
    assert ch.hp == 9 and c.def_penalty == 0 and used_all(game)


def test_fly_costs_str_but_not_dex(bundled_library):
    ch = hero()
    ch.equipment["off_weapon"] = Item(name="Sling", kind="weapon", weapon_type="R")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(special="Fly"))
    push(game, d100(35), d100(99), d10(5))
    events = game.execute(CombatAttack())
    test = next(e for e in events if e.kind == "combat_test")
    assert test.data["target"] == 30 and "40 -10 = 30; rolled 35 - failure" in test.message
    push(game, d100(35), 2, d10(4), d100(99), d10(5))
    events = game.execute(CombatAttack(slot="off_weapon"))
    assert next(e for e in events if e.kind == "combat_test").data["target"] == 40
    assert game.campaign.combat.hp == [9] and used_all(game)


def test_large_rerolls_ones_and_twos(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(av=50, special="Large"))
    push(game, d100(99), d100(10), 1, d10(4), 2, 5, d10(5))
    events = game.execute(CombatAttack())
    rerolls = [e for e in events if "Large: re-roll" in e.message]
    assert len(rerolls) == 2
    assert game.campaign.combat.monster_hit is None and game.campaign.character.hp == 15 and used_all(game)


def test_pack_av_bonus_and_damage_spreading_in_order(bundled_library):
    rats = typed_monster("Giant Rats", av=25, hp="3/2/2", dmg=-2, special="Disease, Pack")
    game = game_for(hero(), bundled_library, d10(5))
    start(game, rats)
    c = game.campaign.combat
    assert c.pack_bonus == 10
    # 4 damage: the first rat (3) dies, 1 carries to the second; they roll 33 <= 25 + 10
    push(game, d100(20), 4, d10(4), d100(33), 3, d10(4), d10(5))
    events = game.execute(CombatAttack())
    assert "Giant Rats HP 3/2/2 -> 0/1/2." in text(events)
    assert "Giant Rats rolls 33 against AV 35: hit." in text(events)
    assert c.hp == [0, 1, 2] and c.pack_bonus == 5 and game.campaign.character.hp == 19
    assert "Pack: AV +5 for 1 more alive." in text(events)
    assert used_all(game)


def test_phase_costs_str_and_dex(bundled_library):
    ch = hero()
    ch.equipment["off_weapon"] = Item(name="Sling", kind="weapon", weapon_type="R")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(special="Phase"))
    push(game, d100(99), d100(99), d10(5), d100(99), d100(99), d10(5))
    events = game.execute(CombatAttack())
    assert next(e for e in events if e.kind == "combat_test").data["target"] == 30
    events = game.execute(CombatAttack(slot="off_weapon"))
    assert next(e for e in events if e.kind == "combat_test").data["target"] == 30
    assert used_all(game)


def test_regenerate_heals_on_a_natural_1_instead_of_damage(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(av=50, defence=0, dmg=3, special="Regenerate"))
    push(game, d100(30), 4, d10(4), d100(10), 1, d10(4), d10(5))
    events = game.execute(CombatAttack())
    assert "damage dice all show 1: Regenerate - no damage" in text(events)
    assert "Regenerate: Goblin regains 1 HP (7)." in text(events)
    assert game.campaign.character.hp == 20 and game.campaign.combat.hp == [7] and used_all(game)


def test_resurrection_rises_on_a_1_and_stays_dead_otherwise(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(hp=3, defence=0, special="Resurrection"))
    push(game, d100(20), 4, d10(4), d100(99), d10(1), d10(5))
    events = game.execute(CombatAttack())
    assert "Resurrection (1): Goblin rises again at full HP - fight on!" in text(events)
    c = game.campaign.combat
    assert c.hp == [3] and c.round == 2 and c.resurrections == 1
    push(game, d100(20), 4, d10(4), d100(99), d10(6))
    events = game.execute(CombatAttack())
    assert "Resurrection (6): Goblin stays dead." in text(events)
    assert game.campaign.combat is None and len(game.campaign.character.combat_track) == 1 and used_all(game)


def test_stunned_dazed_forfeits_escape_and_belt(bundled_library):
    ch = hero()
    ch.belt[0] = Item(name="Lesser Healing Potion", kind="potion", effect="Restore 4 lost HP")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50, special="Stunned"))
    push(game, d100(99), d100(10), 3, d10(4), d100(90), d10(5))  # DAZED: STR 40 -15 = 25, 90 fails
    events = game.execute(CombatAttack())
    assert "Test DAZED: STR -15: 40 -15 = 25; rolled 90 - failure." in text(events)
    c = game.campaign.combat
    assert (c.forfeit_attack, c.no_escape, c.no_belt) == ("you are dazed", "you are dazed", "you are dazed")
    with pytest.raises(CommandRefused, match="forfeit your attack this round: you are dazed"):
        game.execute(CombatAttack())
    with pytest.raises(CommandRefused, match="cannot escape this round: you are dazed"):
        game.execute(CombatEscape())
    with pytest.raises(CommandRefused, match="cannot use your belt this round: you are dazed"):
        game.execute(CombatUseBelt(belt_slot=1))
    push(game, d100(99), d10(5))
    game.execute(CombatPass())
    c = game.campaign.combat
    assert (c.forfeit_attack, c.no_escape, c.no_belt) == ("", "", "") and used_all(game)


def test_stunned_no_test_without_damage(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(av=50, dmg=-5, special="Stunned"))
    push(game, d100(99), d100(10), 3, d10(4), d10(5))  # 3 - 5: no damage, no DAZED test
    events = game.execute(CombatAttack())
    assert "DAZED" not in text(events) and used_all(game)


def test_surprise_failed_gives_a_free_attack_first(bundled_library):
    game = game_for(hero(), bundled_library, d100(80), d100(10), 3, d10(4), d10(5))  # SURPRISE: INT 40 -10 = 30
    events = start(game, goblin(av=50, special="Surprise"))
    assert "Surprised! Goblin has a free attack" in text(events)
    c = game.campaign.combat
    assert game.campaign.character.hp == 17 and (c.round, c.waiting) == (1, "action") and used_all(game)


def test_surprise_passed_and_table_f_surprise(bundled_library):
    game = game_for(hero(), bundled_library, d100(20), d10(5))
    events = start(game, goblin(av=50), surprise=True)  # Table F: "it has SURPRISE"
    assert "Not surprised" in text(events)
    assert game.campaign.character.hp == 20 and game.campaign.combat.round == 1 and used_all(game)


def test_tough_needs_two_damage_per_hp(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(defence=0, special="Tough"))
    push(game, d100(20), 5, d10(4), d100(99), d10(5))
    events = game.execute(CombatAttack())
    assert "5 damage (Tough: 5 damage takes 2 HP) - Goblin HP 10 -> 8." in text(events)
    assert used_all(game)


def test_web_at_the_end_of_the_round(bundled_library):
    ch = hero()
    ch.belt[0] = Item(name="Lesser Healing Potion", kind="potion", effect="Restore 4 lost HP")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(special="Web"))
    push(game, d100(99), d100(99), d100(90), d10(5))  # AVOID WEB: DEX 40 +20 = 60, 90 fails
    events = game.execute(CombatAttack())
    assert "Test AVOID WEB: DEX +20: 40 +20 = 60; rolled 90 - failure." in text(events)
    c = game.campaign.combat
    assert c.forfeit_attack and c.no_escape and not c.no_belt
    with pytest.raises(CommandRefused, match="caught in the web"):
        game.execute(CombatEscape())
    with pytest.raises(CommandRefused, match="caught in the web"):
        game.execute(CombatAttack())
    assert available_actions(game.campaign, RULES)["use_belt"] == ""
    push(game, d100(99), d100(50), d10(5))
    game.execute(CombatPass())
    c = game.campaign.combat
    assert not c.forfeit_attack and not c.no_escape and used_all(game)


# --------------------------------------------------------------------------- abilities of the hero


def test_mighty_blow_rolls_again_on_each_natural_6(bundled_library):
    game = game_for(hero(strength=50), bundled_library, d10(5))
    start(game, goblin(hp=20, defence=0))
    push(game, d100(20), 6, d10(4), 6, 2, d100(99), d10(5))
    events = game.execute(CombatAttack())
    assert "Your damage: d6 6 + 6 + 2 = 14; monster DEF 0 -> 14." in text(events)
    assert game.campaign.combat.hp == [6] and used_all(game)


def test_no_mighty_blow_below_str_50(bundled_library):
    game = game_for(hero(strength=49), bundled_library, d10(5))
    start(game, goblin(hp=20, defence=0))
    push(game, d100(20), 6, d10(4), d100(99), d10(5))
    game.execute(CombatAttack())
    assert game.campaign.combat.hp == [14] and used_all(game)


def test_perfect_aim_rerolls_the_location_once_and_picks(bundled_library):
    game = game_for(hero(dex=50), bundled_library, d10(5))
    start(game, goblin(defence=0))
    push(game, d100(20), 3, d10(4))
    game.execute(CombatAttack())
    c = game.campaign.combat
    assert c.waiting == "aim" and c.hero_hit.first_location == 4
    with pytest.raises(CommandRefused, match="Re-roll the location first"):
        game.execute(CombatPerfectAim(choice="second"))
    push(game, d10(1))
    game.execute(CombatPerfectAim(choice="reroll"))
    c = game.campaign.combat
    assert c.waiting == "aim_pick" and c.hero_hit.second_location == 1
    with pytest.raises(CommandRefused, match="Pick the first or the second"):
        game.execute(CombatPerfectAim(choice="reroll"))
    push(game, d100(99), d10(5))
    events = game.execute(CombatPerfectAim(choice="second"))
    c = game.campaign.combat
    assert "Your damage: d6 3, Head +3 = 6" in text(events) and c.hp == [4]
    push(game, d100(20), 3, d10(1))
    game.execute(CombatAttack())
    assert c.waiting == "aim" and c.hero_hit.first_location == 1
    push(game, d100(99))
    events = game.execute(CombatPerfectAim(choice="keep"))  # head: 3 + 3 = 6 kills it
    assert "Goblin HP 4 -> 0; it is dead." in text(events)
    assert game.campaign.combat is None and used_all(game)


# --------------------------------------------------------------------------- offsets and the belt check


def test_item_and_shield_offsets(bundled_library):
    ch = hero()
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", defence=0)
    ch.equipment["off_weapon"] = Item(name="Buckler", kind="shield", slot="off_weapon", shield=3)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50))
    push(game, d100(99), d100(10), 5, d10(1))  # 5 + 3 = 8 at the head
    game.execute(CombatAttack())
    mh = game.campaign.combat.monster_hit
    assert (mh.damage, mh.item_max, mh.shield_max) == (8, 2, 3)
    with pytest.raises(CommandRefused, match="0 to 2 points onto Helm"):
        game.execute(CombatOffset(item=3))
    with pytest.raises(CommandRefused, match="0 to 3 points onto Buckler"):
        game.execute(CombatOffset(shield=4))
    push(game, d10(5))
    events = game.execute(CombatOffset(item=2, shield=3))
    assert "3 damage offset onto Buckler: 1.5 pip(s) (half a pip carried on the track)." in text(events)
    ch = game.campaign.character
    helm, buckler = ch.equipment["head"], ch.equipment["off_weapon"]
    assert (helm.repair_pips, buckler.repair_pips, game.campaign.shield_half_pip) == (2, 1, "Buckler")
    assert ch.hp == 17
    push(game, d100(99), d100(10), 1, d10(4), d10(5))  # 1 at the arms: the shield takes it
    game.execute(CombatAttack())
    game.execute(CombatOffset(shield=1))
    assert (buckler.repair_pips, game.campaign.shield_half_pip, ch.hp) == (2, "", 17) and used_all(game)


def test_a_full_repair_track_destroys_the_item(bundled_library):
    ch = hero()
    ch.equipment["head"] = Item(name="Old Helm", kind="armour", slot="head", defence=1, repair_pips=4)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50))
    push(game, d100(99), d100(10), 5, d10(1), d10(5))
    game.execute(CombatAttack())
    events = game.execute(CombatOffset(item=2))
    assert "Old Helm's repair track is full - it is destroyed." in text(events)
    assert ch.equipment["head"] is None and ch.hp == 15 and used_all(game)  # 5 + 3 - DEF 1 - 2 offset


def test_waist_hit_makes_a_belt_check(bundled_library):
    ch = hero()
    for i in range(3):
        ch.belt[i] = Item(name=f"Potion {i + 1}", kind="potion", effect="Restore 4 lost HP")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50))
    push(game, d100(99), d100(10), 3, d10(8), d10(2), d10(5))
    events = game.execute(CombatAttack())
    assert "Belt Check: rolled 2, Potion 2 in belt slot 2 is destroyed." in text(events)
    assert ch.belt[1] is None and ch.belt[0] is not None and ch.hp == 17 and used_all(game)


# --------------------------------------------------------------------------- escaping


def test_escape_success_records_the_monster_at_full_hp(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin())
    game.campaign.combat.hp = [4]
    push(game, d100(25))  # DEX 40 -10 = 30
    events = game.execute(CombatEscape())
    assert events[-1].data["outcome"] == "hero_escaped" and game.campaign.combat is None
    [escaped] = game.campaign.escaped_monsters
    assert escaped.escaped_by == "hero" and escaped.monster.hp == [10]
    assert game.campaign.character.combat_track == [] and used_all(game)


def test_escape_failure_costs_2_hp_and_the_monster_attacks(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(av=50))
    push(game, d100(50), d100(10), 3, d10(4), d10(5))
    events = game.execute(CombatEscape())
    assert "ESCAPE COMBAT failed: you lose 2 HP (20 -> 18)." in text(events)
    assert game.campaign.character.hp == 15 and game.campaign.combat.round == 2 and used_all(game)


def test_block_escape_success_goes_to_step_3(bundled_library):
    game = game_for(hero(), bundled_library, d10(10))
    start(game, goblin(av=50))
    c = game.campaign.combat
    assert c.monster_escaping
    push(game, d100(20), 4, d10(4), d100(99), d10(5))  # BLOCK: STR 40 -10 = 30; damage 4 - DEF 1
    events = game.execute(CombatBlockEscape())
    assert "You block Goblin's escape: on to step 3, your damage roll." in text(events)
    assert "Goblin rolls 99 against AV 50: miss." in text(events)
    assert c.hp == [7] and c.round == 2 and not c.monster_escaping and used_all(game)


def test_block_escape_failure_removes_the_monster(bundled_library):
    game = game_for(hero(), bundled_library, d10(10))
    start(game, goblin())
    push(game, d100(90))
    events = game.execute(CombatBlockEscape())
    assert events[-1].data["outcome"] == "monster_escaped" and game.campaign.combat is None
    assert game.campaign.escaped_monsters[0].escaped_by == "monster"
    assert game.campaign.character.combat_track == [] and used_all(game)


def test_letting_it_go_you_may_still_attack(bundled_library):
    game = game_for(hero(), bundled_library, d10(9))
    start(game, goblin(hp=4))
    c = game.campaign.combat
    assert not c.monster_escaping  # 9: it was not damaged last round
    push(game, d100(20), 3, d10(4), d100(99), d10(9))  # 2 damage; round 2: 9 and damaged: it flees
    game.execute(CombatAttack())
    assert c.monster_escaping and c.hp == [2]
    push(game, d100(20), 2, d10(4))  # 1 damage: it survives and is gone, without attacking
    events = game.execute(CombatAttack())
    assert events[-1].data["outcome"] == "monster_escaped" and "combat_monster_attack" not in [e.kind for e in events]
    assert game.campaign.combat is None and used_all(game)


def test_an_escaping_monster_killed_by_the_attack_is_looted(bundled_library):
    game = game_for(hero(), bundled_library, d10(10))
    start(game, goblin(hp=2, loot="[K:Table P]"))
    push(game, d100(20), 4, d10(4), d100(5))
    events = game.execute(CombatAttack())
    assert "cut down as it tries to flee" in text(events)
    assert events[-1].data["outcome"] == "won" and len(game.campaign.character.backpack) == 1 and used_all(game)


# --------------------------------------------------------------------------- refusals


def test_no_weapon_only_flee(bundled_library):
    game = game_for(hero(weapon=False), bundled_library, d10(5))
    events = start(game, goblin())
    assert "You have no weapon: you must flee" in text(events)
    actions = available_actions(game.campaign, RULES)
    assert [k for k, why in actions.items() if not why] == ["escape"]
    with pytest.raises(CommandRefused, match="no weapon: an adventurer without one must flee"):
        game.execute(CombatAttack())
    with pytest.raises(CommandRefused, match="no weapon"):
        game.execute(CombatPass())


def test_refusals_when_the_fight_waits_for_something_else(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin())
    with pytest.raises(CommandRefused, match="waiting for your action"):
        game.execute(CombatContinue())
    with pytest.raises(CommandRefused, match="already under way"):
        game.execute(StartCombat(source="monster", monster=goblin()))
    with pytest.raises(CommandRefused, match="not trying to escape"):
        game.execute(CombatBlockEscape())
    with pytest.raises(CommandRefused, match="Not now: the fight is waiting for your action"):
        game.execute(CombatOffset())
    with pytest.raises(CommandRefused, match=r"No Fate left|Not now"):
        game.execute(CombatFate(dice=[0]))
    with pytest.raises(CommandRefused, match="no weapon in your off weapon slot"):
        game.execute(CombatAttack(slot="off_weapon"))
    bow = Item(name="Hunting Bow", kind="weapon", weapon_type="H,R")
    game.campaign.character.equipment["main_weapon"] = bow
    with pytest.raises(CommandRefused, match=r"\(H,R\): choose STR"):
        game.execute(CombatAttack())
    with pytest.raises(CommandRefused, match="There is no fight"):
        Game(
            Campaign(character=hero()),
            bundled_library,
            commands=COMBAT_COMMANDS,
            rules=bundled_rules(),
            tilesets=standard_tilesets(),
        ).execute(CombatAttack())


def test_spells_the_hero_cannot_cast_are_refused(bundled_library):
    ch = hero(intelligence=40)
    ch.spell_book[0] = SpellEntry(name="FIRE BALL", cost="-2 HP")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin())
    with pytest.raises(CommandRefused, match="Spell Caster is locked until INT reaches 50"):
        game.execute(CombatCastSpell(index=0))
    ch = game.campaign.character
    ch.characteristics["INT"].primary = 55
    ch.spell_book[5] = SpellEntry(name="HEAL", cost="-1 STR")
    with pytest.raises(CommandRefused, match="needs INT 60 \\(yours is 55\\)"):
        game.execute(CombatCastSpell(spell="Heal"))
    with pytest.raises(CommandRefused, match="not in your spell book"):
        game.execute(CombatCastSpell(spell="Ice Storm"))
    with pytest.raises(CommandRefused, match="position 3 is empty"):
        game.execute(CombatCastSpell(index=2))


# --------------------------------------------------------------------------- spells, belt, weapons


def test_healing_in_a_fight_tells_the_hp_it_restores_with_a_typed_event(bundled_library):
    ch = hero(intelligence=70, hp=6)
    ch.spell_book[0] = SpellEntry(name="HEALING", cost="-5 STR")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin())
    push(game, d100(30), d100(99), d10(5), d10(5), d10(5))  # CAST: 30 <= INT 70; the goblin misses
    events = game.execute(CombatCastSpell(spell="healing"))
    assert ch.hp == 20
    assert [(e.data["delta"], e.data["hp"]) for e in events if e.kind == "hp"] == [(14, 20)]  # read by the statistics


def test_fire_ball_lands_at_the_start_of_the_next_round(bundled_library):
    ch = hero(intelligence=55)
    ch.spell_book[0] = SpellEntry(name="FIRE BALL", cost="-2 HP")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin())
    push(game, d100(30), d100(99), d10(7), d10(5))  # CAST: INT 55; round 2: d10 7 - DEF 1 = 6
    events = game.execute(CombatCastSpell(spell="fire ball"))
    assert "FIRE BALL costs -2 HP: you lose 2 HP (20 -> 18)." in text(events)
    assert "FIRE BALL: 7 - DEF 1 = 6." in text(events)
    assert game.campaign.combat.hp == [4] and used_all(game)


def test_ice_storm_freezes_the_monster(bundled_library):
    ch = hero(intelligence=55)
    ch.spell_book[0] = SpellEntry(name="ICE STORM")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(defence=0))
    push(game, d100(30), d100(99), d10(3))  # no reaction roll: it is frozen
    game.execute(CombatCastSpell(index=0))
    c = game.campaign.combat
    assert c.frozen and c.attack_bonus == 10 and c.reaction is None and c.hp == [7]
    push(game, d100(45), 1, d10(4), d10(5))  # 45 <= 40 + 10; the frozen monster does not attack
    events = game.execute(CombatAttack())
    assert next(e for e in events if e.kind == "combat_test").data["target"] == 50
    assert "frozen and cannot attack" in text(events) and c.hp == [6] and used_all(game)


def test_a_failed_cast_rolls_a_curse(bundled_library):
    ch = hero(intelligence=55)
    ch.spell_book[0] = SpellEntry(name="HEAL", cost="-1 STR")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin())
    push(game, d100(90), d100(7), d100(99), d10(5))  # CAST fails; Table C 07 POWERLESS
    events = game.execute(CombatCastSpell(index=0))
    assert "POWERLESS" in text(events)
    assert ch.characteristics["STR"].primary == 40 - 1 - 4 and used_all(game)


def test_a_scroll_works_without_spell_caster(bundled_library):
    ch = hero(intelligence=30, hp=5)
    ch.belt[0] = Item(name="Scroll of Fire Blast", kind="scroll")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(special="Ethereal"))
    push(game, d100(20), d100(99), d10(5))  # CAST: INT 30; Fire Blast hurts even the ethereal
    events = game.execute(CombatUseBelt(belt_slot=1))
    assert "FIRE BLAST costs -1 HP" in text(events) and "Fire Blast: 2 damage - Goblin HP 10 -> 8." in text(events)
    assert ch.belt[0] is None and ch.hp == 4 and used_all(game)


def test_potions_heal_and_brews_boost(bundled_library):
    ch = hero(hp=10)
    ch.belt[0] = Item(name="Lesser Healing Potion", kind="potion", effect="Restore 4 lost HP")
    ch.belt[1] = Item(name="Brew of Lesser Strength", kind="brew", effect="+3 Str for your next dice roll.")
    ch.belt[2] = Item(
        name="Brew of Finer Dodge", kind="brew", effect="Drink to gain +2 DEF before a Monster rolls its DAMAGE dice."
    )
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50))
    push(game, d100(99), d10(5))
    game.execute(CombatUseBelt(belt_slot=1))
    assert ch.hp == 14 and ch.belt[0] is None
    push(game, d100(99), d10(5))
    game.execute(CombatUseBelt(belt_slot=2))
    push(game, d100(99), d10(5))
    game.execute(CombatUseBelt(belt_slot=3))
    assert [b.stat for b in game.campaign.combat.boosts] == ["STR", "DEF"]
    push(game, d100(43), 2, d10(4), d100(10), 4, d10(4), d10(5))  # 43 <= 40 + 3; the dodge brew takes 2 off 4
    events = game.execute(CombatAttack())
    test = next(e for e in events if e.kind == "combat_test")
    assert test.data["target"] == 43 and "40 +3 = 43" in test.message
    assert "DEF 0 brew +2 -> 2 damage" in text(events)
    assert ch.hp == 12 and game.campaign.combat.boosts == [] and game.campaign.combat.hp == [9] and used_all(game)


def test_change_weapon_instead_of_attacking(bundled_library):
    ch = hero()
    ch.equipment["off_weapon"] = Item(name="Dagger", kind="weapon", weapon_type="H", dmg=-1)
    ch.backpack.append(Item(name="Great Axe", kind="weapon", weapon_type="H", dmg=2, two_handed=True))
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin())
    push(game, d100(99), d10(5))
    game.execute(CombatChangeWeapon(swap=True))
    assert ch.equipment["main_weapon"].name == "Dagger" and ch.equipment["off_weapon"].name == "Sword"
    push(game, d100(99), d10(5))
    events = game.execute(CombatChangeWeapon(backpack_index=0))
    assert "You take Great Axe in hand and put Dagger, Sword away." in text(events)
    assert ch.equipment["off_weapon"] is None and {i.name for i in ch.backpack} == {"Dagger", "Sword"}
    assert used_all(game)


def test_putting_away_an_hp_item_in_a_fight_tells_the_hp_it_takes(bundled_library):
    ch = hero(hp=25)
    ch.equipment["off_weapon"] = Item(name="Troll Dagger", kind="weapon", weapon_type="H", dmg=-1, hp_bonus=5)
    ch.backpack.append(Item(name="Great Axe", kind="weapon", weapon_type="H", dmg=2, two_handed=True))
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin())
    push(game, d100(99), d10(5))
    events = game.execute(CombatChangeWeapon(backpack_index=0))
    assert ch.hp == 20
    assert [(e.data["delta"], e.data["hp"]) for e in events if e.kind == "hp"] == [(-5, 20)]  # read by the statistics


# --------------------------------------------------------------------------- Lives, RES, death


def test_res_is_used_before_a_life(bundled_library):
    ch = hero(hp=2, lives=1)
    ch.res = True
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50))
    push(game, d100(99), d100(10), 3, d10(4), d10(5))
    events = game.execute(CombatAttack())
    assert "RES: you are resurrected instead of using a Life (HP 20)." in text(events)
    assert (ch.hp, ch.res, ch.lives) == (20, False, 1) and used_all(game)


def test_a_life_restores_hp_to_maximum(bundled_library):
    ch = hero(hp=2, lives=2)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50))
    push(game, d100(99), d100(10), 3, d10(4), d10(5))
    game.execute(CombatAttack())
    assert (ch.hp, ch.lives) == (20, 1) and used_all(game)


def test_no_lives_left_the_hero_dies(bundled_library):
    ch = hero(hp=2, lives=0)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50))
    push(game, d100(99), d100(10), 3, d10(4))
    events = game.execute(CombatAttack())
    assert events[-1].kind == "hero_died" and "Aria has died" in events[-1].message
    campaign = game.campaign
    assert campaign.character is None and campaign.combat is None and campaign.pending == []
    assert [c.name for c in campaign.hall_of_fallen] == ["Aria"] and campaign.hall_of_fallen[0].dead
    with pytest.raises(CommandRefused):
        game.execute(CombatAttack())
    assert used_all(game)


# --------------------------------------------------------------------------- loot and the combat track


def test_loot_with_a_choice_of_tables(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(hp=2, loot="[K:Table P/Table TA]"))
    push(game, d100(20), 4, d10(4), d100(99))
    game.execute(CombatAttack())
    c = game.campaign.combat
    assert c.waiting == "loot"
    with pytest.raises(CommandRefused, match="option 1 to 2"):
        game.execute(CombatChooseLoot(option=2))
    push(game, d100(5))
    events = game.execute(CombatChooseLoot(option=1))
    assert "BREW OF FINER POWER" in text(events) and game.campaign.combat is None and used_all(game)


def test_snake_loot_modifier_and_the_part_name(bundled_library):
    game = game_for(hero(), bundled_library)
    push(game, d10(5))
    game.execute(StartCombat(source="snake", fate_windows=False))
    c = game.campaign.combat
    assert c.monster.name == "Giant Snake" and c.hp == [16]
    c.hp = [1]
    push(game, d100(20), 6, d10(4), d100(99), d100(2))  # Table P 2 + 10 = 12: TOOTH
    events = game.execute(CombatAttack())
    assert "Giant Snake TOOTH (12 gp) goes in the backpack" in text(events)
    assert [(i.name, i.value) for i in game.campaign.character.backpack] == [("Giant Snake TOOTH", 12)]
    assert used_all(game)


def test_combat_track_milestones_and_a_new_sheet(bundled_library):
    ch = hero()
    ch.gp = 5
    ch.combat_track = [CombatTrackEntry(monster=f"Rat {i}") for i in range(8)]
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(hp=1))
    push(game, d100(20), 4, d10(4), d100(99))
    events = game.execute(CombatAttack())
    assert "Combat track: Goblin in box 9 of sheet 1." in text(events)
    assert "Combat track box 9: Gain 50 gp!" in text(events) and ch.gp == 55
    ch.combat_track += [CombatTrackEntry(monster=f"Bat {i}") for i in range(12)]  # 21 boxes filled
    push(game, d10(5), d100(20), 4, d10(4), d100(99))
    game.execute(StartCombat(source="monster", monster=goblin(hp=1), fate_windows=False))
    game.execute(CombatAttack())
    assert any(isinstance(d, TargetChoice) for d in game.campaign.pending)  # box 22: shade any skill pip
    ch.combat_track += [CombatTrackEntry(monster=f"Ant {i}") for i in range(17)]  # 39 boxes
    push(game, d10(5), d100(20), 4, d10(4), d100(99))
    game.execute(StartCombat(source="monster", monster=goblin(hp=1), fate_windows=False))
    events = game.execute(CombatAttack())
    assert "Gain +1 Lives" in text(events) and ch.lives == 1
    assert "The combat track sheet is full" in text(events)
    push(game, d10(5), d100(20), 4, d10(4), d100(99))
    game.execute(StartCombat(source="monster", monster=goblin(hp=1), fate_windows=False))
    events = game.execute(CombatAttack())
    assert "Goblin in box 1 of sheet 2." in text(events) and ch.lives == 1 and used_all(game)


# --------------------------------------------------------------------------- Fate and experience


def test_fate_rerolls_a_held_roll_and_a_combat_test(bundled_library):
    game = game_for(hero(fate=3), bundled_library, d10(10))
    start(game, goblin(), fate_windows=True)
    c, ch = game.campaign.combat, game.campaign.character
    assert c.waiting == "roll" and c.held.record.natural == 10  # the monster would escape
    push(game, 5)
    game.execute(CombatFate(dice=[0]))
    assert ch.fate == 2 and c.held.record.natural == 5
    game.execute(CombatContinue())
    assert c.waiting == "action" and not c.monster_escaping
    push(game, d100(80))
    game.execute(CombatAttack())
    assert c.waiting == "test"
    push(game, 2)
    with pytest.raises(CommandRefused, match="belongs to the fight"):  # issue 10 #10: the fight's test is its own
        game.execute(UseFate(dice=[0]))
    game.execute(CombatFate(dice=[0]))  # the fight's Fate on its test: 80 -> 20
    assert ch.fate == 1
    push(game, 4, d10(4))
    game.execute(CombatContinue())
    assert c.waiting == "roll" and c.step == "hero_damage_resolve"
    push(game, 6)
    game.execute(CombatFate(dice=[0]))  # the d6 of the damage roll
    assert ch.fate == 0
    push(game, d100(99), d10(5))  # no Fate left: no more windows
    game.execute(CombatContinue())
    assert c.hp == [5] and c.round == 2 and c.waiting == "action" and used_all(game)


def test_a_combat_test_settled_outside_the_fight_is_caught(bundled_library):
    game = game_for(hero(fate=1), bundled_library, d10(5))
    start(game, goblin(), fate_windows=True)
    game.execute(CombatContinue())
    push(game, d100(80))
    game.execute(CombatAttack())
    with pytest.raises(CommandRefused, match="belongs to the fight"):  # issue 10 #10: refused before it can be
        game.execute(AcceptTest())
    pending = list(game.campaign.pending)
    game.campaign.pending = [d for d in pending if d.id != game.campaign.combat.test.decision]
    with pytest.raises(CommandRefused, match=r"settled outside the fight\): undo that action"):
        game.execute(CombatContinue())  # a test gone some other way (a save from before the rule) is still caught
    game.campaign.pending = pending
    push(game, d100(99))
    events = game.execute(CombatContinue())
    c = game.campaign.combat
    assert "You miss." in text(events) and (c.waiting, c.step) == ("roll", "monster_attack_resolve")


def test_natural_10_or_less_on_the_attack_earns_experience(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(hp=20, defence=0))
    push(game, d100(7), 2, d10(4), d100(99), d10(5))
    game.execute(CombatAttack())
    [xp] = [d for d in game.campaign.pending if isinstance(d, ExperienceChoice)]
    assert (xp.characteristic, xp.skills, xp.test_name) == ("STR", [], "ATTACK") and used_all(game)


# --------------------------------------------------------------------------- starting a fight


def test_start_from_table_e_with_the_encounter_modifier(bundled_library):
    ch = hero()
    ch.quest_encounter_modifier = -40
    game = game_for(ch, bundled_library, d100(55), d100(20), d10(5))  # 55 - 40 = 15: Giant Bats; SURPRISE passes
    events = start_e(game)
    c = game.campaign.combat
    assert c.monster.name == "Giant Bats" and c.surprise and ": 55 -40 = 15 -> Giant Bats (C)" in text(events)
    assert "Not surprised" in text(events) and c.waiting == "action" and used_all(game)


def start_e(game, **kw):
    return game.execute(StartCombat(source="table_e", fate_windows=False, **kw))


def test_table_e_missing_row_is_refused_and_the_same_roll_comes_back(bundled_library):
    game = game_for(hero(), bundled_library, d100(66))
    with pytest.raises(CommandRefused, match="Table E rolled 66: rows 26-100 are not in your tables"):
        start_e(game)
    assert game.campaign.combat is None
    campaign = Campaign(character=hero())
    campaign.meta.seed = 3
    real = Game(campaign, bundled_library, commands=COMBAT_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    refusals = []
    for _ in range(2):
        with pytest.raises(CommandRefused) as refused:
            start_e(real)
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1] and "Table E rolled" in refusals[0]  # undone: no fishing for another roll
    with pytest.raises(CommandRefused, match="Table E 40 is in rows 26-100"):
        start_e(game, table_value=40)
    push(game, d10(5))
    start_e(game, table_value=3)
    assert game.campaign.combat.monster.name == "Giant Rats"


def test_typed_monster_is_required_for_a_typed_fight(bundled_library):
    game = game_for(hero(), bundled_library)
    with pytest.raises(CommandRefused, match="Type the monster in first"):
        game.execute(StartCombat(source="monster"))


# --------------------------------------------------------------------------- save, restore, undo


def test_save_mid_round_and_resume_exactly(bundled_library):
    def play(game, stop_at_save):
        ch = game.campaign.character
        ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", defence=1)
        start(game, goblin(av=50, special="Stunned, Web"))
        game.override.push(*flat([d100(30), 4, d10(4), d100(10), 5, d10(1)]))
        game.execute(CombatAttack())
        assert game.campaign.combat.waiting == "offset"
        if stop_at_save:
            saved = game.campaign.model_dump_json()
            restored = Campaign.model_validate_json(saved)
            assert restored.combat == game.campaign.combat and restored.pending == game.campaign.pending
            game = Game(
                restored,
                bundled_library,
                commands=[*CHARACTER_COMMANDS, *COMBAT_COMMANDS],
                rules=bundled_rules(),
                tilesets=standard_tilesets(),
            )
            game.override = ScriptedSource([])
        game.override.push(*flat([d100(90), d100(50), d10(5)]))  # DAZED fails, WEB passes, round 2
        game.execute(CombatOffset(item=1))
        return game.campaign

    straight = play(game_for(hero(), bundled_library, d10(5)), False)
    resumed = play(game_for(hero(), bundled_library, d10(5)), True)
    assert straight.combat == resumed.combat and straight.character == resumed.character
    assert straight.combat.forfeit_attack == "you are dazed" and straight.character.hp == 14


def test_undo_and_redo_an_attack(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin())
    before = game.campaign.model_dump_json()
    push(game, d100(20), 4, d10(4), d100(99), d10(5))
    game.execute(CombatAttack())
    after = game.campaign.combat.model_copy(deep=True)
    assert after.hp == [7]
    game.undo()
    assert game.campaign.model_dump_json() == before and game.campaign.combat.hp == [10]
    game.redo()
    assert game.campaign.combat == after


def test_combat_commands_are_exported():
    kinds = [c.model_fields["kind"].default for c in COMBAT_COMMANDS]
    assert len(kinds) == len(set(kinds)) == 15
    assert {"start_combat", "face_escaped_monster", "combat_attack", "combat_continue", "combat_fate", "combat_offset"} <= set(
        kinds
    )
    assert all(k in ("start_combat", "face_escaped_monster") or k.startswith("combat_") for k in kinds)


def test_a_fight_replays_headless_from_its_log(bundled_library):
    from d100gui.engine.game import replay

    commands = [*CHARACTER_COMMANDS, *COMBAT_COMMANDS]
    campaign = Campaign(character=hero(fate=2, lives=1))
    campaign.meta.seed = 99
    start_state = campaign.model_copy(deep=True)
    game = Game(campaign, bundled_library, commands=commands, rules=bundled_rules(), tilesets=standard_tilesets())
    game.execute(StartCombat(source="monster", monster=goblin(av=50, special="Stunned, Web, Large"), fate_windows=True))
    steps = 0
    while game.campaign.combat is not None and steps < 300:
        steps += 1
        waiting = game.campaign.combat.waiting
        if waiting == "action":
            free = available_actions(game.campaign, RULES)
            game.execute(CombatAttack() if not free["attack_main"] else CombatPass())
        elif waiting == "roll" and game.campaign.character.fate and steps % 3 == 0:
            game.execute(CombatFate(dice=[0]))
        elif waiting == "offset":
            game.execute(CombatOffset())
        else:
            game.execute(CombatContinue())
    assert game.campaign.combat is None and steps > 5
    start_state.start_rng_state = game.campaign.start_rng_state
    again = replay(game.campaign.log, bundled_library, commands, start_state, rules=bundled_rules(), tilesets=standard_tilesets())
    assert again.model_dump(exclude={"meta", "log"}) == game.campaign.model_dump(exclude={"meta", "log"})


def test_no_fight_while_another_test_waits(bundled_library):
    from d100gui.engine.skill_test_commands import RollTest

    game = game_for(hero(fate=1), bundled_library, d100(50))
    game.execute(RollTest(characteristic="DEX", name="JUMP"))
    with pytest.raises(CommandRefused, match="A rolled test is waiting"):
        start(game, goblin())
