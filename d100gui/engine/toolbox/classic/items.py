"""Magic items in play: rings of spell storing and spell turning, magic items' saving throws,
and what fire and lightning do to gems and jewelry.

The chances and counts are read from the tables (``classic.spell_rings``,
``classic.item_saving_throws``, ``classic.treasure_fire_lightning``) as printed; the code only
knows how to read a printed "20%", "1st through the 6th" or "14*".
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.dice.tables import Table, TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE, percent_die, rule_number, save_die
from d100gui.engine.toolbox.inputs import ToolInputError, in_range

__all__ = [
    "ITEM_SAVES_TABLE",
    "RINGS_TABLE",
    "TREASURE_HARM_TABLE",
    "ItemSave",
    "SpellStoring",
    "SpellTurning",
    "TreasureHarm",
    "harm_treasure",
    "item_save",
    "spell_storing",
    "spell_turning",
]

RINGS_TABLE = "classic.spell_rings"
ITEM_SAVES_TABLE = "classic.item_saving_throws"
TREASURE_HARM_TABLE = "classic.treasure_fire_lightning"
_NUMBER = re.compile(r"\d+")
SAVE_PENALTY = 2  # the notes' "minus 2" (the saving throw becomes 2 harder)
MAX_DAMAGE = 1000
MAX_GEMS = 10_000
MAX_VALUE = 999_999


def _cell(table: Table, key: str, column: str = "value") -> str:
    row = table.find_key(key)
    if row is None:
        raise ToolInputError(f"{table.title} has no row {key!r}.")
    return row.fields.get(column, "")


JEWELRY_LOSS = 25  # "devalue Jewelry by 25%": the text's, for a summary without the table


def jewelry_loss(library: TableLibrary, attack: str = "fire") -> int:
    """The share of jewelry's value fire (or lightning) takes, as the fire and lightning table prints it."""
    if TREASURE_HARM_TABLE not in library:
        return JEWELRY_LOSS
    row = library.get(TREASURE_HARM_TABLE).find_key("Jewelry")
    found = _NUMBER.search(row.fields.get(attack, "")) if row is not None else None
    return int(found.group()) if found else JEWELRY_LOSS


def _percent(text: str) -> int:
    found = _NUMBER.search(text)
    if found is None:
        raise ToolInputError(f"No percentage in {text!r}.")
    return int(found.group())


# --------------------------------------------------------------------------- rings


class StoredSpell(Model):
    """One spell in the ring: its level, rolled between the lowest and highest the table prints."""

    level_roll: RollRecord
    level: int


class SpellStoring(Model):
    """A ring of spell storing: how many spells, each one's level, and whether they are clerical (and chaotic)."""

    count: RollRecord | None
    spells: list[StoredSpell] = Field(default_factory=list)
    clerical_chance: int
    clerical_roll: RollRecord
    chaotic_chance: int
    chaotic_roll: RollRecord | None = None

    @property
    def clerical(self) -> bool:
        return self.clerical_roll.final <= self.clerical_chance

    @property
    def chaotic(self) -> bool:
        return self.chaotic_roll is not None and self.chaotic_roll.final <= self.chaotic_chance

    def describe(self) -> str:
        levels = ", ".join(f"level {s.level}" for s in self.spells)
        kind = ("Clerical, Chaotic" if self.chaotic else "Clerical, not Chaotic") if self.clerical else "Magic-User's"
        chaotic = f"; chaotic {self.chaotic_roll.final} against {self.chaotic_chance}%" if self.chaotic_roll else ""
        return (
            f"Ring of Spell Storing: {len(self.spells)} spell(s) ({levels}); {kind} spells "
            f"(clerical {self.clerical_roll.final} against {self.clerical_chance}%{chaotic})."
        )


def spell_storing(roller: TableRoller) -> SpellStoring:
    """Roll a ring of spell storing's contents: 1-6 spells of levels 1 to 6, 20% clerical, then 50% chaotic."""
    table = roller.library.get(RINGS_TABLE)
    read = roller.read(RINGS_TABLE, key="Spells stored", column="value", purpose="ring of spell storing: spells")
    count = next((d.roll for d in read.dice if d.roll is not None), None)
    low, high = (int(n) for n in _NUMBER.findall(_cell(table, "Spell level"))[:2])
    spells = []
    for n in range(count.final if count else 0):
        roll = roller.dice.roll(f"1d{high - low + 1}", f"stored spell {n + 1}: level")
        spells.append(StoredSpell(level_roll=roll, level=roll.final + low - 1))
    clerical_chance = _percent(_cell(table, "Clerical spells"))
    chaotic_chance = _percent(_cell(table, "Chaotic if Clerical"))
    clerical = roller.dice.roll(percent_die(roller.library), f"clerical spells ({clerical_chance}%)?")
    result = SpellStoring(
        count=count, spells=spells, clerical_chance=clerical_chance, clerical_roll=clerical, chaotic_chance=chaotic_chance
    )
    if result.clerical:
        result.chaotic_roll = roller.dice.roll(percent_die(roller.library), f"chaotic spells ({chaotic_chance}%)?")
    return result


