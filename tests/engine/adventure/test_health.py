"""HP at 0 or less outside a fight: RES, then a Life (HP back to maximum), else death and the hall of the fallen."""

from __future__ import annotations

from adventure_support import RULES, dice_left, game_for, hero, kinds, state

from d100gui.engine.adventure.commands import AdvanceTime
from d100gui.engine.hero.events import DeathCheated, HeroFell
from d100gui.engine.hero.health import cheat_death, settle_hp
from d100gui.engine.hero.model import Item
from d100gui.engine.quest.model import Quest, QuestState

LAYOUT = RULES.sheet.time_track
FOOD = min(t.clock for t in LAYOUT.triggers if t.kind == "food")


def test_hp_above_zero_needs_nothing():
    ch = hero(hp=1, lives=3)
    assert cheat_death(ch, RULES) is None and ch.lives == 3


def test_a_life_is_spent_outside_a_fight_when_hunger_takes_the_last_hp():
    ch = hero(hp=1, lives=2, food=0)
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", hp_bonus=2)
    ch.time_track.shaded = FOOD - 1
    game = game_for(ch)
    events = game.execute(AdvanceTime())
    saved = next(e.payload() for e in events if e.kind == "death_cheated")
    assert isinstance(saved, DeathCheated) and saved.how == "life" and saved.lives == 1
    assert ch.lives == 1 and ch.hp == 22  # back to the adjusted maximum
    assert game.campaign.character is ch and not ch.dead


def test_res_is_used_before_a_life():
    ch = hero(hp=0, lives=2)
    ch.res = True
    saved = cheat_death(ch, RULES, "trap")
    assert isinstance(saved, DeathCheated) and saved.how == "res" and saved.source == "trap"
    assert not ch.res and ch.lives == 2 and ch.hp == 20


def test_with_no_lives_the_hero_dies_and_joins_the_hall_of_the_fallen():
    ch = hero(hp=1, lives=0)
    ch.poison, ch.disease = 5, 5
    ch.time_track.shaded = LAYOUT.clocks - 1
    game = game_for(ch, 1, 1)  # the poison check kills: the disease check is never rolled
    adventure = state(game)
    adventure.quest = QuestState(quest=Quest(name="Dungeon Training 1"))
    events = game.execute(AdvanceTime())
    fell = events[-1].payload()
    assert isinstance(fell, HeroFell) and fell.name == "Aria"
    assert kinds(events).count("affliction_checked") == 1 and dice_left(game) == 1
    campaign = game.campaign
    assert campaign.character is None and ch.dead and campaign.hall_of_fallen == [ch]
    assert adventure.quest is None


def test_settle_hp_lays_a_dead_hero_to_rest_once():
    ch = hero(hp=-3, lives=0)
    game = game_for(ch)
    campaign = game.campaign
    assert isinstance(settle_hp(campaign, RULES, "trap"), HeroFell)
    assert campaign.character is None and campaign.hall_of_fallen == [ch]
    assert settle_hp(campaign, RULES) is None  # no hero left to settle
