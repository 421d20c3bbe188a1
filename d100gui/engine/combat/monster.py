"""Monsters as data, and the serializable state of a fight.

A :class:`Monster` is read from a Table E row (columns monster/av/def/dmg/hp/loot/special),
from a stat line in the rulebook's own format (Table G's ``GIANT SNAKE – AV:55 DEF:3 HP:16
DMG:+2 [K:Table P +10] (Poison)`` or Monster Characteristics' ``GIANT RATS [C] AV:25 ...``),
or typed in by the player (:func:`typed_monster`).

* ``hp`` is a list with one entry per individual: ``16`` is ``[16]``, the pack ``3/2/2`` is
  ``[3, 2, 2]``.
* ``abilities`` are the Monster Abilities named in the Special column, each with an
  optional rating (``Attacks 2``). Text the parser does not know stays in ``notes`` so the
  player still sees it.

The combat state (:class:`CombatState` and its parts) lives here rather than in
:mod:`.commands` because :mod:`~d100gui.engine.game` stores it in ``Campaign.combat`` and :mod:`.commands`
imports :mod:`~d100gui.engine.game`. Everything is a pydantic model, so a save made mid-round restores
exactly. This module imports nothing from :mod:`~d100gui.engine.game`.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dice.tables import Row, TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.rules.notation import LootOption, LootSpec, parse_loot

MonsterType = Literal["", "C", "H", "UD", "D"]
TYPE_NAMES: dict[str, str] = {"C": "Creature", "H": "Humanoid", "UD": "Undead", "D": "Demon"}

AbilityId = Literal[
    "attacks",
    "dark_magic",
    "death_touch",
    "disease",
    "ethereal",
    "fear",
    "fire",
    "fly",
    "freeze",
    "large",
    "pack",
    "phase",
    "poison",
    "resurrection",
    "regenerate",
    "stunned",
    "surprise",
    "tough",
    "web",
]

#: Every Monster Ability of the rulebook, by id, as printed.
ABILITY_NAMES: dict[str, str] = {
    "attacks": "Attacks",
    "dark_magic": "Dark Magic",
    "death_touch": "Death Touch",
    "disease": "Disease",
    "ethereal": "Ethereal",
    "fear": "Fear",
    "fire": "Fire",
    "fly": "Fly",
    "freeze": "Freeze",
    "large": "Large",
    "pack": "Pack",
    "phase": "Phase",
    "poison": "Poison",
    "resurrection": "Resurrection",
    "regenerate": "Regenerate",
    "stunned": "Stunned",
    "surprise": "Surprise",
    "tough": "Tough",
    "web": "Web",
}

_ABILITY_WORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^attacks?$"), "attacks"),
    (re.compile(r"^dark\s*magic$"), "dark_magic"),
    (re.compile(r"^death\s*touch$"), "death_touch"),
    (re.compile(r"^diseased?$"), "disease"),
    (re.compile(r"^ethereal$"), "ethereal"),
    (re.compile(r"^fear$"), "fear"),
    (re.compile(r"^fire$"), "fire"),
    (re.compile(r"^fly(?:ing)?$"), "fly"),
    (re.compile(r"^freeze$"), "freeze"),
    (re.compile(r"^large$"), "large"),
    (re.compile(r"^pack$"), "pack"),
    (re.compile(r"^phase$"), "phase"),
    (re.compile(r"^poison(?:ous)?$"), "poison"),
    (re.compile(r"^resurrect(?:ion)?$"), "resurrection"),
    (re.compile(r"^regenerat(?:es?|ion)$"), "regenerate"),
    (re.compile(r"^stun(?:ned|s)?$"), "stunned"),
    (re.compile(r"^surprise$"), "surprise"),
    (re.compile(r"^tough$"), "tough"),
    (re.compile(r"^webs?$"), "web"),
]


class MonsterAbility(Model):
    """One Monster Ability. ``rating`` is the number printed with it (``Attacks 2``)."""

    id: AbilityId
    rating: int | None = None
    text: str = ""

    @property
    def name(self) -> str:
        return ABILITY_NAMES[self.id] + (f" {self.rating}" if self.rating is not None else "")


def parse_abilities(text: str) -> tuple[list[MonsterAbility], list[str]]:
    """Read a Special column (``"Disease, Pack"``, ``"Attacks 2, Fear"``, ``"Attacks x3"``).

    Returns the abilities understood and the pieces that were not (kept as notes).
    """
    abilities: list[MonsterAbility] = []
    unknown: list[str] = []
    for piece in re.split(r"[,;]|\band\b", text or ""):
        raw = piece.strip().strip(".()[]").strip()
        if not re.search(r"[A-Za-z]", raw):
            continue  # "", "-", "—": nothing printed
        m = re.search(r"\d+", raw)
        rating = int(m.group(0)) if m else None
        word = re.sub(r"[^a-z ]", " ", raw.lower())
        word = re.sub(r"\b(?:x|times|rating)\b", " ", word)
        word = re.sub(r"\s+", " ", word).strip()
        found = next((aid for pattern, aid in _ABILITY_WORDS if pattern.match(word)), None)
        if found is None:
            unknown.append(raw)
            continue
        if any(a.id == found for a in abilities):
            continue
        abilities.append(MonsterAbility(id=found, rating=rating, text=raw))  # type: ignore[arg-type]
    return abilities, unknown


def parse_hp(text: str | int | list[int]) -> list[int]:
    """``16`` -> ``[16]``; ``"3/2/2"`` -> ``[3, 2, 2]``. Raises ValueError for anything else."""
    if isinstance(text, int):
        values = [text]
    elif isinstance(text, list):
        values = [int(v) for v in text]
    else:
        parts = [p.strip() for p in str(text).split("/")]
        if not parts or not all(re.fullmatch(r"\d+", p) for p in parts):
            raise ValueError(f"HP must be a number or numbers joined by '/', like 16 or 3/2/2 (not {text!r})")
        values = [int(p) for p in parts]
    if not values or any(v < 1 for v in values):
        raise ValueError("every HP value must be at least 1")
    return values


def _signed(text: str, default: int = 0) -> int:
    m = re.search(r"[+\-–−]?\s*\d+", text or "")
    if not m:
        return default
    return int(re.sub(r"\s+", "", m.group(0)).replace("–", "-").replace("−", "-"))


class Monster(Model):
    """A monster as its stat line prints it."""

    name: str
    type: MonsterType = ""
    av: int
    defence: int = 0
    dmg: int = 0
    hp: list[int] = Field(min_length=1)
    loot: LootSpec | None = None
    abilities: list[MonsterAbility] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)  # Special text not understood, excerpt remarks
    source: str = ""

    @field_validator("hp")
    @classmethod
    def _positive(cls, value: list[int]) -> list[int]:
        if any(v < 1 for v in value):
            raise ValueError("every HP value must be at least 1")
        return value

    # ------------------------------------------------------------------ lookups
    def has(self, ability: str) -> bool:
        return any(a.id == ability for a in self.abilities)

    def rating(self, ability: str, default: int = 1) -> int:
        for a in self.abilities:
            if a.id == ability:
                return a.rating if a.rating is not None else default
        return default

    @property
    def attacks(self) -> int:
        """Attacks a round: the ATTACKS rating, else 1."""
        return max(1, self.rating("attacks", 1)) if self.has("attacks") else 1

    @property
    def max_hp(self) -> int:
        return sum(self.hp)

    @property
    def members(self) -> int:
        return len(self.hp)

    def hp_label(self, values: list[int] | None = None) -> str:
        return "/".join(str(v) for v in (self.hp if values is None else values))

    def describe(self) -> str:
        """``GIANT RATS [C] AV:25 DEF:0 HP:3/2/2 DMG:-2 [K:Table P] (Disease, Pack)``."""
        head = self.name.upper() + (f" [{self.type}]" if self.type else "")
        line = f"{head} AV:{self.av} DEF:{self.defence} HP:{self.hp_label()} DMG:{self.dmg:+d}"
        if self.loot is not None and self.loot.text:
            line += f" {self.loot.text}"
        if self.abilities:
            line += " (" + ", ".join(a.name for a in self.abilities) + ")"
        return line


# --------------------------------------------------------------------------- readers

_TYPE_SUFFIX = re.compile(r"\s*[\(\[]\s*(C|H|UD|D)\s*[\)\]]\s*$", re.I)


def split_name_type(text: str) -> tuple[str, MonsterType]:
    """``"Giant Rats (C)"`` -> ``("Giant Rats", "C")``."""
    text = (text or "").strip()
    m = _TYPE_SUFFIX.search(text)
    if m:
        return text[: m.start()].strip(), m.group(1).upper()  # type: ignore[return-value]
    return text, ""


def monster_from_row(row: Row, table_id: str = "d100.E") -> Monster:
    """A monster from a Table E row (monster, av, def, dmg, hp, loot, special)."""
    f = row.fields
    name, mtype = split_name_type(f.get("monster", ""))
    if not name:
        raise ValueError(f"{table_id} {row.range_label()}: the row names no monster")
    try:
        hp = parse_hp(f.get("hp", ""))
    except ValueError as exc:
        raise ValueError(f"{table_id} {row.range_label()} ({name}): {exc}") from None
    if not re.search(r"\d", f.get("av", "")):
        raise ValueError(f"{table_id} {row.range_label()} ({name}): no AV printed")
    abilities, unknown = parse_abilities(f.get("special", ""))
    notes = list(unknown)
    if row.partial and not f.get("special", "").strip():
        notes.append("Special is not printed in this excerpt: check your rulebook for abilities.")
    return Monster(
        name=name,
        type=mtype,
        av=_signed(f.get("av", "")),
        defence=_signed(f.get("def", "")),
        dmg=_signed(f.get("dmg", "")),
        hp=hp,
        loot=parse_loot(f.get("loot", "")),
        abilities=abilities,
        notes=notes,
        source=f"{table_id} {row.range_label()}",
    )


_STAT = {
    "av": re.compile(r"\bAV\s*:?\s*([+\-–−]?\s*\d+)", re.I),
    "def": re.compile(r"\bDEF\s*:?\s*([+\-–−]?\s*\d+)", re.I),
    "hp": re.compile(r"\bHP\s*:?\s*(\d+(?:\s*/\s*\d+)*)", re.I),
    "dmg": re.compile(r"\bDMG\s*:?\s*([+\-–−]?\s*\d+)", re.I),
}


def monster_from_text(text: str, source: str = "") -> Monster:
    """A monster from a printed stat line: ``NAME [C] AV:25 DEF:0 HP:3/2/2 DMG:-2 [K:Table P] (Disease, Pack)``.

    The name is the text before the first stat (a trailing dash is dropped); abilities are the
    last parenthesised list after the stats. Raises ValueError when AV or HP is missing.
    """
    text = (text or "").strip()
    found = {key: rx.search(text) for key, rx in _STAT.items()}
    if found["av"] is None or found["hp"] is None:
        raise ValueError(f"{text!r} is not a monster stat line: it needs at least AV and HP")
    first = min(m.start() for m in found.values() if m is not None)
    head = re.sub(r"[\s\-–—:]+$", "", text[:first]).strip()
    name, mtype = split_name_type(head)
    if name.isupper():
        name = name.title()  # "GIANT SNAKE" as a name reads "Giant Snake", like Table E's "Giant Rats"
    last = max(m.end() for m in found.values() if m is not None)
    tail = text[last:]
    loot = parse_loot(tail)
    if loot is not None:
        k = re.search(r"\[\s*[Kk]\s*:[^\]]*\]", tail)
        tail = tail[k.end() :] if k else tail
    specials = re.findall(r"\(([^()]*)\)", tail)
    abilities, unknown = parse_abilities(specials[-1] if specials else "")
    return Monster(
        name=name or "Monster",
        type=mtype,
        av=_signed(found["av"].group(1)),
        defence=_signed(found["def"].group(1)) if found["def"] else 0,
        dmg=_signed(found["dmg"].group(1)) if found["dmg"] else 0,
        hp=parse_hp(re.sub(r"\s+", "", found["hp"].group(1))),
        loot=loot,
        abilities=abilities,
        notes=unknown,
        source=source,
    )


def giant_snake(library: TableLibrary) -> Monster:
    """Table G's GIANT SNAKE (the snake pit trap), read from the table library."""
    table = library.get("d100.G")
    for row in table.rows:
        for value in row.fields.values():
            m = re.search(r"GIANT SNAKE\s*[-–—:]?\s*AV", value)
            if m:
                return monster_from_text(value[m.start() :], source=f"d100.G {row.range_label()}")
    raise ValueError("Table G has no GIANT SNAKE stat line in your tables.")


