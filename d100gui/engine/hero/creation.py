"""Creating a character, step by step, as commands (rulebook "Creating a Character").

Steps, in the rulebook's order (each needs the ones before it):

1. ``characteristics`` — :class:`AssignCharacteristics`: 50, 40 and 30 to STR/DEX/INT in any order.
2. ``skills`` — :class:`ChooseStartingSkills`: two skills at +5.
3. ``reputation`` — :class:`SetStartingReputation`: REP 1.
4. ``weapon`` — :class:`RollStartingWeapon`: one roll on Table W, into the main weapon slot.
5. ``armour`` — :class:`RollStartingArmour` three times on Table A. A piece for a slot already
   filled leaves an :class:`~.character.ArmourClash`: keep the new piece (the old one is
   discarded) or roll again (:class:`ResolveArmourClash`). A roll on a row the player's
   tables lack leaves a :class:`~.character.RowNeeded` (:class:`ProvideStartingRow`).
6. ``supplies`` — :class:`TakeStartingSupplies`: 20 oil, 10 food, 15 picks.
7. ``potions`` — :class:`TakeStartingPotions`: three Lesser Healing Potions on the belt.
8. ``finishing`` — :class:`SetStartingHealth`: 20 HP, 3 Fate, 3 Lives.

:class:`NameCharacter` may come at any time; :class:`FinishCharacter` checks everything is
done and named. Characteristics and skills are choices and may be made again until the
character is finished; rolls may not (undo restores the dice, so it cannot fish either).
"""

from __future__ import annotations

from typing import Literal

from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dice.tables import Row
from d100gui.engine.game import Campaign, Command, CommandRefused, Event, GameContext
from d100gui.engine.hero.character import (
    STATS,
    ArmourClash,
    Character,
    Item,
    RowNeeded,
    add_pending,
    check_equip,
    derive,
    enforce,
    item_from_armour_row,
    item_from_weapon_row,
    new_character,
    pending_of,
    refuse,
    take_pending,
)
from d100gui.engine.rules.model import Rules

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
REPEATABLE = ("characteristics", "skills")


def _ev(kind: str, message: str, topic: str = "character", **data: object) -> Event:
    return Event(kind=kind, message=message, topic=topic, data=data)


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
    waiting = pending_of(campaign, ArmourClash) + pending_of(campaign, RowNeeded)  # type: ignore[operator]
    if waiting:
        refuse(f"Settle this first: {waiting[0].prompt}")


def _begin(campaign: Campaign, step: str) -> Character:
    ch = creating(campaign)
    assert ch.creation is not None
    _blocking(campaign)
    index = STEPS.index(step)
    missing = [s for s in STEPS[:index] if s not in ch.creation.done]
    if missing:
        refuse(f"Creating a character goes step by step: first {STEP_LABELS[missing[0]]}.")
    if step in ch.creation.done and step not in REPEATABLE:
        refuse(f"Already done: {STEP_LABELS[step]}.")
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


class CreateCharacter(Command):
    """Start a new character sheet. ``restart`` throws away one being created; a dead
    character goes to the hall of the fallen."""

    kind: Literal["create_character"] = "create_character"
    restart: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        old = campaign.character
        events: list[Event] = []
        if old is not None:
            if old.dead:
                campaign.hall_of_fallen.append(old)
                events.append(
                    _ev("fallen", f"{old.name or 'The fallen character'} joins the hall of the fallen.", topic="campaign")
                )
            elif old.creation is not None:
                if not self.restart:
                    refuse("A character is already being created: carry on, or start again with restart.")
                campaign.pending = [d for d in campaign.pending if not isinstance(d, ArmourClash | RowNeeded)]
            else:
                refuse(f"{old.name or 'The character'} is alive: a campaign has one character at a time.")
        campaign.character = new_character(ctx.rules)
        events.append(_ev("character_started", "A new character sheet. First: " + STEP_LABELS[STEPS[0]] + "."))
        return events


