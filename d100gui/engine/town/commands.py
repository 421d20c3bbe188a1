"""The before-next-quest wizard as commands, and ``TOWN_COMMANDS``.

Each command is one action of one step; :class:`TownNext` moves on (skipping a step is
moving on without acting), and going back is ``Game`` undo, which also takes back what the
step did. The phase's state is ``Campaign.town`` (:class:`~.model.TownState`), so a save
made mid-wizard resumes at the same step with the same totals.

Steps (rulebook "Before Your Next Quest", then Empire Building):

1. ``refresh`` — :class:`BeginTown` refreshes the tracks at once; :class:`VisitHealer`.
2. ``repair`` — :class:`RepairItem`.
3. ``sell`` — :class:`SellItem`.
4. ``required`` — :class:`BuyRequired` (Table R).
5. ``markets`` — :class:`RollMarket`, :class:`ProvideMarketRow`, :class:`BuyMarketItem`.
6. ``training`` — :class:`Train`.
7. ``investments`` — :class:`RollInvestments` (Table J, once), :class:`ProvideInvestmentRow`,
   :class:`TradeInvestment`; then :class:`FinishTown`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Literal

from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.events import RowProvided
from d100gui.engine.dice.tables import Row, TableError
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.invariants import enforce
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.primaries import changed_primaries, primaries
from d100gui.engine.hero.vitals import changed_vitals, vitals
from d100gui.engine.phases import BETWEEN_QUESTS, TOWN_ONLY, Phases
from d100gui.engine.protocol import Event
from d100gui.engine.quest.model import AdventureState
from d100gui.engine.town import investments as inv
from d100gui.engine.town import markets, steps
from d100gui.engine.town.events import (
    Healed,
    InvestmentsRolled,
    InvestmentTraded,
    MarketBought,
    MarketRolled,
    Repaired,
    RequiredBought,
    Sold,
    TownBegun,
    TownFinished,
    TownStepChanged,
    Trained,
)
from d100gui.engine.town.model import INVESTMENT_TABLE, REQUIRED_TABLE, STEP_TITLES, TOWN_STEPS, TownState, TownStep, step_index
from d100gui.engine.town.prices import market_rolls_allowed, required_limit, training_limit

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


def town_of(campaign: Campaign) -> TownState:
    """The campaign's between-quests state (``Campaign.town``); refused on a campaign that keeps none."""
    state = getattr(campaign, "town", None)
    if not isinstance(state, TownState):
        refuse("This campaign keeps no between-quests state (Campaign.town).")
    return state


def at_step(ctx: GameContext, step: TownStep) -> tuple[Character, TownState]:
    """The hero and the phase, refused unless the wizard is open at ``step``."""
    ch = living_character(ctx.campaign)
    state = town_of(ctx.campaign)
    if not state.active:
        refuse("The between-quests phase is not open: begin it after a quest.")
    if state.step != step:
        here, there = step_index(state.step) + 1, step_index(step) + 1
        refuse(
            f"The wizard is at step {here} ({STEP_TITLES[state.step]}), not step {there} ({STEP_TITLES[step]}): "
            + ("undo to go back." if there < here else "move on to it first.")
        )
    return ch, state


def _holds_shares(character: Character) -> bool:
    return any(held.shares > 0 for held in character.empire.values())


def _table_j_due(character: Character, state: TownState) -> bool:
    """Shares are held and this phase's Table J roll is not applied yet (rolled after every quest)."""
    return _holds_shares(character) and not state.investments_applied


