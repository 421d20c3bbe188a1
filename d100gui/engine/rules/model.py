"""The character's rule numbers and the character sheet's layout, as data.

Two files, one loader:

* ``resources/d100-rules.json`` holds every number the rulebook states for the character:
  starting values, maxima, the skills, the abilities, the equipment slots with their
  hit-location rolls and damage mods, belt slots, spell-book thresholds, investment, healer,
  training and repair prices.
* ``resources/sheet-layout.json`` holds the figures the rule text leaves to the printed
  sheet (track lengths, time-track trigger positions, combat-track milestones, the damage
  mod of Legs and Feet). The player may edit it; each default carries its reason in the
  file's ``notes``.

:func:`load_rules_text` and :func:`load_layout_text` parse and validate the JSON text and
raise :class:`RulesInvalid` naming the file and field at fault. The text comes from
:mod:`d100gui.storage.resources` (the one loader of bundled data); commands read the rules
from ``ctx.rules`` and widgets from their bridge. Nothing here reads a file or imports Qt.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import Field, ValidationError, model_validator

from d100gui.engine.model import Model

RULES_FILE = "d100-rules.json"
LAYOUT_FILE = "sheet-layout.json"
RULES_SCHEMA_VERSION = 1

Stat = Literal["STR", "DEX", "INT"]
#: the three characteristics (the rules file must list exactly these; :class:`Rules` checks it)
STATS: tuple[str, ...] = ("STR", "DEX", "INT")


class RulesInvalid(ValueError):
    """A rules or layout file that cannot be used; the message names the file and field."""


# --------------------------------------------------------------------------- sheet layout


class TimeTrigger(Model):
    """A symbol printed on a clock of the time track."""

    clock: int = Field(ge=1)
    kind: Literal["oil", "food", "wandering"]
    number: int | None = Field(default=None, ge=1, le=10)  # wandering: a d10 <= this brings a monster

    @model_validator(mode="after")
    def _wandering_has_number(self) -> TimeTrigger:
        if self.kind == "wandering" and self.number is None:
            raise ValueError("a wandering-monster trigger needs its number (1-10)")
        if self.kind != "wandering" and self.number is not None:
            raise ValueError(f"an {self.kind} trigger has no number")
        return self


class TimeTrackLayout(Model):
    clocks: int = Field(ge=1, le=100)
    triggers: list[TimeTrigger] = Field(default_factory=list)

    @model_validator(mode="after")
    def _triggers_on_track(self) -> TimeTrackLayout:
        for t in self.triggers:
            if t.clock > self.clocks:
                raise ValueError(f"trigger {t.kind} at clock {t.clock} is past the last clock ({self.clocks})")
        return self

    def triggers_at(self, clock: int) -> list[TimeTrigger]:
        return [t for t in self.triggers if t.clock == clock]


class Milestone(Model):
    """A reward printed on the combat track, gained when the box at ``position`` is filled."""

    position: int = Field(ge=1)
    reward: str
    effect: str  # in the rulebook's effect notation, read by notation.parse_effects


class CombatTrackLayout(Model):
    length: int = Field(ge=1, le=1000)
    milestones: list[Milestone] = Field(default_factory=list)

    @model_validator(mode="after")
    def _milestones_on_track(self) -> CombatTrackLayout:
        seen: set[int] = set()
        for m in self.milestones:
            if m.position > self.length:
                raise ValueError(f"milestone {m.reward!r} at {m.position} is past the end of the track ({self.length})")
            if m.position in seen:
                raise ValueError(f"two milestones at position {m.position}")
            seen.add(m.position)
        return self


class SheetLayout(Model):
    """The printed sheet's figures the rule text does not give."""

    schema_version: int = RULES_SCHEMA_VERSION
    characteristic_track: int = Field(ge=1, le=100)
    skill_track: int = Field(ge=1, le=100)
    repair_track: int = Field(ge=1, le=100)
    poison_track: int = Field(ge=1, le=100)
    disease_track: int = Field(ge=1, le=100)
    keys_track: int = Field(ge=1, le=100)
    levers_track: int = Field(ge=1, le=100)
    time_track: TimeTrackLayout
    combat_track: CombatTrackLayout
    hit_location_mods: dict[str, int] = Field(default_factory=dict)  # slot id -> damage mod not printed in the rulebook
    notes: dict[str, str] = Field(default_factory=dict)  # why each default is what it is


