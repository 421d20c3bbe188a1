"""Empire Building: Table J after every quest, pips and shares, buying and selling.

* :func:`read_result` reads a Table J cell (``-3 Pips``, ``-1 Share``, ``No Gain``, ``+1 Pip``).
* :func:`apply_result` applies it once per share held (rulebook: "Investment rolls effect each
  share a character has invested"): 4 shares and ``-3 Pips`` lose 12 pips.
* :func:`remove_pips` / :func:`add_pips` convert as the Wilma example shows: 5 pips make a
  share (the rules' ``pips_per_share``); removing more pips than are shaded erases them, then
  deducts a share, refills the track and goes on erasing.
* :func:`cross_reference` reads one roll's row for every investment held.
* :func:`buy_shares`, :func:`sell_shares`, :func:`sell_pips` trade at the listed prices;
  at most ``max_shares`` (10) per investment; pips are never bought.

Interpretation (noted for ``docs/rules-interpretations.md``): the 10-share limit also caps
gains from Table J: a gain past 10 shares is lost, and a full pip track at 10 shares stays full.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from d100gui.engine.dice.tables import Row
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character, Investment
from d100gui.engine.rules.model import InvestmentRule, Rules
from d100gui.engine.town.events import InvestmentChange
from d100gui.engine.town.prices import afford

_RESULT = re.compile(r"([+\-–−])\s*(\d+)\s*(pips?|shares?)", re.I)


class Result(NamedTuple):
    """One Table J cell: ``amount`` (signed) of ``unit`` per share held."""

    amount: int
    unit: Literal["pip", "share", "none"]


def read_result(text: str) -> Result:
    """``"-3 Pips"`` -> (-3, pip); ``"-1 Share"`` -> (-1, share); ``"No Gain"`` (or blank) -> (0, none)."""
    m = _RESULT.search(text or "")
    if not m:
        return Result(0, "none")
    sign = -1 if m.group(1) in "-–−" else 1
    unit: Literal["pip", "share"] = "share" if m.group(3).lower().startswith("share") else "pip"
    return Result(sign * int(m.group(2)), unit)


def kind_of(rules: Rules, investment: str) -> InvestmentRule:
    """The rules' investment ``investment`` (by id or name); refused if there is none."""
    key = investment.strip().lower()
    for kind in rules.investments.kinds:
        if key in (kind.id, kind.name.lower()):
            return kind
    names = ", ".join(k.name for k in rules.investments.kinds)
    refuse(f"There is no investment called {investment!r}: choose {names}.")


def remove_pips(held: Investment, pips: int, per_share: int) -> Investment:
    """Remove ``pips``: erase the shaded ones, then deduct a share and refill the track, and go on.

    Wilma: 3 shares and 2 pips, remove 4 -> erase 2, deduct a share, refill to 5, erase 2
    -> 2 shares and 3 pips. With no share left to deduct the investment is empty.
    """
    shares, shaded, owed = held.shares, held.pips, max(0, pips)
    while owed > 0:
        if shaded >= owed:
            shaded -= owed
            owed = 0
        else:
            owed -= shaded
            shaded = 0
            if shares == 0:
                break
            shares -= 1
            shaded = per_share
    return Investment(shares=shares, pips=shaded)


def add_pips(held: Investment, pips: int, per_share: int, max_shares: int) -> Investment:
    """Shade ``pips``; a full track becomes one more share (up to ``max_shares``, then the track stays full)."""
    shares, shaded = held.shares, held.pips + max(0, pips)
    while shaded >= per_share and shares < max_shares:
        shaded -= per_share
        shares += 1
    if shares >= max_shares:
        shaded = min(shaded, per_share)
    return Investment(shares=shares, pips=shaded)


def apply_result(held: Investment, result: Result, rules: Rules) -> Investment:
    """Apply one Table J result once per share held (no shares: nothing happens)."""
    inv = rules.investments
    total = result.amount * held.shares
    if result.unit == "pip":
        if total < 0:
            return remove_pips(held, -total, inv.pips_per_share)
        return add_pips(held, total, inv.pips_per_share, inv.max_shares)
    if result.unit == "share":
        shares = max(0, min(inv.max_shares, held.shares + total))
        return Investment(shares=shares, pips=held.pips if shares else 0)
    return held.model_copy()


def cross_reference(character: Character, rules: Rules, row: Row) -> list[InvestmentChange]:
    """Read ``row`` of Table J for every investment with shares, apply each, and say what changed."""
    changes: list[InvestmentChange] = []
    for kind in rules.investments.kinds:
        held = character.empire.get(kind.id) or Investment()
        if held.shares <= 0:
            continue
        text = row.fields.get(kind.id, "")
        result = read_result(text)
        after = apply_result(held, result, rules)
        character.empire[kind.id] = after
        changes.append(
            InvestmentChange(
                investment=kind.id,
                result=text or "No Gain",
                per_share=abs(result.amount),
                unit=result.unit,
                shares_before=held.shares,
                pips_before=held.pips,
                shares=after.shares,
                pips=after.pips,
            )
        )
    return changes


def _held(character: Character, kind: InvestmentRule) -> Investment:
    return character.empire.setdefault(kind.id, Investment())


def share_limit_text(limit: int, name: str, shares: int, count: int = 1) -> str:
    """The share limit in words: the refusal of share ``shares + count``, and the greyed Buy's reason."""
    return (
        f"At most {limit} shares in {name}: you hold {shares}, so {max(0, limit - shares)} more at most "
        f"(share {shares + count} would pass the limit)."
    )


def buy_shares(character: Character, rules: Rules, investment: str, count: int) -> int:
    """Buy ``count`` shares at the share price; refused past ``max_shares`` or without the gold. Returns the cost."""
    kind = kind_of(rules, investment)
    held = _held(character, kind)
    limit = rules.investments.max_shares
    if count < 1:
        refuse("Buy at least one share.")
    if held.shares + count > limit:
        refuse(share_limit_text(limit, kind.name, held.shares, count))
    cost = count * kind.share_value
    afford(character, cost, f"{count} {kind.name} share{'s' if count > 1 else ''} at {kind.share_value} gp")
    character.gp -= cost
    held.shares += count
    return cost


def sell_shares(character: Character, rules: Rules, investment: str, count: int) -> int:
    """Sell ``count`` shares for the share price; returns the gold received."""
    kind = kind_of(rules, investment)
    held = _held(character, kind)
    if not 1 <= count <= held.shares:
        refuse(f"You hold {held.shares} {kind.name} share{'s' if held.shares != 1 else ''}: sell 1 to {held.shares}.")
    held.shares -= count
    gold = count * kind.share_value
    character.gp += gold
    return gold


def sell_pips(character: Character, rules: Rules, investment: str, count: int) -> int:
    """Sell ``count`` shaded pips for 1/5 of a share each (the pip price); returns the gold received."""
    kind = kind_of(rules, investment)
    held = _held(character, kind)
    if not 1 <= count <= held.pips:
        refuse(f"{kind.name} has {held.pips} pip{'s' if held.pips != 1 else ''} shaded: sell 1 to {held.pips}.")
    held.pips -= count
    gold = count * kind.pip_value
    character.gp += gold
    return gold


def refuse_buying_pips(rules: Rules, investment: str) -> None:
    """Pips are never bought (Table J: "pips can only be sold, not bought")."""
    kind = kind_of(rules, investment)
    refuse(f"Pips can never be bought, only sold ({kind.pip_value} gp each): buy {kind.name} shares instead.")