@register_command
class BeginTown(Command):
    """Open the before-next-quest phase after a quest: step 1 refreshes the tracks at once."""

    kind: Literal["begin_town"] = "begin_town"
    when: ClassVar[Phases] = BETWEEN_QUESTS

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        ch = living_character(campaign)
        state = town_of(campaign)
        if state.active:
            refuse(f"The between-quests phase is already open, at {STEP_TITLES[state.step]}.")
        if campaign.combat is not None:
            refuse("Finish the fight first.")
        adventure = getattr(campaign, "adventure", None)
        if isinstance(adventure, AdventureState) and adventure.quest is not None:
            refuse(f"The quest {adventure.quest.quest.name} is under way: complete or fail it first.")
        attempts = ch.quest_log.attempted
        if state.after_quest == attempts:
            refuse("The between-quests phase is over for this quest: it comes again after the next quest.")
        fresh = TownState(active=True, step="refresh", gold_at_start=ch.gp, after_quest=attempts)
        fresh.investments_applied = not _holds_shares(ch)  # no shares held after the quest: Table J changes nothing
        refreshed = steps.refresh_tracks(ch, fresh)
        for name in TownState.model_fields:  # a fresh phase, in the campaign's own state object
            setattr(state, name, getattr(fresh, name))
        said = (
            f"Before your next quest: keys {refreshed.keys}, levers {refreshed.levers}, {refreshed.clocks} clocks"
            f" and {refreshed.objectives} objectives cleared; {refreshed.bonuses} time-track bonuses end."
        )
        return [
            Event.of(TownBegun(step="refresh", gp=ch.gp), f"The between-quests phase begins with {ch.gp} gp."),
            Event.of(refreshed, said),
        ]


@register_command
class TownNext(Command):
    """Move the wizard on to the next step, or to ``to`` (a later step): the steps passed are skipped."""

    kind: Literal["town_next"] = "town_next"
    when: ClassVar[Phases] = TOWN_ONLY
    to: TownStep | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        state = town_of(ctx.campaign)
        ch = living_character(ctx.campaign)
        if not state.active:
            refuse("The between-quests phase is not open.")
        here = step_index(state.step)
        there = step_index(self.to) if self.to is not None else here + 1
        if there <= here or there >= len(TOWN_STEPS):
            refuse(f"The wizard moves forward only (it is at {STEP_TITLES[state.step]}): undo to go back.")
        if there > step_index("investments") and _table_j_due(ch, state):
            refuse("Roll Table J for your investments first: it is rolled after every quest.")
        skipped = list(TOWN_STEPS[here:there])
        state.step = TOWN_STEPS[there]
        return [
            Event.of(TownStepChanged(step=state.step, skipped=[str(s) for s in skipped]), f"Next: {STEP_TITLES[state.step]}.")
        ]


@register_command
class VisitHealer(Command):
    """Step 1: the healer removes ``poison`` and ``disease`` pips and restores ``hp`` lost HP."""

    kind: Literal["visit_healer"] = "visit_healer"
    when: ClassVar[Phases] = TOWN_ONLY
    poison: int = 0
    disease: int = 0
    hp: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "refresh")
        held = vitals(ch)
        cost = steps.heal(ch, ctx.rules, state, self.poison, self.disease, self.hp)
        enforce(ch, ctx.rules)
        payload = Healed(poison=self.poison, disease=self.disease, hp=self.hp, cost=cost, gp=ch.gp)
        said = f"The healer: {self.poison} poison, {self.disease} disease pips removed, {self.hp} HP restored for {cost} gp ({ch.gp} left)."
        return [Event.of(payload, said), *changed_vitals(ch, ctx.rules, held)]


@register_command
class RepairItem(Command):
    """Step 2: remove ``pips`` repair pips from the item at ``place`` (a slot id, or a backpack position from 0)."""

    kind: Literal["repair_item"] = "repair_item"
    when: ClassVar[Phases] = TOWN_ONLY
    where: Literal["equipment", "backpack"] = "equipment"
    place: str
    pips: int = 1

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "repair")
        item, pip_cost, cost = steps.repair(ch, ctx.rules, state, self.where, self.place, self.pips)
        payload = Repaired(item=item.name, pips=self.pips, pip_cost=pip_cost, cost=cost, gp=ch.gp, repair_pips=item.repair_pips)
        return [Event.of(payload, f"{item.name}: {self.pips} pips repaired at {pip_cost} gp = {cost} gp ({ch.gp} left).")]


