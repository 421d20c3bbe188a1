"""Every price and limit of the phase, from :class:`~d100gui.engine.rules.model.Rules` and the tables.

The wizard shows these before anything is paid; the steps refuse with the same numbers.
:func:`afford` is the one place a shortfall is worded.
"""

from __future__ import annotations

from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.rules.model import Rules


def afford(character: Character, cost: int, what: str) -> None:
    """Refuse ``what`` unless the hero has ``cost`` gold, naming the shortfall."""
    if cost > character.gp:
        refuse(f"{what} costs {cost} gp and you have {character.gp} gp: {cost - character.gp} gp short.")


def pay(character: Character, cost: int, what: str) -> int:
    """Take ``cost`` gold (refused with the shortfall); returns the gold left."""
    afford(character, cost, what)
    character.gp -= cost
    return character.gp


def healer_cost(rules: Rules, poison: int = 0, disease: int = 0, hp: int = 0) -> int:
    """The healer's bill: each poison pip, disease pip and lost HP at the rules' prices (40, 65, 20 gp)."""
    h = rules.healer
    return poison * h.poison_pip + disease * h.disease_pip + hp * h.hp


def repair_pip_cost(rules: Rules, item: Item) -> int:
    """Gold to remove one repair pip: the item's listed Rep. Cost, else 1/5 of its value rounded as the rules say."""
    return item.repair_cost if item.repair_cost is not None else rules.repair_cost(item.value)


def training_pip_cost(rules: Rules, on: str) -> int:
    """Gold for one pip: a skill's (200 gp) or a characteristic's (2,000 gp)."""
    return rules.training.characteristic_pip if on in rules.characteristics else rules.training.skill_pip


def training_limit(rules: Rules, character: Character) -> int:
    """Pips a phase may train: REP times the rules' pips per REP."""
    return character.rep * rules.training.max_pips_per_rep


def required_limit(rules: Rules, character: Character) -> int:
    """Items a phase may buy from Table R: 20 + REP."""
    return rules.shopping.required_items_base + character.rep


def required_limit_text(rules: Rules, character: Character, bought: int) -> str:
    """The Table R limit in words, with what is bought and left (the refusal, and the greyed Buy's reason)."""
    limit = required_limit(rules, character)
    return (
        f"At most {limit} items from Table R ({rules.shopping.required_items_base} + REP {character.rep}): "
        f"{bought} bought, {max(0, limit - bought)} more allowed."
    )


def training_limit_text(rules: Rules, character: Character, done: int) -> str:
    """The training limit in words, with what is trained and left (the refusal, and the greyed Train's reason)."""
    limit = training_limit(rules, character)
    pips = "pip" if limit == 1 else "pips"
    return f"Training takes at most {limit} {pips} a phase (REP {character.rep}): {done} trained, {max(0, limit - done)} left."


def market_rolls_allowed(rules: Rules, character: Character) -> int:
    """Rolls a phase may make on the market tables: REP times the rules' rolls per REP."""
    return character.rep * rules.shopping.market_rolls_per_rep
