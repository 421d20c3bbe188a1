"""Commands of the classic dungeon-stocking and wilderness tools: each a few lines over :mod:`.classic`.

They run through the game like the other toolbox commands (every roll in the command log,
undo restores the generator). The wilderness trip (days travelled, days since a rest) and
the latest sword generated live in ``ctx.campaign.toolbox``, so the day count and the ego
contest resume after a save.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from d100gui.engine.command_registry import register_command
from d100gui.engine.game import Command, GameContext
from d100gui.engine.phases import TOOLBOX, Phases
from d100gui.engine.protocol import CommandRefused, Event
from d100gui.engine.toolbox.classic import calendar as ccal
from d100gui.engine.toolbox.classic import castles as cc
from d100gui.engine.toolbox.classic import evasion as cev
from d100gui.engine.toolbox.classic import healing as ch
from d100gui.engine.toolbox.classic import stocking as cs
from d100gui.engine.toolbox.classic import swimming as cswim
from d100gui.engine.toolbox.classic import swords as csw
from d100gui.engine.toolbox.classic import underworld as cu
from d100gui.engine.toolbox.classic import wilderness as cw
from d100gui.engine.toolbox.classic.rules_data import a_die, percent_die
from d100gui.engine.toolbox.context import keep_state as _keep
from d100gui.engine.toolbox.context import missing_rows as _missing
from d100gui.engine.toolbox.context import sampled as _sampled
from d100gui.engine.toolbox.context import table_of as _table
from d100gui.engine.toolbox.events import (
    ClassicCastleMet,
    ClassicEgoContested,
    ClassicEvaded,
    ClassicHealed,
    ClassicRoomsStocked,
    ClassicSwam,
    ClassicSwordMade,
    ClassicTimePassed,
    ClassicUnderworldPursued,
    ClassicWildernessDay,
)
from d100gui.engine.toolbox.runs import resumable

__all__ = ["CLASSIC_COMMANDS"]


def _bands(ctx: GameContext) -> tuple[tuple[int, int], ...]:
    """The influence-of-egoism bands as the player's tables print them (the text's when they lack the table)."""
    library = ctx.tables.library
    return csw.influence_bands(library.get(csw.INFLUENCE_TABLE) if csw.INFLUENCE_TABLE in library else None)


def _pursuit_numbers(ctx: GameContext) -> cev.PursuitNumbers:
    """Evasion's and pursuit's numbers as the player's tables print them (the text's when they lack the table)."""
    library = ctx.tables.library
    n = cev.pursuit_numbers(library.get(cev.PURSUIT_TABLE) if cev.PURSUIT_TABLE in library else None)
    return n.model_copy(update={"die": a_die(library), "percent": percent_die(library)})


@register_command
@resumable
class ClassicStockRooms(Command):
    """Stock ``rooms`` rooms of dungeon ``level``: a monster on 1-2, then treasure (1-3 with a monster, 1 without)."""

    kind: Literal["toolbox_classic_stock_rooms"] = "toolbox_classic_stock_rooms"
    when: ClassVar[Phases] = TOOLBOX
    level: int
    rooms: int = 6

    def apply(self, ctx: GameContext) -> list[Event]:
        cs.stock_inputs(self.level, self.rooms)
        stocking = cs.stock_rooms(ctx.tables, self.level, self.rooms)
        return [
            Event.of(ClassicRoomsStocked(stocking=stocking), stocking.describe() + _sampled(stocking)),
            *_missing(ctx, stocking),
        ]


@register_command
@resumable
class ClassicWildernessDayCommand(Command):
    """One day of wilderness travel (or rest) on ``terrain`` by ``means``; the trip's day count is kept."""

    kind: Literal["toolbox_classic_wilderness_day"] = "toolbox_classic_wilderness_day"
    when: ClassVar[Phases] = TOOLBOX
    terrain: str
    means: str = "Man on foot"
    party_size: int = 4
    resting: bool = False
    exploring: bool = False
    track: bool = False
    river_crossing: bool = False
    at_sea: bool = False
    new_trip: bool = False  # start counting days afresh

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, cw.MOVEMENT_TABLE)
        trip = cw.WildernessTrip() if self.new_trip else ctx.campaign.toolbox.wilderness
        day = cw.wilderness_day(
            ctx.tables, trip, self.terrain, self.means, self.party_size, self.resting,
            self.exploring, self.track, self.river_crossing, self.at_sea,
        )  # fmt: skip
        _keep(ctx, wilderness=day.trip)
        return [Event.of(ClassicWildernessDay(day=day), day.describe() + _sampled(day)), *_missing(ctx, day)]


