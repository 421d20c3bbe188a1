"""After a victory: the combat track (with its milestones) and the loot, put on the sheet.

The loot roll is held for its Fate window like the fight's other rolls (steps ``loot_roll``,
``loot_resolve``); a row the tables lack makes the fight wait for it; then ``won`` ends the
fight. What a row gives is read by :mod:`.loot`.
"""

from __future__ import annotations

from d100gui.engine.combat.events import CombatLoot, CombatMilestone, CombatTrack
from d100gui.engine.combat.flow import Fight, end, hold_table, step, take_table, wait_for_row
from d100gui.engine.combat.loot import loot_gain
from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dice.tables import TableError
from d100gui.engine.hero.model import CombatTrackEntry
from d100gui.engine.rules.notation import LootOption, Outcome, parse_effects

__all__ = ["apply_loot", "record_on_track", "roll_loot", "start_loot"]


def record_on_track(f: Fight) -> None:
    """Fill the next combat-track box; a milestone printed there is gained."""
    m, ch = f.m, f.ch
    ch.combat_track.append(CombatTrackEntry(monster=m.name, av=m.av, defence=m.defence, dmg=m.dmg, hp=m.hp_label()))
    layout = f.rules.sheet.combat_track
    n = len(ch.combat_track)
    position = (n - 1) % layout.length + 1
    sheet = (n - 1) // layout.length + 1
    f.say(CombatTrack(position=position, sheet=sheet), f"Combat track: {m.name} in box {position} of sheet {sheet}.")
    milestone = next((ms for ms in layout.milestones if ms.position == position), None)
    if milestone is not None:
        source = f"Combat track box {position}: {milestone.reward}"
        f.say(CombatMilestone(reward=milestone.reward), f"{source}!")
        f.events += f.apply_outcome(f.ctx, parse_effects(milestone.effect), source)
    if position == layout.length:
        f.say(
            CombatTrack(position=position, sheet=sheet, full=True),
            "The combat track sheet is full: the next defeated monster starts a new sheet.",
        )


def start_loot(f: Fight, option: LootOption) -> None:
    """Roll the loot on ``option``'s table next (step ``loot_roll``)."""
    f.c.loot_option = option
    f.c.waiting = ""
    f.c.step = "loot_roll"


def roll_loot(f: Fight, table: str, modifier: int, text: str) -> None:
    """Kept for callers of the old name: the loot on ``table`` is rolled next, held for Fate,
    then put on the sheet (:func:`start_loot`)."""
    start_loot(f, LootOption(table=table, modifier=modifier, text=text))


@step("loot_roll")
def s_loot_roll(f: Fight) -> bool:
    option = f.c.loot_option
    f.c.step = "won"
    if option is None or not option.table:
        f.say(CombatLoot(), f"Loot: {option.text if option else 'none'}")
        return True
    try:
        return hold_table(f, option.table, f"Loot: {f.m.name}", option.modifier, "loot_resolve")
    except (TableError, DiceError) as exc:
        f.say(CombatLoot(), f"Loot: {exc}")
        return True


@step("loot_resolve")
def s_loot_resolve(f: Fight) -> bool:
    result = take_table(f)
    f.c.step = "won"
    if result.row is None:
        return wait_for_row(f, result, "loot")
    apply_loot(f, result)
    return True


@step("won")
def s_won(f: Fight) -> bool:
    end(f, "won", f"The fight with {f.m.name} is over: you won. HP {f.ch.hp}.")
    return False


def apply_loot(f: Fight, result: TableRoll) -> None:
    """Put the loot row on the sheet: the item in the backpack (a potion with the unequipped
    potions), or its effects (gold, supplies, pips) applied."""
    assert result.row is not None
    gain = loot_gain(f.rules, result.table_id, result.row, f.m.name)
    message = result.describe()
    if gain.item is None:
        f.say(CombatLoot(table_roll=result), message)
        f.events += f.apply_outcome(f.ctx, gain.outcome or Outcome(), f"Loot: {f.m.name}")
        return
    item = gain.item
    where = f.ch.potions if item.kind == "potion" else f.ch.backpack
    where.append(item)
    place = "with your unequipped potions" if item.kind == "potion" else "in the backpack"
    f.say(CombatLoot(table_roll=result, item=item.name), f"{message} - {item.name} ({item.value} gp) goes {place}.")
