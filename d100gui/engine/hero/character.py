"""The character sheet as data: fields, items, pending decisions, derived values, invariants.

* :class:`Character` holds every field of the rulebook's "Character Sheet Fields".
* :class:`Item` is anything the sheet records: armour, weapons, shields, jewellery, brews,
  potions, scrolls, other items.
* :func:`derive` computes every derived value in one place (:class:`Derived`): adjusted
  STR/DEX/INT, DEF per location, Defence Bonus, DMG, adjusted maximum HP, abilities,
  usable spells.
* :func:`violations` / :func:`enforce` check the invariants; commands call :func:`enforce`
  after changing the character so a command that would break a rule is refused whole.
* The pending decisions the character procedures leave to the player (keep or re-roll
  armour, a missing table row, a rolled test waiting for Fate, experience pips, a "/"
  choice, a "choose which" target, a test an outcome calls for) are serializable models
  stored in ``Campaign.pending``.

This module does not import :mod:`.game` at import time (``game`` imports it for the
``Campaign`` fields); :func:`refuse` imports :class:`CommandRefused` when it raises.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal, NoReturn, TypeVar

from pydantic import BaseModel, Field, field_validator

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dice.tables import Row
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Effect, Outcome, TestSpec

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.game import Campaign

STATS: tuple[str, ...] = ("STR", "DEX", "INT")


def refuse(message: str) -> NoReturn:
    """Raise :class:`~d100gui.engine.game.CommandRefused` (imported late: game imports this module)."""
    from d100gui.engine.game import CommandRefused

    raise CommandRefused(message)


# --------------------------------------------------------------------------- items

ItemKind = Literal["armour", "weapon", "shield", "jewellery", "brew", "potion", "scroll", "elixir", "item"]
WeaponType = Literal["", "H", "R", "H,R"]


class Item(BaseModel):
    """One item as the sheet records it.

    ``defence`` is the DEF column; with ``defence_bonus`` it was written with a "+" and
    counts toward the Defence Bonus instead of the slot's DEF. ``shield`` is the S rating.
    ``repair_cost`` is gold per repair pip (None: 1/5 of the value, rounded up);
    ``repair_track`` is the track length (None: the sheet layout's default).
    """

    name: str
    kind: ItemKind = "item"
    slot: str = ""
    bonuses: dict[str, int] = Field(default_factory=dict)
    hp_bonus: int = 0
    defence: int = 0
    defence_bonus: bool = False
    dmg: int = 0
    value: int = 0
    repair_cost: int | None = None
    repair_pips: int = Field(default=0, ge=0)
    repair_track: int | None = Field(default=None, ge=1)
    two_handed: bool = False
    shield: int = Field(default=0, ge=0)
    legendary: bool = False
    weapon_type: WeaponType = ""
    effect: str = ""
    source: str = ""

    @field_validator("bonuses")
    @classmethod
    def _stats_only(cls, value: dict[str, int]) -> dict[str, int]:
        bad = [k for k in value if k not in STATS]
        if bad:
            raise ValueError(f"item bonuses are for STR, DEX and INT, not {', '.join(bad)}")
        return value

    @property
    def def_label(self) -> str:
        return f"+{self.defence}" if self.defence_bonus else str(self.defence)

    def stat_bits(self, two_handed: str = "two-handed") -> list[str]:
        """The item's numbers as printed on the sheet: ``+5 STR``, ``DEF +1``, ``S2``, ``-2 DMG``."""
        bits = [f"{n:+d} {stat}" for stat, n in self.bonuses.items() if n]
        if self.hp_bonus:
            bits.append(f"{self.hp_bonus:+d} HP")
        if self.defence or self.defence_bonus:
            bits.append(f"DEF {self.def_label}")
        if self.shield:
            bits.append(f"S{self.shield}")
        if self.dmg:
            bits.append(f"{self.dmg:+d} DMG")
        if self.two_handed:
            bits.append(two_handed)
        return bits

    def describe(self) -> str:
        return ", ".join([self.name, *self.stat_bits()])


_ADJ = re.compile(r"([+\-–−]\s*\d+)\s*(DMG|DEF|STR|DEX|INT|HP)\b", re.I)
_INT = re.compile(r"[+\-–−]?\s*\d+")
_TWO_HANDED = re.compile(r"\b(?:2\s*-?\s*h(?:anded)?|two[\s-]*hand(?:ed)?)\b", re.I)


def _int_in(text: str, default: int = 0) -> int:
    m = _INT.search(text or "")
    if not m:
        return default
    raw = re.sub(r"\s+", "", m.group(0)).replace("–", "-").replace("−", "-")
    return int(raw)


def apply_adjustments(item: Item, text: str) -> Item:
    """Read ``+5 Str``, ``-2 DMG``, ``+1 DEF``, ``+3 HP`` from printed text into the item."""
    bonuses = dict(item.bonuses)
    update: dict[str, object] = {}
    for amount, what in _ADJ.findall(text or ""):
        n = _int_in(amount)
        what = what.upper()
        if what in STATS:
            bonuses[what] = bonuses.get(what, 0) + n
        elif what == "DMG":
            update["dmg"] = int(update.get("dmg", item.dmg)) + n  # type: ignore[call-overload]
        elif what == "HP":
            update["hp_bonus"] = int(update.get("hp_bonus", item.hp_bonus)) + n  # type: ignore[call-overload]
        elif what == "DEF":
            update["defence"] = n
            update["defence_bonus"] = amount.strip().startswith("+")
    update["bonuses"] = bonuses
    return item.model_copy(update=update)


def slot_for_name(rules: Rules, text: str) -> str | None:
    """``"Legs"`` -> ``"legs"``, ``"Off Weapon"``/``"Shield"`` -> ``"off_weapon"``, ``"Ring"`` -> ``"ring_1"``."""
    key = re.sub(r"[^a-z]", "", (text or "").lower())
    if key in ("shield", "offweapon", "offhand"):
        return "off_weapon"
    if key in ("mainweapon", "weapon"):
        return "main_weapon"
    for slot in rules.slots:
        if key in (re.sub(r"[^a-z]", "", slot.name.lower()), slot.id.replace("_", "")):
            return slot.id
    singular = key.rstrip("s")
    for slot in rules.slots:
        if singular and singular == re.sub(r"[^a-z]", "", slot.name.lower()).rstrip("s"):
            return slot.id
    return None


def item_from_armour_row(rules: Rules, row: Row, table_id: str = "d100.A") -> Item:
    """An item from a Table A row (slot, item, def, value, repair; optional condition)."""
    f = row.fields
    slot = slot_for_name(rules, f.get("slot", "")) or ""
    defence_text = f.get("def", "")
    kind: ItemKind = "armour"
    item = Item(name=f.get("item", "").strip() or "Armour", slot=slot, source=f"{table_id} {row.range_label()}")
    m_shield = re.search(r"\bS\s*(\d+)\b", defence_text)
    if m_shield:
        kind = "shield"
        item = item.model_copy(update={"shield": int(m_shield.group(1))})
    elif defence_text.strip():
        item = item.model_copy(
            update={"defence": abs(_int_in(defence_text)), "defence_bonus": defence_text.strip().startswith("+")}
        )
    if slot == "off_weapon":
        kind = "shield"
    elif slot in ("neck", "ring_1", "ring_2"):
        kind = "jewellery"
    item = apply_adjustments(item.model_copy(update={"kind": kind}), f.get("adjustment", ""))
    update: dict[str, object] = {"value": _int_in(f.get("value", ""))}
    if f.get("repair", "").strip():
        update["repair_cost"] = _int_in(f["repair"])
    condition = f.get("condition", "")
    if condition:
        dots = sum(condition.count(ch) for ch in "•●○o")
        update["repair_pips"] = dots or max(0, _int_in(condition))
    if _TWO_HANDED.search(" ".join(f.values())):
        update["two_handed"] = True
    return item.model_copy(update=update)


def item_from_weapon_row(rules: Rules, row: Row, table_id: str = "d100.W") -> Item:
    """An item from a Table W row (type, weapon, adjustment, value, repair)."""
    f = row.fields
    wtype = re.sub(r"[^HR,]", "", f.get("type", "").upper())
    weapon_type: WeaponType = wtype if wtype in ("H", "R", "H,R") else ""  # type: ignore[assignment]
    item = Item(
        name=f.get("weapon", "").strip() or "Weapon",
        kind="weapon",
        slot="main_weapon",
        weapon_type=weapon_type,
        value=_int_in(f.get("value", "")),
        repair_cost=_int_in(f["repair"]) if f.get("repair", "").strip() else None,
        source=f"{table_id} {row.range_label()}",
    )
    item = apply_adjustments(item, f.get("adjustment", ""))
    hands = f.get("hands", "").strip()
    if hands in ("2", "two") or _TWO_HANDED.search(" ".join(f.values())):
        item = item.model_copy(update={"two_handed": True})
    return item


# --------------------------------------------------------------------------- the sheet


class Score(BaseModel):
    """A characteristic: its primary value and the pips on its experience track."""

    primary: int = 0
    pips: int = 0


class SkillScore(BaseModel):
    bonus: int = 0
    pips: int = 0


class SpellEntry(BaseModel):
    name: str
    cost: str = ""  # as printed: "-1 HP", "-2 STR"
    effect: str = ""


class TimeBonus(BaseModel):
    """A bonus written in the time track's bonus section (ends when the track refreshes)."""

    stat: Literal["STR", "DEX", "INT", "DEF", "DMG", "HP"]
    amount: int
    source: str = ""


class TimeTrack(BaseModel):
    shaded: int = 0  # clocks shaded on the current track
    bonuses: list[TimeBonus] = Field(default_factory=list)
    total: int = 0  # clocks shaded since the quest began (for the log)


class Investment(BaseModel):
    shares: int = 0
    pips: int = 0


class QuestLog(BaseModel):
    attempted: int = 0
    completed: int = 0
    failed: int = 0
    current: str = ""


class CombatTrackEntry(BaseModel):
    """A box of the combat track: a defeated monster's AV, DEF, DMG and HP."""

    monster: str
    av: int | None = None
    defence: int | None = None
    dmg: int | None = None
    hp: str = ""


class Supplies(BaseModel):
    oil: int = 0
    food: int = 0
    picks: int = 0


class CreationProgress(BaseModel):
    """Where character creation stands: steps done and rolls made."""

    done: list[str] = Field(default_factory=list)
    weapon_rolls: int = 0
    armour_rolls: int = 0


class Character(BaseModel):
    """Every field of the D100 Dungeon character sheet (both pages)."""

    name: str = ""
    rep: int = 1
    gp: int = 0
    fate: int = 0
    lives: int = 0
    res: bool = False  # "RES" written in the LIVES box (Resurrection spell)
    quest_encounter_modifier: int = 0
    characteristics: dict[str, Score] = Field(default_factory=dict)
    hp_primary: int = 0
    hp: int = 0
    equipment: dict[str, Item | None] = Field(default_factory=dict)
    belt: list[Item | None] = Field(default_factory=list)
    backpack: list[Item] = Field(default_factory=list)
    potions: list[Item] = Field(default_factory=list)  # unequipped potions
    non_slot_items: list[Item] = Field(default_factory=list)
    keys: int = 0
    levers: int = 0
    poison: int = 0
    disease: int = 0
    skills: dict[str, SkillScore] = Field(default_factory=dict)
    spell_book: list[SpellEntry | None] = Field(default_factory=list)
    time_track: TimeTrack = Field(default_factory=TimeTrack)
    in_darkness: bool = False  # the sun at the top of the sheet is shaded: no oil
    objectives: int = 0
    quest_log: QuestLog = Field(default_factory=QuestLog)
    empire: dict[str, Investment] = Field(default_factory=dict)
    supplies: Supplies = Field(default_factory=Supplies)
    notes: str = ""
    combat_track: list[CombatTrackEntry] = Field(default_factory=list)
    dead: bool = False
    creation: CreationProgress | None = None  # None once creation is finished

    def item_in(self, slot_id: str) -> Item | None:
        return self.equipment.get(slot_id)

    def primary(self, stat: str) -> int:
        return self.characteristics[stat].primary


def new_character(rules: Rules) -> Character:
    """A blank sheet laid out by the rules: every slot, skill, track and investment present."""
    return Character(
        rep=rules.creation.rep,
        gp=rules.creation.gp,
        characteristics={s: Score() for s in rules.characteristics},
        equipment=dict.fromkeys(rules.slot_ids()),
        belt=[None] * rules.belt_slots,
        skills={s: SkillScore() for s in rules.skills},
        spell_book=[None] * len(rules.spell_thresholds()),
        empire={k.id: Investment() for k in rules.investments.kinds},
        creation=CreationProgress(),
    )


# --------------------------------------------------------------------------- pending decisions


class _Pending(BaseModel):
    id: str = ""
    prompt: str = ""
    optional: bool = False  # the player may dismiss it


class ArmourClash(_Pending):
    """Creation: a starting armour roll landed on a slot already equipped: keep new or re-roll."""

    decision: Literal["armour_clash"] = "armour_clash"
    slot: str
    new_item: Item
    old_item: Item
    table_roll: TableRoll


class RowNeeded(_Pending):
    """Creation: a starting roll landed on a row the player's tables do not have."""

    decision: Literal["row_needed"] = "row_needed"
    purpose: Literal["weapon", "armour"]
    table_roll: TableRoll


class TestPart(BaseModel):
    """One term of a test's target (or of an adjusted value): a label and its value."""

    __test__: ClassVar[bool] = False  # not a pytest class

    label: str
    value: int


class PendingTest(_Pending):
    """A rolled test waiting for the player: accept the roll or spend Fate to re-roll dice."""

    decision: Literal["test_roll"] = "test_roll"
    spec: TestSpec
    parts: list[TestPart]
    target: int
    roll: RollRecord
    fate_spent: int = 0

    @property
    def success(self) -> bool:
        return self.roll.natural <= self.target


class ExperienceChoice(_Pending):
    """A natural roll of 10 or less: one pip on the characteristic or pips over the skills."""

    decision: Literal["experience"] = "experience"
    characteristic: str
    skills: list[str]
    test_name: str = ""
    optional: bool = True


class OutcomeChoice(_Pending):
    """A "/" in an outcome: the player picks one option."""

    decision: Literal["outcome_choice"] = "outcome_choice"
    outcome: Outcome
    source: str = ""


class TargetChoice(_Pending):
    """An effect that lets the player choose what it applies to (``-1 CHA``, ``-5 Skill``, any pip)."""

    decision: Literal["target_choice"] = "target_choice"
    effect: Effect
    choices: list[str]


class CalledTest(_Pending):
    """An outcome calls for another test (the lever door's JAMMED DOOR): roll it when ready."""

    decision: Literal["called_test"] = "called_test"
    spec: TestSpec
    optional: bool = True


T = TypeVar("T", bound="_Pending")

PendingDecision = Annotated[
    ArmourClash | RowNeeded | PendingTest | ExperienceChoice | OutcomeChoice | TargetChoice | CalledTest,
    Field(discriminator="decision"),
]


def add_pending(campaign: Campaign, decision: _Pending) -> _Pending:
    """Give ``decision`` the campaign's next id and store it."""
    campaign.decision_serial += 1
    decision.id = f"d{campaign.decision_serial}"
    campaign.pending.append(decision)  # type: ignore[arg-type]
    return decision


def take_pending(campaign: Campaign, decision_id: str, kind: type[T]) -> T:
    """The pending decision ``decision_id`` of type ``kind``, removed from the list; refused if absent."""
    for i, d in enumerate(campaign.pending):
        if d.id == decision_id:
            if not isinstance(d, kind):
                refuse(f"Decision {decision_id} is not a {kind.model_fields['decision'].default.replace('_', ' ')} decision.")
            del campaign.pending[i]
            return d
    refuse(f"There is no pending decision {decision_id!r}.")


def pending_of(campaign: Campaign, kind: type[T]) -> list[T]:
    return [d for d in campaign.pending if isinstance(d, kind)]


# --------------------------------------------------------------------------- derived values


class Derived(BaseModel):
    """Every value the sheet derives, computed by :func:`derive` from the character and rules."""

    characteristics: dict[str, int]  # adjusted STR/DEX/INT
    sources: dict[str, list[TestPart]]  # what makes up each adjusted value
    max_hp: int
    defence: dict[str, int]  # DEF at each hit location, by slot id
    defence_bonus: int  # DB: the "+" DEF of every equipped item
    dmg_bonus: int  # DMG of equipped non-weapon items and the time track
    weapon_dmg: dict[str, int]  # total DMG attacking with the weapon in each weapon slot
    dmg: int  # total DMG with the main weapon (or without a weapon)
    location_mods: dict[str, int]
    abilities: dict[str, bool]
    spell_thresholds: list[int]
    spells_in_reach: int  # spell-book positions the current INT reaches (0 without Spell Caster)
    usable_spells: list[bool]  # per book position: a spell is there and it can be cast


def equipped(character: Character) -> list[tuple[str, Item]]:
    return [(slot, item) for slot, item in character.equipment.items() if item is not None]


def items_at(character: Character, slot_id: str) -> list[Item]:
    """Items covering a slot: its own item, or a two-handed main weapon for the off-weapon slot."""
    item = character.equipment.get(slot_id)
    if item is not None:
        return [item]
    main = character.equipment.get("main_weapon")
    if slot_id == "off_weapon" and main is not None and main.two_handed:
        return [main]
    return []


def _time_bonus(character: Character, stat: str) -> int:
    return sum(b.amount for b in character.time_track.bonuses if b.stat == stat)


def derive(character: Character, rules: Rules) -> Derived:
    """Compute every derived value of the sheet in one place."""
    items = equipped(character)
    adjusted: dict[str, int] = {}
    sources: dict[str, list[TestPart]] = {}
    for stat in rules.characteristics:
        parts = [
            TestPart(label="primary", value=character.characteristics[stat].primary if stat in character.characteristics else 0)
        ]
        parts += [TestPart(label=item.name, value=item.bonuses[stat]) for _, item in items if item.bonuses.get(stat)]
        if _time_bonus(character, stat):
            parts.append(TestPart(label="time track", value=_time_bonus(character, stat)))
        if character.in_darkness:
            parts.append(TestPart(label="darkness", value=rules.darkness_modifier))
        adjusted[stat] = sum(p.value for p in parts)
        sources[stat] = parts
    max_hp = character.hp_primary + sum(item.hp_bonus for _, item in items) + _time_bonus(character, "HP")
    time_def = _time_bonus(character, "DEF")
    defence = {}
    for slot in rules.slots:
        if slot.hit_location is None:
            continue
        defence[slot.id] = sum(i.defence for i in items_at(character, slot.id) if not i.defence_bonus) + time_def
    defence_bonus = sum(item.defence for _, item in items if item.defence_bonus)
    dmg_bonus = sum(item.dmg for _, item in items if item.kind != "weapon") + _time_bonus(character, "DMG")
    weapon_dmg = {
        slot: dmg_bonus + item.dmg for slot, item in items if slot in ("main_weapon", "off_weapon") and item.kind == "weapon"
    }
    abilities = {a.id: adjusted.get(a.characteristic, 0) >= a.threshold for a in rules.abilities}
    thresholds = rules.spell_thresholds()
    caster = abilities.get("spell_caster", True)
    reach = sum(1 for t in thresholds if adjusted["INT"] >= t) if caster else 0
    book = list(character.spell_book) + [None] * max(0, len(thresholds) - len(character.spell_book))
    usable = [book[i] is not None and i < reach for i in range(len(thresholds))]
    return Derived(
        characteristics=adjusted,
        sources=sources,
        max_hp=max_hp,
        defence=defence,
        defence_bonus=defence_bonus,
        dmg_bonus=dmg_bonus,
        weapon_dmg=weapon_dmg,
        dmg=weapon_dmg.get("main_weapon", dmg_bonus),
        location_mods={s.id: rules.damage_mod(s.id) for s in rules.slots if s.hit_location is not None},
        abilities=abilities,
        spell_thresholds=thresholds,
        spells_in_reach=reach,
        usable_spells=usable,
    )


class DamageSteps(BaseModel):
    """Damage to the character, step by step (Combat step 5 and Defence Bonus)."""

    die: int
    location_mod: int
    monster_dmg: int
    before_defence: int
    defence_bonus: int  # deducted (0 when the die is above DB)
    defence: int
    damage: int


def incoming_damage(character: Character, rules: Rules, slot_id: str, die: int, monster_dmg: int) -> DamageSteps:
    """Damage die + location mod + monster DMG; minus DB if the natural die <= DB; minus the location's DEF."""
    d = derive(character, rules)
    mod = d.location_mods.get(slot_id, 0)
    total = die + mod + monster_dmg
    db = d.defence_bonus if d.defence_bonus > 0 and die <= d.defence_bonus else 0
    defence = d.defence.get(slot_id, 0)
    return DamageSteps(
        die=die,
        location_mod=mod,
        monster_dmg=monster_dmg,
        before_defence=total,
        defence_bonus=db,
        defence=defence,
        damage=max(0, total - db - defence),
    )


# --------------------------------------------------------------------------- invariants


def _track(rules: Rules, name: str) -> int:
    return int(getattr(rules.sheet, name))


def violations(character: Character, rules: Rules) -> list[str]:
    """Every rule the sheet breaks, as messages a player can read (empty: all is well)."""
    out: list[str] = []
    rep = rules.reputation
    if not rep.min <= character.rep <= rep.max:
        out.append(f"REP must stay between {rep.min} and {rep.max} (it would be {character.rep}).")
    for key, maximum in rules.supplies_max.items():
        value = getattr(character.supplies, key)
        if not 0 <= value <= maximum:
            out.append(f"{key.title()} must stay between 0 and {maximum} (it would be {value}).")
    for name in ("gp", "fate", "lives", "objectives"):
        if getattr(character, name) < 0:
            out.append(f"{name.upper() if name == 'gp' else name.title()} cannot go below 0.")
    for name, track in (
        ("keys", "keys_track"),
        ("levers", "levers_track"),
        ("poison", "poison_track"),
        ("disease", "disease_track"),
    ):
        value, length = getattr(character, name), _track(rules, track)
        if not 0 <= value <= length:
            out.append(f"The {name.title()} track has {length} pips (it would have {value}).")
    for skill, score in character.skills.items():
        if not 0 <= score.bonus <= rules.skill_max:
            out.append(f"{skill} must stay between +0 and +{rules.skill_max} (it would be {score.bonus:+d}).")
        if not 0 <= score.pips < rules.sheet.skill_track:
            out.append(f"{skill}'s experience track has {rules.sheet.skill_track} pips.")
    for stat, score in character.characteristics.items():
        if not 0 <= score.pips < rules.sheet.characteristic_track:
            out.append(f"{stat}'s experience track has {rules.sheet.characteristic_track} pips.")
    derived = derive(character, rules)
    if character.hp > derived.max_hp:
        out.append(f"HP {character.hp} is above the maximum of {derived.max_hp}.")
    if sorted(character.equipment) != sorted(rules.slot_ids()):
        out.append("The equipment slots do not match the sheet.")
    main, off = character.equipment.get("main_weapon"), character.equipment.get("off_weapon")
    if main is not None and main.two_handed and off is not None:
        out.append(f"{main.name} is two-handed and uses both weapon slots, so {off.name} cannot be in the off weapon slot.")
    for slot, item in equipped(character):
        if item.kind == "shield" and slot != "off_weapon":
            out.append(f"{item.name} is a shield: shields are always equipped to the off weapon slot.")
        if item.two_handed and slot != "main_weapon":
            out.append(f"{item.name} is two-handed: it is recorded in the main weapon slot.")
        if item.kind in rules.belt_kinds:
            out.append(f"{item.name} is a {item.kind}: it goes on the belt, not in an equipment slot.")
        length = item.repair_track or rules.sheet.repair_track
        if item.repair_pips >= length:
            out.append(f"{item.name}'s repair track is full: it is destroyed.")
    if len(character.belt) != rules.belt_slots:
        out.append(f"The belt has {rules.belt_slots} slots.")
    for i, item in enumerate(character.belt, start=1):
        if item is not None and item.kind not in rules.belt_kinds:
            out.append(f"Belt slot {i}: only brews, potions and scrolls go on the belt, not {item.name}.")
    if not 0 <= character.time_track.shaded < rules.sheet.time_track.clocks:
        out.append(f"The time track has {rules.sheet.time_track.clocks} clocks.")
    for key, inv in character.empire.items():
        if not 0 <= inv.shares <= rules.investments.max_shares:
            out.append(f"At most {rules.investments.max_shares} shares in {key.title()}.")
        if not 0 <= inv.pips < rules.investments.pips_per_share:
            out.append(f"{key.title()} pips must stay below {rules.investments.pips_per_share}.")
    return out


def enforce(character: Character, rules: Rules) -> None:
    """Refuse (CommandRefused) if the sheet breaks any rule."""
    problems = violations(character, rules)
    if problems:
        refuse(" ".join(problems))


# --------------------------------------------------------------------------- changes the rules allow


def clamp_hp(character: Character, rules: Rules) -> int:
    """Bring current HP down to the adjusted maximum (after losing an HP bonus); returns HP lost."""
    maximum = derive(character, rules).max_hp
    if character.hp > maximum:
        lost = character.hp - maximum
        character.hp = maximum
        return lost
    return 0


def experience_value(character: Character, rules: Rules, track: str) -> tuple[int, int, int, int]:
    """(value, maximum, step, track length) of a characteristic or skill track."""
    if track in character.characteristics:
        return (
            character.characteristics[track].primary,
            rules.characteristic_max,
            rules.characteristic_step,
            rules.sheet.characteristic_track,
        )
    if track in character.skills:
        return character.skills[track].bonus, rules.skill_max, rules.skill_step, rules.sheet.skill_track
    refuse(f"There is no experience track called {track!r}.")


def at_maximum(character: Character, rules: Rules, track: str) -> bool:
    value, maximum, _, _ = experience_value(character, rules, track)
    return value >= maximum


def shade_experience(character: Character, rules: Rules, track: str, pips: int = 1) -> list[str]:
    """Shade ``pips`` on a characteristic's or skill's experience track.

    A full track adds the step (+5) and clears. A characteristic at its maximum (80) or a
    skill at its maximum (+20) takes no more pips: refused. Returns what changed.
    """
    notes: list[str] = []
    for _ in range(pips):
        value, maximum, step, length = experience_value(character, rules, track)
        label = track if track in character.characteristics else f"{track} skill"
        if value >= maximum:
            shown = f"+{maximum}" if track in character.skills else str(maximum)
            refuse(f"{label} is at its maximum of {shown} and can no longer be increased.")
        score = character.characteristics[track] if track in character.characteristics else character.skills[track]
        score.pips += 1
        if score.pips >= length:
            score.pips = 0
            new = min(value + step, maximum)
            if isinstance(score, Score):
                score.primary = new
                notes.append(f"{track} experience track full: {track} {value} -> {new}, track cleared.")
            else:
                score.bonus = new
                notes.append(f"{track} experience track full: {track} +{value} -> +{new}, track cleared.")
        else:
            notes.append(f"Shaded a pip on {label}'s experience track ({score.pips}/{length}).")
    return notes


class FiredTrigger(BaseModel):
    clock: int
    kind: Literal["oil", "food", "wandering", "refresh"]
    number: int | None = None


def advance_time(character: Character, rules: Rules, clocks: int) -> list[FiredTrigger]:
    """Shade ``clocks`` clocks; list every trigger printed on them, in order.

    Shading the last clock refreshes the track: shading and time-track bonuses are removed
    and HP comes down to the new maximum (a ``refresh`` trigger is listed; its poison and
    disease checks belong to the time-track procedure).
    """
    layout = rules.sheet.time_track
    fired: list[FiredTrigger] = []
    track = character.time_track
    for _ in range(max(0, clocks)):
        track.shaded += 1
        track.total += 1
        clock = track.shaded
        fired += [FiredTrigger(clock=clock, kind=t.kind, number=t.number) for t in layout.triggers_at(clock)]
        if track.shaded >= layout.clocks:
            track.shaded = 0
            track.bonuses = []
            clamp_hp(character, rules)  # an HP bonus on the track has ended
            fired.append(FiredTrigger(clock=clock, kind="refresh"))
    return fired


def belt_check_target(character: Character, rules: Rules, roll: int) -> tuple[str, Item | None]:
    """Where a Belt Check roll lands: (label, item there or None)."""
    if rules.belt_check == "belt":
        if 1 <= roll <= len(character.belt):
            return f"belt slot {roll}", character.belt[roll - 1]
        return f"belt slot {roll}", None
    slot = rules.slot_at_location(roll)
    if slot is None:
        return f"hit location {roll}", None
    items = items_at(character, slot.id)
    return slot.name, items[0] if items else None


def destroy_belt_check(character: Character, rules: Rules, roll: int) -> tuple[str, Item | None]:
    """Make the Belt Check ``roll`` destroy the item it lands on; returns (where, item destroyed)."""
    where, item = belt_check_target(character, rules, roll)
    if item is None:
        return where, None
    if rules.belt_check == "belt":
        character.belt[roll - 1] = None
    else:
        for slot, held in character.equipment.items():
            if held is item:
                character.equipment[slot] = None
        clamp_hp(character, rules)
    return where, item


def check_equip(character: Character, rules: Rules, item: Item, slot_id: str) -> None:
    """Refuse if ``item`` cannot go in ``slot_id`` now (one item per slot, weapons, shields)."""
    try:
        slot = rules.slot(slot_id)
    except KeyError:
        refuse(f"There is no equipment slot {slot_id!r}.")
    if item.kind in rules.belt_kinds:
        refuse(f"{item.name} is a {item.kind}: brews, potions and scrolls go on the belt.")
    held = character.equipment.get(slot_id)
    if held is not None:
        refuse(f"The {slot.name} slot already holds {held.name}: only one item per slot. Unequip it first.")
    main = character.equipment.get("main_weapon")
    if item.kind == "shield":
        if slot_id != "off_weapon":
            refuse(f"{item.name} is a shield: shields are always equipped to the off weapon slot.")
    elif item.kind == "weapon":
        if slot_id not in ("main_weapon", "off_weapon"):
            refuse(f"{item.name} is a weapon: it goes in the main or off weapon slot.")
        if item.two_handed:
            if slot_id != "main_weapon":
                refuse(f"{item.name} is two-handed: it uses both weapon slots and is recorded in the main weapon slot.")
            off = character.equipment.get("off_weapon")
            if off is not None:
                refuse(
                    f"{item.name} is two-handed and needs both weapon slots: unequip {off.name} from the off weapon slot first."
                )
    else:
        if not item.slot:
            refuse(f"{item.name} has no equipment slot: keep it in the backpack.")
        rings = ("ring_1", "ring_2")
        same = item.slot == slot_id or (item.slot in rings and slot_id in rings)
        if not same:
            target = rules.slot(item.slot).name if item.slot in rules.slot_ids() else item.slot
            refuse(f"{item.name} is worn on the {target} slot, not {slot.name}.")
    if slot_id == "off_weapon" and main is not None and main.two_handed:
        refuse(f"{main.name} is two-handed and uses both weapon slots: the off weapon slot is taken.")


def equip(character: Character, rules: Rules, item: Item, slot_id: str) -> None:
    check_equip(character, rules, item, slot_id)
    character.equipment[slot_id] = item


def unequip(character: Character, rules: Rules, slot_id: str) -> Item:
    """Take the item out of ``slot_id`` into the backpack (damage kept); HP drops to the new maximum."""
    item = character.equipment.get(slot_id)
    if item is None:
        if slot_id == "off_weapon" and items_at(character, slot_id):
            refuse("The off weapon slot is taken by a two-handed main weapon: unequip the main weapon.")
        refuse(f"Nothing is equipped in the {slot_id.replace('_', ' ')} slot.")
    character.equipment[slot_id] = None
    character.backpack.append(item)
    clamp_hp(character, rules)
    return item
