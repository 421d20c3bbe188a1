"""Hand corrections on the character sheet, as commands (each marked manual in the log).

The rules procedures change the sheet as play goes; these commands are for what a player
does with an eraser: fix a number, shade or clear pips, rewrite an item. Each is a
:class:`~d100gui.engine.game.Command` with ``manual = True`` so the log marks it, is checked against the
sheet's invariants (:func:`~.invariants.enforce`) and refused whole with a message the player
can read, and is undoable like every command.

* :class:`SetSheetField` — a simple field: name, GP, REP, Fate, Lives, RES, HP, primary HP,
  the quest encounter modifier, oil / food / picks, objectives met, darkness, the quest log,
  notes.
* :class:`SetTrackPips` — the shaded pips of a track: experience (per characteristic or
  skill), repair (per item), poison, disease, keys, levers, the time track's clocks, an
  investment's shares or pips, the combat track's filled boxes.
* :class:`SetCharacteristic` / :class:`SetSkillBonus` — a primary characteristic or a skill bonus.
* :class:`SetSpell` — write or erase a spell in a spell-book position.
* :class:`EditItem` / :class:`DiscardItem` — rewrite or rub out an item anywhere on the sheet.

A correction never fires a rule: shading a time-track clock by hand does not use oil, and a
combat-track box filled by hand gives no milestone reward. The one exception is an
experience track filled to its last pip, which adds its step and clears as the sheet says, because
a full track cannot be written any other way.
"""

from __future__ import annotations

from typing import ClassVar, Literal, get_args

from d100gui.engine.command_registry import register_command
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero import events as ev
from d100gui.engine.hero.derive import clamp_hp, derive
from d100gui.engine.hero.equipment import check_equip
from d100gui.engine.hero.experience import shade_experience
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.invariants import enforce
from d100gui.engine.hero.model import Character, CombatTrackEntry, Item, Score, SkillScore, SpellEntry
from d100gui.engine.hero.primaries import changed_primaries, primaries
from d100gui.engine.hero.vitals import changed_vitals, vitals
from d100gui.engine.phases import SHEET_FIX, Phases
from d100gui.engine.protocol import Event, Payload
from d100gui.engine.rules.model import Rules

MAX_NOTES = 20_000
MAX_TEXT = 200


def _ev(payload: Payload, message: str) -> Event:
    """A hand correction's event: the log says it was one."""
    return ev.emit(payload, f"Hand correction: {message}")


def _shown(value: object) -> str:
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37] + "...")
    return str(value)


# --------------------------------------------------------------------------- simple fields

IntField = Literal[
    "gp",
    "rep",
    "fate",
    "lives",
    "hp",
    "hp_primary",
    "quest_encounter_modifier",
    "oil",
    "food",
    "picks",
    "objectives",
    "quests_attempted",
    "quests_completed",
    "quests_failed",
]
TextField = Literal["name", "notes", "current_quest"]
FlagField = Literal["res", "in_darkness"]

INT_FIELDS: tuple[str, ...] = get_args(IntField)
TEXT_FIELDS: tuple[str, ...] = get_args(TextField)
FLAG_FIELDS: tuple[str, ...] = get_args(FlagField)

LABELS = {
    "gp": "GP",
    "rep": "REP",
    "fate": "Fate",
    "lives": "Lives",
    "hp": "HP",
    "hp_primary": "primary HP",
    "quest_encounter_modifier": "quest encounter modifier",
    "oil": "Oil",
    "food": "Food",
    "picks": "Picks",
    "objectives": "objectives met",
    "quests_attempted": "quests attempted",
    "quests_completed": "quests completed",
    "quests_failed": "quests failed",
    "name": "name",
    "notes": "notes",
    "current_quest": "current quest",
    "res": "RES",
    "in_darkness": "darkness",
}


def _get(ch: Character, field: str) -> object:
    if field in ("oil", "food", "picks"):
        return getattr(ch.supplies, field)
    if field.startswith("quests_"):
        return getattr(ch.quest_log, field.removeprefix("quests_"))
    if field == "current_quest":
        return ch.quest_log.current
    return getattr(ch, field)


