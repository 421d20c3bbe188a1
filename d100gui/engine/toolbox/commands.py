"""Toolbox commands: each a few lines over the pure functions of :mod:`.scars` and :mod:`.exploration`.

They run through :class:`~d100gui.engine.game.Game` like every other command, so every
toolbox roll is in the command log with its dice, undo restores the generator, and a replay
reproduces the results. The campaign has no toolbox field yet, so a tool's state (the
encounter, the dungeon or travel clock) travels in the command and comes back in the event's
payload; when :class:`~d100gui.engine.toolbox.state.ToolboxState` joins the campaign the
commands can read and write it there instead.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from d100gui.engine.dice.tables import Table, TableError
from d100gui.engine.game import Command, GameContext
from d100gui.engine.protocol import CommandRefused, Event
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.events import (
    DungeonEncounterChecked,
    ExploreTurnsSpent,
    InjuryRolled,
    LightLit,
    LightLow,
    LightOut,
    LightSnuffed,
    PushedOn,
    Rested,
    ScarsAttacked,
    ScarsClockAdvanced,
    ScarsDistance,
    ScarsHirelingMorale,
    ScarsInitiative,
    ScarsMorale,
    ScarsPackRetrieval,
    ScarsReaction,
    ScarsRoundStarted,
    ScarsZeroHealth,
    TravelEncounterChecked,
    TravelEncounterMet,
    TravelHoursSpent,
)

__all__ = ["TOOLBOX_COMMANDS"]


def _table(ctx: GameContext, table_id: str) -> Table:
    try:
        return ctx.tables.library.get(table_id)
    except TableError as exc:
        raise CommandRefused(str(exc)) from None


# --------------------------------------------------------------------------- d20 scars combat


class ScarsAttack(Command):
    """Resolve an attack: alone (attribute against ``armour_class``) or in ``encounter`` (attacker against target)."""

    kind: Literal["toolbox_scars_attack"] = "toolbox_scars_attack"
    attribute: int
    armour_class: int = 0  # ignored in an encounter: the target's current AC is used
    damage: str = "1d6"
    scars: int = 0  # ignored in an encounter: the attacker's Scars are used
    sign: sc.ScarsSign = sc.ScarsSign.NONE
    encounter: sc.ScarsEncounter | None = None
    attacker: str = ""
    target: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.encounter is None:
            modifier = sc.scars_modifier(self.scars, self.sign)
            result = sc.resolve_attack(
                ctx.dice, self.attribute, self.armour_class, self.damage, modifier, self.attacker, self.target
            )
            return [Event.of(ScarsAttacked(result=result), result.describe())]
        after, result = sc.encounter_attack(
            self.encounter, ctx.dice, self.attacker, self.target, self.attribute, self.damage, self.sign
        )
        return [Event.of(ScarsAttacked(result=result, encounter=after), result.describe())]


class ScarsModifyAttack(Command):
    """Shift an attack already rolled by the Scars modifier: the encounter's latest attack, or ``attack`` with ``scars``."""

    kind: Literal["toolbox_scars_modify_attack"] = "toolbox_scars_modify_attack"
    sign: sc.ScarsSign
    encounter: sc.ScarsEncounter | None = None
    attack: sc.AttackResult | None = None
    scars: int = 0  # ignored in an encounter: the attacker's Scars are used

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.encounter is not None:
            after, result = sc.encounter_modify_attack(self.encounter, ctx.dice, self.sign)
            return [Event.of(ScarsAttacked(result=result, encounter=after), result.describe())]
        if self.attack is None:
            raise CommandRefused("Give the attack (or the encounter) whose roll the Scars modifier shifts.")
        result = sc.modify_attack(ctx.dice, self.attack, sc.scars_modifier(self.scars, self.sign))
        return [Event.of(ScarsAttacked(result=result), result.describe())]


class ScarsNextRound(Command):
    """Start the encounter's next initiative round."""

    kind: Literal["toolbox_scars_next_round"] = "toolbox_scars_next_round"
    encounter: sc.ScarsEncounter

    def apply(self, ctx: GameContext) -> list[Event]:
        after = sc.next_round(self.encounter)
        return [Event.of(ScarsRoundStarted(encounter=after), f"Round {after.round} begins.")]


class ScarsInitiativeRoll(Command):
    """Roll an adventurer's initiative against their Agility."""

    kind: Literal["toolbox_scars_initiative"] = "toolbox_scars_initiative"
    agility: int
    name: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        result = sc.roll_initiative(ctx.dice, self.agility, self.name)
        return [Event.of(ScarsInitiative(result=result), result.describe())]


