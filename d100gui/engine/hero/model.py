"""The character sheet as data: every field of the rulebook's "Character Sheet Fields".

* :class:`Character` holds both pages of the sheet; :func:`new_character` lays a blank one
  out from the rules.
* :class:`Item` is anything the sheet records: armour, weapons, shields, jewellery, brews,
  potions, scrolls, other items.
* :class:`TestPart` is one term of a test's target or of an adjusted value.

Only models live here: what the rules do with them is in :mod:`.derive`, :mod:`.equipment`,
:mod:`.experience`, :mod:`.time_track` and :mod:`.invariants`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, field_validator

from d100gui.engine.model import Model
from d100gui.engine.rules.model import STATS, Rules

# --------------------------------------------------------------------------- items

ItemKind = Literal["armour", "weapon", "shield", "jewellery", "brew", "potion", "scroll", "elixir", "item"]
WeaponType = Literal["", "H", "R", "H,R"]


class Item(Model):
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


# --------------------------------------------------------------------------- the sheet


class Score(Model):
    """A characteristic: its primary value and the pips on its experience track."""

    primary: int = 0
    pips: int = 0


class SkillScore(Model):
    bonus: int = 0
    pips: int = 0


class SpellEntry(Model):
    name: str
    cost: str = ""  # as printed: "-1 HP", "-2 STR"
    effect: str = ""


class TimeBonus(Model):
    """A bonus written in the time track's bonus section (ends when the track refreshes)."""

    stat: Literal["STR", "DEX", "INT", "DEF", "DMG", "HP"]
    amount: int
    source: str = ""


class TimeTrack(Model):
    shaded: int = 0  # clocks shaded on the current track
    bonuses: list[TimeBonus] = Field(default_factory=list)
    total: int = 0  # clocks shaded since the quest began (for the log)


class Investment(Model):
    shares: int = 0
    pips: int = 0


class QuestLog(Model):
    attempted: int = 0
    completed: int = 0
    failed: int = 0
    current: str = ""


class CombatTrackEntry(Model):
    """A box of the combat track: a defeated monster's AV, DEF, DMG and HP."""

    monster: str
    av: int | None = None
    defence: int | None = None
    dmg: int | None = None
    hp: str = ""


class Supplies(Model):
    oil: int = 0
    food: int = 0
    picks: int = 0


class CreationProgress(Model):
    """Where character creation stands: steps done and rolls made."""

    done: list[str] = Field(default_factory=list)
    weapon_rolls: int = 0
    armour_rolls: int = 0


class Character(Model):
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


class TestPart(Model):
    """One term of a test's target (or of an adjusted value): a label and its value."""

    __test__: ClassVar[bool] = False  # not a pytest class

    label: str
    value: int
