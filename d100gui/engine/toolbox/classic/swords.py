"""Complete swords: the sword, then its alignment, intelligence, powers, languages and egoism.

The text rolls every sword on from the sword table to its alignment (reversed for the sword
that drains a life energy level) and its intelligence; the intelligence roll names how many
primary powers, whether it speaks languages, reads magic or has an extraordinary ability. The
"take two rolls ignoring ..." rows are links that ignore the scores the text says and roll
again, so a power list never holds them; a power rolled twice is twice as strong. Only swords
of intelligence 7 or more have an egoism (1-12), and that egoism meets the wielder in the ego
contest.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.tables import Link, Table, TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import (
    ITEM_RULES_TABLE,
    PERCENT_DIE,
    rule_fraction,
    rule_number,
    rule_range,
    rule_range_dice,
    rule_text,
)
from d100gui.engine.toolbox.inputs import ToolInputError, in_range

__all__ = [
    "ALIGNMENT_TABLE",
    "EXTRAORDINARY_TABLE",
    "INTELLIGENCE_TABLE",
    "LANGUAGES_TABLE",
    "PRIMARY_TABLE",
    "SWORDS_TABLE",
    "EgoContest",
    "Sword",
    "SwordPower",
    "complete_sword",
    "continuing_ego",
    "ego_contest",
    "state_dice",
    "wielder_states",
]

SWORDS_TABLE = "classic.swords"
ALIGNMENT_TABLE = "classic.sword_alignment"
INTELLIGENCE_TABLE = "classic.sword_intelligence"
PRIMARY_TABLE = "classic.sword_primary_powers"
EXTRAORDINARY_TABLE = "classic.sword_extraordinary"
LANGUAGES_TABLE = "classic.sword_languages"
PURPOSE_TABLE = "classic.sword_purpose"
PURPOSE_ABILITY_TABLE = "classic.sword_purpose_ability"
ALIGNMENT_KEYS = {"Lawful": "Law", "Neutral": "Neutrality", "Chaotic": "Chaos"}
CHAOTIC = "Chaotic"
#: "+3 vs. Trolls (Clerics)": the foes stated, then those a Chaotic sword affects instead
_VERSUS = re.compile(r"vs\.\s*([^()]+?)\s*\(([^)]+)\)")
# The text's numbers, used only when the player's tables lack what the tool reads them from: the Egoism range
# ("Egoism ranges from 1-12") in the item rules, the intelligence table's top row and its "Reads Magic" row.
NPC_SHARE = 0.5  # "If a NPC is directed to take up a sword the damage will be only one-half": the text's
EGOISM_DIE = "1d12"  # egoism is 1 to 12
EGOISM_MAX = 12
INTELLIGENCE_MAX = 12
EGO_PER_ABILITY = 1  # "adds an extra 1 for every Extraordinary Ability": the text's
EGOISM_FROM = 7  # swords below intelligence 7 have no egoism
READS_MAGIC_FROM = 11  # intelligence 11 and 12 read magic
_READS_MAGIC = "reads magic"
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_STRENGTH = {1: "", 2: "double strength", 3: "triple strength"}
PowerKind = Literal["primary", "extraordinary"]


class SwordPower(Model):
    """A primary power or an extraordinary ability, with how many times it was rolled."""

    name: str
    kind: PowerKind
    times: int = 1
    rolls: list[TableRoll] = Field(default_factory=list)

    @property
    def strength(self) -> str:
        """'double strength' for a power rolled twice (twice the range, accuracy...)."""
        return _STRENGTH.get(self.times, f"{self.times} times normal strength")

    def describe(self) -> str:
        later = [d.describe() for r in self.rolls[:1] for d in r.dice]
        tail = f" ({self.strength})" if self.strength else ""
        return self.name + tail + (f" [{'; '.join(later)}]" if later else "")


class Sword(Model):
    """A complete sword: every roll kept, the powers gathered with their doubles."""

    item: TableRoll
    alignment: TableRoll
    intelligence: TableRoll
    powers: list[SwordPower] = Field(default_factory=list)
    language_rolls: list[TableRoll] = Field(default_factory=list)
    egoism: RollRecord | None = None
    purpose_roll: TableRoll | None = None  # the percentile roll: 91 or more gives a special purpose
    purpose: TableRoll | None = None
    purpose_ability: str = ""
    raised: TableRoll | None = None  # a special purpose's top intelligence row, read (not rolled)
    top_intelligence: int = INTELLIGENCE_MAX  # the intelligence table's top row: a special purpose's score
    top_egoism: int = EGOISM_MAX  # the top of the printed Egoism range: a special purpose's score
    reads_magic_from: int = READS_MAGIC_FROM  # the intelligence table's first row that reads magic

    @property
    def name(self) -> str:
        return self.item.text

    @property
    def alignment_name(self) -> str:
        """Lawful, Neutral or Chaotic, as the alignment roll reads."""
        return self.alignment.text.removeprefix("Sword is ").strip()

    @property
    def foes(self) -> str:
        """The creatures the sword's bonus is against: a Chaotic sword's are those in parentheses."""
        match = _VERSUS.search(self.name)
        if match is None:
            return ""
        return match.group(2).strip() if self.alignment_name == CHAOTIC else match.group(1).strip()

    @property
    def intelligence_score(self) -> int:
        """The intelligence rolled, or the top of the scale for a sword with a special purpose."""
        return self.top_intelligence if self.purpose is not None else self.intelligence.value

    @property
    def has_egoism(self) -> bool:
        return self.egoism is not None or self.purpose is not None

    @property
    def egoism_score(self) -> int:
        if self.purpose is not None:
            return self.top_egoism
        return self.egoism.final if self.egoism else 0

    @property
    def languages(self) -> int:
        """Languages spoken besides the alignment's own (two rolls add up)."""
        return sum(_NUMBERS.get(r.text.lower(), 0) for r in self.language_rolls)

    @property
    def reads_magic(self) -> bool:
        return self.intelligence_score >= self.reads_magic_from

    @property
    def communication(self) -> str:
        row = self.raised.row if self.raised is not None else self.intelligence.row
        return row.fields.get("communicate", "") if row else ""

    @property
    def extraordinary(self) -> int:
        """Extraordinary abilities, each counted as rolled (a double counts twice)."""
        return sum(p.times for p in self.powers if p.kind == "extraordinary")

    def describe(self) -> str:
        item = ", ".join([self.item.text, *(d.describe() for d in self.item.dice)])
        parts = [item, self.alignment.text.removeprefix("Sword is ")]
        if self.foes:
            why = " (Chaotic: the creatures in parentheses)" if self.alignment_name == CHAOTIC else ""
            parts.append(f"its bonus is against {self.foes}{why}")
        if self.purpose is not None:
            parts.append(f"special purpose: {self.purpose.text} ({self.purpose_ability}); Intelligence and Egoism at the top")
        parts.append(f"Intelligence {self.intelligence_score} ({self.communication.rstrip('*')})")
        if self.has_egoism:
            parts.append(f"Egoism {self.egoism_score}")
        if self.powers:
            parts.append("powers: " + ", ".join(p.describe() for p in self.powers))
        if self.language_rolls:
            parts.append(f"{self.languages} language(s) besides its alignment's")
        if self.reads_magic:
            parts.append("reads magic")
        return "; ".join(parts)