@register_command
class SellItem(Command):
    """Step 3: sell the item at ``place`` of ``where`` for its value; ``name`` (the item expected there) stops a double sale."""

    kind: Literal["sell_item"] = "sell_item"
    when: ClassVar[Phases] = TOWN_ONLY
    where: Literal["equipment", "belt", "backpack", "potions"]
    place: str
    name: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "sell")
        held = vitals(ch)  # an HP item sold brings HP down to the new maximum
        item = steps.sell(ch, ctx.rules, state, self.where, self.place, self.name)
        enforce(ch, ctx.rules)
        payload = Sold(item=item.name, where=self.where, value=item.value, gp=ch.gp)
        return [Event.of(payload, f"Sold {item.name} for {item.value} gp ({ch.gp} gp)."), *changed_vitals(ch, ctx.rules, held)]


def _squash(text: str) -> str:
    return re.sub(r"[^A-Z]", "", text.upper())


def required_row(ctx: GameContext, item: str) -> Row:
    """The Table R row of ``item`` (its printed name, any case); refused with the names on offer."""
    try:
        table = ctx.tables.library.get(REQUIRED_TABLE)
    except TableError as exc:
        refuse(str(exc))
    for row in table.rows:
        if _squash(row.fields.get("item", "")) == _squash(item):
            return row
    offered = ", ".join(r.fields.get("item", "").title() for r in table.rows if r.fields.get("item"))
    refuse(f"Table R has no {item!r}: {offered}.")


@register_command
class BuyRequired(Command):
    """Step 4: buy ``count`` of Table R's ``item`` (at most 20 + REP items a phase, within the supply maxima)."""

    kind: Literal["buy_required"] = "buy_required"
    when: ClassVar[Phases] = TOWN_ONLY
    item: str
    count: int = 1

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "required")
        row = required_row(ctx, self.item)
        cost = steps.buy_required(ch, ctx.rules, state, row, self.count, REQUIRED_TABLE)
        enforce(ch, ctx.rules)
        limit = required_limit(ctx.rules, ch)
        name = row.fields.get("item", self.item).title()
        payload = RequiredBought(
            item=name, count=self.count, cost=cost, gp=ch.gp, bought=state.totals.required_bought, limit=limit
        )
        return [
            Event.of(
                payload, f"Bought {self.count} x {name} for {cost} gp ({ch.gp} left; {state.totals.required_bought} of {limit})."
            )
        ]


@register_command
class RollMarket(Command):
    """Step 5: one market roll on ``table_id`` (a table with the market symbol); REP rolls a phase."""

    kind: Literal["roll_market"] = "roll_market"
    when: ClassVar[Phases] = TOWN_ONLY
    table_id: str

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "markets")
        try:
            rolled = markets.roll_market(ch, ctx.rules, state, ctx.tables, self.table_id)
        except TableError as exc:
            refuse(str(exc))
        left = market_rolls_allowed(ctx.rules, ch) - len(state.market_rolls)
        payload = MarketRolled(index=len(state.market_rolls) - 1, table_roll=rolled, rolls_left=left)
        return [Event.of(payload, rolled.describe())]


@register_command
class ProvideMarketRow(Command):
    """Step 5: the row market roll ``index`` landed on, typed in by the player (missing-row policy "ask"); with
    ``sample`` (and no row) its table is rolled again until a printed row comes up (sample play, this roll only)."""

    kind: Literal["provide_market_row"] = "provide_market_row"
    when: ClassVar[Phases] = TOWN_ONLY
    index: int
    row: Row | None = None
    sample: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "markets")
        left = market_rolls_allowed(ctx.rules, ch) - len(state.market_rolls)
        if self.row is None:
            if not self.sample:
                refuse("Type the row from your rulebook, or re-roll among the printed rows.")
            sampled = markets.sample_row(state, ctx.tables, self.index)
            return [
                Event.of(
                    MarketRolled(index=self.index, table_roll=sampled, rolls_left=left), f"Sample play: {sampled.describe()}"
                )
            ]
        resolved = markets.provide_row(state, ctx.tables, self.index, self.row)
        return [
            Event.of(MarketRolled(index=self.index, table_roll=resolved, rolls_left=left), resolved.describe()),
            Event.of(
                RowProvided(table_id=resolved.table_id, row=resolved.row), f"Row added to your tables: {resolved.describe()}"
            ),
        ]


