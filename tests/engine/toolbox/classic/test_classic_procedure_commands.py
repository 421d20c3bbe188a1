"""The issue-22 procedure commands through the game: declared phases, typed events, state kept, refusals."""

from __future__ import annotations

import pytest
from classic_script import pct
from test_classic_commands import make

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.game import Game
from d100gui.engine.gate import declared
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import procedure_commands as pc
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.events import ClassicSwordPickedUp, ClassicUnderworldTurns
from d100gui.storage.resources import bundled_rules, standard_tilesets


def test_every_procedure_command_is_a_toolbox_command_declaring_when_it_runs():
    assert all(c in tc.TOOLBOX_COMMANDS for c in pc.PROCEDURE_COMMANDS)
    assert all(declared(c) is not None for c in pc.PROCEDURE_COMMANDS)


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


def test_a_magic_item_on_a_row_the_text_never_printed_asks_for_it_like_the_dice_panel(bundled_library):
    # Wands/Staves (93), 27: Wands and Staves 26-30 is not printed
    game = make(bundled_library, *pct(93, 27))
    events = game.execute(tc.ClassicMagicItem(maps=False))
    found, asked = events[0], events[-1]
    assert "row 26-30 is not in your tables" in found.message and "type the row" in found.message
    assert asked.kind == "row_missing" and "type row 26-30" in asked.message
    entry = game.campaign.dice_history[asked.data["index"]]
    assert entry.table is not None and entry.table.table_id == "classic.wands_staves" and entry.table.row is None


def test_a_rest_shows_the_heal_check_s_target_number(bundled_library):
    from d100gui.engine.toolbox.exploration import RestKind

    game = make(bundled_library)
    [event] = game.execute(tc.Rest(rest=RestKind.PARTIAL, wounds=2, worst_wound=4, minutes=60))
    assert "The Heal check's TN: 10 + the worst wound = 14." in event.message
    [quiet] = game.execute(tc.Rest(rest=RestKind.PARTIAL, wounds=0, worst_wound=4))
    assert "TN" not in quiet.message  # no wounds: no check to make


def test_any_tool_on_a_players_table_lacking_a_row_asks_for_it(bundled_library):
    tables = [
        t.model_copy(update={"rows": [r for r in t.rows if r.range != (7, 7)]}) if t.id == sc.REACTION_TABLE else t
        for t in bundled_library
    ]
    game = Game(Campaign(), TableLibrary([Pack(id="mine", title="mine", tables=tables)]), tc.TOOLBOX_COMMANDS,
                rules=bundled_rules(), tilesets=standard_tilesets())  # fmt: skip
    game.override = ScriptedSource([3, 4])
    events = game.execute(tc.ScarsReactionRoll())
    assert [e.kind for e in events][-1] == "row_missing" and "type row 7-7" in events[-1].message
