"""Healing common wounds by complete rest: nothing the first day, then a hit point every other day.

Lost energy levels come back only with new experience; hit points come back with time. We
read "every other day thereafter" as alternate days: the 3rd, 5th, 7th day of rest and so on.
The numbers (the day without healing, the hit point of each healing day) are read from
``classic.healing`` (:func:`healing_numbers`); the text's when the player's tables lack it.
"""

from __future__ import annotations

from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import rule_number
from d100gui.engine.toolbox.inputs import in_range

__all__ = ["HEALING_TABLE", "Healing", "heal_by_rest", "healing_numbers"]

MAX_DAYS = 10_000
MAX_HP = 1_000
HEALING_TABLE = "classic.healing"
FIRST_DAYS = 1  # "On the first day of complete REST no HP will be regained"
HP_PER_DAY = 1  # "every other day thereafter 1 HP will be regained"


class Healing(Model):
    hp_missing: int
    days: int
    first_days: int = FIRST_DAYS  # days of rest that heal nothing (the healing table's)
    hp_per_day: int = HP_PER_DAY  # hit points back on each healing day (the healing table's)

    @property
    def regained(self) -> int:
        return min(self.hp_missing, max(0, (self.days - self.first_days) // 2) * self.hp_per_day)

    @property
    def days_to_heal(self) -> int:
        """Days of rest for every missing hit point to come back."""
        if not self.hp_missing:
            return 0
        healing_days = -(-self.hp_missing // max(1, self.hp_per_day))
        return self.first_days + 2 * healing_days

    def describe(self) -> str:
        left = self.hp_missing - self.regained
        tail = "fully healed" if left == 0 else f"{left} still missing; {self.days_to_heal} days of rest heal all"
        return f"{self.days} day(s) of complete rest: {self.regained} of {self.hp_missing} HP back, {tail}"


def healing_numbers(library: TableLibrary) -> tuple[int, int]:
    """(days that heal nothing, HP back on each healing day) as the healing table prints them."""
    return (
        rule_number(library, HEALING_TABLE, "Days of rest before healing", FIRST_DAYS),
        rule_number(library, HEALING_TABLE, "HP regained every other day", HP_PER_DAY),
    )


def heal_by_rest(hp_missing: int, days: int, numbers: tuple[int, int] = (FIRST_DAYS, HP_PER_DAY)) -> Healing:
    """What ``days`` of complete rest give back of ``hp_missing`` hit points (``numbers``: from :func:`healing_numbers`)."""
    in_range("Hit points missing", hp_missing, 0, MAX_HP)
    in_range("Days of rest", days, 0, MAX_DAYS)
    first_days, hp_per_day = numbers
    return Healing(hp_missing=hp_missing, days=days, first_days=first_days, hp_per_day=hp_per_day)
