"""The game: what runs a command, the command log, undo/redo, and headless replay.

Every change to a campaign is a *command*: a pydantic model with a ``kind`` and an
``apply(ctx)`` method that changes ``ctx.campaign`` and returns events. :class:`Game`
runs commands one at a time:

1. park the campaign's parts, so the journal sees which ones the command reaches
   (:mod:`d100gui.engine.journal`);
2. ``apply`` the command with a :class:`GameContext` (campaign, dice, tables);
3. on :class:`CommandRefused` or any other error, put back the parts it changed and the
   random state: nothing changes;
4. otherwise append a :class:`LogEntry` (the command, every roll it made) and push a
   journal step holding only what the action changed (the parts as they were before it).

The cost of an action follows what it changed, never the log's length: the log is
append-only (undo pops its last entry) and a part the command never reached is neither
serialised nor kept. Undo puts those parts back, random state included, so undoing and
redoing a roll gives the same roll: undo cannot be used to fish for better dice. Each step
is handed to :attr:`Game.change_listeners` (the campaign store writes it in one
transaction). Replaying the log from the campaign's starting state reproduces it exactly
(physical-dice faces are in the log).

This module stands below every feature package and knows a campaign through its core fields
only (:class:`CampaignCore`: the log, the random state, the dice history). The playable
:class:`~d100gui.engine.campaign.Campaign`, composed above the features, adds each feature's
part and names the :class:`Referee` of its commands (the gate, the Fate windows, the hero's
ranges: :mod:`d100gui.engine.referee`); a :class:`Game` asks the campaign's class for its
referee and its journal parts (:func:`campaign_parts`), and refuses a campaign whose class names
no referee. ``Campaign`` and the dungeon's ``TileSet`` are named here in annotations only
(``if TYPE_CHECKING``): at run time this module imports no feature.
"""

from __future__ import annotations

import datetime as _dt
import functools
import os
import secrets
import uuid
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Protocol

from pydantic import AfterValidator, ConfigDict, Field, PrivateAttr, ValidationError, WrapSerializer

from d100gui.engine.command_registry import CommandKinds
from d100gui.engine.dice.dice import (
    Dice,
    DiceError,
    DiceSource,
    FaceRequest,
    ManualSource,
    Modifier,
    RandomSource,
    RollRecord,
    ScriptExhausted,
)
from d100gui.engine.dice.history import DiceHistory, HistoryEntry, PageReader, dump_history
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoll, TableRoller
from d100gui.engine.dice.tables import PackInvalid, Row, TableError, TableLibrary
from d100gui.engine.journal import (
    BookText,
    Change,
    DamagedStep,
    LazyStep,
    Parts,
    PartText,
    SequenceState,
    Step,
    Watch,
    apply_sequence,
    sequence_delta,
    sequence_problem,
    short_reason,
)
from d100gui.engine.model import Model
from d100gui.engine.phases import Phases
from d100gui.engine.policies import STOP_AT_EVERY_WINDOW, FatePolicy
from d100gui.engine.protocol import CommandRefused, Event, Payload, declare
from d100gui.engine.rules.model import Rules

if TYPE_CHECKING:  # pragma: no cover - names for annotations; at run time a game knows the core fields only
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.dungeon.tiles import TileSet

__all__ = [
    "CAMPAIGN_SCHEMA_VERSION",
    "MAX_UNDO",
    "CampaignCore",
    "CampaignMeta",
    "Command",
    "Game",
    "GameContext",
    "GameData",
    "LogEntry",
    "Redone",
    "Referee",
    "Undone",
    "campaign_parts",
    "replay",
]

CAMPAIGN_SCHEMA_VERSION = 3  # 3: a curse waiting for its row waits with the other rolls (adventure.rows_waiting)
#: undo steps kept (in memory and in the campaign store); each holds only what its action changed
MAX_UNDO = 500
#: beyond this many steps, older ones are dropped once the steps hold more than UNDO_BUDGET bytes
MIN_UNDO = 100
UNDO_BUDGET = 64 * 1024 * 1024
#: the most a name or a short label may hold (a hero's name, a tile set id)
MAX_NAME = 200


class Command(Model):
    """Base of every campaign command. Subclasses set ``kind`` and implement ``apply``.

    A field the command does not know is refused (``extra="forbid"``): a typo is never ignored.
    """

    model_config = ConfigDict(extra="forbid")

    kind: str
    manual: ClassVar[bool] = False  # a hand correction on the sheet (marked in the log)
    #: when it may run (fight, quest, town phase): every command class declares it (:mod:`d100gui.engine.gate`)
    when: ClassVar[Phases]

    @classmethod
    def refuse_now(cls, campaign: Campaign, rules: Rules, command: Command | None) -> str:
        """A finer check than ``when``, from the campaign alone ("" = allowed); ``command`` is None for a bare kind."""
        return ""

    def apply(self, ctx: GameContext) -> list[Event]:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.model_dump(exclude={"kind"}).items())
        return f"{self.kind}({fields})"


