"""A quest's chronicle: the story of one quest attempt, read from the log's typed events.

The chronicle is the document a player keeps of a quest: the quest and its outcome, its turns with
the areas they entered, its fights (monster, rounds, HP lost, loot), its finds, its tests, the
time track's triggers and the sheet's changes from the quest's start to its end. It is built
here as plain typed data (:class:`QuestChronicle`); rendering it (HTML, PDF) is not the engine's
job (``storage/chronicle_html.py``, ``ui/chronicle/``).

The walk is the statistics' walk: :class:`~d100gui.engine.stats.Statistics` folds every entry (it
decides where a quest attempt begins and ends, its figures and the sheet it ended with), and the
chronicle reads, beside it, only the event kinds the statistics do not keep (areas, finds, tests,
triggers, loot). Payloads only, never an event's sentence.

The map at the quest's end: each quest begins on a fresh mapping sheet (``quest_begun`` applies
``new_dungeon``) and its end closes that sheet, which no move enters again, so the sheet the
campaign holds now *is* the map as it stood at the end (a hand edit made to a closed sheet
afterwards shows too). :attr:`QuestChronicle.dungeon` is its index in ``campaign.dungeons``,
found by counting the sheets the log made; reading the undo journal back is never needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from d100gui.engine.game import LogEntry
from d100gui.engine.stats import CHARACTERISTICS, Statistics, death_words

#: the sheet's figures a chronicle compares from the quest's start to its end, with their names
SHEET_FIGURES: tuple[tuple[str, str], ...] = (
    ("hp", "HP"),
    ("gp", "Gold"),
    ("rep", "REP"),
    ("fate", "Fate"),
    ("lives", "Lives"),
    *((s, s) for s in CHARACTERISTICS),
)
#: the fight outcomes (``combat_over.outcome``, and ``died``) as a chronicle names them
FIGHT_OUTCOMES = {
    "won": "won",
    "hero_escaped": "fled",
    "monster_escaped": "the monster escaped",
    "died": "the hero died",
}
#: how a spell came up in a quest, as a chronicle names it
SPELL_WAYS = {
    "book": "cast from the spell book",
    "scroll": "cast from a scroll",
    "fight": "cast in a fight",
    "learned": "learned",
    "removed": "removed from the spell book",
}
#: how an item was gained, lost or used, as a chronicle names it
ITEM_CHANGES = {
    "added": "written on the sheet",
    "destroyed": "destroyed",
    "belt_check": "lost to a Belt Check",
    "curse": "destroyed by a curse",
    "discarded": "rubbed off the sheet",
    "belt": "used from the belt",
}
#: the quest outcomes as a chronicle names them
QUEST_OUTCOMES = {
    "success": "completed",
    "failure": "failed",
    "died": "the hero died",
    "in_progress": "in progress",
}


@dataclass(frozen=True)
class ChronicleArea:
    """An area a turn entered: where, its colour, whether it was mapped then, and what it held."""

    pos: str
    colour: str
    placed: bool
    outcome: str = ""  # area_resolved's outcome (proceed, encounter, geographic, objective...)
    searched: bool = False


@dataclass(frozen=True)
class ChronicleTest:
    """A test (a trap, a lock, a find's test; in a fight, its own tests): its name, target, natural roll and result."""

    name: str
    target: int | None
    natural: int | None
    success: bool
    turn: int
    area: str
    entry: int


@dataclass(frozen=True)
class ChronicleFight:
    """One fight: the monster, how it ended, its rounds, the HP the hero lost and the loot taken."""

    monster: str
    outcome: str  # won, hero_escaped, monster_escaped, died (see FIGHT_OUTCOMES)
    rounds: int
    hp_lost: int
    loot: tuple[str, ...]
    turn: int
    area: str
    entry: int
    tests: tuple[ChronicleTest, ...] = ()  # the fight's own tests (SURPRISE, attack, ESCAPE...), as rolled


@dataclass(frozen=True)
class ChronicleFind:
    """A find: a search's Table F row, a row an effect applied, or an item stowed on the sheet."""

    source: str  # "search", "table" or "stowed"
    table: str  # the table's title ("" for a stowed item)
    roll: int | None
    what: str  # the row's name or text, or the item's name
    effect: str  # the row's printed effect, if it has one
    turn: int
    area: str
    entry: int


@dataclass(frozen=True)
class ChronicleSpell:
    """A spell cast (from the book, a scroll, or in a fight) or learned, and whether the cast worked."""

    spell: str
    how: str  # book, scroll, fight (cast), learned, removed (see SPELL_WAYS)
    success: bool | None  # None: not a cast, or the cost killed the caster before the test, or still under way
    turn: int
    area: str
    entry: int


@dataclass(frozen=True)
class ChronicleCurse:
    """A curse (Table C) after a failed CAST SPELL: its row, its roll and the items it destroyed."""

    curse: str
    roll: int | None
    destroyed: tuple[str, ...]
    in_fight: bool
    turn: int
    area: str
    entry: int


@dataclass(frozen=True)
class ChronicleItem:
    """An item the sheet gained or lost during the quest (a fight's loot and a find's items are listed there)."""

    item: str  # "" when the event does not name it (an item rubbed off in a log from before item_discarded named it)
    change: str  # gained, lost or used (see ITEM_CHANGES)
    how: str  # added, destroyed, belt_check, curse, discarded, belt
    where: str
    turn: int
    area: str
    entry: int


@dataclass(frozen=True)
class ChronicleTrigger:
    """A time-track trigger that fired: oil, food, a wandering-monster check, the refresh, poison or disease."""

    kind: str  # oil, food, wandering, refresh, poison, disease
    clock: int | None
    detail: dict[str, Any]  # the payload's figures (oil left, HP lost, the check's number and whether it appeared...)
    turn: int
    area: str
    entry: int


@dataclass(frozen=True)
class ChronicleTurn:
    """One turn and the areas it entered (turn 0: entering the dungeon, before the first move)."""

    number: int
    areas: tuple[ChronicleArea, ...]
    first_entry: int
    last_entry: int


@dataclass(frozen=True)
class SheetChange:
    """One figure of the sheet at the quest's start and at its end."""

    key: str
    label: str
    before: int | None
    after: int | None

    @property
    def delta(self) -> int | None:
        return self.after - self.before if self.before is not None and self.after is not None else None


@dataclass(frozen=True)
class QuestChronicle:
    """One quest attempt's chronicle (``index`` is its place among the campaign's attempts, from 0)."""

    index: int
    number: int  # 1-based, as the statistics number quests
    name: str
    attempt: int
    objective: str
    encounter_modifier: int
    outcome: str  # success, failure, died, in_progress (see QUEST_OUTCOMES)
    reward: str
    costs: tuple[str, ...]
    death: str  # the cause, when the hero died in this quest
    figures: dict[str, Any]  # the statistics' figures of this attempt (turns, HP lost, gold, REP, areas, fights)
    turns: tuple[ChronicleTurn, ...]
    fights: tuple[ChronicleFight, ...]
    finds: tuple[ChronicleFind, ...]
    tests: tuple[ChronicleTest, ...]
    triggers: tuple[ChronicleTrigger, ...]
    spells: tuple[ChronicleSpell, ...]
    curses: tuple[ChronicleCurse, ...]
    items: tuple[ChronicleItem, ...]
    sheet: tuple[SheetChange, ...]
    experience: dict[str, int]  # experience pips gained per track during the quest
    fate_spent: int
    lives_spent: int
    dungeon: int | None  # the quest's mapping sheet: its index in campaign.dungeons.dungeons (None if unknown)
    first_entry: int
    last_entry: int

    @property
    def outcome_text(self) -> str:
        return QUEST_OUTCOMES.get(self.outcome, self.outcome)


def _row_words(roll: Any) -> tuple[str, str, int | None, str]:
    """A kept ``TableRoll`` (as its JSON) read as (table title, the row's name or text, the roll, its effect)."""
    if not isinstance(roll, Mapping):
        return "", "", None, ""
    row = roll.get("row") or {}
    fields = row.get("fields") or {} if isinstance(row, Mapping) else {}
    named = next((str(fields[k]) for k in ("name", "item", "part", "result") if fields.get(k)), "")
    what = named or str(row.get("text") or "") if isinstance(row, Mapping) else ""
    final = (roll.get("roll") or {}).get("final")
    return (
        str(roll.get("table_title") or ""),
        what,
        int(final) if isinstance(final, int) else None,
        str(fields.get("effect") or ""),
    )


@dataclass
class _Draft:
    """A quest attempt being read: what the statistics do not keep."""

    index: int
    start: dict[str, Any]
    dungeon: int | None
    objective: str = ""
    encounter_modifier: int = 0
    reward: str = ""
    costs: tuple[str, ...] = ()
    death: str = ""
    turn: int = 0
    area: str = ""
    turns: list[ChronicleTurn] = field(default_factory=list)
    areas: list[ChronicleArea] = field(default_factory=list)
    turn_first: int = -1
    fights: list[ChronicleFight] = field(default_factory=list)
    fight: dict[str, Any] | None = None  # the fight under way: monster, loot, turn, area, entry
    finds: list[ChronicleFind] = field(default_factory=list)
    tests: list[ChronicleTest] = field(default_factory=list)
    triggers: list[ChronicleTrigger] = field(default_factory=list)
    spells: list[ChronicleSpell] = field(default_factory=list)
    casting: int = -1  # the fight's spell under way: its place in ``spells`` (-1: none)
    curses: list[ChronicleCurse] = field(default_factory=list)
    items: list[ChronicleItem] = field(default_factory=list)
    experience: dict[str, int] = field(default_factory=dict)
    fate_spent: int = 0
    lives_spent: int = 0
    last_entry: int = -1

    def close_turn(self) -> None:
        if self.turn_first >= 0:
            self.turns.append(ChronicleTurn(self.turn, tuple(self.areas), self.turn_first, self.last_entry))
        self.areas, self.turn_first = [], -1

    def area_event(self, pos: str, colour: str, placed: bool) -> None:
        self.area = pos
        self.areas.append(ChronicleArea(pos, colour, placed))

    def resolved(self, pos: str, colour: str, outcome: str) -> None:
        for i in range(len(self.areas) - 1, -1, -1):
            if self.areas[i].pos == pos:
                a = self.areas[i]
                self.areas[i] = ChronicleArea(a.pos, a.colour or colour, a.placed, outcome or a.outcome, a.searched)
                return
        self.areas.append(ChronicleArea(pos, colour, False, outcome))
        self.area = pos

    def searched(self, pos: str, colour: str) -> None:
        for i in range(len(self.areas) - 1, -1, -1):
            if self.areas[i].pos == pos:
                a = self.areas[i]
                self.areas[i] = ChronicleArea(a.pos, a.colour, a.placed, a.outcome, True)
                return
        self.areas.append(ChronicleArea(pos, colour, False, "", True))


class ChronicleReader:
    """Reads a log, one entry at a time, into the chronicles of its quest attempts.

    Folds each entry through one :class:`Statistics` (the quests' bounds and figures) and reads
    the chronicle's own events beside it; entries must come in log order, each once.
    """

    def __init__(self) -> None:
        self.stats = Statistics()
        self._drafts: list[_Draft] = []
        self._dungeons = 0  # mapping sheets the log made so far (new_dungeon, and one per quest begun)

    def fold_all(self, entries: Iterable[LogEntry]) -> ChronicleReader:
        for entry in entries:
            self.fold(entry)
        return self

    def fold(self, entry: LogEntry) -> None:
        """Read one log entry: its quest's bounds from the statistics, its story from its events."""
        events = [(event.kind, event.data) for event in entry.events]
        self.fold_events(entry.index, str(entry.command.get("kind", "")), events)

    @staticmethod
    def kinds() -> list[str]:
        """The event kinds a chronicle reads (its own and the statistics'), sorted: a reader of the log's rows
        may hand :meth:`fold_events` only these (and every ``new_dungeon`` command, whatever its events)."""
        return sorted(set(_READERS) | set(Statistics.kinds()))

    def fold_events(self, index: int, command: str, events: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Read log entry ``index``: its command's kind and its events (kind, payload), in order. Entries
        skipped between two calls (none of :meth:`kinds`, no new sheet) are counted as read. The
        statistics inside count no dice (a chronicle shows none)."""
        if index < self.stats.next_index:
            return
        begun = [i for i, (kind, _data) in enumerate(events) if kind == "quest_begun"]
        start: dict[str, Any] = {}
        if begun:
            start = self.stats.sheet()  # the sheet as the quest begins (before its entry's events)
        if command == "new_dungeon":
            self._dungeons += 1
        self.stats.fold_events(index, events)
        span = self.stats.last_quest_span()
        if span is None:
            return
        number, _first, last = span
        if begun:
            self._drafts.append(_Draft(number - 1, start, self._dungeons))
            self._dungeons += 1
        if last != index or not self._drafts or self._drafts[-1].index != number - 1:
            return  # an entry between quests (the town, creation)
        draft = self._drafts[-1]
        draft.last_entry = index
        after = begun[-1] if begun else 0
        for kind, data in events[after:]:
            handler = _READERS.get(kind)
            if handler is not None:
                handler(draft, data, index)

    def counted_up_to(self, end: int) -> None:
        """Entries below ``end`` are all read (the last ones held nothing a chronicle reads)."""
        self.stats.counted_up_to(end)
        if self._drafts and self.stats.last_quest_span() is not None:
            number, _first, last = self.stats.last_quest_span() or (0, 0, 0)
            if self._drafts[-1].index == number - 1:
                self._drafts[-1].last_entry = last

    def chronicles(self) -> list[QuestChronicle]:
        """Every quest attempt read so far, in order (the last one may be in progress)."""
        quests = self.stats.figures()["quests"]
        now = self.stats.sheet()
        return [self._chronicle(d, quests[d.index], now) for d in self._drafts]

    def chronicle(self, index: int) -> QuestChronicle:
        """Quest attempt ``index`` (from 0); ``IndexError`` if the log holds no such attempt."""
        if not 0 <= index < len(self._drafts):
            raise IndexError(f"the campaign has {len(self._drafts)} quest attempt(s); there is no number {index + 1}")
        draft = self._drafts[index]
        return self._chronicle(draft, self.stats.figures()["quests"][index], self.stats.sheet())

    @staticmethod
    def _chronicle(draft: _Draft, quest: dict[str, Any], now: dict[str, Any]) -> QuestChronicle:
        end = quest["end"] or now  # a quest in progress: the sheet as it is now
        turns = list(draft.turns)
        if draft.turn_first >= 0:
            turns.append(ChronicleTurn(draft.turn, tuple(draft.areas), draft.turn_first, draft.last_entry))
        fights = list(draft.fights)
        if draft.fight is not None:  # a fight still under way
            f = draft.fight
            fights.append(
                ChronicleFight(
                    f["monster"], "in_progress", 0, 0, tuple(f["loot"]), f["turn"], f["area"], f["entry"], tuple(f["tests"])
                )
            )
        return QuestChronicle(
            index=draft.index,
            number=int(quest["number"]),
            name=str(quest["name"]),
            attempt=int(quest["attempt"]),
            objective=draft.objective,
            encounter_modifier=draft.encounter_modifier,
            outcome=str(quest["outcome"]),
            reward=draft.reward,
            costs=draft.costs,
            death=draft.death,
            figures=dict(quest),
            turns=tuple(turns),
            fights=tuple(fights),
            finds=tuple(draft.finds),
            tests=tuple(draft.tests),
            triggers=tuple(draft.triggers),
            spells=tuple(draft.spells),
            curses=tuple(draft.curses),
            items=tuple(draft.items),
            sheet=tuple(SheetChange(k, label, draft.start.get(k), end.get(k)) for k, label in SHEET_FIGURES),
            experience=dict(sorted(draft.experience.items())),
            fate_spent=draft.fate_spent,
            lives_spent=draft.lives_spent,
            dungeon=draft.dungeon,
            first_entry=int(quest["first_entry"]),
            last_entry=int(quest["last_entry"]),
        )


# --------------------------------------------------------------------------- the events a chronicle reads


def _quest_begun(d: _Draft, data: dict[str, Any], at: int) -> None:
    d.objective = str(data.get("objective") or "")
    d.encounter_modifier = int(data.get("encounter_modifier") or 0)
    d.turn_first = at  # turn 0: entering the dungeon


def _turn_moved(d: _Draft, data: dict[str, Any], at: int) -> None:
    number = int(data.get("number") or 0)
    if number != d.turn or d.turn_first < 0:
        d.close_turn()
        d.turn, d.turn_first = number, at
    d.area_event(str(data.get("pos") or ""), str(data.get("colour") or ""), bool(data.get("placed")))


def _turn_ended(d: _Draft, data: dict[str, Any], at: int) -> None:
    """The next turn begins: the time it shades and what that triggers belong to it, before its move."""
    d.close_turn()
    d.turn, d.turn_first = int(data.get("number") or d.turn) + 1, at


def _area_resolved(d: _Draft, data: dict[str, Any], _at: int) -> None:
    d.resolved(str(data.get("pos") or ""), str(data.get("colour") or ""), str(data.get("outcome") or ""))


def _area_searched(d: _Draft, data: dict[str, Any], at: int) -> None:
    pos = str(data.get("pos") or d.area)
    d.searched(pos, str(data.get("colour") or ""))
    table, what, roll, effect = _row_words(data.get("table_roll"))
    d.finds.append(ChronicleFind("search", table, roll, what, effect, d.turn, pos, at))


def _row_applied(d: _Draft, data: dict[str, Any], at: int) -> None:
    table, what, roll, effect = _row_words(data.get("table_roll"))
    items = [str(i) for i in data.get("items") or []]
    what = str(data.get("name") or "") or what
    if items:
        what = f"{what}: {', '.join(items)}" if what else ", ".join(items)
    d.finds.append(ChronicleFind("table", table, roll, what, effect, d.turn, d.area, at))


def _loot_stowed(d: _Draft, data: dict[str, Any], at: int) -> None:
    item = data.get("item") or {}
    name = str(item.get("name") or "") if isinstance(item, Mapping) else str(item)
    if d.fight is not None:
        return  # the fight's loot, counted with the fight
    d.finds.append(ChronicleFind("stowed", "", None, name, "", d.turn, d.area, at))


def _combat_started(d: _Draft, data: dict[str, Any], at: int) -> None:
    monster = data.get("monster") or {}
    name = str(monster.get("name") or "?") if isinstance(monster, Mapping) else "?"
    d.fight = {"monster": name, "loot": [], "turn": d.turn, "area": d.area, "entry": at, "tests": []}


def _combat_loot(d: _Draft, data: dict[str, Any], _at: int) -> None:
    item = str(data.get("item") or "") or _row_words(data.get("table_roll"))[1]
    if d.fight is not None and item:
        d.fight["loot"].append(item)


def _combat_over(d: _Draft, data: dict[str, Any], at: int) -> None:
    f = d.fight or {"monster": "?", "loot": [], "turn": d.turn, "area": d.area, "entry": at, "tests": []}
    d.fights.append(
        ChronicleFight(
            f["monster"],
            str(data.get("outcome") or ""),
            int(data.get("rounds") or 0),
            int(data.get("hp_lost") or 0),
            tuple(f["loot"]),
            f["turn"],
            f["area"],
            f["entry"],
            tuple(f["tests"]),
        )
    )
    d.fight = None


def _died(d: _Draft, data: dict[str, Any], at: int) -> None:
    cause = str(data.get("reason") or data.get("source") or "")
    d.death = death_words(cause, d.fight["monster"] if d.fight is not None else "")  # the statistics' words
    if d.fight is not None:
        f = d.fight
        d.fights.append(
            ChronicleFight(f["monster"], "died", 0, 0, tuple(f["loot"]), f["turn"], f["area"], f["entry"], tuple(f["tests"]))
        )
        d.fight = None


def _int_or_none(value: Any) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _combat_test(d: _Draft, data: dict[str, Any], at: int) -> None:
    """A fight's own test (SURPRISE, FEAR, attack, ESCAPE...), listed with its fight, as rolled (before any Fate)."""
    if d.fight is None:
        return
    roll = data.get("roll")
    natural = roll.get("natural") if isinstance(roll, Mapping) else None
    test = ChronicleTest(
        str(data.get("test") or ""),
        _int_or_none(data.get("target")),
        _int_or_none(natural),
        bool(data.get("success")),
        d.turn,
        d.area,
        at,
    )
    d.fight["tests"].append(test)


def _spell_cast(d: _Draft, data: dict[str, Any], at: int) -> None:
    """A spell cast outside a fight (``magic_cast``): from the book or a scroll, and whether CAST SPELL passed."""
    success = data.get("success")
    how = "scroll" if data.get("source") == "scroll" else "book"
    d.spells.append(
        ChronicleSpell(str(data.get("spell") or ""), how, success if isinstance(success, bool) else None, d.turn, d.area, at)
    )


def _combat_cast(d: _Draft, data: dict[str, Any], at: int) -> None:
    """A spell in a fight: begun (``cast``), then ``failed``, or ``queued`` / ``effect`` (it worked)."""
    spell, stage = str(data.get("spell") or ""), str(data.get("stage") or "cast")
    if stage == "cast" or d.casting < 0:
        d.spells.append(ChronicleSpell(spell, "fight", None, d.turn, d.area, at))
        d.casting = len(d.spells) - 1
    if stage != "cast":
        s = d.spells[d.casting]
        d.spells[d.casting] = ChronicleSpell(s.spell or spell, s.how, stage != "failed", s.turn, s.area, s.entry)
        d.casting = -1


def _spell_learned(d: _Draft, data: dict[str, Any], at: int) -> None:
    d.spells.append(ChronicleSpell(str(data.get("spell") or ""), "learned", None, d.turn, d.area, at))


def _spell_removed(d: _Draft, data: dict[str, Any], at: int) -> None:
    d.spells.append(ChronicleSpell(str(data.get("spell") or ""), "removed", None, d.turn, d.area, at))


def _curse(d: _Draft, name: str, roll: Any, destroyed: list[str], at: int) -> None:
    _table, what, number, effect = _row_words(roll)
    curse = name or what or effect
    d.curses.append(ChronicleCurse(curse, number, tuple(destroyed), d.fight is not None, d.turn, d.area, at))
    for item in destroyed:
        d.items.append(ChronicleItem(item, "lost", "curse", "", d.turn, d.area, at))


def _magic_curse(d: _Draft, data: dict[str, Any], at: int) -> None:
    """Table C applied outside a fight (``magic_curse``: its result names the curse and the items destroyed)."""
    result = data.get("result")
    if not isinstance(result, Mapping) or result.get("missing"):
        return  # the row is to be typed in: nothing applied yet
    destroyed = [str(i) for i in result.get("destroyed") or [] if i]
    _curse(d, str(result.get("curse") or ""), result.get("table_roll"), destroyed, at)


def _combat_curse(d: _Draft, data: dict[str, Any], at: int) -> None:
    """Table C in a fight (``combat_curse``): its row; the items it destroys come as ``combat_item_destroyed``."""
    _curse(d, "", data.get("table_roll"), [], at)


def _item(change: str, how: str, name_key: str) -> Any:
    def read(d: _Draft, data: dict[str, Any], at: int) -> None:
        item = str(data.get(name_key) or "")
        if not item and how != "discarded":
            return  # a Belt Check on an empty place, an event naming no item: nothing changed hands
        where = str(data.get("to") or data.get("where") or "")
        d.items.append(ChronicleItem(item, change, how, where, d.turn, d.area, at))

    return read


def _test_settled(d: _Draft, data: dict[str, Any], at: int) -> None:
    if d.fight is not None:
        return  # a fight's own tests (attack, surprise) belong to the fight
    natural, target = data.get("natural"), data.get("target")
    d.tests.append(
        ChronicleTest(
            str(data.get("name") or ""),
            int(target) if isinstance(target, int) else None,
            int(natural) if isinstance(natural, int) else None,
            bool(data.get("success")),
            d.turn,
            d.area,
            at,
        )
    )


def _trigger(kind: str, keys: tuple[str, ...]) -> Any:
    def read(d: _Draft, data: dict[str, Any], at: int) -> None:
        clock = data.get("clock")
        detail = {k: data[k] for k in keys if k in data}
        d.triggers.append(ChronicleTrigger(kind, int(clock) if isinstance(clock, int) else None, detail, d.turn, d.area, at))

    return read


def _affliction(d: _Draft, data: dict[str, Any], at: int) -> None:
    kind = str(data.get("track") or "affliction")
    detail: dict[str, Any] = {k: data[k] for k in ("pips", "hit", "hp_lost", "pips_after") if k in data}
    d.triggers.append(ChronicleTrigger(kind, None, detail, d.turn, d.area, at))


def _experience(d: _Draft, data: dict[str, Any], _at: int) -> None:
    track = str(data.get("track") or "")
    if track:
        d.experience[track] = d.experience.get(track, 0) + 1


def _fate(d: _Draft, _data: dict[str, Any], _at: int) -> None:
    d.fate_spent += 1


def _life(d: _Draft, _data: dict[str, Any], _at: int) -> None:
    d.lives_spent += 1


def _death_cheated(d: _Draft, data: dict[str, Any], at: int) -> None:
    if data.get("how") == "life":
        _life(d, data, at)


def _completed(d: _Draft, data: dict[str, Any], _at: int) -> None:
    d.reward = str(data.get("reward") or "")


def _failed(d: _Draft, data: dict[str, Any], _at: int) -> None:
    d.costs = tuple(str(c) for c in data.get("costs") or [])


_READERS = {
    "quest_begun": _quest_begun,
    "quest_completed": _completed,
    "quest_failed": _failed,
    "turn_moved": _turn_moved,
    "turn_ended": _turn_ended,
    "area_resolved": _area_resolved,
    "area_searched": _area_searched,
    "table_row_applied": _row_applied,
    "loot_stowed": _loot_stowed,
    "combat_started": _combat_started,
    "combat_loot": _combat_loot,
    "combat_over": _combat_over,
    "hero_died": _died,
    "hero_fell": _died,
    "test_settled": _test_settled,
    "combat_test": _combat_test,
    "magic_cast": _spell_cast,
    "combat_cast": _combat_cast,
    "magic_spell_learned": _spell_learned,
    "magic_spell_removed": _spell_removed,
    "magic_curse": _magic_curse,
    "combat_curse": _combat_curse,
    "item_added": _item("gained", "added", "item"),
    "item_discarded": _item("lost", "discarded", "item"),
    "combat_item_destroyed": _item("lost", "destroyed", "item"),
    "combat_belt_check": _item("lost", "belt_check", "item"),
    "belt_check": _item("lost", "belt_check", "destroyed"),
    "combat_belt": _item("used", "belt", "item"),
    "oil_burned": _trigger("oil", ("spent", "oil", "in_darkness", "lit_again")),
    "food_eaten": _trigger("food", ("spent", "food", "hp_lost", "hp")),
    "wandering_checked": _trigger("wandering", ("number", "appeared")),
    "time_track_refreshed": _trigger("refresh", ("bonuses_cleared",)),
    "affliction_checked": _affliction,
    "experience": _experience,
    "fate_used": _fate,
    "combat_life": _life,
    "death_cheated": _death_cheated,
}


def chronicles_of(entries: Iterable[LogEntry]) -> list[QuestChronicle]:
    """The chronicles of every quest attempt of a whole log (a headless tool's shortcut)."""
    return ChronicleReader().fold_all(entries).chronicles()
