"""The time track's procedure: ``+N`` shades N clocks one by one and fires each clock's triggers in order.

* oil: a flask is spent; with none the hero is in darkness (every characteristic takes the
  rules' darkness modifier, see :func:`~d100gui.engine.hero.derive.derive`) until a flask is
  spent again, at an oil symbol or sooner with :func:`light_lantern`;
* food: a ration is eaten; with none the hero loses HP;
* wandering monster: a d10 at or under the printed number rolls Table E with the quest's
  encounter modifier, clamped into the table's range, and offers the fight (a
  :class:`~.events.FightOffered`); the clocks still to shade wait until it is over;
* the last clock: :func:`~d100gui.engine.hero.time_track.advance_time` clears the clocks and
  the time-track bonuses, then poison and disease are checked (:func:`check_afflictions`).

Every loss of HP goes through the HP-zero rule (:func:`~d100gui.engine.hero.health.cheat_death`); a death ends
the procedure. :func:`pass_time` changes only the character; the command stores the offered
fight and lays a dead hero to rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from d100gui.engine.dice.dice import Dice
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.hero.events import DeathCheated, HeroFell
from d100gui.engine.hero.health import cheat_death
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.time_track import FiredTrigger, advance_time
from d100gui.engine.protocol import Told
from d100gui.engine.quest.events import (
    AfflictionChecked,
    FightOffered,
    FoodEaten,
    LanternLit,
    OilBurned,
    TrackRefreshed,
    WanderingChecked,
)
from d100gui.engine.quest.model import AdventureRules
from d100gui.engine.rules.model import Rules


@dataclass
class TimeOutcome:
    """What ``+N`` did: every trigger's result in order, the clocks shaded, and why it stopped early."""

    steps: list[Told] = field(default_factory=list)
    triggers: list[FiredTrigger] = field(default_factory=list)
    shaded: int = 0
    clocks_left: int = 0  # clocks still to shade once the offered fight is over
    fight: FightOffered | None = None
    fell: HeroFell | None = None


class _Procedure:
    """One run of the procedure: the character, the rules, the dice and the steps so far."""

    def __init__(self, ch: Character, rules: Rules, arules: AdventureRules, dice: Dice, tables: TableRoller) -> None:
        self.ch, self.rules, self.arules, self.dice, self.tables = ch, rules, arules, dice, tables
        self.out = TimeOutcome()

    def lose_hp(self, amount: int, source: str) -> None:
        self.ch.hp -= amount
        saved = cheat_death(self.ch, self.rules, source)
        if isinstance(saved, DeathCheated):
            self.out.steps.append(saved)
        elif isinstance(saved, HeroFell):
            self.out.steps.append(saved)
            self.out.fell = saved

    def oil(self, clock: int) -> None:
        ch, need = self.ch, self.arules.oil_per_trigger
        if ch.supplies.oil >= need:
            ch.supplies.oil -= need
            lit_again, ch.in_darkness = ch.in_darkness, False
            self.out.steps.append(OilBurned(clock=clock, spent=True, oil=ch.supplies.oil, in_darkness=False, lit_again=lit_again))
        else:
            ch.in_darkness = True
            self.out.steps.append(OilBurned(clock=clock, spent=False, oil=ch.supplies.oil, in_darkness=True))

    def food(self, clock: int) -> None:
        ch, need = self.ch, self.arules.food_per_trigger
        if ch.supplies.food >= need:
            ch.supplies.food -= need
            self.out.steps.append(FoodEaten(clock=clock, spent=True, food=ch.supplies.food))
            return
        lost = self.arules.hunger_hp
        self.out.steps.append(FoodEaten(clock=clock, spent=False, food=ch.supplies.food, hp_lost=lost, hp=ch.hp - lost))
        self.lose_hp(lost, "no food")

    def wandering(self, clock: int, number: int) -> None:
        roll = self.dice.roll(self.arules.check_die, f"Wandering monster (clock {clock})")
        appeared = roll.final <= number
        self.out.steps.append(WanderingChecked(clock=clock, number=number, roll=roll, appeared=appeared))
        if appeared:
            self.out.fight = offer_encounter(self.ch, self.arules, self.tables, clock)
            self.out.steps.append(self.out.fight)

    def refresh(self, clock: int, bonuses: int, hp_lost: int = 0) -> None:
        hp = self.ch.hp if hp_lost else None  # an HP bonus that ended: told with its typed figures (the statistics)
        self.out.steps.append(TrackRefreshed(clock=clock, bonuses_cleared=bonuses, hp_lost=hp_lost, hp=hp))
        for step in check_afflictions(self.ch, self.rules, self.arules, self.dice):
            self.out.steps.append(step)
            if isinstance(step, HeroFell):
                self.out.fell = step
                return

    def clock(self) -> None:
        bonuses, hp = len(self.ch.time_track.bonuses), self.ch.hp
        fired = advance_time(self.ch, self.rules, 1)
        self.out.shaded += 1
        self.out.triggers += fired
        for trigger in fired:
            if trigger.kind == "oil":
                self.oil(trigger.clock)
            elif trigger.kind == "food":
                self.food(trigger.clock)
            elif trigger.kind == "wandering" and trigger.number is not None:
                self.wandering(trigger.clock, trigger.number)
            elif trigger.kind == "refresh":
                self.refresh(trigger.clock, bonuses, max(0, hp - self.ch.hp))
            if self.out.fell is not None:
                return