@register_command
class BuyMarketItem(Command):
    """Step 5: buy the item of market roll ``index`` (one item a phase). ``price``: the price the player's
    rulebook prints, for a row their tables print none for (Table S); a printed price is never overridden."""

    kind: Literal["buy_market_item"] = "buy_market_item"
    when: ClassVar[Phases] = TOWN_ONLY
    index: int
    price: int | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "markets")
        name, cost, where = markets.buy(ch, ctx.rules, state, self.index, self.price)
        enforce(ch, ctx.rules)
        payload = MarketBought(index=self.index, item=name, cost=cost, gp=ch.gp, to=where, typed_price=self.price is not None)
        return [Event.of(payload, f"Bought {name} at the market for {cost} gp ({ch.gp} left).")]


@register_command
class Train(Command):
    """Step 6: shade ``pips`` on skill or characteristic ``track`` (at most REP pips a phase)."""

    kind: Literal["train"] = "train"
    when: ClassVar[Phases] = TOWN_ONLY
    track: str
    pips: int = 1

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "training")
        before = primaries(ch)  # a full track raises the characteristic: told by its typed event too
        name, cost, notes = steps.train(ch, ctx.rules, state, self.track, self.pips)
        enforce(ch, ctx.rules)
        limit = training_limit(ctx.rules, ch)
        payload = Trained(track=name, pips=self.pips, cost=cost, gp=ch.gp, trained=state.totals.trained_pips, limit=limit)
        return [Event.of(payload, f"Training: {' '.join(notes)} ({cost} gp, {ch.gp} left)."), *changed_primaries(ch, before)]


def _cross_reference(ctx: GameContext, ch: Character, state: TownState, row: Row) -> list[Event]:
    assert state.investment_roll is not None
    changes = inv.cross_reference(ch, ctx.rules, row)
    state.investments_applied = True
    said = "; ".join(f"{c.investment.title()} {c.result}: {c.shares} shares, {c.pips} pips" for c in changes) or "no shares held"
    return [
        Event.of(
            InvestmentsRolled(table_roll=state.investment_roll, changes=changes), f"{state.investment_roll.describe()} - {said}."
        )
    ]


@register_command
class RollInvestments(Command):
    """Step 7: roll Table J once and read it for every investment held (each result per share)."""

    kind: Literal["roll_investments"] = "roll_investments"
    when: ClassVar[Phases] = TOWN_ONLY

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "investments")
        if state.investment_roll is not None:
            refuse("Table J is rolled once after each quest: it is rolled.")
        if state.investments_applied:
            refuse("You held no shares after the quest: Table J has nothing to change.")
        try:
            rolled = ctx.tables.roll(INVESTMENT_TABLE, "Table J - Investments")
        except TableError as exc:
            refuse(str(exc))
        state.investment_roll = rolled
        if rolled.row is None:
            return [Event.of(InvestmentsRolled(table_roll=rolled), f"{rolled.describe()}: type the row in to apply it.")]
        return _cross_reference(ctx, ch, state, rolled.row)