class PlayerRowRead(Model):
    """One of the player's own table rows an action read: a replay elsewhere needs it too."""

    table_id: str
    row: Row


class LogEntry(Model):
    """One action in the command log: what was asked, every roll made, when."""

    index: int
    command: dict[str, Any]
    rolls: list[RollRecord] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)  # every event with its kind and payload
    manual: bool = False
    policy: MissingRowPolicy = MissingRowPolicy.ASK
    at: str = ""
    player_rows: list[PlayerRowRead] = Field(default_factory=list)  # the player's own rows it read
    fate: FatePolicy | None = None  # the Fate windows the engine answered for the player (None: it answered none)

    @property
    def messages(self) -> list[str]:
        """The sentences of this action's events, in order (for a plain-text log)."""
        return [e.message for e in self.events if e.message]


def _rng_state(state: list[Any]) -> list[Any]:
    """A saved random state must be what ``random.Random.getstate`` gives, or no roll can be made."""
    if not state:
        return state
    if len(state) != 3:
        raise ValueError("the random state must be [version, 625 numbers, gauss]")
    version, internal, gauss = state
    if version != 3 or isinstance(version, bool):
        raise ValueError(f"the random state has version {version!r}; only version 3 is known")
    if not isinstance(internal, list) or len(internal) != 625:
        raise ValueError("the random state must hold 625 numbers")
    if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**32 for n in internal[:624]):
        raise ValueError("the random state holds numbers outside 0..2^32-1")
    position = internal[624]
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= 624:
        raise ValueError("the random state's position is outside 0..624")
    if gauss is not None and not isinstance(gauss, float | int):
        raise ValueError("the random state's gauss value is not a number")
    return state


RngState = Annotated[list[Any], AfterValidator(_rng_state)]
ShortText = Annotated[str, Field(max_length=MAX_NAME)]


class CampaignMeta(Model):
    id: str = Field(default_factory=lambda: uuid.uuid4().hex, max_length=64)
    created: str = Field(default_factory=lambda: _now(), max_length=64)
    last_played: str = Field(default_factory=lambda: _now(), max_length=64)
    seed: int = Field(default_factory=lambda: secrets.randbits(32), ge=-(2**63), lt=2**63)
    notes: list[str] = Field(default_factory=list)  # what a migration changed, shown to the player once


class Referee(Protocol):
    """What the rules say around every command a game runs; the campaign's class names it
    (:attr:`CampaignCore.referee`; the D100 one is :data:`d100gui.engine.referee.REFEREE`).

    Before ``apply``: may it run now, and is it a hand correction; inside the same command: the
    Fate windows the player's policy skips; after it: a value the rules do not allow refuses it.
    Undo and redo are asked too (:meth:`step_refusal`).
    """

    def refusal(self, campaign: Campaign, command: Command, rules: Rules) -> str:
        """ "" when ``command`` may run now, else the reason (a sentence for the player)."""
        ...

    def step_refusal(self, campaign: Campaign) -> str:
        """ "" when undo and redo may step through ``campaign``, else why not."""
        ...

    def hand_correction(self, campaign: Campaign, command: Command) -> bool:
        """Whether ``command`` runs now as a hand correction (its log entry is marked manual)."""
        ...

    def hand_correction_event(self, campaign: Campaign, command: Command) -> Event | None:
        """The event that marks ``command`` in the log as a hand correction, if it needs one."""
        ...

    def settle(self, ctx: GameContext, policy: FatePolicy) -> list[Event]:
        """Answer, inside the command that runs, the Fate windows ``policy`` does not stop at."""
        ...

    def outcome_refusal(self, ctx: GameContext, command: Command, was: Mapping[str, Callable[[], Any]]) -> str:
        """ "" when what ``command`` left is allowed, else why it is refused; ``was`` gives each part
        the command reached, as it was before (parts it did not reach are not in it)."""
        ...


