"""Creating a character, step by step, as commands (rulebook "Creating a Character").

Steps, in the rulebook's order (each needs the ones before it):

1. ``characteristics`` — :class:`AssignCharacteristics`: 50, 40 and 30 to STR/DEX/INT in any order.
2. ``skills`` — :class:`ChooseStartingSkills`: two skills at +5.
3. ``reputation`` — :class:`SetStartingReputation`: REP 1.
4. ``weapon`` — :class:`RollStartingWeapon`: one roll on Table W, into the main weapon slot.
5. ``armour`` — :class:`RollStartingArmour` three times on Table A. A piece for a slot already
   filled leaves an :class:`~.decisions.ArmourClash`: keep the new piece (the old one is
   discarded) or roll again (:class:`ResolveArmourClash`). A roll on a row the player's
   tables lack leaves a :class:`~.decisions.RowNeeded` (:class:`ProvideStartingRow`).
6. ``supplies`` — :class:`TakeStartingSupplies`: 20 oil, 10 food, 15 picks.
7. ``potions`` — :class:`TakeStartingPotions`: three Lesser Healing Potions on the belt.
8. ``finishing`` — :class:`SetStartingHealth`: 20 HP, 3 Fate, 3 Lives.

:class:`NameCharacter` may come at any time; :class:`FinishCharacter` checks everything is
done and named. Characteristics and skills are choices and may be made again until the
character is finished; rolls may not (undo restores the dice, so it cannot fish either).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.events import RollMade, RowProvided
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoll
from d100gui.engine.dice.tables import Row, TableError
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero import events as ev
from d100gui.engine.hero.decisions import ArmourClash, RowNeeded, add_pending, pending_of, take_pending
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.equipment import check_equip
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.invariants import enforce
from d100gui.engine.hero.item_rows import item_from_armour_row, item_from_weapon_row
from d100gui.engine.hero.model import Character, Item, new_character
from d100gui.engine.hero.vitals import changed_vitals, vitals
from d100gui.engine.phases import CREATION, Phases
from d100gui.engine.protocol import CommandRefused, Decision, Event
from d100gui.engine.rules.model import Rules

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

STEPS: tuple[str, ...] = ("characteristics", "skills", "reputation", "weapon", "armour", "supplies", "potions", "finishing")
STEP_LABELS = {
    "characteristics": "assign 50, 40 and 30 to STR, DEX and INT",
    "skills": "choose two skills at +5",
    "reputation": "record REP 1",
    "weapon": "roll once on Table W",
    "armour": "roll three times on Table A",
    "supplies": "take 20 oil, 10 food and 15 picks",
    "potions": "put three Lesser Healing Potions on the belt",
    "finishing": "record 20 HP, 3 Fate and 3 Lives",
}
"""The step labels for the bundled rules (:func:`step_labels` words them from any rules)."""
REPEATABLE = ("characteristics", "skills")

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_TIMES = {1: "once", 2: "twice"}


def _word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _table(table_id: str) -> str:
    return f"Table {table_id.rsplit('.', 1)[-1]}"


def step_labels(rules: Rules) -> dict[str, str]:
    """What each creation step asks for, worded from the rules' numbers (``choose two skills at +5``)."""
    c = rules.creation
    belt = _and([f"{_word(b.count)} {b.name}{'s' if b.count > 1 else ''}" for b in c.belt]) if c.belt else "nothing"
    supplies = _and([f"{n} {key}" for key, n in c.supplies.items()])
    return {
        "characteristics": f"assign {_and([str(v) for v in c.characteristic_values])} to {_and(list(rules.characteristics))}",
        "skills": f"choose {_word(c.skill_choices)} skills at +{c.skill_bonus}",
        "reputation": f"record REP {c.rep}",
        "weapon": f"roll {_TIMES.get(c.weapon_rolls, f'{_word(c.weapon_rolls)} times')} on {_table(c.weapon_table)}",
        "armour": f"roll {_TIMES.get(c.armour_rolls, f'{_word(c.armour_rolls)} times')} on {_table(c.armour_table)}",
        "supplies": f"take {supplies}",
        "potions": f"put {belt} on the belt",
        "finishing": f"record {c.hp} HP, {c.fate} Fate and {c.lives} Lives",
    }


