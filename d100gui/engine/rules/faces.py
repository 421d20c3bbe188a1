"""How the rulebook reads dice: a lone d10's face, and the chance of rolling a target or under.

The dice package records faces as the die shows them (a d10 shows 0-9); the rules read them.
Views ask here rather than writing ``face or 10`` or a percentage formula themselves.
"""

from __future__ import annotations

from typing import Literal

Die = Literal["d100", "d10"]


def d10_reading(face: int) -> int:
    """What a lone d10 reads: its face, a 0 reading as 10 (hit locations, Belt Checks, wandering monsters)."""
    return face if face else 10


def chance_of(target: int, die: str = "d100") -> int:
    """Percent chance of rolling ``target`` or under: on a d100, or on a d10 (a key or lever count test)."""
    if die == "d10":
        return max(0, min(10, target)) * 10
    return max(0, min(100, target))
