"""Empire Building: Table J per share, the Wilma example, buying and selling shares and pips."""

from __future__ import annotations

import pytest
from town_support import RULES, at, dice_left, game_for, hero, run, scripted, sheet, town

from d100gui.engine.hero.model import Investment
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.town.investments import Result, add_pips, apply_result, read_result, remove_pips

PER_SHARE = RULES.investments.pips_per_share


def test_wilma_removes_4_pips_from_3_shares_and_2_pips():
    """Rulebook: erase the 2 pips, deduct 1 share, shade all 5 pips, erase the 2 outstanding."""
    assert PER_SHARE == 5
    assert remove_pips(Investment(shares=3, pips=2), 4, PER_SHARE) == Investment(shares=2, pips=3)


def test_wilma_rolls_once_and_cross_references_finance_then_holdings():
    """Wilma: 3 shares in Finance (2 pips shaded) and 2 in Holdings. Table J 35: Finance -1 Pips and
    Holdings -2 Pips, each per share: Finance loses 3 pips (2 erased, a share borrowed, 1 more) and
    Holdings 4 (a share borrowed, 4 erased)."""
    ch = hero(gp=0)
    ch.empire["finance"] = Investment(shares=3, pips=2)
    ch.empire["holdings"] = Investment(shares=2, pips=0)
    game = game_for(ch)
    at(game, "investments")
    scripted(game, 3, 5)
    rolled = run(game, "roll_investments")[0].payload()
    assert rolled.table_roll.roll.final == 35
    assert [(c.investment, c.result, c.shares, c.pips) for c in rolled.changes] == [
        ("finance", "-1 Pips", 2, 4),
        ("holdings", "-2 Pips", 1, 1),
    ]
    assert sheet(game).empire["finance"] == Investment(shares=2, pips=4)
    assert sheet(game).empire["trade"] == Investment()  # no shares: not read
    assert dice_left(game) == 0
    with pytest.raises(CommandRefused, match=r"rolled once after each quest"):
        run(game, "roll_investments")


def test_a_result_applies_once_per_share():
    """Rulebook: "instructed to lose 3 pips and they have 4 shares, they will lose 12 pips"."""
    assert apply_result(Investment(shares=4, pips=0), Result(-3, "pip"), RULES) == Investment(shares=1, pips=3)
    assert apply_result(Investment(shares=2, pips=4), Result(-1, "share"), RULES) == Investment(shares=0, pips=0)
    assert apply_result(Investment(shares=3, pips=4), Result(1, "pip"), RULES) == Investment(shares=4, pips=2)
    assert apply_result(Investment(shares=0, pips=3), Result(-3, "pip"), RULES) == Investment(shares=0, pips=3)


def test_a_full_track_becomes_a_share_up_to_ten():
    assert add_pips(Investment(shares=1, pips=4), 1, PER_SHARE, 10) == Investment(shares=2, pips=0)
    assert add_pips(Investment(shares=10, pips=4), 3, PER_SHARE, 10) == Investment(shares=10, pips=5)


def test_table_j_cells_are_read():
    assert read_result("-3 Pips") == Result(-3, "pip")
    assert read_result("-2 Shares") == Result(-2, "share")
    assert read_result("+1 Pip") == Result(1, "pip")
    assert read_result("No Gain") == Result(0, "none")


def test_buy_and_sell_shares_and_sell_pips_at_the_listed_prices():
    ch = hero(gp=1000)
    ch.empire["trade"] = Investment(shares=1, pips=3)
    game = game_for(ch)
    at(game, "investments")
    scripted(game, 3, 5)  # Trade: No Gain
    run(game, "roll_investments")
    bought = run(game, "trade_investment", investment="Finance", action="buy", count=2)[0].payload()
    assert (bought.gold, bought.gp, bought.shares) == (-600, 400, 2)
    sold = run(game, "trade_investment", investment="trade", action="sell", unit="pip", count=3)[0].payload()
    assert (sold.gold, sold.pips) == (3 * 20, 0)
    run(game, "trade_investment", investment="trade", action="sell", count=1)
    assert sheet(game).gp == 400 + 60 + 100
    assert (town(game).totals.spent, town(game).totals.earned) == (600, 160)


def test_an_eleventh_share_buying_pips_and_buying_without_gold_are_refused():
    ch = hero(gp=5000)
    ch.empire["trade"] = Investment(shares=10)
    ch.empire["wars"] = Investment(shares=0)
    game = game_for(ch)
    at(game, "investments")
    scripted(game, 3, 5)
    run(game, "roll_investments")
    with pytest.raises(CommandRefused, match=r"At most 10 shares in Trade: you hold 10, so 0 more at most"):
        run(game, "trade_investment", investment="trade", action="buy")
    with pytest.raises(CommandRefused, match=r"Pips can never be bought, only sold \(60 gp each\)"):
        run(game, "trade_investment", investment="finance", action="buy", unit="pip")
    with pytest.raises(CommandRefused, match=r"6 Wars shares at 1000 gp costs 6000 gp and you have 5000 gp: 1000 gp short"):
        run(game, "trade_investment", investment="wars", action="buy", count=6)


def test_trading_waits_for_the_roll_and_a_missing_row_waits_for_the_player():
    ch = hero(gp=1000)
    ch.empire["trade"] = Investment(shares=2)
    game = game_for(ch)
    at(game, "investments")
    with pytest.raises(CommandRefused, match=r"Roll Table J"):
        run(game, "trade_investment", investment="trade", action="buy")
    with pytest.raises(CommandRefused, match=r"Roll Table J for your investments first"):
        run(game, "finish_town")
    scripted(game, 7, 5)  # 75: not in the excerpt
    rolled = run(game, "roll_investments")[0].payload()
    assert rolled.table_roll.row is None and rolled.changes == []
    with pytest.raises(CommandRefused, match=r"Roll Table J for your investments first"):
        run(game, "finish_town")
    row = {"range": [71, 80], "fields": {"trade": "+2 Pips", "finance": "+1 Pip", "holdings": "No Gain", "wars": "-1 Pips"}}
    applied = run(game, "provide_investment_row", row=row)[0].payload()
    assert [(c.investment, c.pips) for c in applied.changes] == [("trade", 4)]
    run(game, "finish_town")


def test_without_shares_after_the_quest_there_is_no_roll_and_shares_bought_wait_for_the_next_quest():
    game = game_for(hero(gp=300))
    at(game, "investments")
    with pytest.raises(CommandRefused, match=r"no shares after the quest"):
        run(game, "roll_investments")
    run(game, "trade_investment", investment="trade", action="buy", count=3)
    run(game, "finish_town")
    assert sheet(game).empire["trade"] == Investment(shares=3)