def pass_time(
    character: Character, rules: Rules, arules: AdventureRules, dice: Dice, tables: TableRoller, clocks: int
) -> TimeOutcome:
    """Shade ``clocks`` clocks one by one, firing each clock's triggers in order.

    A clock's triggers all fire; a wandering monster then stops the procedure, leaving
    ``clocks_left`` for after the fight. A death stops it at once.
    """
    run = _Procedure(character, rules, arules, dice, tables)
    for n in range(max(0, clocks)):
        run.clock()
        if run.out.fell is not None:
            break
        if run.out.fight is not None:
            run.out.clocks_left = clocks - n - 1
            break
    return run.out


def offer_encounter(character: Character, arules: AdventureRules, tables: TableRoller, clock: int) -> FightOffered:
    """Roll Table E with the quest's encounter modifier, clamped into the table's range; the fight is offered."""
    result = tables.roll(
        arules.encounter_table,
        "Wandering monster",
        modifier=character.quest_encounter_modifier,
        modifier_label="quest encounter modifier",
    )
    missing = list(result.missing) if result.missing else []
    return FightOffered(table_roll=result, clock=clock, missing=missing)


def check_afflictions(character: Character, rules: Rules, arules: AdventureRules, dice: Dice) -> list[Told]:
    """A refresh's poison and disease checks: d10 at or under the shaded pips costs HP; poison then loses pips.

    A track with no pips is not rolled (no d10 can be at or under 0). Each loss of HP goes
    through the HP-zero rule; a death ends the checks.
    """
    steps: list[Told] = []
    checks: tuple[tuple[Literal["poison", "disease"], int, int], ...] = (
        ("poison", arules.poison_hp, arules.poison_pips_lost),
        ("disease", arules.disease_hp, 0),
    )
    for track, hp, pips_lost in checks:
        pips = int(getattr(character, track))
        if pips <= 0:
            continue
        roll = dice.roll(arules.check_die, f"{track.capitalize()} check")
        hit = roll.final <= pips
        after = max(0, pips - pips_lost) if hit else pips
        if hit:
            character.hp -= hp
            setattr(character, track, after)
        steps.append(
            AfflictionChecked(
                track=track, pips=pips, roll=roll, hit=hit, hp_lost=hp if hit else 0, hp=character.hp, pips_after=after
            )
        )
        saved = cheat_death(character, rules, f"{track} check") if hit else None
        if saved is not None:
            steps.append(saved)
            if isinstance(saved, HeroFell):
                break
    return steps


def light_lantern(character: Character, arules: AdventureRules) -> LanternLit | None:
    """In darkness with oil: spend a flask now and end the darkness. None when there is no darkness or no oil."""
    if not character.in_darkness or character.supplies.oil < arules.oil_per_trigger:
        return None
    character.supplies.oil -= arules.oil_per_trigger
    character.in_darkness = False
    return LanternLit(oil=character.supplies.oil)