#: the ranges a monster typed in by the player may have (a sanity bound, not a rule of the book):
#: AV is a percentage, DEF and DMG as large as any printed monster's and then some
TYPED_LIMITS: dict[str, tuple[int, int]] = {"av": (1, 100), "defence": (0, 50), "dmg": (-20, 20)}


def typed_monster(
    name: str,
    av: int,
    hp: str | int | list[int],
    defence: int = 0,
    dmg: int = 0,
    loot: str = "",
    special: str = "",
    type: MonsterType = "",
) -> Monster:
    """A monster the player types in from their own rulebook."""
    abilities, unknown = parse_abilities(special)
    return Monster(
        name=name.strip() or "Monster",
        type=type,
        av=av,
        defence=defence,
        dmg=dmg,
        hp=parse_hp(hp),
        loot=parse_loot(loot) if loot.strip() else None,
        abilities=abilities,
        notes=unknown,
        source="typed in",
    )


# --------------------------------------------------------------------------- combat state

CombatStep = Literal[
    "start",
    "round_start",
    "spell",
    "spell_resolve",
    "after_spell",
    "reaction",
    "reaction_resolve",
    "dark_magic",
    "dark_magic_resolve",
    "fear",
    "action",
    "hero_damage",
    "hero_damage_resolve",
    "aim_resolve",
    "mighty",
    "mighty_resolve",
    "hero_hit",
    "monster_turn",
    "monster_attack",
    "monster_attack_resolve",
    "monster_damage",
    "monster_damage_resolve",
    "monster_damage_apply",
    "monster_damage_hp",
    "belt_check",
    "belt_check_resolve",
    "after_tests",
    "after_monster",
    "round_end",
    "monster_dead",
    "resurrection_resolve",
    "victory",
    "loot",
    "loot_roll",
    "loot_resolve",
    "won",
    "curse_resolve",
]

