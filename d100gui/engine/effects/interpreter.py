"""The effects interpreter: what an outcome's effects do to the character.

An outcome (``notation.Outcome``) is one option or a "/" choice of options; an option is
effects and tests in order. :func:`apply_outcome` applies one option or leaves an
:class:`~d100gui.engine.hero.decisions.OutcomeChoice`; :func:`apply_option` applies every item (a test inside
leaves a :class:`~d100gui.engine.hero.decisions.CalledTest`); :func:`apply_effect` applies one effect through
:data:`EFFECT_HANDLERS`, one small function per effect kind. An effect the engine cannot
carry out (or one without the number it needs) is narrative: the log shows it for the
player to do at the table. An effect that lets the player choose its target leaves a
:class:`~d100gui.engine.hero.decisions.TargetChoice`.

"Roll on Table X" rolls it and applies that row (:data:`~d100gui.engine.effects.rows.ROW_HANDLERS`:
loot into the backpack, a boost, a curse, a feature, a find, a monster offered to combat), whose
own effects come back here one level deeper, to any depth up to the loop guard. "Encounter X"
offers the monster its table prints to combat; repair pips land on a random equipped item.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.tables import TableError
from d100gui.engine.dungeon.door_tests import open_tested_door
from d100gui.engine.dungeon.map import DoorAt
from d100gui.engine.effects.follow_ups import follow_up_roll
from d100gui.engine.effects.repairs import shade_random_item
from d100gui.engine.effects.rows import RowCall, apply_row, encounter_effect, to_history, wait_for_row
from d100gui.engine.game import GameContext
from d100gui.engine.hero import events as ev
from d100gui.engine.hero.decisions import CalledTest, OutcomeChoice, TargetChoice, add_pending
from d100gui.engine.hero.derive import clamp_hp, derive
from d100gui.engine.hero.equipment import destroy_belt_check
from d100gui.engine.hero.experience import at_maximum
from d100gui.engine.hero.guards import living_character
from d100gui.engine.hero.model import Character, TimeBonus
from d100gui.engine.hero.vitals import changed_vitals, vitals
from d100gui.engine.protocol import Decision, Event, told
from d100gui.engine.quest.access import hp_rule, offer_waiting, time_effect
from d100gui.engine.quest.model import adventure_rules
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Effect, Option, Outcome, TestSpec

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

#: effect kind -> the supplies field it changes
SUPPLY_FIELDS = {"pick": "picks", "oil": "oil", "food": "food"}
#: effect kind -> (the character's count field, the layout's track-length field)
PIP_TRACKS = {
    "key": ("keys", "keys_track"),
    "lever": ("levers", "levers_track"),
    "poison": ("poison", "poison_track"),
    "disease": ("disease", "disease_track"),
}
#: the time-track bonus section takes these
TIME_BONUS_STATS = ("STR", "DEX", "INT", "DEF", "DMG", "HP")
#: outcomes the player carries out at the table; the log names them
NARRATED = {"avoid": ev.Avoided, "no_effect": ev.NoEffect, "open": ev.Opened, "cast": ev.Cast}


def _clamped(value: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, value))


@dataclass(frozen=True)
class Applying:
    """One effect being applied: the game, the character, the effect and the log's prefix."""

    ctx: GameContext
    character: Character
    effect: Effect
    source: str
    door: DoorAt | None = None  # the door a Table D test is for (its Open outcome opens it)
    depth: int = 0  # how many table rolls deep this effect is (nested rolls; the loop guard counts them)

    @property
    def rules(self) -> Rules:
        return self.ctx.rules

    @property
    def head(self) -> str:
        return f"{self.source}: " if self.source else ""

    @property
    def amount(self) -> int:
        """The effect's number (handlers are only called when it has one, see :data:`NEEDS_AMOUNT`)."""
        assert self.effect.amount is not None
        return self.effect.amount


Handler = Callable[[Applying], list[Event] | None]


# --------------------------------------------------------------------------- gold, HP, characteristics


def _gp(a: Applying) -> list[Event]:
    ch, amount = a.character, a.amount
    before = ch.gp
    ch.gp = max(0, ch.gp + amount)
    gained = "Gained" if amount >= 0 else "Lost"
    return [ev.emit(ev.GoldChanged(delta=ch.gp - before), f"{a.head}{gained} {abs(ch.gp - before)} gp (now {ch.gp}).")]


