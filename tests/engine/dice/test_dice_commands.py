"""Dice commands through the game: history, follow-ups, missing rows, Fate, undo and replay."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Pack, Row, TableLibrary
from d100gui.engine.dice_commands import FollowLink, ProvideRow, RerollDice, RollDice, RollTable, history_text
from d100gui.engine.game import Game, replay
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.resources import bundled_rules, standard_tilesets


def private_library(bundled_library) -> TableLibrary:
    """A copy of the bundled tables (player rows may be laid over it)."""
    return TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])


def make(bundled_library, *faces, policy=MissingRowPolicy.ASK) -> Game:
    game = Game(
        Campaign(),
        private_library(bundled_library),
        ALL_COMMANDS,
        policy=policy,
        rules=bundled_rules(),
        tilesets=standard_tilesets(),
    )
    if faces:
        game.override = ScriptedSource(faces)
    return game


def test_roll_dice_is_logged_with_its_roll(bundled_library):
    game = make(bundled_library, 3, 4)
    [event] = game.execute(RollDice(expression="2d6"))
    assert event.kind == "roll_made"
    assert game.campaign.dice_history[0].roll.natural == 7
    [entry] = game.campaign.log
    assert entry.command == {"kind": "roll_dice", "expression": "2d6", "purpose": ""}
    assert [d.face for d in entry.rolls[0].dice] == [3, 4]
    assert "1. 2d6" in history_text(game.campaign.dice_history)


def test_table_roll_then_follow_link(bundled_library):
    game = make(bundled_library, 2, 7, 1, 1)
    game.execute(RollTable(table_id="d100.B"))
    assert game.campaign.dice_history[0].table.row.fields["name"] == "ITEM"
    game.execute(FollowLink(entry=0, link=0))
    nested = game.campaign.dice_history[1]
    assert nested.parent == 0
    assert nested.table.table_id == "d100.I"
    assert nested.table.row.fields["item"] == "WORN KEY"


def test_missing_row_asks_then_provided(bundled_library):
    game = make(bundled_library, 9, 0)
    [event] = game.execute(RollTable(table_id="d100.W"))
    assert event.kind == "row_missing"
    assert game.campaign.dice_history[0].table.missing == (9, 100)
    row = Row(
        range=(89, 92), fields={"type": "(H)", "weapon": "Test Blade", "adjustment": "+1 DMG", "value": "100", "repair": "20"}
    )
    [done] = game.execute(ProvideRow(entry=0, row=row))
    assert done.kind == "row_provided"
    assert game.campaign.dice_history[0].table.row.fields["weapon"] == "Test Blade"
    assert game.library.get("d100.W").find(90).user
    with pytest.raises(CommandRefused, match="not waiting"):
        game.execute(ProvideRow(entry=0, row=row))


def test_reroll_table_entry_finds_new_row(bundled_library):
    game = make(bundled_library, 0, 1, 1)
    game.execute(RollTable(table_id="d100.A"))
    game.execute(RerollDice(entry=0, dice=[0]))
    entry = game.campaign.dice_history[1]
    assert entry.roll.natural == 11
    assert entry.table.row.fields["item"] == "Leather Gauntlets"
    assert entry.roll.rerolled == [0]


def test_refused_commands_change_nothing(bundled_library):
    game = make(bundled_library, 5)
    before = game.campaign.model_dump()
    with pytest.raises(CommandRefused, match="no table"):
        game.execute(RollTable(table_id="d100.ZZ"))
    with pytest.raises(CommandRefused, match="no roll number 4"):
        game.execute(FollowLink(entry=3, link=0))
    assert game.campaign.model_dump() == before
    assert not game.can_undo


def test_undo_restores_generator_so_redo_and_reroll_give_the_same_roll(bundled_library):
    game = make(bundled_library)
    game.execute(RollDice(expression="d100"))
    first = game.campaign.dice_history[0].roll.natural
    game.undo()
    assert game.campaign.dice_history == []
    game.execute(RollDice(expression="d100"))
    assert game.campaign.dice_history[0].roll.natural == first  # no fishing for a better roll
    game.undo()
    game.redo()
    assert game.campaign.dice_history[0].roll.natural == first
    with pytest.raises(CommandRefused, match="Nothing to redo"):
        game.redo()


def test_redo_returns_the_undone_state_exactly(bundled_library):
    game = make(bundled_library)
    for expr in ("d100", "2d6", "d20"):
        game.execute(RollDice(expression=expr))
    after = game.campaign.model_dump()
    game.undo()
    game.undo()
    assert len(game.campaign.dice_history) == 1
    game.redo()
    game.redo()
    assert game.campaign.model_dump() == after


def test_replay_reproduces_the_campaign(bundled_library):
    game = make(bundled_library)
    game.execute(RollTable(table_id="d100.E", modifier=-40))
    game.execute(RollDice(expression="3d6"))
    game.execute(RerollDice(entry=1, dice=[0]))
    start = Campaign(meta=game.campaign.meta, start_rng_state=game.campaign.start_rng_state)
    final = replay(
        game.campaign.log,
        private_library(bundled_library),
        ALL_COMMANDS,
        start,
        rules=bundled_rules(),
        tilesets=standard_tilesets(),
    )
    assert final.dice_history == game.campaign.dice_history
    assert final.rng_state == game.campaign.rng_state


def test_replay_uses_logged_physical_faces(bundled_library):
    game = make(bundled_library)
    game.physical = lambda requests: [4, 2]
    game.execute(RollDice(expression="d100"))
    assert game.campaign.log[0].rolls[0].manual
    start = Campaign(meta=game.campaign.meta, start_rng_state=game.campaign.start_rng_state)
    final = replay(
        game.campaign.log,
        private_library(bundled_library),
        ALL_COMMANDS,
        start,
        rules=bundled_rules(),
        tilesets=standard_tilesets(),
    )
    assert final.dice_history[0].roll.natural == 42