Waiting = Literal["", "roll", "test", "action", "aim", "aim_pick", "offset", "loot", "row"]

#: what a table roll waiting for its missing row is for
RowUse = Literal["loot", "curse"]

CombatTestKind = Literal["surprise", "fear", "attack", "escape", "block", "cast", "web", "fire", "freeze", "dazed"]


class HeldRoll(Model):
    """A roll made and waiting for its Fate window; ``step`` resolves it.

    ``table`` is the table roll it was made for (loot, a curse): the row is looked up again
    from ``record`` once Fate has had its say."""

    step: CombatStep
    record: RollRecord
    table: TableRoll | None = None


class CombatTestRef(Model):
    """A combat test rolled as a :class:`~d100gui.engine.hero.decisions.PendingTest` (``decision``)."""

    __test__ = False  # not a pytest class

    decision: str
    kind: CombatTestKind
    next_step: CombatStep


class Boost(Model):
    """A brew drunk in this fight: +STR/DEX/INT for the next roll of that characteristic,
    +DMG for the next damage roll, +DEF before the monster's next damage roll."""

    stat: Literal["STR", "DEX", "INT", "DMG", "DEF"]
    amount: int
    source: str = ""


class QueuedSpell(Model):
    """A spell that lands at the start of the next round (Fire Blast, Fire Ball, Ice Storm)."""

    spell: Literal["fire_blast", "fire_ball", "ice_storm"]
    name: str


