"""The dice history: every roll made from the dice panel, kept in the campaign.

A long campaign rolls tens of thousands of times; its history is megabytes. A campaign opened
from its store keeps only the newest entries in memory (:class:`DiceHistory`): the older slots
hold :data:`UNLOADED`, and are read from the store when something asks for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, SupportsIndex, overload

from pydantic import SerializerFunctionWrapHandler

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.model import Model

MAX_LINE = 110


class HistoryEntry(Model):
    """One line of the roll history: a plain roll or a table roll."""

    roll: RollRecord
    table: TableRoll | None = None
    parent: int | None = None
    note: str = ""  # what the roll decided when it is not a table row (e.g. the Table M tile)

    def describe(self) -> str:
        if self.table is not None:
            faces = " ".join(f"[{d.shown}]" for d in self.roll.dice)
            text = f"{faces} {self.table.describe()}"
        else:
            text = self.roll.describe()
            if self.note:
                text = f"{text}: {self.note}"
        return text if len(text) <= MAX_LINE else text[: MAX_LINE - 1].rstrip() + "…"


#: the slot of an entry still in the campaign's store (one shared object: the journal compares entries by
#: identity, so an unread slot never looks changed). It is a real entry, so code that meets one cannot crash.
UNLOADED = HistoryEntry.model_construct(
    roll=RollRecord.model_construct(
        expression="", purpose="", terms=[], dice=[], natural=0, modifiers=[], clamp=None, final=0, manual=False, rerolled=[]
    ),
    table=None,
    parent=None,
    note="an older roll, kept in the campaign file",
)

#: reads entries ``offset .. offset + limit - 1`` from where the campaign is kept
PageReader = Callable[[int, int], list[HistoryEntry]]


class DiceHistory(list[HistoryEntry]):
    """The dice history of a campaign opened from its store: one slot per roll, the older ones unread.

    It is a list as long as the whole history (so every index the engine and the events use is the
    roll's number), whose unread slots hold :data:`UNLOADED`. Reading a slot with ``history[i]`` while
    a command runs (``active()``) reads it from the store; outside a command ``history[i]`` is the raw
    slot, so the journal (which compares slots by identity after each command) never reads the store.
    Views use :meth:`page` and :meth:`entry`, which always read.
    """

    def __init__(self, slots: Iterable[HistoryEntry], reader: PageReader, active: Callable[[], bool]) -> None:
        super().__init__(slots)
        self._reader = reader
        self._active = active
        self._read: dict[int, HistoryEntry] = {}  # slots read from the store, until a slot changes
        self._tail_from = next((i for i in range(len(self)) if list.__getitem__(self, i) is not UNLOADED), len(self))

    @classmethod
    def paged(cls, length: int, tail: list[HistoryEntry], reader: PageReader, active: Callable[[], bool]) -> DiceHistory:
        """``length`` slots: the newest are ``tail``, the others unread."""
        return cls([UNLOADED] * (length - len(tail)) + tail, reader, active)

    # ------------------------------------------------------------------ reading
    def read_from(self, reader: PageReader) -> None:
        """Read the unread slots with ``reader`` from now on (the campaign was copied to another store)."""
        self._reader = reader
        self._read.clear()

    @property
    def unread(self) -> int:
        """How many slots are still unread (for the memory figures and the tests)."""
        return sum(1 for slot in list.__iter__(self) if slot is UNLOADED)

    def entry(self, index: int) -> HistoryEntry:
        """Entry ``index`` (negative from the end), read from the store if need be."""
        if not -len(self) <= index < len(self):
            raise IndexError("dice history index out of range")
        return self.page(index % len(self), 1)[0]

    def page(self, offset: int, limit: int) -> list[HistoryEntry]:
        """Entries ``offset .. offset + limit - 1`` (fewer at the end), the unread ones read in one go."""
        start, stop = max(0, offset), min(len(self), max(0, offset) + max(0, limit))
        slots = list.__getitem__(self, slice(start, stop))
        missing = [i for i, slot in enumerate(slots) if slot is UNLOADED]
        if missing:
            first, last = missing[0], missing[-1]
            read = self._reader(start + first, last - first + 1)
            for i in missing:
                slots[i] = read[i - first]
        return slots

    def resolved(self) -> list[HistoryEntry]:
        """Every entry, as a plain list (reads the whole history: export, copy as text)."""
        return self.page(0, len(self))

    @overload
    def __getitem__(self, index: SupportsIndex) -> HistoryEntry: ...

    @overload
    def __getitem__(self, index: slice) -> list[HistoryEntry]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> HistoryEntry | list[HistoryEntry]:
        if isinstance(index, slice):
            slots = list.__getitem__(self, index)
            if not self._active():
                return slots
            return [self._resolve(slot, i) for slot, i in zip(slots, range(*index.indices(len(self))), strict=True)]
        slot = list.__getitem__(self, index)
        return self._resolve(slot, int(index)) if self._active() else slot

    def _resolve(self, slot: HistoryEntry, index: int) -> HistoryEntry:
        if slot is not UNLOADED:
            return slot
        index = index if index >= 0 else len(self) + index
        read = self._read.get(index)
        if read is None:
            read = self._read[index] = self._reader(index, 1)[0]
        return read

    # ------------------------------------------------------------------ changing (a changed slot forgets what was read)
    def __setitem__(self, index: Any, value: Any) -> None:
        self._read.clear()
        list.__setitem__(self, index, value)

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        self._read.clear()
        list.__delitem__(self, index)

    def trim(self, keep: int) -> None:
        """Once more than ``2 * keep`` of the newest entries are in memory, keep only the newest ``keep``
        (call it once they are saved: the store has the others). Call it between commands only."""
        self._tail_from = min(self._tail_from, len(self))
        if len(self) - self._tail_from <= 2 * keep:
            return
        stop = len(self) - keep
        list.__setitem__(self, slice(self._tail_from, stop), [UNLOADED] * (stop - self._tail_from))
        self._tail_from = stop
        self._read.clear()

    def __deepcopy__(self, memo: dict[int, Any]) -> list[HistoryEntry]:
        """A deep copy is a plain list of every entry (a copy never reads from this campaign's store)."""
        return [entry.model_copy(deep=True) for entry in self.resolved()]

    def __copy__(self) -> list[HistoryEntry]:
        return self.resolved()

    def __reduce__(self) -> Any:
        return (list, (self.resolved(),))


def dump_history(value: list[HistoryEntry], handler: SerializerFunctionWrapHandler) -> Any:
    """Serialise a dice history whole: a paged one reads its unread entries first."""
    return handler(value.resolved() if isinstance(value, DiceHistory) else value)
