"""Runs a tool's command through the bridge and keeps the results, rendered from the events' payloads.

A result is one log entry of a toolbox command: the command log already holds it with its
dice, so the results list is read back from the log when a campaign is opened, undone or
redone. "Same dice" takes back the tool's latest result (only while it is the campaign's
latest action) and runs the tool again from the random state before it: the same dice with
the inputs as they are now, so fixing an input never fishes for better rolls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from d100gui.engine.game import Command, LogEntry
from d100gui.engine.protocol import Event, Payload
from d100gui.ui.common.bridge import ChangeSet, EngineBridge

TOOLBOX_PREFIX = "toolbox_"
MAX_RESULTS = 200  # results read back from the log (the newest)


#: payload fields holding a tool's state after the action, not its result
STATE_FIELDS = ("clock", "encounter")


def payload_text(payload: Payload) -> str | None:
    """A payload's result in words: the ``describe()`` of the first of its result models that has one."""
    for name in type(payload).model_fields:
        if name in STATE_FIELDS:
            continue
        value = getattr(payload, name)
        describe = getattr(value, "describe", None)
        if callable(describe):
            return str(describe())
    return None


def result_text(events: Sequence[Event]) -> str:
    """What a toolbox action came to, one line per event (from the payloads; the sentence when none describes itself)."""
    lines: list[str] = []
    for event in events:
        try:
            text = payload_text(event.payload())
        except (KeyError, ValueError):
            text = None
        text = text or event.message
        if text and not any(text in line for line in lines):  # a step's summary already names its light events
            lines.append(text)
    return "\n".join(lines)


@dataclass
class ToolResult:
    """One result: the tool that made it, its text, and its place in the command log."""

    title: str
    text: str
    entry: LogEntry  # the command log's entry (its index, its events, its dice)
    noted: bool = False

    @property
    def index(self) -> int:
        return self.entry.index

    @property
    def events(self) -> list[Event]:
        return self.entry.events

    def line(self) -> str:
        mark = "\N{CHECK MARK} " if self.noted else ""
        return f"{mark}{self.index + 1}. {self.title}: {' / '.join(self.text.splitlines())}"


class ToolRunner(QObject):
    """Sends tools' commands, catches the engine's refusals for the tool that asked, and keeps the results."""

    result_added = Signal(object)  # ToolResult
    results_reset = Signal()  # the campaign was replaced, undone or redone: read ``results`` again

    def __init__(self, bridge: EngineBridge, titles: dict[str, str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.titles = titles  # command kind -> tool title, to name results read back from the log
        self.results: list[ToolResult] = []
        self._caught: list[str] = []
        self._catching = False
        bridge.error.connect(self._catch)
        bridge.changed.connect(self._changed)
        self.reload()

    def _catch(self, message: str) -> None:
        if self._catching:
            self._caught.append(message)

    def run(self, title: str, command: Command) -> ToolResult | str:
        """Send ``command``; the new result, or the engine's message when it was refused."""
        self._caught, self._catching = [], True
        try:
            done = self.bridge.send(command)
        finally:
            self._catching = False
        if not done:
            return self._caught[-1] if self._caught else "Refused."
        entry = self.bridge.game.campaign.log[-1]
        result = ToolResult(title, result_text(entry.events), entry)
        self.results.append(result)
        self.result_added.emit(result)
        return result

    def is_latest(self, result: ToolResult | None) -> bool:
        """Whether ``result`` is still the campaign's latest action (so it can be re-run on the same dice)."""
        log = self.bridge.game.campaign.log
        return result is not None and bool(log) and log[-1] is result.entry and self.bridge.game.can_undo

    def rerun(self, result: ToolResult, title: str, command: Command) -> ToolResult | str:
        """Take back ``result`` and run ``command`` from the random state before it (the same dice)."""
        if not self.is_latest(result):
            return "Another action came after this result: roll again instead."
        self.bridge.undo()
        return self.run(title, command)

    def _changed(self, change: ChangeSet) -> None:
        """An undo, a redo or another campaign shown: the results are read from the log again."""
        if change.action != "do":
            self.reload()

    def reload(self) -> None:
        """Read the results back from the campaign's log (kept notes survive for entries still there)."""
        noted = {r.index for r in self.results if r.noted}
        log = self.bridge.game.campaign.log
        found: list[ToolResult] = []
        for entry in reversed(log):
            if len(found) >= MAX_RESULTS:
                break
            if self._is_tool(entry):
                kind = str(entry.command.get("kind", ""))
                title = self.titles.get(kind, kind.removeprefix(TOOLBOX_PREFIX).replace("_", " "))
                found.append(ToolResult(title, result_text(entry.events), entry, entry.index in noted))
        self.results = found[::-1]
        self.results_reset.emit()

    @staticmethod
    def _is_tool(entry: LogEntry) -> bool:
        return str(entry.command.get("kind", "")).startswith(TOOLBOX_PREFIX)