def _collect(roller: TableRoller, link: Link, found: list[TableRoll]) -> None:
    """Follow ``link``; a row that only sends on ("take two rolls", "roll on the extraordinary table") is followed, not kept."""
    for result in roller.follow(link):
        onward = roller.links(result)
        if onward:
            for nxt in onward:
                _collect(roller, nxt, found)
        else:
            found.append(result)


def _powers(results: list[TableRoll]) -> list[SwordPower]:
    counts: Counter[tuple[PowerKind, str]] = Counter()
    rolls: dict[tuple[PowerKind, str], list[TableRoll]] = {}
    for result in results:
        kind: PowerKind = "extraordinary" if result.table_id == EXTRAORDINARY_TABLE else "primary"
        key = (kind, result.text)
        counts[key] += 1
        rolls.setdefault(key, []).append(result)
    return [SwordPower(name=name, kind=kind, times=n, rolls=rolls[(kind, name)]) for (kind, name), n in counts.items()]


def intelligence_top(library: TableLibrary) -> int:
    """The top of the intelligence table's printed rows (the "maximum score" a special purpose moves to)."""
    if INTELLIGENCE_TABLE not in library:
        return INTELLIGENCE_MAX
    highs = [r.range[1] for r in library.get(INTELLIGENCE_TABLE).rows if r.range]
    return max(highs, default=INTELLIGENCE_MAX)