@register_command
class ProvideInvestmentRow(Command):
    """Step 7: the Table J row the roll landed on, typed in by the player; it is then applied. With ``sample``
    (and no row) Table J is rolled again until a printed row comes up, which then applies (sample play)."""

    kind: Literal["provide_investment_row"] = "provide_investment_row"
    when: ClassVar[Phases] = TOWN_ONLY
    row: Row | None = None
    sample: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "investments")
        rolled = state.investment_roll
        if rolled is None or rolled.row is not None:
            refuse("No Table J roll is waiting for its row.")
        if self.row is None:
            if not self.sample:
                refuse("Type the Table J row from your rulebook, or re-roll among the printed rows.")
            try:
                state.investment_roll = ctx.tables.resample(rolled)
            except DiceError as exc:
                refuse(str(exc))
            assert state.investment_roll.row is not None
            return _cross_reference(ctx, ch, state, state.investment_roll.row)
        try:
            state.investment_roll = ctx.tables.resolve_missing(rolled, self.row)
        except ValueError as exc:
            refuse(str(exc))
        resolved = state.investment_roll
        assert resolved.row is not None
        provided = Event.of(
            RowProvided(table_id=resolved.table_id, row=resolved.row), f"Row added to your tables: {resolved.describe()}"
        )
        return [*_cross_reference(ctx, ch, state, resolved.row), provided]


@register_command
class TradeInvestment(Command):
    """Step 7: ``buy`` or ``sell`` ``count`` shares of ``investment``, or sell pips (pips are never bought)."""

    kind: Literal["trade_investment"] = "trade_investment"
    when: ClassVar[Phases] = TOWN_ONLY
    investment: str
    action: Literal["buy", "sell"]
    unit: Literal["share", "pip"] = "share"
    count: int = 1

    def apply(self, ctx: GameContext) -> list[Event]:
        ch, state = at_step(ctx, "investments")
        rules = ctx.rules
        if self.action == "buy" and self.unit == "pip":
            inv.refuse_buying_pips(rules, self.investment)
        if _table_j_due(ch, state):
            refuse("Roll Table J (and apply it) before trading: shares are bought and sold after the investment roll.")
        kind = inv.kind_of(rules, self.investment)
        if self.action == "buy":
            gold = -inv.buy_shares(ch, rules, kind.id, self.count)
            state.totals.spent -= gold
        else:
            sell = inv.sell_shares if self.unit == "share" else inv.sell_pips
            gold = sell(ch, rules, kind.id, self.count)
            state.totals.earned += gold
        held = ch.empire[kind.id]
        payload = InvestmentTraded(
            investment=kind.id,
            action=self.action,
            unit=self.unit,
            count=self.count,
            gold=gold,
            gp=ch.gp,
            shares=held.shares,
            pips=held.pips,
        )
        verb = "Bought" if self.action == "buy" else "Sold"
        said = f"{verb} {self.count} {kind.name} {self.unit}{'s' if self.count > 1 else ''} for {abs(gold)} gp: {held.shares} shares, {held.pips} pips ({ch.gp} gp)."
        return [Event.of(payload, said)]


@register_command
class FinishTown(Command):
    """Confirm the wizard: the hero is ready for the next quest (Table J must have been rolled if shares are held)."""

    kind: Literal["finish_town"] = "finish_town"
    when: ClassVar[Phases] = TOWN_ONLY

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = living_character(ctx.campaign)
        state = town_of(ctx.campaign)
        if not state.active:
            refuse("The between-quests phase is not open.")
        if _table_j_due(ch, state):
            refuse("Roll Table J for your investments first: it is rolled after every quest.")
        state.active = False
        state.step = "done"
        totals = state.totals
        payload = TownFinished(spent=totals.spent, earned=totals.earned, gp=ch.gp)
        return [
            Event.of(payload, f"Ready for the next quest: {totals.spent} gp spent, {totals.earned} gp earned, {ch.gp} gp left.")
        ]


TOWN_COMMANDS: tuple[type[Command], ...] = (
    BeginTown,
    TownNext,
    VisitHealer,
    RepairItem,
    SellItem,
    BuyRequired,
    RollMarket,
    ProvideMarketRow,
    BuyMarketItem,
    Train,
    RollInvestments,
    ProvideInvestmentRow,
    TradeInvestment,
    FinishTown,
)