def _gp_half(a: Applying) -> list[Event]:
    ch = a.character
    lost = (ch.gp + 1) // 2
    ch.gp -= lost
    return [ev.emit(ev.GoldChanged(delta=-lost), f"{a.head}Lost half your gold, rounded up: {lost} gp (now {ch.gp}).")]


def _hp(a: Applying) -> list[Event] | None:
    amount, ch = a.effect.amount, a.character
    if amount is None and "max" not in a.effect.note.lower():
        return None
    maximum = derive(ch, a.rules).max_hp
    before = ch.hp
    if amount is None:
        ch.hp = max(ch.hp, maximum)
    elif amount > 0:
        ch.hp = max(ch.hp, min(ch.hp + amount, maximum))  # healing restores lost HP only
    else:
        ch.hp = max(0, ch.hp + amount)
    payload = ev.HpChanged(delta=ch.hp - before, hp=ch.hp, max_hp=maximum)
    events = [ev.emit(payload, f"{a.head}HP {before} -> {ch.hp} (maximum {maximum}).")]
    if ch.hp <= 0:
        events.append(ev.emit(ev.HpZero(), "HP is 0: the character must use a Life (or RES) or die."))
        events += hp_rule(a.ctx, a.source or a.effect.text)  # outside a fight the rule applies here; a fight applies its own
    return events


def _hp_primary(a: Applying) -> list[Event]:
    ch, amount = a.character, a.amount
    held = vitals(ch)
    ch.hp_primary = max(1, ch.hp_primary + amount)
    lost = clamp_hp(ch, a.rules)
    extra = f", current HP down by {lost}" if lost else ""
    payload = ev.PrimaryHpChanged(hp_primary=ch.hp_primary, lost=lost)
    return [ev.emit(payload, f"{a.head}Primary HP {amount:+d} (now {ch.hp_primary}){extra}."), *changed_vitals(ch, a.rules, held)]


def _characteristic(a: Applying) -> list[Event]:
    stat, amount = a.effect.stat, a.amount
    if stat not in a.rules.characteristics:
        return _choose_target(a.ctx.campaign, a.effect, list(a.rules.characteristics), a.source)
    score = a.character.characteristics[stat]
    held = vitals(a.character)
    score.primary = max(0, score.primary + amount)
    clamp_hp(a.character, a.rules)
    payload = ev.CharacteristicChanged(stat=stat, primary=score.primary)
    said = f"{a.head}{stat} {amount:+d} (primary now {score.primary})."
    return [ev.emit(payload, said), *changed_vitals(a.character, a.rules, held)]


def _skill_choices(character: Character, rules: Rules, amount: int) -> list[str]:
    """The skills an unnamed ``+N Skill`` / ``-N Skill`` can apply to (room below the maximum, or bonus to lose)."""
    if amount >= 0:
        return [s for s, sc in character.skills.items() if sc.bonus < rules.skill_max]
    return [s for s, sc in character.skills.items() if sc.bonus >= -amount]


def _skill(a: Applying) -> list[Event]:
    amount, ch = a.amount, a.character
    if not a.effect.target:
        choices = _skill_choices(ch, a.rules, amount)
        if not choices:
            return [ev.emit(ev.Narrative(), f"{a.head}No skill can take {amount:+d}: {a.effect.describe()}.")]
        return _choose_target(a.ctx.campaign, a.effect, choices, a.source)
    score = ch.skills[a.effect.target]
    before = score.bonus
    score.bonus = _clamped(score.bonus + amount, 0, a.rules.skill_max)
    payload = ev.SkillChanged(skill=a.effect.target, bonus=score.bonus)
    return [ev.emit(payload, f"{a.head}{a.effect.target} {before:+d} -> {score.bonus:+d}.")]


# --------------------------------------------------------------------------- counts on the sheet


def _rep(a: Applying) -> list[Event]:
    ch, rep = a.character, a.rules.reputation
    before = ch.rep
    ch.rep = _clamped(ch.rep + a.amount, rep.min, rep.max)
    note = "" if ch.rep == before + a.amount else f" (REP stays within {rep.min}-{rep.max})"
    return [ev.emit(ev.RepChanged(rep=ch.rep, before=before), f"{a.head}REP {before} -> {ch.rep}{note}.")]


