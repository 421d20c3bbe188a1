"""Dice written inside a result's text ("1d4 Agility damage, Dazed for 1d8 hours"), rolled.

A table cell may say how much of something happens with dice in the sentence. The tools roll
each such expression once and keep the clause it belongs to, so a view shows "1d4 Agility
damage: 3" without parsing anything. Dice that apply later, not now, are listed but not
rolled: a rate ("1d4 Stress per 10 minutes") or a parenthesised condition ("(Heal TN 12,
causes 1d4 Stress)") is rolled when it happens.
"""

from __future__ import annotations

import re

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.model import Model

__all__ = ["InlineDice", "dice_in", "roll_inline"]

_DICE = re.compile(r"\b(\d+)d(\d+)\b", re.IGNORECASE)
# "and" before more dice or a lowercase word starts a new clause ("1d12 Stress and 1d4 Agility
# damage", "1d4 Wound Points and move at half speed"); between two names it does not
# ("Dexterity and Strength damage", "Wound Points and Stress": one roll for both)
_AND = r"\band\b(?=\s+(?:\d+[dD]\d+|[a-z]))"
_CLAUSE_END = re.compile(rf",|;|\.(?=\s|$)|\bthen\b|\bplus\b|\(|\)|{_AND}")
_CLAUSE_START = re.compile(rf",|;|\.(?=\s)|\bthen\b|\bplus\b|\(|{_AND}")


class InlineDice(Model):
    """One dice expression found in a text: the clause it sits in and, when it applies now, its roll."""

    expression: str
    clause: str
    later: bool = False  # a rate or a condition: rolled when it applies, not now
    roll: RollRecord | None = None

    def describe(self) -> str:
        if self.roll is None:
            return f"{self.clause} (roll {self.expression} when it applies)"
        return f"{self.clause}: {self.roll.final}"


def _clause(text: str, start: int, end: int) -> str:
    before = [m.end() for m in _CLAUSE_START.finditer(text) if m.end() <= start]
    after = _CLAUSE_END.search(text, end)
    return text[before[-1] if before else 0 : after.start() if after else len(text)].strip()


def _in_parentheses(text: str, pos: int) -> bool:
    head = text[:pos]
    return head.count("(") > head.count(")")


def dice_in(text: str) -> list[InlineDice]:
    """Every dice expression in ``text`` with its clause, none rolled yet."""
    found = []
    for match in _DICE.finditer(text):
        clause = _clause(text, match.start(), match.end())
        later = _in_parentheses(text, match.start()) or " per " in f" {clause.lower()} "
        found.append(InlineDice(expression=match.group(0).lower(), clause=clause, later=later))
    return found


def roll_inline(dice: Dice, text: str, purpose: str = "") -> list[InlineDice]:
    """Every dice expression in ``text``, each one that applies now rolled with ``dice``."""
    rolled = []
    for found in dice_in(text):
        if found.later:
            rolled.append(found)
            continue
        label = f"{purpose}: {found.clause}" if purpose else found.clause
        rolled.append(found.model_copy(update={"roll": dice.roll(found.expression, label)}))
    return rolled
