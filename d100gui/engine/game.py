"""The game: campaign state, the command log, undo/redo, and headless replay.

Every change to a campaign is a *command*: a pydantic model with a ``kind`` and an
``apply(ctx)`` method that changes ``ctx.campaign`` and returns events. :class:`Game`
runs commands one at a time:

1. snapshot the campaign (the dice generator's state is part of it);
2. ``apply`` the command with a :class:`GameContext` (campaign, dice, tables);
3. on :class:`CommandRefused` or any other error, restore the snapshot: nothing changes;
4. otherwise append a :class:`LogEntry` (the command, every roll it made) and push the
   snapshot on the undo stack.

Undo restores the snapshot, random state included, so undoing and redoing a roll gives
the same roll: undo cannot be used to fish for better dice. Replaying the log from the
campaign's starting state reproduces it exactly (physical-dice faces are in the log).
"""

from __future__ import annotations

import datetime as _dt
import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from d100gui.engine.combat.monster import CombatState, EscapedMonster
from d100gui.engine.dice.dice import Dice, DiceSource, FaceRequest, Modifier, RandomSource, RollRecord, ScriptedSource
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.dungeon.map import DungeonBook
from d100gui.engine.dungeon.tiles import TileSet
from d100gui.engine.hero.character import Character, PendingDecision
from d100gui.engine.protocol import CommandRefused, Event, Payload, declare
from d100gui.engine.rules.model import Rules

__all__ = [
    "CAMPAIGN_SCHEMA_VERSION",
    "MAX_UNDO",
    "Campaign",
    "CampaignMeta",
    "Command",
    "CommandRefused",
    "Event",
    "Game",
    "GameContext",
    "GameData",
    "LogEntry",
    "Payload",
    "Redone",
    "Undone",
    "declare",
    "replay",
]

CAMPAIGN_SCHEMA_VERSION = 2
MAX_UNDO = 500


class Command(BaseModel):
    """Base of every campaign command. Subclasses set ``kind`` and implement ``apply``."""

    kind: str
    manual: ClassVar[bool] = False  # a hand correction on the sheet (marked in the log)

    def apply(self, ctx: GameContext) -> list[Event]:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.model_dump(exclude={"kind"}).items())
        return f"{self.kind}({fields})"


class LogEntry(BaseModel):
    """One action in the command log: what was asked, every roll made, when."""

    index: int
    command: dict[str, Any]
    rolls: list[RollRecord] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)  # every event with its kind and payload
    manual: bool = False
    policy: MissingRowPolicy = MissingRowPolicy.ASK
    at: str = ""

    @property
    def messages(self) -> list[str]:
        """The sentences of this action's events, in order (for a plain-text log)."""
        return [e.message for e in self.events if e.message]


class CampaignMeta(BaseModel):
    id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    created: str = Field(default_factory=lambda: _now())
    last_played: str = Field(default_factory=lambda: _now())
    seed: int = Field(default_factory=lambda: secrets.randbits(32))
    notes: list[str] = Field(default_factory=list)  # what a migration changed, shown to the player once


class Campaign(BaseModel):
    """Everything that is saved. Feature modules add their parts as fields here."""

    schema_version: int = CAMPAIGN_SCHEMA_VERSION
    meta: CampaignMeta = Field(default_factory=CampaignMeta)
    rng_state: list[Any] = Field(default_factory=list)
    start_rng_state: list[Any] = Field(default_factory=list)
    log: list[LogEntry] = Field(default_factory=list)
    dice_history: list[HistoryEntry] = Field(default_factory=list)
    dungeons: DungeonBook = Field(default_factory=DungeonBook)
    tileset: str = "standard"  # the Table M tile set this campaign rolls on
    character: Character | None = None
    pending: list[PendingDecision] = Field(default_factory=list)  # decisions waiting for the player
    decision_serial: int = 0  # the last pending-decision id handed out (d1, d2, ...)
    hall_of_fallen: list[Character] = Field(default_factory=list)
    combat: CombatState | None = None  # the fight in progress (combat.py)
    escaped_monsters: list[EscapedMonster] = Field(default_factory=list)  # for the map's escaped-monster marker
    shield_half_pip: str = ""  # the shield (by name) carrying a half-shaded repair pip from shield offsets


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