class CampaignCore(Model):
    """What every campaign holds and :class:`Game` runs on: the log, the random state, the dice history.

    The saved campaign is :class:`d100gui.engine.campaign.Campaign`: it adds each feature's part
    as a field after these (so a file's JSON reads in the same order) and names its referee.
    """

    schema_version: int = CAMPAIGN_SCHEMA_VERSION
    meta: CampaignMeta = Field(default_factory=CampaignMeta)
    rng_state: RngState = Field(default_factory=list)
    start_rng_state: RngState = Field(default_factory=list)
    log: list[LogEntry] = Field(default_factory=list)
    dice_history: Annotated[list[HistoryEntry], WrapSerializer(dump_history)] = Field(default_factory=list)  # paged by its store

    #: who referees this campaign's commands: a class that names none cannot be played (:class:`Game` refuses it)
    referee: ClassVar[Referee | None] = None
    #: the journal's *book* parts (part -> its member list field, :class:`~d100gui.engine.journal.Parts`)
    journal_books: ClassVar[Mapping[str, str]] = {}

    #: entries before ``log[0]``: a campaign opened from its store reads no log (pages it on demand)
    _log_start: int = PrivateAttr(default=0)
    #: the journal watching the command that runs now (see :mod:`d100gui.engine.journal`)
    _watch: Watch | None = PrivateAttr(default=None)

    @property
    def log_length(self) -> int:
        """How many actions the campaign has played (the log may hold only the latest of them)."""
        return self._log_start + len(self.log)

    @property
    def log_start(self) -> int:
        """The index of ``log[0]``: 0, unless the campaign was opened from its store without its log."""
        return self._log_start

    def set_log_start(self, start: int) -> None:
        """Say that ``log`` begins at entry ``start`` (the earlier entries are in the campaign's store)."""
        if start < 0:
            raise ValueError("a log cannot start before its first entry")
        self._log_start = start

    def page_dice_history(self, length: int, reader: PageReader) -> None:
        """Keep only the dice history's newest entries (``dice_history`` holds them now) in memory, of
        ``length`` in all: ``reader`` reads the others from the store when asked (:class:`DiceHistory`)."""
        tail = list(self.dice_history)
        if len(tail) > length:
            raise ValueError("a dice history tail longer than the history")
        me = weakref.ref(self)  # no cycle: a campaign switched away is freed at once, even with the collector frozen

        def active() -> bool:
            campaign = me()
            return campaign is not None and _watching(campaign) is not None

        self.dice_history = DiceHistory.paged(length, tail, reader, active)

    def dice_history_page(self, offset: int, limit: int) -> list[HistoryEntry]:
        """Dice history entries ``offset .. offset + limit - 1`` (fewer at the end), read from the store if need be."""
        history = self.dice_history
        if isinstance(history, DiceHistory):
            return history.page(offset, limit)
        return history[max(0, offset) : max(0, offset) + max(0, limit)]

    if not TYPE_CHECKING:
        # A part parked by the journal comes back on first use, and the journal notes it.
        def __getattr__(self, name):
            watch = _watching(self)
            if watch is not None and name in watch.parked:
                return watch.reach(self.__dict__, name)
            return super().__getattr__(name)

        def __setattr__(self, name, value):
            watch = _watching(self)
            if watch is not None and name in watch.parked:
                watch.reach(self.__dict__, name)
            super().__setattr__(name, value)


def _watching(campaign: CampaignCore) -> Watch | None:
    """The journal watching ``campaign`` now, if a command runs (read without pydantic's hooks)."""
    try:
        private = object.__getattribute__(campaign, "__pydantic_private__")
    except AttributeError:
        return None
    watch = private.get("_watch") if private else None
    return watch if isinstance(watch, Watch) else None


@functools.cache
def campaign_parts(cls: type[CampaignCore]) -> Parts:
    """How the journal and the campaign store cut a campaign of class ``cls`` into parts (the log is kept
    apart); one :class:`Parts` per class (it caches the book members' JSON)."""
    return Parts(cls, sequences=("dice_history",), skip=("log",), books=cls.journal_books)


@declare("undone", topic="campaign")
class Undone(Payload):
    """The last action was undone (``command`` is its kind)."""

    command: str


@declare("redone", topic="campaign")
class Redone(Payload):
    """An undone action was done again (``command`` is its kind)."""

    command: str


def _label(kind: str) -> str:
    """A command kind as the player reads it: ``enter_dungeon`` -> ``enter dungeon``."""
    return kind.replace("_", " ") if kind else "the last action"


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


class _RecordingDice(Dice):
    """Dice that remember every roll made during one command, for the log."""

    def __init__(self, source: DiceSource) -> None:
        super().__init__(source)
        self.made: list[RollRecord] = []

    def roll(
        self,
        expression: str,
        purpose: str = "",
        modifiers: Sequence[Modifier | tuple[str, int]] = (),
        clamp: tuple[int, int] | None = None,
    ) -> RollRecord:
        record = super().roll(expression, purpose, modifiers, clamp)
        self.made.append(record)
        return record

    def reroll(self, record: RollRecord, indexes: Sequence[int]) -> RollRecord:
        again = super().reroll(record, indexes)
        self.made.append(again)
        return again