def reads_magic_from(library: TableLibrary) -> int:
    """The first intelligence row whose mental power says it reads magic (the rows above it read magic too:
    "As 11 above but also ..."); the text's 11 when the player's table has no such row."""
    if INTELLIGENCE_TABLE not in library:
        return READS_MAGIC_FROM
    lows = [
        r.range[0]
        for r in library.get(INTELLIGENCE_TABLE).rows
        if r.range and _READS_MAGIC in " ".join(r.fields.values()).lower()
    ]
    return min(lows, default=READS_MAGIC_FROM)


def ego_per_ability(library: TableLibrary) -> int:
    """What each extraordinary ability adds to a sword's side of the ego contest (classic.item_rules; the text's 1)."""
    return rule_number(library, ITEM_RULES_TABLE, "Egoism per extraordinary ability", EGO_PER_ABILITY)


def egoism_top(library: TableLibrary) -> int:
    """The top of the printed Egoism range ("Egoism ranges from 1-12")."""
    return rule_range(library, ITEM_RULES_TABLE, "A sword's Egoism", (1, EGOISM_MAX))[1]


def complete_sword(roller: TableRoller, item: TableRoll | None = None) -> Sword:
    """Roll a sword (or complete ``item``, a roll on the sword table) through to the end."""
    item = item if item is not None else roller.roll(SWORDS_TABLE, "magic sword")
    links = {link.table: link for link in roller.links(item)}
    alignment_link = links.get(ALIGNMENT_TABLE, Link(table=ALIGNMENT_TABLE))
    [alignment] = roller.follow(alignment_link, "sword alignment")
    [intelligence] = roller.follow(links.get(INTELLIGENCE_TABLE, Link(table=INTELLIGENCE_TABLE)), "sword intelligence")
    powers: list[TableRoll] = []
    languages: list[TableRoll] = []
    for link in roller.links(intelligence):
        _collect(roller, link, languages if link.table == LANGUAGES_TABLE else powers)
    egoism_die = rule_range_dice(roller.library, ITEM_RULES_TABLE, "A sword's Egoism", EGOISM_DIE)
    egoism_from = rule_number(roller.library, ITEM_RULES_TABLE, "Egoism from Intelligence", EGOISM_FROM)
    egoism = roller.dice.roll(egoism_die, "sword egoism") if intelligence.value >= egoism_from else None
    sword = Sword(
        item=item,
        alignment=alignment,
        intelligence=intelligence,
        powers=_powers(powers),
        language_rolls=languages,
        egoism=egoism,
        top_intelligence=intelligence_top(roller.library),
        top_egoism=egoism_top(roller.library),
        reads_magic_from=reads_magic_from(roller.library),
    )
    return _purpose(roller, sword) if PURPOSE_TABLE in roller.library else sword


def _link_times(links: list[Link], table: str) -> int:
    return sum(int(link.times) for link in links if link.table == table and link.times.strip().isdigit())


def _raise_to_top(roller: TableRoller, sword: Sword) -> Sword:
    """A special purpose moves intelligence to the top: the sword gains what the top row gives that it lacks
    (the rest of its primary powers, languages, the extraordinary ability, telepathy), rolled now."""
    [top] = roller.follow(Link(table=INTELLIGENCE_TABLE, row=sword.top_intelligence), "special purpose: top intelligence")
    if sword.intelligence.value >= sword.top_intelligence or top.row is None:
        return sword
    had = roller.links(sword.intelligence)
    powers: list[TableRoll] = []
    languages = list(sword.language_rolls)
    for link in roller.links(top):
        missing = _link_times(roller.links(top), link.table) - _link_times(had, link.table)
        if missing <= 0:
            continue
        extra = link.model_copy(update={"times": str(missing)})
        _collect(roller, extra, languages if link.table == LANGUAGES_TABLE else powers)
    rolled = [r for p in sword.powers for r in p.rolls] + powers
    return sword.model_copy(update={"raised": top, "powers": _powers(rolled), "language_rolls": languages})