def creating(campaign: Campaign) -> Character:
    """The character being created; refused if there is none or it is finished."""
    ch = campaign.character
    if ch is None or ch.creation is None:
        refuse("No character is being created: start a new character first.")
    return ch


def next_step(character: Character) -> str | None:
    """The next creation step to do (None when every step is done)."""
    if character.creation is None:
        return None
    return next((s for s in STEPS if s not in character.creation.done), None)


def _blocking(campaign: Campaign) -> None:
    waiting: list[ArmourClash | RowNeeded] = [*pending_of(campaign, ArmourClash), *pending_of(campaign, RowNeeded)]
    if waiting:
        refuse(f"Settle this first: {waiting[0].prompt}")


def _begin(campaign: Campaign, step: str, rules: Rules) -> Character:
    ch = creating(campaign)
    assert ch.creation is not None
    _blocking(campaign)
    index = STEPS.index(step)
    missing = [s for s in STEPS[:index] if s not in ch.creation.done]
    if missing:
        refuse(f"Creating a character goes step by step: first {step_labels(rules)[missing[0]]}.")
    if step in ch.creation.done and step not in REPEATABLE:
        refuse(f"Already done: {step_labels(rules)[step]}.")
    return ch


def _done(ch: Character, step: str) -> None:
    assert ch.creation is not None
    if step not in ch.creation.done:
        ch.creation.done.append(step)


def _fits(ch: Character, rules: Rules, item: Item, slot: str) -> bool:
    try:
        check_equip(ch, rules, item, slot)
    except CommandRefused:
        return False
    return True


# --------------------------------------------------------------------------- start and choices


@register_command
class CreateCharacter(Command):
    """Start a new character sheet. ``restart`` throws away one being created; a dead
    character goes to the hall of the fallen."""

    kind: Literal["create_character"] = "create_character"
    when: ClassVar[Phases] = CREATION
    restart: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        old = campaign.character
        events: list[Event] = []
        if old is not None:
            if old.dead:
                campaign.hall_of_fallen.append(old)
                events.append(
                    ev.emit(ev.Fallen(name=old.name), f"{old.name or 'The fallen character'} joins the hall of the fallen.")
                )
            elif old.creation is not None:
                if not self.restart:
                    refuse("A character is already being created: carry on, or start again with restart.")
                campaign.pending = [d for d in campaign.pending if not isinstance(d, ArmourClash | RowNeeded)]
            else:
                refuse(f"{old.name or 'The character'} is alive: a campaign has one character at a time.")
        campaign.character = new_character(ctx.rules)
        first = STEPS[0]
        events.append(
            ev.emit(ev.CharacterStarted(next_step=first), "A new character sheet. First: " + step_labels(ctx.rules)[first] + ".")
        )
        return events


@register_command
class AssignCharacteristics(Command):
    """Assign the starting values (50/40/30) to STR, DEX and INT: ``scores`` = {"STR": 50, ...}."""

    kind: Literal["assign_characteristics"] = "assign_characteristics"
    when: ClassVar[Phases] = CREATION
    scores: dict[str, int]

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "characteristics", ctx.rules)
        scores = {k.strip().upper()[:3]: v for k, v in self.scores.items()}
        wanted = sorted(rules.creation.characteristic_values, reverse=True)
        stats = rules.characteristics
        if sorted(scores) != sorted(stats) or sorted(scores.values(), reverse=True) != wanted:
            shown = ", ".join(str(v) for v in wanted)
            refuse(f"Assign {shown} to {', '.join(stats[:-1])} and {stats[-1]}, one value each.")
        for stat, value in scores.items():
            ch.characteristics[stat].primary = value
            ch.characteristics[stat].pips = 0
        _done(ch, "characteristics")
        ordered: dict[str, int] = {s: scores[s] for s in stats}
        shown = ", ".join(f"{s} {v}" for s, v in ordered.items())
        return [ev.emit(ev.CharacteristicsAssigned(scores=ordered), f"Characteristics: {shown}.")]


