"""The before-next-quest wizard, step by step, through the real commands with scripted dice."""

from __future__ import annotations

import pytest
from town_support import RULES, TownCampaign, at, dice_left, game_for, hero, kinds, run, scripted, sheet, town

from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.game import Game, replay
from d100gui.engine.hero.model import Item, TimeBonus
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.town.queries import town_view

# --------------------------------------------------------------------------- 1. refresh tracks, the healer


def test_begin_refreshes_keys_levers_time_track_and_objectives_without_spending_oil_or_food():
    ch = hero()
    ch.keys, ch.levers, ch.objectives = 3, 2, 1
    ch.time_track.shaded = 7
    ch.time_track.bonuses = [TimeBonus(stat="STR", amount=5, source="Stronger")]
    game = game_for(ch)
    events = run(game, "begin_town")
    assert kinds(events) == ["town_begun", "town_tracks_refreshed"]
    done = events[1].payload()
    assert (done.keys, done.levers, done.clocks, done.bonuses, done.objectives) == (3, 2, 7, 1, 1)
    ch = sheet(game)
    assert (ch.keys, ch.levers, ch.objectives, ch.time_track.shaded, ch.time_track.bonuses) == (0, 0, 0, 0, [])
    assert (ch.supplies.oil, ch.supplies.food) == (20, 10)
    assert town(game).active and town(game).step == "refresh" and town(game).gold_at_start == 0


def test_the_healer_charges_40_a_poison_pip_65_a_disease_pip_and_20_an_hp():
    ch = hero(gp=300)
    ch.poison, ch.disease, ch.hp = 2, 1, 15
    game = game_for(ch)
    at(game, "refresh")
    events = run(game, "visit_healer", poison=2, disease=1, hp=3)
    event = events[0].payload()
    assert event.cost == 2 * RULES.healer.poison_pip + RULES.healer.disease_pip + 3 * RULES.healer.hp == 205
    assert [(e.kind, e.data["delta"], e.data["hp"]) for e in events[1:]] == [("hp", 3, 18)]  # the typed event the statistics read
    ch = sheet(game)
    assert (ch.poison, ch.disease, ch.hp, ch.gp) == (0, 0, 18, 95)
    assert town(game).totals.spent == 205 and town(game).totals.hp_healed == 3


def test_the_healer_names_the_shortfall_and_what_there_is_to_heal():
    ch = hero(gp=100)
    ch.poison, ch.hp = 3, 18
    game = game_for(ch)
    at(game, "refresh")
    with pytest.raises(CommandRefused, match=r"The healer costs 120 gp and you have 100 gp: 20 gp short"):
        run(game, "visit_healer", poison=3)
    with pytest.raises(CommandRefused, match=r"Only 2 HP are lost"):
        run(game, "visit_healer", hp=3)
    with pytest.raises(CommandRefused, match=r"Only 0 disease pips"):
        run(game, "visit_healer", disease=1)
    assert sheet(game).gp == 100 and sheet(game).poison == 3


# --------------------------------------------------------------------------- 2. repair


def test_a_repair_pip_costs_a_fifth_of_the_value_rounded_or_the_listed_repair_cost():
    ch = hero(gp=200)
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", value=120, repair_pips=2)  # 120 / 5 = 24
    ch.equipment["main_weapon"] = Item(name="Stave", kind="weapon", value=32, repair_cost=7, repair_pips=3)
    ch.backpack = [Item(name="Leather Tasset", kind="armour", value=23, repair_pips=1)]  # 23 / 5 rounded up = 5
    game = game_for(ch)
    at(game, "repair")
    assert run(game, "repair_item", place="head", pips=2)[0].payload().cost == 48
    assert run(game, "repair_item", place="main_weapon", pips=3)[0].payload().pip_cost == 7
    assert run(game, "repair_item", where="backpack", place="0")[0].payload().pip_cost == 5
    ch = sheet(game)
    assert ch.gp == 200 - 48 - 21 - 5 and town(game).totals.pips_repaired == 6
    assert ch.equipment["head"].repair_pips == 0 and ch.backpack[0].repair_pips == 0


def test_repair_refuses_more_pips_than_are_shaded_and_names_the_shortfall():
    ch = hero(gp=10)
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", value=120, repair_pips=2)
    game = game_for(ch)
    at(game, "repair")
    with pytest.raises(CommandRefused, match=r"Helm has 2 repair pips shaded: repair 1 to 2"):
        run(game, "repair_item", place="head", pips=3)
    with pytest.raises(CommandRefused, match=r"costs 24 gp and you have 10 gp: 14 gp short"):
        run(game, "repair_item", place="head", pips=1)


