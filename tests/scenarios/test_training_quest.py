"""A whole training quest, start to end, through the public engine API with scripted dice.

Dungeon Training 1 is played turn by turn: a corridor of one-door rooms (Table M 27 and 55)
whose Table D rolls give a door of each type the bundled Table D has (JD, LD, TLD, LVD, TD,
MS), each opened by its own procedure; the entrance resolved by its colour; a trapped chest whose
Table TA find goes in the backpack; a Table G trap; oil running out (darkness); a Life
spent outside a fight; a time-track refresh with a poison check; a blue area and the looted
parts meeting the objective; the quest completed. Dungeon Training 2 is then failed.
Replaying the log (and a JSON round trip) gives the same final state.
"""

from __future__ import annotations

from typing import Any

import pytest

from d100gui.engine import Session, creation_steps
from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dungeon import map as dg
from d100gui.engine.game import Game
from d100gui.engine.quest.model import AdventureState
from d100gui.storage.resources import bundled_game_data, bundled_rules, standard_tilesets

LAYOUT = bundled_rules().sheet.time_track
LEFT_DOOR_ROOM, RIGHT_DOOR_ROOM, BLUE_ROOM, GREEN_ROOM_ONE_EXIT = 27, 55, 99, 3
DOOR_ROLL = {"JD": 34, "LD": 30, "TLD": 32, "LVD": 36, "TD": 38, "MS": 40}
CHEST = "TRAPPED CHEST – Test: Dex -10 [S:+30 gp/ roll x1 Table TA] [F:-10 hp] (Locks, Traps)"