@register_command
class ChooseStartingSkills(Command):
    """Choose the starting skills (two, at +5 each)."""

    kind: Literal["choose_starting_skills"] = "choose_starting_skills"
    when: ClassVar[Phases] = CREATION
    skills: list[str]

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "skills", ctx.rules)
        count, bonus = rules.creation.skill_choices, rules.creation.skill_bonus
        chosen: list[str] = []
        for name in self.skills:
            skill = rules.canonical_skill(name)
            if skill is None:
                refuse(f"There is no skill called {name!r}. Skills: {', '.join(rules.skills)}.")
            if skill in chosen:
                refuse(f"Choose {count} different skills ({skill} is named twice).")
            chosen.append(skill)
        if len(chosen) != count:
            refuse(f"Choose exactly {count} skills to start at +{bonus}.")
        for skill, score in ch.skills.items():
            score.bonus = bonus if skill in chosen else 0
            score.pips = 0
        _done(ch, "skills")
        payload = ev.StartingSkills(skills=chosen, bonus=bonus)
        return [ev.emit(payload, f"Starting skills: {', '.join(f'{s} +{bonus}' for s in chosen)}.")]


@register_command
class SetStartingReputation(Command):
    """Record the starting REP (1)."""

    kind: Literal["set_starting_reputation"] = "set_starting_reputation"
    when: ClassVar[Phases] = CREATION

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "reputation", ctx.rules)
        ch.rep = rules.creation.rep
        _done(ch, "reputation")
        rep = rules.reputation
        return [ev.emit(ev.RepChanged(rep=ch.rep), f"REP {ch.rep} (it stays between {rep.min} and {rep.max}).")]


# --------------------------------------------------------------------------- equipment rolls


def _place_weapon(ctx: GameContext, ch: Character, rules: Rules, item: Item) -> list[Event]:
    assert ch.creation is not None
    ch.creation.weapon_rolls += 1
    if ch.creation.weapon_rolls >= rules.creation.weapon_rolls:
        _done(ch, "weapon")
    for slot in ("main_weapon", "off_weapon"):
        if _fits(ch, rules, item, slot):
            ch.equipment[slot] = item
            message = f"Starting weapon: {item.describe()} in the {rules.slot(slot).name} slot."
            return [ev.emit(ev.Equipped(slot=slot), message)]
    ch.backpack.append(item)
    message = f"Starting weapon: {item.describe()} has no free weapon slot and goes in the backpack."
    return [ev.emit(ev.Backpacked(item=item.name), message)]


def _count_armour(ch: Character, rules: Rules) -> None:
    assert ch.creation is not None
    ch.creation.armour_rolls += 1
    if ch.creation.armour_rolls >= rules.creation.armour_rolls:
        _done(ch, "armour")


def _armour_slot(ch: Character, item: Item) -> str:
    if item.slot == "ring_1" and ch.equipment.get("ring_1") is not None and ch.equipment.get("ring_2") is None:
        return "ring_2"
    return item.slot