class CastInfo(Model):
    """The spell being cast this round (from the book or a scroll)."""

    name: str
    spell: str  # known id, or "" for a spell the engine reads from its effect text
    effect: str = ""
    source: Literal["book", "scroll"] = "book"


class AttackChoice(Model):
    slot: Literal["main_weapon", "off_weapon"]
    stat: Literal["STR", "DEX"]
    weapon: str = ""


class HeroHit(Model):
    """The hero's damage roll in progress (combat step 3)."""

    dice: list[int] = Field(default_factory=list)  # the d6, then Mighty Blow re-rolls
    location: int = 0
    first_location: int | None = None  # Perfect Aim: the first result
    second_location: int | None = None


class MonsterHit(Model):
    """The monster's attack in progress (combat steps 4 and 5)."""

    attacks: int = 1
    target: int = 0
    rolls: list[int] = Field(default_factory=list)  # natural d100 of each attack
    hits: int = 0
    dice: list[int] = Field(default_factory=list)  # damage dice after Large re-rolls
    location: int = 0
    slot: str = ""
    total: int = 0  # dice + location mod + DMG
    defence_bonus: int = 0
    defence: int = 0
    damage: int = 0  # after DB and DEF, before offsets
    item_max: int = 0  # offset choices
    shield_max: int = 0
    item_name: str = ""
    shield_name: str = ""
    offset_item: int = 0
    offset_shield: int = 0
    heal: int = 0  # Regenerate
    ones: int = 0


