"""The ``characteristic`` events of a change made to the sheet by code that only says it in words.

A curse or a boost outside a fight (:mod:`d100gui.engine.magic.sheet_effects`) and a spell's cost
outside a fight (:func:`d100gui.engine.magic.casting.pay_cost`) change a characteristic's primary
score and tell it in their own sentence. What reads the log by payload (the statistics, the
quest's chronicle) needs the typed :class:`~d100gui.engine.hero.events.CharacteristicChanged`
every other change emits: take :func:`primaries` before, and :func:`changed_primaries` after.
"""

from __future__ import annotations

from d100gui.engine.hero.events import CharacteristicChanged, emit
from d100gui.engine.hero.model import Character
from d100gui.engine.protocol import Event


def primaries(character: Character) -> dict[str, int]:
    """Each characteristic's primary score as it stands."""
    return {stat: score.primary for stat, score in character.characteristics.items()}


def changed_primaries(character: Character, before: dict[str, int]) -> list[Event]:
    """One ``characteristic`` event per primary score that differs from ``before`` (none if nothing changed)."""
    return [
        emit(CharacteristicChanged(stat=stat, primary=score.primary), f"{stat}: {before[stat]} -> {score.primary}.")
        for stat, score in character.characteristics.items()
        if stat in before and before[stat] != score.primary
    ]