def _set(ch: Character, field: str, value: object) -> None:
    if field in ("oil", "food", "picks"):
        setattr(ch.supplies, field, value)
    elif field.startswith("quests_"):
        setattr(ch.quest_log, field.removeprefix("quests_"), value)
    elif field == "current_quest":
        ch.quest_log.current = str(value)
    else:
        setattr(ch, field, value)


def _check_value(field: str, value: object, rules: Rules) -> object:
    """The value in the field's type, or a refusal saying what the field takes."""
    label = LABELS[field]
    if field in INT_FIELDS:
        if isinstance(value, bool) or not isinstance(value, int):
            refuse(f"The {label} is a whole number, not {_shown(value)}.")
        if field == "hp" and value < 0:
            refuse("HP cannot go below 0.")
        if field == "hp_primary" and value < 1:
            refuse("Primary HP is at least 1.")
        if field.startswith("quests_") and value < 0:
            refuse(f"The number of {label} cannot go below 0.")
        if field == "quest_encounter_modifier" and not -100 <= value <= 100:
            refuse("The quest encounter modifier stays between -100 and +100 (Table E is a d100).")
        return value
    if field in TEXT_FIELDS:
        if not isinstance(value, str):
            refuse(f"The {label} is text, not {_shown(value)}.")
        if field == "notes":
            if len(value) > MAX_NOTES:
                refuse(f"Notes are at most {MAX_NOTES} characters.")
            return value
        text = " ".join(value.split())
        if field == "name":
            if not text:
                refuse("A name cannot be empty.")
            if len(text) > 60:
                refuse("A name is at most 60 characters.")
        elif len(text) > MAX_TEXT:
            refuse(f"The {label} is at most {MAX_TEXT} characters.")
        return text
    if not isinstance(value, bool):
        refuse(f"The {label} is on or off, not {_shown(value)}.")
    return value


@register_command
class SetSheetField(Command):
    """Write a simple field of the sheet by hand (``field`` names it, ``value`` is the new value)."""

    kind: Literal["set_sheet_field"] = "set_sheet_field"
    when: ClassVar[Phases] = SHEET_FIX
    manual: ClassVar[bool] = True
    field: IntField | TextField | FlagField
    value: bool | int | str

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        value = _check_value(self.field, self.value, rules)
        before, held = _get(ch, self.field), vitals(ch)
        _set(ch, self.field, value)
        extra = ""
        if self.field == "hp_primary":
            lost = clamp_hp(ch, rules)
            if lost:
                extra = f"; HP down to the new maximum ({ch.hp})"
        enforce(ch, rules)
        if self.field == "notes":
            return [_ev(ev.SheetFieldSet(field=self.field), "notes rewritten.")]
        message = f"{LABELS[self.field]} {_shown(before)} -> {_shown(value)}{extra}."
        return [_ev(ev.SheetFieldSet(field=self.field), message), *changed_vitals(ch, rules, held)]


# --------------------------------------------------------------------------- tracks

TrackName = Literal[
    "experience",
    "repair",
    "poison",
    "disease",
    "keys",
    "levers",
    "time",
    "investment_shares",
    "investment_pips",
    "combat",
]


def _item_at(ch: Character, target: str) -> Item:
    """The item a repair track belongs to: an equipment slot id, or ``backpack:N`` (0-based)."""
    if target.startswith("backpack:"):
        try:
            index = int(target.split(":", 1)[1])
        except ValueError:
            refuse(f"{target!r} is not a backpack position.")
        if not 0 <= index < len(ch.backpack):
            refuse(f"There is no item {index + 1} in the backpack.")
        return ch.backpack[index]
    if target not in ch.equipment:
        refuse(f"There is no equipment slot {target!r}.")
    item = ch.equipment[target]
    if item is None:
        refuse(f"Nothing is equipped in the {target.replace('_', ' ')} slot.")
    return item


