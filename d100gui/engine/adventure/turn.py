"""The turn, guided: the rulebook's five steps as a state kept in ``Campaign.adventure.turn``.

1. adjust equipment (free, outside a fight); 2. time track +1; 3. choose an exit; 4. the area
(mapped, then by colour, see :mod:`.areas`); 5. search once per area per quest, or skip.

``turn_move`` plays steps 2-4 in one command, so a routine turn is one click on an exit (and
at most one more, "end turn"). A step that waits on something (a wandering monster, a fight,
a test to roll) stays the turn's step until it is over; :func:`current_step` reads past it
then, so no command has to hear that a fight ended. Every refusal names the turn and the
step the player is on. :func:`command_for_move` is the one place that decides what a click
on an exit sends: the turn's command while a quest is under way, the bare map move otherwise
(the entrance's is :func:`d100gui.engine.dungeon_entry.command_for_enter`, a floor up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal, NoReturn

from d100gui.engine.adventure.areas import resolve_area, search, search_bonus, start_fight
from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.dice import Dice, RandomSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import MoveHero, enter_here, tileset_for
from d100gui.engine.dungeon.events import EscapedMonsterHere
from d100gui.engine.dungeon.tiles import TileRoller
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.phases import FACE_OFFER, QUEST_ONLY, Phases
from d100gui.engine.protocol import CommandRefused, Event, told
from d100gui.engine.quest import events as ev
from d100gui.engine.quest.access import adventure_of, offer_waiting, pass_clocks
from d100gui.engine.quest.model import TURN_STEPS, AdventureState, TurnState, TurnStep, adventure_rules

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

Side = Literal["N", "E", "S", "W"]
STEP_NAMES: dict[TurnStep, str] = dict(TURN_STEPS)


def step_label(step: TurnStep) -> str:
    """``step 3 (Choose an exit)``: how a refusal names a step."""
    number = [s for s, _ in TURN_STEPS].index(step) + 1
    return f"step {number} ({STEP_NAMES[step]})"


def turn_of(campaign: Campaign) -> TurnState | None:
    """The turn under way: there is one while a quest is."""
    state = getattr(campaign, "adventure", None)
    if not isinstance(state, AdventureState) or state.quest is None:
        return None
    return state.turn


def waiting_on(campaign: Campaign) -> str:
    """What the turn waits on before it can go on ("" when nothing): a fight, a monster, clocks owed, a decision."""
    if campaign.combat is not None:
        return f"the fight with {campaign.combat.monster.name} is under way"
    offer = offer_waiting(campaign)
    if offer is not None:
        if offer.table_roll.row is None:
            return f"a {offer.source} waits ({offer.table_roll.describe()}): type its Table E row, then fight it"
        return f"a {offer.source} waits ({offer.table_roll.describe()}): fight it first"
    state = getattr(campaign, "adventure", None)
    if isinstance(state, AdventureState) and state.loot_waiting is not None:
        return f"your backpack is full: keep {state.loot_waiting.name} (drop an item) or leave it"
    if isinstance(state, AdventureState) and state.clocks_owed:
        return f"{state.clocks_owed} clock(s) still wait to be shaded: resume the time track"
    if campaign.pending:
        return f"a decision waits ({(campaign.pending[0].prompt or 'answer it').rstrip('.')})"
    return ""


def current_step(campaign: Campaign) -> TurnStep:
    """The step the player is on: the turn's step, or the next one once what it waited on is over."""
    turn = turn_of(campaign)
    if turn is None:
        return "equipment"
    if not waiting_on(campaign):
        if turn.step == "time":
            return "exit"
        if turn.step == "area":
            return "equipment" if turn.entrance else "search"
    elif campaign.combat is None and at_a_door(campaign):
        return "exit"  # a door's test or choice waits: doors are opened while choosing an exit (step 3)
    return turn.step


def at_a_door(campaign: Campaign) -> bool:
    """Whether a decision that waits is a door's (its Table D test, a choice or a test it called)."""
    return any(getattr(decision, "door", None) is not None for decision in campaign.pending)


def entrance_search_open(campaign: Campaign) -> bool:
    """Whether the entrance area may be searched now: the hero has just stepped in (the entry is the area's
    step 4, so step 5 follows) and has not moved on since; an area is searched once per quest, the entrance too."""
    turn = turn_of(campaign)
    dungeon = campaign.dungeons.current_dungeon
    if turn is None or dungeon is None or dungeon.hero is None or dungeon.hero != dungeon.entrance:
        return False
    area = dungeon.hero_area()
    if area is None or area.searched or turn.area != area.key:
        return False
    return current_step(campaign) == "equipment" and not waiting_on(campaign)