# --------------------------------------------------------------------------- rule numbers


class Ability(Model):
    id: str
    name: str
    characteristic: Stat
    threshold: int = Field(ge=0)
    summary: str = ""


class MonsterAbilityRule(Model):
    """A Monster Ability as the player reads it: its printed name and a one-line summary (our words).

    The combat engine implements each ability (``engine/combat/abilities.py``); this is the
    text a view shows for it, so no widget types the list out.
    """

    name: str
    summary: str = ""


class SlotRule(Model):
    """One equipment slot of the sheet. ``hit_location`` is its d10 roll (None: never hit)."""

    id: str
    name: str
    kind: Literal["armour", "weapon", "jewellery"]
    hit_location: int | None = Field(default=None, ge=1, le=10)
    damage_mod: int | None = None  # None where the rulebook prints none: the layout gives it, else 0
    belt_check: bool = False


class SpellTier(Model):
    int_min: int = Field(ge=0)
    slots: int = Field(ge=1)


class StartingBeltItem(Model):
    name: str
    kind: Literal["brew", "potion", "scroll", "elixir"]
    effect: str = ""
    count: int = Field(ge=1)


class Creation(Model):
    characteristic_values: list[int]
    skill_choices: int = Field(ge=0)
    skill_bonus: int = Field(ge=0)
    rep: int
    gp: int = Field(ge=0)
    weapon_table: str
    weapon_rolls: int = Field(ge=0)
    armour_table: str
    armour_rolls: int = Field(ge=0)
    supplies: dict[str, int]
    belt: list[StartingBeltItem]
    hp: int = Field(ge=1)
    fate: int = Field(ge=0)
    lives: int = Field(ge=0)


class CreationStep(Model):
    """A page of the creation wizard in our words: its title and the text under it.

    ``text`` may name the rules' numbers in braces (``{rep}``, ``{hp}``); the wizard fills them in.
    """

    id: str
    title: str
    text: str = ""


class Range(Model):
    min: int
    max: int

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self


class Experience(Model):
    natural_max: int = Field(ge=0, le=100)  # a natural d100 roll at or under this earns experience
    characteristic_pips: int = Field(ge=0)
    skill_pips: int = Field(ge=0)


class InvestmentRule(Model):
    id: str
    name: str
    share_value: int = Field(ge=0)
    pip_value: int = Field(ge=0)


class Investments(Model):
    kinds: list[InvestmentRule]
    max_shares: int = Field(ge=0)
    pips_per_share: int = Field(ge=1)


class Healer(Model):
    poison_pip: int
    disease_pip: int
    hp: int


class Training(Model):
    skill_pip: int
    characteristic_pip: int
    max_pips_per_rep: int


class Repair(Model):
    value_divisor: int = Field(ge=1)
    rounding: Literal["up", "nearest", "down"]
    max_item_offset: int = Field(ge=0)
    shield_pips_per_point: float = Field(ge=0)


class Shopping(Model):
    required_items_base: int
    market_rolls_per_rep: int
    #: the tables that carry the market symbol (Search the Markets rolls on them), by table id
    market_tables: list[str] = Field(min_length=1)