def _set_experience(ch: Character, rules: Rules, target: str, value: int) -> str:
    stat = target.strip().upper()[:3]
    score: Score | SkillScore
    name: str
    if stat in rules.characteristics:
        score, name, length = ch.characteristics[stat], stat, rules.sheet.characteristic_track
    else:
        skill = rules.canonical_skill(target)
        if skill is None or skill not in ch.skills:
            refuse(f"There is no experience track called {target!r}.")
        score, name, length = ch.skills[skill], skill, rules.sheet.skill_track
    if not 0 <= value <= length:
        refuse(f"{name}'s experience track has {length} pips.")
    before = score.pips
    if value == length:  # the last pip: the step is added and the track clears (refused at the maximum)
        score.pips = length - 1
        notes = shade_experience(ch, rules, name, 1)
        return f"{name} experience {before} -> full. " + " ".join(notes)
    score.pips = value
    return f"{name} experience pips {before} -> {value} of {length}."


def _set_count(ch: Character, rules: Rules, name: str, value: int) -> str:
    length = int(getattr(rules.sheet, f"{name}_track"))
    if not 0 <= value <= length:
        refuse(f"The {name.title()} track has {length} pips (0 to {length}).")
    before = getattr(ch, name)
    setattr(ch, name, value)
    return f"{name.title()} track {before} -> {value} of {length}."


def _set_time(ch: Character, rules: Rules, value: int) -> str:
    clocks = rules.sheet.time_track.clocks
    if value == clocks:
        refuse(
            f"Shading the last of the {clocks} clocks refreshes the time track: that happens when time passes in play. "
            f"By hand, set 0 to {clocks - 1} clocks."
        )
    if not 0 <= value < clocks:
        refuse(f"The time track has {clocks} clocks.")
    before = ch.time_track.shaded
    ch.time_track.shaded = value
    return f"time track {before} -> {value} of {clocks} clocks (no oil, food or wandering-monster checks for a hand edit)."


def _set_investment(ch: Character, rules: Rules, target: str, value: int, what: str) -> str:
    kinds = {k.id: k for k in rules.investments.kinds}
    key = target.strip().lower()
    if key not in kinds or key not in ch.empire:
        refuse(f"There is no investment called {target!r}: {', '.join(k.name for k in rules.investments.kinds)}.")
    inv = ch.empire[key]
    name = kinds[key].name
    if what == "shares":
        if not 0 <= value <= rules.investments.max_shares:
            refuse(f"{name}: 0 to {rules.investments.max_shares} shares.")
        before, inv.shares = inv.shares, value
        return f"{name} shares {before} -> {value}."
    if not 0 <= value < rules.investments.pips_per_share:
        refuse(f"{name}: 0 to {rules.investments.pips_per_share - 1} pips ({rules.investments.pips_per_share} make a share).")
    before, inv.pips = inv.pips, value
    return f"{name} pips {before} -> {value}."


def _set_combat(ch: Character, rules: Rules, value: int) -> str:
    length = rules.sheet.combat_track.length
    if not 0 <= value <= length:
        refuse(f"The combat track has {length} boxes.")
    before = len(ch.combat_track)
    if value < before:
        del ch.combat_track[value:]
    else:
        ch.combat_track += [CombatTrackEntry(monster="(filled by hand)") for _ in range(value - before)]
    return f"combat track {before} -> {value} boxes (no milestone rewards for a hand edit)."


@register_command
class SetTrackPips(Command):
    """Set how many pips of a track are shaded.

    ``target`` says which track where there are several: the characteristic or skill of an
    experience track, the equipment slot (or ``backpack:N``) of a repair track, the
    investment (``trade``, ``finance``, ``holdings``, ``wars``).
    """

    kind: Literal["set_track_pips"] = "set_track_pips"
    when: ClassVar[Phases] = SHEET_FIX
    manual: ClassVar[bool] = True
    track: TrackName
    target: str = ""
    value: int

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        if self.value < 0:
            refuse("A track cannot have fewer than 0 pips shaded.")
        scores = primaries(ch)  # a full experience track raises the characteristic: told by its typed event too
        if self.track == "experience":
            message = _set_experience(ch, rules, self.target, self.value)
        elif self.track == "repair":
            item = _item_at(ch, self.target)
            length = item.repair_track or rules.sheet.repair_track
            if self.value >= length:
                refuse(f"{item.name}'s repair track has {length} pips: shading them all destroys it. Discard the item instead.")
            before, item.repair_pips = item.repair_pips, self.value
            message = f"{item.name} repair pips {before} -> {self.value} of {length}."
        elif self.track in ("poison", "disease", "keys", "levers"):
            message = _set_count(ch, rules, self.track, self.value)
        elif self.track == "time":
            message = _set_time(ch, rules, self.value)
        elif self.track in ("investment_shares", "investment_pips"):
            message = _set_investment(ch, rules, self.target, self.value, self.track.removeprefix("investment_"))
        else:
            message = _set_combat(ch, rules, self.value)
        enforce(ch, rules)
        return [_ev(ev.TrackSet(track=self.track, target=self.target, value=self.value), message), *changed_primaries(ch, scores)]


