"""The before-next-quest phase as data: the wizard's step and its running totals.

:class:`TownState` is what a campaign keeps between the phase's commands (the lead adds it
as ``Campaign.town``), so a save made mid-wizard resumes at the same step with the same
totals, and ``Game`` undo puts back each step's change with the sheet's.

The tables the phase rolls on are named here once (Table R, Table J). The tables that carry the
market symbol are data, ``Rules.shopping.market_tables`` (``resources/d100-rules.json``): the
Elric example names Table A and Table W; the symbol itself is printed on the tables, which the
excerpt does not show.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.model import Model

#: the wizard's steps in the rulebook's order ("Before Your Next Quest" 1-6, then Empire Building)
TownStep = Literal["refresh", "repair", "sell", "required", "markets", "training", "investments", "done"]
TOWN_STEPS: tuple[TownStep, ...] = ("refresh", "repair", "sell", "required", "markets", "training", "investments", "done")

#: what each step is called on the wizard
STEP_TITLES: dict[str, str] = {
    "refresh": "Refresh tracks and the healer",
    "repair": "Repair items",
    "sell": "Sell items",
    "required": "Buy required items",
    "markets": "Search the markets",
    "training": "Training",
    "investments": "Investments",
    "done": "Ready for the next quest",
}

REQUIRED_TABLE = "d100.R"
INVESTMENT_TABLE = "d100.J"


class SoldItem(Model):
    """An item sold in this phase: where it was, what it fetched (so a second sale is named as such)."""

    name: str
    where: str
    place: str  # the slot id, belt slot or list position it was sold from
    value: int


class TownTotals(Model):
    """Running totals of the phase, shown on every step of the wizard."""

    spent: int = 0  # gold paid (healer, repairs, purchases, training, shares)
    earned: int = 0  # gold received (sales, shares and pips sold)
    poison_healed: int = 0
    disease_healed: int = 0
    hp_healed: int = 0
    pips_repaired: int = 0
    required_bought: int = 0  # items from Table R
    market_bought: str = ""  # the one market item bought ("" none yet)
    trained_pips: int = 0


class TownState(Model):
    """Where the between-quests wizard stands: its step, its totals, its rolls.

    ``active`` is False outside the phase. ``market_rolls`` are this phase's rolls on the market
    tables (a roll whose ``row`` is None waits for the player to type the row in);
    ``investment_roll`` is this phase's one Table J roll.
    """

    active: bool = False
    step: TownStep = "refresh"
    after_quest: int | None = None  # the quest log's attempts when the phase began (one phase per quest)
    gold_at_start: int = 0
    tracks_refreshed: bool = False
    cleared: dict[str, int] = Field(default_factory=dict)  # what the refresh cleared: keys, levers, clocks, bonuses, objectives
    totals: TownTotals = Field(default_factory=TownTotals)
    sold: list[SoldItem] = Field(default_factory=list)
    market_rolls: list[TableRoll] = Field(default_factory=list)
    investment_roll: TableRoll | None = None
    investments_applied: bool = False


def step_index(step: TownStep) -> int:
    """The step's place in the wizard (0 = refresh)."""
    return TOWN_STEPS.index(step)
