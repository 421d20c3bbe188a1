"""The fight as the command log tells it: rounds, steps, the dice of each step, how it ended.

Pure (no Qt): built from the events each :class:`~d100gui.engine.game.LogEntry` keeps (their
kind and payload) and the entry's :class:`~d100gui.engine.dice.dice.RollRecord` list. Which
entries make the fight comes from the events, never from the command's kind: a fight begins at
its ``combat_started`` event, whatever started it (the Combat menu, the dice panel's "Fight this
monster", the turn's fight, a move into a red area, a search, a door, a trap); an entry belongs to
it while it is on if it carries a fight's event or answers a decision the fight asked for, and
once it is over only the answers to its decisions (experience, choices) still do. A message is
only ever the *text* of a step; which round, which step, which dice and which outcome never
depend on it, so rewording the engine cannot break the panel.

:class:`FightTrail` reads a fight entry by entry as the log grows, so the panel reads each new
entry once; :func:`read_fight` reads the latest fight of a list of entries in one go.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from d100gui.engine.combat import events as combat_events
from d100gui.engine.combat.events import CombatOver, CombatRoll, CombatRound, CombatStarted, CombatTest, CombatWon, HeroDied
from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.fight_start import COMBAT_COMMANDS
from d100gui.engine.game import LogEntry
from d100gui.engine.protocol import Decision, Event, FateUsed, LegacyMessage, Payload

M = TypeVar("M", bound=BaseModel)

COMBAT_KINDS = frozenset(str(c.model_fields["kind"].default) for c in COMBAT_COMMANDS)
#: Commands that may come between a fight's commands and still belong to it (Fate on its
#: test, its experience pips and milestone choices). Kept for older callers: the record itself
#: finds a fight's entries by their events and the decisions they answer, never by kind.
FOLLOW_UP_KINDS = frozenset(
    {"use_fate", "accept_test", "assign_experience", "choose_target", "choose_outcome", "dismiss_decision"}
)
FIGHT_KINDS = COMBAT_KINDS | FOLLOW_UP_KINDS
#: Kept for older callers (see FOLLOW_UP_KINDS).
ACTION_KINDS = frozenset(
    {
        "start_combat",
        "combat_attack",
        "combat_change_weapon",
        "combat_cast_spell",
        "combat_use_belt",
        "combat_escape",
        "combat_block_escape",
        "combat_pass",
        "combat_perfect_aim",
        "combat_offset",
        "combat_choose_loot",
        "combat_provide_row",
        *FOLLOW_UP_KINDS,
    }
)
#: The event that begins a fight, whatever started it.
START_KIND = CombatStarted.event_kind
#: A sentence migrated from an old log (no kind, no payload to read).
LEGACY_KIND = LegacyMessage.event_kind
#: The event that opens a round (its payload names the round).
ROUND_KIND = CombatRound.event_kind
#: The events that end a fight; their payload's ``outcome`` says how.
OUTCOME_KINDS = frozenset({CombatOver.event_kind, HeroDied.event_kind})
#: The event of a defeated monster: a victory's summary starts there.
DEFEATED_KIND = CombatWon.event_kind
#: A Fate re-roll of the waiting roll.
FATE_KIND = FateUsed.event_kind
#: An event whose message is only the dice description of its roll (the dice are drawn).
BARE_ROLL_KIND = CombatRoll.event_kind
#: A combat test rolled (its decision id is the test's Fate window).
TEST_KIND = CombatTest.event_kind
#: The event that asks the player something.
DECISION_KIND = Decision.event_kind
#: Every event a fight emits (declared in the engine's combat events), its Fate re-rolls and its questions.
FIGHT_EVENT_KINDS = frozenset(
    {
        str(kind)
        for value in vars(combat_events).values()
        if isinstance(value, type) and issubclass(value, Payload) and (kind := getattr(value, "event_kind", None))
    }
    | {FATE_KIND, DECISION_KIND}
)


@dataclass
class Step:
    """One line of the round: a title, what followed, and the rolls (drawn as dice)."""

    title: str
    lines: list[str] = field(default_factory=list)
    rolls: list[RollRecord] = field(default_factory=list)
    kind: str = "note"  # "round", "action", "roll", "fate", "note"
    event: str = ""  # the kind of the event that opened the step


@dataclass
class Section:
    """The steps before the first round (``round`` 0) or of one round."""

    round: int
    steps: list[Step] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"Round {self.round}" if self.round else "Before the fight"


@dataclass
class FightRecord:
    """The fight as its log tells it: sections, every event, and how it ended ("" = not over)."""

    start: int  # log index of the start_combat entry
    end: int  # log index after the fight's last entry if only its follow-ups came after it, else -1
    sections: list[Section]
    events: list[Event]
    outcome: str = ""
    ending: list[str] = field(default_factory=list)  # the sentences that tell how it ended
    decisions: set[str] = field(default_factory=set)  # ids of the pending decisions the fight asked for

    @property
    def messages(self) -> list[str]:
        """Every sentence of the fight, in order (for a plain-text view)."""
        return [e.message for e in self.events if e.message]


# --------------------------------------------------------------------------- payload access


class Fields:
    """An event's payload fields: the typed payload when its kind is declared, else its data."""

    def __init__(self, event: Event) -> None:
        self.event = event
        try:
            self.payload: Payload | None = event.payload()
        except (KeyError, ValidationError):
            self.payload = None

    def get(self, name: str) -> Any:
        """Field ``name`` (None if the payload has no such field)."""
        value = getattr(self.payload, name, None) if self.payload is not None else None
        return self.event.data.get(name) if value is None else value

    def text(self, name: str) -> str:
        """Field ``name`` if it is text, else ""."""
        value = self.get(name)
        return value if isinstance(value, str) else ""

    def model(self, name: str, model: type[M]) -> M | None:
        """Field ``name`` as a ``model`` (typed already, or read from its JSON form); None if it is not one."""
        value = self.get(name)
        if isinstance(value, model):
            return value
        if isinstance(value, dict):
            try:
                return model.model_validate(value)
            except ValidationError:
                return None
        return None

    def table_roll(self) -> TableRoll | None:
        """The table roll the event carries (Table E, loot, curses), if any."""
        return self.model("table_roll", TableRoll)

    def rolls(self) -> list[RollRecord]:
        """Every roll the event carries, in the order they were made."""
        out: list[RollRecord] = []
        table = self.table_roll()
        if table is not None:
            out += [*table.discarded, table.roll]
        roll = self.model("roll", RollRecord)
        if roll is not None and not any(_same(roll, r) for r in out):
            out.insert(0, roll)
        return out


