"""Step 5, Search the Markets: REP rolls over the tables with the market symbol, then one item to buy.

Rulebook: "Roll on tables with the market symbol a number of times equal to your characters
Reputation value and choose one item to buy" (Elric, REP 3, rolls Table A twice and Table W
once). A roll on a row the player's tables lack follows the missing-row policy of
:class:`~d100gui.engine.dice.roller.TableRoller`: re-rolled among known rows (``reroll``), or
kept with its gap until the player types the row in (``ask``, :func:`provide_row`).

The item bought is read from its row as creation reads them (Table A armour, Table W weapons,
:mod:`d100gui.engine.hero.item_rows`) and goes in the backpack; a Table S spell is written in
the spell book's first free position. A row that prints no price (Table S prints none in the
excerpt) shows "no price printed": it is bought only at the price the player types from their own
rulebook (``price``), used for that purchase alone; a price is never invented.
:func:`offer` is what the wizard shows of a roll, and :func:`buy` refuses with the same reasons.
"""

from __future__ import annotations

from typing import Literal

from d100gui.engine.combat.spells import SPELL_TABLE
from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.row_values import row_price
from d100gui.engine.dice.tables import Row
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.item_rows import item_from_armour_row, item_from_weapon_row
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.magic import book
from d100gui.engine.magic.boosts import item_from_row
from d100gui.engine.rules.model import Rules
from d100gui.engine.town import prices
from d100gui.engine.town.model import TownState


def roll_market(character: Character, rules: Rules, state: TownState, tables: TableRoller, table_id: str) -> TableRoll:
    """One market roll on ``table_id``; refused past REP rolls or on a table without the market symbol."""
    market_tables = rules.shopping.market_tables
    if table_id not in market_tables:
        names = ", ".join(tables.library.get(t).title for t in market_tables if t in tables.library)
        refuse(f"{table_id} has no market symbol: roll on {names}.")
    allowed = prices.market_rolls_allowed(rules, character)
    if len(state.market_rolls) >= allowed:
        refuse(f"Market rolls are {allowed} a phase (REP {character.rep}): all {allowed} are made.")
    if state.totals.market_bought:
        refuse(f"The market item is bought ({state.totals.market_bought}): no more market rolls this phase.")
    rolled = tables.roll(table_id, f"Search the markets ({len(state.market_rolls) + 1} of {allowed})")
    state.market_rolls.append(rolled)
    return rolled


def market_roll(state: TownState, index: int) -> TableRoll:
    """Market roll ``index`` (from 0) of this phase; refused if there is none."""
    if not 0 <= index < len(state.market_rolls):
        refuse(f"There is no market roll {index + 1}: {len(state.market_rolls)} made.")
    return state.market_rolls[index]


def provide_row(state: TownState, tables: TableRoller, index: int, row: Row) -> TableRoll:
    """The player typed the row market roll ``index`` landed on: lay it over the table and keep it."""
    rolled = market_roll(state, index)
    if rolled.row is not None:
        refuse(f"Market roll {index + 1} already has its row.")
    try:
        resolved = tables.resolve_missing(rolled, row)
    except ValueError as exc:
        refuse(str(exc))
    state.market_rolls[index] = resolved
    return resolved


def sample_row(state: TownState, tables: TableRoller, index: int) -> TableRoll:
    """Sample play for market roll ``index``, which landed on a missing row: its table rolled again until a
    printed row comes up, kept in its place."""
    rolled = market_roll(state, index)
    if rolled.row is not None:
        refuse(f"Market roll {index + 1} already has its row.")
    try:
        resolved = tables.resample(rolled)
    except DiceError as exc:
        refuse(str(exc))
    state.market_rolls[index] = resolved
    return resolved


def label_of(rolled: TableRoll) -> str:
    """What a market row offers, by its printed name (the item, weapon or spell)."""
    row = rolled.row
    if row is None:
        return rolled.describe()
    return (row.fields.get("item") or row.fields.get("weapon") or row.fields.get("spell") or rolled.describe()).strip()


def offer(state: TownState, index: int) -> tuple[int | None, str]:
    """Market roll ``index`` as the wizard shows it: (its printed price or None, why it cannot be bought now or "").

    A row with no printed price is not refused here: it can be bought at a typed price.
    """
    rolled = market_roll(state, index)
    if state.totals.market_bought:
        return _printed(rolled), f"One market item a phase: {state.totals.market_bought} is already bought."
    if rolled.row is None:
        lo, hi = rolled.missing or (rolled.roll.final, rolled.roll.final)
        return None, f"Market roll {index + 1} fell on row {lo}-{hi}, which your tables lack: type the row in first."
    return _printed(rolled), ""


def _printed(rolled: TableRoll) -> int | None:
    return row_price(rolled.row) if rolled.row is not None else None


def item_of(rules: Rules, rolled: TableRoll) -> Item:
    """The item a market row offers (armour, weapon, or a found item)."""
    assert rolled.row is not None
    if rolled.table_id == "d100.A":
        return item_from_armour_row(rules, rolled.row, rolled.table_id)
    if rolled.table_id == "d100.W":
        return item_from_weapon_row(rules, rolled.row, rolled.table_id)
    return item_from_row(rolled.row, rolled.table_id)


def buy(
    character: Character, rules: Rules, state: TownState, index: int, typed: int | None = None
) -> tuple[str, int, Literal["backpack", "spell_book"]]:
    """Buy the item of market roll ``index``: one item a phase, at its printed price, or at ``typed`` (the price the
    player's rulebook prints) when the row prints none. Returns (name, cost, where it went)."""
    printed, why = offer(state, index)
    if why:
        refuse(why)
    rolled = market_roll(state, index)
    assert rolled.row is not None
    label = label_of(rolled)
    if printed is None:
        if typed is None:
            refuse(
                f"{rolled.table_title} prints no price for {label}: it cannot be bought without one (prices are never "
                "invented). Type the price your own rulebook prints to buy it."
            )
        if typed < 1:
            refuse(f"A price is at least 1 gp: {typed} gp is not a price for {label}.")
        price = typed
    elif typed is not None and typed != printed:
        refuse(f"{label} prints its price, {printed} gp: it is bought at that price, not at {typed} gp.")
    else:
        price = printed
    prices.afford(character, price, label)
    where: Literal["backpack", "spell_book"] = "backpack"
    if rolled.table_id == SPELL_TABLE:
        entry = book.spell_from_row(rolled.row)
        book.learn(character, rules, entry)
        name, where = entry.name, "spell_book"
    else:
        item = item_of(rules, rolled)
        character.backpack.append(item)
        name = item.name
    character.gp -= price
    state.totals.market_bought = name
    state.totals.spent += price
    return name, price, where