def _purpose(roller: TableRoller, sword: Sword) -> Sword:
    """The origin/purpose roll: on 91 or more the sword has a mission, and the ability of its alignment;
    its intelligence and egoism move to the top, with the powers the top intelligence gives."""
    rolled = roller.roll(PURPOSE_TABLE, "sword purpose")
    links = roller.links(rolled)
    if not links:
        return sword.model_copy(update={"purpose_roll": rolled})
    [purpose] = roller.follow(links[0], "sword purpose")
    sword = _raise_to_top(roller, sword)
    ability = ""
    key = ALIGNMENT_KEYS.get(sword.alignment.text.removeprefix("Sword is ").strip(), "")
    if key and PURPOSE_ABILITY_TABLE in roller.library:
        row = roller.library.get(PURPOSE_ABILITY_TABLE).find_key(key)
        ability = row.fields.get("ability", "") if row is not None else ""
    return sword.model_copy(update={"purpose_roll": rolled, "purpose": purpose, "purpose_ability": ability})


# --------------------------------------------------------------------------- the ego contest


WielderState = Literal["as_given", "fresh", "weary", "badly_hurt"]
#: the wielder's state: fresh (under 10% damage) adds 1-6, weary or 10-50% damage takes 1-4, worse takes 2-8
STATE_DICE: dict[str, tuple[str, int]] = {"fresh": ("1d6", 1), "weary": ("1d4", -1), "badly_hurt": ("2d4", -1)}
_STATE_WORDS = {
    "as_given": "No die (only the adjustment)",
    "fresh": "Fresh, under 10% damage",
    "weary": "Weary, or 10-50% damage",
    "badly_hurt": "Over 50% damage or magical strain",
}


_STATE_KEYS = {
    "fresh": "Wielder fresh",
    "weary": "Wielder weary or 10-50% damaged",
    "badly_hurt": "Wielder over 50% damaged or under magical strain",
}


def state_dice(library: TableLibrary) -> dict[str, tuple[str, int]]:
    """The wielder-state dice as the item rules table prints them ("1-6 added": +1d6, "2-8 deducted": -2d4);
    the text's for a row the player's tables lack."""
    out = {}
    for state, key in _STATE_KEYS.items():
        die, sign = STATE_DICE[state]
        value = rule_text(library, ITEM_RULES_TABLE, key).lower()
        if "deducted" in value or "added" in value:
            sign = -1 if "deducted" in value else 1
        out[state] = (rule_range_dice(library, ITEM_RULES_TABLE, key, die), sign)
    return out


def wielder_states() -> list[tuple[str, str]]:
    """(label, state) for each wielder state, the label naming its die ("Fresh, under 10% damage (+1d6)")."""
    out = []
    for state, words in _STATE_WORDS.items():
        die = STATE_DICE.get(state)
        out.append((f"{words} ({'+' if die[1] > 0 else '-'}{die[0]})" if die else words, state))
    return out


MAX_LEVEL = 36
WIELDER_SCORE_RANGE = (3, 18)  # Intelligence and Strength are 3d6 scores
CONDITION_RANGE = (-18, 18)


class EgoContest(Model):
    """Sword against wielder: the scores, their difference, and who prevails."""

    sword_score: int
    wielder_score: int
    difference: int
    chance: int  # percent that the higher score prevails (100: no roll)
    roll: RollRecord | None = None
    winner: Literal["sword", "wielder"]
    state: WielderState = "as_given"
    state_roll: RollRecord | None = None  # the wielder's state die, added or taken off
    state_sign: int = 0  # +1 the die was added, -1 taken off (0: the text's sign for the state)
    continuing: bool = False  # Egoism against the fighting-man's level, not a key situation

    def describe(self) -> str:
        rolled = f", rolled {self.roll.final} against {self.chance}%" if self.roll else ""
        what = "Egoism in the continuing relationship" if self.continuing else "Ego contest"
        state = ""
        if self.state_roll is not None:
            sign = "+" if (self.state_sign or STATE_DICE[self.state][1]) > 0 else "-"
            state = f" ({self.state.replace('_', ' ')}: {sign}{self.state_roll.final})"
        return (
            f"{what}: sword {self.sword_score} against wielder {self.wielder_score}{state} "
            f"(difference {self.difference}{rolled}): the {self.winner} prevails."
        )