class _RecordingTables(TableRoller):
    """The table roller of one command: keeps the player's own rows its results read, for the log.

    Each :class:`TableRoll` says which player row it read (:attr:`TableRoll.player_row`); a roller
    made from this one with :meth:`~TableRoller.with_policy` keeps them in the same list."""

    def __init__(self, library: TableLibrary, dice: Dice, policy: MissingRowPolicy) -> None:
        super().__init__(library, dice, policy)
        self.player_rows: list[PlayerRowRead] = []

    def roll(self, *args: Any, **kwargs: Any) -> TableRoll:
        return self._kept(super().roll(*args, **kwargs))

    def read(self, *args: Any, **kwargs: Any) -> TableRoll:
        return self._kept(super().read(*args, **kwargs))

    def _kept(self, result: TableRoll) -> TableRoll:
        row = result.player_row
        if row is not None and not any(r.table_id == result.table_id and r.row == row for r in self.player_rows):
            self.player_rows.append(PlayerRowRead(table_id=result.table_id, row=row))
        return result


@dataclass(frozen=True)
class GameData:
    """What a game plays with: the rulebook's numbers, the tables, the Table M tile sets.

    The engine reads no files, so these are handed in; ``bundled_game_data()`` in
    :mod:`d100gui.storage.resources` loads the ones the app ships. The library changes when
    the player types a missing row, so each game gets its own.
    """

    rules: Rules
    library: TableLibrary
    tilesets: Mapping[str, TileSet]


class GameContext:
    """What a command may use: the campaign to change, the dice, the tables, the rules, the tile sets."""

    def __init__(
        self, campaign: Campaign, dice: Dice, tables: TableRoller, tilesets: Mapping[str, TileSet], rules: Rules
    ) -> None:
        self.campaign = campaign
        self.dice = dice
        self.tables = tables
        self.tilesets = tilesets
        self.rules = rules


#: every command by kind, a kind's module imported when the kind is first asked for (the window's game)
EVERY_COMMAND: CommandKinds[Command] = CommandKinds()


