"""The rulebook's effect notation, read into data the engine can act on.

D100 Dungeon writes its mechanics in a compact notation inside table rows and rules text::

    TRAPPED CHEST – Test: Dex -10 [S:+30 gp/ roll x1 Table TA] [F:-10 hp] (Locks, Traps)
    CAST SPELL – Test: INT (+/- Spell Bonus) [S:Cast] [F: Roll on TABLE C - CURSES] (Magic)
    [K:Table P +10]        +2        add +5 STR to the Time Track.        - ½ gp

The grammar, as the rulebook defines it:

* ``NAME – Test: Dex -10`` names a test of a characteristic with a modifier;
  ``[S:...]`` is what happens on a success, ``[F:...]`` on a failure, and the
  parenthesised list after them holds the skills whose bonus is added.
* Inside an outcome, ``/`` separates alternatives the player chooses between and ``,``
  separates effects that all apply. A test may nest inside an outcome (the lever door).
* A bare ``+N`` is N clocks of time on the time track.
* ``[K:Table P +10]`` is the loot rolled when a monster is killed.

Everything here is pure data (pydantic, no Qt). The public functions :func:`parse`,
:func:`parse_test`, :func:`parse_effects` and :func:`parse_loot` never raise, whatever
the string: anything not understood becomes a ``narrative`` effect that keeps its text,
and a bug inside the parser yields one narrative effect holding the whole input.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Callable
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from d100gui.engine.model import Model

__all__ = [
    "SKILLS",
    "Effect",
    "EffectKind",
    "LootOption",
    "LootSpec",
    "Notation",
    "Option",
    "Outcome",
    "TestSpec",
    "canonical_skill",
    "parse",
    "parse_effects",
    "parse_loot",
    "parse_test",
    "table_id",
]

#: The ten skills on the character sheet, in its order.
SKILLS: tuple[str, ...] = ("Agility", "Aware", "Bravery", "Dodge", "Escape", "Locks", "Lucky", "Magic", "Strong", "Traps")

#: Prefix of the rulebook's table ids in resources/tables/d100-dungeon.json.
TABLE_PREFIX = "d100."

#: Inputs longer than this are kept whole as narrative (a guard against pathological input).
MAX_TEXT = 20_000

EffectKind = Literal[
    "gp",  # gold pieces gained (+) or lost (-)
    "gp_half",  # fail cost "- ½ gp": lose half your gold, rounded up
    "hp",  # health points restored (+) or lost (-); amount None with note "to maximum"
    "hp_primary",  # primary (maximum) HP changed
    "characteristic",  # stat STR/DEX/INT, or CHA = a characteristic of the player's choice
    "skill",  # target = a named skill, or "" = a skill of the player's choice
    "def",
    "dmg",
    "rep",
    "fate",
    "life",
    "pick",
    "oil",
    "food",
    "key",  # key pips
    "lever",  # lever pips
    "poison",  # poison pips
    "disease",  # disease pips
    "objective",
    "belt_check",
    "roll_table",  # table id, times, modifier, die (e.g. "1d10" for "roll 1d10 on TABLE G")
    "encounter",  # target = the monster's name
    "time",  # clocks of time on the time track
    "repair_pips",  # pips shaded on an item's repair track
    "xp",  # experience pips: target "skill" or "characteristic"
    "investment_pip",
    "investment_share",
    "forfeit_attack",
    "no_escape",
    "no_belt",
    "open",  # the door opens
    "remove_monster",
    "cast",  # the spell is cast
    "avoid",  # the trap is avoided / spotted: no mechanical effect
    "no_effect",  # "No Effect", "Attack as Normal", "Closed", "No Gain"
    "free_attack",  # the monster has a free attack
    "time_track_bonus",  # a bonus written in the time track's bonus section (stat, amount)
    "narrative",  # anything else: the text is the effect
]

_CHARACTERISTICS = {"STR": "Strength", "DEX": "Dexterity", "INT": "Intelligence"}


def table_id(letters: str) -> str:
    """The library id of a rulebook table named by its letters: ``"TA"`` -> ``"d100.TA"``."""
    return f"{TABLE_PREFIX}{letters.strip().upper()}"


def canonical_skill(word: str) -> str | None:
    """``"traps"``, ``" Trap "``, ``"LOCK"`` -> the skill's printed name; None if no skill."""
    key = word.strip().lower().rstrip("s")
    for skill in SKILLS:
        if skill.lower().rstrip("s") == key:
            return skill
    return None


# --------------------------------------------------------------------------- models


class Effect(Model):
    """One effect of an outcome. ``text`` is always the fragment it was read from."""

    node: Literal["effect"] = "effect"
    kind: EffectKind
    amount: int | None = None
    stat: str = ""
    table: str = ""
    times: int | None = None
    modifier: int = 0
    die: str = ""
    target: str = ""
    note: str = ""
    text: str = ""

    @property
    def is_narrative(self) -> bool:
        return self.kind == "narrative"

    def describe(self) -> str:
        """A short line a player can read: ``"Lose 10 HP"``, ``"Roll once on Table TA"``."""
        try:
            line = _describe(self)
        except Exception:  # never let a label break a view
            line = ""
        line = line or self.text or self.kind
        if self.note == "up to" and self.amount is not None:
            line = line.replace(f" {abs(self.amount)} ", f" up to {abs(self.amount)} ", 1)
        if self.note and self.kind != "narrative" and self.note not in line:
            line = f"{line} ({self.note})"
        return line


class LootOption(Model):
    """One table a killed monster's loot may be rolled on."""

    table: str = ""
    modifier: int = 0
    text: str = ""


class LootSpec(Model):
    """``[K:...]``: the tables to roll on for a killed monster's loot (more than one: a choice)."""

    node: Literal["loot"] = "loot"
    options: list[LootOption] = Field(default_factory=list)
    text: str = ""

    def describe(self) -> str:
        parts = []
        for opt in self.options:
            if opt.table:
                parts.append(_table_label(opt.table) + (f" {opt.modifier:+d}" if opt.modifier else ""))
            else:
                parts.append(opt.text)
        return "Loot: roll on " + " or ".join(parts) if parts else "Loot"