# --------------------------------------------------------------------------- 3. sell


def test_sell_equipped_belt_backpack_and_potion_items_for_their_value_once():
    ch = hero()
    ch.belt[0] = Item(name="Brew Of Lesser Strength", kind="brew", value=45)
    ch.backpack = [Item(name="Dagger", kind="weapon", value=15)]
    ch.potions = [Item(name="Healing Potion", kind="potion", value=30)]
    game = game_for(ch)
    at(game, "sell")
    run(game, "sell_item", where="equipment", place="main_weapon", name="Sword")
    run(game, "sell_item", where="belt", place="1")
    run(game, "sell_item", where="backpack", place="0", name="Dagger")
    run(game, "sell_item", where="potions", place="0")
    ch = sheet(game)
    assert ch.gp == 40 + 45 + 15 + 30 and town(game).totals.earned == 130
    assert ch.equipment["main_weapon"] is None and ch.belt[0] is None and ch.backpack == [] and ch.potions == []
    with pytest.raises(CommandRefused, match=r"Sword was already sold \(for 40 gp\): an item is sold once"):
        run(game, "sell_item", where="equipment", place="main_weapon", name="Sword")
    with pytest.raises(CommandRefused, match=r"Dagger was already sold"):
        run(game, "sell_item", where="backpack", place="0", name="Dagger")


def test_selling_an_equipped_hp_item_tells_the_hp_it_takes_with_a_typed_event():
    ch = hero()
    ch.equipment["torso"] = Item(name="Troll Hide", kind="armour", slot="torso", hp_bonus=5, value=50)
    ch.hp = 25
    game = game_for(ch)
    at(game, "sell")
    events = run(game, "sell_item", where="equipment", place="torso", name="Troll Hide")
    assert sheet(game).hp == 20
    assert [(e.kind, e.data["delta"], e.data["hp"]) for e in events if e.kind == "hp"] == [("hp", -5, 20)]


# --------------------------------------------------------------------------- 4. required items


def test_required_items_at_most_20_plus_rep_within_the_supply_maxima():
    ch = hero(gp=1000, rep=1)
    ch.supplies.picks, ch.supplies.food = 0, 5
    game = game_for(ch)
    at(game, "required")
    bought = run(game, "buy_required", item="Lock Pick", count=20)[0].payload()
    assert (bought.cost, bought.bought, bought.limit) == (100, 20, 21)
    run(game, "buy_required", item="food")
    with pytest.raises(CommandRefused, match=r"At most 21 items from Table R \(20 \+ REP 1\): 21 bought, 0 more allowed"):
        run(game, "buy_required", item="Oil")
    ch = sheet(game)
    assert (ch.supplies.picks, ch.supplies.food, ch.gp) == (20, 6, 1000 - 100 - 10)


def test_required_items_stop_at_the_supply_maximum_and_refuse_without_the_gold():
    ch = hero(gp=30)
    ch.supplies.food = 8
    game = game_for(ch)
    at(game, "required")
    with pytest.raises(CommandRefused, match=r"Food 8 of 10: at most 2 more FOOD"):
        run(game, "buy_required", item="Food", count=3)
    poor = hero(gp=5)
    poor.supplies.food = 8
    game = game_for(poor)
    at(game, "required")
    with pytest.raises(CommandRefused, match=r"2 x FOOD at 10 gp costs 20 gp and you have 5 gp: 15 gp short"):
        run(game, "buy_required", item="Food", count=2)


def test_brews_go_on_the_belt_and_a_row_without_a_price_is_not_sold():
    ch = hero(gp=100)
    game = game_for(ch)
    at(game, "required")
    run(game, "buy_required", item="Brew of Lesser Strength")
    brew = sheet(game).belt[0]
    assert brew is not None and brew.kind == "brew" and brew.value == 45 and "+3 Str" in brew.effect
    with pytest.raises(CommandRefused, match=r"Table R prints no price for BREW OF LESSER DODGE"):
        run(game, "buy_required", item="Brew of Lesser Dodge")
    with pytest.raises(CommandRefused, match=r"Table R has no 'Rope'"):
        run(game, "buy_required", item="Rope")


# --------------------------------------------------------------------------- 5. markets