class SpellTurning(Model):
    """A spell aimed at the wearer of a ring of spell turning: the share that returns to the caster."""

    roll: RollRecord
    effect: int = 0  # the spell's damage (or other amount), when the referee gives it

    @property
    def returned(self) -> int:
        """Percent returning to the caster (the d% rolled)."""
        return self.roll.final

    @property
    def to_caster(self) -> int:
        return self.effect * self.returned // 100

    def describe(self) -> str:
        head = f"Spell turning: d% {self.roll.final}: {self.returned}% returns to the caster, {100 - self.returned}% affects the wearer"
        if self.effect:
            head += f" ({self.to_caster} of {self.effect} to the caster, {self.effect - self.to_caster} to the wearer)"
        return head + ". Not against wands or staves, nor a Priest's Finger of Death."


def spell_turning(roller: TableRoller, effect: int = 0) -> SpellTurning:
    """Roll d% for a spell turned by the ring; with the spell's ``effect``, split it between caster and wearer."""
    roller.library.get(RINGS_TABLE)  # the player's tables must hold the ring's rule
    in_range("Spell's effect", effect, 0, MAX_DAMAGE)
    return SpellTurning(
        roll=roller.dice.roll(percent_die(roller.library), "spell turning: % returned to the caster"), effect=effect
    )


# --------------------------------------------------------------------------- magic items' saving throws

Attack = Literal["fire", "lightning"]


class ItemSave(Model):
    """A magic item's saving throw against fire or lightning: the printed target, any penalty, the d20."""

    item: str
    printed: str
    attack: Attack
    target: int
    penalty: str = ""
    roll: RollRecord

    @property
    def saved(self) -> bool:
        return self.roll.final >= self.target

    def describe(self) -> str:
        penalty = f" ({self.penalty}: {self.target} or better)" if self.penalty else ""
        outcome = "it survives" if self.saved else "it is destroyed"
        return f"{self.item} struck by {self.attack}: saves on {self.printed}{penalty}; d20 {self.roll.final}: {outcome}."


def item_save(dice_roller: TableRoller, item: str, attack: Attack, opposite: bool = False) -> ItemSave:
    """The item's saving throw (d20 at or over the printed score); ``*`` items hit by the opposite of what they
    throw, and ``**`` items hit by lightning, save 2 harder, as the table's notes say."""
    table = dice_roller.library.get(ITEM_SAVES_TABLE)
    row = table.find_key(item)
    if row is None:
        raise ToolInputError(f"{item!r} is not on {table.title}: items not listed are destroyed without a throw.")
    printed = row.fields["save"]
    target = _percent(printed)
    harder = rule_number(dice_roller.library, ITEM_RULES_TABLE, "An item's save penalty", SAVE_PENALTY)
    penalty = ""
    if printed.endswith("**"):
        if attack == "lightning":
            target, penalty = target + harder, f"minus {harder}, hit by lightning"
    elif printed.endswith("*") and opposite:
        target, penalty = target + harder, f"minus {harder}, hit by the opposite of what it throws"
    roll = dice_roller.dice.roll(save_die(dice_roller.library), f"saving throw: {item} against {attack}")
    return ItemSave(item=item, printed=printed, attack=attack, target=target, penalty=penalty, roll=roll)


# --------------------------------------------------------------------------- gems and jewelry in fire or lightning


class TreasureHarm(Model):
    """Gems and jewelry caught in fire or lightning: gems lost, jewelry's value after."""

    attack: Attack
    gems: int
    optional_rule: bool
    gem_chance: int = 0  # fire, optional rule: the chance each gem is destroyed
    gem_rolls: list[RollRecord] = Field(default_factory=list)
    gems_lost: int = 0
    jewelry_value: int = 0
    jewelry_after: int = 0
    jewelry_loss: int = 0  # percent

    def describe(self) -> str:
        if self.attack == "lightning":
            gems = f"all {self.gems} gem(s) destroyed by lightning"
        elif self.optional_rule:
            rolled = ", ".join(str(r.final) for r in self.gem_rolls)
            gems = f"{self.gems_lost} of {self.gems} gem(s) destroyed ({self.gem_chance}% each: {rolled})"
        else:
            gems = f"fire does not destroy gems ({self.gems} kept)"
        jewelry = f"jewelry worth {self.jewelry_value:,} GP devalued by {self.jewelry_loss}%: {self.jewelry_after:,} GP"
        return f"{self.attack.capitalize()}: {gems}; {jewelry}. Metal melts to lumps."


def harm_treasure(
    roller: TableRoller, attack: Attack, gems: int = 0, jewelry_value: int = 0, optional_rule: bool = False
) -> TreasureHarm:
    """Fire or lightning on ``gems`` gems and jewelry worth ``jewelry_value``: lightning destroys the gems, fire only
    by the optional 10% each; both devalue jewelry by 25%."""
    table = roller.library.get(TREASURE_HARM_TABLE)
    in_range("Gems", gems, 0, MAX_GEMS)
    in_range("Jewelry's value (GP)", jewelry_value, 0, MAX_VALUE)
    loss = _percent(_cell(table, "Jewelry", attack))
    result = TreasureHarm(
        attack=attack, gems=gems, optional_rule=optional_rule, jewelry_value=jewelry_value, jewelry_loss=loss,
        jewelry_after=jewelry_value * (100 - loss) // 100,
    )  # fmt: skip
    if attack == "lightning":
        result.gems_lost = gems
    elif optional_rule:
        result.gem_chance = _percent(_cell(table, "Gems", "fire"))
        result.gem_rolls = [
            roller.dice.roll(percent_die(roller.library), f"gem {n + 1} in the fire ({result.gem_chance}%)?") for n in range(gems)
        ]
        result.gems_lost = sum(1 for r in result.gem_rolls if r.final <= result.gem_chance)
    return result