@register_command
@resumable
class ClassicCastle(Command):
    """Pass a castle ``hexes`` away (0 to 2): do its occupants come out, and who are they?"""

    kind: Literal["toolbox_classic_castle"] = "toolbox_classic_castle"
    when: ClassVar[Phases] = TOOLBOX
    hexes: int = 0
    hailed: bool = False
    moving_on: bool = False  # the party goes its way: do the occupants pursue?

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, cc.OCCUPANT_TABLE)
        castle = cc.castle_encounter(ctx.tables, self.hexes, self.hailed, self.moving_on)
        return [Event.of(ClassicCastleMet(castle=castle), castle.describe() + _sampled(castle)), *_missing(ctx, castle)]


@register_command
class ClassicEvade(Command):
    """Try to evade monsters in the wilderness, with the modifiers; a failure runs the pursuit (``chase``)."""

    kind: Literal["toolbox_classic_evade"] = "toolbox_classic_evade"
    when: ClassVar[Phases] = TOOLBOX
    party_size: int
    monsters: int
    possible: int
    surprise: cev.Surprise = "none"
    woods: bool = False
    swamp: bool = False
    magic: bool = False
    speed: cev.Speed = "even"  # without the two speeds: which side is twice as fast
    chase: bool = True
    party_speed: int = 0  # the SPEEDs (inches per move); both given, they decide the shift and the catch
    monster_speed: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        table = _table(ctx, cev.EVASION_TABLE)
        evasion = cev.evade(
            ctx.dice, table, self.party_size, self.monsters, self.possible, self.surprise,
            self.woods, self.magic, self.speed, self.chase, self.swamp, self.party_speed, self.monster_speed,
            _pursuit_numbers(ctx),
        )  # fmt: skip
        return [Event.of(ClassicEvaded(evasion=evasion), evasion.describe())]


@register_command
class ClassicUnderworldPursuit(Command):
    """A party flees underground: does the monster follow round a corner, through a door, after food?"""

    kind: Literal["toolbox_classic_underworld_pursuit"] = "toolbox_classic_underworld_pursuit"
    when: ClassVar[Phases] = TOOLBOX
    distance: int
    escape: cev.Escape = "straight"
    food: cev.Wits | Literal["none"] = "none"
    surprised: bool = False
    cornered: bool = False
    treasure: cev.Wits | Literal["none"] = "none"  # treasure dropped for a monster of those wits
    oil: bool = False
    party_speed: int = 0  # inches; both speeds given, a turn of flight opens or closes the gap
    monster_speed: int = 0
    free_segment: bool = False  # the party surprised the monster: a free move segment to flee

    def apply(self, ctx: GameContext) -> list[Event]:
        food = None if self.food == "none" else self.food
        treasure = None if self.treasure == "none" else self.treasure
        library = ctx.tables.library  # the underworld time table's (the text's 4 and 10 without its rows)
        moves, feet = cu.time_number(library, "Moves per turn in flight or pursuit"), cu.time_number(library, "Feet per inch")
        pursuit = cev.underworld_pursuit(
            ctx.dice, self.distance, self.escape, food, self.surprised, self.cornered, treasure, self.oil,
            self.party_speed, self.monster_speed, self.free_segment, moves, feet, _pursuit_numbers(ctx),
        )  # fmt: skip
        return [Event.of(ClassicUnderworldPursued(pursuit=pursuit), pursuit.describe())]


