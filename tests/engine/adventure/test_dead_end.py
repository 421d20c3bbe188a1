"""A dead end says a secret passage is possible: the flow offers one per wall it may go through (issue 19)."""

from __future__ import annotations

from adventure_support import RULES
from test_turn import YELLOW_CROSSROADS, d100, on_quest, push

from d100gui.engine.adventure.turn import MoveOn
from d100gui.engine.flow import flow

YELLOW_DEAD_END = 24  # Table M 24: a yellow area with no exit but the way in


def test_a_dead_end_entrance_offers_a_secret_passage_through_each_wall_and_it_is_walked_through():
    game = on_quest(entrance=YELLOW_DEAD_END)
    made = flow(game.campaign, RULES, game.library)
    passages = {a.key: a for a in made.actions if a.key.startswith("secret_")}
    assert set(passages) == {"secret_N", "secret_E", "secret_W"}  # never out through the entrance's own side
    assert all(a.enabled and "secret passage" in a.why for a in passages.values())
    game.execute(passages["secret_N"].command)
    assert not any(a.key.startswith("secret_") for a in flow(game.campaign, RULES, game.library).actions)
    push(game, *d100(YELLOW_CROSSROADS))
    game.execute(MoveOn(side="N"))
    dungeon = game.campaign.dungeons.current_dungeon
    assert dungeon.hero != dungeon.entrance


def test_no_secret_passage_is_offered_while_a_way_on_is_open():
    game = on_quest(entrance=YELLOW_CROSSROADS)
    assert not any(a.key.startswith("secret_") for a in flow(game.campaign, RULES, game.library).actions)
