"""What the wizard shows before anything is paid: every price, every limit left, per step.

:func:`town_view` answers from the sheet, the phase and the tables, so the wizard renders
numbers it never works out itself (prices from the rules and the printed rows).
"""

from __future__ import annotations

from pydantic import Field

from d100gui.engine.dice.row_values import row_price
from d100gui.engine.dice.tables import TableError, TableLibrary
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules
from d100gui.engine.town import markets, prices
from d100gui.engine.town.investments import share_limit_text
from d100gui.engine.town.model import REQUIRED_TABLE, STEP_TITLES, TOWN_STEPS, TownState, TownStep, TownTotals
from d100gui.engine.town.steps import repairable


class PricedItem(Model):
    """An item the wizard lists: where it is, its value, and (for repairs) its pips and pip price."""

    where: str
    place: str
    name: str
    value: int
    repair_pips: int = 0
    pip_cost: int = 0


class Healer(Model):
    """The healer's prices and what there is to heal."""

    poison_pip: int
    disease_pip: int
    hp: int
    poison: int
    disease: int
    hp_lost: int


class RequiredOffer(Model):
    """A Table R row: its item, its printed price (None: the excerpt prints none) and effect."""

    item: str
    price: int | None
    effect: str = ""


class MarketOffer(Model):
    """A market roll of this phase as the wizard lists it: what it offers and at what price.

    ``price`` is the row's printed price (None: the row prints none, or is still to be typed in);
    ``why`` says why it cannot be bought now ("" if it can; a row with no printed price can be
    bought at the price the player types from their rulebook).
    """

    index: int
    table_id: str
    text: str  # the roll and its row, as the dice history shows it
    name: str  # the item, weapon or spell offered ("" while the row is missing)
    price: int | None
    needs_row: bool  # the roll fell on a row the player's tables lack
    why: str = ""

    @property
    def price_printed(self) -> bool:
        return self.price is not None


class InvestmentView(Model):
    """One investment of the Empire Building section with its prices."""

    id: str
    name: str
    shares: int
    pips: int
    share_value: int
    pip_value: int
    shares_buyable: int  # within the 10-share limit (the gold is checked when buying)
    full: str = ""  # the share limit in words once it is reached ("" while a share may be bought)


class TownView(Model):
    """Everything the wizard's current step shows."""

    step: TownStep
    title: str
    number: int  # 1 for the first step
    steps: list[str]
    gp: int
    gold_at_start: int
    totals: TownTotals
    healer: Healer
    repairs: list[PricedItem] = Field(default_factory=list)
    sellable: list[PricedItem] = Field(default_factory=list)
    required: list[RequiredOffer] = Field(default_factory=list)
    required_left: int
    required_full: str = ""  # the Table R limit in words once it is reached ("" while items may be bought)
    market_tables: list[str] = Field(default_factory=list)
    market_rolls_left: int
    market: list[MarketOffer] = Field(default_factory=list)  # this phase's market rolls, priced
    training_left: int
    training_full: str = ""  # the training limit in words once it is reached ("" while pips may be trained)
    skill_pip: int
    characteristic_pip: int
    investments: list[InvestmentView] = Field(default_factory=list)
    table_j_due: bool  # shares are held and this phase's Table J roll is not applied yet


def sellable(character: Character) -> list[PricedItem]:
    """Every equipped, belt, backpack and potion item with its value (what selling it fetches)."""

    def priced(where: str, place: str, item: Item) -> PricedItem:
        return PricedItem(where=where, place=place, name=item.name, value=item.value)

    out = [priced("equipment", slot, item) for slot, item in character.equipment.items() if item is not None]
    out += [priced("belt", str(i + 1), item) for i, item in enumerate(character.belt) if item is not None]
    out += [priced("backpack", str(i), item) for i, item in enumerate(character.backpack)]
    out += [priced("potions", str(i), item) for i, item in enumerate(character.potions)]
    return out


def required_offers(library: TableLibrary) -> list[RequiredOffer]:
    """Table R's rows as offers (a row the excerpt cut short has no price)."""
    try:
        rows = library.get(REQUIRED_TABLE).rows
    except TableError:
        return []
    return [
        RequiredOffer(item=r.fields.get("item", "").title(), price=row_price(r), effect=r.fields.get("effect", ""))
        for r in rows
        if r.fields.get("item")
    ]


def market_offers(state: TownState) -> list[MarketOffer]:
    """This phase's market rolls with the price :func:`~.markets.buy` would charge and why one cannot be bought."""
    out = []
    for index, rolled in enumerate(state.market_rolls):
        price, why = markets.offer(state, index)
        out.append(
            MarketOffer(
                index=index,
                table_id=rolled.table_id,
                text=rolled.describe(),
                name=markets.label_of(rolled) if rolled.row is not None else "",
                price=price,
                needs_row=rolled.row is None,
                why=why,
            )
        )
    return out


def town_view(character: Character, rules: Rules, state: TownState, library: TableLibrary) -> TownView:
    """What the wizard shows at its current step (prices, limits left, the items it can act on)."""
    h = rules.healer
    lost = max(0, derive(character, rules).max_hp - character.hp)
    repairs = [
        PricedItem(
            where=where,
            place=place,
            name=item.name,
            value=item.value,
            repair_pips=item.repair_pips,
            pip_cost=prices.repair_pip_cost(rules, item),
        )
        for where, place, item in repairable(character)
    ]
    limit = rules.investments.max_shares
    investments = [
        InvestmentView(
            id=k.id,
            name=k.name,
            shares=character.empire[k.id].shares if k.id in character.empire else 0,
            pips=character.empire[k.id].pips if k.id in character.empire else 0,
            share_value=k.share_value,
            pip_value=k.pip_value,
            shares_buyable=max(0, limit - (character.empire[k.id].shares if k.id in character.empire else 0)),
        )
        for k in rules.investments.kinds
    ]
    for held in investments:
        held.full = "" if held.shares_buyable else share_limit_text(limit, held.name, held.shares)
    required_left = max(0, prices.required_limit(rules, character) - state.totals.required_bought)
    training_left = max(0, prices.training_limit(rules, character) - state.totals.trained_pips)
    holds = any(i.shares > 0 for i in investments)
    return TownView(
        step=state.step,
        title=STEP_TITLES[state.step],
        number=TOWN_STEPS.index(state.step) + 1,
        steps=[STEP_TITLES[s] for s in TOWN_STEPS],
        gp=character.gp,
        gold_at_start=state.gold_at_start,
        totals=state.totals,
        healer=Healer(
            poison_pip=h.poison_pip,
            disease_pip=h.disease_pip,
            hp=h.hp,
            poison=character.poison,
            disease=character.disease,
            hp_lost=lost,
        ),
        repairs=repairs,
        sellable=sellable(character),
        required=required_offers(library),
        required_left=required_left,
        required_full="" if required_left else prices.required_limit_text(rules, character, state.totals.required_bought),
        market_tables=[t for t in rules.shopping.market_tables if t in library],
        market_rolls_left=max(0, prices.market_rolls_allowed(rules, character) - len(state.market_rolls)),
        market=market_offers(state),
        training_left=training_left,
        training_full="" if training_left else prices.training_limit_text(rules, character, state.totals.trained_pips),
        skill_pip=rules.training.skill_pip,
        characteristic_pip=rules.training.characteristic_pip,
        investments=investments,
        table_j_due=holds and not state.investments_applied,
    )
