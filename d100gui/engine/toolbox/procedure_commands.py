"""Commands of the referee's procedures (issue 22): underworld checks and turns, a sword taken up,
rings of spell storing and turning, items' saving throws, treasure in fire or lightning, hiring,
rumours, upkeep, baronies, and a Ritual cast in a d20 fight. Each is a few lines over the pure
functions of :mod:`.classic` and :mod:`.scars`; the underworld clock lives in ``ctx.campaign.toolbox``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from d100gui.engine.command_registry import register_command
from d100gui.engine.game import Command, GameContext
from d100gui.engine.phases import TOOLBOX, Phases
from d100gui.engine.protocol import CommandRefused, Event
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.classic import air_sea as cas
from d100gui.engine.toolbox.classic import hiring as ch
from d100gui.engine.toolbox.classic import items as ci
from d100gui.engine.toolbox.classic import swords as csw
from d100gui.engine.toolbox.classic import underworld as cu
from d100gui.engine.toolbox.classic.rules_data import a_die
from d100gui.engine.toolbox.context import keep_state as _keep
from d100gui.engine.toolbox.context import table_of as _table
from d100gui.engine.toolbox.events import (
    ClassicAerial,
    ClassicBaronyFounded,
    ClassicHired,
    ClassicItemSaved,
    ClassicNaval,
    ClassicRumoursBought,
    ClassicSpellStoring,
    ClassicSpellTurned,
    ClassicSwordPickedUp,
    ClassicTreasureHarmed,
    ClassicUnderworldChecked,
    ClassicUnderworldTurns,
    ClassicUpkeepDue,
    ScarsRitual,
)

__all__ = ["PROCEDURE_COMMANDS"]


@register_command
class ClassicUnderworldCheck(Command):
    """An underworld d6 check: force a door, seek or sense a secret door, listen, pass a trap, test spikes."""

    kind: Literal["toolbox_classic_underworld_check"] = "toolbox_classic_underworld_check"
    when: ClassVar[Phases] = TOOLBOX
    procedure: cu.Procedure
    race: cu.Race = "human"
    characters: int = 1  # forcing together (up to 3), passing the trap, or spikes in the door
    small: bool = False  # a smaller, lighter character forcing a door
    sound: bool = True  # listening: is there any sound to hear (undead make none)

    def apply(self, ctx: GameContext) -> list[Event]:
        table = _table(ctx, cu.CHECKS_TABLE)
        result = cu.check(
            ctx.dice, table, self.procedure, self.race, self.characters, self.small, self.sound, a_die(ctx.tables.library),
            cu.max_forcers(ctx.tables.library),
        )  # fmt: skip
        return [Event.of(ClassicUnderworldChecked(check=result), result.describe())]


@register_command
class ClassicUnderworldTurn(Command):
    """Turns underground: moving at ``speed`` inches, in flight (moves doubled, no mapping), other business, or rest."""

    kind: Literal["toolbox_classic_underworld_turn"] = "toolbox_classic_underworld_turn"
    when: ClassVar[Phases] = TOOLBOX
    activity: cu.Activity = "move"
    turns: int = 1
    speed: int = 6
    new_expedition: bool = False  # start counting afresh

    def apply(self, ctx: GameContext) -> list[Event]:
        table = _table(ctx, cu.TIME_TABLE)
        clock = cu.UnderworldClock() if self.new_expedition else ctx.campaign.toolbox.underworld
        step = cu.underworld_turns(table, clock, self.activity, self.turns, self.speed)
        _keep(ctx, underworld=step.clock)
        return [Event.of(ClassicUnderworldTurns(step=step, clock=step.clock), step.describe())]


@register_command
class ClassicSwordPickup(Command):
    """The latest sword taken up by a character of ``alignment`` (``npc``: directed to, half damage)."""

    kind: Literal["toolbox_classic_sword_pickup"] = "toolbox_classic_sword_pickup"
    when: ClassVar[Phases] = TOOLBOX
    alignment: csw.Alignment
    npc: bool = False
    intelligence: int = 0  # with strength: does the sword control them? (0: not compared)
    strength: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        sword = ctx.campaign.toolbox.sword
        if sword is None:
            raise CommandRefused("No sword yet: generate one with the Magic sword tool first.")
        _table(ctx, csw.ALIGNMENT_DAMAGE_TABLE)
        result = csw.pick_up(ctx.tables, sword, self.alignment, self.npc, self.intelligence, self.strength)
        return [Event.of(ClassicSwordPickedUp(pickup=result), result.describe())]


@register_command
class ClassicSpellRing(Command):
    """A ring of spell storing's contents, or a spell turned by a ring of spell turning (``effect``: its amount)."""

    kind: Literal["toolbox_classic_spell_ring"] = "toolbox_classic_spell_ring"
    when: ClassVar[Phases] = TOOLBOX
    ring: Literal["storing", "turning"] = "storing"
    effect: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ci.RINGS_TABLE)
        if self.ring == "storing":
            ring = ci.spell_storing(ctx.tables)
            return [Event.of(ClassicSpellStoring(ring=ring), ring.describe())]
        turned = ci.spell_turning(ctx.tables, self.effect)
        return [Event.of(ClassicSpellTurned(turning=turned), turned.describe())]


