"""Re-roll among printed rows settles the roll that asked for the row (issue 19 W4), with scripted dice."""

from __future__ import annotations

import pytest
from adventure_support import RULES, kinds
from test_turn import YELLOW_CROSSROADS, d100, next_clock_faces, on_quest, push

from d100gui.engine.adventure.row_commands import ApplyTypedRow
from d100gui.engine.adventure.turn import MoveOn, SearchArea
from d100gui.engine.dice.tables import Row
from d100gui.engine.dice_commands import SampleRow
from d100gui.engine.flow import flow, sample_answer, sample_for_roll
from d100gui.engine.protocol import CommandRefused


def searched_into_row_50():
    game = on_quest()
    push(game, *d100(YELLOW_CROSSROADS))
    game.execute(MoveOn(side="N"))
    push(game, *d100(50))  # Table F 50: the excerpt prints 1-30
    game.execute(SearchArea())
    [waiting] = game.campaign.adventure.rows_waiting
    return game, waiting.entry


def test_the_reroll_applies_the_printed_row_it_lands_on_and_settles_the_search():
    game, entry = searched_into_row_50()
    assert sample_for_roll(game.campaign, entry) == ApplyTypedRow(entry=entry, sample=True)
    push(game, *d100(18), *next_clock_faces(game))  # Table F 18: two Disease pips, +1 time
    events = game.execute(ApplyTypedRow(entry=entry, sample=True))
    assert game.campaign.adventure.rows_waiting == [] and game.campaign.character.disease == 2
    assert "typed_row_applied" in kinds(events)
    sampled = game.campaign.dice_history[-1]
    assert sampled.table.sample and sampled.parent == entry and game.campaign.dice_history[entry].table.row is None
    assert sample_for_roll(game.campaign, entry) == SampleRow(entry=entry)  # nothing waits on it any more


def test_the_flow_offers_the_reroll_beside_typing_the_row_and_never_both_at_once():
    game, entry = searched_into_row_50()
    made = flow(game.campaign, RULES, game.library)
    [waiting] = [w for w in made.waiting if w.kind == "row_waiting"]
    type_it = next(a for a in waiting.answers if a.asks_row)
    sample = sample_answer(made, type_it)
    assert sample is not None and sample.enabled and sample.command == ApplyTypedRow(entry=entry, sample=True)
    with pytest.raises(CommandRefused, match="not both"):
        game.execute(ApplyTypedRow(entry=entry, sample=True, row=Row(range=(50, 50), fields={"time": "+1", "effect": "x"})))
