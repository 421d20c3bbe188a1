"""What a left click on the map asks for while playing (not editing), worked out without Qt signals.

:func:`play_click` returns the requests a click makes, in order, as :class:`Request` values
the view emits as its signals; the rules behind them come from the engine (the hero's exit
states from :func:`~d100gui.ui.map.hover.hero_exit_states`, whether progress is blocked
from :func:`~d100gui.engine.dungeon.map.progress_blocked`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF

from d100gui.engine.dungeon.map import DIRECTION_NAMES, Dungeon, pos_key
from d100gui.ui.map.hover import ExitState
from d100gui.ui.map.scene import MapScene

NOT_IN_DUNGEON = "The hero is not in the dungeon yet: click the entrance at the bottom of the sheet."


@dataclass(frozen=True)
class Request:
    """One thing a click asks for: ``kind`` names the view's signal, ``args`` are its arguments."""

    kind: str  # enter | leave | move | door_open (its Table D methods are offered) | secret_passage | message
    args: tuple[str, ...] = ()


def in_entrance(scene: MapScene, dungeon: Dungeon, at: QPointF) -> bool:
    """Whether ``at`` is on the entrance area or the entrance mark below it."""
    rect = scene.area_rect(dungeon.entrance)
    return rect.adjusted(0, 0, 0, 2 * scene.style.square).contains(at)


def hero_side_at(scene: MapScene, dungeon: Dungeon | None, at: QPointF) -> str | None:
    """The side of the hero's area under ``at`` (None: not on the hero's area)."""
    if dungeon is None or dungeon.hero is None or dungeon.area_at(dungeon.hero) is None:
        return None
    found = scene.side_at(at, dungeon.hero)
    return found[1] if found else None


def play_click(
    scene: MapScene, dungeon: Dungeon | None, exits: dict[str, ExitState], at: QPointF, blocked: Callable[[], bool]
) -> list[Request]:
    """The requests of a left click at ``at``: enter, move, leave, open a door, cut a secret passage, or say why not.

    ``blocked`` says whether the dungeon blocks all progress (asked only when it matters).
    """
    if dungeon is None:
        return []
    if dungeon.hero is None:
        return [Request("enter")] if in_entrance(scene, dungeon, at) else [Request("message", (NOT_IN_DUNGEON,))]
    side = hero_side_at(scene, dungeon, at)
    if side is not None:
        return _hero_side(dungeon, exits, side, blocked)
    # Anywhere else: solid rock of a mapped area may take a secret passage when blocked.
    found = scene.side_at(at)
    area = dungeon.area_at(found[0]) if found is not None else None
    if found is None or area is None:
        return []
    ex = area.exits.get(found[1])  # type: ignore[call-overload]
    if (ex is None or ex.kind == "dead_end") and blocked():
        return [Request("secret_passage", (pos_key(found[0]), found[1]))]
    return []


def _hero_side(dungeon: Dungeon, exits: dict[str, ExitState], side: str, blocked: Callable[[], bool]) -> list[Request]:
    assert dungeon.hero is not None
    state = exits.get(side)
    area = dungeon.hero_area()
    ex = area.exits.get(side) if area is not None else None  # type: ignore[call-overload]
    dead_end = ex is not None and ex.kind == "dead_end"
    if state is None or (state.state == "blocked" and dead_end):
        if blocked():
            return [Request("secret_passage", (pos_key(dungeon.hero), side))]
        if state is None:
            return [Request("message", (f"There is no exit on the {DIRECTION_NAMES[side]} side of this area.",))]
    if state.state == "go":
        return [Request("move", (side,))]
    if state.state == "leave":
        return [Request("leave")]
    requests = [Request("message", (state.reason,))]
    if state.door is not None:
        requests.append(Request("door_open", state.door))
    return requests
