"""Toolbox commands: each a few lines over the pure functions of :mod:`.scars` and :mod:`.exploration`.

They run through :class:`~d100gui.engine.game.Game` like every other command, so every
toolbox roll is in the command log with its dice, undo restores the generator, and a replay
reproduces the results. A tool's state (the scars fight and clock, the dungeon and travel
clocks) lives in ``ctx.campaign.toolbox`` (:class:`~d100gui.engine.toolbox.state.ToolboxState`):
a command reads it there and writes the state after back, so a saved campaign resumes a clock
or a fight exactly and undo covers it. A command may still be handed a state (``encounter``,
``clock``, ``travel``): it then starts from that state instead of the campaign's, and writes
the state after into the campaign all the same (logs made before the campaign held the state
replay this way). The state after also comes back in the event's payload for the views.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.tables import Row
from d100gui.engine.game import Command, GameContext
from d100gui.engine.phases import TOOLBOX, Phases
from d100gui.engine.protocol import CommandRefused, Event
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.classic import magic as cm
from d100gui.engine.toolbox.classic import monsters as cmon
from d100gui.engine.toolbox.classic import swords as csw
from d100gui.engine.toolbox.classic import treasure as ct
from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE, percent_die, rule_die, rule_number
from d100gui.engine.toolbox.classic_commands import CLASSIC_COMMANDS
from d100gui.engine.toolbox.context import keep_state as _keep
from d100gui.engine.toolbox.context import missing_rows as _missing
from d100gui.engine.toolbox.context import sampled as _sampled
from d100gui.engine.toolbox.context import table_of as _table
from d100gui.engine.toolbox.events import (
    ClassicEgoContested,
    ClassicGemsRolled,
    ClassicHoardRolled,
    ClassicJewelryRolled,
    ClassicMagicFound,
    ClassicSwordMade,
    ClassicWanderingChecked,
    ClassicWanderingMonster,
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
from d100gui.engine.toolbox.procedure_commands import PROCEDURE_COMMANDS
from d100gui.engine.toolbox.runs import continue_run, resumable

__all__ = ["TOOLBOX_COMMANDS"]


def _encounter(ctx: GameContext, given: sc.ScarsEncounter | None) -> sc.ScarsEncounter:
    """The fight to act in: ``given``, else the campaign's; refused when there is none."""
    encounter = given if given is not None else ctx.campaign.toolbox.scars_encounter
    if encounter is None:
        raise CommandRefused("No scars fight is being tracked: start one with its fighters first.")
    at = _scars(ctx).morale_at  # the rules table's "half health"
    return encounter if encounter.morale_at == at else encounter.model_copy(update={"morale_at": at})


# --------------------------------------------------------------------------- d20 scars combat


def _scars(ctx: GameContext) -> sc.ScarsNumbers:
    """The d20 checks' numbers as the player's rules table prints them."""
    return sc.scars_numbers(ctx.tables.library)


@register_command
class ScarsAttack(Command):
    """Resolve an attack: alone (attribute against ``armour_class``) or in the fight (``in_encounter``: attacker against target)."""

    kind: Literal["toolbox_scars_attack"] = "toolbox_scars_attack"
    when: ClassVar[Phases] = TOOLBOX
    attribute: int
    armour_class: int = 0  # ignored in an encounter: the target's current AC is used
    damage: str = "1d6"
    scars: int = 0  # ignored in an encounter: the attacker's Scars are used
    sign: sc.ScarsSign = sc.ScarsSign.NONE
    encounter: sc.ScarsEncounter | None = None  # a fight to start from instead of the campaign's
    in_encounter: bool = False  # attack in the campaign's fight (implied by ``encounter``)
    attacker: str = ""
    target: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.encounter is None and not self.in_encounter:
            modifier = sc.scars_modifier(self.scars, self.sign)
            result = sc.resolve_attack(
                ctx.dice, self.attribute, self.armour_class, self.damage, modifier, self.attacker, self.target, _scars(ctx).die,
                _scars(ctx),
            )  # fmt: skip
            return [Event.of(ScarsAttacked(result=result), result.describe())]
        after, result = sc.encounter_attack(
            _encounter(ctx, self.encounter), ctx.dice, self.attacker, self.target, self.attribute, self.damage, self.sign,
            _scars(ctx).die, _scars(ctx),
        )  # fmt: skip
        _keep(ctx, scars_encounter=after)
        return [Event.of(ScarsAttacked(result=result, encounter=after), result.describe())]


