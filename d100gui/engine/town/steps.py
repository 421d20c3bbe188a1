"""The six steps of "Before Your Next Quest" as pure functions over the sheet and the phase.

Each function changes the :class:`~d100gui.engine.hero.model.Character` and the
:class:`~d100gui.engine.town.model.TownState`, or refuses (nothing changes: the command is
restored whole) with the shortfall or the limit named. Prices and limits come from
:mod:`.prices`; full experience tracks go through
:func:`~d100gui.engine.hero.experience.shade_experience`.
"""

from __future__ import annotations

from typing import Literal

from d100gui.engine.dice.row_values import row_price
from d100gui.engine.dice.tables import Row
from d100gui.engine.effects.interpreter import SUPPLY_FIELDS
from d100gui.engine.hero.derive import clamp_hp, derive
from d100gui.engine.hero.experience import shade_experience
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import parse_effects
from d100gui.engine.town import prices
from d100gui.engine.town.events import TracksRefreshed
from d100gui.engine.town.model import SoldItem, TownState

Where = Literal["equipment", "belt", "backpack", "potions"]


# --------------------------------------------------------------------------- 1. refresh tracks, the healer


def refresh_tracks(character: Character, state: TownState) -> TracksRefreshed:
    """Clear keys, levers, the time track (no oil or food spent; its bonuses end) and objectives."""
    track = character.time_track
    done = TracksRefreshed(
        keys=character.keys,
        levers=character.levers,
        clocks=track.shaded,
        bonuses=len(track.bonuses),
        objectives=character.objectives,
    )
    character.keys = character.levers = character.objectives = 0
    track.shaded = 0
    track.bonuses = []
    state.tracks_refreshed = True
    state.cleared = done.model_dump()
    return done


def heal(character: Character, rules: Rules, state: TownState, poison: int, disease: int, hp: int) -> int:
    """The healer: remove poison and disease pips and restore lost HP at the rules' prices. Returns the cost."""
    if min(poison, disease, hp) < 0 or poison + disease + hp == 0:
        refuse("Ask the healer for at least one poison pip, disease pip or HP.")
    if poison > character.poison:
        refuse(f"Only {character.poison} poison pip{'s' if character.poison != 1 else ''} to remove, not {poison}.")
    if disease > character.disease:
        refuse(f"Only {character.disease} disease pip{'s' if character.disease != 1 else ''} to remove, not {disease}.")
    lost = max(0, derive(character, rules).max_hp - character.hp)
    if hp > lost:
        refuse(f"Only {lost} HP {'is' if lost == 1 else 'are'} lost: the healer cannot restore {hp}.")
    cost = prices.healer_cost(rules, poison, disease, hp)
    prices.pay(character, cost, "The healer")
    character.poison -= poison
    character.disease -= disease
    character.hp += hp
    totals = state.totals
    totals.poison_healed += poison
    totals.disease_healed += disease
    totals.hp_healed += hp
    totals.spent += cost
    return cost


# --------------------------------------------------------------------------- 2. repair


def repairable(character: Character) -> list[tuple[str, str, Item]]:
    """Every equipped and backpacked item with shaded repair pips: (where, place, item)."""
    found = [("equipment", slot, item) for slot, item in character.equipment.items() if item is not None and item.repair_pips]
    found += [("backpack", str(i), item) for i, item in enumerate(character.backpack) if item.repair_pips]
    return found


def item_at(character: Character, where: Where, place: str) -> Item | None:
    """The item at ``place`` (a slot id, a belt slot 1-10, or a list position from 0) of ``where``."""
    if where == "equipment":
        return character.equipment.get(place)
    if not place.lstrip("-").isdigit():
        refuse(f"Name a position in the {where} by number, not {place!r}.")
    n = int(place)
    if where == "belt":
        return character.belt[n - 1] if 1 <= n <= len(character.belt) else None
    items = character.backpack if where == "backpack" else character.potions
    return items[n] if 0 <= n < len(items) else None


def repair(character: Character, rules: Rules, state: TownState, where: Where, place: str, pips: int) -> tuple[Item, int, int]:
    """Remove ``pips`` repair pips from an equipped or backpacked item. Returns (item, pip cost, cost)."""
    if where not in ("equipment", "backpack"):
        refuse("Repairs are for equipped and backpacked items.")
    item = item_at(character, where, place)
    if item is None:
        refuse(f"There is no item at {where} {place}.")
    if not 1 <= pips <= item.repair_pips:
        refuse(
            f"{item.name} has {item.repair_pips} repair pip{'s' if item.repair_pips != 1 else ''} shaded: repair 1 to {item.repair_pips}."
        )
    pip_cost = prices.repair_pip_cost(rules, item)
    cost = pips * pip_cost
    prices.pay(character, cost, f"Repairing {pips} pip{'s' if pips > 1 else ''} of {item.name} at {pip_cost} gp")
    item.repair_pips -= pips
    state.totals.pips_repaired += pips
    state.totals.spent += cost
    return item, pip_cost, cost


# --------------------------------------------------------------------------- 3. sell