class CombatState(Model):
    """Everything about the fight in progress."""

    monster: Monster
    hp: list[int]  # current HP of each individual, in printed order
    round: int = 0
    step: CombatStep = "start"
    waiting: Waiting = ""
    held: HeldRoll | None = None
    test: CombatTestRef | None = None
    fate_windows: bool = True  # stop after each roll while the hero has Fate to spend
    surprise: bool = False
    free_attack: bool = False
    # the round's reaction and modifiers
    reaction: int | None = None
    reaction_text: str = ""
    monster_escaping: bool = False
    av_bonus: int = 0  # reaction AV+5 / AV+10
    pack_bonus: int = 0
    dark_spell: str = ""
    dark_av: int = 0
    dark_def: int = 0
    dark_dmg: int = 0
    drain_life: bool = False
    frozen: bool = False  # Ice Storm: the monster cannot act this round
    attack_bonus: int = 0  # Ice Storm: +10 to the hero's attack this round
    damaged_this_round: bool = False
    damaged_last_round: bool = False
    # what the hero may not do this round, and next round
    forfeit_attack: str = ""  # the reason, "" = may attack
    no_escape: str = ""
    no_belt: str = ""
    next_forfeit_attack: str = ""
    next_no_escape: str = ""
    next_no_belt: str = ""
    def_penalty: int = 0  # AVOID FREEZE failed last round: -2 DEF this round
    next_def_penalty: int = 0
    # the round's action
    action: str = ""
    attack: AttackChoice | None = None
    casting: CastInfo | None = None
    hero_hit: HeroHit | None = None
    monster_hit: MonsterHit | None = None
    after_tests: list[Literal["fire", "freeze", "dazed"]] = Field(default_factory=list)
    boosts: list[Boost] = Field(default_factory=list)
    queued_spell: QueuedSpell | None = None
    resurrections: int = 0
    hero_hp_lost: int = 0  # every point of damage the hero took this fight
    # the weapons in hand when the round began (slot -> name, "" for none): only the fight's
    # Change weapon action changes them this round (None: a fight saved before this was kept)
    round_weapons: dict[str, str] | None = None
    # after the victory: the loot table being rolled; a table roll waiting for the row the tables lack
    loot_option: LootOption | None = None
    row_wait: TableRoll | None = None
    row_use: Literal["", "loot", "curse"] = ""

    @property
    def alive(self) -> bool:
        return any(v > 0 for v in self.hp)

    @property
    def living(self) -> int:
        return sum(1 for v in self.hp if v > 0)

    @property
    def current_hp(self) -> int:
        return sum(max(0, v) for v in self.hp)

    @property
    def below_half(self) -> bool:
        """ "Less than half its HP": the pack's HP together against its printed total."""
        return 2 * self.current_hp < self.monster.max_hp


class EscapedMonster(Model):
    """A monster left behind: ``hero`` escaped from it (mark it on the map: it is back at
    full HP next time) or it escaped (``monster``: removed from play)."""

    monster: Monster  # its printed stats: full HP
    escaped_by: Literal["hero", "monster"]
    round: int = 0
    note: str = ""
    area: str = ""  # the map area ("col,row") where the hero left it