def test_markets_roll_rep_times_then_buy_one_item():
    ch = hero(gp=100, rep=2)
    game = game_for(ch)
    at(game, "markets")
    scripted(game, 0, 3, 1, 0)  # Table A 3: Leather Tasset (23 gp); Table W 10: Stave
    first = run(game, "roll_market", table_id="d100.A")[0].payload()
    assert first.table_roll.row.fields["item"] == "Leather Tasset" and first.rolls_left == 1
    run(game, "roll_market", table_id="d100.W")
    with pytest.raises(CommandRefused, match=r"Market rolls are 2 a phase \(REP 2\)"):
        run(game, "roll_market", table_id="d100.A")
    bought = run(game, "buy_market_item", index=0)[0].payload()
    assert (bought.item, bought.cost, bought.to) == ("Leather Tasset", 23, "backpack")
    assert sheet(game).backpack[-1].slot == "legs" and sheet(game).gp == 77
    with pytest.raises(CommandRefused, match=r"One market item a phase: Leather Tasset is already bought"):
        run(game, "buy_market_item", index=1)
    with pytest.raises(CommandRefused, match=r"has no market symbol"):
        run(game, "roll_market", table_id="d100.R")


def test_a_market_roll_on_a_missing_row_waits_for_the_row_under_ask():
    ch = hero(gp=500)
    game = game_for(ch)
    at(game, "markets")
    scripted(game, 5, 0)  # Table A 50: not in the excerpt
    rolled = run(game, "roll_market", table_id="d100.A")[0].payload().table_roll
    assert rolled.row is None and rolled.missing is not None
    with pytest.raises(CommandRefused, match=r"type the row in first"):
        run(game, "buy_market_item", index=0)
    row = {
        "range": [50, 50],
        "fields": {"slot": "Head", "item": "Iron Helm", "def": "1 DEF", "value": "120 gp", "repair": "24 gp"},
    }
    run(game, "provide_market_row", index=0, row=row)
    run(game, "buy_market_item", index=0)
    assert sheet(game).backpack[-1].name == "Iron Helm" and sheet(game).gp == 380


def test_a_market_roll_on_a_missing_row_is_rerolled_under_reroll():
    game = game_for(hero(gp=500), policy=MissingRowPolicy.REROLL)
    at(game, "markets")
    scripted(game, 5, 0, 0, 5)  # 50 missing, re-rolled to 5: Leather Cuirass
    rolled = run(game, "roll_market", table_id="d100.A")[0].payload().table_roll
    assert rolled.sample and rolled.row.fields["item"] == "Leather Cuirass"


# --------------------------------------------------------------------------- 6. training


def test_training_at_most_rep_pips_skills_200_characteristics_2000():
    ch = hero(gp=2400, rep=2)
    game = game_for(ch)
    at(game, "training")
    assert run(game, "train", track="Dodge")[0].payload().cost == RULES.training.skill_pip == 200
    assert run(game, "train", track="STR")[0].payload().cost == RULES.training.characteristic_pip == 2000
    with pytest.raises(CommandRefused, match=r"Training takes at most 2 pips a phase \(REP 2\): 2 trained, 0 left"):
        run(game, "train", track="Dodge")
    ch = sheet(game)
    assert ch.skills["Dodge"].pips == 1 and ch.characteristics["STR"].pips == 1 and ch.gp == 200


def test_training_that_fills_a_track_tells_the_raised_characteristic_by_its_typed_event():
    ch = hero(gp=2400, rep=2)
    ch.characteristics["STR"].pips = RULES.sheet.characteristic_track - 1
    before = ch.characteristics["STR"].primary
    game = game_for(ch)
    at(game, "training")
    events = run(game, "train", track="STR")
    after = before + RULES.characteristic_step
    assert sheet(game).characteristics["STR"].primary == after
    # the statistics and the chronicle read this event, never the sentence (issue 24)
    assert [e.data for e in events if e.kind == "characteristic"] == [{"stat": "STR", "primary": after}]


def test_training_fills_a_track_through_the_experience_rules():
    ch = hero(gp=2000, rep=3)
    ch.skills["Locks"].pips = RULES.sheet.skill_track - 1
    game = game_for(ch)
    at(game, "training")
    run(game, "train", track="locks")
    assert (sheet(game).skills["Locks"].bonus, sheet(game).skills["Locks"].pips) == (RULES.skill_step, 0)
    with pytest.raises(CommandRefused, match=r"Training 1 INT pip at 2000 gp costs 2000 gp and you have 1800 gp: 200 gp short"):
        run(game, "train", track="INT")


# --------------------------------------------------------------------------- the wizard


def test_actions_belong_to_their_step_and_the_wizard_only_moves_forward():
    game = game_for(hero(gp=100))
    with pytest.raises(CommandRefused, match=r"not open"):
        run(game, "visit_healer", hp=1)
    at(game, "sell")
    with pytest.raises(CommandRefused, match=r"at step 3 \(Sell items\), not step 1 .* undo to go back"):
        run(game, "visit_healer", hp=1)
    with pytest.raises(CommandRefused, match=r"not step 6 \(Training\): move on to it first"):
        run(game, "train", track="Dodge")
    with pytest.raises(CommandRefused, match=r"moves forward only"):
        run(game, "town_next", to="repair")
    skipped = run(game, "town_next", to="training")[0].payload().skipped
    assert skipped == ["sell", "required", "markets"]