def _take(character: Character, where: Where, place: str) -> Item | None:
    item = item_at(character, where, place)
    if item is None:
        return None
    if where == "equipment":
        character.equipment[place] = None
    elif where == "belt":
        character.belt[int(place) - 1] = None
    else:
        del (character.backpack if where == "backpack" else character.potions)[int(place)]
    return item


def sell(character: Character, rules: Rules, state: TownState, where: Where, place: str, name: str = "") -> Item:
    """Sell the item at ``place`` for its value. ``name`` guards against selling the same item twice."""
    item = item_at(character, where, place)
    if item is None or (name and item.name != name):
        earlier = next((s for s in state.sold if (not name or s.name == name) and s.where == where and s.place == place), None)
        if earlier is None and name:
            earlier = next((s for s in state.sold if s.name == name), None)
        if earlier is not None:
            refuse(f"{earlier.name} was already sold (for {earlier.value} gp): an item is sold once.")
        refuse(f"There is no {name or 'item'} at {where} {place}.")
    _take(character, where, place)
    clamp_hp(character, rules)
    character.gp += item.value
    state.sold.append(SoldItem(name=item.name, where=where, place=place, value=item.value))
    state.totals.earned += item.value
    return item


# --------------------------------------------------------------------------- 4. required items


def _bought_item(row: Row, price: int, table_id: str) -> Item:
    """A Table R item that is not a supply: a brew or potion by its printed name, else an item."""
    name = row.fields.get("item", "").strip().title() or "Item"
    kind = next((k for k in ("brew", "potion", "scroll", "elixir") if k in name.lower()), "item")
    return Item.model_validate(
        {
            "name": name,
            "kind": kind,
            "effect": row.fields.get("effect", ""),
            "value": price,
            "source": f"{table_id} {row.range_label()}",
        }
    )


def _stow(character: Character, rules: Rules, item: Item) -> str:
    """A bought brew or potion goes into the first free belt slot, else the unequipped potions
    (a potion) or the backpack; returns where."""
    if item.kind in rules.belt_kinds:
        for i, held in enumerate(character.belt):
            if held is None:
                character.belt[i] = item
                return f"belt slot {i + 1}"
    if item.kind == "potion":
        character.potions.append(item)
        return "potions"
    character.backpack.append(item)
    return "backpack"


def buy_required(character: Character, rules: Rules, state: TownState, row: Row, count: int, table_id: str) -> int:
    """Buy ``count`` of a Table R row: supplies within their maxima, brews to the belt. Returns the cost."""
    name = row.fields.get("item", "").strip() or row.range_label()
    limit = prices.required_limit(rules, character)
    bought = state.totals.required_bought
    if count < 1:
        refuse("Buy at least one item.")
    if bought + count > limit:
        refuse(prices.required_limit_text(rules, character, bought))
    price = row_price(row)
    if price is None:
        refuse(f"Table R prints no price for {name} in your tables: type its row in with its value first.")
    cost = count * price
    prices.afford(character, cost, f"{count} x {name} at {price} gp")
    supplies = [e for o in parse_effects(row.fields.get("effect", "")).options for e in o.effects if e.kind in SUPPLY_FIELDS]
    for effect in supplies:
        key = SUPPLY_FIELDS[effect.kind]
        have, maximum = getattr(character.supplies, key), rules.supplies_max[key]
        gain = (effect.amount or 1) * count
        if have + gain > maximum:
            room = maximum - have
            refuse(f"{key.title()} {have} of {maximum}: at most {room // max(1, effect.amount or 1)} more {name}.")
        setattr(character.supplies, key, have + gain)
    if not supplies:
        for _ in range(count):
            _stow(character, rules, _bought_item(row, price, table_id))
    character.gp -= cost
    state.totals.required_bought += count
    state.totals.spent += cost
    return cost


# --------------------------------------------------------------------------- 6. training


def train(character: Character, rules: Rules, state: TownState, track: str, pips: int) -> tuple[str, int, list[str]]:
    """Shade ``pips`` on a skill (200 gp each) or characteristic (2,000 gp each); at most REP pips a phase.

    Returns (the track's name, the cost, what changed). A full track adds +5 through
    :func:`~d100gui.engine.hero.experience.shade_experience`, which also refuses a track at its maximum.
    """
    stat = track.upper()[:3]
    name = stat if stat in rules.characteristics else rules.canonical_skill(track)
    if name is None:
        refuse(f"There is no skill or characteristic called {track!r}.")
    limit = prices.training_limit(rules, character)
    done = state.totals.trained_pips
    if pips < 1:
        refuse("Train at least one pip.")
    if done + pips > limit:
        refuse(prices.training_limit_text(rules, character, done))
    pip_cost = prices.training_pip_cost(rules, name)
    cost = pips * pip_cost
    prices.afford(character, cost, f"Training {pips} {name} pip{'s' if pips > 1 else ''} at {pip_cost} gp")
    notes = shade_experience(character, rules, name, pips)
    character.gp -= cost
    state.totals.trained_pips += pips
    state.totals.spent += cost
    return name, cost, notes