@register_command
class ScarsModifyAttack(Command):
    """Shift an attack already rolled by the Scars modifier: the fight's latest attack, or ``attack`` with ``scars``."""

    kind: Literal["toolbox_scars_modify_attack"] = "toolbox_scars_modify_attack"
    when: ClassVar[Phases] = TOOLBOX
    sign: sc.ScarsSign
    encounter: sc.ScarsEncounter | None = None  # a fight to start from instead of the campaign's
    in_encounter: bool = False  # the campaign's fight's latest attack (implied by ``encounter``)
    attack: sc.AttackResult | None = None
    scars: int = 0  # ignored in an encounter: the attacker's Scars are used

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.encounter is not None or self.in_encounter:
            after, result = sc.encounter_modify_attack(_encounter(ctx, self.encounter), ctx.dice, self.sign)
            _keep(ctx, scars_encounter=after)
            return [Event.of(ScarsAttacked(result=result, encounter=after), result.describe())]
        if self.attack is None:
            raise CommandRefused("Give the attack (or the encounter) whose roll the Scars modifier shifts.")
        result = sc.modify_attack(ctx.dice, self.attack, sc.scars_modifier(self.scars, self.sign))
        return [Event.of(ScarsAttacked(result=result), result.describe())]


@register_command
class ScarsNextRound(Command):
    """Start the fight's next initiative round."""

    kind: Literal["toolbox_scars_next_round"] = "toolbox_scars_next_round"
    when: ClassVar[Phases] = TOOLBOX
    encounter: sc.ScarsEncounter | None = None  # a fight to start from instead of the campaign's

    def apply(self, ctx: GameContext) -> list[Event]:
        after = sc.next_round(_encounter(ctx, self.encounter))
        _keep(ctx, scars_encounter=after)
        return [Event.of(ScarsRoundStarted(encounter=after), f"Round {after.round} begins.")]


@register_command
class ScarsStartEncounter(Command):
    """Start tracking a scars fight with these fighters (round 1); it replaces the fight tracked before."""

    kind: Literal["toolbox_scars_start_encounter"] = "toolbox_scars_start_encounter"
    when: ClassVar[Phases] = TOOLBOX
    fighters: list[sc.ScarsFighter]
    surprised: sc.Side | None = None  # the side surprised as combat begins: no actions in Round 1

    def apply(self, ctx: GameContext) -> list[Event]:
        names = [f.name.strip() for f in self.fighters]
        if len(names) < 2 or "" in names:
            raise CommandRefused("A fight needs at least 2 fighters, each with a name.")
        if len(set(names)) != len(names):
            raise CommandRefused("Each fighter needs a name of their own.")
        fighters = [f.model_copy(update={"name": f.name.strip()}) for f in self.fighters]
        encounter = sc.ScarsEncounter(fighters=fighters, surprised=self.surprised)
        _keep(ctx, scars_encounter=encounter)
        lost = f" {encounter.surprise_note.capitalize()}." if encounter.surprise_note else ""
        return [Event.of(ScarsRoundStarted(encounter=encounter), f"A fight begins: {', '.join(names)}. Round 1.{lost}")]


@register_command
class ScarsInitiativeRoll(Command):
    """Roll an adventurer's initiative against their Agility."""

    kind: Literal["toolbox_scars_initiative"] = "toolbox_scars_initiative"
    when: ClassVar[Phases] = TOOLBOX
    agility: int
    name: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        result = sc.roll_initiative(ctx.dice, self.agility, self.name, _scars(ctx).die)
        return [Event.of(ScarsInitiative(result=result), result.describe())]


