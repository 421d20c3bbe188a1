"""The engine for headless use: play a campaign from plain dicts, with scripted or seeded dice.

This is the small, stable face of the engine for bug reports, scenario tests and outside tools
(see ``docs/engine-api.md``)::

    from d100gui.engine import Session
    from d100gui.storage.resources import bundled_game_data

    session = Session.new(bundled_game_data(), seed=7)
    session.script_dice([3, 4])
    events = session.run({"kind": "roll_dice", "expression": "2d6"})
    assert events[0]["kind"] == "roll_made"

Commands are the vocabulary of ``docs/commands.md`` (a ``kind`` and its fields); events come
back as plain dicts (``kind``, ``topic``, ``data``, ``message``) as they are kept in the log.
The engine reads no files: :class:`GameData` is handed in (``bundled_game_data()`` loads the
bundled one; a tool may build its own).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import ValidationError

from d100gui.engine.campaign import Campaign
from d100gui.engine.chronicle import ChronicleReader, QuestChronicle
from d100gui.engine.combat.monster import CombatState
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import DiceError, ScriptedSource, ScriptExhausted
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import TableError
from d100gui.engine.flow import flow as flow_of
from d100gui.engine.game import Command, Game, GameData, LogEntry
from d100gui.engine.hero.creation import creation_commands
from d100gui.engine.hero.decisions import PendingDecision
from d100gui.engine.hero.model import Character
from d100gui.engine.protocol import CommandRefused, Event
from d100gui.engine.stats import Statistics

__all__ = [
    "API_VERSION",
    "CommandRefused",
    "GameData",
    "ScriptExhausted",
    "Session",
    "command_kinds",
    "creation_steps",
]

#: bumped when a name below changes incompatibly (additions keep the number)
API_VERSION = 1
#: how many older log entries :meth:`Session.statistics` asks for at a time
_STATS_PAGE = 1000

_Folder = TypeVar("_Folder", Statistics, ChronicleReader)


def _kept_or_folded(
    campaign: Campaign,
    kept: _Folder | None,
    last: LogEntry | None,
    new: Callable[[], _Folder],
    older: Callable[[int, int], Sequence[LogEntry]] | None,
) -> _Folder:
    """A fold of the log kept from the last call while its last entry is still in the log (else, undone or
    rewritten, a new one), with the entries older than the ones in memory paged in through ``older``; the
    caller folds the newer entries."""
    log, start = campaign.log, campaign.log_start
    if kept is not None and (last is None or (0 <= last.index - start < len(log) and log[last.index - start] is last)):
        return kept
    folder = new()
    offset = 0
    while older is not None and offset < start:
        page = older(offset, min(_STATS_PAGE, start - offset))
        if not page:
            break
        folder.fold_all(page)
        offset += len(page)
    return folder


#: the policy names a session takes: the engine's, and ``sample`` (the app's name for re-rolling among known rows)
POLICY_NAMES = {**{p.value: p for p in MissingRowPolicy}, "sample": MissingRowPolicy.REROLL}


def policy_of(policy: MissingRowPolicy | str) -> MissingRowPolicy:
    """The missing-row policy named ``policy`` (see :meth:`Session.new`); ``ValueError`` naming the choices."""
    if isinstance(policy, MissingRowPolicy):
        return policy
    found = POLICY_NAMES.get(str(policy))
    if found is None:
        raise ValueError(f"policy {policy!r} is not one of {', '.join(repr(name) for name in POLICY_NAMES)}")
    return found


def command_kinds() -> list[str]:
    """Every command kind :meth:`Session.run` accepts, sorted (documented in ``docs/commands.md``)."""
    return sorted(_kind_of(c) for c in ALL_COMMANDS)


def creation_steps(name: str, scores: Mapping[str, int], skills: Sequence[str], armour_rolls: int = 3) -> list[dict[str, Any]]:
    """The rulebook's "Creating a Character" steps as plain command dicts, in its order.

    ``scores`` assigns the three characteristic scores (e.g. ``{"STR": 50, "DEX": 40, "INT": 30}``);
    ``skills`` names the starting skills. A step may leave a pending decision (an armour clash)
    to answer before the next step: see :attr:`Session.pending`.
    """
    commands = creation_commands(name, dict(scores), list(skills), armour_rolls)
    return [c.model_dump(mode="json") for c in commands]


def _kind_of(command: type[Command]) -> str:
    return str(command.model_fields["kind"].default)


def _plain(events: Iterable[Event]) -> list[dict[str, Any]]:
    return [e.model_dump(mode="json") for e in events]


class Session:
    """One campaign played headless: run commands, script dice, read the state, undo.

    Every change goes through :meth:`run` (the same commands the app's widgets send), so a
    session is logged, undoable and replayable exactly like a game played in the window.
    """

    _stats: Statistics | None = None  # the statistics folded so far (:meth:`statistics`)
    _stats_last: LogEntry | None = None  # the last entry they folded
    _chron: ChronicleReader | None = None  # the chronicles read so far (:meth:`chronicles`)
    _chron_last: LogEntry | None = None

    def __init__(self, data: GameData, campaign: Campaign, policy: MissingRowPolicy | str = MissingRowPolicy.ASK) -> None:
        self.data = data
        self.game = Game(
            campaign,
            data.library,
            ALL_COMMANDS,
            policy=policy_of(policy),
            rules=data.rules,
            tilesets=data.tilesets,
        )

    # ------------------------------------------------------------------ making one
    @classmethod
    def new(cls, data: GameData, seed: int | None = None, policy: MissingRowPolicy | str = MissingRowPolicy.ASK) -> Session:
        """A blank campaign. ``seed`` fixes the dice (same seed, same commands: same game).

        ``policy`` is what a table roll does on a row the tables lack: ``"ask"`` (a pending
        decision, as in the app) or ``"reroll"`` (re-roll among known rows, for the bundled
        excerpts; ``"sample"``, the app's name for that sample play, is the same). Any other
        value raises ``ValueError`` naming these.
        """
        campaign = Campaign()
        if seed is not None:
            campaign.meta.seed = seed
        return cls(data, campaign, policy)

    @classmethod
    def from_json(cls, data: GameData, text: str, policy: MissingRowPolicy | str = MissingRowPolicy.ASK) -> Session:
        """A campaign from the JSON :meth:`to_json` wrote (the current format).

        Older campaign files are migrated by ``d100gui.storage.campaigns.load_campaign``; pass
        its result to ``Session(data, campaign)``.
        """
        try:
            campaign = Campaign.model_validate_json(text)
        except ValidationError as exc:
            raise ValueError(f"not a campaign in the current format: {exc.error_count()} problem(s)") from exc
        return cls(data, campaign, policy)

    def to_json(self) -> str:
        """The campaign as the app saves it (a ``*.d100.json`` file's content).

        A campaign opened from its store holds only its newest log entries: export it with
        ``d100gui.storage.store.export_json(store)`` instead (this raises ``ValueError``).
        """
        campaign = self.game.campaign
        if campaign.log_start:
            raise ValueError("this campaign holds only its newest log entries; export it from its store")
        return campaign.model_dump_json()

    # ------------------------------------------------------------------ playing
    def run(self, command: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Run one command given as a plain dict (``{"kind": "move_hero", "side": "E"}``); return its events.

        A command the rules do not allow now, an unknown kind, a bad field, a bad dice
        expression or an unknown table raises :class:`CommandRefused` with the reason, and the
        campaign (dice and scripted faces included) is left exactly as it was.
        :class:`ScriptExhausted` means the scripted dice ran out: the scenario needs more faces.
        """
        parsed = self._parse(command)
        script = self._script
        saved = script.faces if script is not None else ()
        try:
            events = self.game.execute(parsed)
        except (ScriptExhausted, CommandRefused):
            self._rewind(script, saved)
            raise
        except (DiceError, TableError) as exc:
            self._rewind(script, saved)
            raise CommandRefused(str(exc)) from exc
        return _plain(events)

    def _parse(self, command: Mapping[str, Any]) -> Command:
        try:
            return self.game.parse_command(dict(command))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "the command"
            raise CommandRefused(f"Command {command.get('kind')!r}: {where}: {first['msg']}.") from exc

    def _rewind(self, script: ScriptedSource | None, faces: tuple[int, ...]) -> None:
        if script is not None:
            self.game.override = ScriptedSource(faces)

    def script_dice(self, faces: Iterable[int]) -> None:
        """Roll these faces next, in order, instead of the seeded dice (added after any still scripted).

        A d100 is two d10 faces, tens then units (``0, 0`` reads 100); a lone d10 face ``0``
        reads 10; a d6 face is 1-6. While faces are scripted, every roll takes the next one;
        running out raises :class:`ScriptExhausted`. :meth:`seeded_dice` goes back to the
        campaign's generator.
        """
        if self._script is None:
            self.game.override = ScriptedSource(list(faces))
        else:
            self._script.push(*faces)

    @property
    def scripted_left(self) -> int:
        """How many scripted faces are not rolled yet (0 when the dice are seeded)."""
        return self._script.remaining if self._script is not None else 0

    def seeded_dice(self) -> None:
        """Drop any scripted faces: rolls come from the campaign's seeded generator again."""
        self.game.override = None

    @property
    def policy(self) -> MissingRowPolicy:
        """What a table roll does on a row the tables lack: ``ask``, ``reroll`` or ``sample`` (see :meth:`new`)."""
        return self.game.policy

    @policy.setter
    def policy(self, policy: MissingRowPolicy | str) -> None:
        self.game.policy = policy_of(policy)

    @property
    def _script(self) -> ScriptedSource | None:
        override = self.game.override
        return override if isinstance(override, ScriptedSource) else None

    def undo(self) -> list[dict[str, Any]]:
        """Undo the last command (the dice are undone too); :class:`CommandRefused` if there is none."""
        return _plain(self.game.undo())

    def redo(self) -> list[dict[str, Any]]:
        """Do an undone command again (same dice); :class:`CommandRefused` if there is none."""
        return _plain(self.game.redo())

    # ------------------------------------------------------------------ reading
    @property
    def campaign(self) -> Campaign:
        """The whole campaign. Read it; change it only through :meth:`run`."""
        return self.game.campaign

    @property
    def character(self) -> Character | None:
        """The hero (being created, alive or dead), or None before ``create_character``."""
        return self.game.campaign.character

    @property
    def pending(self) -> list[PendingDecision]:
        """Decisions waiting for the player (a rolled test, an armour clash, a missing row...)."""
        return list(self.game.campaign.pending)

    def flow(self) -> dict[str, Any]:
        """Where the game is, what waits for the player and what may be done now, as plain dicts.

        ``phase`` (``no_hero``, ``creation``, ``ready``, ``quest``, ``town``, ``fallen``), ``fighting``,
        ``where`` (one line), ``quest`` / ``turn`` / ``step``; ``waiting``: each thing the game waits
        for (``id``, ``kind``, ``prompt``) with its ``answers``; ``actions``: everything else. An answer
        or action is ``key``, ``label``, ``command`` (a dict for :meth:`run`), ``enabled``, ``why``
        (what it does, or why not now), ``group`` and ``asks_row`` (its ``row`` must be typed first).
        Every waiting thing has at least one enabled answer. See ``docs/engine-api.md``.
        """
        return flow_of(self.game.campaign, self.game.rules, self.game.library).as_dict()

    def statistics(self, older: Callable[[int, int], Sequence[LogEntry]] | None = None) -> dict[str, Any]:
        """The campaign at a glance, from its log's typed events, as plain dicts.

        ``quests`` (one per attempt: outcome, turns, HP lost, gold and REP gained, areas mapped,
        fights won / fled / lost), ``quest_totals``, ``campaign`` (the figures after each quest,
        experience per track, Fate and Lives spent, deaths), ``fights`` (by monster: win rate,
        HP lost) and ``dice`` (each die kind's face counts with a chi-square fairness test, the
        app's dice and the physical ones apart). See ``docs/engine-api.md``.

        Incremental: each call folds only the entries run since the last one (an undo starts
        again). A campaign opened from its store holds only its newest entries: ``older(offset,
        limit)`` pages the others in (``CampaignStore.log_page``), read once.
        """
        campaign = self.game.campaign
        log, start = campaign.log, campaign.log_start
        stats = _kept_or_folded(campaign, self._stats, self._stats_last, Statistics, older)
        stats.fold_all(log[max(0, stats.next_index - start) :])
        self._stats, self._stats_last = stats, (log[-1] if log else None)
        return stats.figures()

    def chronicles(self, older: Callable[[int, int], Sequence[LogEntry]] | None = None) -> list[QuestChronicle]:
        """Every quest attempt's chronicle, in order, as typed data (:mod:`d100gui.engine.chronicle`).

        Each holds the quest and its outcome, its turns with their areas, fights (monster, rounds,
        HP lost, loot), finds, tests, time-track triggers, the sheet's changes from start to end,
        and ``dungeon``: the index of its mapping sheet in ``campaign.dungeons.dungeons``, closed at
        the quest's end, so the map as it stood then. Incremental and paged like :meth:`statistics`.
        """
        return self._chronicle_reader(older).chronicles()

    def chronicle(self, index: int, older: Callable[[int, int], Sequence[LogEntry]] | None = None) -> QuestChronicle:
        """Quest attempt ``index``'s chronicle (from 0, in the order of :meth:`chronicles`); ``IndexError`` if none."""
        return self._chronicle_reader(older).chronicle(index)

    def _chronicle_reader(self, older: Callable[[int, int], Sequence[LogEntry]] | None) -> ChronicleReader:
        campaign = self.game.campaign
        log, start = campaign.log, campaign.log_start
        reader = _kept_or_folded(campaign, self._chron, self._chron_last, ChronicleReader, older)
        reader.fold_all(log[max(0, reader.stats.next_index - start) :])
        self._chron, self._chron_last = reader, (log[-1] if log else None)
        return reader

    @property
    def combat(self) -> CombatState | None:
        """The fight in progress (``waiting`` says what it waits for), or None."""
        return self.game.campaign.combat

    @property
    def log(self) -> list[LogEntry]:
        """Every command run so far, with its rolls and events (what a saved campaign keeps).

        A campaign opened from its store holds only its newest entries (``campaign.log_start``
        says where they begin; the store pages the others).
        """
        return list(self.game.campaign.log)