def _fate_or_life(a: Applying) -> list[Event]:
    name = "fate" if a.effect.kind == "fate" else "lives"
    before = getattr(a.character, name)
    after = max(0, before + a.amount)
    setattr(a.character, name, after)
    payload = ev.FateChanged(value=after) if name == "fate" else ev.LivesChanged(value=after)
    return [ev.emit(payload, f"{a.head}{name.title()} {before} -> {after}.")]


def _supplies(a: Applying) -> list[Event]:
    key = SUPPLY_FIELDS[a.effect.kind]
    supplies = a.character.supplies
    before = getattr(supplies, key)
    maximum = a.rules.supplies_max[key]
    wanted = before + a.amount
    after = _clamped(wanted, 0, maximum)
    setattr(supplies, key, after)
    note = ""
    if wanted > maximum:
        note = f" ({wanted - maximum} more would pass the maximum of {maximum})"
    elif wanted < 0:
        note = f" (there were only {before})"
    payload = ev.SuppliesChanged(oil=supplies.oil, food=supplies.food, picks=supplies.picks)
    return [ev.emit(payload, f"{a.head}{key.title()} {before} -> {after}{note}.")]


_PIP_PAYLOADS: dict[str, type[ev.PipTrack]] = {
    "key": ev.KeysChanged,
    "lever": ev.LeversChanged,
    "poison": ev.PoisonChanged,
    "disease": ev.DiseaseChanged,
}


def _pip_track(a: Applying) -> list[Event]:
    name, track = PIP_TRACKS[a.effect.kind]
    length = int(getattr(a.rules.sheet, track))
    before = getattr(a.character, name)
    after = _clamped(before + a.amount, 0, length)
    setattr(a.character, name, after)
    payload = _PIP_PAYLOADS[a.effect.kind](value=after, length=length)
    return [ev.emit(payload, f"{a.head}{name.title()} track {before} -> {after} of {length}.")]


def _objective(a: Applying) -> list[Event]:
    ch = a.character
    ch.objectives = max(0, ch.objectives + a.amount)
    return [ev.emit(ev.ObjectiveMet(objectives=ch.objectives), f"{a.head}Objectives {ch.objectives}.")]


# --------------------------------------------------------------------------- time, belt, tables, experience


def _time(a: Applying) -> list[Event]:
    """``+N`` time through the one procedure (:func:`~d100gui.engine.quest.access.time_effect`): oil, food,
    wandering monsters and the refresh fire clock by clock; in a fight the clocks wait for ``resume_time``."""
    ch, amount = a.character, a.amount
    deferred = offer_waiting(a.ctx.campaign) is not None or a.ctx.campaign.combat is not None
    steps, fired = time_effect(a.ctx, amount)
    listed = ", ".join(f"{t.kind}{f' (d10 ≤ {t.number})' if t.number else ''} at clock {t.clock}" for t in fired)
    if deferred:
        message = f"{a.head}+{amount} time: shaded once the fight is over (resume the time track)."
    else:
        message = f"{a.head}+{amount} time: {ch.time_track.shaded} of {a.rules.sheet.time_track.clocks} clocks shaded."
    if listed:
        message += f" Triggers: {listed}."
    return [ev.emit(ev.TimePassed(triggers=fired, clocks=amount), message), *(told(step) for step in steps)]


def _time_track_bonus(a: Applying) -> list[Event] | None:
    stat = a.effect.stat
    if stat not in TIME_BONUS_STATS:
        return None
    bonus = TimeBonus.model_validate({"stat": stat, "amount": a.amount, "source": a.source or a.effect.text})
    a.character.time_track.bonuses.append(bonus)
    payload = ev.TimeTrackBonusAdded(stat=stat, amount=a.amount)
    return [ev.emit(payload, f"{a.head}{a.amount:+d} {stat} on the time track until it refreshes.")]


def _xp(a: Applying) -> list[Event] | None:
    if a.amount <= 0:
        return None
    ch, rules = a.character, a.rules
    tracks = list(rules.characteristics) if a.effect.target == "characteristic" else list(ch.skills)
    choices = [s for s in tracks if not at_maximum(ch, rules, s)]
    if not choices:
        return [ev.emit(ev.Narrative(), f"{a.head}Every {a.effect.target} is at its maximum: no pip to shade.")]
    return _choose_target(a.ctx.campaign, a.effect, choices, a.source)


def _belt_check(a: Applying) -> list[Event]:
    return belt_check(a.ctx, a.source)


