"""The adventure log: one line per event of the campaign's log, read from the events' kinds and payloads.

A line knows its action (the log entry), its kind of news (:data:`CATEGORIES`: fights, finds,
time, doors, money), the dice its payload carries, and the map area where it happened: the
area the hero stood in, followed through the payloads that name one (``pos``). Nothing is
read from the sentences, which are only shown.

:class:`LogBook` grows as the log does and is cut back when an undo takes entries off, so a
view costs the same at 100 or 100,000 entries. :func:`to_markdown` and :func:`to_html`
export the lines.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dungeon.map import DOOR_TABLE
from d100gui.engine.game import LogEntry
from d100gui.engine.protocol import Event, Payload

Category = Literal["fights", "finds", "time", "doors", "money", "other"]
#: the kinds of news the log can be filtered by, with their names
CATEGORIES: dict[Category, str] = {
    "fights": "Fights",
    "finds": "Finds",
    "time": "Time",
    "doors": "Doors",
    "money": "Money",
    "other": "Other",
}
_BY_KIND: dict[str, Category] = {
    **dict.fromkeys(
        ("fight_offered", "escaped_monster_here", "death_cheated", "hero_fell", "hero_died", "fallen", "hp_zero"), "fights"
    ),
    **dict.fromkeys(
        (
            "area_searched",
            "table_rolled",
            "item_added",
            "backpacked",
            "combat_loot",
            "objective",
            "area_resolved",
            "loot_stowed",
            "loot_waiting",
            "loot_settled",
            "table_row_applied",
            "typed_row_applied",
            "repair_shaded",
            "feature_note",
            "follow_up_rolled",
        ),
        "finds",
    ),
    **dict.fromkeys(
        (
            "time_advanced",
            "oil_burned",
            "food_eaten",
            "wandering_checked",
            "time_track_refreshed",
            "affliction_checked",
            "lantern_lit",
            "time",
            "time_track_bonus",
        ),
        "time",
    ),
    "door_row_missing": "doors",
    "door_tried": "doors",
    "gp": "money",
}
#: the events that name a dice-history entry (``index``): their table says what they are about
_HISTORY_KINDS = frozenset({"roll_made", "row_missing"})
_QUIET_AREAS = frozenset({"proceed", "mapped"})
_DOOR_COMMANDS = frozenset({"open_door", "set_door", "resolve_door_row", "try_door"})


def category_of(event: Event, command_kind: str = "", table_id: str = "") -> Category:
    """Which kind of news ``event`` is (a fight, a find, time, a door, money), from its kind and its command's.

    ``table_id`` is the table a roll's dice-history entry was made on (a Table D roll is a door's)."""
    if table_id and table_id == DOOR_TABLE:
        return "doors"
    if event.kind == "area_resolved" and event.data.get("outcome") in _QUIET_AREAS:
        return "other"  # a yellow area, or one mapped before: nothing was found there
    if event.kind in _BY_KIND:
        return _BY_KIND[event.kind]
    if event.topic == "combat" or event.kind.startswith("combat_"):
        return "fights"
    if command_kind in _DOOR_COMMANDS:
        return "doors"
    return "other"


def _dice_of(payload: Payload) -> str:
    """The dice a payload carries (a table roll or a roll), as the log shows them."""
    parts: list[str] = []
    for name in type(payload).model_fields:
        value = getattr(payload, name)
        if isinstance(value, TableRoll):
            parts.append(value.roll.describe())
        elif isinstance(value, RollRecord):
            parts.append(value.describe())
    return "; ".join(parts)


@dataclass(slots=True)
class LogLine:
    """One event of the log as the adventure log shows it (its dice are read from the payload when shown)."""

    entry: int  # the log entry (action) it belongs to
    command: str  # that action's command kind
    event: Event
    category: Category
    area: str = ""  # "col,row" of the area it happened in ("" before the hero is in a dungeon)
    dungeon: int = -1  # which dungeon of the campaign (its index), -1 when unknown

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def text(self) -> str:
        return self.event.message or self.event.kind.replace("_", " ")

    @property
    def dice(self) -> str:
        """The dice the event's payload carries ("" for none)."""
        payload = _payload(self.event)
        return _dice_of(payload) if payload is not None else ""