def _place_armour(ctx: GameContext, ch: Character, rules: Rules, item: Item, table_roll: TableRoll) -> list[Event]:
    slot = _armour_slot(ch, item)
    if slot not in rules.slot_ids():
        ch.backpack.append(item)
        _count_armour(ch, rules)
        message = f"Starting armour: {item.describe()} names no slot on the sheet and goes in the backpack."
        return [ev.emit(ev.Backpacked(item=item.name), message)]
    held = ch.equipment.get(slot)
    if held is not None:
        clash = add_pending(
            ctx.campaign,
            ArmourClash(
                slot=slot,
                new_item=item,
                old_item=held,
                table_roll=table_roll,
                prompt=f"{item.name} is for the {rules.slot(slot).name}, where {held.name} already is: keep the new piece or roll again.",
            ),
        )
        return [ev.emit(Decision(decision=clash.id), clash.prompt)]
    _count_armour(ch, rules)
    if not _fits(ch, rules, item, slot):
        ch.backpack.append(item)
        message = f"Starting armour: {item.describe()} cannot be equipped now and goes in the backpack."
        return [ev.emit(ev.Backpacked(item=item.name), message)]
    ch.equipment[slot] = item
    return [ev.emit(ev.Equipped(slot=slot), f"Starting armour: {item.describe()} on the {rules.slot(slot).name}.")]


def _roll_starting(ctx: GameContext, purpose: Literal["weapon", "armour"]) -> list[Event]:
    rules = ctx.rules
    ch = creating(ctx.campaign)
    assert ch.creation is not None
    table = rules.creation.weapon_table if purpose == "weapon" else rules.creation.armour_table
    n = (ch.creation.weapon_rolls if purpose == "weapon" else ch.creation.armour_rolls) + 1
    result = ctx.tables.roll(table, f"Starting {purpose} ({n})")
    events = [ev.emit(ev.TableRolled(table_roll=result), result.describe()), _listed(ctx, result)]
    if result.row is None:
        lo, hi = result.missing or (result.roll.final, result.roll.final)
        needed = add_pending(
            ctx.campaign,
            RowNeeded(
                purpose=purpose,
                table_roll=result,
                prompt=f"{result.table_title}: {result.roll.final} is not in your tables. Type row {lo}-{hi} from your rulebook.",
            ),
        )
        return [*events, ev.emit(Decision(decision=needed.id, missing=[lo, hi]), needed.prompt)]
    return events + _place_rolled(ctx, ch, rules, purpose, result)


def _listed(ctx: GameContext, result: TableRoll) -> Event:
    """Put a creation roll in the dice history, as every roll is (the dice panel lists it). A roll_made
    event even for a missing row: the wizard asks for that row itself, so no second row dialog opens."""
    history = ctx.campaign.dice_history
    history.append(HistoryEntry(roll=result.roll, table=result))
    return Event.of(RollMade(index=len(history) - 1))


def _place_rolled(ctx: GameContext, ch: Character, rules: Rules, purpose: str, result: TableRoll) -> list[Event]:
    assert result.row is not None
    if purpose == "weapon":
        return _place_weapon(ctx, ch, rules, item_from_weapon_row(rules, result.row, result.table_id))
    return _place_armour(ctx, ch, rules, item_from_armour_row(rules, result.row, result.table_id), result)


@register_command
class RollStartingWeapon(Command):
    """Roll on Table W for the starting weapon (once)."""

    kind: Literal["roll_starting_weapon"] = "roll_starting_weapon"
    when: ClassVar[Phases] = CREATION

    def apply(self, ctx: GameContext) -> list[Event]:
        _begin(ctx.campaign, "weapon", ctx.rules)
        return _roll_starting(ctx, "weapon")


@register_command
class RollStartingArmour(Command):
    """Roll on Table A for one piece of starting armour (three times in all)."""

    kind: Literal["roll_starting_armour"] = "roll_starting_armour"
    when: ClassVar[Phases] = CREATION

    def apply(self, ctx: GameContext) -> list[Event]:
        _begin(ctx.campaign, "armour", ctx.rules)
        return _roll_starting(ctx, "armour")