def outcome_of(event: Event) -> str:
    """How the fight ended, for an event of :data:`OUTCOME_KINDS` ("" for any other)."""
    if event.kind not in OUTCOME_KINDS:
        return ""
    return Fields(event).text("outcome") or "over"


def _roll_key(r: RollRecord) -> tuple[object, ...]:
    return (r.purpose, r.expression, r.natural, r.final, tuple(r.rerolled), tuple((d.sides, d.face, d.role) for d in r.dice))


def _same(a: RollRecord, b: RollRecord) -> bool:
    """The same roll (an event's copy of it and the entry's record compare equal this way)."""
    return _roll_key(a) == _roll_key(b)


def claim_rolls(fields: Fields, rolls: list[RollRecord], taken: set[int]) -> list[RollRecord]:
    """The entry's rolls the event carries (each roll of the entry is claimed once)."""
    out: list[RollRecord] = []
    for wanted in fields.rolls():
        index = next((i for i, r in enumerate(rolls) if i not in taken and _same(r, wanted)), None)
        if index is not None:
            taken.add(index)
            out.append(rolls[index])
    return out


# --------------------------------------------------------------------------- which entries


def _ended(entry: LogEntry) -> bool:
    return any(e.kind in OUTCOME_KINDS for e in entry.events)


def _legacy(entry: LogEntry) -> bool:
    """An entry migrated from a log of sentences only (schema 1): its events carry no kind to read."""
    return bool(entry.events) and all(e.kind == LEGACY_KIND for e in entry.events)