class ScarsMoraleTest(Command):
    """Test an enemy's morale: by its HD, or the named enemy of ``encounter``."""

    kind: Literal["toolbox_scars_morale"] = "toolbox_scars_morale"
    hd: int = 0  # ignored in an encounter: the enemy's HD is used
    name: str = ""
    encounter: sc.ScarsEncounter | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.encounter is None:
            result = sc.morale_check(ctx.dice, self.hd, self.name)
            return [Event.of(ScarsMorale(result=result), result.describe())]
        after, result = sc.encounter_morale(self.encounter, ctx.dice, self.name)
        return [Event.of(ScarsMorale(result=result, encounter=after), result.describe())]


class ScarsHirelingMoraleTest(Command):
    """Test a hireling's morale against the employer's Cunning and the hireling's HD."""

    kind: Literal["toolbox_scars_hireling_morale"] = "toolbox_scars_hireling_morale"
    cunning: int
    hd: int
    name: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        result = sc.hireling_morale_check(ctx.dice, self.cunning, self.hd, self.name)
        return [Event.of(ScarsHirelingMorale(result=result), result.describe())]


class ScarsReactionRoll(Command):
    """Roll an enemy's first attitude on the reaction table."""

    kind: Literal["toolbox_scars_reaction"] = "toolbox_scars_reaction"

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, sc.REACTION_TABLE)
        result = sc.roll_reaction(ctx.tables)
        return [Event.of(ScarsReaction(result=result), result.describe())]


class ScarsDistanceRoll(Command):
    """Roll how far away an encounter starts (feet in the dungeon, yards outside)."""

    kind: Literal["toolbox_scars_distance"] = "toolbox_scars_distance"
    outdoors: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        result = sc.roll_encounter_distance(ctx.dice, self.outdoors)
        return [Event.of(ScarsDistance(result=result), result.describe())]


class ScarsZeroHealthCheck(Command):
    """The scars check at 0 health: by the Scars held, or for the named adventurer of ``encounter``."""

    kind: Literal["toolbox_scars_zero_health"] = "toolbox_scars_zero_health"
    scars: int = 0  # ignored in an encounter: the adventurer's Scars are used
    name: str = ""
    encounter: sc.ScarsEncounter | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.encounter is None:
            result = sc.zero_health(ctx.dice, self.scars, self.name)
            return [Event.of(ScarsZeroHealth(result=result), result.describe())]
        after, result = sc.encounter_zero_health(self.encounter, ctx.dice, self.name)
        return [Event.of(ScarsZeroHealth(result=result, encounter=after), result.describe())]


class ScarsPackRetrieve(Command):
    """Dig an item out of a pack in combat (a Cunning check; ``search`` on a failure spends 1d3 rounds)."""

    kind: Literal["toolbox_scars_pack"] = "toolbox_scars_pack"
    cunning: int
    search: bool = True
    name: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        result = sc.retrieve_from_pack(ctx.dice, self.cunning, self.search, self.name)
        return [Event.of(ScarsPackRetrieval(result=result), result.describe())]


class ScarsClockAdvance(Command):
    """Pass Turns (dungeon) or Watches (outside) on the scars clock, checking for encounters."""

    kind: Literal["toolbox_scars_clock"] = "toolbox_scars_clock"
    clock: sc.ScarsClock = Field(default_factory=sc.ScarsClock)
    count: int = 1
    unit: Literal["turn", "watch"] = "turn"

    def apply(self, ctx: GameContext) -> list[Event]:
        step = sc.advance_scars_clock(self.clock, ctx.dice, self.count, self.unit)
        return [Event.of(ScarsClockAdvanced(result=step, clock=step.clock), step.describe())]


# --------------------------------------------------------------------------- exploration procedure


def _light_events(step: ex.DungeonStep) -> list[Event]:
    events = [Event.of(DungeonEncounterChecked(check=c), c.describe()) for c in step.checks]
    for light in step.lights:
        payload = LightOut(light=light) if light.kind == "out" else LightLow(light=light)
        events.append(Event.of(payload, light.describe()))
    return events


class ExploreSpend(Command):
    """Spend Turns on the dungeon clock: an action of the actions table, or ``turns`` for a custom one."""

    kind: Literal["toolbox_explore_spend"] = "toolbox_explore_spend"
    clock: ex.DungeonClock = Field(default_factory=ex.DungeonClock)
    action: str = ""
    turns: int | None = None  # a custom cost (or a custom action's)

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.turns is None:
            if not self.action.strip():
                raise CommandRefused("Choose an action, or give the number of turns it takes.")
            step = ex.take_action(self.clock, ctx.dice, _table(ctx, ex.ACTIONS_TABLE), self.action)
        else:
            step = ex.spend_turns(self.clock, ctx.dice, self.turns, self.action.strip() or "custom action")
        return [Event.of(ExploreTurnsSpent(result=step), step.describe()), *_light_events(step)]


class ExploreLight(Command):
    """Light or activate an item: its duration from the durations table, or ``turns`` for one of the player's own."""

    kind: Literal["toolbox_explore_light"] = "toolbox_explore_light"
    clock: ex.DungeonClock = Field(default_factory=ex.DungeonClock)
    item: str
    turns: int | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        durations = _table(ctx, ex.DURATIONS_TABLE)
        after, warning = ex.light(self.clock, durations, self.item, self.turns)
        source = after.lights[-1]
        events = [Event.of(LightLit(source=source, clock=after), f"{source.name} lit: {source.duration} turn(s).")]
        if warning is not None:
            events.append(Event.of(LightLow(light=warning), warning.describe()))
        return events


