"""A demo campaign, played through the real commands with seeded dice.

``d100gui --demo`` opens it so a new player (and a screenshot) sees every panel alive: a hero
made by the rules, part-way through Dungeon Training 1 - the quest begun, turns played
through ``turn_move`` (the time track shaded with its triggers, doors opened by Table D's
procedures), an area searched, a fight won - and the map, the turn strip and the adventure
log all filled. Table rolls use the "re-roll among known rows" policy, because the bundled
tables are excerpts; the demo says so in its dungeon's title.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from d100gui.engine.adventure.doors import TryDoor, methods_now, tried
from d100gui.engine.adventure.turn import current_step
from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import AddNote
from d100gui.engine.dungeon.tiles import TileSet
from d100gui.engine.dungeon_entry import EnterDungeon, SecretPassage
from d100gui.engine.game import Game
from d100gui.engine.hero import creation as cr
from d100gui.engine.hero.decisions import ArmourClash, RowNeeded, pending_of
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.rules.model import Rules
from d100gui.storage.resources import bundled_rules, standard_tilesets

DEMO_SEED = 20261129
#: the demo stops once this many areas are mapped, an area searched and a fight won (or the turns run out)
DEMO_AREAS = 6
DEMO_TURNS = 40
SIDES: tuple[dg.Direction, ...] = ("N", "E", "W", "S")
#: what the demo answers while a fight waits (``combat.waiting``): attack, accept every roll, take the first loot
FIGHT_ANSWERS: dict[str, dict[str, Any]] = {
    "action": {"kind": "combat_attack"},
    "roll": {"kind": "combat_continue"},
    "test": {"kind": "combat_continue"},
    "offset": {"kind": "combat_offset"},
    "loot": {"kind": "combat_choose_loot", "option": 0},
    "aim": {"kind": "combat_perfect_aim", "choice": "keep"},
    "aim_pick": {"kind": "combat_perfect_aim", "choice": "first"},
}


def _run(game: Game, command: dict[str, Any]) -> None:
    game.execute(game.parse_command(command))


def _settle_creation(game: Game) -> None:
    """Answer creation decisions the way a cautious player would: keep the new armour."""
    for clash in pending_of(game.campaign, ArmourClash):
        game.execute(cr.ResolveArmourClash(decision=clash.id, choice="keep_new"))
    if pending_of(game.campaign, RowNeeded):  # cannot happen with the re-roll policy
        raise RuntimeError("the demo needs every starting roll to land on a known row")


def _create_hero(game: Game) -> None:
    for command in cr.creation_commands("Aldric the Demo", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        game.execute(command)
        _settle_creation(game)


def _answer(decision: Any) -> dict[str, Any] | None:
    """How the demo's player answers a decision outside a fight (None: one it leaves waiting)."""
    kind = decision.decision
    if kind == "called_test":
        return {"kind": "roll_test", "called": decision.id, "auto_accept": True}
    if kind == "test_roll":
        return {"kind": "accept_test", "decision": decision.id}
    if kind == "experience":
        return {"kind": "assign_experience", "decision": decision.id, "choice": "characteristic"}
    if kind == "outcome_choice":
        return {"kind": "choose_outcome", "decision": decision.id, "option": 0}
    if kind == "target_choice":
        return {"kind": "choose_target", "decision": decision.id, "target": decision.choices[0]}
    return {"kind": "dismiss_decision", "decision": decision.id}


def _settle(game: Game) -> bool:
    """Answer what waits (a fight, an offered monster, decisions); True when a fight was won."""
    won = False
    for _ in range(200):
        campaign = game.campaign
        if campaign.character is None:
            return won
        if campaign.combat is not None:
            _run(game, FIGHT_ANSWERS[campaign.combat.waiting])
            won = won or (campaign.combat is None and _last_fight_won(game))
        elif campaign.adventure.fight_offered is not None:
            _run(game, {"kind": "turn_fight"})
        elif campaign.adventure.clocks_owed:
            _run(game, {"kind": "resume_time"})
        elif campaign.pending:
            answer = _answer(campaign.pending[0])
            if answer is None:
                return won
            _run(game, answer)
        else:
            return won
    return won


