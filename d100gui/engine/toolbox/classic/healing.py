"""Healing common wounds by complete rest: nothing the first day, then a hit point every other day.

Lost energy levels come back only with new experience; hit points come back with time. We
read "every other day thereafter" as alternate days: the 3rd, 5th, 7th day of rest and so on.
"""

from __future__ import annotations

from pydantic import BaseModel

from d100gui.engine.toolbox.inputs import in_range

__all__ = ["Healing", "heal_by_rest"]

MAX_DAYS = 10_000
MAX_HP = 1_000


class Healing(BaseModel):
    hp_missing: int
    days: int

    @property
    def regained(self) -> int:
        return min(self.hp_missing, max(0, (self.days - 1) // 2))

    @property
    def days_to_heal(self) -> int:
        """Days of rest for every missing hit point to come back."""
        return 1 + 2 * self.hp_missing if self.hp_missing else 0

    def describe(self) -> str:
        left = self.hp_missing - self.regained
        tail = "fully healed" if left == 0 else f"{left} still missing; {self.days_to_heal} days of rest heal all"
        return f"{self.days} day(s) of complete rest: {self.regained} of {self.hp_missing} HP back, {tail}"


def heal_by_rest(hp_missing: int, days: int) -> Healing:
    """What ``days`` of complete rest give back of ``hp_missing`` hit points."""
    in_range("Hit points missing", hp_missing, 0, MAX_HP)
    in_range("Days of rest", days, 0, MAX_DAYS)
    return Healing(hp_missing=hp_missing, days=days)