class LogBook:
    """The lines of a campaign's log, kept in step with it: :meth:`extend` with new entries, :meth:`truncate` after an undo."""

    def __init__(self, table_of: Callable[[int], str] | None = None) -> None:
        """``table_of``: the table id of dice-history entry N ("" for a plain roll), for the rolls' events."""
        self.table_of = table_of
        self.lines: list[LogLine] = []
        self.entries = 0  # log entries read so far
        self._area = ""
        self._dungeon = -1
        self._dungeons = 0
        self._marks: list[tuple[int, str, int, int]] = []  # per entry: lines before it, area, dungeon, dungeons made

    def extend(self, entries: Iterable[LogEntry]) -> list[LogLine]:
        """Read further log entries; returns the lines they added."""
        added: list[LogLine] = []
        for entry in entries:
            self._marks.append((len(self.lines) + len(added), self._area, self._dungeon, self._dungeons))
            added += self._read(entry)
            self.entries += 1
        self.lines += added
        return added

    def truncate(self, entries: int) -> None:
        """Forget every entry from ``entries`` on (an undo took them off the log)."""
        if entries >= self.entries:
            return
        lines, self._area, self._dungeon, self._dungeons = self._marks[entries]
        del self.lines[lines:]
        del self._marks[entries:]
        self.entries = entries

    def _read(self, entry: LogEntry) -> list[LogLine]:
        command = str(entry.command.get("kind", ""))
        if command == "new_dungeon":
            self._dungeon, self._dungeons, self._area = self._dungeons, self._dungeons + 1, ""
        elif command == "select_dungeon":
            self._dungeon, self._area = int(entry.command.get("index", 0)), ""
        out = []
        told = _tables_told(entry)
        for event in entry.events:
            if event.kind == "roll_made" and told and self._table(event) in told:
                continue  # the dice history's copy of a roll another line of the action tells, with its dice
            pos = event.data.get("pos")  # the payload's field, as the log keeps it
            if isinstance(pos, str) and pos:
                self._area = pos
            category = category_of(event, command, self._table(event))
            out.append(LogLine(entry.index, command, event, category, self._area, self._dungeon))
        return out

    def _table(self, event: Event) -> str:
        """The table a roll event's dice-history entry was made on ("" when unknown)."""
        index = event.data.get("index") if event.kind in _HISTORY_KINDS else None
        if self.table_of is None or not isinstance(index, int):
            return ""
        return self.table_of(index)


def _tables_told(entry: LogEntry) -> frozenset[str]:
    """The tables whose rolls an action's events carry themselves (``table_roll``, read from the kept fields)."""
    found = set()
    for event in entry.events:
        roll = event.data.get("table_roll")
        if isinstance(roll, dict) and roll.get("table_id"):
            found.add(str(roll["table_id"]))
    return frozenset(found)


def _payload(event: Event) -> Payload | None:
    try:
        return event.payload()
    except (KeyError, ValueError):
        return None  # an event of a kind this version does not declare: shown by its message


def matches(line: LogLine, categories: frozenset[Category], text: str) -> bool:
    """Whether ``line`` passes the filter: one of ``categories`` (all when empty) and containing ``text``."""
    if categories and line.category not in categories:
        return False
    needle = text.strip().lower()
    return not needle or needle in line.text.lower()


def to_markdown(lines: Sequence[LogLine], title: str = "Adventure log") -> str:
    """The lines as a Markdown list, one action per heading."""
    out = [f"# {title}", ""]
    entry = None
    for line in lines:
        if line.entry != entry:
            entry = line.entry
            where = f" - area {line.area}" if line.area else ""
            out += ["", f"## {line.entry + 1}. {line.command}{where}", ""]
        dice = f" *({line.dice})*" if line.dice else ""
        out.append(f"- **{CATEGORIES[line.category]}**: {line.text}{dice}")
    return "\n".join(out).replace("\n\n\n", "\n\n") + "\n"


def to_html(lines: Sequence[LogLine], title: str = "Adventure log") -> str:
    """The lines as a small stand-alone HTML page, one action per section."""
    esc = html.escape
    out = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{esc(title)}</title></head><body>", f"<h1>{esc(title)}</h1>"]
    entry = None
    for line in lines:
        if line.entry != entry:
            if entry is not None:
                out.append("</ul>")
            entry = line.entry
            where = f" - area {esc(line.area)}" if line.area else ""
            out += [f"<h2>{line.entry + 1}. {esc(line.command)}{where}</h2>", "<ul>"]
        dice = f" <em>({esc(line.dice)})</em>" if line.dice else ""
        out.append(f"<li class='{line.category}'><b>{esc(CATEGORIES[line.category])}</b>: {esc(line.text)}{dice}</li>")
    if entry is not None:
        out.append("</ul>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
