"""Issue 19, deliver 5: a market roll or Table J roll on a missing row can be settled by re-rolling among the
printed rows (sample play, nothing saved), as every other missing row can."""

from __future__ import annotations

import pytest
from town_support import at, game_for, hero, kinds, run, scripted

from d100gui.engine.hero.model import Investment
from d100gui.engine.protocol import CommandRefused


def test_a_market_roll_on_a_missing_row_is_re_rolled_among_printed_rows():
    game = game_for(hero(gp=500))
    at(game, "markets")
    scripted(game, 5, 0)  # Table A 50: not in the excerpt
    run(game, "roll_market", table_id="d100.A")
    with pytest.raises(CommandRefused, match="or re-roll among the printed rows"):
        run(game, "provide_market_row", index=0)
    scripted(game, 9, 9, 0, 7)  # 99: no row again; 7: Leather Cuirass
    events = run(game, "provide_market_row", index=0, sample=True)
    assert kinds(events) == ["town_market_rolled"]
    rolled = events[0].payload().table_roll
    assert rolled.sample and rolled.row.fields["item"] == "Leather Cuirass"
    assert game.library.get("d100.A").find(50) is None
    with pytest.raises(CommandRefused, match="already has its row"):
        run(game, "provide_market_row", index=0, sample=True)


def test_a_table_j_roll_on_a_missing_row_is_re_rolled_and_applied():
    ch = hero(gp=1000)
    ch.empire["trade"] = Investment(shares=2)
    game = game_for(ch)
    at(game, "investments")
    scripted(game, 7, 5)  # Table J 75: not in the excerpt
    run(game, "roll_investments")
    scripted(game, 4, 5)  # 45: Trade +1 Pip
    applied = run(game, "provide_investment_row", sample=True)[0].payload()
    assert applied.table_roll.sample and [(c.investment, c.pips) for c in applied.changes] == [("trade", 2)]
    with pytest.raises(CommandRefused, match="No Table J roll is waiting"):
        run(game, "provide_investment_row", sample=True)