class AssignCharacteristics(Command):
    """Assign the starting values (50/40/30) to STR, DEX and INT: ``scores`` = {"STR": 50, ...}."""

    kind: Literal["assign_characteristics"] = "assign_characteristics"
    scores: dict[str, int]

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "characteristics")
        scores = {k.strip().upper()[:3]: v for k, v in self.scores.items()}
        wanted = sorted(rules.creation.characteristic_values, reverse=True)
        if sorted(scores) != sorted(STATS) or sorted(scores.values(), reverse=True) != wanted:
            shown = ", ".join(str(v) for v in wanted)
            refuse(f"Assign {shown} to STR, DEX and INT, one value each.")
        for stat, value in scores.items():
            ch.characteristics[stat].primary = value
            ch.characteristics[stat].pips = 0
        _done(ch, "characteristics")
        return [_ev("characteristics", "Characteristics: " + ", ".join(f"{s} {scores[s]}" for s in STATS) + ".")]


class ChooseStartingSkills(Command):
    """Choose the starting skills (two, at +5 each)."""

    kind: Literal["choose_starting_skills"] = "choose_starting_skills"
    skills: list[str]

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "skills")
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
        return [_ev("skills", f"Starting skills: {', '.join(f'{s} +{bonus}' for s in chosen)}.")]


class SetStartingReputation(Command):
    """Record the starting REP (1)."""

    kind: Literal["set_starting_reputation"] = "set_starting_reputation"

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "reputation")
        ch.rep = rules.creation.rep
        _done(ch, "reputation")
        return [_ev("rep", f"REP {ch.rep} (it stays between {rules.reputation.min} and {rules.reputation.max}).")]


# --------------------------------------------------------------------------- equipment rolls


def _place_weapon(ctx: GameContext, ch: Character, rules: Rules, item: Item) -> list[Event]:
    assert ch.creation is not None
    ch.creation.weapon_rolls += 1
    if ch.creation.weapon_rolls >= rules.creation.weapon_rolls:
        _done(ch, "weapon")
    for slot in ("main_weapon", "off_weapon"):
        if _fits(ch, rules, item, slot):
            ch.equipment[slot] = item
            return [_ev("equipped", f"Starting weapon: {item.describe()} in the {rules.slot(slot).name} slot.", slot=slot)]
    ch.backpack.append(item)
    return [_ev("backpacked", f"Starting weapon: {item.describe()} has no free weapon slot and goes in the backpack.")]


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
        return [_ev("backpacked", f"Starting armour: {item.describe()} names no slot on the sheet and goes in the backpack.")]
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
        return [_ev("decision", clash.prompt, topic="decision", decision=clash.id)]
    _count_armour(ch, rules)
    if not _fits(ch, rules, item, slot):
        ch.backpack.append(item)
        return [_ev("backpacked", f"Starting armour: {item.describe()} cannot be equipped now and goes in the backpack.")]
    ch.equipment[slot] = item
    return [_ev("equipped", f"Starting armour: {item.describe()} on the {rules.slot(slot).name}.", slot=slot)]


def _roll_starting(ctx: GameContext, purpose: Literal["weapon", "armour"]) -> list[Event]:
    rules = ctx.rules
    ch = creating(ctx.campaign)
    assert ch.creation is not None
    table = rules.creation.weapon_table if purpose == "weapon" else rules.creation.armour_table
    n = (ch.creation.weapon_rolls if purpose == "weapon" else ch.creation.armour_rolls) + 1
    result = ctx.tables.roll(table, f"Starting {purpose} ({n})")
    events = [_ev("table_rolled", result.describe(), topic="dice", table_roll=result.model_dump(mode="json"))]
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
        return [*events, _ev("decision", needed.prompt, topic="decision", decision=needed.id, missing=[lo, hi])]
    return events + _place_rolled(ctx, ch, rules, purpose, result)


def _place_rolled(ctx: GameContext, ch: Character, rules: Rules, purpose: str, result: TableRoll) -> list[Event]:
    assert result.row is not None
    if purpose == "weapon":
        return _place_weapon(ctx, ch, rules, item_from_weapon_row(rules, result.row, result.table_id))
    return _place_armour(ctx, ch, rules, item_from_armour_row(rules, result.row, result.table_id), result)


class RollStartingWeapon(Command):
    """Roll on Table W for the starting weapon (once)."""

    kind: Literal["roll_starting_weapon"] = "roll_starting_weapon"

    def apply(self, ctx: GameContext) -> list[Event]:
        _begin(ctx.campaign, "weapon")
        return _roll_starting(ctx, "weapon")


class RollStartingArmour(Command):
    """Roll on Table A for one piece of starting armour (three times in all)."""

    kind: Literal["roll_starting_armour"] = "roll_starting_armour"

    def apply(self, ctx: GameContext) -> list[Event]:
        _begin(ctx.campaign, "armour")
        return _roll_starting(ctx, "armour")