def _roll_table(a: Applying) -> list[Event] | None:
    return roll_on_table(a.ctx, a.effect, a.source, a.depth) if a.effect.table else None


def _encounter(a: Applying) -> list[Event] | None:
    return encounter_effect(a.ctx, a.effect, a.source)


def _repair_pips(a: Applying) -> list[Event] | None:
    if a.amount <= 0:
        return None  # removing repair pips is the town's repair, paid in gold
    held = vitals(a.character)  # an HP item destroyed brings HP down to the new maximum
    shaded = told(shade_random_item(a.character, a.rules, a.ctx.dice, a.amount, a.source))
    return [shaded, *changed_vitals(a.character, a.rules, held)]


def _follow_up(a: Applying) -> list[Event] | None:
    """A narrative "roll SPIKES": the note its feature printed is rolled and its side applied (else it stays narrative)."""
    return follow_up_roll(a.ctx, a.effect.text, a.source, a.depth, _choose)


def _narrated(a: Applying) -> list[Event]:
    said = [ev.emit(NARRATED[a.effect.kind](), f"{a.head}{a.effect.describe()}.")]
    if a.effect.kind == "open" and a.door is not None:
        return said + open_tested_door(a.ctx.campaign, a.door)
    return said


#: effect kind -> its handler; a handler returns None when the effect lacks what it needs (then it is narrative)
EFFECT_HANDLERS: dict[str, Handler] = {
    "gp": _gp,
    "gp_half": _gp_half,
    "hp": _hp,
    "hp_primary": _hp_primary,
    "characteristic": _characteristic,
    "skill": _skill,
    "rep": _rep,
    "fate": _fate_or_life,
    "life": _fate_or_life,
    **dict.fromkeys(SUPPLY_FIELDS, _supplies),
    **dict.fromkeys(PIP_TRACKS, _pip_track),
    "objective": _objective,
    "belt_check": _belt_check,
    "time": _time,
    "time_track_bonus": _time_track_bonus,
    "roll_table": _roll_table,
    "encounter": _encounter,
    "repair_pips": _repair_pips,
    "xp": _xp,
    **dict.fromkeys(NARRATED, _narrated),
    "narrative": _follow_up,
}
#: the kinds whose handler needs the effect's number (without one the effect is narrative)
NEEDS_AMOUNT = frozenset(EFFECT_HANDLERS) - {"gp_half", "hp", "belt_check", "roll_table", "encounter", "narrative", *NARRATED}


def apply_effect(ctx: GameContext, effect: Effect, source: str = "", door: DoorAt | None = None, depth: int = 0) -> list[Event]:
    """Apply one effect to the character; returns what happened. Unknown effects are narrative.

    ``door``: the door the test being settled is for; an ``Open`` effect opens it. ``depth``: how
    many table rolls deep the effect is (a row's effects are one deeper than its roll)."""
    applying = Applying(ctx, living_character(ctx.campaign), effect, source, door, depth)
    handler = EFFECT_HANDLERS.get(effect.kind)
    if handler is not None and (effect.amount is not None or effect.kind not in NEEDS_AMOUNT):
        events = handler(applying)
        if events is not None:
            return events
    return [ev.emit(ev.Narrative(effect=effect), f"{applying.head}{effect.describe()}")]


def _choose_target(campaign: Campaign, effect: Effect, choices: list[str], source: str) -> list[Event]:
    what = {"characteristic": "characteristic", "skill": "skill", "xp": effect.target or "track"}.get(effect.kind, "target")
    prompt = f"{source + ': ' if source else ''}{effect.describe()}: choose the {what}."
    decision = add_pending(campaign, TargetChoice(effect=effect, choices=choices, prompt=prompt))
    return [ev.emit(Decision(decision=decision.id), decision.prompt)]


def belt_check(ctx: GameContext, source: str = "") -> list[Event]:
    """Roll 1d10: the item in the matching slot is destroyed."""
    ch = living_character(ctx.campaign)
    roll = ctx.dice.roll("d10", "Belt Check")
    where, item = destroy_belt_check(ch, ctx.rules, roll.final)
    head = f"{source}: " if source else ""
    if item is None:
        message = f"{head}Belt Check: rolled {roll.final}, {where} is empty - nothing lost."
    else:
        message = f"{head}Belt Check: rolled {roll.final}, {item.name} in {where} is destroyed."
    return [ev.emit(ev.BeltCheck(roll=roll, destroyed=item.name if item else ""), message)]