class Option(Model):
    """Effects (and nested tests) that all apply together."""

    items: list[Annotated[Effect | TestSpec, Field(discriminator="node")]] = Field(default_factory=list)
    text: str = ""

    @property
    def effects(self) -> list[Effect]:
        return [i for i in self.items if isinstance(i, Effect)]

    @property
    def tests(self) -> list[TestSpec]:
        return [i for i in self.items if isinstance(i, TestSpec)]

    def kinds(self) -> list[str]:
        return [i.kind if isinstance(i, Effect) else "test" for i in self.items]

    def describe(self) -> str:
        return ", ".join(i.describe() for i in self.items)


class Outcome(Model):
    """What happens: one option, or several the player chooses between."""

    node: Literal["outcome"] = "outcome"
    options: list[Option] = Field(default_factory=list)
    text: str = ""

    @property
    def is_choice(self) -> bool:
        return len(self.options) > 1

    @property
    def is_empty(self) -> bool:
        return not self.options

    def describe(self) -> str:
        return " or ".join(o.describe() for o in self.options)


class TestSpec(Model):
    """A test: roll d100 equal to or under a characteristic (plus modifier and skills).

    ``characteristic`` is ``"STR"``, ``"DEX"`` or ``"INT"``; it is ``""`` for a roll
    against a count (``against`` = ``"keys"`` or ``"levers"``: roll a d10 equal to or
    under the number you hold) and for ``[S:..] [F:..]`` printed without a test line.
    """

    __test__: ClassVar[bool] = False  # not a pytest test class

    node: Literal["test"] = "test"
    name: str = ""
    characteristic: str = ""
    against: str = ""
    modifier: int = 0
    bonus_note: str = ""
    skills: list[str] = Field(default_factory=list)
    skill_notes: list[str] = Field(default_factory=list)
    success: Outcome = Field(default_factory=Outcome)
    failure: Outcome = Field(default_factory=Outcome)
    text: str = ""

    def label(self) -> str:
        """``"TRAPPED CHEST: DEX -10"``."""
        if self.characteristic:
            roll = self.characteristic + (f" {self.modifier:+d}" if self.modifier else "")
            if self.bonus_note:
                roll += f" ({self.bonus_note})"
        elif self.against:
            roll = f"d10 ≤ {self.against}"
        else:
            roll = "test"
        return f"{self.name}: {roll}" if self.name else roll

    def describe(self) -> str:
        line = f"Test {self.label()}"
        if self.skills:
            line += f" ({', '.join(self.skills)})"
        return line

    def nested_tests(self) -> list[TestSpec]:
        """Tests inside this test's outcomes, depth first."""
        found: list[TestSpec] = []
        for outcome in (self.success, self.failure):
            for option in outcome.options:
                for test in option.tests:
                    found.append(test)
                    found.extend(test.nested_tests())
        return found


class Notation(Model):
    """The parse of one whole field.

    ``items`` holds the parts in printed order (tests, loot, and an :class:`Outcome` for
    each stretch of effect text); ``tests``, ``loot`` and ``effects`` are the same parts
    by type. ``effects`` combines every stretch of effect text outside the tests into one
    outcome (choices in different stretches multiply out). ``narrative`` joins the text of
    the top-level phrases that are not mechanics.
    """

    text: str = ""
    items: list[Annotated[TestSpec | LootSpec | Outcome, Field(discriminator="node")]] = Field(default_factory=list)
    tests: list[TestSpec] = Field(default_factory=list)
    loot: list[LootSpec] = Field(default_factory=list)
    effects: Outcome = Field(default_factory=Outcome)
    narrative: str = ""

    def all_tests(self) -> list[TestSpec]:
        """Every test, nested ones included, depth first."""
        found: list[TestSpec] = []
        for test in self.tests:
            found.append(test)
            found.extend(test.nested_tests())
        return found

    @property
    def has_mechanics(self) -> bool:
        if self.tests or self.loot:
            return True
        return any(not e.is_narrative for o in self.effects.options for e in o.effects)


# --------------------------------------------------------------------------- describe


def _table_label(table: str) -> str:
    if table.startswith(TABLE_PREFIX):
        return f"Table {table[len(TABLE_PREFIX) :]}"
    return table or "a table"


_TIMES_WORDS = {1: "once", 2: "twice"}

_SIMPLE_COUNTERS = {
    "rep": ("Reputation", "Reputation"),
    "fate": ("Fate", "Fate"),
    "life": ("Life", "Lives"),
    "pick": ("Pick", "Picks"),
    "oil": ("Oil", "Oil"),
    "food": ("Food", "Food"),
    "objective": ("Objective", "Objectives"),
    "investment_pip": ("investment pip", "investment pips"),
    "investment_share": ("investment share", "investment shares"),
}

_PIP_TRACKS = {"key": "Key", "lever": "Lever", "poison": "Poison", "disease": "Disease"}

_FIXED_LINES = {
    "belt_check": "Make a Belt Check",
    "forfeit_attack": "Forfeit your next attack",
    "no_escape": "You cannot escape",
    "no_belt": "You cannot use belt slots",
    "open": "The door opens",
    "remove_monster": "Remove the monster",
    "cast": "The spell is cast",
    "free_attack": "The monster has a free attack",
    "gp_half": "Lose half your gold (rounded up)",
}


def _signed(amount: int | None) -> str:
    return "" if amount is None else f"{amount:+d}"