@register_command
class ClassicItemSave(Command):
    """A magic item's saving throw (d20) against fire or lightning."""

    kind: Literal["toolbox_classic_item_save"] = "toolbox_classic_item_save"
    when: ClassVar[Phases] = TOOLBOX
    item: str
    attack: ci.Attack = "fire"
    opposite: bool = False  # a wand hit by the opposite of what it throws

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ci.ITEM_SAVES_TABLE)
        result = ci.item_save(ctx.tables, self.item, self.attack, self.opposite)
        return [Event.of(ClassicItemSaved(save=result), result.describe())]


@register_command
class ClassicTreasureHarm(Command):
    """Gems and jewelry caught in fire or lightning (``optional_rule``: fire destroys gems on 10% each)."""

    kind: Literal["toolbox_classic_treasure_harm"] = "toolbox_classic_treasure_harm"
    when: ClassVar[Phases] = TOOLBOX
    attack: ci.Attack = "fire"
    gems: int = 0
    jewelry_value: int = 0
    optional_rule: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ci.TREASURE_HARM_TABLE)
        result = ci.harm_treasure(ctx.tables, self.attack, self.gems, self.jewelry_value, self.optional_rule)
        return [Event.of(ClassicTreasureHarmed(harm=result), result.describe())]


@register_command
class ClassicHire(Command):
    """Hire ``count`` specialists or men-at-arms for a time, with ``weeks`` of notices or servitors to find them."""

    kind: Literal["toolbox_classic_hire"] = "toolbox_classic_hire"
    when: ClassVar[Phases] = TOOLBOX
    specialist: str = ""  # a specialist by the table's key, or
    classification: str = ""  # men-at-arms by the table's key, with their race
    race: ch.Race = "man"
    count: int = 1
    periods: int = 1  # months (or missions, for a specialist priced by the mission)
    weeks: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ch.HIRING_TABLE)
        if bool(self.specialist) == bool(self.classification):
            raise CommandRefused("Choose a specialist or a classification of men-at-arms (one of them).")
        if self.specialist:
            _table(ctx, ch.SPECIALISTS_TABLE)
            hired = ch.hire_specialist(ctx.tables, self.specialist, self.count, self.periods, self.weeks)
        else:
            _table(ctx, ch.MEN_AT_ARMS_TABLE)
            hired = ch.hire_men_at_arms(ctx.tables, self.classification, self.race, self.count, self.periods, self.weeks)
        return [Event.of(ClassicHired(hiring=hired), hired.describe())]


@register_command
class ClassicRumours(Command):
    """Make the rounds of the taverns: ``rounds`` rounds of drinks and (``barman``) a few coins for the barman."""

    kind: Literal["toolbox_classic_rumours"] = "toolbox_classic_rumours"
    when: ClassVar[Phases] = TOOLBOX
    rounds: int = 1
    barman: bool = True

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ch.HIRING_TABLE)
        result = ch.rumours(ctx.tables, self.rounds, self.barman)
        return [Event.of(ClassicRumoursBought(rumours=result), result.describe())]


