"""The rules engine: pure Python, no Qt. Commands in, events out.

For headless use (bug reports, scenario tests, outside tools) the public face is
:mod:`d100gui.engine.api`, re-exported here: ``from d100gui.engine import Session, GameData``.
See ``docs/engine-api.md``. The names load on first use, so importing this package stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from d100gui.engine.api import API_VERSION, Session, command_kinds, creation_steps
    from d100gui.engine.dice.dice import ScriptExhausted
    from d100gui.engine.game import GameData
    from d100gui.engine.protocol import CommandRefused

__all__ = ["API_VERSION", "CommandRefused", "GameData", "ScriptExhausted", "Session", "command_kinds", "creation_steps"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("d100gui.engine.api"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
