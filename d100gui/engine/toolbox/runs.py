"""A tool's run that stops at a missing row, and how typing or sampling that row continues it.

As in the dice panel, where typing (or sampling) a row settles the roll that asked for it: a tool whose chain
reaches a row the player's tables lack keeps its run (:class:`~.state.ToolRun`: the command, every roll it
made, what it changed of the toolbox's state). Once the row is typed or sampled (:func:`continue_run`, sent by
the row dialog through ``flow.row_for_roll`` / ``flow.sample_for_roll``, which ask
:meth:`~.state.ToolboxState.run_waiting_on`), the tool runs again from the state it
first started from, on the same dice: each roll asked for takes the first kept roll made for the same purpose,
so every roll up to the missing one (and the later ones the new row does not change) is the same, and the rest
of the chain is rolled as it would have been. The typed row is found where the gap was; a sampled row takes
the gap's place, marked sample play. The new result replaces the old one (``ToolRunContinued``); it is one
command, so one undo takes it back.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from d100gui.engine.dice.dice import Dice, Modifier, RollRecord
from d100gui.engine.dice.events import RollMade, RowProvided
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoll, TableRoller
from d100gui.engine.dice.tables import Row
from d100gui.engine.dice_commands import SampleRow
from d100gui.engine.game import Command, GameContext
from d100gui.engine.protocol import CommandRefused, Event
from d100gui.engine.toolbox.context import RunContext, keep_state
from d100gui.engine.toolbox.events import ToolRunContinued
from d100gui.engine.toolbox.state import MAX_RUNS, ToolboxState, ToolRun

__all__ = ["RUN_KINDS", "RunDice", "RunTables", "continue_run", "resumable"]

#: the tools whose runs are kept when they stop at a missing row, by command kind (:func:`resumable`)
RUN_KINDS: dict[str, type[Command]] = {}

C = TypeVar("C", bound=Command)


class RunDice(Dice):
    """The dice of a tool's run: each roll asked for takes the first kept roll made for the same purpose (same
    expression, modifiers and range), else is rolled by the game's dice (so the command log records it).
    ``made`` is every roll of the run, kept or new, in order: what the next continuation replays."""

    def __init__(self, live: Dice, kept: Sequence[RollRecord] = ()) -> None:
        super().__init__(live.source)
        self.live = live
        self.kept = list(kept)
        self.made: list[RollRecord] = []
        self.fresh = False  # while True every roll is new (a gap re-rolled among printed rows now)

    def roll(
        self,
        expression: str,
        purpose: str = "",
        modifiers: Sequence[Modifier | tuple[str, int]] = (),
        clamp: tuple[int, int] | None = None,
    ) -> RollRecord:
        mods = [m if isinstance(m, Modifier) else Modifier(label=m[0], value=m[1]) for m in modifiers]
        wanted = (expression, purpose, mods, tuple(clamp) if clamp else None)
        for i, record in enumerate([] if self.fresh else self.kept):
            if (record.expression, record.purpose, record.modifiers, tuple(record.clamp) if record.clamp else None) == wanted:
                del self.kept[i]
                self.made.append(record)
                return record
        record = self.live.roll(expression, purpose, modifiers, clamp)
        self.made.append(record)
        return record

    def forget(self, records: Sequence[RollRecord]) -> None:
        """Drop these kept rolls: they made a row re-rolled among printed rows, read again as it came."""
        for record in records:
            if record in self.kept:
                self.kept.remove(record)

    def reroll(self, record: RollRecord, indexes: Sequence[int]) -> RollRecord:
        again = self.live.reroll(record, indexes)
        self.made.append(again)
        return again


class RunTables(TableRoller):
    """The table roller of a tool's run, on :class:`RunDice`. A gap answered by sample play before (``answers``)
    reads that answer again; the gap being answered now by sample play (``target``) is rolled again among the
    printed rows (a fresh roll of the table, as the dice panel's re-roll does): ``answered`` keeps it."""

    def __init__(
        self, outer: TableRoller, dice: RunDice, answers: Sequence[TableRoll] = (), target: RollRecord | None = None
    ) -> None:
        inner = copy.copy(outer)  # the game's roller (it notes the player's rows read), on the run's dice
        inner.dice = dice
        super().__init__(inner.library, dice, inner.policy)
        self._inner = inner
        self.dice_of_run = dice
        self.answers = list(answers)
        self.target = target
        self.answered: TableRoll | None = None

    def with_policy(self, policy: MissingRowPolicy) -> TableRoller:
        other = copy.copy(self)
        other._inner = self._inner.with_policy(policy)
        other.policy = policy
        return other

    def roll(self, *args: Any, **kwargs: Any) -> TableRoll:
        result = self._inner.roll(*args, **kwargs)
        target = self.target
        if result.row is None:
            answer = next((a for a in self.answers if a.discarded and a.discarded[0] == result.roll), None)
            if answer is not None:
                self.answers.remove(answer)
                self.dice_of_run.forget([*answer.discarded[1:], answer.roll, *(d.roll for d in answer.dice if d.roll)])
                return answer
            if target is not None and result.roll == target:
                self.dice_of_run.fresh = True  # new dice: the kept ones of the same purpose belong to later rolls
                try:
                    again = self._inner.with_policy(MissingRowPolicy.REROLL).roll(*args, **kwargs)
                finally:
                    self.dice_of_run.fresh = False
                if again.row is not None:
                    result = again.model_copy(update={"sample": True, "discarded": [result.roll, *again.discarded]})
                    self.target, self.answered = None, result
        elif result.sample and target is not None and result.discarded and result.discarded[0] == target:
            self.target, self.answered = None, result  # the player's policy re-rolled it already ("from now on")
        return result

    def read(self, *args: Any, **kwargs: Any) -> TableRoll:
        return self._inner.read(*args, **kwargs)


def _dumped(value: object) -> Any:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def _changed(before: ToolboxState, after: ToolboxState, names: Sequence[str] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """The toolbox fields ``after`` changed from ``before`` (and ``names``), as they were and as they are."""
    was: dict[str, Any] = {}
    now: dict[str, Any] = {}
    for name in ToolboxState.model_fields:
        if name == "runs":
            continue
        old, new = getattr(before, name), getattr(after, name)
        if name in names or old != new:
            was[name], now[name] = _dumped(old), _dumped(new)
    return was, now


def _keep_runs(ctx: GameContext, runs: list[ToolRun]) -> None:
    keep_state(ctx, runs=runs[-MAX_RUNS:])


def resumable(cls: type[C]) -> type[C]:
    """Keep the run of this tool's command when it stops at a missing row, so the row's answer continues it."""
    apply: Callable[[Command, GameContext], list[Event]] = cls.apply

    @functools.wraps(apply)
    def run(self: Command, ctx: GameContext) -> list[Event]:
        if isinstance(ctx, RunContext):  # a continuation runs it: the continuation keeps the run
            return apply(self, ctx)
        dice = RunDice(ctx.dice)
        run_ctx = RunContext(ctx, dice, RunTables(ctx.tables, dice), {})
        before = ctx.campaign.toolbox
        events = apply(self, run_ctx)
        if run_ctx.waiting:
            was, now = _changed(before, ctx.campaign.toolbox)
            kept = ToolRun(
                command=self.model_dump(mode="json"),
                rolls=dice.made,
                waiting=run_ctx.waiting,
                result=ctx.campaign.log_length,
                before=was,
                after=now,
            )
            _keep_runs(ctx, [*ctx.campaign.toolbox.runs, kept])
        return events

    cls.apply = run  # type: ignore[method-assign]
    RUN_KINDS[str(cls.model_fields["kind"].default)] = cls
    return cls


def continue_run(ctx: GameContext, entry: int, row: Row | None, sample: bool) -> list[Event]:
    """Answer dice-history roll ``entry`` of a kept tool run (``row`` typed, or ``sample``) and run the tool on."""
    if row is not None and sample:
        raise CommandRefused("Either type the row or re-roll among the printed rows, not both.")
    if row is None and not sample:
        raise CommandRefused("Type the row, or re-roll among the printed rows.")
    state = ctx.campaign.toolbox
    run = state.run_waiting_on(entry)
    history = ctx.campaign.dice_history
    held = history[entry].table if 0 <= entry < len(history) else None
    if run is None or held is None or held.row is not None:
        raise CommandRefused(f"Roll {entry + 1} of the dice history is not a tool's roll waiting for a row.")
    tool = RUN_KINDS.get(str(run.command.get("kind", "")))
    if tool is None:
        raise CommandRefused(f"The tool {run.command.get('kind')!r} cannot be continued here: roll it again.")
    command = tool.model_validate(run.command)
    others = [r for r in state.runs if r is not run]
    events: list[Event] = []
    provided: Event | None = None
    if row is not None:
        try:
            resolved = ctx.tables.resolve_missing(held, row)
        except ValueError as exc:
            raise CommandRefused(str(exc)) from None
        history[entry] = history[entry].model_copy(update={"table": resolved})
        provided = Event.of(
            RowProvided(table_id=resolved.table_id, index=entry), f"Row added to your tables: {history[entry].describe()}"
        )
    if _changed(state, state, list(run.after))[1] != run.after:
        # a later action changed what the tool keeps: its run cannot start again from where it did
        note = " (the tool's result is not continued: a later action changed what it keeps; roll it again)"
        _keep_runs(ctx, others)
        if provided is not None:
            return [provided.model_copy(update={"message": provided.message + note})]
        sampled = SampleRow(entry=entry).apply(ctx)
        return [e.model_copy(update={"message": e.message + note}) for e in sampled]
    start = ToolboxState.model_validate({**state.model_dump(mode="json"), **run.before, "runs": []})
    keep_state(ctx, **{name: getattr(start, name) for name in run.before})
    dice = RunDice(ctx.dice, run.rolls)
    tables = RunTables(ctx.tables, dice, run.sampled, held.roll if sample else None)
    gaps = {i: t.roll for i in run.waiting if i != entry and (t := history[i].table) is not None and t.row is None}
    run_ctx = RunContext(ctx, dice, tables, gaps)
    result = command.apply(run_ctx)
    answers = list(run.sampled)
    answered = tables.answered
    if sample and answered is None and ctx.tables.library.get(held.table_id).find(held.roll.final) is None:
        raise CommandRefused(f"The tool's run no longer reaches roll {entry + 1}: roll the tool again.")
    if answered is not None:  # (none when the player's tables have the row by now: the run read it)
        history.append(HistoryEntry(roll=answered.roll, table=answered, parent=entry))
        index = len(history) - 1
        events.append(Event.of(RollMade(index=index), f"{index + 1}. {history[index].describe()}"))
        answers.append(answered)
    elif provided is not None:
        events.append(provided)
    was, now = _changed(start, ctx.campaign.toolbox, list(run.before))
    was = {**was, **run.before}
    if run_ctx.waiting:
        went_on = run.model_copy(
            update={
                "rolls": dice.made,
                "sampled": answers,
                "waiting": run_ctx.waiting,
                "result": ctx.campaign.log_length,
                "before": was,
                "after": now,
            }
        )
        others.append(went_on)
    _keep_runs(ctx, others)
    marker = ToolRunContinued(
        tool=str(run.command.get("kind", "")), replaces=run.result, entry=entry, sample=answered is not None
    )
    return [*result, *events, Event.of(marker)]