def starts_fight(entry: LogEntry) -> bool:
    """The entry began a fight (its ``combat_started`` event), whatever command it was. An entry migrated
    from sentences only has no event to tell: there (only) its command says it, as the old log did."""
    if any(e.kind == START_KIND for e in entry.events):
        return True
    return _legacy(entry) and entry.command.get("kind") == "start_combat"


def _fights_on(entry: LogEntry, decisions: set[str]) -> bool:
    """While a fight is on: the entry is one of its steps (a fight's event) or answers one of its questions."""
    if answered(entry) and answered(entry) in decisions:
        return True
    if _legacy(entry):
        return entry.command.get("kind") in FIGHT_KINDS
    return any(e.kind in FIGHT_EVENT_KINDS for e in entry.events)


def answered(entry: LogEntry) -> str:
    """The id of the pending decision the entry's command answered ("" if none)."""
    value = entry.command.get("decision")
    return value if isinstance(value, str) else ""


def fight_start_in(log: list[LogEntry]) -> int:
    """The index in ``log`` of the newest entry that began a fight, or -1."""
    return next((i for i in range(len(log) - 1, -1, -1) if starts_fight(log[i])), -1)


def ended_in(log: list[LogEntry]) -> int:
    """The index in ``log`` of the newest entry that ended a fight if only answers to decisions came
    after it, else -1. Looks at the newest entries only: after any other action it is -1 at once."""
    i = len(log) - 1
    while i >= 0 and not _ended(log[i]):
        if not answered(log[i]):
            return -1
        i -= 1
    return i


def _first_fight_event(entry: LogEntry) -> int:
    """Where the fight's events begin in the entry that started it: its ``combat_started`` and the
    fight's events just before it (the Table E roll that named the monster)."""
    starts = [i for i, e in enumerate(entry.events) if e.kind == START_KIND]
    if not starts:
        return 0  # a migrated entry: all of it
    at = starts[-1]
    while at > 0 and entry.events[at - 1].kind in FIGHT_EVENT_KINDS and entry.events[at - 1].kind != DECISION_KIND:
        at -= 1
    return at


def fight_entries(log: list[LogEntry]) -> tuple[int, list[int], int]:
    """The latest fight in the log: the index of the entry that began it, the indexes of its entries
    (other commands made during the fight, such as a sheet correction, are left out), and the
    index after its last entry *if* nothing but its follow-ups (answers to its decisions) came
    after it, else -1 (the game has moved on)."""
    start = fight_start_in(log)
    if start < 0:
        return -1, [], -1
    trail = FightTrail(start)
    for i in range(start, len(log)):
        trail.add(i, log[i])
    return start, trail.included, trail.end


class FightTrail:
    """One fight read entry by entry from the entry that began it (``start``, a log index).

    :meth:`add` takes the log's entries in order, each once; :meth:`record` is the fight so far.
    The panel keeps one while a fight is on or just over and adds the new entries of each action,
    so an action reads its own entry, not the fight again.
    """

    def __init__(self, start: int) -> None:
        self.start = start
        self.next = start  # the log index of the next entry to add
        self.included: list[int] = []
        self.over = False  # the fight has ended (an outcome event)
        self.moved_on = False  # something else than the fight's follow-ups came after its end
        self.reader = _Reader()
        self.last: LogEntry | None = None  # the last entry added (the panel checks it is still the log's)

    @property
    def end(self) -> int:
        """The log index after the fight's last entry while only its follow-ups came after it, else -1."""
        return -1 if self.moved_on else self.next

    def add(self, index: int, entry: LogEntry) -> None:
        """Read the log's entry ``index`` (the next one)."""
        self.next = index + 1
        self.last = entry
        if self.moved_on:
            return
        if index == self.start:
            self.included.append(index)
            self.reader.entry(entry, first_event=_first_fight_event(entry))
        elif self.over:
            if answered(entry) not in self.reader.decisions or not answered(entry):
                self.moved_on = True
                return
            self.included.append(index)
            self.reader.entry(entry)
        elif _fights_on(entry, self.reader.decisions):
            self.included.append(index)
            self.reader.entry(entry)
        else:
            return
        self.over = self.over or _ended(entry)

    def record(self) -> FightRecord:
        """The fight as read so far (its sections copied: adding more entries does not change it)."""
        outcome, ending = self.reader.ending()
        sections = [Section(round=s.round, steps=list(s.steps)) for s in self.reader.sections]
        if len(sections) > 1 and not sections[0].steps:
            sections.pop(0)
        return FightRecord(
            start=self.start,
            end=self.end,
            sections=sections,
            events=list(self.reader.events),
            outcome=outcome,
            ending=ending,
            decisions=set(self.reader.decisions),
        )