@register_command
class ClassicHealing(Command):
    """How many hit points ``days`` of complete rest give back."""

    kind: Literal["toolbox_classic_healing"] = "toolbox_classic_healing"
    when: ClassVar[Phases] = TOOLBOX
    hp_missing: int
    days: int

    def apply(self, ctx: GameContext) -> list[Event]:
        healing = ch.heal_by_rest(self.hp_missing, self.days, ch.healing_numbers(ctx.tables.library))
        return [Event.of(ClassicHealed(healing=healing), healing.describe())]


@register_command
@resumable
class ClassicEgoTest(Command):
    """The ego contest on the latest sword generated (``new_sword``: generate one first), against its wielder."""

    kind: Literal["toolbox_classic_ego_test"] = "toolbox_classic_ego_test"
    when: ClassVar[Phases] = TOOLBOX
    intelligence: int = 10
    strength: int = 10
    condition: int = 0
    state: csw.WielderState = "as_given"
    new_sword: bool = False
    continuing: bool = False  # Egoism against the fighting-man's ``level`` instead
    level: int = 1

    def apply(self, ctx: GameContext) -> list[Event]:
        events: list[Event] = []
        sword = ctx.campaign.toolbox.sword
        if self.new_sword:
            _table(ctx, csw.SWORDS_TABLE)
            sword = csw.complete_sword(ctx.tables)
            _keep(ctx, sword=sword)
            events += [Event.of(ClassicSwordMade(sword=sword), sword.describe() + _sampled(sword)), *_missing(ctx, sword)]
        if sword is None:
            raise CommandRefused("No sword yet: generate one with the Magic sword tool, or tick 'New sword'.")
        if self.continuing:
            result = csw.continuing_ego(ctx.dice, sword, self.level, _bands(ctx), percent_die(ctx.tables.library))
        else:
            result = csw.ego_contest(
                ctx.dice, sword, self.intelligence, self.strength, self.condition, self.state, _bands(ctx),
                csw.state_dice(ctx.tables.library), percent_die(ctx.tables.library),
                csw.ego_per_ability(ctx.tables.library),
            )  # fmt: skip
        return [*events, Event.of(ClassicEgoContested(result=result), result.describe())]


@register_command
class ClassicSwim(Command):
    """A man in ``armor`` goes into the water (``overboard``: thrown in; ``storm``: a gale or storm this turn)."""

    kind: Literal["toolbox_classic_swim"] = "toolbox_classic_swim"
    when: ClassVar[Phases] = TOOLBOX
    armor: str
    overboard: bool = True
    storm: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        table = _table(ctx, cswim.SWIMMING_TABLE)
        library = ctx.tables.library
        rules = library.get(cswim.RULES_TABLE) if cswim.RULES_TABLE in library else None
        result = cswim.swim(ctx.dice, table, self.armor, self.overboard, self.storm, rules, percent_die(library))
        return [Event.of(ClassicSwam(swimming=result), result.describe())]


@register_command
class ClassicCampaignTime(Command):
    """Count ``count`` of an ``activity`` of the campaign time table on the campaign calendar."""

    kind: Literal["toolbox_classic_campaign_time"] = "toolbox_classic_campaign_time"
    when: ClassVar[Phases] = TOOLBOX
    activity: str
    count: int = 1

    def apply(self, ctx: GameContext) -> list[Event]:
        table = _table(ctx, ccal.CAMPAIGN_TIME_TABLE)
        step = ccal.pass_time(table, ctx.campaign.toolbox.calendar, self.activity, self.count)
        _keep(ctx, calendar=step.calendar)
        return [Event.of(ClassicTimePassed(step=step), step.describe())]


CLASSIC_COMMANDS: tuple[type[Command], ...] = (
    ClassicStockRooms,
    ClassicWildernessDayCommand,
    ClassicCastle,
    ClassicEvade,
    ClassicUnderworldPursuit,
    ClassicHealing,
    ClassicEgoTest,
    ClassicSwim,
    ClassicCampaignTime,
)