def refuse_at(campaign: Campaign, reason: str) -> NoReturn:
    """Refuse, naming the turn and the step the player is on."""
    turn = turn_of(campaign)
    head = f"Turn {turn.number}, {step_label(current_step(campaign))}" if turn is not None else "No turn is under way"
    refuse(f"{head}: {reason}")


def equipment_refusal(campaign: Campaign) -> str:
    """Why equipment cannot be adjusted now ("" when it can): step 1 is free, but never in a fight."""
    if campaign.combat is not None:
        return f"you cannot adjust equipment during a fight with {campaign.combat.monster.name}"
    return ""


def _turn(campaign: Campaign) -> TurnState:
    turn = turn_of(campaign)
    if turn is None:
        refuse("No quest is under way: begin a quest first (the hero then moves on turn by turn).")
    return turn


def _in_dungeon(campaign: Campaign) -> dg.Area:
    dungeon = campaign.dungeons.current_dungeon
    area = dungeon.hero_area() if dungeon is not None else None
    if area is None:
        refuse_at(campaign, "the hero is not in the dungeon: enter it first.")
    return area


def _check_exit(ctx: GameContext, side: Side) -> None:
    """Refuse an exit the hero cannot take (closed door, dead end) before any time is spent on it.

    The move is tried on scratch dice, so nothing of the campaign's dice or map is touched.
    """
    dungeon = ctx.campaign.dungeons.current_dungeon
    assert dungeon is not None
    scratch = Dice(RandomSource(0))
    try:
        dg.move(
            dungeon, side, TileRoller(tileset_for(ctx), scratch), TableRoller(ctx.tables.library, scratch, MissingRowPolicy.ASK)
        )
    except dg.DungeonError as exc:
        refuse_at(ctx.campaign, str(exc))


def _move(ctx: GameContext, turn: TurnState, side: Side) -> list[Event]:
    """Steps 3 and 4: through the exit (mapping the area if new), then the area by its colour."""
    campaign = ctx.campaign
    dungeon = campaign.dungeons.current_dungeon
    assert dungeon is not None and dungeon.hero is not None
    placed = dungeon.area_at(dg.neighbour(dungeon.hero, side)) is None
    try:
        moved = MoveHero(side=side).apply(ctx)
    except CommandRefused as exc:
        refuse_at(campaign, str(exc))
    area = _in_dungeon(campaign)
    turn.step, turn.area, turn.exit, turn.entrance = "area", area.key, None, False
    said = ev.TurnMoved(number=turn.number, side=side, pos=area.key, colour=area.colour, placed=placed, dungeon=dungeon.id)
    kept = [e for e in moved if e.kind != EscapedMonsterHere.event_kind]  # the turn meets it itself
    return [*kept, told(said), *resolve_area(ctx, area, placed)]


def _next_turn(turn: TurnState, searched: bool) -> Event:
    event = told(ev.TurnEnded(number=turn.number, searched=searched))
    turn.number += 1
    turn.step, turn.area, turn.exit, turn.searched = "equipment", "", None, False
    return event


@register_command
class MoveOn(Command):
    """Move on through the exit on ``side``: time track +1 (every trigger fired), then through the
    exit, the area mapped if new, and the area by its colour. One click for a routine turn.

    From step 5 it ends the turn first (skipping the search); after a wandering monster stopped
    the turn at step 2 it carries on from step 3 (any exit may be chosen again).
    """

    kind: Literal["turn_move"] = "turn_move"
    when: ClassVar[Phases] = QUEST_ONLY
    side: Side

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        living_character(campaign)
        turn = _turn(campaign)
        _in_dungeon(campaign)
        if campaign.combat is not None:
            refuse_at(campaign, f"you cannot move on during a fight with {campaign.combat.monster.name}: finish it first.")
        why = waiting_on(campaign)
        if why:
            refuse_at(campaign, f"you cannot move on yet: {why}.")
        _check_exit(ctx, self.side)
        events: list[Event] = []
        if current_step(campaign) in ("equipment", "search"):
            if current_step(campaign) == "search":
                events.append(_next_turn(turn, turn.searched))
            turn.step, turn.exit = "time", self.side
            events += pass_clocks(ctx, adventure_rules(ctx.rules).turn_clocks)
            offer = offer_waiting(campaign)
            if campaign.character is None:
                return events  # the hero died on the way
            if offer is not None:
                return events + (start_fight(ctx, offer) if offer.table_roll.row is not None else [])
        return events + _move(ctx, turn, self.side)


