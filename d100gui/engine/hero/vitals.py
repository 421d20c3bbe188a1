"""The ``hp``, ``fate`` and ``life`` events of a change made to the sheet by code that only says it in words.

A spell's HP cost or its healing outside a fight, a curse (Lasting Illness, Divine Wrath), the
town's healer, an HP item taken off and a hand correction change the hero's HP, Fate or Lives
and tell it in their own sentence. What reads the log by payload (the statistics, the quest's
chronicle) needs the typed :class:`~d100gui.engine.hero.events.HpChanged`,
:class:`~d100gui.engine.hero.events.FateChanged` and :class:`~d100gui.engine.hero.events.LivesChanged`
the effects interpreter emits: take :func:`vitals` before, and :func:`changed_vitals` after (the
same pattern as :mod:`d100gui.engine.hero.primaries`).
"""

from __future__ import annotations

from d100gui.engine.hero import events as ev
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Character
from d100gui.engine.protocol import Event
from d100gui.engine.rules.model import Rules


def vitals(character: Character) -> dict[str, int]:
    """The hero's current HP, Fate and Lives as they stand."""
    return {"hp": character.hp, "fate": character.fate, "lives": character.lives}


def changed_vitals(character: Character, rules: Rules, before: dict[str, int]) -> list[Event]:
    """One ``hp`` / ``fate`` / ``life`` event per figure that differs from ``before`` (none if nothing changed)."""
    events: list[Event] = []
    hp = character.hp
    if hp != before["hp"]:
        maximum = derive(character, rules).max_hp
        payload = ev.HpChanged(delta=hp - before["hp"], hp=hp, max_hp=maximum)
        events.append(ev.emit(payload, f"HP {before['hp']} -> {hp} (maximum {maximum})."))
    if character.fate != before["fate"]:
        events.append(ev.emit(ev.FateChanged(value=character.fate), f"Fate {before['fate']} -> {character.fate}."))
    if character.lives != before["lives"]:
        events.append(ev.emit(ev.LivesChanged(value=character.lives), f"Lives {before['lives']} -> {character.lives}."))
    return events