@register_command
class ResolveArmourClash(Command):
    """A starting armour piece for a filled slot: ``keep_new`` (discard the old) or ``reroll``."""

    kind: Literal["resolve_armour_clash"] = "resolve_armour_clash"
    when: ClassVar[Phases] = CREATION
    decision: str
    choice: Literal["keep_new", "reroll"]

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = creating(ctx.campaign)
        clash = take_pending(ctx.campaign, self.decision, ArmourClash)
        if self.choice == "reroll":
            set_aside = ev.emit(ev.ArmourRerolled(item=clash.new_item.name), f"{clash.new_item.name} set aside: rolling again.")
            return [set_aside, *_roll_starting(ctx, "armour")]
        ch.equipment[clash.slot] = clash.new_item
        _count_armour(ch, rules)
        message = f"Kept {clash.new_item.name} on the {rules.slot(clash.slot).name}; {clash.old_item.name} is discarded."
        return [ev.emit(ev.Equipped(slot=clash.slot), message)]


@register_command
class ProvideStartingRow(Command):
    """The player typed the missing row of a starting roll: it is laid over their tables
    (the UI saves it to their pack from the ``row_provided`` event) and the item is placed."""

    kind: Literal["provide_starting_row"] = "provide_starting_row"
    when: ClassVar[Phases] = CREATION
    decision: str
    row: Row | None = None
    sample: bool = False  # instead of a typed row: re-roll among the printed rows, this time only (sample play)

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = creating(ctx.campaign)
        needed = take_pending(ctx.campaign, self.decision, RowNeeded)
        if self.sample and self.row is None:
            resolved = _sample_row(ctx, needed.table_roll)
            return [
                ev.emit(ev.Narrative(), f"Sample play: {resolved.describe()}"),
                _listed(ctx, resolved),
                *_place_rolled(ctx, ch, rules, needed.purpose, resolved),
            ]
        if self.row is None or self.sample:
            refuse("Type the row from your rulebook, or re-roll among the printed rows (not both).")
        try:
            resolved = ctx.tables.resolve_missing(needed.table_roll, self.row)
        except ValueError as exc:
            refuse(str(exc))
        events = [ev.emit(RowProvided(table_id=resolved.table_id, row=self.row), resolved.describe())]
        return events + _place_rolled(ctx, ch, rules, needed.purpose, resolved)


def _sample_row(ctx: GameContext, waiting: TableRoll) -> TableRoll:
    """The starting roll's table rolled again (same die, modifiers and column) until it lands on a printed row."""
    mods = waiting.roll.modifiers
    roller = ctx.tables.with_policy(MissingRowPolicy.REROLL)
    label = mods[0].label if mods else "modifier"
    try:
        rolled = roller.roll(
            waiting.table_id, waiting.roll.purpose, sum(m.value for m in mods), label, waiting.roll.expression, waiting.column
        )
    except (TableError, DiceError) as exc:
        refuse(str(exc))
    if rolled.row is None:
        refuse(f"{rolled.table_title} prints no row to re-roll among: type the row from your rulebook.")
    return rolled.model_copy(update={"sample": True, "discarded": [waiting.roll, *rolled.discarded]})


# --------------------------------------------------------------------------- supplies and finishing


@register_command
class TakeStartingSupplies(Command):
    """Add the starting supplies: 20 oil, 10 food, 15 picks."""

    kind: Literal["take_starting_supplies"] = "take_starting_supplies"
    when: ClassVar[Phases] = CREATION

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "supplies", ctx.rules)
        for key, value in rules.creation.supplies.items():
            setattr(ch.supplies, key, value)
        _done(ch, "supplies")
        s = ch.supplies
        payload = ev.SuppliesChanged(oil=s.oil, food=s.food, picks=s.picks)
        return [ev.emit(payload, f"Supplies: {s.oil} oil, {s.food} food, {s.picks} picks.")]