class Game:
    """Runs commands against a campaign with undo/redo and a replayable log.

    Undo keeps the last :data:`MAX_UNDO` steps; each holds only the parts its action changed,
    so memory does not grow with the log. ``check_journal`` (default: the environment variable
    ``D100GUI_CHECK_JOURNAL=1``) compares every command against full snapshots and raises
    :class:`AssertionError` when the journal missed a change: tests run with it.
    """

    def __init__(
        self,
        campaign: Campaign,
        library: TableLibrary,
        commands: Sequence[type[Command]] | Mapping[str, type[Command]] = (),
        physical: Callable[[list[FaceRequest]], Sequence[int] | None] | None = None,
        policy: MissingRowPolicy = MissingRowPolicy.ASK,
        *,
        rules: Rules,
        tilesets: Mapping[str, TileSet],
        check_journal: bool | None = None,
    ) -> None:
        referee = type(campaign).referee
        if referee is None:
            raise TypeError(f"{type(campaign).__name__} names no referee: a game never runs commands unrefereed")
        self.campaign = campaign
        #: the gate, the Fate windows and the hero's ranges, as the campaign's class names them
        self.referee: Referee = referee
        #: the campaign cut into parts, for the journal
        self.parts = campaign_parts(type(campaign))
        self.rules = rules
        self.library = library
        self.tilesets: dict[str, TileSet] = dict(tilesets)
        self.random = RandomSource(campaign.meta.seed)
        if campaign.rng_state:
            self.random.set_state(campaign.rng_state)
        else:
            campaign.rng_state = self.random.get_state()
        if not campaign.start_rng_state:
            campaign.start_rng_state = campaign.rng_state
        self.override: DiceSource | None = None
        self.physical = physical
        self.policy = policy
        #: which Fate windows wait for the player; the engine answers the others (engine/policies.py)
        self.fate_policy: FatePolicy = STOP_AT_EVERY_WINDOW
        #: whether the gate is asked before each command (a replay of a log recorded before a rule was gated is not)
        self.gated = True
        #: the command classes by kind (a mapping as given: :data:`EVERY_COMMAND` imports a kind's module when first asked)
        self.command_types: Mapping[str, type[Command]] = (
            commands if isinstance(commands, Mapping) else {c.model_fields["kind"].default: c for c in commands}
        )
        self.max_undo = MAX_UNDO
        self.check_journal = os.environ.get("D100GUI_CHECK_JOURNAL") == "1" if check_journal is None else check_journal
        self._undo: list[Step | LazyStep] = []
        self._undo_bytes = 0  # what the steps in _undo hold (kept as they are pushed and dropped)
        self._redo: list[Step | LazyStep] = []
        #: called with each do, undo and redo's :class:`Change` (the campaign store saves it)
        self.change_listeners: list[Callable[[Change], None]] = []

    # ------------------------------------------------------------------ commands
    def parse_command(self, data: dict[str, Any]) -> Command:
        """The command ``data`` describes; a bad one is refused with the reason (:class:`CommandRefused`).

        Unknown fields are refused (``Command`` forbids them); a log replayed ungated keeps only the
        fields its command still knows (an older version's log may hold one since dropped).
        """
        kind = data.get("kind")
        cls = self.command_types.get(str(kind))
        if cls is None:
            raise CommandRefused(f"Unknown command {kind!r}.")
        if not self.gated:
            data = {k: v for k, v in data.items() if k in cls.model_fields}
        try:
            command = cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "the command"
            raise CommandRefused(f"Command {kind!r}: {where}: {_plain_message(first)}.") from exc
        too_big = _unsafe_int(command.model_dump(mode="python"))
        if too_big is not None:
            raise CommandRefused(f"Command {kind!r}: {too_big} is out of range (numbers are at most 2^53).")
        return command

    def _source(self) -> DiceSource:
        if self.override is not None:
            return self.override
        if self.physical is not None:
            from d100gui.engine.dice.dice import ManualSource

            return ManualSource(self.physical)
        return self.random

    def execute(self, command: Command) -> list[Event]:
        """Run one command. Refused or failed commands change nothing and re-raise.

        The gate (:mod:`d100gui.engine.gate`) is asked first: a command the game's phase does not
        allow (a fallen hero's campaign allows none) is refused before it touches anything.
        """
        campaign = self.campaign
        referee = self.referee
        if self.gated:
            reason = referee.refusal(campaign, command, self.rules)
            if reason:
                raise CommandRefused(reason)
        manual = referee.hand_correction(campaign, command)
        marked = referee.hand_correction_event(campaign, command)
        full = self._full_snapshot() if self.check_journal else None
        fields = campaign.__dict__
        parts = self.parts
        watch = Watch(parts, {name: fields.pop(name) for name in parts.names})
        campaign._watch = watch
        dice = _RecordingDice(self._source())
        tables = _RecordingTables(self.library, dice, self.policy)
        ctx = GameContext(campaign, dice, tables, self.tilesets, self.rules)
        try:
            events = command.apply(ctx)
            if marked is not None:
                events = [marked, *events]
            if not self.fate_policy.is_default:
                events = [*events, *referee.settle(ctx, self.fate_policy)]  # the windows the player skips: same step
            self._check_outcome(watch, ctx, command)
        except BaseException as exc:
            campaign._watch = None
            watch.unpark(fields, type(campaign).model_fields)
            self._put_back(watch)
            if full is not None:
                self._check_unchanged(full, command, refused=True)
            if isinstance(exc, DiceError | TableError | PackInvalid) and not isinstance(exc, CommandRefused | ScriptExhausted):
                raise CommandRefused(str(exc)) from exc  # a bad expression, table or pack: the rules refuse it
            raise
        campaign.rng_state = self.random.get_state()
        campaign.meta.last_played = _now()
        campaign._watch = None
        watch.unpark(fields, type(campaign).model_fields)
        step, change = self._changes(watch, command.kind)
        entry = LogEntry(
            index=campaign.log_length,
            command=command.model_dump(mode="json"),
            rolls=dice.made,
            events=list(events),
            manual=manual,
            policy=self.policy,
            fate=None if self.fate_policy.is_default else self.fate_policy,
            at=campaign.meta.last_played,
            player_rows=tables.player_rows,
        )
        campaign.log.append(entry)
        step.entry = change.entry = change.step.entry = entry
        change.log_length = campaign.log_length
        if full is not None:
            self._check_journal(full, step, command)
        self._push_undo(change.step)
        self._redo.clear()
        change.undo_depth = len(self._undo)
        self._tell(change)
        return events

    def _check_outcome(self, watch: Watch, ctx: GameContext, command: Command) -> None:
        """Refuse a command that left a value the rules do not allow (the referee's check, e.g. the hero's ranges)."""
        parts = self.parts
        was = {name: functools.partial(parts.load_snapshot, name, kept) for name, kept in watch.before.items()}
        reason = self.referee.outcome_refusal(ctx, command, was)
        if reason:
            raise CommandRefused(reason)

    def _changes(self, watch: Watch, label: str) -> tuple[Step, Change]:
        """What the command changed: (the step that undoes it, the change for the store)."""
        parts = self.parts
        fields = self.campaign.__dict__
        before = Step(label=label, entry=None)
        after: dict[str, PartText] = {}  # a book stays its members: joined only by a store that writes it whole
        sequences: dict[str, SequenceState] = {}
        for name, old in watch.before.items():
            now = parts.snapshot(name, fields[name])
            if now != old:
                before.kept[name] = old.owning(now) if isinstance(old, BookText) and isinstance(now, BookText) else old
                after[name] = now
        for name, (_original, entries) in watch.lists.items():
            delta = sequence_delta(fields[name], entries)
            if delta is not None:
                before.sequences[name], sequences[name] = delta
        change = Change("do", after, sequences, 0, None, before)
        return before, change

    def _put_back(self, watch: Watch) -> None:
        """Undo what a refused command changed: the parts it reached, the random state."""
        parts = self.parts
        fields = self.campaign.__dict__
        for name, old in watch.before.items():
            if parts.snapshot(name, fields[name]) != old:
                fields[name] = parts.load_snapshot(name, old)
        for name, (original, entries) in watch.lists.items():
            original[:] = entries
            fields[name] = original
        if self.campaign.rng_state:
            self.random.set_state(self.campaign.rng_state)

    def _push_undo(self, step: Step) -> None:
        """Keep at most ``max_undo`` steps, and drop the oldest beyond MIN_UNDO once they hold UNDO_BUDGET bytes.

        The bytes are a running total (each step measured once, when pushed or dropped), so an
        action costs the same with 5 or 500 steps kept.
        """
        self._undo.append(step)
        self._undo_bytes += _size(step)
        drop = max(0, len(self._undo) - self.max_undo)
        total = self._undo_bytes - sum(map(_size, self._undo[:drop]))
        while total > UNDO_BUDGET and len(self._undo) - drop > MIN_UNDO:
            total -= _size(self._undo[drop])
            drop += 1
        del self._undo[:drop]
        self._undo_bytes = total

    @property
    def undo_bytes(self) -> int:
        """The bytes the in-memory undo steps hold (what :data:`UNDO_BUDGET` bounds)."""
        return self._undo_bytes

    def _tell(self, change: Change) -> None:
        for listener in self.change_listeners:
            listener(change)

    # ------------------------------------------------------------------ undo
    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_steps(self) -> list[Step | LazyStep]:
        """The undo stack, oldest first (read it; the campaign store saves it)."""
        return list(self._undo)

    @property
    def redo_steps(self) -> list[Step | LazyStep]:
        """The redo stack, oldest first."""
        return list(self._redo)

    def restore_journal(self, undo: Sequence[Step | LazyStep], redo: Sequence[Step | LazyStep] = ()) -> None:
        """Take the undo and redo stacks a reopened campaign's store kept (oldest first)."""
        self._undo = list(undo)[-self.max_undo :]
        self._undo_bytes = sum(map(_size, self._undo))
        self._redo = list(redo)

    def _apply_step(self, step: Step, stack: str = "undo") -> Step:
        """Put the campaign in the state ``step`` holds; return the step that goes back.

        All or nothing: every part is rebuilt from its JSON, the random state and every sequence
        checked, before any of it is put in place; a step that cannot be applied whole (damaged in
        its store) raises :class:`DamagedStep` and the campaign is exactly as it was.
        """
        parts = self.parts
        fields = self.campaign.__dict__
        what = f"the {stack} step '{_label(step.label)}'"
        try:
            loaded: dict[str, Any] = {}
            for name, kept in step.kept.items():
                if name not in parts.values:
                    raise ValueError(f"it holds a part {name[:40]!r} no campaign has")
                loaded[name] = parts.load_snapshot(name, kept)
            if loaded.get("rng_state"):
                RandomSource(0).set_state(loaded["rng_state"])  # a state the generator takes, or refused here
            for name, state in step.sequences.items():
                if name not in parts.sequences:
                    raise ValueError(f"it holds a sequence {name[:40]!r} no campaign has")
                problem = sequence_problem(fields[name], state)
                if problem:
                    raise ValueError(f"its {name.replace('_', ' ')}: {problem}")
        except CommandRefused:
            raise
        except Exception as exc:  # whatever a damaged step holds, it is refused whole
            raise DamagedStep(f"Cannot {stack}: {what} is damaged ({short_reason(exc)}). Nothing was changed.", stack) from None
        inverse = Step(label=step.label, entry=step.entry)
        for name in step.kept:
            now = parts.snapshot(name, fields[name])
            fields[name] = loaded[name]
            after = parts.snapshot(name, fields[name])
            inverse.kept[name] = now.owning(after) if isinstance(now, BookText) and isinstance(after, BookText) else now
        for name, state in step.sequences.items():
            inverse.sequences[name] = apply_sequence(fields[name], state)
        if "rng_state" in step.kept and self.campaign.rng_state:
            self.random.set_state(self.campaign.rng_state)
        return inverse

    def _refuse_step(self, campaign: Campaign) -> None:
        """Undo and redo are asked of the gate like commands: a fallen hero's campaign steps nowhere."""
        reason = self.referee.step_refusal(campaign) if self.gated else ""
        if reason:
            raise CommandRefused(reason)

    def undo(self) -> list[Event]:
        """Undo the last action, whole or not at all (a damaged step is refused; nothing changes)."""
        if not self._undo:
            raise CommandRefused("Nothing to undo.")
        campaign = self.campaign
        self._refuse_step(campaign)
        step = _loaded(self._undo[-1], "undo")
        entry = step.entry
        if not isinstance(entry, LogEntry) or entry.index != campaign.log_length - 1:
            raise DamagedStep(
                f"Cannot undo: the undo step '{_label(step.label)}' is damaged (it is not the last action's). "
                "Nothing was changed.",
                "undo",
            )
        redo = self._apply_step(step, "undo")
        popped = self._undo.pop()
        self._undo_bytes -= _size(popped)
        if campaign.log:
            campaign.log.pop()
        else:
            campaign.set_log_start(campaign.log_start - 1)
        self._redo.append(redo)
        change = Change("undo", _new_parts(redo, step), step.sequences, campaign.log_length, None, redo)
        change.undo_depth = len(self._undo)
        self._tell(change)
        label = step.label
        events = [Event.of(Undone(command=label), f"Undid {_label(label)}.")]
        return events

    def redo(self) -> list[Event]:
        """Redo the last action undone, whole or not at all (a damaged step is refused; nothing changes)."""
        if not self._redo:
            raise CommandRefused("Nothing to redo.")
        campaign = self.campaign
        self._refuse_step(campaign)
        step = _loaded(self._redo[-1], "redo")
        entry = step.entry
        if not isinstance(entry, LogEntry) or entry.index != campaign.log_length:
            raise DamagedStep(
                f"Cannot redo: the redo step '{_label(step.label)}' is damaged (it is not the next action). Nothing was changed.",
                "redo",
            )
        undo = self._apply_step(step, "redo")
        self._redo.pop()
        campaign.log.append(entry)
        self._push_undo(undo)
        change = Change("redo", _new_parts(undo, step), step.sequences, campaign.log_length, entry, undo)
        change.undo_depth = len(self._undo)
        self._tell(change)
        label = step.label
        events = [Event.of(Redone(command=label), f"Redid {_label(label)}.")]
        return events

    # ------------------------------------------------------------------ checking the journal
    def _full_snapshot(self) -> dict[str, Any]:
        parts = self.parts
        fields = self.campaign.__dict__
        snap: dict[str, Any] = {name: parts.dump_plain(name, fields[name]) for name in parts.values}
        for name in parts.sequences:
            snap[name] = [(item, parts.dump_item(name, item)) for item in fields[name]]
        snap["log"] = len(self.campaign.log)
        return snap

    def _check_unchanged(self, full: dict[str, Any], command: Command, refused: bool) -> None:
        parts = self.parts
        now = self._full_snapshot()
        for name, text in full.items():
            if name in parts.sequences:
                same = [t for _, t in text] == [t for _, t in now[name]]
            else:
                same = now[name] == text
            if not same:
                raise AssertionError(f"{command.kind}: refused, but its change to {name!r} was not put back")

    def _check_journal(self, full: dict[str, Any], step: Step, command: Command) -> None:
        """Every part the journal did not record must be exactly as it was; its step must undo exactly."""
        parts = self.parts
        fields = self.campaign.__dict__
        for name in parts.values:
            now = parts.dump_plain(name, fields[name])
            if now != parts.dump(name, fields[name]):
                raise AssertionError(f"{command.kind} changed a member of {name!r} in place (replace it instead)")
            kept = step.kept.get(name)
            if kept is None and now != full[name]:
                raise AssertionError(f"{command.kind} changed {name!r} without the journal seeing it")
            if kept is not None and (kept if isinstance(kept, str) else kept.text) != full[name]:
                raise AssertionError(f"{command.kind}: the journal kept a wrong 'before' for {name!r}")
        for name in parts.sequences:
            state = step.sequences.get(name)
            for i, (item, text) in enumerate(full[name]):
                if i < len(fields[name]) and fields[name][i] is item and (state is None or i not in state.items):
                    if parts.dump_item(name, item) != text:
                        raise AssertionError(f"{command.kind} changed {name}[{i}] in place (replace an entry instead)")


