"""The status line's contents from the engine (issue 19, Deliver 3): the objective's progress, the time track's
next printed symbol, HP, Fate, Lives and what waits."""

from __future__ import annotations

from adventure_support import RULES
from test_turn import on_quest

from d100gui.engine.flow import flow
from d100gui.engine.hero.model import Item

LAYOUT = RULES.sheet.time_track


def test_the_status_names_the_quest_its_progress_the_clocks_and_the_hero():
    game = on_quest(shaded=3)  # clocks 1-3 shaded
    ch = game.campaign.character
    ch.fate, ch.lives, ch.hp = 2, 1, 15
    status = flow(game.campaign, RULES, game.library).status
    assert status is not None
    assert (status.quest, status.progress, status.turn) == ("Dungeon Training 1", "Parts 0 of 3", 1)
    assert status.objective == "Basic dungeoning, loot 3 Parts."
    following = next(c for c in range(4, LAYOUT.clocks + 1) if LAYOUT.triggers_at(c))
    kinds = ", ".join(dict.fromkeys(t.kind for t in LAYOUT.triggers_at(following)))
    assert (status.clock, status.clocks, status.next_trigger) == (3, LAYOUT.clocks, f"{kinds} in {following - 3}")
    assert (status.hp, status.max_hp, status.fate, status.lives, status.waits) == (15, 20, 2, 1, "")
    ch.backpack.append(Item(name="Gear", kind="item", source="d100.P 5"))  # a part looted this quest
    ch.objectives = 1  # and a blue area counted
    assert flow(game.campaign, RULES, game.library).status.progress == "Parts 2 of 3"


def test_the_next_symbol_wraps_round_the_track_and_what_waits_is_said():
    game = on_quest(shaded=LAYOUT.clocks)  # the last clock shaded: the next symbol is on the next track
    first = min(t.clock for t in LAYOUT.triggers)
    status = flow(game.campaign, RULES, game.library).status
    assert status.next_trigger.endswith(f"in {first}")
    game.campaign.adventure.clocks_owed = 2
    assert "clock(s) still wait" in flow(game.campaign, RULES, game.library).status.waits
    assert flow(game.campaign, RULES, game.library).as_dict()["status"]["quest"] == "Dungeon Training 1"
