"""The issue-22 procedure commands through the game: declared phases, typed events, state kept, refusals."""

from __future__ import annotations

import pytest
from classic_script import pct
from test_classic_commands import make

from d100gui.engine.game import CommandRefused
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import procedure_commands as pc
from d100gui.engine.toolbox.events import ClassicSwordPickedUp, ClassicUnderworldTurns


def test_every_procedure_command_is_a_toolbox_command():
    assert all(c in tc.TOOLBOX_COMMANDS for c in pc.PROCEDURE_COMMANDS)


def test_the_underworld_clock_is_kept_in_the_campaign_and_undo_restores_it(bundled_library):
    game = make(bundled_library)
    [event] = game.execute(pc.ClassicUnderworldTurn(activity="move", turns=5, speed=9))
    payload = event.payload()
    assert isinstance(payload, ClassicUnderworldTurns) and payload.step.feet == 900
    assert game.campaign.toolbox.underworld.since_rest == 5
    with pytest.raises(CommandRefused, match="A rest of 1 turn"):
        game.execute(pc.ClassicUnderworldTurn(activity="move"))
    game.execute(pc.ClassicUnderworldTurn(activity="rest"))
    assert game.campaign.toolbox.underworld.since_rest == 0
    game.undo()
    assert game.campaign.toolbox.underworld.since_rest == 5


def test_a_sword_must_be_made_before_it_is_picked_up(bundled_library):
    game = make(bundled_library, *pct(1, 95), 3, *pct(1), 4, 5)
    with pytest.raises(CommandRefused, match="No sword yet"):
        game.execute(pc.ClassicSwordPickup(alignment="Lawful"))
    game.execute(tc.ClassicSword())
    [event] = game.execute(pc.ClassicSwordPickup(alignment="Lawful"))
    payload = event.payload()
    assert isinstance(payload, ClassicSwordPickedUp) and payload.pickup.damage == 9  # Chaotic sword, Lawful hand: 2d6


def test_hiring_needs_one_kind_of_hireling(bundled_library):
    game = make(bundled_library)
    with pytest.raises(CommandRefused, match="one of them"):
        game.execute(pc.ClassicHire())
    [event] = game.execute(pc.ClassicHire(classification="Archer", race="elf", count=4))
    assert "4 Archer (Elf) at 10 GP a month each" in event.message