INFLUENCE_TABLE = "classic.sword_egoism_influence"
#: (lowest difference, percent the higher score prevails): the text's bands, used without the influence table
TEXT_BANDS: tuple[tuple[int, int], ...] = ((6, 100), (2, 75), (0, 50))


def influence_bands(table: Table | None) -> tuple[tuple[int, int], ...]:
    """The influence-of-egoism bands as the table prints them: "6 or more" / "Higher score prevails" is a sure
    thing, "2-5" / "75% chance ..." the higher prevails on 75%, "0-1" / "50% either way" on 50%."""
    if table is None:
        return TEXT_BANDS
    bands = []
    for row in table.rows:
        low = re.match(r"\s*(\d+)", row.key)
        chance = re.search(r"(\d+)%", row.fields.get("result", ""))
        if low is not None:
            bands.append((int(low.group(1)), int(chance.group(1)) if chance else 100))
    return tuple(sorted(bands, reverse=True)) or TEXT_BANDS


def _chance(difference: int, bands: tuple[tuple[int, int], ...] = TEXT_BANDS) -> int:
    """The chance the higher score prevails, by the band the difference falls in."""
    return next((chance for low, chance in bands if difference >= low), bands[-1][1])


def _needs_egoism(sword: Sword) -> None:
    if not sword.has_egoism:
        raise ToolInputError(
            f"This sword has Intelligence {sword.intelligence_score}: only swords of {EGOISM_FROM} or more have an Egoism."
        )


def _contest(
    dice: Dice, ours: int, theirs: int, bands: tuple[tuple[int, int], ...], percent: str = PERCENT_DIE, **extra: object
) -> EgoContest:
    difference = abs(ours - theirs)
    chance = _chance(difference, bands)
    higher: Literal["sword", "wielder"] = "sword" if ours >= theirs else "wielder"
    lower: Literal["sword", "wielder"] = "wielder" if higher == "sword" else "sword"
    roll = None if chance == 100 else dice.roll(percent, "ego contest")
    winner = higher if roll is None or roll.final <= chance else lower
    return EgoContest.model_validate(
        {"sword_score": ours, "wielder_score": theirs, "difference": difference, "chance": chance, "roll": roll,
         "winner": winner, **extra}
    )  # fmt: skip


def ego_contest(
    dice: Dice,
    sword: Sword,
    intelligence: int,
    strength: int,
    condition: int = 0,
    state: WielderState = "as_given",
    bands: tuple[tuple[int, int], ...] = TEXT_BANDS,
    states: dict[str, tuple[str, int]] | None = None,
    percent: str = PERCENT_DIE,
    per_ability: int = EGO_PER_ABILITY,
) -> EgoContest:
    """The sword's Intelligence + Egoism (+``per_ability`` per extraordinary ability, :func:`ego_per_ability`)
    against the wielder's Intelligence + Strength, adjusted by ``condition`` and by the die of the wielder's
    ``state`` (``states``: the dice by state, the text's by default or the player's from :func:`state_dice`)."""
    _needs_egoism(sword)
    in_range("Wielder's Intelligence", intelligence, *WIELDER_SCORE_RANGE)
    in_range("Wielder's Strength", strength, *WIELDER_SCORE_RANGE)
    in_range("Condition adjustment", condition, *CONDITION_RANGE)
    state_roll, sign = None, 0
    states = states if states is not None else STATE_DICE
    if state in states:
        die, sign = states[state]
        state_roll = dice.roll(die, f"wielder's state ({state.replace('_', ' ')})")
        condition += sign * state_roll.final
    ours = sword.intelligence_score + sword.egoism_score + sword.extraordinary * per_ability
    theirs = max(0, intelligence + strength + condition)
    return _contest(dice, ours, theirs, bands, percent, state=state, state_roll=state_roll, state_sign=sign)