# --------------------------------------------------------------------------- characteristics and skills


@register_command
class SetCharacteristic(Command):
    """Write a primary characteristic (STR, DEX or INT) by hand."""

    kind: Literal["set_characteristic"] = "set_characteristic"
    when: ClassVar[Phases] = SHEET_FIX
    manual: ClassVar[bool] = True
    stat: str
    primary: int

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        stat = self.stat.strip().upper()[:3]
        if stat not in rules.characteristics:
            refuse(f"Choose {', '.join(rules.characteristics[:-1])} or {rules.characteristics[-1]}.")
        if not 0 <= self.primary <= rules.characteristic_max:
            refuse(f"A characteristic stays between 0 and {rules.characteristic_max} (it would be {self.primary}).")
        score = ch.characteristics[stat]
        held = vitals(ch)
        before, score.primary = score.primary, self.primary
        clamp_hp(ch, rules)
        enforce(ch, rules)
        adjusted = derive(ch, rules).characteristics[stat]
        payload = ev.CharacteristicChanged(stat=stat, primary=self.primary)
        return [
            _ev(payload, f"{stat} primary {before} -> {self.primary} (adjusted {adjusted})."),
            *changed_vitals(ch, rules, held),
        ]


@register_command
class SetSkillBonus(Command):
    """Write a skill's bonus by hand (+0 to +20, in steps of +5)."""

    kind: Literal["set_skill_bonus"] = "set_skill_bonus"
    when: ClassVar[Phases] = SHEET_FIX
    manual: ClassVar[bool] = True
    skill: str
    bonus: int

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        skill = rules.canonical_skill(self.skill)
        if skill is None or skill not in ch.skills:
            refuse(f"There is no skill called {self.skill!r}. Skills: {', '.join(rules.skills)}.")
        if self.bonus % rules.skill_step:
            refuse(f"Skill bonuses go in steps of +{rules.skill_step} ({self.bonus:+d} is not one).")
        score = ch.skills[skill]
        before, score.bonus = score.bonus, self.bonus
        enforce(ch, rules)
        return [_ev(ev.SkillChanged(skill=skill, bonus=self.bonus), f"{skill} {before:+d} -> {self.bonus:+d}.")]


# --------------------------------------------------------------------------- spell book


@register_command
class SetSpell(Command):
    """Write a spell in spell-book position ``position`` (1-based); an empty name erases it."""

    kind: Literal["set_spell"] = "set_spell"
    when: ClassVar[Phases] = SHEET_FIX
    manual: ClassVar[bool] = True
    position: int
    name: str = ""
    cost: str = ""
    effect: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        size = len(rules.spell_thresholds())
        if not 1 <= self.position <= size:
            refuse(f"The spell book has positions 1 to {size}.")
        ch.spell_book += [None] * max(0, size - len(ch.spell_book))
        name = " ".join(self.name.split())
        if len(name) > MAX_TEXT or len(self.cost) > MAX_TEXT or len(self.effect) > 2 * MAX_TEXT:
            refuse("That spell is too long to write in the book.")
        before = ch.spell_book[self.position - 1]
        if not name:
            if before is None:
                refuse(f"Spell-book position {self.position} is already empty.")
            ch.spell_book[self.position - 1] = None
            message = f"erased {before.name} from spell-book position {self.position}."
        else:
            ch.spell_book[self.position - 1] = SpellEntry(name=name, cost=self.cost.strip(), effect=self.effect.strip())
            threshold = rules.spell_thresholds()[self.position - 1]
            message = f"{name} in spell-book position {self.position} (INT {threshold}+)."
        enforce(ch, rules)
        return [_ev(ev.SpellSet(position=self.position), message)]


