"""Doors by Table D, with scripted dice: each door type's procedure, its costs, retrying, and the secret passage."""

from __future__ import annotations

import pytest
from adventure_support import RULES, kinds
from test_turn import next_clock_faces, on_quest, push

from d100gui.engine.adventure.doors import TryDoor, door_test_line, secret_passage_allowed
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import SetDoor
from d100gui.engine.dungeon_entry import SecretPassage
from d100gui.engine.game import Game
from d100gui.engine.hero.model import Item
from d100gui.engine.protocol import CommandRefused

DEAD_END_ROOM = 27  # a yellow room whose only way on is one door (on its left)


def door_game(door_type: str) -> tuple[Game, dg.DoorAt]:
    """A hero on a quest in an entrance room whose only way on is a ``door_type`` door."""
    game = on_quest(entrance=DEAD_END_ROOM)
    dungeon = game.campaign.dungeons.current_dungeon
    [where] = dg.doorways_of(dungeon, dungeon.hero)
    game.execute(SetDoor(pos=where.pos, side=where.side, door_type=door_type, roll=None))
    return game, where


def door(game: Game, where: dg.DoorAt) -> dg.Door:
    found = dg.door_at(game.campaign.dungeons.current_dungeon, where)
    assert found is not None
    return found


def attempt(game: Game, where: dg.DoorAt, method: str, **kw) -> list:
    return game.execute(TryDoor(pos=where.pos, side=where.side, method=method, auto_accept=True, **kw))


def test_a_locked_door_opens_to_a_key_roll_and_deletes_a_key():
    game, where = door_game("LD")
    ch = game.campaign.character
    ch.keys = 3
    push(game, 2)  # d10 2 <= 3 keys
    events = attempt(game, where, "key")
    assert door(game, where).is_open and ch.keys == 2
    assert "door_tried" in kinds(events) and "map_changed" in kinds(events)


def test_a_failed_key_roll_is_not_retried_and_the_lock_is_picked_at_the_tables_cost():
    game, where = door_game("LD")
    ch = game.campaign.character
    ch.keys, ch.supplies.picks = 1, 2
    before = ch.time_track.shaded
    push(game, 9)
    attempt(game, where, "key")
    assert not door(game, where).is_open and ch.keys == 1
    with pytest.raises(CommandRefused, match="keys already failed on this door; try pick"):
        attempt(game, where, "key")
    push(game, 9, 9)  # LOCKED DOOR test: 99, a failure: -1 Pick, +1 (time)
    attempt(game, where, "pick")
    assert ch.supplies.picks == 1 and ch.time_track.shaded == before + 1 and not door(game, where).is_open
    push(game, 2, 0)  # again: 20, a success
    attempt(game, where, "pick")
    assert door(game, where).is_open and ch.supplies.picks == 1


def test_picking_a_lock_needs_a_pick():
    game, where = door_game("TLD")
    game.campaign.character.supplies.picks = 0
    with pytest.raises(CommandRefused, match="you need a pick to pick a lock"):
        attempt(game, where, "pick")
    with pytest.raises(CommandRefused, match="TLD door is opened by pick, not by force"):
        attempt(game, where, "force")
    assert secret_passage_allowed(game.campaign, RULES, game.library)  # nothing left to open it with


def test_a_trap_locked_door_costs_a_pick_hp_and_time_and_hp_zero_spends_a_life():
    game, where = door_game("TLD")
    ch = game.campaign.character
    ch.hp, ch.lives, ch.supplies.picks = 1, 1, 3
    push(game, 9, 9)
    events = attempt(game, where, "pick")
    assert ch.supplies.picks == 2 and ch.lives == 0 and ch.hp == ch.hp_primary
    assert "death_cheated" in kinds(events)


def test_a_jammed_door_is_forced_again_and_again_and_blocks_no_secret_passage():
    game, where = door_game("JD")
    ch = game.campaign.character
    hp = ch.hp
    for _ in range(2):
        push(game, 9, 9, *next_clock_faces(game))  # a failure: -1HP, +1 (the clock's wandering check brings none)
        attempt(game, where, "force")
    assert ch.hp == hp - 2 and not door(game, where).is_open
    assert not secret_passage_allowed(game.campaign, RULES, game.library)
    here = game.campaign.dungeons.current_dungeon.hero_area()
    rock = next(s for s in ("N", "E") if s not in here.exits)
    with pytest.raises(CommandRefused, match="can still be opened"):
        game.execute(SecretPassage(pos=here.key, side=rock))
    push(game, 1, 5)
    attempt(game, where, "force")
    assert door(game, where).is_open


def test_a_lever_door_that_stays_closed_is_forced_as_a_jammed_door():
    game, where = door_game("LVD")
    ch = game.campaign.character
    ch.levers = 2
    with pytest.raises(CommandRefused, match="forced only once its levers failed"):
        attempt(game, where, "force")
    push(game, 7)
    attempt(game, where, "lever")
    assert not door(game, where).is_open and ch.levers == 2
    push(game, 2, 0)
    attempt(game, where, "force")
    assert door(game, where).is_open


def test_a_lever_roll_opens_and_removes_a_lever_pip():
    game, where = door_game("LVD")
    ch = game.campaign.character
    ch.levers = 2
    push(game, 1)
    attempt(game, where, "lever")
    assert door(game, where).is_open and ch.levers == 1


def test_a_trapped_door_costs_hp_on_a_failure():
    game, where = door_game("TD")
    ch = game.campaign.character
    hp = ch.hp
    push(game, 9, 9)
    attempt(game, where, "test")
    assert ch.hp == hp - 1 and not door(game, where).is_open
    push(game, 3, 0)
    attempt(game, where, "test")
    assert door(game, where).is_open


def test_a_magic_seal_opens_to_an_open_magic_scroll_and_with_one_there_is_no_secret_passage():
    game, where = door_game("MS")
    ch = game.campaign.character
    assert secret_passage_allowed(game.campaign, RULES, game.library)  # no Open Magic at all
    ch.belt[0] = Item(name="Scroll of Open Magic", kind="scroll")
    assert not secret_passage_allowed(game.campaign, RULES, game.library)
    hp = ch.hp
    push(game, 1, 5)  # CAST SPELL 15: a success
    events = attempt(game, where, "scroll")
    assert door(game, where).is_open and ch.belt[0] is None and ch.hp == hp - 1
    assert "magic_spell_effect" in kinds(events)


def test_a_door_test_line_is_read_from_its_row():
    assert door_test_line("… or pick the lock LOCKED DOOR – Test: Dex [S: Open] [F:-1 Pick, +1 ] (Locks)", "LD").startswith(
        "LOCKED DOOR – Test: Dex"
    )
    with pytest.raises(CommandRefused, match="prints no test"):
        door_test_line("The door is open", "OPEN")


def test_the_turn_strip_offers_each_way_of_opening_a_door_greyed_with_the_reason():
    from d100gui.engine.adventure.turn_view import turn_panel

    game, where = door_game("LD")
    ch = game.campaign.character
    ch.keys, ch.supplies.picks = 0, 1
    actions = {a.key: a for a in turn_panel(game.campaign, RULES, game.library).actions}
    key, pick = actions[f"door_{where.pos}_{where.side}_key"], actions[f"door_{where.pos}_{where.side}_pick"]
    assert not key.enabled and "no key" in key.why and pick.enabled
    assert pick.command == TryDoor(pos=where.pos, side=where.side, method="pick")