def _describe(e: Effect) -> str:
    amt = e.amount
    n = abs(amt) if amt is not None else None
    if e.kind in _FIXED_LINES:
        return _FIXED_LINES[e.kind]
    if e.kind == "gp":
        return f"Gain {n} gp" if (amt or 0) >= 0 else f"Lose {n} gp"
    if e.kind == "hp":
        if amt is None:
            return "Restore HP to maximum" if "max" in e.note.lower() else "HP"
        return f"Restore {n} HP" if amt >= 0 else f"Lose {n} HP"
    if e.kind == "hp_primary":
        return f"{_signed(amt)} primary HP"
    if e.kind == "characteristic":
        if e.stat == "CHA":
            return f"{_signed(amt)} to a characteristic of your choice"
        return f"{_signed(amt)} {e.stat}"
    if e.kind == "skill":
        return f"{_signed(amt)} {e.target}" if e.target else f"{_signed(amt)} to a skill of your choice"
    if e.kind in ("def", "dmg"):
        return f"{_signed(amt)} {e.kind.upper()}"
    if e.kind in _SIMPLE_COUNTERS:
        one, many = _SIMPLE_COUNTERS[e.kind]
        return f"{_signed(amt)} {one if n == 1 else many}"
    if e.kind in _PIP_TRACKS:
        pips = "pip" if n == 1 else "pips"
        verb = "Shade" if (amt or 0) >= 0 else "Remove"
        return f"{verb} {n} {_PIP_TRACKS[e.kind]} {pips}"
    if e.kind == "repair_pips":
        return f"Shade {n} repair {'pip' if n == 1 else 'pips'}"
    if e.kind == "xp":
        return f"Shade {n} {e.target} experience {'pip' if n == 1 else 'pips'}"
    if e.kind == "roll_table":
        times = e.times or 1
        how = _TIMES_WORDS.get(times, f"{times} times")
        line = f"Roll {how} on {_table_label(e.table)}"
        if e.die:
            line = f"Roll {e.die} on {_table_label(e.table)}"
        if e.modifier:
            line += f" {e.modifier:+d}"
        return line
    if e.kind == "encounter":
        return f"Encounter {e.target}"
    if e.kind == "time":
        return f"+{n} time ({n} {'clock' if n == 1 else 'clocks'} on the time track)"
    if e.kind == "time_track_bonus":
        return f"{_signed(amt)} {e.stat} on the time track (until it is refreshed)"
    if e.kind == "avoid":
        return e.text or "Avoided"
    if e.kind == "no_effect":
        return e.text or "No effect"
    return e.text


# --------------------------------------------------------------------------- lexical helpers

_SIGN = r"[+\-–−]"
_NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "once": 1,
    "twice": 2,
    "thrice": 3,
}
_NUM = r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)"


def _num(word: str) -> int:
    word = word.strip().lower()
    if word.isdigit():
        return int(word)
    return _NUMBER_WORDS.get(word, 1)


def _signed_int(text: str) -> int:
    """``"-10"``, ``"– 5"``, ``"+20"`` -> int."""
    compact = re.sub(r"\s+", "", text)
    negative = compact[:1] in ("-", "–", "−")
    digits = re.sub(r"\D", "", compact)
    value = int(digits) if digits else 0
    return -value if negative else value