@register_command
class ScarsMoraleTest(Command):
    """Test an enemy's morale: by its HD, or the named enemy of the fight (``in_encounter``)."""

    kind: Literal["toolbox_scars_morale"] = "toolbox_scars_morale"
    when: ClassVar[Phases] = TOOLBOX
    hd: int = 0  # ignored in an encounter: the enemy's HD is used
    name: str = ""
    encounter: sc.ScarsEncounter | None = None  # a fight to start from instead of the campaign's
    in_encounter: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.encounter is None and not self.in_encounter:
            result = sc.morale_check(ctx.dice, self.hd, self.name, _scars(ctx).morale_base, _scars(ctx).die)
            return [Event.of(ScarsMorale(result=result), result.describe())]
        n = _scars(ctx)
        after, result = sc.encounter_morale(_encounter(ctx, self.encounter), ctx.dice, self.name, n.morale_base, n.die)
        _keep(ctx, scars_encounter=after)
        return [Event.of(ScarsMorale(result=result, encounter=after), result.describe())]


@register_command
class ScarsHirelingMoraleTest(Command):
    """Test a hireling's morale against the employer's Cunning and the hireling's HD."""

    kind: Literal["toolbox_scars_hireling_morale"] = "toolbox_scars_hireling_morale"
    when: ClassVar[Phases] = TOOLBOX
    cunning: int
    hd: int
    name: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        result = sc.hireling_morale_check(ctx.dice, self.cunning, self.hd, self.name, _scars(ctx).die)
        return [Event.of(ScarsHirelingMorale(result=result), result.describe())]


@register_command
@resumable
class ScarsReactionRoll(Command):
    """Roll an enemy's first attitude on the reaction table."""

    kind: Literal["toolbox_scars_reaction"] = "toolbox_scars_reaction"
    when: ClassVar[Phases] = TOOLBOX

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, sc.REACTION_TABLE)
        result = sc.roll_reaction(ctx.tables)
        return [Event.of(ScarsReaction(result=result), result.describe() + _sampled(result)), *_missing(ctx, result)]


@register_command
class ScarsDistanceRoll(Command):
    """Roll how far away an encounter starts (feet in the dungeon, yards outside)."""

    kind: Literal["toolbox_scars_distance"] = "toolbox_scars_distance"
    when: ClassVar[Phases] = TOOLBOX
    outdoors: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        result = sc.roll_encounter_distance(ctx.dice, self.outdoors, _scars(ctx))
        return [Event.of(ScarsDistance(result=result), result.describe())]


@register_command
class ScarsZeroHealthCheck(Command):
    """The scars check at 0 health: by the Scars held, or for the named adventurer of the fight (``in_encounter``)."""

    kind: Literal["toolbox_scars_zero_health"] = "toolbox_scars_zero_health"
    when: ClassVar[Phases] = TOOLBOX
    scars: int = 0  # ignored in an encounter: the adventurer's Scars are used
    name: str = ""
    encounter: sc.ScarsEncounter | None = None  # a fight to start from instead of the campaign's
    in_encounter: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.encounter is None and not self.in_encounter:
            result = sc.zero_health(ctx.dice, self.scars, self.name, _scars(ctx))
            return [Event.of(ScarsZeroHealth(result=result), result.describe())]
        after, result = sc.encounter_zero_health(_encounter(ctx, self.encounter), ctx.dice, self.name, _scars(ctx))
        _keep(ctx, scars_encounter=after)
        return [Event.of(ScarsZeroHealth(result=result, encounter=after), result.describe())]


@register_command
class ScarsPackRetrieve(Command):
    """Dig an item out of a pack in combat (a Cunning check; ``search`` on a failure spends 1d3 rounds)."""

    kind: Literal["toolbox_scars_pack"] = "toolbox_scars_pack"
    when: ClassVar[Phases] = TOOLBOX
    cunning: int
    search: bool = True
    name: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        n = _scars(ctx)
        result = sc.retrieve_from_pack(ctx.dice, self.cunning, self.search, self.name, n.pack_search_die, n.die)
        return [Event.of(ScarsPackRetrieval(result=result), result.describe())]


