"""The d20 scars combat system: roll-under attacks, initiative, morale, reactions and scars.

In our own words: an attack is a d20 that must come in at or under the attacker's attribute
and above the target's Armour Class. Landing exactly on the attribute stuns the target and
gives another attack; landing exactly on the AC does no damage but knocks the AC down by one
(the armour breaks at 0). Once per round an adventurer may shift one of their rolls by as
many points as they have Scars. Dropping to 0 health earns a Scar and a 2d6 roll against the
Scars: at or under is death, over means waking at 1 health some rounds later.

Everything here is a pure function of its inputs and the injected dice; the
:class:`ScarsEncounter` model keeps what a fight remembers (ACs knocked down, who used the
Scars modifier this round, who rallied) and round-trips through JSON. Where the text leaves a
point open, the choice is noted on the function that makes it.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import Field

from d100gui.engine.dice.dice import Dice, Modifier, RollRecord
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import rule_die, rule_fraction, rule_number, rule_text
from d100gui.engine.toolbox.inputs import ToolInputError, dice_expression, in_range

REACTION_TABLE = "d20.reaction"
REACTION_DIE = "2d6"  # the reaction table's die as the text prints it, for a summary without the table
ATTRIBUTE_RANGE = (1, 20)
AC_RANGE = (0, 20)
MAX_SCARS = 99  # the wake-up roll is Xd6 with X the Scars: the dice roller takes up to 100 dice
MORALE_BASE = 10
#: the checks' dice and numbers as data; the text's (below) when the player's tables lack a row
RULES_TABLE = "d20.rules"
DISTANCE_DIE, DISTANCE_TIMES = "2d6", 10
SCARS_CHECK_DIE = "2d6"
WAKE_SIDES = 6  # Xd6 Rounds unconscious, X the Scars
PACK_SEARCH_DIE = "1d3"
ENCOUNTER_DIE, ENCOUNTER_ON = "1d6", 1
ARMOUR_LOSS = 1  # "reduce their AC by 1 for the rest of the encounter": d20.rules' "AC lost on an exact roll"
ARMOUR_BREAKS_AT = 0  # "Armour breaks when the AC reaches 0."
MORALE_AT = 0.5  # "Roll morale for enemies when they reach half health"
SYSTEM_DIE = "1d20"  # the die of attacks, initiative, morale, pack searches and Rituals: d20.rules' "The d20"
TURN_MINUTES, WATCH_HOURS = 10, 6  # "An exploration Turn is approximately ten minutes", "6 hour Watches"
MAX_CLOCK_STEPS = 100  # Turns or Watches passed on the scars clock in one go

__all__ = [
    "REACTION_TABLE",
    "AttackOutcome",
    "AttackResult",
    "DistanceResult",
    "HirelingMoraleResult",
    "InitiativeResult",
    "MoraleOutcome",
    "MoraleResult",
    "PackOutcome",
    "PackRetrievalResult",
    "ReactionResult",
    "RitualResult",
    "ScarsClock",
    "ScarsClockStep",
    "ScarsEncounter",
    "ScarsFighter",
    "ScarsNumbers",
    "ScarsSign",
    "Side",
    "ZeroHealthResult",
    "advance_scars_clock",
    "encounter_attack",
    "encounter_modify_attack",
    "encounter_morale",
    "encounter_ritual",
    "encounter_zero_health",
    "hireling_morale_check",
    "judge_attack",
    "modify_attack",
    "morale_check",
    "morale_due",
    "next_round",
    "resolve_attack",
    "retrieve_from_pack",
    "ritual_check",
    "roll_encounter_distance",
    "roll_initiative",
    "roll_reaction",
    "scars_modifier",
    "scars_numbers",
    "scars_time",
    "zero_health",
]


def _attribute(name: str, value: int) -> int:
    return in_range(name, value, *ATTRIBUTE_RANGE)


def _who(name: str) -> str:
    return f"{name}: " if name else ""


# --------------------------------------------------------------------------- attacks


class AttackOutcome(StrEnum):
    """How an attack roll lands."""

    HIT = "hit"  # at or under the attribute and above the AC: roll damage
    STUN = "stun"  # exactly the attribute (and above the AC): damage, the target is stunned, attack again
    ARMOUR = "armour"  # exactly the AC (and not over the attribute): no damage, AC -1
    MISS = "miss"


class ScarsSign(StrEnum):
    """Whether the once-per-round Scars modifier is used on a roll, and which way."""

    NONE = "none"
    PLUS = "plus"
    MINUS = "minus"


def scars_modifier(scars: int, sign: ScarsSign) -> int:
    """The Scars modifier: +X or -X where X is the number of Scars (0 when not used).

    Choice: the shift is the full X either way, not any amount up to X ("modify by +/- X").
    """
    in_range("Scars", scars, 0, MAX_SCARS)
    if sign is ScarsSign.NONE:
        return 0
    if scars == 0:
        raise ToolInputError("The Scars modifier needs at least 1 Scar (it is +/- the number of Scars).")
    return scars if sign is ScarsSign.PLUS else -scars


def judge_attack(result: int, attribute: int, armour_class: int) -> AttackOutcome:
    """The outcome of an attack roll whose result (after any Scars modifier) is ``result``.

    Choices (the text lists the cases without ranking them): a result over the attribute is a
    miss whatever else it equals; exactly the AC (AC 1 or more) is the armour result even when
    it is also exactly the attribute; at or under the AC is a miss; exactly the attribute above
    the AC is a hit that also stuns and grants another attack.
    """
    if result > attribute:
        return AttackOutcome.MISS
    if armour_class >= 1 and result == armour_class:
        return AttackOutcome.ARMOUR
    if result <= armour_class:
        return AttackOutcome.MISS
    if result == attribute:
        return AttackOutcome.STUN
    return AttackOutcome.HIT


class AttackResult(Model):
    """One attack: the d20 (with the Scars modifier as a modifier), the outcome, damage and armour."""

    attacker: str = ""
    target: str = ""
    attribute: int
    armour_class: int
    weapon: str = "1d6"  # the damage dice
    roll: RollRecord
    outcome: AttackOutcome
    damage: RollRecord | None = None
    new_armour_class: int
    armour_broken: bool = False
    armour_loss: int = ARMOUR_LOSS  # the AC an exact roll on it knocks off (the rules table's)
    armour_breaks_at: int = ARMOUR_BREAKS_AT  # the AC at which armour breaks (the rules table's)
    # filled when the attack is made inside a ScarsEncounter
    target_health: int | None = None
    morale_due: bool = False  # this attack brought an enemy to half health: test its morale
    zero_health_due: bool = False  # an adventurer has just reached 0 health: make the scars check

    @property
    def result(self) -> int:
        return self.roll.final

    @property
    def damage_dealt(self) -> int:
        return self.damage.final if self.damage is not None else 0

    @property
    def extra_attack(self) -> bool:
        return self.outcome is AttackOutcome.STUN

    def describe(self) -> str:
        head = f"{self.attacker} attacks {self.target}: " if self.attacker and self.target else "Attack: "
        roll = f"{_die(self.roll)} {self.roll.natural}" + (f" -> {self.result}" if self.result != self.roll.natural else "")
        vs = f"(attribute {self.attribute}, AC {self.armour_class})"
        if self.outcome is AttackOutcome.MISS:
            tail = "miss"
        elif self.outcome is AttackOutcome.ARMOUR:
            tail = f"struck the armour: no damage, AC {self.armour_class} -> {self.new_armour_class}"
            tail += ", the armour breaks" if self.armour_broken else ""
        else:
            tail = f"hit for {self.damage_dealt}"
            tail += ", target stunned, attack again" if self.outcome is AttackOutcome.STUN else ""
        extra = ""
        if self.target_health is not None and self.outcome in (AttackOutcome.HIT, AttackOutcome.STUN):
            extra = f" (health {self.target_health})"
        if self.morale_due:
            extra += "; half health: test morale"
        if self.zero_health_due:
            extra += "; 0 health: make the scars check"
        return f"{head}{roll} {vs}: {tail}{extra}."


def _judged(dice: Dice, roll: RollRecord, base: AttackResult, damage: RollRecord | None = None) -> AttackResult:
    """``base`` judged on ``roll``: damage rolled on a hit or stun (``damage`` kept when already rolled)."""
    outcome = judge_attack(roll.final, base.attribute, base.armour_class)
    rolled = None
    if outcome in (AttackOutcome.HIT, AttackOutcome.STUN):
        rolled = damage if damage is not None else dice.roll(base.weapon, f"{_who(base.attacker)}damage")
    new_ac = max(0, base.armour_class - base.armour_loss) if outcome is AttackOutcome.ARMOUR else base.armour_class
    return base.model_copy(
        update={
            "roll": roll,
            "outcome": outcome,
            "damage": rolled,
            "new_armour_class": new_ac,
            "armour_broken": outcome is AttackOutcome.ARMOUR and new_ac <= base.armour_breaks_at,
        }
    )


def resolve_attack(
    dice: Dice,
    attribute: int,
    armour_class: int,
    damage: str = "1d6",
    modifier: int = 0,
    attacker: str = "",
    target: str = "",
    die: str = SYSTEM_DIE,
    numbers: ScarsNumbers | None = None,
) -> AttackResult:
    """Roll one attack: d20 (plus ``modifier``, the Scars modifier) against ``attribute`` and ``armour_class``.

    Enemy attacks use the same roll with the enemy's Attack as ``attribute``. Damage is rolled
    with ``damage`` (the weapon's dice) on a hit or a stun. Choice: the result may go below 1
    or above 20 with the modifier; it is compared as it is, not clamped.
    """
    _attribute("Attribute", attribute)
    in_range("Armour Class", armour_class, *AC_RANGE)
    in_range("Scars modifier", modifier, -MAX_SCARS, MAX_SCARS)
    weapon = dice_expression("Damage", damage)
    mods = [("Scars", modifier)] if modifier else []
    roll = dice.roll(die, f"{_who(attacker)}attack", mods)
    base = AttackResult(
        attacker=attacker,
        target=target,
        attribute=attribute,
        armour_class=armour_class,
        weapon=weapon,
        roll=roll,
        outcome=AttackOutcome.MISS,
        new_armour_class=armour_class,
        armour_loss=(numbers or ScarsNumbers()).armour_loss,
        armour_breaks_at=(numbers or ScarsNumbers()).armour_breaks_at,
    )
    return _judged(dice, roll, base)


def modify_attack(dice: Dice, attack: AttackResult, modifier: int) -> AttackResult:
    """The attack judged again with the Scars modifier added to its d20, after the roll was seen.

    The d20 is not rolled again; damage already rolled is kept, and rolled now if the shift
    turns a miss into a hit. Choice: the modifier may be used before the roll (as
    ``resolve_attack``'s ``modifier``) or after it, since the text only says a roll may be
    modified; the once-per-round limit is the same either way.
    """
    if any(m.label == "Scars" for m in attack.roll.modifiers):
        raise ToolInputError("This roll already carries the Scars modifier.")
    if modifier == 0:
        raise ToolInputError("Choose + or - to use the Scars modifier.")
    in_range("Scars modifier", modifier, -MAX_SCARS, MAX_SCARS)
    roll = attack.roll.model_copy(
        update={
            "modifiers": [*attack.roll.modifiers, Modifier(label="Scars", value=modifier)],
            "final": attack.roll.final + modifier,
        }
    )
    return _judged(dice, roll, attack, attack.damage)


# --------------------------------------------------------------------------- the encounter


class Side(StrEnum):
    ADVENTURER = "adventurer"
    ENEMY = "enemy"


SIDE_PLURAL = {Side.ADVENTURER: "adventurers", Side.ENEMY: "enemies"}


class ScarsFighter(Model):
    """One fighter as the encounter remembers them."""

    name: str
    side: Side = Side.ADVENTURER
    armour_class: int = Field(default=0, ge=AC_RANGE[0], le=AC_RANGE[1])
    health: int = Field(default=1, ge=0)
    max_health: int = Field(default=1, ge=1)
    scars: int = Field(default=0, ge=0, le=MAX_SCARS)  # adventurers
    hd: int = Field(default=0, ge=0)  # enemies
    modifier_used: bool = False  # the Scars modifier, once per initiative round
    stunned: bool = False  # until the next round
    rallied: bool = False  # rolled exactly 10 + HD: an extra attack next round, no more morale tests
    rally_attack_next_round: bool = False  # a rally's extra attack, granted when the next round starts
    extra_attacks: int = 0  # extra attacks granted for the current round (a rally's)
    morale_tested: bool = False
    fled: bool = False
    down: bool = False  # at 0 health
    dead: bool = False
    wakes_in_rounds: int | None = None  # an adventurer down but alive: rounds until they wake at 1 health
    damage_this_round: int = Field(default=0, ge=0)  # damage taken this Round so far (a Ritual must roll over it)

    @property
    def armour_broken(self) -> bool:
        return self.armour_class == 0


class ScarsEncounter(Model):
    """A fight in the d20 scars system: the round and each fighter's state (saved with the campaign)."""

    round: int = 1
    fighters: list[ScarsFighter] = Field(default_factory=list)
    last_attack: AttackResult | None = None  # the latest attack this round (its attacker may still shift it with Scars)
    last_target: ScarsFighter | None = None  # that attack's target as they were before it
    surprised: Side | None = None  # the side surprised when combat began: it takes no actions in Round 1
    morale_at: float = MORALE_AT  # the share of health that brings a morale test (d20.rules' "half health")

    @property
    def surprise_note(self) -> str:
        """In Round 1 of a fight begun with a side surprised: who takes no actions ("" otherwise)."""
        if self.round != 1 or self.surprised is None:
            return ""
        return f"the {SIDE_PLURAL[self.surprised]} were surprised: no actions for them this Round"

    def fighter(self, name: str) -> ScarsFighter:
        for fighter in self.fighters:
            if fighter.name == name:
                return fighter
        known = ", ".join(f.name for f in self.fighters) or "nobody yet"
        raise ToolInputError(f"There is no fighter named {name!r} in this encounter (fighters: {known}).")

    def replaced(self, fighter: ScarsFighter) -> ScarsEncounter:
        """This encounter with ``fighter`` in place of the fighter of the same name."""
        return self.model_copy(update={"fighters": [fighter if f.name == fighter.name else f for f in self.fighters]})


def morale_due(health: int, max_health: int, at: float = MORALE_AT) -> bool:
    """Whether an enemy at ``health`` of ``max_health`` has reached half health (``at``, the rules table's share).

    Choice: at or under half, rounding in the enemy's favour (5 of 10 is half; 4 of 9 is).
    """
    return 0 < health and health <= max_health * at


def _able(fighter: ScarsFighter, doing: str) -> None:
    if fighter.dead or fighter.down or fighter.fled:
        state = "dead" if fighter.dead else "down" if fighter.down else "gone (fled)"
        raise ToolInputError(f"{fighter.name} is {state} and cannot {doing}.")


def encounter_attack(
    encounter: ScarsEncounter,
    dice: Dice,
    attacker: str,
    target: str,
    attribute: int,
    damage: str = "1d6",
    scars: ScarsSign = ScarsSign.NONE,
    die: str = SYSTEM_DIE,
    numbers: ScarsNumbers | None = None,
) -> tuple[ScarsEncounter, AttackResult]:
    """An attack inside an encounter: the target's current AC, the Scars modifier once per round.

    The target loses the damage (not below 0); an armour result lowers their AC for the rest
    of the encounter; a stun marks them stunned until the next round. The result says when
    the target must now test morale (an enemy at half health) or make the scars check (an
    adventurer at 0 health).
    """
    striker = encounter.fighter(attacker)
    struck = encounter.fighter(target)
    if striker.name == struck.name:
        raise ToolInputError(f"{striker.name} cannot attack themselves.")
    _able(striker, "attack")
    if encounter.round == 1 and striker.side is encounter.surprised:
        raise ToolInputError(f"{striker.name} was surprised: the surprised side takes no actions in the first combat Round.")
    if struck.dead:
        raise ToolInputError(f"{struck.name} is already dead.")
    if scars is not ScarsSign.NONE:
        if striker.side is Side.ENEMY:
            raise ToolInputError("Only adventurers have Scars to modify a roll with.")
        if striker.modifier_used:
            raise ToolInputError(f"{striker.name} has already used the Scars modifier this round (once per initiative round).")
    modifier = scars_modifier(striker.scars, scars)
    result = resolve_attack(dice, attribute, struck.armour_class, damage, modifier, striker.name, struck.name, die, numbers)
    return _land(encounter, striker, struck, result, modifier != 0)


def _land(
    encounter: ScarsEncounter, striker: ScarsFighter, struck: ScarsFighter, result: AttackResult, used: bool
) -> tuple[ScarsEncounter, AttackResult]:
    """The encounter after ``result`` lands on ``struck`` (as they were before it)."""
    health = max(0, struck.health - result.damage_dealt)
    hit = struck.model_copy(
        update={
            "armour_class": result.new_armour_class,
            "health": health,
            "stunned": struck.stunned or result.outcome is AttackOutcome.STUN,
            "down": struck.down or health == 0,
            "damage_this_round": struck.damage_this_round + result.damage_dealt,
        }
    )
    at = encounter.morale_at
    reached_half = morale_due(health, hit.max_health, at) and not morale_due(struck.health, struck.max_health, at)
    due = hit.side is Side.ENEMY and not hit.rallied and not hit.morale_tested and reached_half
    result = result.model_copy(
        update={
            "target_health": health,
            "morale_due": due,
            "zero_health_due": hit.side is Side.ADVENTURER and health == 0 and not struck.down,
        }
    )
    striker = striker.model_copy(update={"modifier_used": striker.modifier_used or used})
    after = encounter.replaced(striker).replaced(hit)
    return after.model_copy(update={"last_attack": result, "last_target": struck}), result


def encounter_modify_attack(encounter: ScarsEncounter, dice: Dice, sign: ScarsSign) -> tuple[ScarsEncounter, AttackResult]:
    """Shift the encounter's latest attack by its attacker's Scars, after seeing the d20.

    The attack is taken back (the target as it was before it) and lands again with the new
    result. Only the latest attack of the round can be shifted: a later attack, or a new
    round, closes it.
    """
    last, before = encounter.last_attack, encounter.last_target
    if last is None or before is None:
        raise ToolInputError("There is no attack this round to use the Scars modifier on.")
    striker = encounter.fighter(last.attacker)
    if striker.side is Side.ENEMY:
        raise ToolInputError("Only adventurers have Scars to modify a roll with.")
    if striker.modifier_used:
        raise ToolInputError(f"{striker.name} has already used the Scars modifier this round (once per initiative round).")
    if sign is ScarsSign.NONE:
        raise ToolInputError("Choose + or - to use the Scars modifier.")
    result = modify_attack(dice, last, scars_modifier(striker.scars, sign))
    base = result.model_copy(update={"target_health": None, "morale_due": False, "zero_health_due": False})
    return _land(encounter, striker, before, base, True)


def next_round(encounter: ScarsEncounter) -> ScarsEncounter:
    """The next initiative round: Scars modifiers come back, stuns wear off, a rally's extra attack
    applies, and an adventurer whose wake-up count runs out wakes at 1 health."""
    fighters = []
    for f in encounter.fighters:
        update: dict[str, object] = {
            "modifier_used": False,
            "stunned": False,
            "extra_attacks": 1 if f.rally_attack_next_round else 0,
            "rally_attack_next_round": False,
            "damage_this_round": 0,
        }
        if f.wakes_in_rounds is not None and not f.dead:
            left = f.wakes_in_rounds - 1
            if left <= 0:
                update.update({"wakes_in_rounds": None, "down": False, "health": 1})
            else:
                update["wakes_in_rounds"] = left
        fighters.append(f.model_copy(update=update))
    return ScarsEncounter(round=encounter.round + 1, fighters=fighters)  # the last attack can no longer be shifted


# --------------------------------------------------------------------------- initiative


class InitiativeResult(Model):
    """An initiative roll: d20 against Agility; at or under acts before the enemies."""

    name: str = ""
    agility: int
    roll: RollRecord
    acts_first: bool
    quick_action: bool  # rolled the Agility exactly: one quick action before combat starts

    def describe(self) -> str:
        when = "acts before the enemies" if self.acts_first else "acts after the enemies"
        quick = ", and may take one quick action before combat" if self.quick_action else ""
        return f"{_who(self.name)}initiative {_die(self.roll)} {self.roll.final} vs Agility {self.agility}: {when}{quick}."


def roll_initiative(dice: Dice, agility: int, name: str = "", die: str = SYSTEM_DIE) -> InitiativeResult:
    """Roll initiative for one adventurer.

    Choice: "roll under" is read as at or under (as attacks are), so the exact roll, which
    earns the quick action, also acts before the enemies.
    """
    _attribute("Agility", agility)
    roll = dice.roll(die, f"{_who(name)}initiative")
    return InitiativeResult(
        name=name, agility=agility, roll=roll, acts_first=roll.final <= agility, quick_action=roll.final == agility
    )


# --------------------------------------------------------------------------- morale


class MoraleOutcome(StrEnum):
    STAND = "stand"  # under 10 + HD: keeps fighting
    RALLY = "rally"  # exactly 10 + HD: keeps fighting, an extra attack next round, no more morale tests
    FLEE = "flee"  # over: flees or surrenders at the first chance


class MoraleResult(Model):
    """An enemy's morale test: d20 against 10 + HD."""

    name: str = ""
    hd: int
    target: int
    roll: RollRecord
    outcome: MoraleOutcome

    def describe(self) -> str:
        said = {
            MoraleOutcome.STAND: "stands and fights",
            MoraleOutcome.RALLY: "rallies: an extra attack next round, and no more morale tests this encounter",
            MoraleOutcome.FLEE: "breaks: flees or surrenders at the first chance",
        }[self.outcome]
        return f"{_who(self.name)}morale {_die(self.roll)} {self.roll.final} vs {self.target} ({self.target - self.hd} + HD {self.hd}): {said}."


def morale_check(dice: Dice, hd: int, name: str = "", base: int = MORALE_BASE, die: str = SYSTEM_DIE) -> MoraleResult:
    """Test an enemy's morale.

    Choice: under is strictly under 10 + HD; exactly 10 + HD is the rally; over is a rout. An
    enemy of 10 HD or more never routs (a d20 cannot beat 20).
    """
    in_range("HD", hd, 0)
    target = base + hd
    roll = dice.roll(die, f"{_who(name)}morale")
    outcome = MoraleOutcome.RALLY if roll.final == target else MoraleOutcome.STAND if roll.final < target else MoraleOutcome.FLEE
    return MoraleResult(name=name, hd=hd, target=target, roll=roll, outcome=outcome)


def encounter_morale(
    encounter: ScarsEncounter, dice: Dice, name: str, base: int = MORALE_BASE, die: str = SYSTEM_DIE
) -> tuple[ScarsEncounter, MoraleResult]:
    """Test an enemy's morale inside an encounter; a rallied enemy is never tested again."""
    enemy = encounter.fighter(name)
    if enemy.side is not Side.ENEMY:
        raise ToolInputError(f"{enemy.name} is an adventurer: morale is tested for enemies (hirelings have their own test).")
    _able(enemy, "test morale")
    if enemy.rallied:
        raise ToolInputError(f"{enemy.name} rallied and does not test morale again this encounter.")
    result = morale_check(dice, enemy.hd, enemy.name, base, die)
    update: dict[str, object] = {"morale_tested": True}
    if result.outcome is MoraleOutcome.RALLY:
        update.update({"rallied": True, "rally_attack_next_round": True})
    elif result.outcome is MoraleOutcome.FLEE:
        update["fled"] = True
    after = encounter.replaced(enemy.model_copy(update=update))
    return after.model_copy(update={"last_attack": None, "last_target": None}), result


class HirelingMoraleResult(Model):
    """A hireling's morale: a d20 at or under the employer's Cunning and over the hireling's HD holds."""

    name: str = ""
    cunning: int
    hd: int
    roll: RollRecord
    holds: bool

    def describe(self) -> str:
        said = "stays loyal" if self.holds else "loses heart"
        return f"{_who(self.name)}hireling morale {_die(self.roll)} {self.roll.final} (over HD {self.hd}, at most Cunning {self.cunning}): {said}."


def hireling_morale_check(dice: Dice, cunning: int, hd: int, name: str = "", die: str = SYSTEM_DIE) -> HirelingMoraleResult:
    """Test a hireling's morale against the employer's Cunning and the hireling's HD.

    Choice: "under your Cunning" is at or under, as the attack roll it mirrors (under an
    attribute, over a number).
    """
    _attribute("Cunning", cunning)
    in_range("Hireling HD", hd, 0)
    roll = dice.roll(die, f"{_who(name)}hireling morale")
    return HirelingMoraleResult(name=name, cunning=cunning, hd=hd, roll=roll, holds=hd < roll.final <= cunning)


# --------------------------------------------------------------------------- reaction and distance


class ReactionResult(Model):
    """An enemy's first attitude, rolled on the reaction table (2d6)."""

    table_roll: TableRoll
    attitude: str | None = None  # None when the player's tables lack the row

    def describe(self) -> str:
        if self.attitude is None:
            return self.table_roll.describe()
        return f"Reaction 2d6 {self.table_roll.value}: {self.attitude}."


def roll_reaction(tables: TableRoller, purpose: str = "reaction") -> ReactionResult:
    """Roll the reaction table through the roller (its dice, its missing-row policy)."""
    rolled = tables.roll(REACTION_TABLE, purpose)
    attitude = None
    if rolled.row is not None:
        attitude = rolled.row.fields.get("reaction", "").strip().rstrip(".") or None
    return ReactionResult(table_roll=rolled, attitude=attitude)


class ScarsNumbers(Model):
    """The checks' dice and numbers as ``d20.rules`` prints them (the text's, the defaults, for a row it lacks)."""

    morale_base: int = MORALE_BASE
    distance_die: str = DISTANCE_DIE
    distance_times: int = DISTANCE_TIMES
    scars_check_die: str = SCARS_CHECK_DIE
    wake_sides: int = WAKE_SIDES
    pack_search_die: str = PACK_SEARCH_DIE
    encounter_die: str = ENCOUNTER_DIE
    encounter_on: int = ENCOUNTER_ON
    die: str = SYSTEM_DIE
    morale_at: float = MORALE_AT
    armour_loss: int = ARMOUR_LOSS
    armour_breaks_at: int = ARMOUR_BREAKS_AT


_TIMES = re.compile(r"x\s*(\d+)")
_SIDES = re.compile(r"d(\d+)")


def _die(roll: RollRecord) -> str:
    """The die a check rolled, as the text writes it ("d20")."""
    return roll.expression.removeprefix("1")


def scars_time(library: TableLibrary) -> tuple[int, int]:
    """(minutes in a Turn, hours in a Watch) as ``d20.rules`` prints them (the text's 10 and 6 without the rows)."""
    return (
        rule_number(library, RULES_TABLE, "Minutes in a Turn", TURN_MINUTES),
        rule_number(library, RULES_TABLE, "Hours in a Watch", WATCH_HOURS),
    )


def scars_numbers(library: TableLibrary) -> ScarsNumbers:
    """The numbers of ``d20.rules``: "10 + HD" (10), "2d6 x 10" (2d6, times 10), "Xd6" (d6 per Scar), "1d3"."""
    t, text = RULES_TABLE, ScarsNumbers()
    distance = rule_text(library, t, "Encounter distance")
    times = _TIMES.search(distance)
    wake = _SIDES.search(rule_text(library, t, "Rounds unconscious"))
    return ScarsNumbers(
        morale_base=rule_number(library, t, "Morale test", text.morale_base),
        distance_die=rule_die(library, t, "Encounter distance", text.distance_die),
        distance_times=int(times.group(1)) if times else text.distance_times,
        scars_check_die=rule_die(library, t, "Scars check", text.scars_check_die),
        wake_sides=int(wake.group(1)) if wake else text.wake_sides,
        pack_search_die=rule_die(library, t, "Pack search", text.pack_search_die),
        encounter_die=rule_die(library, t, "Random encounter check", text.encounter_die),
        encounter_on=rule_number(library, t, "Random encounter on", text.encounter_on),
        die=rule_die(library, t, "The system's die", text.die),
        morale_at=rule_fraction(library, t, "Morale at", text.morale_at),
        armour_loss=max(1, rule_number(library, t, "AC lost on an exact roll", text.armour_loss)),
        armour_breaks_at=rule_number(library, t, "Armour breaks at AC", text.armour_breaks_at),
    )


class DistanceResult(Model):
    """How far away an encounter starts: 2d6 x 10 feet in the dungeon, yards outside."""

    roll: RollRecord
    distance: int
    unit: str
    times: int = DISTANCE_TIMES

    def describe(self) -> str:
        die = self.roll.expression.removeprefix("1")
        return f"Encounter distance {die} {self.roll.final} x {self.times}: {self.distance} {self.unit}."


def roll_encounter_distance(dice: Dice, outdoors: bool = False, numbers: ScarsNumbers | None = None) -> DistanceResult:
    """Roll the distance of an encounter the fiction leaves open."""
    n = numbers or ScarsNumbers()
    roll = dice.roll(n.distance_die, "encounter distance")
    return DistanceResult(
        roll=roll, distance=roll.final * n.distance_times, unit="yards" if outdoors else "feet", times=n.distance_times
    )


# --------------------------------------------------------------------------- zero health


class ZeroHealthResult(Model):
    """The scars check at 0 health: a new Scar, then 2d6 against the Scars."""

    name: str = ""
    scars_before: int
    scars: int
    roll: RollRecord
    dead: bool
    wake_roll: RollRecord | None = None  # Xd6 rounds until waking at 1 health, X the Scars

    @property
    def rounds_out(self) -> int | None:
        return self.wake_roll.final if self.wake_roll is not None else None

    def describe(self) -> str:
        head = f"{_who(self.name)}0 health, Scar {self.scars}: {self.roll.expression.removeprefix('1')} {self.roll.final} vs {self.scars} Scars: "
        if self.dead:
            return head + "succumbs to their wounds and dies."
        wake = self.wake_roll.expression if self.wake_roll is not None else f"{self.scars}d6"
        return head + f"survives, wakes at 1 health in {self.rounds_out} rounds ({wake})."


def zero_health(dice: Dice, scars: int, name: str = "", numbers: ScarsNumbers | None = None) -> ZeroHealthResult:
    """The check an adventurer makes on reaching 0 health, with ``scars`` Scars before it."""
    in_range("Scars", scars, 0, MAX_SCARS - 1)
    n = numbers or ScarsNumbers()
    now = scars + 1
    roll = dice.roll(n.scars_check_die, f"{_who(name)}scars check")
    dead = roll.final <= now
    wake = None if dead else dice.roll(f"{now}d{n.wake_sides}", f"{_who(name)}rounds unconscious")
    return ZeroHealthResult(name=name, scars_before=scars, scars=now, roll=roll, dead=dead, wake_roll=wake)


def encounter_zero_health(
    encounter: ScarsEncounter, dice: Dice, name: str, numbers: ScarsNumbers | None = None
) -> tuple[ScarsEncounter, ZeroHealthResult]:
    """The scars check for an adventurer of the encounter who is at 0 health."""
    hero = encounter.fighter(name)
    if hero.side is not Side.ADVENTURER:
        raise ToolInputError(f"{hero.name} is an enemy: the scars check is for adventurers.")
    if hero.dead:
        raise ToolInputError(f"{hero.name} is already dead.")
    if hero.health > 0:
        raise ToolInputError(f"{hero.name} is at {hero.health} health: the scars check is made at 0.")
    if hero.wakes_in_rounds is not None:
        raise ToolInputError(f"{hero.name} already made the scars check and wakes in {hero.wakes_in_rounds} rounds.")
    result = zero_health(dice, hero.scars, hero.name, numbers)
    hero = hero.model_copy(
        update={"scars": result.scars, "dead": result.dead, "down": True, "wakes_in_rounds": result.rounds_out}
    )
    after = encounter.replaced(hero)
    return after.model_copy(update={"last_attack": None, "last_target": None}), result


# --------------------------------------------------------------------------- the pack


class PackOutcome(StrEnum):
    NOW = "now"  # exactly the Cunning: usable this round
    NEXT_ROUND = "next_round"  # found with this round's action, usable next round
    SEARCHING = "searching"  # failed: searching 1d3 rounds, no other actions
    FORGONE = "forgone"  # failed and gave up


class PackRetrievalResult(Model):
    """Getting an item out of a pack in combat: a Cunning check."""

    name: str = ""
    cunning: int
    roll: RollRecord
    outcome: PackOutcome
    search_roll: RollRecord | None = None

    def describe(self) -> str:
        said = {
            PackOutcome.NOW: "in hand and usable this round",
            PackOutcome.NEXT_ROUND: "found with this round's action, usable next round",
            PackOutcome.SEARCHING: f"not found: searching for {self.search_roll.final if self.search_roll else '?'} rounds",
            PackOutcome.FORGONE: "not found, and given up",
        }[self.outcome]
        return f"{_who(self.name)}pack {_die(self.roll)} {self.roll.final} vs Cunning {self.cunning}: {said}."


def retrieve_from_pack(
    dice: Dice,
    cunning: int,
    search: bool = True,
    name: str = "",
    search_die: str = PACK_SEARCH_DIE,
    die: str = SYSTEM_DIE,
) -> PackRetrievalResult:
    """Dig an item out of a pack under pressure; on a failure ``search`` spends 1d3 rounds looking.

    Choice: the check passes at or under the Cunning, as the attack roll.
    """
    _attribute("Cunning", cunning)
    roll = dice.roll(die, f"{_who(name)}pack retrieval")
    if roll.final == cunning:
        return PackRetrievalResult(name=name, cunning=cunning, roll=roll, outcome=PackOutcome.NOW)
    if roll.final < cunning:
        return PackRetrievalResult(name=name, cunning=cunning, roll=roll, outcome=PackOutcome.NEXT_ROUND)
    if not search:
        return PackRetrievalResult(name=name, cunning=cunning, roll=roll, outcome=PackOutcome.FORGONE)
    rounds = dice.roll(search_die, f"{_who(name)}rounds searching the pack")
    return PackRetrievalResult(name=name, cunning=cunning, roll=roll, outcome=PackOutcome.SEARCHING, search_roll=rounds)


# --------------------------------------------------------------------------- turns and watches


class ScarsClock(Model):
    """The scars text's own time: ten-minute exploration Turns in the dungeon, six-hour Watches outside.

    (Its Turn is not the exploration procedure's 6-second Turn: each tool keeps its own text's units.)
    """

    turns: int = Field(default=0, ge=0)
    watches: int = Field(default=0, ge=0)


class ScarsClockStep(Model):
    """Time passed on the scars clock and the encounter checks it made (1d6 each; a 1 is an encounter)."""

    unit: str  # "turn" or "watch"
    count: int
    checks: list[RollRecord] = Field(default_factory=list)
    clock: ScarsClock
    on: int = ENCOUNTER_ON  # the face that brings an encounter (the rules table's)

    @property
    def encounters(self) -> int:
        return sum(1 for r in self.checks if r.final == self.on)

    def describe(self) -> str:
        rolls = " ".join(str(r.final) for r in self.checks)
        met = f"{self.encounters} encounter(s)" if self.encounters else "no encounter"
        return f"{self.count} {self.unit}(s) pass, encounter checks {rolls}: {met}."


def advance_scars_clock(
    clock: ScarsClock, dice: Dice, count: int = 1, unit: str = "turn", numbers: ScarsNumbers | None = None
) -> ScarsClockStep:
    """Spend ``count`` Turns (dungeon) or Watches (outside), checking for an encounter after each.

    Choice: the text names no die for the Watch check; it uses the Turn's (1d6, a 1 is an encounter).
    """
    in_range("Number of turns or watches", count, 1, MAX_CLOCK_STEPS)
    if unit not in ("turn", "watch"):
        raise ToolInputError(f"The scars clock counts turns or watches, not {unit!r}.")
    n = numbers or ScarsNumbers()
    checks = [dice.roll(n.encounter_die, f"encounter check ({unit} {i + 1})") for i in range(count)]
    if unit == "turn":
        after = clock.model_copy(update={"turns": clock.turns + count})
    else:
        after = clock.model_copy(update={"watches": clock.watches + count})
    return ScarsClockStep(unit=unit, count=count, checks=checks, clock=after, on=n.encounter_on)


# --------------------------------------------------------------------------- a ritual in a fight


class RitualResult(Model):
    """A Ritual cast in a fight: the Cunning check, which must also beat the damage taken before the caster's go."""

    name: str = ""
    cunning: int
    damage: int = 0  # damage taken this Round before the caster's go
    roll: RollRecord
    from_fight: bool = False  # the damage was read from the fight tracker (the caster's damage this Round)

    @property
    def succeeded(self) -> bool:
        return self.damage < self.roll.final <= self.cunning

    def describe(self) -> str:
        over = f" and over the {self.damage} damage taken" if self.damage else ""
        if self.from_fight:
            over = (
                f" and over the {self.damage} damage taken this Round, as the fight tracker counts it"
                if self.damage
                else "; no damage taken this Round, as the fight tracker counts it"
            )
        outcome = "the Ritual is performed" if self.succeeded else "it fails: roll a Mishap as normal"
        return f"{_who(self.name)}Ritual: {_die(self.roll)} {self.roll.final} (at most Cunning {self.cunning}{over}): {outcome}."


MAX_DAMAGE = 100


def ritual_check(
    dice: Dice, cunning: int, damage: int = 0, moved: bool = False, name: str = "", die: str = SYSTEM_DIE
) -> RitualResult:
    """Perform a Ritual in a fight: a Cunning check that, after damage taken before the caster's go, must
    also roll over that damage. Refused when the caster moved this Round (no spell and move in one Round)."""
    _attribute("Cunning", cunning)
    in_range("Damage taken before your go", damage, 0, MAX_DAMAGE)
    if moved:
        raise ToolInputError("You can't cast a spell and move in the same Round.")
    roll = dice.roll(die, f"{_who(name)}Ritual (Cunning {cunning}, damage {damage})")
    return RitualResult(name=name, cunning=cunning, damage=damage, roll=roll)


def encounter_ritual(
    encounter: ScarsEncounter, dice: Dice, name: str, cunning: int, moved: bool = False, die: str = SYSTEM_DIE
) -> RitualResult:
    """A Ritual by ``name``, a fighter of the tracked fight: the damage is what they took this Round before
    their go, as the tracker counted it. Refused for a fighter who cannot act (down, dead, fled, or surprised
    in the first Round)."""
    caster = encounter.fighter(name)
    _able(caster, "perform a Ritual")
    if encounter.round == 1 and caster.side is encounter.surprised:
        raise ToolInputError(f"{caster.name} was surprised: the surprised side takes no actions in the first combat Round.")
    result = ritual_check(dice, cunning, min(caster.damage_this_round, MAX_DAMAGE), moved, caster.name, die)
    return result.model_copy(update={"from_fight": True})