class ResolveArmourClash(Command):
    """A starting armour piece for a filled slot: ``keep_new`` (discard the old) or ``reroll``."""

    kind: Literal["resolve_armour_clash"] = "resolve_armour_clash"
    decision: str
    choice: Literal["keep_new", "reroll"]

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = creating(ctx.campaign)
        clash = take_pending(ctx.campaign, self.decision, ArmourClash)
        if self.choice == "reroll":
            return [
                _ev("armour_rerolled", f"{clash.new_item.name} set aside: rolling again.", topic="log"),
                *_roll_starting(ctx, "armour"),
            ]
        ch.equipment[clash.slot] = clash.new_item
        _count_armour(ch, rules)
        return [
            _ev(
                "equipped",
                f"Kept {clash.new_item.name} on the {rules.slot(clash.slot).name}; {clash.old_item.name} is discarded.",
                slot=clash.slot,
            )
        ]


class ProvideStartingRow(Command):
    """The player typed the missing row of a starting roll: it is laid over their tables
    (the UI saves it to their pack from the ``row_provided`` event) and the item is placed."""

    kind: Literal["provide_starting_row"] = "provide_starting_row"
    decision: str
    row: Row

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = creating(ctx.campaign)
        needed = take_pending(ctx.campaign, self.decision, RowNeeded)
        try:
            resolved = ctx.tables.resolve_missing(needed.table_roll, self.row)
        except ValueError as exc:
            refuse(str(exc))
        events = [
            _ev(
                "row_provided",
                resolved.describe(),
                topic="dice",
                table_id=resolved.table_id,
                row=self.row.model_dump(mode="json"),
            )
        ]
        return events + _place_rolled(ctx, ch, rules, needed.purpose, resolved)


# --------------------------------------------------------------------------- supplies and finishing


class TakeStartingSupplies(Command):
    """Add the starting supplies: 20 oil, 10 food, 15 picks."""

    kind: Literal["take_starting_supplies"] = "take_starting_supplies"

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "supplies")
        for key, value in rules.creation.supplies.items():
            setattr(ch.supplies, key, value)
        _done(ch, "supplies")
        s = ch.supplies
        return [_ev("supplies", f"Supplies: {s.oil} oil, {s.food} food, {s.picks} picks.")]


class TakeStartingPotions(Command):
    """Put the starting potions (three Lesser Healing Potions) in the belt slots."""

    kind: Literal["take_starting_potions"] = "take_starting_potions"

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "potions")
        placed = []
        for spec in rules.creation.belt:
            for _ in range(spec.count):
                free = next((i for i, held in enumerate(ch.belt) if held is None), None)
                if free is None:
                    refuse("The belt is full.")
                ch.belt[free] = Item(name=spec.name, kind=spec.kind, effect=spec.effect, source="starting equipment")
                placed.append(f"{spec.name} (belt slot {free + 1})")
        _done(ch, "potions")
        return [_ev("belt", "On the belt: " + ", ".join(placed) + ".")]


class SetStartingHealth(Command):
    """Record the finishing values: 20 HP, 3 Fate, 3 Lives."""

    kind: Literal["set_starting_health"] = "set_starting_health"

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = _begin(ctx.campaign, "finishing")
        ch.hp_primary = rules.creation.hp
        ch.hp = derive(ch, rules).max_hp
        ch.fate = rules.creation.fate
        ch.lives = rules.creation.lives
        _done(ch, "finishing")
        return [_ev("finishing", f"HP {ch.hp}, Fate {ch.fate}, Lives {ch.lives}.")]


class NameCharacter(Command):
    """Write the character's name (during creation or later)."""

    kind: Literal["name_character"] = "name_character"
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
        return [_ev("named", f"The character is named {name}.")]


class FinishCharacter(Command):
    """Finish creation: every step done, nothing pending, a name written."""

    kind: Literal["finish_character"] = "finish_character"

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = creating(ctx.campaign)
        _blocking(ctx.campaign)
        step = next_step(ch)
        if step is not None:
            refuse(f"Not finished yet: {STEP_LABELS[step]}.")
        if not ch.name:
            refuse("Name the character before finishing.")
        ch.creation = None
        ch.hp = derive(ch, rules).max_hp
        enforce(ch, rules)
        return [_ev("character_finished", f"{ch.name} is ready for their first quest.")]


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