def _match_bracket(text: str, start: int) -> int:
    """Index of the ``]`` closing the ``[`` at ``start``; ``len(text)`` if it never closes
    (the rulebook prints the lever door with an unclosed ``[F:``)."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def _split_top(text: str, seps: str, *, slash: bool = False, period: bool = False) -> list[tuple[int, int]]:
    """Spans of ``text`` split at ``seps`` outside brackets and parentheses.

    With ``slash`` a ``/`` splits unless it sits between digits (``3/2/2``, ``1/5``) or in
    ``+/-``. With ``period`` a full stop splits when a space or the end follows it.
    """
    spans: list[tuple[int, int]] = []
    depth_sq = depth_par = 0
    start = 0
    n = len(text)
    for i, ch in enumerate(text):
        if ch == "[":
            depth_sq += 1
        elif ch == "]":
            depth_sq = max(0, depth_sq - 1)
        elif ch == "(":
            depth_par += 1
        elif ch == ")":
            depth_par = max(0, depth_par - 1)
        if depth_sq or depth_par:
            continue
        cut = False
        if ch in seps:
            cut = True
        elif slash and ch == "/":
            before = text[i - 1] if i > 0 else ""
            after = text[i + 1] if i + 1 < n else ""
            cut = not (before.isdigit() and after.isdigit()) and not (before == "+" and after in "-–−")
        elif period and ch == ".":
            after = text[i + 1] if i + 1 < n else ""
            cut = after == "" or after.isspace()
        if cut:
            spans.append((start, i))
            start = i + 1
    spans.append((start, n))
    return spans


_STRIP = ".,;:"


def _strip_span(text: str, a: int, b: int) -> tuple[int, int]:
    """``text[a:b]`` without surrounding white space and ``.,;:``."""
    while a < b and (text[a].isspace() or text[a] in _STRIP):
        a += 1
    while b > a and (text[b - 1].isspace() or text[b - 1] in _STRIP):
        b -= 1
    return a, b


def _has_word(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


# --------------------------------------------------------------------------- effect phrases

_UNIT_KINDS: list[tuple[re.Pattern[str], str, str]] = [
    # (unit pattern, kind, stat)
    (re.compile(r"(?:gp|gold(?:\s+pieces?)?)\b", re.I), "gp", ""),
    (re.compile(r"(?:hp|health(?:\s+points?)?)\b", re.I), "hp", ""),
    (re.compile(r"str(?:ength)?\b", re.I), "characteristic", "STR"),
    (re.compile(r"dex(?:terity)?\b", re.I), "characteristic", "DEX"),
    (re.compile(r"int(?:elligence)?\b", re.I), "characteristic", "INT"),
    (re.compile(r"(?:cha|characteristics?)\b", re.I), "characteristic", "CHA"),
    (re.compile(r"def(?:ence|ense)?\b", re.I), "def", ""),
    (re.compile(r"(?:dmg|damage)\b", re.I), "dmg", ""),
    (re.compile(r"rep(?:utation)?\b", re.I), "rep", ""),
    (re.compile(r"fate(?:\s+points?)?\b", re.I), "fate", ""),
    (re.compile(r"(?:li(?:fe|ves))\b", re.I), "life", ""),
    (re.compile(r"(?:lock\s*)?picks?\b", re.I), "pick", ""),
    (re.compile(r"(?:oil|flasks?(?:\s+of\s+oil)?)\b", re.I), "oil", ""),
    (re.compile(r"(?:food|rations?)\b", re.I), "food", ""),
    (re.compile(r"keys?\b", re.I), "key", ""),
    (re.compile(r"levers?\b", re.I), "lever", ""),
    (re.compile(r"objectives?\b", re.I), "objective", ""),
    (re.compile(r"poison\b", re.I), "poison", ""),
    (re.compile(r"disease\b", re.I), "disease", ""),
    (re.compile(r"skills?\b", re.I), "skill", ""),
    (re.compile(r"pips?\b", re.I), "investment_pip", ""),
    (re.compile(r"shares?\b", re.I), "investment_share", ""),
    (re.compile(r"(?:clocks?|time)\b", re.I), "time", ""),
]
_SKILL_UNIT = re.compile(r"(" + "|".join(SKILLS) + r")s?\b", re.I)

_GP_HALF = re.compile(rf"{_SIGN}\s*(?:½|1\s*/\s*2|half)\s*(?:gp|gold)|\b(?:lose|halve)\s+half\s+(?:of\s+)?your\s+gold", re.I)
_TIME_TRACK_BONUS = re.compile(
    rf"\badd\s+(?P<n>{_SIGN}?\s*\d+)\s+(?P<stat>str|dex|int|def|dmg|hp)\b\s+to\s+(?:the\s+|your\s+)?time\s+track", re.I
)
_ROLL_TABLE = re.compile(
    r"(?:(?i:roll)\s+(?:(?P<die>\d*[dD]\d+)\s+)?"
    r"(?:(?i:x)\s*(?P<times>\d+)\s+|(?P<tw>(?i:once|twice|thrice|one|two|three|\d+))(?:\s+(?i:times?))?\s+)?"
    r"(?:(?i:on|against)\s+)?(?:(?i:the)\s+)?)?"
    r"\b(?i:table)\s+(?P<id>[A-Z]{1,2})\b"
    r"(?P<title>\s*[-–—]\s*[A-Z]{2,}(?:\s+[A-Z]{2,})*)?"
    r"(?:\s*(?P<mod>[+\-–−]\s*\d+))?"
)
_ENCOUNTER = re.compile(r"^(?:encounter|fight)\s+(?:an?\s+|the\s+)?(?P<name>\S.*)$", re.I)
_BELT_CHECK = re.compile(r"\bbelt\s+check", re.I)
_PIP_VERB = re.compile(
    rf"\b(?P<verb>shade(?:\s+in)?|mark|remove|erase|delete|clear|add|gain|lose)\s+(?:any\s+|up\s+to\s+)?"
    rf"(?P<n>{_NUM})\s+(?:more\s+|shaded\s+|extra\s+)?(?P<what>(?:\w+\s+)?)pips?\b(?P<rest>.*)$",
    re.I,
)
_PRIMARY = re.compile(rf"(?P<n>{_SIGN}\s*\d+)\s+(?:to\s+(?:your\s+)?)?primary\s+(?P<stat>hp|str|dex|int)\b", re.I)
_SKILL_BONUS = re.compile(rf"\bskill\b.*?(?P<n>{_SIGN}\s*\d+)\s+(?:from|to)\s+its\s+bonus", re.I)
_SIGNED_UNIT = re.compile(rf"(?<![\w+\-–−])(?P<n>{_SIGN}\s*\d+)(?![\d/])\s*(?P<unit>[A-Za-z][A-Za-z ]*)?")
_VERB_UNIT = re.compile(
    rf"\b(?P<verb>gain|gains|restore|restores|heal|heals|recover|recovers|lose|loses|suffer|suffers|add|adds|"
    rf"remove|removes|delete|deletes|spend|spends|take|takes|find|finds)\s+(?:up\s+to\s+)?(?P<n>{_NUM})\s+"
    rf"(?:lost\s+|extra\s+|more\s+)?(?P<unit>[A-Za-z][A-Za-z ]*)",
    re.I,
)
_HP_MAX = re.compile(r"\b(?:restores?|heals?)\b.*\bhp\s+to\s+(?:its\s+|their\s+|your\s+)?max", re.I)
_BARE_GP = re.compile(r"^(?P<n>\d+)\s*(?:gp|gold(?:\s+pieces?)?)$", re.I)
_BARE_TIME = re.compile(r"^\[?\s*\+\s*(?P<n>\d+)\s*(?:clocks?|time)?\s*\]?$", re.I)
_NEGATIVE_VERBS = ("lose", "suffer", "remove", "delete", "spend", "erase", "clear", "take")

_PHRASES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bforfeit\s+(?:your\s+|the\s+|its\s+)?(?:next\s+)?attack", re.I), "forfeit_attack"),
    (re.compile(r"^no\s+escape$|\bcannot\s+escape\b", re.I), "no_escape"),
    (re.compile(r"\bcan(?:not|'t|’t)\s+use\s+(?:any\s+|your\s+)?belt", re.I), "no_belt"),
    (re.compile(r"\bfree\s+attack", re.I), "free_attack"),
    (re.compile(r"^remove\s+(?:the\s+)?monsters?$", re.I), "remove_monster"),
    (
        re.compile(
            r"^(?:(?:to|it|door)\s+)?(?:opens?|opened)$|\bdoor\s+(?:is\s+)?open(?:s|ed)?\b|^opens?\s+(?:[\w-]+\s+){0,3}doors?$",
            re.I,
        ),
        "open",
    ),
    (re.compile(r"^(?:cast|casts|spell\s+cast|cast\s+(?:the\s+)?spell)$", re.I), "cast"),
    (re.compile(r"^(?:avoid(?:s|ed)?|spotted|spot)\b", re.I), "avoid"),
    (re.compile(r"^(?:no\s+(?:effect|gain|change)|nothing|closed|attack\s+as\s+normal)$", re.I), "no_effect"),
]


def _unit_kind(unit: str) -> tuple[str, str, str, int] | None:
    """(kind, stat, skill name, length of the unit words) for the words after a number, or None."""
    if not unit or not unit[0].isalpha():
        return None
    m = _SKILL_UNIT.match(unit)
    if m:
        return "skill", "", canonical_skill(m.group(1)) or "", m.end()
    for pattern, kind, stat in _UNIT_KINDS:
        m = pattern.match(unit)
        if m:
            return kind, stat, "", m.end()
    return None


def _pip_kind(what: str, rest: str) -> tuple[str, str]:
    """The track a number of pips goes on: (kind, target)."""
    words = f"{what} {rest}".lower()
    if "repair" in words:
        return "repair_pips", ""
    for track in ("poison", "disease", "key", "lever"):
        if re.search(rf"\b{track}s?\b", words):
            return track, ""
    if re.search(r"\bskills?\b", words):
        return "xp", "skill"
    if re.search(r"\bcharacteristics?\b", words):
        return "xp", "characteristic"
    return "investment_pip", ""


def _trailing_note(fragment: str, end: int) -> str:
    return fragment[end:].strip(" \t.,;:()[]")


def _effect(kind: str, f: str, **fields: object) -> Effect:
    """An effect of ``kind`` (validated: a kind the patterns compute must be an :data:`EffectKind`)."""
    return Effect.model_validate({"kind": kind, "text": f, **fields})


def _bare(f: str) -> Effect | None:
    """A bare ``+2`` of time, a bare ``10 gp``, or half your gold."""
    m = _BARE_TIME.match(f)
    if m:
        return Effect(kind="time", amount=_num(m.group("n")), text=f)
    m = _BARE_GP.match(f)
    if m:
        return Effect(kind="gp", amount=int(m.group("n")), text=f)
    if _GP_HALF.search(f):
        return Effect(kind="gp_half", text=f)
    return None


def _time_track_bonus(f: str) -> Effect | None:
    """``add +5 STR to the time track``."""
    m = _TIME_TRACK_BONUS.search(f)
    if m:
        return Effect(kind="time_track_bonus", stat=m.group("stat").upper(), amount=_signed_int(m.group("n")), text=f)
    return None


def _roll_table(f: str) -> Effect | None:
    """``roll twice on Table TA - TREASURE A +10``."""
    m = _ROLL_TABLE.search(f)
    if not m:
        return None
    times = 1
    if m.group("times"):
        times = int(m.group("times"))
    elif m.group("tw"):
        times = _num(m.group("tw"))
    title = (m.group("title") or "").strip(" -–—")
    return Effect(
        kind="roll_table",
        table=table_id(m.group("id")),
        times=times,
        modifier=_signed_int(m.group("mod")) if m.group("mod") else 0,
        die=(m.group("die") or "").lower(),
        note=title.title() if title else "",
        text=f,
    )


def _encounter_or_belt_check(f: str) -> Effect | None:
    """``encounter a Goblin``; ``Belt Check``."""
    m = _ENCOUNTER.match(f)
    if m:
        return Effect(kind="encounter", target=m.group("name").strip(" .,;:"), text=f)
    if _BELT_CHECK.search(f):
        return Effect(kind="belt_check", text=f)
    return None


def _pip_verb(f: str) -> Effect | None:
    """``shade 2 poison pips``, ``remove 1 pip from any skill``."""
    m = _PIP_VERB.search(f)
    if not m:
        return None
    kind, target = _pip_kind(m.group("what"), m.group("rest"))
    n = _num(m.group("n"))
    negative = m.group("verb").lower().split()[0] in (*_NEGATIVE_VERBS, "erase", "clear")
    note = "up to" if re.search(r"\bup\s+to\b", m.group(0), re.I) else ""
    return _effect(kind, f, amount=-n if negative else n, target=target, note=note)


def _primary_or_skill_bonus(f: str) -> Effect | None:
    """``-5 primary STR``, ``+1 primary HP``, ``a skill ... +5 to its bonus``, ``restores HP to maximum``."""
    m = _PRIMARY.search(f)
    if m:
        stat = m.group("stat").upper()
        if stat == "HP":
            return Effect(kind="hp_primary", amount=_signed_int(m.group("n")), text=f)
        return Effect(kind="characteristic", stat=stat, amount=_signed_int(m.group("n")), note="primary", text=f)
    m = _SKILL_BONUS.search(f)
    if m:
        return Effect(kind="skill", amount=_signed_int(m.group("n")), text=f)
    if _HP_MAX.search(f):
        return Effect(kind="hp", note="to maximum", text=f)
    return None


def _signed_unit(f: str) -> Effect | None:
    """The first ``+N unit`` / ``-N unit`` whose unit is understood: ``-2 HP``, ``+5 Traps``, ``+1 pip ...``."""
    for m in _SIGNED_UNIT.finditer(f):
        found = _unit_kind(m.group("unit") or "")
        if found is None:
            continue
        kind, stat, skill, length = found
        amount = _signed_int(m.group("n"))
        note = _trailing_note(f, m.start("unit") + length)
        if kind == "investment_pip":
            kind, target = _pip_kind("", f[m.end() :])
            return _effect(kind, f, amount=amount, target=target)
        if kind == "hp" and re.search(r"\bprimary\b", f, re.I):
            kind = "hp_primary"
        if kind == "time":
            amount = abs(amount)
        return _effect(kind, f, amount=amount, stat=stat, target=skill, note=note)
    return None


def _verb_unit(f: str) -> Effect | None:
    """The first ``gain/lose N unit`` whose unit is understood: ``lose 2 HP``, ``suffer 3 damage``, ``find 10 gold``."""
    for m in _VERB_UNIT.finditer(f):
        found = _unit_kind(m.group("unit"))
        if found is None:
            continue
        kind, stat, skill, length = found
        n = _num(m.group("n"))
        verb = m.group("verb").lower()
        negative = any(verb.startswith(v) for v in _NEGATIVE_VERBS)
        note = _trailing_note(f, m.start("unit") + length)
        if not note and re.search(r"\bup\s+to\b", m.group(0), re.I):
            note = "up to"
        if kind == "dmg" and negative:  # "suffer 2 damage" is HP lost, not a DMG modifier
            kind = "hp"
        if kind == "investment_pip":
            kind, target = _pip_kind("", m.group("unit"))
            return _effect(kind, f, amount=-n if negative else n, target=target)
        return _effect(kind, f, amount=-n if negative else n, stat=stat, target=skill, note=note)
    return None


def _phrase(f: str) -> Effect | None:
    """A fixed phrase: ``forfeit next attack``, ``door opens``, ``No Effect``."""
    for pattern, kind in _PHRASES:
        if pattern.search(f):
            return _effect(kind, f)
    return None


#: tried in order; the first that understands a fragment gives its effect
_CLASSIFIERS: tuple[Callable[[str], Effect | None], ...] = (
    _bare,
    _time_track_bonus,
    _roll_table,
    _encounter_or_belt_check,
    _pip_verb,
    _primary_or_skill_bonus,
    _signed_unit,
    _verb_unit,
    _phrase,
)


def _classify(fragment: str) -> Effect:
    """One effect for one fragment (a comma-separated phrase); narrative if not understood."""
    for classifier in _CLASSIFIERS:
        effect = classifier(fragment)
        if effect is not None:
            return effect
    return Effect(kind="narrative", text=fragment)


def _fragments(text: str) -> list[str]:
    """The phrases of a stretch of effect text: split at , ; and full stops (outside parentheses)."""
    out = []
    for a, b in _split_top(text, ",;", period=True):
        a, b = _strip_span(text, a, b)
        if a < b and _has_word(text[a:b]):
            out.append(text[a:b])
    return out


# --------------------------------------------------------------------------- tests and brackets

_NAME = r"[A-Z][A-Za-z0-9'’]*(?:[ \t]+[A-Z][A-Za-z0-9'’]*){0,6}"
_DASH = r"\s*[-–—]\s*"
_CHAR = r"(?P<char>(?i:str(?:ength)?|dex(?:terity)?|int(?:elligence)?))\b"
_MOD = rf"(?:\s*(?P<mod>{_SIGN}\s*\d+)(?!\d))?"
_NOTE = r"(?:\s*\((?P<note>[^()\[\]]*)\)(?=\s*\[))?"
_LEAD = r"(?P<lead>(?i:to\s+open)\s*,?\s*)?"

# "TRAPPED CHEST – Test: Dex -10", "Test - BALL TRAP – Test: Dex-5", "SURPRISE – Test Int-10",
# "To open test JAMMED DOOR – Test: Str", "Test: INT (+/- Spell Bonus)"
_HEADER_A = re.compile(rf"{_LEAD}(?:(?i:test)\s*[-–—:]?\s*)?(?:(?P<name>{_NAME}){_DASH})?(?i:test)\b\s*:?\s*{_CHAR}{_MOD}{_NOTE}")
# "Test - GAS TRAP - Dex"
_HEADER_B = re.compile(rf"{_LEAD}(?i:test)\s*[-–—:]\s*(?P<name>{_NAME}){_DASH}{_CHAR}{_MOD}{_NOTE}")
# "Roll equal to or less than the number of Levers you have to open,"
_COUNT = re.compile(
    r"(?i:roll\s+(?:a\s+d10\s+)?equal\s+to\s+or\s+(?:less|lower|under)\s+than\s+the\s+number\s+of\s+"
    r"(?P<against>keys?|levers?)(?:\s+you\s+(?:have|hold))?)"
)
_COUNT_OPEN = re.compile(r"\s*(?i:to\s+open)\b")
_IF_SUCCESS = re.compile(r"\s*,?\s*(?i:if\s+successful|if\s+you\s+succeed)\b\s*,?\s*")
_LABEL = re.compile(r"\[\s*(?P<label>[SsFfKk])\s*:")


class _Seg:
    __slots__ = ("a", "b", "kind", "node")

    def __init__(self, kind: str, a: int, b: int, node: object = None) -> None:
        self.kind = kind
        self.a = a
        self.b = b
        self.node = node


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _read_outcomes(text: str, i: int) -> tuple[Outcome | None, Outcome | None, int]:
    """Consecutive ``[S:..]`` / ``[F:..]`` brackets from ``i``: (success, failure, end)."""
    found: dict[str, tuple[Outcome, int]] = {}
    while True:
        j = _skip_ws(text, i)
        m = _LABEL.match(text, j)
        if not m or m.group("label").upper() == "K":
            return (found["S"][0] if "S" in found else None), (found["F"][0] if "F" in found else None), i
        close = _match_bracket(text, j)
        label = m.group("label").upper()
        outcome = _parse_outcome(text[m.end() : close])
        if label in found:  # a second [S:..] (or [F:..]): its options join the first's as choices
            first, first_start = found[label]
            outcome = Outcome(options=[*first.options, *outcome.options], text=text[first_start:close].strip())
            found[label] = (outcome, first_start)
        else:
            found[label] = (outcome, m.end())
        i = min(close + 1, len(text))


def _read_skills(text: str, i: int) -> tuple[list[str], list[str], int]:
    """A ``(Skill, Skill)`` list from ``i``: (skills, other words, end)."""
    j = _skip_ws(text, i)
    if j >= len(text) or text[j] != "(":
        return [], [], i
    close = text.find(")", j)
    end = len(text) if close < 0 else close + 1
    inner = text[j + 1 : close if close >= 0 else len(text)]
    skills: list[str] = []
    notes: list[str] = []
    for word in re.split(r"[,/;&]|\band\b", inner):
        word = word.strip(" \t.")
        if not word:
            continue
        skill = canonical_skill(word)
        if skill and skill not in skills:
            skills.append(skill)
        elif not skill:
            notes.append(word)
    return skills, notes, end


def _build_test(text: str, start: int, header: re.Match[str]) -> tuple[TestSpec, int]:
    name = (header.group("name") or "").strip()
    char = header.group("char")[:3].upper()
    mod = _signed_int(header.group("mod")) if header.group("mod") else 0
    note = (header.group("note") or "").strip()
    success, failure, i = _read_outcomes(text, header.end())
    skills, notes, i = _read_skills(text, i)
    spec = TestSpec(
        name=name,
        characteristic=char,
        modifier=mod,
        bonus_note=note,
        skills=skills,
        skill_notes=notes,
        success=success or Outcome(),
        failure=failure or Outcome(),
        text=text[start:i].strip(),
    )
    return spec, i


def _build_count_test(text: str, start: int, header: re.Match[str]) -> tuple[TestSpec, int]:
    against = header.group("against").lower()
    against = against if against.endswith("s") else against + "s"
    i = header.end()
    m_open = _COUNT_OPEN.match(text, i)
    open_start = i
    if m_open:
        i = m_open.end()
    success, failure, j = _read_outcomes(text, _skip_ws(text, i + (1 if text[i : i + 1] == "," else 0)))
    if success is None and failure is None:
        m_if = _IF_SUCCESS.match(text, i)
        if m_if:
            stop = len(text)
            for m_stop in re.finditer(r";|\.(?=\s|$)|\[|\bor\b", text[m_if.end() :]):
                stop = m_if.end() + m_stop.start()
                break
            # "to open, if successful delete 1 key": the door opens and a key is spent
            succ_from = open_start if m_open else m_if.end()
            success = _parse_outcome(text[succ_from:stop])
            j = stop
        else:
            j = i
    skills, notes, j = _read_skills(text, j)
    spec = TestSpec(
        against=against,
        skills=skills,
        skill_notes=notes,
        success=success or Outcome(),
        failure=failure or Outcome(),
        text=text[start:j].strip(),
    )
    return spec, j


def _build_orphan_test(text: str, start: int) -> tuple[TestSpec, int]:
    success, failure, i = _read_outcomes(text, start)
    skills, notes, i = _read_skills(text, i)
    spec = TestSpec(
        skills=skills,
        skill_notes=notes,
        success=success or Outcome(),
        failure=failure or Outcome(),
        text=text[start:i].strip(),
    )
    return spec, i


def _loot_from(content: str, whole: str) -> LootSpec:
    options = []
    for a, b in _split_top(content, "", slash=True):
        a, b = _strip_span(content, a, b)
        piece = content[a:b]
        if not _has_word(piece):
            continue
        m = _ROLL_TABLE.search(piece)
        if m:
            mod = _signed_int(m.group("mod")) if m.group("mod") else 0
            options.append(LootOption(table=table_id(m.group("id")), modifier=mod, text=piece))
        else:
            options.append(LootOption(text=piece))
    return LootSpec(options=options, text=whole)


def _starts_at_or_after(m: re.Match[str] | None, pos: int) -> bool:
    return m is not None and m.start() >= pos


_HEADERS = (("test", _HEADER_A), ("test_b", _HEADER_B), ("count", _COUNT))


def _next_start(text: str, pos: int, cache: dict[str, re.Match[str] | None]) -> tuple[int, str, re.Match[str] | None] | None:
    """Where the next test header or bracket begins at or after ``pos``: (start, kind, header match)."""
    candidates: list[tuple[int, int, str, re.Match[str] | None]] = []
    for kind, regex in _HEADERS:
        m: re.Match[str] | None
        if kind in cache and (cache[kind] is None or _starts_at_or_after(cache[kind], pos)):
            m = cache[kind]  # searching again from pos would find the same match (or none)
        else:
            m = cache[kind] = regex.search(text, pos)
        if m:
            candidates.append((m.start(), 0, kind, m))
    br = text.find("[", pos)
    if br >= 0:
        candidates.append((br, 1, "bracket", None))
    if not candidates:
        return None
    start, _, kind, m = min(candidates, key=lambda c: (c[0], c[1]))
    return start, kind, m


def _read_bracket(text: str, start: int) -> tuple[str, object, int]:
    """The bracket at ``start``: an orphan ``[S:...]`` test, ``[K:...]`` loot, or bracketed effects."""
    label = _LABEL.match(text, start)
    if label and label.group("label").upper() in "SF":
        node, end = _build_orphan_test(text, start)
        return "test", node, end
    close = _match_bracket(text, start)
    end = min(close + 1, len(text))
    if label:  # [K:...]
        return "loot", _loot_from(text[label.end() : close], text[start:end]), end
    inner = _parse_outcome(text[start + 1 : close])
    return "bracket", inner.model_copy(update={"text": text[start:end]}), end


def _read_segment(text: str, start: int, kind: str, m: re.Match[str] | None) -> tuple[str, object, int]:
    """(segment kind, node, end) of what begins at ``start``."""
    if m is not None and kind in ("test", "test_b"):
        test, end = _build_test(text, start, m)
        return "test", test, end
    if m is not None and kind == "count":
        test, end = _build_count_test(text, start, m)
        return "test", test, end
    return _read_bracket(text, start)


def _segments(text: str) -> list[_Seg]:
    """Split ``text`` into tests, loot, bracketed effects and plain effect text, in order."""
    segs: list[_Seg] = []
    pos = gap_start = 0
    n = len(text)
    cache: dict[str, re.Match[str] | None] = {}
    while pos < n:
        found = _next_start(text, pos, cache)
        if found is None:
            break
        start, kind, m = found
        seg_kind, node, end = _read_segment(text, start, kind, m)
        if end <= start:  # cannot happen, but never loop forever
            end = start + 1
        if start > gap_start:
            segs.append(_Seg("text", gap_start, start))
        segs.append(_Seg(seg_kind, start, end, node))
        pos = gap_start = end
    if gap_start < n:
        segs.append(_Seg("text", gap_start, n))
    return segs


def _parse_outcome(content: str) -> Outcome:
    """The inside of ``[S:...]``/``[F:...]``: options split at ``/``, effects at ``,``."""
    options: list[Option] = []
    for a, b in _split_top(content, "", slash=True):
        opt_text = content[a:b]
        items: list[Effect | TestSpec] = []
        for seg in _segments(opt_text):
            piece = opt_text[seg.a : seg.b]
            if seg.kind == "test":
                items.append(seg.node)  # type: ignore[arg-type]
            elif seg.kind == "loot":
                loot: LootSpec = seg.node  # type: ignore[assignment]
                if len(loot.options) == 1 and loot.options[0].table:
                    opt = loot.options[0]
                    items.append(Effect(kind="roll_table", table=opt.table, modifier=opt.modifier, times=1, text=piece.strip()))
                elif _has_word(piece):
                    items.append(Effect(kind="narrative", text=piece.strip()))
            elif seg.kind == "bracket":
                inner: Outcome = seg.node  # type: ignore[assignment]
                if len(inner.options) == 1:
                    items.extend(inner.options[0].items)
                elif _has_word(piece):
                    items.append(Effect(kind="narrative", text=piece.strip()))
            else:
                items.extend(_classify(frag) for frag in _fragments(piece))
        if items:
            options.append(Option(items=items, text=opt_text.strip()))
    return Outcome(options=options, text=content.strip())


_MAX_PRODUCT = 64


def _combine(outcomes: list[Outcome]) -> Outcome:
    """Outcomes that all apply, as one outcome: independent choices multiply out."""
    outcomes = [o for o in outcomes if o.options]
    if not outcomes:
        return Outcome()
    size = 1
    for o in outcomes:
        size *= len(o.options)
    text = " ".join(o.text for o in outcomes)
    if size > _MAX_PRODUCT:
        flat = [item for o in outcomes for opt in o.options for item in opt.items]
        return Outcome(options=[Option(items=flat, text=text)], text=text)
    options = []
    for combo in itertools.product(*(o.options for o in outcomes)):
        options.append(Option(items=[i for opt in combo for i in opt.items], text=", ".join(opt.text for opt in combo)))
    return Outcome(options=options, text=text)


def _parse(text: str) -> Notation:
    items: list[TestSpec | LootSpec | Outcome] = []
    tests: list[TestSpec] = []
    loot: list[LootSpec] = []
    stretches: list[Outcome] = []
    for seg in _segments(text):
        piece = text[seg.a : seg.b]
        if seg.kind == "test":
            tests.append(seg.node)  # type: ignore[arg-type]
            items.append(seg.node)  # type: ignore[arg-type]
        elif seg.kind == "loot":
            loot.append(seg.node)  # type: ignore[arg-type]
            items.append(seg.node)  # type: ignore[arg-type]
        else:
            outcome = seg.node if seg.kind == "bracket" else _parse_outcome(piece)
            assert isinstance(outcome, Outcome)
            if outcome.options:
                items.append(outcome)
                stretches.append(outcome)
    narrative = [e.text for o in stretches for opt in o.options for e in opt.effects if e.is_narrative and len(o.options) == 1]
    return Notation(
        text=text,
        items=items,
        tests=tests,
        loot=loot,
        effects=_combine(stretches),
        narrative=" ".join(narrative),
    )


# --------------------------------------------------------------------------- public API


def _as_text(text: object) -> str:
    if text is None:
        return ""
    return text if isinstance(text, str) else str(text)


_log = logging.getLogger(__name__)


def _swallowed(where: str, source: object) -> None:
    """Log what the parser swallowed into a narrative effect (a bug in it, or input it cannot read)."""
    shown = repr(source)
    _log.warning(
        "notation %s kept %s as narrative text", where, shown if len(shown) <= 200 else shown[:200] + "...", exc_info=True
    )


def _fallback(text: str) -> Notation:
    effect = Effect(kind="narrative", text=text)
    outcome = Outcome(options=[Option(items=[effect], text=text)], text=text) if text else Outcome()
    return Notation(text=text, items=[outcome] if text else [], effects=outcome, narrative=text)


def parse(text: str) -> Notation:
    """Read a whole field. Never raises: on any internal error the text comes back as narrative."""
    try:
        source = _as_text(text)
    except Exception:
        _swallowed("parse", text)
        source = ""
    try:
        if len(source) > MAX_TEXT:
            _log.warning("notation parse kept a text of %d characters as narrative (over %d)", len(source), MAX_TEXT)
            return _fallback(source)
        return _parse(source)
    except Exception:
        _swallowed("parse", source)
        return _fallback(source)


def parse_test(text: str) -> TestSpec | None:
    """The first test in ``text`` (a ``Test:`` line, a roll against keys/levers, or bare
    ``[S:..] [F:..]`` brackets), or None. Never raises."""
    try:
        tests = parse(text).tests
        return tests[0] if tests else None
    except Exception:
        _swallowed("parse_test", text)
        return None


def parse_effects(text: str) -> Outcome:
    """Read the inside of an outcome (``"+30 gp/ roll x1 Table TA"``). Never raises."""
    source = ""
    try:
        source = _as_text(text)
        if len(source) > MAX_TEXT:
            raise ValueError("too long")
        return _parse_outcome(source)
    except Exception:
        _swallowed("parse_effects", text)
        if not source:
            return Outcome()
        return Outcome(options=[Option(items=[Effect(kind="narrative", text=source)], text=source)], text=source)


def parse_loot(text: str) -> LootSpec | None:
    """``"[K:Table P +10]"`` or its inside ``"Table P +10"`` -> the loot; None if there is none.
    Never raises."""
    try:
        source = _as_text(text)
        if len(source) > MAX_TEXT:
            return None
        m = re.search(r"\[\s*[Kk]\s*:", source)
        if m:
            close = _match_bracket(source, m.start())
            return _loot_from(source[m.end() : close], source[m.start() : min(close + 1, len(source))])
        if _ROLL_TABLE.search(source):
            return _loot_from(source, source)
        return None
    except Exception:
        _swallowed("parse_loot", text)
        return None