def continuing_ego(
    dice: Dice, sword: Sword, level: int, bands: tuple[tuple[int, int], ...] = TEXT_BANDS, percent: str = PERCENT_DIE
) -> EgoContest:
    """The sword's Egoism against the level of the fighting-man who carries it, on the same bands."""
    _needs_egoism(sword)
    in_range("Wielder's level", level, 1, MAX_LEVEL)
    return _contest(dice, sword.egoism_score, level, bands, percent, continuing=True)


# --------------------------------------------------------------------------- picking up a sword of another alignment

ALIGNMENT_DAMAGE_TABLE = "classic.sword_alignment_damage"
Alignment = Literal["Lawful", "Neutral", "Chaotic"]
CONTROL_GAP = 6  # "6 or more points above that of the character": the sword controls him (the item rules' row)


class SwordPickup(Model):
    """A character takes up a sword: the damage for a clash of alignments (half for an NPC), and whether the sword controls them."""

    sword_alignment: str
    character_alignment: Alignment
    npc: bool = False
    clash: str = ""  # the damage row read ("Law -- Chaos"), "" when the alignments agree
    damage_text: str = ""
    roll: RollRecord | None = None
    damage: int = 0
    sword_score: int = 0
    character_score: int = 0  # 0: not compared (no scores given, or the sword has no Egoism)
    control_gap: int = CONTROL_GAP  # the sword controls a character this far below it (the item rules table's)

    @property
    def controlled(self) -> bool:
        return self.character_score > 0 and self.sword_score - self.character_score >= self.control_gap

    def describe(self) -> str:
        who = "An NPC directed to take it up" if self.npc else "The character"
        if not self.clash:
            head = f"{who} ({self.character_alignment}) takes up a {self.sword_alignment} sword: same alignment, no damage"
        else:
            half = f", halved for an NPC: {self.damage}" if self.npc else ""
            rolled = self.roll.final if self.roll else 0
            head = f"{who} ({self.character_alignment}) takes up a {self.sword_alignment} sword ({self.clash}: {self.damage_text}): rolled {rolled}{half}; {self.damage} damage"
        if self.character_score:
            head += f". Sword {self.sword_score} against character {self.character_score}: " + (
                f"the sword controls them (and makes them {self.sword_alignment})"
                if self.controlled
                else "the sword does not control them"
            )
        return head + "."


def _clash_key(sword: str, character: str) -> str:
    if sword == character:
        return ""
    return "Law -- Chaos" if {sword, character} == {"Lawful", "Chaotic"} else "Neutrality -- Law/Chaos"


def pick_up(
    roller: TableRoller, sword: Sword, character: Alignment, npc: bool = False, intelligence: int = 0, strength: int = 0
) -> SwordPickup:
    """``character`` takes up ``sword``: the alignment damage by the table's dice (an NPC takes half, rounded up);
    with the character's Intelligence and Strength, whether the sword's score is 6 or more above and controls them."""
    gap = rule_number(roller.library, ITEM_RULES_TABLE, "A sword controls its taker", CONTROL_GAP)
    result = SwordPickup(sword_alignment=sword.alignment_name, character_alignment=character, npc=npc, control_gap=gap)
    key = _clash_key(sword.alignment_name, character)
    if key:
        read = roller.read(ALIGNMENT_DAMAGE_TABLE, key=key, column="damage", purpose="taking up a sword of another alignment")
        roll = next((d.roll for d in read.dice if d.roll is not None), None)
        full = roll.final if roll else 0
        share = rule_fraction(roller.library, ITEM_RULES_TABLE, "An NPC directed to take up a sword", NPC_SHARE)
        result = result.model_copy(
            update={"clash": key, "damage_text": read.text, "roll": roll, "damage": math.ceil(full * share) if npc else full}
        )
    if intelligence or strength:
        in_range("Character's Intelligence", intelligence, *WIELDER_SCORE_RANGE)
        in_range("Character's Strength", strength, *WIELDER_SCORE_RANGE)
        if sword.has_egoism:
            per_ability = ego_per_ability(roller.library)
            ours = sword.intelligence_score + sword.egoism_score + sword.extraordinary * per_ability
            result = result.model_copy(update={"sword_score": ours, "character_score": intelligence + strength})
    return result