def d100(n: int) -> list[int]:
    return [0, 0] if n == 100 else [n // 10, n % 10]


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


def quiet(session: Session, clocks: int, poison_hit: bool = True) -> list[int]:
    """The faces the next ``clocks`` clocks roll: no wandering monster (9); a refresh's poison check hits (1)."""
    ch = session.character
    assert ch is not None
    faces: list[int] = []
    shaded = ch.time_track.shaded
    for n in range(clocks):
        clock = (shaded + n) % LAYOUT.clocks + 1
        faces += [9 for t in LAYOUT.triggers_at(clock) if t.kind == "wandering"]
        if clock == LAYOUT.clocks and ch.poison > 0:
            faces.append(1 if poison_hit else 9)
    return faces


def the_hero(session: Session) -> None:
    for step in creation_steps("Brana", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    assert session.character is not None and session.character.creation is None


def the_door(session: Session) -> dg.DoorAt:
    dungeon = session.campaign.dungeons.current_dungeon
    assert dungeon is not None and dungeon.hero is not None
    closed = [w for w in dg.doorways_of(dungeon, dungeon.hero) if not (dg.door_at(dungeon, w) or dg.Door()).is_open]
    assert len(closed) == 1, closed
    return closed[0]


def door_type(session: Session, where: dg.DoorAt) -> str:
    door = dg.door_at(session.campaign.dungeons.current_dungeon, where)
    assert door is not None
    return door.type


def is_open(session: Session, where: dg.DoorAt) -> bool:
    door = dg.door_at(session.campaign.dungeons.current_dungeon, where)
    return door is not None and door.is_open


def attempt(session: Session, where: dg.DoorAt, method: str, faces: list[int], **extra: Any) -> list[dict[str, Any]]:
    session.script_dice(faces)
    command = {"kind": "try_door", "pos": where.pos, "side": where.side, "method": method, "auto_accept": True, **extra}
    return session.run(command)


def side_of(session: Session, where: dg.DoorAt) -> str:
    """The side of the hero's area the door is on (a doorway is kept by one of its two areas)."""
    dungeon = session.campaign.dungeons.current_dungeon
    assert dungeon is not None and dungeon.hero is not None
    if where.where == dungeon.hero:
        return where.side
    return dg.opposite(where.side)


def way_on(session: Session) -> str:
    """The open exit of the hero's area that leads into unmapped rock."""
    dungeon = session.campaign.dungeons.current_dungeon
    assert dungeon is not None and dungeon.hero is not None
    here = dungeon.area_at(dungeon.hero)
    assert here is not None
    return next(s for s, ex in here.exits.items() if ex.kind == "open" and dungeon.area_at(dg.neighbour(dungeon.hero, s)) is None)


def move(session: Session, side: str, tile: int, door: str | None) -> list[dict[str, Any]]:
    """One turn's move: time +1 (quiet), the new room's Table M roll and its one door's Table D roll."""
    faces = quiet(session, 1) + d100(tile) + (d100(DOOR_ROLL[door]) if door else [])
    session.script_dice(faces)
    events = session.run({"kind": "turn_move", "side": side})
    assert session.scripted_left == 0, events
    return events


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_whole_training_quest_and_its_replay():
    data = bundled_game_data()
    session = Session.new(data, seed=1101, policy="reroll")
    the_hero(session)
    ch = session.character
    assert ch is not None
    lives = ch.lives

    # --- the quest begins: Dungeon Training 1 (loot 3 Parts), a fresh map sheet
    events = session.run({"kind": "begin_quest"})
    assert "quest_begun" in kinds(events) and ch.quest_log.current == "Dungeon Training 1"
    session.run({"kind": "set_sheet_field", "field": "oil", "value": 1})  # one flask left in the lantern
    session.run({"kind": "set_sheet_field", "field": "picks", "value": 2})
    session.run({"kind": "set_track_pips", "track": "keys", "value": 2})
    session.run({"kind": "set_track_pips", "track": "levers", "value": 1})
    slot = ch.belt.index(None) + 1
    session.run({"kind": "add_item", "item": {"name": "Scroll of Open Magic", "kind": "scroll"}, "to": "belt", "belt_slot": slot})
    session.script_dice(d100(LEFT_DOOR_ROOM) + d100(DOOR_ROLL["JD"]))
    events = session.run({"kind": "turn_enter"})  # the entrance area is resolved by its colour: yellow, proceed
    assert "area_resolved" in kinds(events) and session.campaign.adventure.turn.step == "equipment"

    # --- JAMMED DOOR: forced, fails (-1 HP, +1), no secret passage while it can be forced again; forced open
    door = the_door(session)
    assert door_type(session, door) == "JD"
    hp = ch.hp
    attempt(session, door, "force", [9, 9, *quiet(session, 1)])
    assert ch.hp == hp - 1 and not is_open(session, door)
    here = session.campaign.dungeons.current_dungeon.hero_area()
    rock = next(s for s in "NE" if s not in here.exits)
    refused = None
    try:
        session.run({"kind": "secret_passage", "pos": here.key, "side": rock})
    except Exception as exc:  # CommandRefused
        refused = str(exc)
    assert refused is not None and "can still be opened" in refused
    attempt(session, door, "force", [2, 0])
    assert is_open(session, door)

    # --- LOCKED DOOR: a key roll fails (once only), the lock is picked: a failure costs a pick and +1, then it opens
    move(session, side_of(session, door), RIGHT_DOOR_ROOM, "LD")
    door = the_door(session)
    assert door_type(session, door) == "LD"
    attempt(session, door, "key", [9])
    assert not is_open(session, door) and ch.keys == 2
    attempt(session, door, "pick", [9, 9, *quiet(session, 1)])
    assert ch.supplies.picks == 1
    attempt(session, door, "pick", [2, 0])
    assert is_open(session, door)

    # --- TRAP LOCKED DOOR with 1 HP: a failure costs a pick, 1 HP (a Life is spent: HP 0 outside a fight) and +1
    move(session, side_of(session, door), LEFT_DOOR_ROOM, "TLD")
    door = the_door(session)
    assert door_type(session, door) == "TLD"
    session.run({"kind": "set_sheet_field", "field": "hp", "value": 1})
    events = attempt(session, door, "pick", [9, 9, *quiet(session, 1)])
    assert "death_cheated" in kinds(events) and ch.lives == lives - 1 and ch.hp > 1 and ch.supplies.picks == 0
    # no pick left: the trap-locked door cannot be opened with what Brana has, so a secret passage may be added
    here = session.campaign.dungeons.current_dungeon.hero_area()
    rock = next(s for s in "NE" if s not in here.exits)
    session.run({"kind": "secret_passage", "pos": here.key, "side": rock})

    # --- through it: clock 6 has oil and none is left - darkness; the LEVER DOOR stays closed and is forced
    events = move(session, rock, LEFT_DOOR_ROOM, "LVD")
    assert ch.in_darkness and "oil_burned" in kinds(events)
    door = the_door(session)
    assert door_type(session, door) == "LVD"
    attempt(session, door, "lever", [7])
    assert not is_open(session, door) and ch.levers == 1
    attempt(session, door, "force", [2, 0])
    assert is_open(session, door)

    # --- TRAPPED DOOR: a failure costs 1 HP; the test again opens it
    move(session, side_of(session, door), LEFT_DOOR_ROOM, "TD")
    door = the_door(session)
    assert door_type(session, door) == "TD"
    hp = ch.hp
    attempt(session, door, "test", [9, 9])
    assert ch.hp == hp - 1 and not is_open(session, door)
    attempt(session, door, "test", [1, 5])
    assert is_open(session, door)

    # --- MAGIC SEAL: the Open Magic scroll (CAST SPELL in darkness: INT 30 - 20)
    move(session, side_of(session, door), RIGHT_DOOR_ROOM, "MS")
    door = the_door(session)
    assert door_type(session, door) == "MS"
    events = attempt(session, door, "scroll", [0, 5], belt_slot=slot)
    assert is_open(session, door) and ch.belt[slot - 1] is None
    for decision in [d for d in session.pending if d.decision == "experience"]:
        session.run({"kind": "assign_experience", "decision": decision.id, "choice": "characteristic"})

    # --- a trapped chest (the rulebook's example): opened, Table TA chosen: the brew it finds goes in the backpack
    session.script_dice([1, 5])  # 15 against DEX 40 -10 -20 (darkness) +5 Locks +5 Traps = 20: a success
    session.run({"kind": "roll_test", "text": CHEST, "auto_accept": True})
    [choice] = [d for d in session.pending if d.decision == "outcome_choice"]
    session.script_dice(d100(5))  # Table TA 4-6: BREW OF FINER POWER
    events = session.run({"kind": "choose_outcome", "decision": choice.id, "option": 1})
    assert "loot_stowed" in kinds(events) and ch.backpack[-1].name == "BREW OF FINER POWER"

    # --- a green room: Table G 3, the PENDULUM TRAP (-4 HP on a failure); then search it: Table F 10 + 5, poison
    session.script_dice(quiet(session, 1) + d100(GREEN_ROOM_ONE_EXIT) + d100(3))
    session.run({"kind": "turn_move", "side": side_of(session, door)})
    [trap] = [d for d in session.pending if d.decision == "called_test"]
    hp = ch.hp
    session.script_dice([9, 9])
    session.run({"kind": "roll_test", "called": trap.id, "auto_accept": True})
    assert ch.hp == hp - 4
    session.script_dice(d100(10) + quiet(session, 2))
    session.run({"kind": "turn_search"})
    assert ch.poison == 2

    # --- the last clock: the track refreshes, then the poison check hits (-1 HP, a pip lost); a blue room
    hp = ch.hp
    events = move(session, way_on(session), BLUE_ROOM, None)
    assert "time_track_refreshed" in kinds(events) and "affliction_checked" in kinds(events)
    assert ch.poison == 1 and ch.hp == hp - 1 and ch.objectives == 1

    # --- the objective: 3 parts; the blue room counts for one, two parts looted are written in the backpack
    refused = None
    try:
        session.run({"kind": "complete_quest"})
    except Exception as exc:
        refused = str(exc)
    assert refused is not None and "2 more parts" in refused
    for part in ("TAIL", "EAR"):
        item = {"name": f"Giant Rat {part}", "kind": "item", "source": "d100.P 1-10"}
        session.run({"kind": "add_item", "item": item})
    gp = ch.gp
    events = session.run({"kind": "complete_quest"})
    assert "quest_completed" in kinds(events) and ch.gp == gp + 50
    assert ch.quest_log.completed == 1 and session.campaign.dungeons.current_dungeon.closed

    # --- "Before Your Next Quest" (the between-quests phase, opened and finished), then
    # --- Dungeon Training 2, failed at once: half the gold, rounded up
    session.run({"kind": "begin_town"})
    session.run({"kind": "finish_town"})
    session.run({"kind": "begin_quest"})
    gp = ch.gp
    events = session.run({"kind": "fail_quest"})
    assert "quest_failed" in kinds(events) and ch.gp == gp - (gp + 1) // 2
    assert (ch.quest_log.attempted, ch.quest_log.completed, ch.quest_log.failed) == (2, 1, 1)
    assert isinstance(session.campaign.adventure, AdventureState) and session.campaign.adventure.quest is None

    # --- replaying the log reproduces the same final state, and so does the saved JSON
    campaign = session.campaign
    final = replay_with_its_dice(campaign)
    assert final.model_dump(exclude={"log", "meta"}) == campaign.model_dump(exclude={"log", "meta"})
    again = Session.from_json(bundled_game_data(), session.to_json())
    assert again.campaign.model_dump(exclude={"meta"}) == campaign.model_dump(exclude={"meta"})
    assert replay_with_its_dice(again.campaign).model_dump(exclude={"log", "meta"}) == final.model_dump(exclude={"log", "meta"})


def replay_with_its_dice(campaign: Campaign) -> Campaign:
    """Re-run the log from a blank campaign, each command on the faces its entry recorded.

    :func:`~d100gui.engine.game.replay` re-rolls from the generator every roll that was not
    made with physical dice; a scripted scenario's faces are in the log, so they are fed back
    here, entry by entry (the hero's creation, on the seeded dice, replays from the generator).
    """
    start = Campaign(meta=campaign.meta, start_rng_state=campaign.start_rng_state)
    start.rng_state = list(campaign.start_rng_state or start.rng_state)
    game = Game(start, bundled_game_data().library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    scripted = False  # the hero was made on the seeded dice; from the quest on, the dice were scripted
    for entry in campaign.log:
        scripted = scripted or entry.command["kind"] == "begin_quest"
        faces = [d.face for roll in entry.rolls for d in roll.dice]
        game.override = ScriptedSource(faces) if scripted else None
        game.policy = entry.policy
        game.execute(game.parse_command(entry.command))
        assert not isinstance(game.override, ScriptedSource) or game.override.remaining == 0, entry.command
    return game.campaign
