"""Fight odds: sanity, determinism, and agreement with fights played through the real commands."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.actions import available_actions
from d100gui.engine.combat.monster import giant_snake, monster_from_row, typed_monster
from d100gui.engine.combat.odds import combat_odds, fight_odds
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.fight_commands import CombatAttack, CombatContinue, CombatOffset, CombatPass
from d100gui.engine.fight_start import COMBAT_COMMANDS, StartCombat
from d100gui.engine.game import Game
from d100gui.engine.hero.model import Item, new_character
from d100gui.storage.resources import bundled_rules, standard_tilesets

RULES = bundled_rules()


def hero(strength=45, dex=40, hp=20, lives=0, weapon=True):
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Bram"
    for stat, value in (("STR", strength), ("DEX", dex), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = 20
    ch.hp = hp
    ch.lives = lives
    if weapon:
        ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", weapon_type="H")
    return ch


def test_a_trivially_weak_monster_is_almost_always_beaten():
    ch = hero()
    ch.equipment["ring_1"] = Item(name="Ring of Might", kind="jewellery", slot="ring_1", bonuses={"STR": 60})
    mouse = typed_monster("Mouse", av=1, hp=1)
    odds = fight_odds(ch, mouse, RULES, seed=1)
    assert odds.win > 0.99 and odds.lose < 0.01
    assert odds.hero_hit_chance == 1.0 and odds.monster_hit_chance == 0.01
    assert odds.expected_hp_lost < 0.1 and odds.fights == 10_000


def test_an_overwhelming_monster_is_almost_never_beaten():
    dragon = typed_monster("Dragon", av=100, hp=200, defence=10, dmg=20, special="Attacks 3, Tough, Large")
    odds = fight_odds(hero(lives=1), dragon, RULES, seed=1)
    assert odds.win < 0.01 and odds.lose > 0.5
    assert odds.life_used > 0.5 and odds.expected_hp_lost > 20
    assert abs(odds.win + odds.lose + odds.monster_escapes - 1) < 1e-9


def test_same_seed_same_result_and_another_seed_differs(bundled_library):
    snake = giant_snake(bundled_library)
    a = fight_odds(hero(lives=2), snake, RULES, seed=42)
    b = fight_odds(hero(lives=2), snake, RULES, seed=42)
    c = fight_odds(hero(lives=2), snake, RULES, seed=43)
    assert a == b
    assert (a.win, a.lose, a.expected_hp_lost) != (c.win, c.lose, c.expected_hp_lost)
    assert a.seed == 42 and a.method == "simulation" and a.start == "before the fight"


def test_the_result_says_what_it_assumes():
    odds = fight_odds(hero(), typed_monster("Orc", av=40, hp=8), RULES, fights=200)
    joined = " ".join(odds.assumptions)
    assert "never escape" in joined and "No damage is offset" in joined and "no Fate is spent" in joined
    assert odds.fights == 200


def test_no_weapon_no_win():
    odds = fight_odds(hero(weapon=False), typed_monster("Orc", av=40, hp=8), RULES, fights=2000)
    assert odds.win == 0.0 and odds.hero_hit_chance == 0.0 and odds.weapon == ""
    assert odds.assumptions[0].startswith("You have no weapon")


def test_per_action_chances_and_the_best_weapon(bundled_library):
    ch = hero(strength=45, dex=60)
    ch.equipment["main_weapon"] = Item(name="Dagger", kind="weapon", weapon_type="H", dmg=-1)
    ch.equipment["off_weapon"] = Item(name="Sling", kind="weapon", weapon_type="R")
    bats = monster_from_row(bundled_library.get("d100.E").find(11))  # Fly, Surprise, Pack 2/3/3
    odds = fight_odds(ch, bats, RULES, fights=500)
    assert (odds.weapon, odds.stat) == ("Sling", "DEX")
    assert odds.hero_hit_chance == 0.60 and odds.monster_hit_chance == 0.35  # AV 25 + 5 for each of 2 more
    ch.equipment["off_weapon"] = None
    odds = fight_odds(ch, bats, RULES, fights=500)
    assert (odds.weapon, odds.hero_hit_chance) == ("Dagger", 0.35)  # Fly: STR -10


def test_odds_from_the_fight_in_progress(bundled_library):
    campaign = Campaign(character=hero())
    game = Game(campaign, bundled_library, commands=COMBAT_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource([0])  # reaction 10: the monster will escape this round
    game.execute(StartCombat(source="monster", monster=typed_monster("Troll", av=40, hp=30), fate_windows=False))
    odds = combat_odds(game.campaign, RULES, fights=1000)
    assert odds.monster_escapes == 1.0  # no hit takes 30 HP: it gets away this round
    assert odds.start == "round 1, at your action"
    game.override = ScriptedSource([9, 9, 0, 0, 5])  # miss, it misses (100), round 2: reaction 5
    game.campaign.combat.monster_escaping = False
    game.execute(CombatAttack())
    odds = combat_odds(game.campaign, RULES, fights=1000)
    assert odds.monster_escapes < 1.0 and odds.win > 0.0


def test_odds_mid_round_start_from_the_next_round(bundled_library):
    campaign = Campaign(character=hero())
    campaign.character.equipment["head"] = Item(name="Helm", kind="armour", slot="head", defence=1)
    game = Game(campaign, bundled_library, commands=COMBAT_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    # reaction 5; miss (99); the troll hits (10) the head for 5
    game.override = ScriptedSource([5, 9, 9, 1, 0, 5, 1])
    game.execute(StartCombat(source="monster", monster=typed_monster("Troll", av=40, hp=30), fate_windows=False))
    game.execute(CombatAttack())
    assert game.campaign.combat.waiting == "offset"
    odds = combat_odds(game.campaign, RULES, fights=500)
    assert odds.start.startswith("the start of round 2")


def _brute_force(bundled_library, monster, fights, make_hero):
    """Play ``fights`` fights through the real commands with the odds' policy; returns (win, lose, escape, HP lost)."""
    won = died = escaped = lost = 0
    for i in range(fights):
        campaign = Campaign(character=make_hero())
        campaign.meta.seed = 10_000 + i
        game = Game(campaign, bundled_library, commands=COMBAT_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
        events = list(game.execute(StartCombat(source="monster", monster=monster, fate_windows=False)))
        while game.campaign.combat is not None:
            waiting = game.campaign.combat.waiting
            if waiting == "action":
                command = CombatAttack() if not available_actions(game.campaign, RULES)["attack_main"] else CombatPass()
            elif waiting == "offset":
                command = CombatOffset()
            else:
                command = CombatContinue()
            events += game.execute(command)
        end = next(e for e in reversed(events) if e.kind in ("combat_over", "hero_died"))
        outcome = end.data["outcome"]
        won += outcome == "won"
        died += outcome == "died"
        escaped += outcome in ("monster_escaped", "hero_escaped")
        lost += sum(-e.data.get("delta", 0) for e in events if e.kind == "combat_hero_hp")
    return won / fights, died / fights, escaped / fights, lost / fights


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_simulation_agrees_with_fights_played_through_the_commands(bundled_library):
    orc = typed_monster("Orc", av=40, hp="5/4", defence=0, dmg=0, special="Pack")

    def make_hero():
        ch = hero(strength=45, hp=12)
        ch.equipment["torso"] = Item(name="Jerkin", kind="armour", slot="torso", defence=1)
        return ch

    win, lose, escape, lost = _brute_force(bundled_library, orc, 400, make_hero)
    odds = fight_odds(make_hero(), orc, RULES, fights=20_000, seed=7)
    assert abs(odds.win - win) < 0.08, (odds, win)
    assert abs(odds.lose - lose) < 0.08, (odds, lose)
    assert abs(odds.monster_escapes - escape) < 0.08, (odds, escape)
    assert abs(odds.expected_hp_lost - lost) < 0.15 * max(1.0, lost), (odds, lost)
    assert 0.2 < odds.win < 0.8 and 0.05 < odds.lose  # a fight that could go either way


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_staged_sampler_draws_the_same_fights_as_the_joint_table(monkeypatch):
    from d100gui.engine.combat import odds as odds_module
    from d100gui.engine.combat import odds_tables

    cultist = typed_monster("Cultist", av=35, hp=8, special="Dark Magic, Web, Fire, Stunned, Regenerate")
    joint_model = odds_module.FightTables(hero(lives=1), cultist, RULES)
    assert isinstance(joint_model.situation(0, 0, 0, 0), tuple)
    joint = fight_odds(hero(lives=1), cultist, RULES, fights=20_000, seed=3)
    monkeypatch.setattr(odds_tables, "JOINT_LIMIT", 0)
    staged_model = odds_module.FightTables(hero(lives=1), cultist, RULES)
    assert callable(staged_model.situation(0, 0, 0, 0))
    staged = fight_odds(hero(lives=1), cultist, RULES, fights=20_000, seed=4)
    assert 0.1 < joint.win < 0.5
    assert abs(joint.win - staged.win) < 0.02 and abs(joint.lose - staged.lose) < 0.02
    assert abs(joint.expected_hp_lost - staged.expected_hp_lost) < 0.05 * joint.expected_hp_lost


def test_odds_when_the_monster_is_already_dead(bundled_library):
    campaign = Campaign(character=hero())
    game = Game(campaign, bundled_library, commands=COMBAT_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource([5])
    game.execute(StartCombat(source="monster", monster=typed_monster("Wight", av=40, hp=3, special="Resurrection")))
    game.campaign.combat.hp = [0]
    game.campaign.combat.step = "monster_dead"
    odds = combat_odds(game.campaign, RULES, fights=4000, seed=2)
    assert 0.88 < odds.win < 1.0 and "the monster is dead" in odds.start
    game.campaign.combat.step = "victory"
    assert combat_odds(game.campaign, RULES, fights=500).win == 1.0