# --------------------------------------------------------------------------- items

Where = Literal["equipment", "belt", "backpack", "potions", "non_slot"]
WHERE_LABELS = {
    "equipment": "equipment",
    "belt": "belt",
    "backpack": "backpack",
    "potions": "unequipped potions",
    "non_slot": "non-slot items",
}


def _locate(ch: Character, where: str, slot: str, index: int) -> tuple[str, Item]:
    """A readable place and the item there; refused if empty or absent."""
    if where == "equipment":
        if slot not in ch.equipment:
            refuse(f"There is no equipment slot {slot!r}.")
        item = ch.equipment[slot]
        if item is None:
            refuse(f"Nothing is equipped in the {slot.replace('_', ' ')} slot.")
        return f"the {slot.replace('_', ' ')} slot", item
    if where == "belt":
        if not 0 <= index < len(ch.belt):
            refuse(f"Belt slots are 1 to {len(ch.belt)}.")
        belt_item = ch.belt[index]
        if belt_item is None:
            refuse(f"Belt slot {index + 1} is empty.")
        return f"belt slot {index + 1}", belt_item
    items = {"backpack": ch.backpack, "potions": ch.potions, "non_slot": ch.non_slot_items}[where]
    if not 0 <= index < len(items):
        refuse(f"There is no item {index + 1} in the {WHERE_LABELS[where]}.")
    return f"the {WHERE_LABELS[where]}", items[index]


def _put(ch: Character, where: str, slot: str, index: int, item: Item | None) -> None:
    if where == "equipment":
        ch.equipment[slot] = item
    elif where == "belt":
        ch.belt[index] = item
    else:
        items = {"backpack": ch.backpack, "potions": ch.potions, "non_slot": ch.non_slot_items}[where]
        if item is None:
            del items[index]
        else:
            items[index] = item


@register_command
class EditItem(Command):
    """Rewrite an item where it is: ``where`` (and ``slot`` for equipment, ``index`` 0-based otherwise)."""

    kind: Literal["edit_item"] = "edit_item"
    when: ClassVar[Phases] = SHEET_FIX
    manual: ClassVar[bool] = True
    where: Where
    slot: str = ""
    index: int = 0
    item: Item

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        place, old = _locate(ch, self.where, self.slot, self.index)
        held = vitals(ch)
        if not self.item.name.strip():
            refuse("An item needs a name.")
        if self.where == "equipment":
            ch.equipment[self.slot] = None
            check_equip(ch, rules, self.item, self.slot)
        elif self.where == "belt" and self.item.kind not in rules.belt_kinds:
            refuse(f"Only brews, potions and scrolls go on the belt, not {self.item.name}.")
        _put(ch, self.where, self.slot, self.index, self.item)
        extra = ""
        lost = clamp_hp(ch, rules)
        if lost:
            extra = f" HP down to the new maximum ({ch.hp})."
        enforce(ch, rules)
        message = f"{old.name} in {place} now reads {self.item.describe()}.{extra}"
        return [_ev(ev.ItemEdited(where=self.where), message), *changed_vitals(ch, rules, held)]


@register_command
class DiscardItem(Command):
    """Rub an item off the sheet: ``where`` (and ``slot`` for equipment, ``index`` 0-based otherwise)."""

    kind: Literal["discard_item"] = "discard_item"
    when: ClassVar[Phases] = SHEET_FIX
    manual: ClassVar[bool] = True
    where: Where
    slot: str = ""
    index: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        place, item = _locate(ch, self.where, self.slot, self.index)
        held = vitals(ch)
        _put(ch, self.where, self.slot, self.index, None)
        clamp_hp(ch, rules)
        enforce(ch, rules)
        extra = f" HP {held['hp']} -> {ch.hp}." if ch.hp != held["hp"] else ""
        discarded = _ev(ev.ItemDiscarded(where=self.where, item=item.name), f"{item.name} discarded from {place}.{extra}")
        return [discarded, *changed_vitals(ch, rules, held)]


SHEET_EDIT_COMMANDS: tuple[type[Command], ...] = (
    SetSheetField,
    SetTrackPips,
    SetCharacteristic,
    SetSkillBonus,
    SetSpell,
    EditItem,
    DiscardItem,
)
