"""What a first action would pay once, paid while the window is idle after a campaign is shown.

The engine's models build their validators on first use (``engine/model.py``, ``defer_build``) and its
command and event modules are imported when a kind is first met (``engine/kind_index.py``): that keeps the
start short, but the first search, fight or Fate answer of a session paid 5-30 ms for them (a quarter of a
quest's first actions went over the 50 ms bar for that alone). :class:`WarmUp` pays it in the idle time
after a campaign is shown: a while after the campaign is up (a player reads the sheet before the first
click), one module imported or a few models built per turn of the event loop, each turn bounded by
``slice_ms``, so a click that comes meanwhile waits at most one slice. It changes no state of the game:
a module imported or a validator built early is the same as one built on first use.
"""

from __future__ import annotations

import importlib
import sys
import time

from PySide6.QtCore import QObject, QTimer

from d100gui.engine.kind_index import COMMAND_MODULES, EVENT_MODULES
from d100gui.engine.model import Model

#: how long after a campaign is shown the warm-up begins (the window's first paint and the open are over)
DELAY_MS = 1500
#: the most one turn of the event loop spends on it (a module's import may take longer: one per turn)
SLICE_MS = 4.0


def modules_waiting() -> list[str]:
    """The engine modules that define a command or event kind and are not imported yet (sorted)."""
    return sorted({m for m in (*COMMAND_MODULES.values(), *EVENT_MODULES.values()) if m not in sys.modules})


def models_waiting() -> list[type[Model]]:
    """The project's models whose validator is not built yet (``defer_build``), in class-creation order."""
    seen: set[type[Model]] = set()
    waiting: list[type[Model]] = []
    stack: list[type[Model]] = [Model]
    while stack:
        for sub in reversed(stack.pop().__subclasses__()):
            if sub not in seen:
                seen.add(sub)
                stack.append(sub)
                if not sub.__pydantic_complete__ and not sub.__pydantic_generic_metadata__["parameters"]:
                    waiting.append(sub)
    return waiting


class WarmUp(QObject):
    """Imports the engine's kind modules, then builds its waiting models, a slice per idle turn."""

    def __init__(self, parent: QObject | None = None, delay_ms: int = DELAY_MS, slice_ms: float = SLICE_MS) -> None:
        super().__init__(parent)
        self.delay_ms = delay_ms
        self.slice_ms = slice_ms
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._slice)
        self._modules: list[str] = []
        self._models: list[type[Model]] = []
        self.done = False

    def start(self) -> None:
        """Begin (again) after ``delay_ms``: a campaign was shown."""
        self.done = False
        self._modules, self._models = [], []
        self._timer.start(self.delay_ms)

    def _slice(self) -> None:
        """One module imported, or models built until the slice is spent; the next slice at the next idle turn."""
        if not self._modules and not self._models:
            self._modules = modules_waiting()
            self._models = [] if self._modules else models_waiting()
            if not self._modules and not self._models:
                self.done = True
                return
        if self._modules:
            importlib.import_module(self._modules.pop(0))
            if not self._modules:
                self._models = models_waiting()
        else:
            end = time.perf_counter() + self.slice_ms / 1000
            while self._models and time.perf_counter() < end:
                model = self._models.pop(0)
                if not model.__pydantic_complete__:
                    model.model_rebuild()
        if self._modules or self._models:
            self._timer.start(0)
        else:
            self.done = True