# --------------------------------------------------------------------------- steps


def is_prompt(event: Event | Fields, tests: set[str]) -> bool:
    """A "what now" question the panel's own buttons ask: the fight waits (the decision's
    ``waiting``: a roll's or a test's Fate window, step 2's action, ...). ``tests`` (the
    decision ids of the fight's tests) and a decision without an id cover logs written
    before decisions said what the fight waits for. Other decisions (experience pips,
    milestone choices) are steps of the fight."""
    fields = event if isinstance(event, Fields) else Fields(event)
    if fields.event.kind != DECISION_KIND:
        return False
    decision = fields.text("decision")
    return bool(fields.text("waiting") or fields.get("actions")) or not decision or decision in tests


def _roll_step(fields: Fields, rolls: list[RollRecord]) -> Step:
    """A step for an event that carries rolls: titled by the roll (or its table), the sentence as text."""
    event = fields.event
    text = event.message
    if event.kind == FATE_KIND:
        return Step(title="Fate", lines=[text] if text else [], rolls=rolls, kind="fate", event=event.kind)
    table = fields.table_roll()
    if table is not None:
        title = table.table_title
    else:
        title = rolls[0].purpose.replace(" (sample re-roll)", "") or rolls[0].expression
    rest = "" if event.kind == BARE_ROLL_KIND and table is None else text.removeprefix(f"{title}: ")
    return Step(title=title, lines=[rest] if rest else [], rolls=rolls, kind="roll", event=event.kind)


def _orphan_step(roll: RollRecord) -> Step:
    return Step(title=roll.purpose or roll.expression, lines=[roll.describe()], rolls=[roll], kind="roll")


@dataclass
class _Reader:
    """Walks the fight's entries once, building sections of steps."""

    sections: list[Section] = field(default_factory=lambda: [Section(round=0)])
    events: list[Event] = field(default_factory=list)
    tests: set[str] = field(default_factory=set)
    decisions: set[str] = field(default_factory=set)
    prompts: set[int] = field(default_factory=set)  # indexes in ``events`` of the fight's prompts

    def entry(self, entry: LogEntry, first_event: int = 0) -> None:
        """Read an entry's events (from ``first_event``: the entry that began the fight may have done
        other things first, such as the turn's move, whose rolls are not the fight's)."""
        # how the steps are laid out (a player's action opens a step; a continue adds to it) still follows
        # the command, as before; which entries are the fight's never does
        opens_step = first_event == 0 and str(entry.command.get("kind", "")) in ACTION_KINDS
        command = str(entry.command.get("kind", ""))
        taken: set[int] = set()
        first = True
        for event in entry.events[first_event:]:
            self.events.append(event)
            fields = Fields(event)
            decision = fields.text("decision")
            if decision:
                self.decisions.add(decision)
                if event.kind == TEST_KIND:
                    self.tests.add(decision)
            prompt = is_prompt(fields, self.tests)
            if prompt:
                self.prompts.add(len(self.events) - 1)
            rolls = claim_rolls(fields, entry.rolls, taken)
            if (prompt and not rolls) or not (event.message or rolls):
                continue  # the buttons ask it; or there is nothing to show
            self.event(fields, rolls, first and opens_step, command)
            first = False
        if first_event:
            return  # the rolls of what the entry did before the fight are not the fight's
        for i, roll in enumerate(entry.rolls):
            if i not in taken:
                self.sections[-1].steps.append(_orphan_step(roll))

    def event(self, fields: Fields, rolls: list[RollRecord], opens: bool, command: str) -> None:
        event, section = fields.event, self.sections[-1]
        if event.kind == ROUND_KIND:
            number = int(fields.get("round") or section.round + 1)
            step = Step(title=event.message or f"Round {number}", kind="round", event=event.kind)
            self.sections.append(Section(round=number, steps=[step]))
        elif rolls:
            section.steps.append(_roll_step(fields, rolls))
        elif opens or not section.steps:
            kind = "action" if opens and command != "start_combat" else "note"
            section.steps.append(Step(title=event.message, kind=kind, event=event.kind))
        else:
            section.steps[-1].lines.append(event.message)

    def ending(self) -> tuple[str, list[str]]:
        over = next((i for i, e in enumerate(self.events) if outcome_of(e)), -1)
        if over < 0:
            return "", []
        outcome = outcome_of(self.events[over])
        at = over
        if outcome == "won":
            at = next((i for i in range(over, -1, -1) if self.events[i].kind == DEFEATED_KIND), over)
        told = [e for i, e in enumerate(self.events[at : over + 1], start=at) if i not in self.prompts]
        return outcome, [e.message for e in told if e.message]


