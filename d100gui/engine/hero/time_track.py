"""The time track: shading clocks, the triggers printed on them, the refresh of a full track."""

from __future__ import annotations

from typing import Literal

from d100gui.engine.hero.derive import clamp_hp
from d100gui.engine.hero.model import Character
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules


class FiredTrigger(Model):
    clock: int
    kind: Literal["oil", "food", "wandering", "refresh"]
    number: int | None = None


def advance_time(character: Character, rules: Rules, clocks: int) -> list[FiredTrigger]:
    """Shade ``clocks`` clocks; list every trigger printed on them, in order.

    Shading the last clock refreshes the track: shading and time-track bonuses are removed
    and HP comes down to the new maximum (a ``refresh`` trigger is listed; its poison and
    disease checks belong to the time-track procedure).
    """
    layout = rules.sheet.time_track
    fired: list[FiredTrigger] = []
    track = character.time_track
    for _ in range(max(0, clocks)):
        track.shaded += 1
        track.total += 1
        clock = track.shaded
        fired += [FiredTrigger(clock=clock, kind=t.kind, number=t.number) for t in layout.triggers_at(clock)]
        if track.shaded >= layout.clocks:
            track.shaded = 0
            track.bonuses = []
            clamp_hp(character, rules)  # an HP bonus on the track has ended
            fired.append(FiredTrigger(clock=clock, kind="refresh"))
    return fired
