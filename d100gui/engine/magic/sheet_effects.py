"""The few sheet changes Table B and Table C print, applied to the character alone.

Curses and boosts are rolled in fights, in the dungeon and in town, so they change only the
:class:`~d100gui.engine.hero.model.Character` and say what they did; the caller owns the
campaign (laying a dead hero to rest, the time procedure, the map). An effect these do not
know is returned as narrative for the player to apply at the table.
"""

from __future__ import annotations

from d100gui.engine.hero.derive import clamp_hp, derive
from d100gui.engine.hero.model import Character, TimeBonus
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Effect

#: the stats the time track's bonus section takes
TIME_BONUS_STATS = ("STR", "DEX", "INT", "DEF", "DMG", "HP")


def apply_to_sheet(character: Character, rules: Rules, effect: Effect, source: str) -> str | None:
    """Apply one printed effect to the sheet; the sentence of what changed, or None if it is not a sheet change here."""
    amount = effect.amount
    if amount is None:
        return None
    if effect.kind == "hp":
        maximum = derive(character, rules).max_hp
        before = character.hp
        character.hp = max(character.hp, min(maximum, character.hp + amount)) if amount > 0 else character.hp + amount
        return f"{source}: HP {before} -> {character.hp}."
    if effect.kind == "hp_primary":
        character.hp_primary = max(1, character.hp_primary + amount)
        lost = clamp_hp(character, rules)
        return f"{source}: primary HP {amount:+d} (now {character.hp_primary})" + (f", HP down by {lost}." if lost else ".")
    if effect.kind == "characteristic" and effect.stat in rules.characteristics:
        score = character.characteristics[effect.stat]
        score.primary = max(0, score.primary + amount)
        clamp_hp(character, rules)
        return f"{source}: {effect.stat} {amount:+d} (primary now {score.primary})."
    if effect.kind == "time_track_bonus" and effect.stat in TIME_BONUS_STATS:
        character.time_track.bonuses.append(TimeBonus.model_validate({"stat": effect.stat, "amount": amount, "source": source}))
        return f"{source}: {amount:+d} {effect.stat} on the time track until it refreshes."
    if effect.kind in ("poison", "disease"):
        length = int(getattr(rules.sheet, f"{effect.kind}_track"))
        before = getattr(character, effect.kind)
        setattr(character, effect.kind, max(0, min(length, before + amount)))
        return f"{source}: {effect.kind} track {before} -> {getattr(character, effect.kind)}."
    return None