#: reads log entries ``offset .. offset + limit - 1`` that are not in memory (the campaign store's ``log_page``)
LogReader = Callable[[int, int], list[LogEntry]]
FIGHT_PAGE = 200  # entries read back at a time while looking for the fight's start


def _starts_fight(entries: list[LogEntry]) -> bool:
    return any(starts_fight(e) for e in entries)


def fight_log(log: list[LogEntry], start: int, older: LogReader | None, in_progress: bool) -> tuple[list[LogEntry], int]:
    """The entries to read the latest fight from, and the log index of the first of them.

    A campaign opened from its store keeps only its newest entries in memory (``log`` begins at
    entry ``start``). While a fight is on whose start is older than that, earlier pages are read
    back (``older``) until it is found, so the record covers the whole fight however long the
    campaign's log. Otherwise the entries in memory are enough: a fight that is over and older
    than them is not shown again, and nothing is read.
    """
    if not in_progress or older is None or start <= 0 or _starts_fight(log):
        return log, start
    pages: list[list[LogEntry]] = []
    at = start
    while at > 0:
        first = max(0, at - FIGHT_PAGE)
        page = older(first, at - first)
        if len(page) != at - first:
            break  # the store cannot give them: show what is in memory
        pages.append(page)
        at = first
        if _starts_fight(page):
            return [e for page in reversed(pages) for e in page] + list(log), at
    return log, start


def trail_at(log: list[LogEntry], start: int, older: LogReader | None, in_progress: bool) -> FightTrail | None:
    """The latest fight read whole (a :class:`FightTrail` in whole-log indexes), the store's older
    entries read back only while a fight is on (:func:`fight_log`); None if there is none."""
    entries, first = fight_log(log, start, older, in_progress)
    at = fight_start_in(entries)
    if at < 0:
        return None
    trail = FightTrail(first + at)
    for i in range(at, len(entries)):
        trail.add(first + i, entries[i])
    return trail


def read_fight_at(log: list[LogEntry], start: int, older: LogReader | None, in_progress: bool) -> FightRecord | None:
    """:func:`read_fight` over :func:`fight_log`, its ``start`` and ``end`` as indexes in the whole log."""
    trail = trail_at(log, start, older, in_progress)
    return trail.record() if trail is not None else None


def read_fight(log: list[LogEntry], titles: list[str] | None = None) -> FightRecord | None:
    """The latest fight in ``log`` as sections of steps, or None if there was none.

    ``titles`` is accepted for older callers and unused: steps are read from event data.
    """
    trail = trail_at(log, 0, None, False)
    return trail.record() if trail is not None else None