class Game:
    """Runs commands against a campaign with undo/redo and a replayable log."""

    def __init__(
        self,
        campaign: Campaign,
        library: TableLibrary,
        commands: Sequence[type[Command]] = (),
        physical: Callable[[list[FaceRequest]], Sequence[int] | None] | None = None,
        policy: MissingRowPolicy = MissingRowPolicy.ASK,
        *,
        rules: Rules,
        tilesets: Mapping[str, TileSet],
    ) -> None:
        self.campaign = campaign
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
        self.command_types: dict[str, type[Command]] = {c.model_fields["kind"].default: c for c in commands}
        self._undo: list[str] = []
        self._redo: list[tuple[str, str]] = []
        self.listeners: list[Callable[[list[Event]], None]] = []

    # ------------------------------------------------------------------ commands
    def parse_command(self, data: dict[str, Any]) -> Command:
        kind = data.get("kind")
        cls = self.command_types.get(str(kind))
        if cls is None:
            raise CommandRefused(f"Unknown command {kind!r}.")
        return cls.model_validate(data)

    def _source(self) -> DiceSource:
        if self.override is not None:
            return self.override
        if self.physical is not None:
            from d100gui.engine.dice.dice import ManualSource

            return ManualSource(self.physical)
        return self.random

    def execute(self, command: Command) -> list[Event]:
        """Run one command. Refused or failed commands change nothing and re-raise."""
        before = self.campaign.model_dump_json()
        dice = _RecordingDice(self._source())
        ctx = GameContext(self.campaign, dice, TableRoller(self.library, dice, self.policy), self.tilesets, self.rules)
        try:
            events = command.apply(ctx)
        except BaseException:
            self._restore(before)
            raise
        self.campaign.rng_state = self.random.get_state()
        self.campaign.meta.last_played = _now()
        self.campaign.log.append(
            LogEntry(
                index=len(self.campaign.log),
                command=command.model_dump(mode="json"),
                rolls=dice.made,
                events=list(events),
                manual=type(command).manual,
                policy=self.policy,
                at=self.campaign.meta.last_played,
            )
        )
        self._undo.append(before)
        del self._undo[:-MAX_UNDO]
        self._redo.clear()
        self._emit(events)
        return events

    def _restore(self, snapshot: str) -> None:
        restored = Campaign.model_validate_json(snapshot)
        for name in Campaign.model_fields:
            setattr(self.campaign, name, getattr(restored, name))
        if self.campaign.rng_state:
            self.random.set_state(self.campaign.rng_state)

    def _emit(self, events: list[Event]) -> None:
        for listener in self.listeners:
            listener(events)

    # ------------------------------------------------------------------ undo
    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> list[Event]:
        if not self._undo:
            raise CommandRefused("Nothing to undo.")
        current = self.campaign.model_dump_json()
        snapshot = self._undo.pop()
        label = self.campaign.log[-1].command.get("kind", "") if self.campaign.log else ""
        self._redo.append((current, label))
        self._restore(snapshot)
        events = [Event.of(Undone(command=label), f"Undid {_label(label)}.")]
        self._emit(events)
        return events

    def redo(self) -> list[Event]:
        if not self._redo:
            raise CommandRefused("Nothing to redo.")
        current = self.campaign.model_dump_json()
        snapshot, label = self._redo.pop()
        self._undo.append(current)
        self._restore(snapshot)
        events = [Event.of(Redone(command=label), f"Redid {_label(label)}.")]
        self._emit(events)
        return events


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
    campaign.rng_state = list(start.start_rng_state or start.rng_state)
    game = Game(campaign, library, commands, rules=rules, tilesets=tilesets)
    for entry in log:
        command = game.parse_command(entry.command)
        manual_faces = [d.face for r in entry.rolls if r.manual for d in r.dice]
        if manual_faces:
            game.override = ScriptedSource(manual_faces)
        game.policy = entry.policy
        try:
            game.execute(command)
        finally:
            game.override = None
    return game.campaign
