"""A demo campaign, played through the real commands with seeded dice.

``d100gui --demo`` opens it so a new player (and a screenshot) sees a filled sheet and a
mapped dungeon. Table rolls use the "re-roll among known rows" policy, because the bundled
tables are excerpts; the demo says so in its name and dungeon title.
"""

from __future__ import annotations

from collections.abc import Mapping

from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import AddNote, EnterDungeon, MarkArea, MoveHero, NewDungeon, OpenDoor, SecretPassage
from d100gui.engine.dungeon.tiles import TileSet
from d100gui.engine.game import Campaign, Game
from d100gui.engine.hero import creation as cr
from d100gui.engine.hero.character import ArmourClash, ExperienceChoice, PendingTest, RowNeeded, pending_of
from d100gui.engine.hero.skill_test import AcceptTest, AssignExperience, RollTest
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.rules.model import Rules
from d100gui.storage.resources import bundled_rules, standard_tilesets

DEMO_SEED = 20261129
DEMO_AREAS = 18
SIDES: tuple[dg.Direction, ...] = ("N", "E", "W", "S")


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


def _test(game: Game, text: str) -> None:
    game.execute(RollTest(text=text))
    for pending in pending_of(game.campaign, PendingTest):
        game.execute(AcceptTest(decision=pending.id))
    for choice in pending_of(game.campaign, ExperienceChoice):
        game.execute(AssignExperience(decision=choice.id, choice="characteristic"))


def _passable(dungeon: dg.Dungeon, pos: dg.Pos, side: dg.Direction) -> bool:
    area = dungeon.area_at(pos)
    exit_ = area.exits.get(side) if area else None
    return exit_ is not None and exit_.kind != "dead_end"


def _route_to_frontier(dungeon: dg.Dungeon) -> list[dg.Direction]:
    """Sides to walk from the hero to the nearest exit that leads into unmapped rock."""
    start = dungeon.hero
    if start is None:
        return []
    seen = {start}
    queue: list[tuple[dg.Pos, list[dg.Direction]]] = [(start, [])]
    while queue:
        pos, path = queue.pop(0)
        for side in SIDES:
            if not _passable(dungeon, pos, side):
                continue
            nxt = dg.neighbour(pos, side)
            if dungeon.area_at(nxt) is None:
                if dungeon.placeable(nxt):
                    return [*path, side]
                continue
            if nxt not in seen and _passable(dungeon, nxt, dg.opposite(side)):
                seen.add(nxt)
                queue.append((nxt, [*path, side]))
    return []


def _current(game: Game) -> dg.Dungeon:
    dungeon = game.campaign.dungeons.current_dungeon
    assert dungeon is not None
    return dungeon


def _break_through(game: Game, dungeon: dg.Dungeon) -> None:
    """Nowhere left to go: add a secret passage on the first side that allows one."""
    here = dungeon.hero_area()
    assert here is not None
    for side in SIDES:
        try:
            game.execute(SecretPassage(pos=here.key, side=side))
            return
        except CommandRefused:
            continue


def _walk(game: Game, route: list[dg.Direction]) -> None:
    """Walk ``route``, opening each closed door on the way."""
    for side in route:
        here = _current(game).hero_area()
        exit_ = here.exits.get(side) if here else None
        if here is not None and exit_ is not None and exit_.door is not None and not exit_.door.is_open:
            game.execute(OpenDoor(pos=here.key, side=side))
        game.execute(MoveHero(side=side))


def _explore(game: Game, areas: int) -> None:
    game.execute(NewDungeon(name="Demo dungeon (sample play)", quest="Dungeon Training 1"))
    game.execute(EnterDungeon())
    for _ in range(areas * 4):
        dungeon = _current(game)
        if len(dungeon.areas) >= areas:
            return
        route = _route_to_frontier(dungeon)
        if route:
            _walk(game, route)
        else:
            _break_through(game, dungeon)


def build_demo_campaign(
    library: TableLibrary, tilesets: Mapping[str, TileSet] | None = None, rules: Rules | None = None
) -> Campaign:
    """A hero made by the rules, a few tests, and a dungeon of at least 18 mapped areas.

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
    _test(game, "PENDULUM TRAP – Test: Dex -10 [S: Avoid Trap] [F:-4 hp] (Traps,Aware,Lucky)")
    _test(game, "JAMMED DOOR – Test: Str [S: Open] [F:-1HP,+1] (Strong)")
    _explore(game, DEMO_AREAS)
    dungeon = game.campaign.dungeons.current_dungeon
    assert dungeon is not None
    first = next(iter(dungeon.areas))
    game.execute(MarkArea(pos=first, mark="searched"))
    game.execute(AddNote(pos=first, text="Scratched arrow pointing north"))
    return game.campaign