class Rules(Model):
    """Every rulebook number the character needs, plus the sheet layout."""

    schema_version: int = RULES_SCHEMA_VERSION
    characteristics: list[Stat]
    characteristic_names: dict[str, str]
    #: one line per characteristic, in our words, for tooltips and the creation wizard
    characteristic_summaries: dict[str, str] = Field(default_factory=dict)
    characteristic_step: int = Field(ge=1)
    characteristic_max: int = Field(ge=1)
    skills: list[str]
    skill_step: int = Field(ge=1)
    skill_max: int = Field(ge=1)
    reputation: Range
    supplies_max: dict[str, int]
    creation: Creation
    #: the creation wizard's pages (title and text per step id), in our words
    creation_steps: list[CreationStep] = Field(default_factory=list)
    experience: Experience
    fate_cost: int = Field(ge=1)
    abilities: list[Ability]
    darkness_modifier: int
    slots: list[SlotRule]
    belt_slots: int = Field(ge=0)
    belt_kinds: list[str]
    belt_check: Literal["belt", "equipment"]
    spell_book: list[SpellTier]
    investments: Investments
    healer: Healer
    training: Training
    repair: Repair
    shopping: Shopping
    notes: dict[str, str] = Field(default_factory=dict)
    #: the Monster Abilities by id (``fly``, ``dark_magic``, ...): name and summary
    monster_abilities: dict[str, MonsterAbilityRule] = Field(default_factory=dict)
    layout: SheetLayout | None = None  # filled from sheet-layout.json by the loaders

    @model_validator(mode="after")
    def _consistent(self) -> Rules:
        if sorted(self.characteristics) != ["DEX", "INT", "STR"]:
            raise ValueError("characteristics must be STR, DEX and INT")
        if len(self.creation.characteristic_values) != len(self.characteristics):
            raise ValueError("creation.characteristic_values needs one value per characteristic")
        if len(set(self.skills)) != len(self.skills):
            raise ValueError("skills are listed twice")
        if self.creation.skill_choices > len(self.skills):
            raise ValueError("more starting skill choices than skills")
        for key in self.creation.supplies:
            if key not in self.supplies_max:
                raise ValueError(f"creation.supplies names {key!r}, which has no maximum in supplies_max")
            if self.creation.supplies[key] > self.supplies_max[key]:
                raise ValueError(f"starting {key} is above its maximum")
        if not self.reputation.min <= self.creation.rep <= self.reputation.max:
            raise ValueError("starting REP is outside the REP range")
        ids = [s.id for s in self.slots]
        if len(set(ids)) != len(ids):
            raise ValueError("two equipment slots share an id")
        locations = [s.hit_location for s in self.slots if s.hit_location is not None]
        if len(set(locations)) != len(locations):
            raise ValueError("two equipment slots share a hit-location roll")
        for needed in ("main_weapon", "off_weapon"):
            if needed not in ids:
                raise ValueError(f"the slots must include {needed!r}")
        belt_total = sum(b.count for b in self.creation.belt)
        if belt_total > self.belt_slots:
            raise ValueError("the starting belt items do not fit in the belt slots")
        return self

    # ---------------------------------------------------------------- lookups
    @property
    def sheet(self) -> SheetLayout:
        if self.layout is None:
            raise RulesInvalid("No sheet layout is loaded with these rules.")
        return self.layout

    def slot(self, slot_id: str) -> SlotRule:
        for s in self.slots:
            if s.id == slot_id:
                return s
        raise KeyError(slot_id)

    def slot_ids(self) -> list[str]:
        return [s.id for s in self.slots]

    def slot_at_location(self, roll: int) -> SlotRule | None:
        return next((s for s in self.slots if s.hit_location == roll), None)

    def damage_mod(self, slot_id: str) -> int:
        """The slot's hit-location damage mod: printed in the rulebook, else from the layout, else 0."""
        rule = self.slot(slot_id)
        if rule.damage_mod is not None:
            return rule.damage_mod
        return self.sheet.hit_location_mods.get(slot_id, 0)

    def spell_thresholds(self) -> list[int]:
        """The INT each spell-book position needs, in book order (50, 50, 50, 50, 50, 60, ...)."""
        return [tier.int_min for tier in self.spell_book for _ in range(tier.slots)]

    def ability(self, ability_id: str) -> Ability:
        for a in self.abilities:
            if a.id == ability_id:
                return a
        raise KeyError(ability_id)

    def monster_ability(self, ability_id: str) -> MonsterAbilityRule:
        """The name and summary of Monster Ability ``ability_id``; KeyError if the rules lack it."""
        return self.monster_abilities[ability_id]

    def characteristic_summary(self, stat: str) -> str:
        """What ``stat`` is for, with the ability it unlocks: ``Strength: ... At 50 it unlocks Mighty Blow.``"""
        name = self.characteristic_names.get(stat, stat)
        text = f"{name}: {self.characteristic_summaries[stat]}" if stat in self.characteristic_summaries else name
        for a in self.abilities:
            if a.characteristic == stat:
                text += f" At {a.threshold} it unlocks {a.name}."
        return text

    def creation_step(self, step_id: str) -> CreationStep:
        """The wizard page for a creation step; a bare one (title from the id) if the rules lack it."""
        found = next((s for s in self.creation_steps if s.id == step_id), None)
        return found or CreationStep(id=step_id, title=step_id.replace("_", " ").capitalize())

    def canonical_skill(self, name: str) -> str | None:
        key = name.strip().lower().rstrip("s")
        return next((s for s in self.skills if s.lower().rstrip("s") == key), None)

    def repair_cost(self, value: int) -> int:
        """Gold to repair one pip of an item worth ``value`` (1/5 of the value, rounded)."""
        q, r = divmod(value, self.repair.value_divisor)
        if r == 0 or self.repair.rounding == "down":
            return q
        if self.repair.rounding == "up":
            return q + 1
        return q + 1 if 2 * r >= self.repair.value_divisor else q