@register_command
class ClassicUpkeep(Command):
    """A character's support and upkeep from their experience, by where their stronghold is (if any)."""

    kind: Literal["toolbox_classic_upkeep"] = "toolbox_classic_upkeep"
    when: ClassVar[Phases] = TOOLBOX
    xp: int
    stronghold: ch.Stronghold = "none"

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ch.HIRING_TABLE)
        result = ch.upkeep(ctx.tables, self.xp, self.stronghold)
        return [Event.of(ClassicUpkeepDue(upkeep=result), result.describe())]


@register_command
class ClassicBarony(Command):
    """A stronghold's new territory: its villages, their people and the annual tax."""

    kind: Literal["toolbox_classic_barony"] = "toolbox_classic_barony"
    when: ClassVar[Phases] = TOOLBOX

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, ch.BARONY_TABLE)
        result = ch.barony(ctx.tables)
        return [Event.of(ClassicBaronyFounded(barony=result), result.describe())]


@register_command
class ScarsRitualCheck(Command):
    """Perform a Ritual in a d20 fight: Cunning, and over the ``damage`` taken before the caster's go.

    A caster who is a fighter of the tracked fight (``name``) takes the damage from the tracker, what they took
    this Round so far, not ``damage``; ``in_encounter`` insists on it (refused without such a fighter)."""

    kind: Literal["toolbox_scars_ritual"] = "toolbox_scars_ritual"
    when: ClassVar[Phases] = TOOLBOX
    cunning: int
    damage: int = 0
    moved: bool = False
    name: str = ""
    in_encounter: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        fight = ctx.campaign.toolbox.scars_encounter
        tracked = fight is not None and any(f.name == self.name.strip() for f in fight.fighters)
        if self.in_encounter and fight is None:
            raise CommandRefused("No scars fight is being tracked: start one with its fighters first.")
        if fight is not None and (tracked or self.in_encounter):
            result = sc.encounter_ritual(
                fight, ctx.dice, self.name.strip(), self.cunning, self.moved, sc.scars_numbers(ctx.tables.library).die
            )
            return [Event.of(ScarsRitual(result=result), result.describe())]
        result = sc.ritual_check(
            ctx.dice, self.cunning, self.damage, self.moved, self.name, sc.scars_numbers(ctx.tables.library).die
        )
        return [Event.of(ScarsRitual(result=result), result.describe())]


@register_command
class ClassicAerialCombat(Command):
    """A flyer crashes from ``height`` inches, or a bomb falls."""

    kind: Literal["toolbox_classic_aerial"] = "toolbox_classic_aerial"
    when: ClassVar[Phases] = TOOLBOX
    action: Literal["crash", "bomb"] = "crash"
    height: int = 1

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, cas.AIR_SEA_TABLE)
        if self.action == "crash":
            fell = cas.crash(ctx.tables, self.height)
            return [Event.of(ClassicAerial(crash=fell), fell.describe())]
        dropped = cas.bomb(ctx.tables)
        return [Event.of(ClassicAerial(bombing=dropped), dropped.describe())]


@register_command
class ClassicNavalCombat(Command):
    """A naval procedure: water shipped, a ram, a patch, grappling or cutting a grapple, oars sheared."""

    kind: Literal["toolbox_classic_naval"] = "toolbox_classic_naval"
    when: ClassVar[Phases] = TOOLBOX
    action: cas.NavalKind = "grapple"
    turns: int = 1
    speed_lost: int = 0
    side: bool = True  # a ram: in the side (else astern or bow on)
    oared: bool = True
    crew: int = 0
    attempts: int = 1
    rowers: int = 0
    sheared_before: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        _table(ctx, cas.AIR_SEA_TABLE)
        done = cas.naval(
            ctx.tables, self.action, self.turns, self.speed_lost, self.side, self.oared, self.crew, self.attempts,
            self.rowers, self.sheared_before,
        )  # fmt: skip
        return [Event.of(ClassicNaval(action=done), done.describe())]


PROCEDURE_COMMANDS: tuple[type[Command], ...] = (
    ClassicUnderworldCheck,
    ClassicUnderworldTurn,
    ClassicSwordPickup,
    ClassicSpellRing,
    ClassicItemSave,
    ClassicTreasureHarm,
    ClassicHire,
    ClassicRumours,
    ClassicUpkeep,
    ClassicBarony,
    ScarsRitualCheck,
    ClassicAerialCombat,
    ClassicNavalCombat,
)