def _loaded(step: Step | LazyStep, stack: str = "undo") -> Step:
    """The step itself, read from the store if need be; a step that cannot be read is refused (:class:`DamagedStep`)."""
    if isinstance(step, Step):
        return step
    try:
        return step()
    except CommandRefused:
        raise
    except Exception as exc:  # a damaged row, whatever it holds, refuses the step
        raise DamagedStep(
            f"Cannot {stack}: the {stack} history is damaged ({short_reason(exc)}). Nothing was changed.", stack
        ) from None


#: the largest integer a command or a campaign may hold: JSON readers past it lose digits
MAX_SAFE_INT = 2**53


def _unsafe_int(value: object, depth: int = 0) -> int | None:
    """The first integer in ``value`` (nested dicts, lists, models dumped) beyond +-2^53, if any."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) > MAX_SAFE_INT else None
    if depth > 50:
        return None
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list | tuple) else ()
    for item in items:
        found = _unsafe_int(item, depth + 1)
        if found is not None:
            return found
    return None


def _plain_message(error: Mapping[str, Any]) -> str:
    """A validation error said for a player (no library text, no links)."""
    if error.get("type") == "extra_forbidden":
        return "this command has no such field"
    message = str(error.get("msg", "not valid"))
    return message.split("\n", 1)[0][:200]


def _new_parts(inverse: Step, applied: Step) -> dict[str, PartText]:
    """The parts' new JSON after ``applied`` (a part whose JSON did not change is left out)."""
    return {name: kept for name, kept in applied.kept.items() if inverse.kept.get(name) != kept}