# --------------------------------------------------------------------------- loading


def _problems(exc: ValidationError, name: str) -> str:
    lines = []
    for err in exc.errors()[:20]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "(top level)"
        lines.append(f"  - {name}, field {where}: {err.get('msg', 'invalid')}")
    return "\n".join(lines)


def _read_json(text: str, name: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulesInvalid(f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def load_layout_text(text: str, name: str = LAYOUT_FILE) -> SheetLayout:
    """Parse and validate a sheet-layout file's text."""
    data = _read_json(text, name)
    try:
        layout = SheetLayout.model_validate(data)
    except ValidationError as exc:
        raise RulesInvalid(f"{name} cannot be used:\n{_problems(exc, name)}") from None
    if layout.schema_version > RULES_SCHEMA_VERSION:
        raise RulesInvalid(f"{name} is schema version {layout.schema_version}; this version reads up to {RULES_SCHEMA_VERSION}.")
    return layout


def load_rules_text(text: str, layout_text: str | None = None, name: str = RULES_FILE) -> Rules:
    """Parse and validate the rules file's text; ``layout_text`` (sheet-layout.json) is laid in."""
    data = _read_json(text, name)
    try:
        rules = Rules.model_validate(data)
    except ValidationError as exc:
        raise RulesInvalid(f"{name} cannot be used:\n{_problems(exc, name)}") from None
    if rules.schema_version > RULES_SCHEMA_VERSION:
        raise RulesInvalid(f"{name} is schema version {rules.schema_version}; this version reads up to {RULES_SCHEMA_VERSION}.")
    if layout_text is not None:
        rules = with_layout(rules, load_layout_text(layout_text))
    return rules


def with_layout(rules: Rules, layout: SheetLayout) -> Rules:
    """The rules with ``layout`` laid in, checked against them."""
    for slot_id in layout.hit_location_mods:
        if slot_id not in rules.slot_ids():
            raise RulesInvalid(f"{LAYOUT_FILE}, field hit_location_mods.{slot_id}: no equipment slot has this id")
    return rules.model_copy(update={"layout": layout})