def roll_on_table(ctx: GameContext, effect: Effect, source: str = "", depth: int = 0) -> list[Event]:
    """Roll ``effect.times`` times on ``effect.table``; each row is applied (its own rolls one level deeper).

    Each roll goes in the dice history; a row the player's tables lack waits for the typed row."""
    events = []
    times = max(1, effect.times or 1)
    for n in range(times):
        if ctx.campaign.character is None:
            break  # the hero fell: nothing more is rolled
        purpose = f"{source or 'Roll'} ({n + 1})" if times > 1 else (source or "")
        modifier, label = effect.modifier, "modifier"
        if effect.table == adventure_rules(ctx.rules).encounter_table and ctx.campaign.character is not None:
            modifier += ctx.campaign.character.quest_encounter_modifier  # "at any time during the quest"
            label = "modifier and quest encounter modifier"
        try:
            result = ctx.tables.roll(effect.table, purpose, modifier, label, die=effect.die or None)
        except (TableError, DiceError) as exc:
            events.append(ev.emit(ev.Narrative(), f"{effect.describe()}: {exc}"))
            continue
        events += [to_history(ctx, result), ev.emit(ev.TableRolled(table_roll=result), result.describe())]
        if result.row is None:
            wait_for_row(ctx, result, len(ctx.campaign.dice_history) - 1, source, depth)
            continue
        events += apply_row(RowCall(ctx, result, source, depth + 1, _then, _choose))
    return events


def _then(ctx: GameContext, option: Option, source: str, depth: int) -> list[Event]:
    return apply_option(ctx, option, source, depth=depth)


def _choose(ctx: GameContext, outcome: Outcome, source: str, depth: int) -> list[Event]:
    return apply_outcome(ctx, outcome, source, depth=depth)


#: an effect kind -> the words of a narrative right after it that its handler already carries out
#: (Table F 21-25's "if no item is equipped roll again until ..." is the repair pips' own re-roll;
#: Table F 6-10's "it has SURPRISE" belongs to the encounter it rolls)
ABSORBS: dict[str, re.Pattern[str]] = {
    "repair_pips": re.compile(r"\broll\s+again\s+until\b", re.I),
    "roll_table": re.compile(r"^(?:it\s+has\s+)?surprise\b", re.I),  # Table F 6-10: the encounter carries it
}


def absorbed(previous: Effect | TestSpec | None, item: Effect) -> bool:
    if not isinstance(previous, Effect) or item.kind != "narrative" or previous.kind not in ABSORBS:
        return False
    return bool(ABSORBS[previous.kind].search(item.text))


def apply_option(ctx: GameContext, option: Option, source: str = "", door: DoorAt | None = None, depth: int = 0) -> list[Event]:
    """Apply every item of an option: effects in order; a test inside leaves a CalledTest (for the same ``door``)."""
    events: list[Event] = []
    previous: Effect | TestSpec | None = None
    for item in option.items:
        if ctx.campaign.character is None:
            break  # the hero fell (HP 0 with no Life): nothing more applies
        if isinstance(item, Effect) and absorbed(previous, item):
            continue
        previous = item
        if isinstance(item, TestSpec):
            prompt = f"{item.describe()}: roll it when you are ready."
            # only a door's test may be let go (another exit may be chosen); a trap's or a feature's must be rolled
            called = add_pending(ctx.campaign, CalledTest(spec=item, prompt=prompt, door=door, optional=door is not None))
            events.append(ev.emit(Decision(decision=called.id), called.prompt))
        else:
            events += apply_effect(ctx, item, source, door, depth)
    return events


def apply_outcome(
    ctx: GameContext, outcome: Outcome, source: str = "", door: DoorAt | None = None, depth: int = 0
) -> list[Event]:
    """One option: apply it. Several ("/"): leave the choice to the player. ``door``: see :func:`apply_effect`."""
    if outcome.is_empty:
        return []
    if outcome.is_choice:
        prompt = f"{source + ': ' if source else ''}choose {outcome.describe()}."
        choice = add_pending(ctx.campaign, OutcomeChoice(outcome=outcome, source=source, prompt=prompt, door=door))
        return [ev.emit(Decision(decision=choice.id), choice.prompt)]
    return apply_option(ctx, outcome.options[0], source, door, depth)