def test_every_step_is_undone_with_the_game_and_a_save_resumes_at_the_same_step():
    ch = hero(gp=300)
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", value=120, repair_pips=2)
    game = game_for(ch)
    at(game, "repair")
    run(game, "repair_item", place="head", pips=1)
    run(game, "town_next")
    assert town(game).step == "sell" and sheet(game).gp == 276
    game.undo()
    assert town(game).step == "repair"
    game.undo()
    assert sheet(game).gp == 300 and sheet(game).equipment["head"].repair_pips == 2 and town(game).totals.spent == 0
    game.redo()
    saved = game.campaign.model_dump_json()
    again = TownCampaign.model_validate_json(saved)
    assert again.town.step == "repair" and again.town.totals.spent == 24 and again.town.active
    resumed = Game(again, game.library, game.command_types.values(), rules=RULES, tilesets=game.tilesets)
    resumed.execute(resumed.parse_command({"kind": "repair_item", "place": "head"}))
    assert resumed.campaign.character.gp == 252


def test_finish_confirms_the_phase_with_its_totals():
    ch = hero(gp=100)
    ch.hp = 19
    game = game_for(ch)
    at(game, "refresh")
    run(game, "visit_healer", hp=1)
    run(game, "town_next", to="investments")
    done = run(game, "finish_town")[0].payload()
    assert (done.spent, done.earned, done.gp) == (20, 0, 80)
    assert not town(game).active and town(game).step == "done"
    assert dice_left(game) == 0


def test_one_phase_per_quest():
    game = game_for(hero())
    run(game, "begin_town")
    run(game, "town_next", to="investments")
    run(game, "finish_town")
    with pytest.raises(CommandRefused, match=r"over for this quest"):
        run(game, "begin_town")


def test_the_view_shows_every_price_and_limit_before_paying():
    ch = hero(gp=500, rep=3)
    ch.hp, ch.poison = 17, 1
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", value=120, repair_pips=2)
    ch.empire["trade"].shares = 9
    game = game_for(ch)
    at(game, "refresh")
    run(game, "visit_healer", hp=1)
    view = town_view(sheet(game), RULES, town(game), game.library)
    assert (view.number, view.title, view.gp, view.totals.spent) == (1, "Refresh tracks and the healer", 480, 20)
    assert (view.healer.poison_pip, view.healer.poison, view.healer.hp_lost) == (40, 1, 2)
    assert [(r.name, r.repair_pips, r.pip_cost) for r in view.repairs] == [("Helm", 2, 24)]
    assert ("Sword", 40) in [(s.name, s.value) for s in view.sellable]
    assert view.required[0].item == "Lock Pick" and view.required[0].price == 5 and view.required[-1].price is None
    assert (view.required_left, view.market_rolls_left, view.training_left) == (23, 3, 3)
    assert view.market_tables == ["d100.A", "d100.W", "d100.S"]
    trade = view.investments[0]
    assert (trade.name, trade.shares, trade.shares_buyable, trade.share_value, trade.pip_value) == ("Trade", 9, 1, 100, 20)
    assert view.table_j_due


def test_a_market_spell_without_a_printed_price_cannot_be_bought():
    game = game_for(hero(gp=500))
    at(game, "markets")
    scripted(game, 1, 4)  # Table S 14: HEAL, which prints no price
    run(game, "roll_market", table_id="d100.S")
    with pytest.raises(CommandRefused, match=r"prints no price for HEAL: it cannot be bought"):
        run(game, "buy_market_item", index=0)


def test_a_phase_replays_from_its_log():
    ch = hero(gp=3000, rep=3)
    ch.empire["finance"].shares = 2
    game = game_for(ch)
    game.override = None  # the campaign's own seeded dice
    start = game.campaign.model_copy(deep=True)
    at(game, "markets")
    for table in ("d100.A", "d100.W", "d100.A"):
        run(game, "roll_market", table_id=table)
    run(game, "town_next", to="training")
    run(game, "train", track="Dodge", pips=3)
    run(game, "town_next")
    run(game, "roll_investments")
    again = replay(game.campaign.log, game.library, list(game.command_types.values()), start, rules=RULES, tilesets=game.tilesets)
    assert isinstance(again, TownCampaign)
    assert again.character == game.campaign.character and again.town == town(game)
