"""The market's prices as the wizard shows them (``TownView.market``, the same the purchase charges), a row
that prints no price (Table S) bought at the price the player types, and typed rows told as ``row_provided``."""

from __future__ import annotations

import pytest
from town_support import RULES, at, game_for, hero, kinds, run, scripted, sheet, town

from d100gui.engine.hero.model import Investment
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.town.queries import town_view


def _view(game):
    return town_view(sheet(game), RULES, town(game), game.library)


def test_the_view_prices_each_market_roll_as_the_purchase_charges_it():
    game = game_for(hero(gp=100, rep=2))
    at(game, "markets")
    scripted(game, 0, 3, 1, 4)  # Table A 3: Leather Tasset (23 gp); Table S 14: HEAL (no price printed)
    run(game, "roll_market", table_id="d100.A")
    run(game, "roll_market", table_id="d100.S")
    tasset, heal = _view(game).market
    assert (tasset.name, tasset.price, tasset.price_printed, tasset.needs_row, tasset.why) == (
        "Leather Tasset",
        23,
        True,
        False,
        "",
    )
    assert (heal.name, heal.price, heal.price_printed, heal.why) == ("HEAL", None, False, "")
    bought = run(game, "buy_market_item", index=0)[0].payload()
    assert bought.cost == tasset.price and not bought.typed_price and sheet(game).gp == 77
    after = _view(game).market
    assert all(o.why == "One market item a phase: Leather Tasset is already bought." for o in after)


def test_a_spell_with_no_printed_price_is_bought_at_the_price_the_player_types():
    game = game_for(hero(gp=500))
    at(game, "markets")
    scripted(game, 1, 4)  # Table S 14: HEAL
    run(game, "roll_market", table_id="d100.S")
    with pytest.raises(CommandRefused, match=r"prints no price for HEAL: it cannot be bought .* Type the price"):
        run(game, "buy_market_item", index=0)
    with pytest.raises(CommandRefused, match=r"A price is at least 1 gp"):
        run(game, "buy_market_item", index=0, price=0)
    with pytest.raises(CommandRefused, match=r"costs 600 gp and you have 500 gp: 100 gp short"):
        run(game, "buy_market_item", index=0, price=600)
    bought = run(game, "buy_market_item", index=0, price=150)[0].payload()
    assert (bought.item, bought.cost, bought.to, bought.typed_price) == ("Heal", 150, "spell_book", True)
    assert sheet(game).gp == 350 and sheet(game).spell_book[0].name == "Heal" and town(game).totals.spent == 150


def test_a_printed_price_is_never_overridden():
    game = game_for(hero(gp=100))
    at(game, "markets")
    scripted(game, 0, 3)
    run(game, "roll_market", table_id="d100.A")
    with pytest.raises(CommandRefused, match=r"Leather Tasset prints its price, 23 gp: .* not at 5 gp"):
        run(game, "buy_market_item", index=0, price=5)
    assert run(game, "buy_market_item", index=0, price=23)[0].payload().cost == 23


def test_a_typed_market_row_is_told_as_row_provided_and_priced_from_the_typed_row():
    game = game_for(hero(gp=500))
    at(game, "markets")
    scripted(game, 5, 0)  # Table A 50: not in the excerpt
    run(game, "roll_market", table_id="d100.A")
    [waiting] = _view(game).market
    assert waiting.needs_row and waiting.price is None and "type the row in first" in waiting.why
    row = {
        "range": [50, 50],
        "fields": {"slot": "Head", "item": "Iron Helm", "def": "1 DEF", "value": "120 gp", "repair": "24 gp"},
    }
    events = run(game, "provide_market_row", index=0, row=row)
    assert kinds(events) == ["town_market_rolled", "row_provided"]
    provided = events[1].payload()
    assert events[1].topic == "dice" and provided.table_id == "d100.A" and provided.row.fields["item"] == "Iron Helm"
    assert "index" not in events[1].data  # not a dice-history roll: the bridge saves it to the pack only
    [offer] = _view(game).market
    assert (offer.name, offer.price, offer.why) == ("Iron Helm", 120, "")


def test_a_typed_table_j_row_is_told_as_row_provided():
    ch = hero(gp=1000)
    ch.empire["trade"] = Investment(shares=2)
    game = game_for(ch)
    at(game, "investments")
    scripted(game, 7, 5)  # Table J 75: not in the excerpt
    run(game, "roll_investments")
    row = {"range": [71, 80], "fields": {"trade": "+2 Pips", "finance": "+1 Pip", "holdings": "No Gain", "wars": "-1 Pips"}}
    events = run(game, "provide_investment_row", row=row)
    assert kinds(events) == ["town_investments_rolled", "row_provided"]
    assert events[1].payload().table_id == "d100.J" and events[1].payload().row.range == (71, 80)


def test_the_market_tables_come_from_the_rules_data():
    """Which tables carry the market symbol is ``Rules.shopping.market_tables`` (resources), read in one place."""
    assert RULES.shopping.market_tables == ["d100.A", "d100.W", "d100.S"]
    game = game_for(hero(gp=100, rep=2))
    game.rules = RULES.model_copy(update={"shopping": RULES.shopping.model_copy(update={"market_tables": ["d100.W"]})})
    at(game, "markets")
    assert town_view(sheet(game), game.rules, town(game), game.library).market_tables == ["d100.W"]
    with pytest.raises(CommandRefused, match=r"d100.A has no market symbol: roll on Table W – Weapon\.$"):
        run(game, "roll_market", table_id="d100.A")
    scripted(game, 1, 0)
    run(game, "roll_market", table_id="d100.W")
    assert town(game).market_rolls[0].table_id == "d100.W"