@register_command
class ScarsClockAdvance(Command):
    """Pass Turns (dungeon) or Watches (outside) on the scars clock, checking for encounters."""

    kind: Literal["toolbox_scars_clock"] = "toolbox_scars_clock"
    when: ClassVar[Phases] = TOOLBOX
    clock: sc.ScarsClock | None = None  # a clock to start from instead of the campaign's
    count: int = 1
    unit: Literal["turn", "watch"] = "turn"

    def apply(self, ctx: GameContext) -> list[Event]:
        clock = self.clock if self.clock is not None else ctx.campaign.toolbox.scars_clock
        step = sc.advance_scars_clock(clock, ctx.dice, self.count, self.unit, _scars(ctx))
        _keep(ctx, scars_clock=step.clock)
        return [Event.of(ScarsClockAdvanced(result=step, clock=step.clock), step.describe())]


# --------------------------------------------------------------------------- exploration procedure


def _dungeon_clock(ctx: GameContext, given: ex.DungeonClock | None) -> ex.DungeonClock:
    """The dungeon clock to act on, checking encounters by the procedure rules table's numbers."""
    clock = given if given is not None else ctx.campaign.toolbox.dungeon_clock
    return ex.dungeon_clock_numbers(clock, ex.exploration_numbers(ctx.tables.library))


def _travel_clock(ctx: GameContext, given: ex.TravelClock | None) -> ex.TravelClock:
    """The travel clock to act on, counting the Rounds the travel rounds table prints (when the player has it)."""
    clock = given if given is not None else ctx.campaign.toolbox.travel_clock
    numbers = ex.exploration_numbers(ctx.tables.library)
    if ex.TRAVEL_ROUNDS_TABLE in ctx.tables.library:
        rounds = ex.travel_rounds(ctx.tables.library.get(ex.TRAVEL_ROUNDS_TABLE), numbers.hours_per_travel_round)
        if rounds != clock.rounds:
            clock = clock.model_copy(update={"rounds": rounds})
    return ex.travel_clock_numbers(clock, numbers)


def _light_events(step: ex.DungeonStep) -> list[Event]:
    events = [Event.of(DungeonEncounterChecked(check=c), c.describe()) for c in step.checks]
    for light in step.lights:
        payload = LightOut(light=light) if light.kind == "out" else LightLow(light=light)
        events.append(Event.of(payload, light.describe()))
    return events


@register_command
class ExploreSpend(Command):
    """Spend Turns on the dungeon clock: an action of the actions table, or ``turns`` for a custom one."""

    kind: Literal["toolbox_explore_spend"] = "toolbox_explore_spend"
    when: ClassVar[Phases] = TOOLBOX
    clock: ex.DungeonClock | None = None  # a clock to start from instead of the campaign's
    action: str = ""
    turns: int | None = None  # a custom cost (or a custom action's)

    def apply(self, ctx: GameContext) -> list[Event]:
        clock = _dungeon_clock(ctx, self.clock)
        if self.turns is None:
            if not self.action.strip():
                raise CommandRefused("Choose an action, or give the number of turns it takes.")
            step = ex.take_action(clock, ctx.dice, _table(ctx, ex.ACTIONS_TABLE), self.action)
        else:
            step = ex.spend_turns(clock, ctx.dice, self.turns, self.action.strip() or "custom action")
        _keep(ctx, dungeon_clock=step.clock)
        return [Event.of(ExploreTurnsSpent(result=step), step.describe()), *_light_events(step)]


@register_command
class ExploreLight(Command):
    """Light or activate an item: its duration from the durations table, or ``turns`` for one of the player's own."""

    kind: Literal["toolbox_explore_light"] = "toolbox_explore_light"
    when: ClassVar[Phases] = TOOLBOX
    clock: ex.DungeonClock | None = None  # a clock to start from instead of the campaign's
    item: str
    turns: int | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        durations = _table(ctx, ex.DURATIONS_TABLE)
        after, warning = ex.light(_dungeon_clock(ctx, self.clock), durations, self.item, self.turns)
        _keep(ctx, dungeon_clock=after)
        source = after.lights[-1]
        events = [Event.of(LightLit(source=source, clock=after), f"{source.name} lit: {source.duration} turn(s).")]
        if warning is not None:
            events.append(Event.of(LightLow(light=warning), warning.describe()))
        return events


