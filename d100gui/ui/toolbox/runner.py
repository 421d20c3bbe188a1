"""Runs a tool's command through the bridge and keeps the results, rendered from the events' payloads.

A result is one log entry of a toolbox command: the command log already holds it with its
dice, so the results list is read back from the log when a campaign is opened, undone or
redone. "Same dice" takes back the tool's latest result (only while it is the campaign's
latest action) and runs the tool again from the random state before it: the same dice with
the inputs as they are now, so fixing an input never fishes for better rolls.

A tool's run that stopped at a missing row goes on once the row is typed or sampled (the row
dialog sends the engine's ``toolbox_continue_run``): its new result says which result it
continues (``ToolRunContinued``), and takes that one's place here (``result_replaced``), as
undo and redo put either back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from d100gui.engine.game import Command, LogEntry
from d100gui.engine.protocol import Event, Payload
from d100gui.engine.toolbox.events import ToolRunContinued
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


def continued(events: Sequence[Event]) -> ToolRunContinued | None:
    """The result these events continue (a tool's run that went on once its missing row was answered), if any."""
    for event in events:
        try:
            payload = event.payload()
        except (KeyError, ValueError):
            continue
        if isinstance(payload, ToolRunContinued):
            return payload
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
    continues: int | None = None  # the log index of the result this one continued (its missing row answered)

    @property
    def index(self) -> int:
        return self.entry.index

    @property
    def events(self) -> list[Event]:
        return self.entry.events

    @property
    def key(self) -> tuple[int, str]:
        """The same action across a reload of the log (its index and when it was played)."""
        return self.entry.index, self.entry.at

    def line(self) -> str:
        mark = "\N{CHECK MARK} " if self.noted else ""
        return f"{mark}{self.index + 1}. {self.title}: {' / '.join(self.text.splitlines())}"


class ToolRunner(QObject):
    """Sends tools' commands, catches the engine's refusals for the tool that asked, and keeps the results."""

    result_added = Signal(object)  # ToolResult
    results_reset = Signal()  # the campaign was replaced, undone or redone: read ``results`` again
    result_replaced = Signal(object, object)  # (ToolResult gone, ToolResult in its place): a run continued, undone, redone

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
        """Whether ``result`` is still the campaign's latest action (so it can be re-run on the same dice). A
        continued result is not: its dice are its first run's and the row's answer (undo takes it back)."""
        log = self.bridge.game.campaign.log
        return (
            result is not None
            and result.continues is None
            and bool(log)
            and log[-1] is result.entry
            and self.bridge.game.can_undo
        )

    def rerun(self, result: ToolResult, title: str, command: Command) -> ToolResult | str:
        """Take back ``result`` and run ``command`` from the random state before it (the same dice)."""
        if not self.is_latest(result):
            return "Another action came after this result: roll again instead."
        self.bridge.undo()
        return self.run(title, command)

    def _changed(self, change: ChangeSet) -> None:
        """An undo, a redo or another campaign shown: the results are read from the log again. An action that
        continued a tool's run (its missing row answered) puts its result in the place of the one it continues."""
        if change.action != "do":
            self.reload()
            return
        went_on = continued(change.events)
        log = self.bridge.game.campaign.log
        if went_on is None or not log:
            return
        old = next((r for r in self.results if r.index == went_on.replaces), None)
        entry = log[-1]
        new = ToolResult(old.title if old else self._title(went_on.tool), result_text(entry.events), entry)
        new.continues = went_on.replaces
        self.results = [*(r for r in self.results if r is not old), new]
        self.result_replaced.emit(old, new)
        self.results_reset.emit()

    def _title(self, kind: str) -> str:
        return self.titles.get(kind, kind.removeprefix(TOOLBOX_PREFIX).replace("_", " "))

    def reload(self) -> None:
        """Read the results back from the campaign's log (kept notes survive for entries still there): a result
        another continued is not listed, the one that continued it is, under its tool's title."""
        before = {r.key: r for r in self.results}
        noted = {r.index for r in self.results if r.noted}
        log = self.bridge.game.campaign.log
        found: list[ToolResult] = []
        replaced: set[int] = set()
        for entry in reversed(log):
            if len(found) >= MAX_RESULTS:
                break
            if not self._is_tool(entry) or entry.index in replaced:
                continue
            went_on = continued(entry.events)
            kind = went_on.tool if went_on is not None else str(entry.command.get("kind", ""))
            result = ToolResult(self._title(kind), result_text(entry.events), entry, entry.index in noted)
            if went_on is not None:
                result.continues = went_on.replaces
                replaced.add(went_on.replaces)
            found.append(result)
        self.results = found[::-1]
        self._tell_replaced(before)
        self.results_reset.emit()

    def _tell_replaced(self, before: dict[tuple[int, str], ToolResult]) -> None:
        """After an undo or a redo: a continued result gone for the one it continued (or back in its place)."""
        now = {r.key: r for r in self.results}
        for key, gone in before.items():
            if key in now:
                continue
            back = next((r for r in self.results if gone.continues is not None and r.index == gone.continues), None)
            ahead = next((r for r in self.results if r.continues == gone.index and r.key not in before), None)
            if back is not None or ahead is not None:
                self.result_replaced.emit(gone, back or ahead)

    @staticmethod
    def _is_tool(entry: LogEntry) -> bool:
        return str(entry.command.get("kind", "")).startswith(TOOLBOX_PREFIX)