def _size(step: Step | LazyStep) -> int:
    """The bytes a kept step holds (a step still in the store holds none here)."""
    return step.size if isinstance(step, Step) else 0


def replay(
    log: Sequence[LogEntry],
    library: TableLibrary,
    commands: Sequence[type[Command]],
    start: Campaign,
    *,
    rules: Rules,
    tilesets: Mapping[str, TileSet],
) -> Campaign:
    """Re-run a command log headless from ``start`` and return the final campaign.

    Rolls made with physical dice are replayed from the faces in the log; everything else
    comes from the random generator, whose starting state is in ``start``.
    """
    campaign = start.model_copy(deep=True)
    campaign.log = []
    campaign.set_log_start(0)
    campaign.rng_state = list(start.start_rng_state or start.rng_state)
    game = Game(campaign, library, commands, rules=rules, tilesets=tilesets)
    game.gated = False  # the log was played under the rules of its day: replay it as it was played
    for entry in log:
        command = game.parse_command(entry.command)
        manual_faces = _physical_faces(entry)
        if manual_faces:  # as physical dice again, so the replayed rolls keep their manual flag
            game.override = ManualSource(_faces_from(manual_faces))
        game.policy = entry.policy
        game.fate_policy = entry.fate or STOP_AT_EVERY_WINDOW
        try:
            game.execute(command)
        finally:
            game.override = None
    return game.campaign


def _physical_faces(entry: LogEntry) -> list[int]:
    """The faces the player entered by hand in ``entry``, in the order the command asked for them.

    A command draws every face from one source, and each record says whether its faces came from
    the player (``manual``). A fresh roll drew all its dice; a Fate re-roll only the dice it
    re-rolled (the last of ``rerolled``, as many as the command chose), the others being kept.
    """
    chosen = [i for i in entry.command.get("dice", []) if isinstance(i, int)]
    faces: list[int] = []
    for record in entry.rolls:
        if not record.manual:
            continue
        if record.rerolled:  # a re-roll: only the dice re-rolled now were asked for
            drawn = record.rerolled[-len(chosen) :] if chosen else record.rerolled
            faces += [record.dice[i].face for i in drawn if 0 <= i < len(record.dice)]
        else:
            faces += [d.face for d in record.dice]
    return faces


def _faces_from(faces: list[int]) -> Callable[[list[FaceRequest]], list[int]]:
    """Answer physical-dice requests from the faces the log recorded, in order."""
    queue = list(faces)

    def ask(requests: list[FaceRequest]) -> list[int]:
        answer, queue[:] = queue[: len(requests)], queue[len(requests) :]
        return answer

    return ask
