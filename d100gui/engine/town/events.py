"""Every event the between-quests phase emits, declared once with its typed payload.

The wizard renders from these payloads (step, gold, totals) and from
:class:`~d100gui.engine.town.model.TownState`, never from the sentences. Every payload that
moves gold carries ``cost`` (paid) or ``value`` (received) and ``gp`` (the gold after it).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.model import Model
from d100gui.engine.protocol import Payload, declare


@declare("town_begun", topic="campaign")
class TownBegun(Payload):
    """The before-next-quest phase opened at ``step`` with ``gp`` gold."""

    step: str
    gp: int


@declare("town_step", topic="campaign")
class TownStepChanged(Payload):
    """The wizard moved on to ``step`` (``skipped``: the steps passed over without acting)."""

    step: str
    skipped: list[str] = Field(default_factory=list)


@declare("town_tracks_refreshed", topic="character")
class TracksRefreshed(Payload):
    """Keys, levers, the time track (and its bonuses) and objectives were cleared; the counts removed."""

    keys: int = 0
    levers: int = 0
    clocks: int = 0
    bonuses: int = 0
    objectives: int = 0


@declare("town_healed", topic="character")
class Healed(Payload):
    """The healer removed poison and disease pips and restored HP for ``cost`` gold."""

    poison: int = 0
    disease: int = 0
    hp: int = 0
    cost: int
    gp: int


@declare("town_repaired", topic="character")
class Repaired(Payload):
    """``pips`` repair pips were removed from ``item`` at ``pip_cost`` each."""

    item: str
    pips: int
    pip_cost: int
    cost: int
    gp: int
    repair_pips: int  # left shaded on its track


@declare("town_sold", topic="character")
class Sold(Payload):
    """``item`` was sold from ``where`` for ``value`` gold."""

    item: str
    where: str
    value: int
    gp: int


@declare("town_required_bought", topic="character")
class RequiredBought(Payload):
    """``count`` of Table R's ``item`` were bought; ``bought`` of ``limit`` this phase."""

    item: str
    count: int
    cost: int
    gp: int
    bought: int
    limit: int


@declare("town_market_rolled", topic="dice")
class MarketRolled(Payload):
    """Market roll ``index`` (from 0) on a market table; ``rolls_left`` this phase. A row of None waits to be typed."""

    index: int
    table_roll: TableRoll
    rolls_left: int


@declare("town_market_bought", topic="character")
class MarketBought(Payload):
    """The phase's one market item was bought from roll ``index``; ``to`` is where it went (backpack, spell book)."""

    index: int
    item: str
    cost: int
    gp: int
    to: Literal["backpack", "spell_book"] = "backpack"
    typed_price: bool = False  # the row printed no price: ``cost`` is the one the player typed from their rulebook


@declare("town_trained", topic="character")
class Trained(Payload):
    """``pips`` were shaded on ``track`` by a trainer; ``trained`` of ``limit`` pips this phase."""

    track: str
    pips: int
    cost: int
    gp: int
    trained: int
    limit: int


class InvestmentChange(Model):
    """What Table J did to one investment: the result read, how much per share, shares and pips after."""

    investment: str
    result: str
    per_share: int  # pips (or shares) per share held; 0 for No Gain
    unit: Literal["pip", "share", "none"]
    shares_before: int
    pips_before: int
    shares: int
    pips: int


@declare("town_investments_rolled", topic="character")
class InvestmentsRolled(Payload):
    """Table J was rolled once after the quest and read for every investment held (``changes``).

    A ``table_roll`` without a row waits for the player to type the row in (missing-row policy).
    """

    table_roll: TableRoll
    changes: list[InvestmentChange] = Field(default_factory=list)


@declare("town_investment_traded", topic="character")
class InvestmentTraded(Payload):
    """Shares bought or sold, or pips sold, in ``investment``; ``gold`` is paid (negative) or received."""

    investment: str
    action: Literal["buy", "sell"]
    unit: Literal["share", "pip"]
    count: int
    gold: int
    gp: int
    shares: int
    pips: int


@declare("town_finished", topic="campaign")
class TownFinished(Payload):
    """The wizard was confirmed: the hero is ready for the next quest."""

    spent: int
    earned: int
    gp: int
