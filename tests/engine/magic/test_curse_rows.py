"""A Table C row typed outside a fight: the curse waits for its row, then applies in full."""

from __future__ import annotations

import pytest
from magic_support import game_for, hero, kinds, run, scripted, sheet

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.waiting import curse_waiting
from d100gui.engine.protocol import CommandRefused

#: a row a player types from their rulebook for the gap at 50 (the excerpt prints rows 1-9 only)
TYPED = {"range": [50, 50], "fields": {"name": "HEXED", "effect": "-4 INT to your primary characteristic."}}


def _failed_cast_on_a_missing_row():
    ch = hero()
    ch.characteristics["INT"].primary = 55
    game = game_for(ch)
    run(game, "learn_spell", spell="Open Magic")
    scripted(game, 9, 0, 5, 0)  # CAST SPELL 90 > 55: Table C 50, a row the excerpt lacks
    events = run(game, "cast_spell", index=0)
    return game, events


def test_a_failed_cast_on_a_missing_table_c_row_asks_for_the_row_and_waits():
    game, events = _failed_cast_on_a_missing_row()
    assert kinds(events) == ["magic_cast", "hp", "magic_curse", "magic_curse_row_missing"]  # the spell's HP cost, typed
    waiting = events[-1].payload().table_roll
    assert events[-1].topic == "decision" and waiting.roll.final == 50 and waiting.missing is not None
    assert curse_waiting(game.campaign.adventure.rows_waiting) == waiting
    assert sheet(game).characteristics["INT"].primary == 55  # nothing applied yet
    with pytest.raises(CommandRefused, match=r"A curse waits for its row \(Table C rolled 50\)"):
        run(game, "cast_spell", index=0)
    with pytest.raises(CommandRefused, match=r"A curse waits for its row"):
        run(game, "roll_curse")
    with pytest.raises(CommandRefused, match=r"A curse cannot be skipped"):
        run(game, "provide_curse_row")


def test_the_typed_row_is_added_to_the_tables_and_applied_in_full():
    game, _ = _failed_cast_on_a_missing_row()
    events = run(game, "provide_curse_row", row=TYPED)
    assert kinds(events) == ["row_provided", "magic_curse", "characteristic"]
    provided = events[0].payload()
    assert provided.table_id == "d100.C" and provided.row.fields["name"] == "HEXED"
    result = events[1].payload().result
    assert result.curse == "Hexed" and not result.missing
    assert sheet(game).characteristics["INT"].primary == 51
    assert curse_waiting(game.campaign.adventure.rows_waiting) is None
    assert game.library.get("d100.C").find(50).user  # typed once, known from then on
    with pytest.raises(CommandRefused, match=r"No Table C roll is waiting"):
        run(game, "provide_curse_row", row=TYPED)


def test_a_typed_row_must_cover_the_roll():
    game, _ = _failed_cast_on_a_missing_row()
    with pytest.raises(CommandRefused, match=r"must cover the roll of 50"):
        run(game, "provide_curse_row", row={**TYPED, "range": [40, 40]})
    assert curse_waiting(game.campaign.adventure.rows_waiting) is not None


def test_sample_play_re_rolls_among_the_printed_rows_this_time():
    game, _ = _failed_cast_on_a_missing_row()
    scripted(game, 0, 6)  # re-rolled: Table C 6, AWKWARD
    events = run(game, "provide_curse_row", sample=True)
    assert kinds(events) == ["magic_curse", "characteristic"]
    assert events[0].payload().result.table_roll.sample
    assert sheet(game).characteristics["DEX"].primary == 36
    assert game.library.get("d100.C").find(50) is None  # nothing was added to the tables


def test_a_typed_divine_wrath_without_lives_lays_the_hero_to_rest():
    game, _ = _failed_cast_on_a_missing_row()
    sheet(game).lives = 1
    wrath = {"range": [50, 50], "fields": {"name": "DIVINE WRATH", "effect": "lose 2 LIVES or your adventure is over."}}
    events = run(game, "provide_curse_row", row=wrath)
    assert kinds(events) == ["row_provided", "magic_curse", "hero_fell"]
    assert game.campaign.character is None and game.campaign.hall_of_fallen[-1].dead


def test_the_waiting_curse_survives_a_save_and_undo_takes_it_back():
    game, _ = _failed_cast_on_a_missing_row()
    again = Campaign.model_validate_json(game.campaign.model_dump_json())
    assert curse_waiting(again.adventure.rows_waiting) == curse_waiting(game.campaign.adventure.rows_waiting)
    run(game, "provide_curse_row", row=TYPED)
    game.undo()
    assert curse_waiting(game.campaign.adventure.rows_waiting) is not None and sheet(game).characteristics["INT"].primary == 55
