"""Doors through the public engine API: a passed door test opens its door (issue 10 #2), and a
doorway is one door seen from both areas (issue 10 #5)."""

from __future__ import annotations

import pytest

from d100gui.engine import CommandRefused, Session, creation_steps
from d100gui.storage.resources import bundled_game_data

#: the TLD row of Table D, as the map's "Test to open..." hands it to the skill test
TLD_EFFECT = "To open test TRAP LOCKED DOOR – Test: Dex [S:Open] [F:-1 Pick, -1 hp, +1 ] (Locks,Traps)"


def hero_session() -> Session:
    session = Session.new(bundled_game_data(), seed=2037, policy="reroll")
    for step in creation_steps("Brana", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    assert session.character is not None and session.character.creation is None
    return session


def at_a_trap_locked_door() -> Session:
    """Entrance tile 3; north tile 12, its E door rolled 32 = TLD (32), closed; the hero stands at it."""
    session = hero_session()
    session.run({"kind": "new_dungeon"})
    session.script_dice([0, 3, 1, 2, 3, 2])
    session.run({"kind": "enter_dungeon"})
    session.run({"kind": "move_hero", "side": "N"})
    assert session.scripted_left == 0
    return session


def door(session: Session, key: str, side: str):
    return session.campaign.dungeons.current_dungeon.areas[key].exits[side].door


# --------------------------------------------------------------------------- issue 10 #2


def test_a_passed_door_test_opens_the_door_and_the_hero_can_go_through():
    session = at_a_trap_locked_door()
    with pytest.raises(CommandRefused, match=r"TLD \(32\) is closed"):
        session.run({"kind": "move_hero", "side": "E"})
    session.script_dice([2, 0])  # 20: under DEX 40, a success (and no experience)
    session.run({"kind": "roll_test", "text": TLD_EFFECT})
    events = session.run({"kind": "accept_test"})
    assert door(session, "7,9", "E").is_open
    assert "map_changed" in [e["kind"] for e in events]  # the map redraws the door open
    session.script_dice([0, 3])  # Table M for the area beyond
    session.run({"kind": "move_hero", "side": "E"})
    assert session.campaign.dungeons.current_dungeon.hero == (8, 9)


def test_a_failed_door_test_leaves_the_door_closed():
    session = at_a_trap_locked_door()
    session.script_dice([9, 5])
    session.run({"kind": "roll_test", "text": TLD_EFFECT})
    session.run({"kind": "accept_test"})
    assert not door(session, "7,9", "E").is_open


def test_a_door_test_can_name_its_door():
    session = at_a_trap_locked_door()
    session.script_dice([2, 0])
    session.run({"kind": "roll_test", "text": TLD_EFFECT, "door": {"pos": "7,9", "side": "E"}})
    session.run({"kind": "accept_test"})
    assert door(session, "7,9", "E").is_open
    with pytest.raises(CommandRefused, match="no door"):
        session.run({"kind": "roll_test", "text": TLD_EFFECT, "door": {"pos": "7,9", "side": "W"}})


def test_a_test_away_from_any_door_opens_nothing():
    session = hero_session()
    session.script_dice([2, 0])
    session.run({"kind": "roll_test", "text": TLD_EFFECT})
    events = session.run({"kind": "accept_test"})
    assert "map_changed" not in [e["kind"] for e in events]
    assert "open" in [e["kind"] for e in events]  # still said for the player to do at the table


# --------------------------------------------------------------------------- issue 10 #5


def around_a_trapped_doorway() -> Session:
    """(8,9) has a N door TD (39); the hero then maps (7,8) and (8,8), whose S door faces it."""
    session = hero_session()
    session.run({"kind": "new_dungeon"})
    # entrance tile 3; N: tile 12 (E door 05 OPEN); E: tile 6 turned 90 (E 32 TLD, N 39 TD, S 01 OPEN)
    session.script_dice([0, 3, 1, 2, 0, 5, 0, 6, 3, 2, 3, 9, 0, 1])
    session.run({"kind": "enter_dungeon"})
    session.run({"kind": "move_hero", "side": "N"})
    session.run({"kind": "move_hero", "side": "E"})
    assert door(session, "8,9", "N").label == "TD (39)"
    session.run({"kind": "move_hero", "side": "W"})
    session.script_dice([0, 5])  # N of (7,9): tile 5 (ahead and right open)
    session.run({"kind": "move_hero", "side": "N"})
    session.script_dice([1, 2, 0, 3])  # E: tile 12 turned 90, its right-hand door on the S side faces TD (39)
    session.run({"kind": "move_hero", "side": "E"})
    assert session.campaign.dungeons.current_dungeon.hero == (8, 8)
    return session


def test_a_doorway_labelled_on_one_side_is_not_rolled_again_from_the_other():
    session = around_a_trapped_doorway()
    assert session.scripted_left == 2  # Table M was rolled, Table D was not
    dungeon = session.campaign.dungeons.current_dungeon
    labels = [ex.door.label for ex in (dungeon.areas["8,8"].exits["S"], dungeon.areas["8,9"].exits["N"]) if ex.door]
    assert labels == ["TD (39)"]  # one label on the doorway
    with pytest.raises(CommandRefused, match=r"TD \(39\) is closed"):
        session.run({"kind": "move_hero", "side": "S"})


def test_a_doorway_opened_from_either_side_is_open_from_both():
    session = around_a_trapped_doorway()
    session.run({"kind": "open_door", "pos": "8,8", "side": "S"})
    assert door(session, "8,9", "N").is_open
    session.run({"kind": "move_hero", "side": "S"})
    assert session.campaign.dungeons.current_dungeon.hero == (8, 9)
    session.run({"kind": "move_hero", "side": "N"})
    assert session.campaign.dungeons.current_dungeon.hero == (8, 8)


def test_a_lever_door_forced_open_through_its_jammed_door_test_opens():
    """LEVER (LVD): the levers roll fails, the player chooses to force it (a called JAMMED DOOR test): that opens it."""
    session = at_a_trap_locked_door()
    session.run({"kind": "set_door", "pos": "7,9", "side": "E", "door_type": "LVD", "roll": 36, "is_open": False})
    dungeon = session.campaign.dungeons.current_dungeon
    effect = bundled_game_data().library.get("d100.D").find(36).fields["effect"]  # what the map offers
    assert dungeon.areas["7,9"].exits["E"].door.label == "LVD (36)"
    session.script_dice([5])  # d10 5 against 0 levers: failure
    session.run({"kind": "roll_test", "text": effect})
    session.run({"kind": "accept_test"})
    [choice] = [d for d in session.pending if d.decision == "outcome_choice"]
    session.run({"kind": "choose_outcome", "decision": choice.id, "option": 1})  # force it: the JAMMED DOOR test
    [called] = [d for d in session.pending if d.decision == "called_test"]
    session.script_dice([2, 0])  # 20 against STR 50: forced open
    session.run({"kind": "roll_test", "called": called.id})
    session.run({"kind": "accept_test"})
    assert door(session, "7,9", "E").is_open