@register_command
class TakeStartingPotions(Command):
    """Put the starting potions (three Lesser Healing Potions) in the belt slots."""

    kind: Literal["take_starting_potions"] = "take_starting_potions"
    when: ClassVar[Phases] = CREATION

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "potions", ctx.rules)
        placed = []
        for spec in rules.creation.belt:
            for _ in range(spec.count):
                free = next((i for i, held in enumerate(ch.belt) if held is None), None)
                if free is None:
                    refuse("The belt is full.")
                ch.belt[free] = Item(name=spec.name, kind=spec.kind, effect=spec.effect, source="starting equipment")
                placed.append(f"{spec.name} (belt slot {free + 1})")
        _done(ch, "potions")
        return [ev.emit(ev.BeltChanged(), "On the belt: " + ", ".join(placed) + ".")]


@register_command
class SetStartingHealth(Command):
    """Record the finishing values: 20 HP, 3 Fate, 3 Lives."""

    kind: Literal["set_starting_health"] = "set_starting_health"
    when: ClassVar[Phases] = CREATION

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "finishing", ctx.rules)
        ch.hp_primary = rules.creation.hp
        ch.hp = derive(ch, rules).max_hp
        ch.fate = rules.creation.fate
        ch.lives = rules.creation.lives
        _done(ch, "finishing")
        payload = ev.FinishingValues(hp=ch.hp, fate=ch.fate, lives=ch.lives)
        return [ev.emit(payload, f"HP {ch.hp}, Fate {ch.fate}, Lives {ch.lives}.")]


@register_command
class NameCharacter(Command):
    """Write the character's name (during creation or later)."""

    kind: Literal["name_character"] = "name_character"
    when: ClassVar[Phases] = CREATION
    name: str

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = ctx.campaign.character
        if ch is None:
            refuse("There is no character to name: start a new character first.")
        name = " ".join(self.name.split())
        if not name:
            refuse("A name cannot be empty.")
        if len(name) > 60:
            refuse("A name is at most 60 characters.")
        ch.name = name
        return [ev.emit(ev.Named(name=name), f"The character is named {name}.")]


@register_command
class FinishCharacter(Command):
    """Finish creation: every step done, nothing pending, a name written."""

    kind: Literal["finish_character"] = "finish_character"
    when: ClassVar[Phases] = CREATION

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = creating(ctx.campaign)
        _blocking(ctx.campaign)
        step = next_step(ch)
        if step is not None:
            refuse(f"Not finished yet: {step_labels(rules)[step]}.")
        if not ch.name:
            refuse("Name the character before finishing.")
        ch.creation = None
        held = vitals(ch)
        ch.hp = derive(ch, rules).max_hp
        enforce(ch, rules)
        finished = ev.emit(ev.CharacterFinished(name=ch.name), f"{ch.name} is ready for their first quest.")
        return [finished, *changed_vitals(ch, rules, held)]  # HP to a maximum an item changed since: typed


CREATION_COMMANDS: tuple[type[Command], ...] = (
    CreateCharacter,
    AssignCharacteristics,
    ChooseStartingSkills,
    SetStartingReputation,
    RollStartingWeapon,
    RollStartingArmour,
    ResolveArmourClash,
    ProvideStartingRow,
    TakeStartingSupplies,
    TakeStartingPotions,
    SetStartingHealth,
    NameCharacter,
    FinishCharacter,
)


def creation_commands(name: str, scores: dict[str, int], skills: list[str], armour_rolls: int = 3) -> list[Command]:
    """Every step of "Creating a Character" as commands, in the rulebook's order.

    Armour clashes (a second piece for one slot) become pending decisions the caller settles
    between the steps; with dice that give no clash the list runs straight through.
    """
    return [
        CreateCharacter(),
        AssignCharacteristics(scores=scores),
        ChooseStartingSkills(skills=skills),
        SetStartingReputation(),
        RollStartingWeapon(),
        *[RollStartingArmour() for _ in range(armour_rolls)],
        TakeStartingSupplies(),
        TakeStartingPotions(),
        SetStartingHealth(),
        NameCharacter(name=name),
        FinishCharacter(),
    ]