@register_command
class ExploreSnuff(Command):
    """Put out a lit item (``index`` from 0 in the clock's lights)."""

    kind: Literal["toolbox_explore_snuff"] = "toolbox_explore_snuff"
    when: ClassVar[Phases] = TOOLBOX
    clock: ex.DungeonClock | None = None  # a clock to start from instead of the campaign's
    index: int

    def apply(self, ctx: GameContext) -> list[Event]:
        clock = _dungeon_clock(ctx, self.clock)
        after = ex.snuff(clock, self.index)
        source = clock.lights[self.index]
        _keep(ctx, dungeon_clock=after)
        return [Event.of(LightSnuffed(source=source, clock=after), f"{source.name} put out, {source.remaining} turn(s) left.")]


@register_command
class TravelSpend(Command):
    """Spend hours on the travel clock: a travel action of the table, or ``hours`` for a custom one (``rest`` marks resting)."""

    kind: Literal["toolbox_travel_spend"] = "toolbox_travel_spend"
    when: ClassVar[Phases] = TOOLBOX
    clock: ex.TravelClock | None = None  # a clock to start from instead of the campaign's
    action: str = ""
    hours: int | None = None
    rest: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        clock = _travel_clock(ctx, self.clock)
        if self.hours is None:
            if not self.action.strip():
                raise CommandRefused("Choose a travel action, or give the number of hours it takes.")
            step = ex.take_travel_action(clock, ctx.dice, _table(ctx, ex.TRAVEL_ACTIONS_TABLE), self.action)
        else:
            step = ex.spend_hours(clock, ctx.dice, self.hours, self.action.strip() or "travel", self.rest)
        _keep(ctx, travel_clock=step.clock)
        return _travel_events(step)


def _travel_events(step: ex.TravelStep) -> list[Event]:
    events = [Event.of(TravelHoursSpent(result=step), step.describe())]
    events += [Event.of(TravelEncounterChecked(check=c), c.describe()) for c in step.checks]
    if step.met is not None:
        message = f"Encounter: hour {step.met.hour} of the {step.met.round_name.lower()} has come."
        events.append(Event.of(TravelEncounterMet(check=step.met, clock=step.clock), message))
    return events


@register_command
@resumable
class PushOn(Command):
    """The party pushes on instead of resting: Stress, Strength damage and the 3d4 injury check for each."""

    kind: Literal["toolbox_push_on"] = "toolbox_push_on"
    when: ClassVar[Phases] = TOOLBOX
    party: list[ex.Traveller]

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ex.INJURY_TABLE)
        result = ex.push_on(ctx.tables, self.party)
        return [Event.of(PushedOn(result=result), result.describe() + _sampled(result)), *_missing(ctx, result)]


@register_command
class Rest(Command):
    """What a partial, short or full rest restores to one character.

    On a clock (``on_clock``: the dungeon clock for a partial rest, the travel clock for a short
    or full one; ``clock`` or ``travel`` hands in a clock to start from) the rest's time passes
    on that clock first, with its encounter checks; an encounter may cut it short.
    """

    kind: Literal["toolbox_rest"] = "toolbox_rest"
    when: ClassVar[Phases] = TOOLBOX
    rest: ex.RestKind
    hd: int = 1
    wounds: int = 0
    minutes: int = ex.REST_MINUTES_STEP  # the text's step; the tool sends the player's
    heal_check: bool = False
    name: str = ""
    clock: ex.DungeonClock | None = None
    travel: ex.TravelClock | None = None
    on_clock: Literal["none", "dungeon", "travel"] = "none"
    worst_wound: int = 0  # the highest damage among the wounds: shows the Heal check's TN (0: not shown)

    def apply(self, ctx: GameContext) -> list[Event]:
        events: list[Event] = []
        result: ex.RestResult | None
        if self.clock is not None or self.on_clock == "dungeon":
            if self.rest is not ex.RestKind.PARTIAL:
                raise CommandRefused("Short and full rests are counted in hours: take them on the travel clock.")
            clock = _dungeon_clock(ctx, self.clock)
            step, result = ex.rest_in_dungeon(
                clock, ctx.dice, self.minutes, self.wounds, self.heal_check, self.name, ex.exploration_numbers(ctx.tables.library)
            )
            _keep(ctx, dungeon_clock=step.clock)
            events += [Event.of(ExploreTurnsSpent(result=step), step.describe()), *_light_events(step)]
        elif self.travel is not None or self.on_clock == "travel":
            travel = _travel_clock(ctx, self.travel)
            moved, result = ex.rest_on_the_road(
                travel,
                ctx.dice,
                self.rest,
                self.hd,
                self.wounds,
                self.heal_check,
                self.name,
                ex.exploration_numbers(ctx.tables.library),
            )
            _keep(ctx, travel_clock=moved.clock)
            events += _travel_events(moved)
        else:
            result = ex.rest(
                ctx.dice, self.rest, self.hd, self.wounds, self.minutes, self.heal_check, self.name,
                ex.exploration_numbers(ctx.tables.library),
            )  # fmt: skip
        if result is not None:
            if self.worst_wound and self.wounds:
                base = ex.exploration_numbers(ctx.tables.library).heal_tn_base
                result = result.model_copy(update={"heal_tn": ex.heal_tn(self.worst_wound, base), "heal_tn_base": base})
            events.append(Event.of(Rested(result=result), result.describe()))
        return events


