"""Into the dungeon and through its rock: the map commands that ask the adventure, and ``MAP_COMMANDS``.

:class:`NewDungeon` takes a blank mapping sheet and may step in at once; :class:`EnterDungeon` steps in at
the entrance, and during a quest it is the turn's entry (the entrance area resolved by its colour,
``EnterOnTurn``); :class:`SecretPassage` cuts a passage through solid rock only when no way on opens with
what the hero holds (the adventure's doors say so). They follow the adventure, so they sit on a floor above
it (a quest's sheet is taken with :func:`~d100gui.engine.dungeon.commands.new_sheet`); every other map
command is the dungeon's own (:mod:`d100gui.engine.dungeon.commands`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from d100gui.engine.adventure.doors import openable
from d100gui.engine.adventure.turn import EnterOnTurn, turn_of
from d100gui.engine.command_registry import register_command
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import (
    AddNote,
    DeleteArea,
    DeleteNote,
    EditNote,
    LeaveDungeon,
    MarkArea,
    MoveHero,
    MoveHeroTo,
    MoveNote,
    OpenDoor,
    PlaceTile,
    ResolveDoorRow,
    SelectDungeon,
    SetDoor,
    SetTileSet,
    current_dungeon,
    enter_here,
    map_event,
    new_sheet,
    parse_pos,
    run_map,
    store_dungeon,
)
from d100gui.engine.dungeon.events import Side
from d100gui.engine.game import Command, GameContext
from d100gui.engine.phases import IN_DUNGEON, NEW_SHEET, SECRET, Phases
from d100gui.engine.protocol import Event

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


@register_command
class NewDungeon(Command):
    """Take a blank mapping sheet for a quest (entrance at the bottom middle)."""

    kind: Literal["new_dungeon"] = "new_dungeon"
    when: ClassVar[Phases] = NEW_SHEET
    name: str = ""
    quest: str = ""
    width: int = dg.DEFAULT_WIDTH
    height: int = dg.DEFAULT_HEIGHT
    unbounded: bool = False
    enter: bool = False  # step in at once (Map > New dungeon): one click, one command, one undo step

    def apply(self, ctx: GameContext) -> list[Event]:
        events = new_sheet(ctx, self.name, self.quest, self.width, self.height, self.unbounded)
        if self.enter:
            events += EnterDungeon().apply(ctx)  # during a quest, the turn's entry (the area resolved)
        return events


@register_command
class EnterDungeon(Command):
    """Step in from the entrance; maps the entrance area the first time. During a quest it is the turn's
    entry (``turn_enter``): the entrance area is resolved by its colour like any other area."""

    kind: Literal["enter_dungeon"] = "enter_dungeon"
    when: ClassVar[Phases] = IN_DUNGEON

    def apply(self, ctx: GameContext) -> list[Event]:
        if turn_of(ctx.campaign) is not None:  # during a quest the entrance is entered by the turn (its area resolved)
            return EnterOnTurn().apply(ctx)
        return enter_here(ctx)


def command_for_enter(campaign: Campaign) -> Command:
    """What a click on the entrance sends: the turn's entry (the area resolved by colour) during a quest, else the bare entry."""
    return EnterOnTurn() if turn_of(campaign) is not None else EnterDungeon()


@register_command
class SecretPassage(Command):
    """Add a secret passage through solid rock: allowed only when no way on can be opened with what the hero has
    (a jammed door can always be forced again; a magic seal opens with an Open Magic scroll or spell)."""

    kind: Literal["secret_passage"] = "secret_passage"
    when: ClassVar[Phases] = SECRET
    pos: str
    side: Side
    force: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        check = openable(ctx.campaign, ctx.rules, ctx.tables.library)  # the hero's means
        store_dungeon(ctx, run_map(dg.secret_passage, current_dungeon(ctx), parse_pos(self.pos), self.side, self.force, check))
        return [map_event(f"Secret passage on the {self.side} side of area {self.pos}.")]


MAP_COMMANDS: tuple[type[Command], ...] = (
    NewDungeon,
    SelectDungeon,
    SetTileSet,
    EnterDungeon,
    MoveHero,
    LeaveDungeon,
    SecretPassage,
    OpenDoor,
    SetDoor,
    ResolveDoorRow,
    PlaceTile,
    DeleteArea,
    MoveHeroTo,
    AddNote,
    MoveNote,
    EditNote,
    DeleteNote,
    MarkArea,
)
