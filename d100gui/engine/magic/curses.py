"""Table C - Curses, applied in full wherever one is rolled (a failed CAST SPELL, a trap, a fight).

:func:`roll_curse` rolls Table C with the missing-row policy of
:class:`~d100gui.engine.dice.roller.TableRoller` (a roll in a gap comes back with
``missing`` set; :func:`apply_curse` applies the row once the player has typed it in).
:func:`apply_curse` changes only the character and returns a :class:`CurseResult` saying what
the caller must still do:

* ``adventure_over`` - DIVINE WRATH without 2 Lives to lose: the hero is marked dead; the
  caller lays the sheet to rest (:func:`d100gui.engine.hero.health.lay_to_rest`, or the
  fight's own ``die``).
* ``clocks`` - STILLING OF TIME's ``[+3]``: time for the adventure's time procedure to shade
  (its oil, food and wandering triggers fire there).
* ``hp_zero`` - HP fell to 0 or less: the caller applies the HP-zero rule (RES, a Life).

ARCANE DEVASTATION / DESTRUCTION shade the printed number of pips on every equipped and
backpacked item that has a repair track (armour, weapons, shields, or any item with a
repair cost or track of its own); a full track destroys the item. UNSKILLED rolls a d10 for
a skill in the sheet's order (1 = the first skill) and takes 10 from its bonus, or 7 HP when
the bonus is smaller.
"""

from __future__ import annotations

import re

from pydantic import Field

from d100gui.engine.dice.dice import Dice
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.tables import Row
from d100gui.engine.hero.derive import clamp_hp
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.magic.sheet_effects import apply_to_sheet
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import parse_effects

CURSE_TABLE = "d100.C"
#: DIVINE WRATH: the Lives it takes and the HP left, when the row's text does not say (it does in the bundled Table C)
DIVINE_WRATH_LIVES = 2
DIVINE_WRATH_HP = 1
#: UNSKILLED: the bonus taken from the skill and the HP lost instead, when the row's text does not say
UNSKILLED_BONUS = 10
UNSKILLED_HP = 7


def _number(pattern: str, text: str, default: int) -> int:
    m = re.search(pattern, text, re.I)
    return int(m.group(1)) if m else default


ITEM_KINDS_WITH_TRACK = ("armour", "weapon", "shield")


class CurseResult(Model):
    """What a Table C roll did to the character, and what is left for the caller (see the module)."""

    curse: str = ""
    table_roll: TableRoll | None = None
    missing: bool = False  # the roll fell in a gap of the player's Table C: the row is to be typed in
    notes: list[str] = Field(default_factory=list)
    destroyed: list[str] = Field(default_factory=list)
    skill: str = ""  # UNSKILLED: the skill the d10 chose
    clocks: int = 0
    adventure_over: bool = False
    hp_zero: bool = False


def has_repair_track(item: Item) -> bool:
    """Whether an item has a repair track on the sheet."""
    return item.kind in ITEM_KINDS_WITH_TRACK or item.repair_track is not None or item.repair_cost is not None


def shade_every_item(character: Character, rules: Rules, pips: int, source: str) -> tuple[list[str], list[str]]:
    """Shade ``pips`` on every equipped and backpacked item with a repair track; a full track destroys it.

    Returns (the sentences, the items destroyed)."""
    notes: list[str] = []
    destroyed: list[str] = []

    def shade(item: Item) -> bool:
        length = item.repair_track or rules.sheet.repair_track
        item.repair_pips = min(length, item.repair_pips + pips)
        if item.repair_pips >= length:
            destroyed.append(item.name)
            notes.append(f"{source}: {item.name}'s repair track is full - it is destroyed.")
            return False
        return True

    for slot, item in list(character.equipment.items()):
        if item is not None and has_repair_track(item) and not shade(item):
            character.equipment[slot] = None
    character.backpack = [item for item in character.backpack if not has_repair_track(item) or shade(item)]
    clamp_hp(character, rules)
    notes.insert(0, f"{source}: {pips} repair pips on every equipped and backpacked item with a repair track.")
    return notes, destroyed


def _divine_wrath(character: Character, effect: str, result: CurseResult) -> None:
    lives = _number(r"lose\s+(\d+)\s+lives", effect, DIVINE_WRATH_LIVES)
    hp = _number(r"HP\s+to\s+(\d+)", effect, DIVINE_WRATH_HP)
    if character.lives >= lives:
        character.hp, character.fate = hp, 0
        character.lives -= lives
        result.notes.append(f"Divine Wrath: HP {hp}, Fate 0, Lives {character.lives}.")
        return
    character.dead = True
    result.adventure_over = True
    result.notes.append(f"Divine Wrath: fewer than {lives} Lives to lose - the adventure is over.")


def _unskilled(character: Character, rules: Rules, effect: str, dice: Dice, result: CurseResult) -> None:
    bonus = _number(r"-\s*(\d+)\s+from its bonus", effect, UNSKILLED_BONUS)
    hp = _number(r"-\s*(\d+)\s*HP", effect, UNSKILLED_HP)
    roll = dice.roll("d10", "Unskilled: which skill").final
    skill = rules.skills[(roll - 1) % len(rules.skills)]
    score = character.skills[skill]
    result.skill = skill
    if score.bonus >= bonus:
        score.bonus -= bonus
        result.notes.append(f"Unskilled (d10 {roll}): {skill} -{bonus}, now +{score.bonus}.")
    else:
        character.hp -= hp
        result.notes.append(f"Unskilled (d10 {roll}): {skill} has no +{bonus} to lose - {hp} HP lost instead.")


def apply_curse(character: Character, rules: Rules, row: Row, dice: Dice, table_roll: TableRoll | None = None) -> CurseResult:
    """Apply one Table C row to the character in full; the result says what the caller must still do."""
    name = row.fields.get("name", "").strip().upper()
    effect = row.fields.get("effect", "")
    result = CurseResult(curse=name.title() or "Curse", table_roll=table_roll)
    if "DIVINE WRATH" in name:
        _divine_wrath(character, effect, result)
    elif name.startswith("ARCANE"):
        m = re.search(r"(\d+)\s*pips?", effect, re.I)
        notes, destroyed = shade_every_item(character, rules, int(m.group(1)) if m else 1, result.curse)
        result.notes += notes
        result.destroyed = destroyed
    elif "UNSKILLED" in name:
        _unskilled(character, rules, effect, dice, result)
    else:
        for option in parse_effects(effect).options[:1]:
            for e in option.effects:
                if e.kind == "time" and e.amount:
                    result.clocks += e.amount
                    result.notes.append(f"{result.curse}: +{e.amount} on the time track.")
                    continue
                said = apply_to_sheet(character, rules, e, result.curse)
                if said is not None:
                    result.notes.append(said)
        if not result.notes:
            result.notes.append(f"{result.curse}: {effect} (apply it on the sheet).")
    result.hp_zero = character.hp <= 0 and not character.dead
    return result


def roll_curse(character: Character, rules: Rules, tables: TableRoller, purpose: str = "Table C - Curses") -> CurseResult:
    """Roll Table C and apply the row; a roll on a missing row is returned with ``missing`` (nothing applied)."""
    rolled = tables.roll(CURSE_TABLE, purpose)
    if rolled.row is None:
        return CurseResult(table_roll=rolled, missing=True, notes=[rolled.describe()])
    return apply_curse(character, rules, rolled.row, tables.dice, rolled)