class ExploreSnuff(Command):
    """Put out a lit item (``index`` from 0 in the clock's lights)."""

    kind: Literal["toolbox_explore_snuff"] = "toolbox_explore_snuff"
    clock: ex.DungeonClock
    index: int

    def apply(self, ctx: GameContext) -> list[Event]:
        after = ex.snuff(self.clock, self.index)
        source = self.clock.lights[self.index]
        return [Event.of(LightSnuffed(source=source, clock=after), f"{source.name} put out, {source.remaining} turn(s) left.")]


class TravelSpend(Command):
    """Spend hours on the travel clock: a travel action of the table, or ``hours`` for a custom one (``rest`` marks resting)."""

    kind: Literal["toolbox_travel_spend"] = "toolbox_travel_spend"
    clock: ex.TravelClock = Field(default_factory=ex.TravelClock)
    action: str = ""
    hours: int | None = None
    rest: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.hours is None:
            if not self.action.strip():
                raise CommandRefused("Choose a travel action, or give the number of hours it takes.")
            step = ex.take_travel_action(self.clock, ctx.dice, _table(ctx, ex.TRAVEL_ACTIONS_TABLE), self.action)
        else:
            step = ex.spend_hours(self.clock, ctx.dice, self.hours, self.action.strip() or "travel", self.rest)
        return _travel_events(step)


def _travel_events(step: ex.TravelStep) -> list[Event]:
    events = [Event.of(TravelHoursSpent(result=step), step.describe())]
    events += [Event.of(TravelEncounterChecked(check=c), c.describe()) for c in step.checks]
    if step.met is not None:
        message = f"Encounter: hour {step.met.hour} of the {step.met.round_name.lower()} has come."
        events.append(Event.of(TravelEncounterMet(check=step.met, clock=step.clock), message))
    return events


class PushOn(Command):
    """The party pushes on instead of resting: Stress, Strength damage and the 3d4 injury check for each."""

    kind: Literal["toolbox_push_on"] = "toolbox_push_on"
    party: list[ex.Traveller]

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ex.INJURY_TABLE)
        result = ex.push_on(ctx.tables, self.party)
        return [Event.of(PushedOn(result=result), result.describe())]


class Rest(Command):
    """What a partial, short or full rest restores to one character.

    With ``clock`` (a partial rest) or ``travel`` (a short or full rest) the rest's time passes
    on that clock first, with its encounter checks; an encounter may cut it short.
    """

    kind: Literal["toolbox_rest"] = "toolbox_rest"
    rest: ex.RestKind
    hd: int = 1
    wounds: int = 0
    minutes: int = 10
    heal_check: bool = False
    name: str = ""
    clock: ex.DungeonClock | None = None
    travel: ex.TravelClock | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        events: list[Event] = []
        result: ex.RestResult | None
        if self.clock is not None:
            if self.rest is not ex.RestKind.PARTIAL:
                raise CommandRefused("Short and full rests are counted in hours: take them on the travel clock.")
            step, result = ex.rest_in_dungeon(self.clock, ctx.dice, self.minutes, self.wounds, self.heal_check, self.name)
            events += [Event.of(ExploreTurnsSpent(result=step), step.describe()), *_light_events(step)]
        elif self.travel is not None:
            moved, result = ex.rest_on_the_road(
                self.travel, ctx.dice, self.rest, self.hd, self.wounds, self.heal_check, self.name
            )
            events += _travel_events(moved)
        else:
            result = ex.rest(ctx.dice, self.rest, self.hd, self.wounds, self.minutes, self.heal_check, self.name)
        if result is not None:
            events.append(Event.of(Rested(result=result), result.describe()))
        return events


class RollInjury(Command):
    """Roll the injury table, with the dice of its effect and any "roll again"."""

    kind: Literal["toolbox_injury"] = "toolbox_injury"

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ex.INJURY_TABLE)
        result = ex.roll_injury(ctx.tables)
        return [Event.of(InjuryRolled(result=result), result.describe())]


TOOLBOX_COMMANDS: tuple[type[Command], ...] = (
    ScarsAttack,
    ScarsModifyAttack,
    ScarsNextRound,
    ScarsInitiativeRoll,
    ScarsMoraleTest,
    ScarsHirelingMoraleTest,
    ScarsReactionRoll,
    ScarsDistanceRoll,
    ScarsZeroHealthCheck,
    ScarsPackRetrieve,
    ScarsClockAdvance,
    ExploreSpend,
    ExploreLight,
    ExploreSnuff,
    TravelSpend,
    PushOn,
    Rest,
    RollInjury,
)
