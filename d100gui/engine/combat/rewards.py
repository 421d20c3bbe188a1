"""After a victory: the combat track (with its milestones) and the loot."""

from __future__ import annotations

import re

from d100gui.engine.combat.events import CombatLoot, CombatLootMissing, CombatMilestone, CombatTrack
from d100gui.engine.combat.flow import Fight
from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.tables import TableError
from d100gui.engine.hero.character import CombatTrackEntry, Item
from d100gui.engine.hero.skill_test import apply_outcome
from d100gui.engine.rules.notation import parse_effects

PARTS_TABLE = "d100.P"


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
        f.events += apply_outcome(f.ctx, parse_effects(milestone.effect), source)
    if position == layout.length:
        f.say(
            CombatTrack(position=position, sheet=sheet, full=True),
            "The combat track sheet is full: the next defeated monster starts a new sheet.",
        )


def roll_loot(f: Fight, table: str, modifier: int, text: str) -> None:
    """Roll the loot table; a Table P part goes in the backpack with its value."""
    m = f.m
    if not table:
        f.say(CombatLoot(), f"Loot: {text}")
        return
    try:
        result = f.ctx.tables.roll(table, f"Loot: {m.name}", modifier, "loot modifier")
    except (TableError, DiceError) as exc:
        f.say(CombatLoot(), f"Loot: {exc}")
        return
    if result.row is None:
        f.say(CombatLootMissing(table_roll=result), result.describe())
        return
    message = result.describe()
    name = ""
    if table == PARTS_TABLE:
        fields = result.row.fields
        part = fields.get("part", "").strip() or "PART"
        value = int(re.sub(r"[^\d]", "", fields.get("value", "")) or 0)
        item = Item(name=f"{m.name} {part}", kind="item", value=value, source=f"{table} {result.row.range_label()}")
        f.ch.backpack.append(item)
        name = item.name
        message += f" - {item.name} ({value} gp) goes in the backpack."
    f.say(CombatLoot(table_roll=result, item=name), message)