@register_command
class SearchArea(Command):
    """Turns step 5: search the hero's area on Table F with its colour's column bonus; once per area per quest."""

    kind: Literal["turn_search"] = "turn_search"
    when: ClassVar[Phases] = QUEST_ONLY

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        living_character(campaign)
        turn = _turn(campaign)
        if campaign.combat is not None:
            refuse_at(campaign, "you cannot search during a fight: finish it first.")
        why = waiting_on(campaign)
        if why:
            refuse_at(campaign, f"you cannot search yet: {why}.")
        area = _in_dungeon(campaign)
        if area.searched:
            refuse_at(campaign, f"area {area.key} is already searched (S): an area is searched once per quest.")
        if entrance_search_open(campaign):
            # the entrance's step 5: the turn stays before its step 1 (as after the entry), whatever the find brings
            turn.step, turn.entrance = "area", True
            return search(ctx, area)
        if current_step(campaign) != "search":
            refuse_at(campaign, "searching is step 5: move on into an area first, then search it.")
        turn.step, turn.searched = "search", True  # a test or fight the find brings waits at step 5, not step 4
        return search(ctx, area)


@register_command
class EndTurn(Command):
    """Turns step 5 skipped (or done): the turn ends and the next begins at step 1."""

    kind: Literal["turn_end"] = "turn_end"
    when: ClassVar[Phases] = QUEST_ONLY

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        turn = _turn(campaign)
        why = waiting_on(campaign)
        if why:
            refuse_at(campaign, f"the turn cannot end yet: {why}.")
        if current_step(campaign) != "search":
            refuse_at(campaign, "the turn ends after its area (step 4): move on through an exit first.")
        return [_next_turn(turn, turn.searched)]


@register_command
class FaceOfferedMonster(Command):
    """Fight the monster offered (a wandering monster, or a red area's once its Table E row was typed)."""

    kind: Literal["turn_fight"] = "turn_fight"
    when: ClassVar[Phases] = FACE_OFFER

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        living_character(campaign)
        offer = adventure_of(campaign).fight_offered
        if offer is None:
            refuse("No monster is waiting to be fought.")
        if offer.table_roll.row is None:
            table = ctx.tables.library.get(offer.table_roll.table_id)
            row = table.find(offer.table_roll.value)  # typed since, in the missing-row dialog
            if row is None:
                lo, hi = offer.table_roll.missing or (offer.table_roll.value, offer.table_roll.value)
                refuse(f"Table E rows {lo}-{hi} are not in your tables: type the row first.")
            offer.table_roll = offer.table_roll.model_copy(update={"row": row, "missing": None})
        return start_fight(ctx, offer)


@register_command
class EnterOnTurn(Command):
    """Step in at the entrance during a quest: the entrance area is mapped (the first time) and resolved
    by its colour like any other area (Turns step 4), so a red entrance is a fight, a green one Table G."""

    kind: Literal["turn_enter"] = "turn_enter"
    when: ClassVar[Phases] = QUEST_ONLY

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        living_character(campaign)
        turn = _turn(campaign)
        if campaign.combat is not None:
            refuse_at(campaign, f"you cannot enter during a fight with {campaign.combat.monster.name}: finish it first.")
        dungeon = campaign.dungeons.current_dungeon
        if dungeon is None:
            refuse_at(campaign, "there is no mapping sheet: begin the quest first.")
        placed = dungeon.area_at(dungeon.entrance) is None
        try:
            events = enter_here(ctx)
        except CommandRefused as exc:
            refuse_at(campaign, str(exc))
        area = _in_dungeon(campaign)
        turn.step, turn.area, turn.exit, turn.entrance = "area", area.key, None, True
        events += resolve_area(ctx, area, placed)
        if not waiting_on(campaign):
            turn.step, turn.entrance = "equipment", False  # nothing to settle: turn 1 begins at the entrance
        return events


def command_for_move(campaign: Campaign, side: Side) -> Command:
    """What a click on an exit of the hero's area sends: the turn's move while a quest is under way, else the bare move."""
    return MoveOn(side=side) if turn_of(campaign) is not None else MoveHero(side=side)


TURN_COMMANDS: tuple[type[Command], ...] = (MoveOn, SearchArea, EndTurn, FaceOfferedMonster, EnterOnTurn)

__all__ = [
    "STEP_NAMES",
    "TURN_COMMANDS",
    "EndTurn",
    "EnterOnTurn",
    "FaceOfferedMonster",
    "MoveOn",
    "SearchArea",
    "command_for_move",
    "current_step",
    "entrance_search_open",
    "equipment_refusal",
    "refuse_at",
    "search_bonus",
    "step_label",
    "turn_of",
    "waiting_on",
]
