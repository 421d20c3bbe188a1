"""Campaign time: how much game time each kind of outing counts, kept as one running calendar.

The text reckons a dungeon expedition as a week (preparations and a day's descent), a
wilderness adventure as a day per move (days of rest included), and a week of real time as a
week of game time for those at home or underground. The amounts are read from the campaign
time table ("1 week", "1 move = 1day"), so the player's own table decides them.
"""

from __future__ import annotations

import re

from d100gui.engine.dice.tables import Table
from d100gui.engine.model import Model
from d100gui.engine.toolbox.inputs import ToolInputError, in_range

__all__ = ["CAMPAIGN_TIME_TABLE", "CalendarStep", "CampaignCalendar", "pass_time"]

CAMPAIGN_TIME_TABLE = "classic.campaign_time"
DAYS_PER_WEEK = 7
MAX_COUNT = 10_000
_AMOUNT = re.compile(r"(\d+)\s*(week|day)", re.IGNORECASE)


class CampaignCalendar(Model):
    """Game days passed in the campaign (saved with it)."""

    days: int = 0

    def describe(self) -> str:
        weeks, days = divmod(self.days, DAYS_PER_WEEK)
        return f"{self.days} day(s) of game time ({weeks} week(s) and {days} day(s))"


class CalendarStep(Model):
    activity: str
    count: int
    days_each: int
    calendar: CampaignCalendar

    def describe(self) -> str:
        return f"{self.count} x {self.activity}: +{self.count * self.days_each} day(s); now {self.calendar.describe()}"


def days_for(text: str) -> int:
    """Game days in a printed amount: the last "N week(s)" or "N day(s)" it names ("1 move = 1day" is 1)."""
    found = _AMOUNT.findall(text)
    if not found:
        raise ToolInputError(f"{text!r} names no weeks or days.")
    number, unit = found[-1]
    return int(number) * (DAYS_PER_WEEK if unit.lower() == "week" else 1)


def pass_time(table: Table, calendar: CampaignCalendar, activity: str, count: int = 1) -> CalendarStep:
    """Count ``count`` of ``activity`` (a row of the campaign time table) on the calendar."""
    in_range("How many", count, 1, MAX_COUNT)
    row = table.find_key(activity)
    if row is None:
        raise ToolInputError(f"Activity must be one of {', '.join(r.key for r in table.rows)}; {activity!r} is not.")
    each = days_for(row.fields.get("time", ""))
    after = CampaignCalendar(days=calendar.days + each * count)
    return CalendarStep(activity=activity, count=count, days_each=each, calendar=after)
