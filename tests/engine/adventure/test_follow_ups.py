"""A trap's follow-up roll ("roll SPIKES") is rolled by the engine from the note its feature printed."""

from __future__ import annotations

import pytest
from adventure_support import hero
from test_turn import GREEN_CROSSROADS, d100, game_of, next_clock_faces, on_quest, push, quiet_clock

from d100gui.engine.adventure.turn import MoveOn
from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.effects.follow_ups import called_note, parse_follow_up
from d100gui.engine.hero.decisions import CalledTest
from d100gui.engine.skill_test_commands import AcceptTest, RollTest

SPIKED_PIT = 5  # Table G 5: SPIKED PIT TRAP, [F: Belt Check, -2 hp, roll SPIKES, +1] and its SPIKES note


def test_the_note_is_read_from_the_tables_text():
    follow = parse_follow_up("SPIKES", "SPIKES – Roll 1d10, odds spikes missed, even spikes hit -2 HP.")
    assert follow is not None and follow.die == "1d10"
    assert follow.side(7) == ("odd", "spikes missed") and follow.side(4) == ("even", "spikes hit -2 HP")
    reversed_ = parse_follow_up("DARTS", "DARTS - Roll 1d6, evens darts hit -1 HP, odds darts missed")
    assert reversed_ is not None and reversed_.side(3) == ("odd", "darts missed") and reversed_.die == "1d6"
    assert parse_follow_up("BELL", "BELL – the bell tolls and you lose a turn.") is None
    assert parse_follow_up("X", "X – Roll 1d10, odds a, odds b") is None  # one parity twice is no parity roll
    assert called_note("roll SPIKES") == "SPIKES" and called_note("roll again") == "" and called_note("Roll on Table E") == ""


def _trap_failed(spikes: int):
    """Walk into the SPIKED PIT TRAP, fail its test (99) and accept: belt check 4, SPIKES ``spikes``, the +1's clock."""
    game = on_quest()
    push(game, *d100(GREEN_CROSSROADS), *d100(SPIKED_PIT))
    game.execute(MoveOn(side="N"))
    [test] = [d for d in game.campaign.pending if isinstance(d, CalledTest)]
    assert game.campaign.adventure.notes["SPIKES"].startswith("SPIKES – Roll 1d10")  # kept for the test's outcome
    push(game, 9, 9)
    game.execute(RollTest(called=test.id))
    hp = game.campaign.character.hp
    push(game, 4, spikes)
    game.override.push(*next_clock_faces(game))
    events = game.execute(AcceptTest())
    return game, hp, events


@pytest.mark.parametrize(("face", "spikes", "lost"), [(4, 4, 4), (0, 10, 4), (7, 7, 2), (1, 1, 2)])
def test_a_failed_spiked_pit_rolls_spikes_odds_miss_evens_hit(face, spikes, lost):
    game, hp, events = _trap_failed(face)  # a d10 face of 0 reads 10: even
    kinds = [e.kind for e in events]
    [rolled] = [e.payload() for e in events if e.kind == "follow_up_rolled"]
    assert rolled.roll.final == spikes and rolled.parity == ("even" if spikes % 2 == 0 else "odd")
    assert game.campaign.character.hp == hp - lost  # the test's -2 hp, and the spikes' -2 on an even roll
    assert "narrative" not in kinds  # nothing left for the player to roll at the table
    assert kinds.index("belt_check") < kinds.index("follow_up_rolled") < kinds.index("time")  # in printed order
    assert game.override.remaining == 0  # the spikes' d10 was rolled by the engine


def test_spikes_that_empty_the_hp_spend_a_life_through_the_one_rule():
    game = on_quest()
    game.campaign.character.lives = 1
    push(game, *d100(GREEN_CROSSROADS), *d100(SPIKED_PIT))
    game.execute(MoveOn(side="N"))
    [test] = [d for d in game.campaign.pending if isinstance(d, CalledTest)]
    push(game, 9, 9)
    game.execute(RollTest(called=test.id))
    game.campaign.character.hp = 4  # -2 from the test, then -2 from the spikes: 0
    push(game, 4, 2)
    game.override.push(*next_clock_faces(game))
    events = game.execute(AcceptTest())
    cheated = [e.payload() for e in events if e.kind == "death_cheated"]
    assert [c.how for c in cheated] == ["life"] and game.campaign.character.lives == 0
    assert game.campaign.character.hp > 0


def test_a_note_that_is_not_kept_stays_a_narrative_to_correct():
    game = on_quest()
    push(game, 9, 9)
    events = game.execute(RollTest(text="OLD PIT – Test: Dex [S: avoid] [F: roll SPIKES]", auto_accept=True))
    assert "narrative" in [e.kind for e in events] and "follow_up_rolled" not in [e.kind for e in events]


def test_replaying_the_log_with_its_dice_rolls_the_same_spikes():
    game, _, _ = _trap_failed(4)
    played = game.campaign
    start = Campaign(meta=played.meta, start_rng_state=played.start_rng_state)
    start.character = hero()
    start.character.time_track.shaded = quiet_clock() - 1
    again = game_of(start)
    for entry in played.log:
        again.override = ScriptedSource([d.face for roll in entry.rolls for d in roll.dice])
        again.execute(again.parse_command(entry.command))
    assert again.campaign.character == played.character and again.campaign.adventure == played.adventure