@register_command
@resumable
class RollInjury(Command):
    """Roll the injury table, with the dice of its effect and any "roll again"."""

    kind: Literal["toolbox_injury"] = "toolbox_injury"
    when: ClassVar[Phases] = TOOLBOX

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ex.INJURY_TABLE)
        result = ex.roll_injury(ctx.tables)
        return [Event.of(InjuryRolled(result=result), result.describe() + _sampled(result)), *_missing(ctx, result)]


# --------------------------------------------------------------------------- classic treasure and magic


@register_command
@resumable
class ClassicMagicItem(Command):
    """Generate an item found: magic or a map (``maps`` False: straight to a magic item), rolled through;
    a map's guardians on monster level ``guardians`` (0: left to the referee)."""

    kind: Literal["toolbox_classic_magic"] = "toolbox_classic_magic"
    when: ClassVar[Phases] = TOOLBOX
    maps: bool = True
    guardians: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        cm.check_guardians(self.guardians, cm.guardian_levels(ctx.tables.library))
        _table(ctx, cm.MAGIC_OR_MAP_TABLE if self.maps else cm.CLASS_TABLE)
        if self.maps:
            find = ct.value_find(ctx.tables, cm.magic_find(ctx.tables, self.guardians))
        else:
            item = cm.magic_item(ctx.tables)
            find = cm.MagicFind(determination=item.kind or item.item, item=item)
        if find.item is not None and find.item.sword is not None:
            _keep(ctx, sword=find.item.sword)  # a sword found is the one the ego contest tests next
        return [Event.of(ClassicMagicFound(find=find), find.describe() + _sampled(find)), *_missing(ctx, find)]


@register_command
@resumable
class ClassicSword(Command):
    """Generate a complete magic sword."""

    kind: Literal["toolbox_classic_sword"] = "toolbox_classic_sword"
    when: ClassVar[Phases] = TOOLBOX

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, csw.SWORDS_TABLE)
        sword = csw.complete_sword(ctx.tables)
        _keep(ctx, sword=sword)  # the ego contest tool tests the latest sword
        return [Event.of(ClassicSwordMade(sword=sword), sword.describe() + _sampled(sword)), *_missing(ctx, sword)]


@register_command
class ClassicEgoContest(Command):
    """Pit ``sword``'s ego against its wielder's Intelligence and Strength (``condition``: the referee's adjustment)."""

    kind: Literal["toolbox_classic_ego_contest"] = "toolbox_classic_ego_contest"
    when: ClassVar[Phases] = TOOLBOX
    sword: csw.Sword
    intelligence: int
    strength: int
    condition: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        library = ctx.tables.library
        bands = csw.influence_bands(library.get(csw.INFLUENCE_TABLE) if csw.INFLUENCE_TABLE in library else None)
        result = csw.ego_contest(
            ctx.dice,
            self.sword,
            self.intelligence,
            self.strength,
            self.condition,
            bands=bands,
            percent=percent_die(library),
            per_ability=csw.ego_per_ability(library),
        )
        return [Event.of(ClassicEgoContested(result=result), result.describe())]