def _last_fight_won(game: Game) -> bool:
    events = game.campaign.log[-1].events if game.campaign.log else []
    return any(e.kind == "combat_over" and e.data.get("outcome") == "won" for e in events)


def _open_a_door(game: Game, here: dg.Area, dungeon: dg.Dungeon) -> bool:
    """Try the first way Table D gives on a closed door of the hero's area; True if one was tried."""
    ch = game.campaign.character
    assert ch is not None
    for where in dg.doorways_of(dungeon, here.pos):
        door = dg.door_at(dungeon, where)
        if door is None or door.is_open or door.pending:
            continue
        ways = methods_now(ch, game.rules, game.library, door.type, tried(game.campaign, where))
        if ways:
            game.execute(TryDoor(pos=where.pos, side=where.side, method=ways[0], auto_accept=True))
            return True
    return False


def _take_a_turn(game: Game) -> bool:
    """Move on through the first exit that leads somewhere new (or any open one); False when none can be taken."""
    dungeon = game.campaign.dungeons.current_dungeon
    assert dungeon is not None and dungeon.hero is not None
    here = dungeon.area_at(dungeon.hero)
    assert here is not None
    new = [s for s in SIDES if s in here.exits and dungeon.area_at(dg.neighbour(here.pos, s)) is None]
    for side in [*new, *[s for s in SIDES if s not in new]]:
        try:
            _run(game, {"kind": "turn_move", "side": side})
            return True
        except CommandRefused:
            continue
    return _open_a_door(game, here, dungeon) or _break_through(game, here)


def _break_through(game: Game, here: dg.Area) -> bool:
    """No way on can be opened: add a secret passage on the first side of solid rock that allows one."""
    for side in SIDES:
        try:
            game.execute(SecretPassage(pos=here.key, side=side))
            return True
        except CommandRefused:
            continue
    return False


def _play_turns(game: Game) -> None:
    """Turns of Dungeon Training 1 until enough is mapped, an area is searched and a fight is won."""
    searched = won = False
    for _ in range(DEMO_TURNS):
        campaign = game.campaign
        dungeon = campaign.dungeons.current_dungeon
        if campaign.character is None or dungeon is None:
            return
        if len(dungeon.areas) >= DEMO_AREAS and searched and won:
            return
        if not _take_a_turn(game):
            return
        won = _settle(game) or won
        now = game.campaign.dungeons.current_dungeon
        here = now.hero_area() if now is not None and game.campaign.character else None
        if not searched and here is not None and not here.searched and current_step(game.campaign) == "search":
            _run(game, {"kind": "turn_search"})
            searched = True
            won = _settle(game) or won


def build_demo_campaign(
    library: TableLibrary, tilesets: Mapping[str, TileSet] | None = None, rules: Rules | None = None
) -> Campaign:
    """A hero made by the rules, part-way through Dungeon Training 1 (see the module).

    Without ``rules`` or ``tilesets`` the bundled ones are used.
    """
    campaign = Campaign()
    campaign.meta.seed = DEMO_SEED
    game = Game(
        campaign,
        library,
        ALL_COMMANDS,
        policy=MissingRowPolicy.REROLL,
        rules=rules or bundled_rules(),
        tilesets=tilesets or standard_tilesets(),
    )
    _create_hero(game)
    _run(game, {"kind": "begin_quest"})
    game.execute(EnterDungeon())
    _settle(game)
    _play_turns(game)
    dungeon = game.campaign.dungeons.current_dungeon
    if dungeon is not None and game.campaign.character is not None:
        first = next(iter(dungeon.areas))
        game.execute(AddNote(pos=first, text="Scratched arrow pointing north"))
    return game.campaign