@register_command
@resumable
class ClassicGems(Command):
    """Value ``count`` gems, each with its step-up rolls."""

    kind: Literal["toolbox_classic_gems"] = "toolbox_classic_gems"
    when: ClassVar[Phases] = TOOLBOX
    count: int = 1

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ct.GEM_TABLE)
        gems = ct.roll_gems(ctx.tables, self.count)
        return [Event.of(ClassicGemsRolled(gems=gems), gems.describe() + _sampled(gems)), *_missing(ctx, gems)]


@register_command
@resumable
class ClassicJewelry(Command):
    """Value ``count`` pieces of jewelry."""

    kind: Literal["toolbox_classic_jewelry"] = "toolbox_classic_jewelry"
    when: ClassVar[Phases] = TOOLBOX
    count: int = 1

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ct.JEWELRY_TABLE)
        jewelry = ct.roll_jewelry(ctx.tables, self.count)
        return [Event.of(ClassicJewelryRolled(jewelry=jewelry), jewelry.describe() + _sampled(jewelry)), *_missing(ctx, jewelry)]


@register_command
@resumable
class ClassicHoard(Command):
    """Roll the treasure of a room on dungeon ``level``, every sub-roll expanded."""

    kind: Literal["toolbox_classic_hoard"] = "toolbox_classic_hoard"
    when: ClassVar[Phases] = TOOLBOX
    level: int

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ct.TREASURE_TABLE)
        result = ct.hoard(ctx.tables, self.level)
        return [Event.of(ClassicHoardRolled(hoard=result), result.describe() + _sampled(result)), *_missing(ctx, result)]


@register_command
@resumable
class ClassicWandering(Command):
    """A wandering monster for dungeon ``level`` (``check``: roll the end-of-turn d6 first; a miss brings none)."""

    kind: Literal["toolbox_classic_wandering"] = "toolbox_classic_wandering"
    when: ClassVar[Phases] = TOOLBOX
    level: int
    party_size: int = 3
    check: bool = False
    meet: bool = False  # also roll the way it comes, surprise, distance and reaction
    entries: int = 0  # ways in it may come by (0 or 1: no roll)
    reaction_modifier: int = 0
    surprise: bool = True  # surprise possible (no light, no noise, no ESP)

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, cmon.MATRIX_TABLE)
        cmon.wandering_monster_inputs(self.level, self.party_size)
        events: list[Event] = []
        if self.check:
            on = rule_number(ctx.tables.library, ITEM_RULES_TABLE, "A wandering monster appears", cmon.WANDERING_ON)
            die = rule_die(ctx.tables.library, ITEM_RULES_TABLE, "Wandering monster check", cmon.WANDERING_DIE)
            checked = cmon.wandering_check(ctx.dice, on, die)
            events.append(Event.of(ClassicWanderingChecked(check=checked), checked.describe()))
            if not checked.appeared:
                return events
        monster = cmon.wandering_monster(ctx.tables, self.level, self.party_size)
        if self.meet:
            monster = cmon.meet_wandering(ctx.tables, monster, self.entries, self.reaction_modifier, self.surprise)
        return [
            *events,
            Event.of(ClassicWanderingMonster(monster=monster), monster.describe() + _sampled(monster)),
            *_missing(ctx, monster),
        ]


# --------------------------------------------------------------------------- a tool's missing row answered


@register_command
class ContinueToolRun(Command):
    """The player typed (``row``) or sampled (``sample``) the row a tool's roll ``entry`` of the dice history
    waits for: the row is saved (or the roll re-rolled among the printed rows) and the tool's run goes on from
    that roll on the same dice; its new result takes the old one's place (:mod:`.runs`)."""

    kind: Literal["toolbox_continue_run"] = "toolbox_continue_run"
    when: ClassVar[Phases] = TOOLBOX
    entry: int
    row: Row | None = None
    sample: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        return continue_run(ctx, self.entry, self.row, self.sample)


TOOLBOX_COMMANDS: tuple[type[Command], ...] = (
    ScarsAttack,
    ScarsModifyAttack,
    ScarsNextRound,
    ScarsStartEncounter,
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
    ClassicMagicItem,
    ClassicSword,
    ClassicEgoContest,
    ClassicGems,
    ClassicJewelry,
    ClassicHoard,
    ClassicWandering,
    ContinueToolRun,
    *CLASSIC_COMMANDS,
    *PROCEDURE_COMMANDS,
)
