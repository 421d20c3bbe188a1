"""The undo journal: which parts of the campaign one command changed, and how to put them back.

A campaign is kept in *parts*, its top-level fields (the hero, the pending decisions, the
dungeons, the fight, the random state, ...). Two kinds:

* a **value part** is saved whole, as its JSON; an action that changed it keeps the JSON it
  had before (undo) and hands the new JSON to the store;
* a **sequence part** (the dice history) only grows, or has an entry replaced (a typed-in
  row): an action keeps the length before and the entries it replaced, never the list.

The command log is not a part: it is append-only, so undo pops its last entry.

Which parts did a command change? While it runs, every part is *parked* (taken out of the
campaign's ``__dict__``); the first time the command reads or assigns one, the campaign
puts it back and this journal records it (:meth:`Watch.reach`), with its JSON as it was.
A part the command never reached
cannot have changed; a reached part is serialised again and compared. So a dice roll costs
the random state, the history's new entry and the meta, never the dungeons or the log.

Entries of a sequence part are compared as the list compares them (identity first, then
value: an entry replaced by an equal one is unchanged, its JSON the same): a command changes an
entry by replacing it, never in place. ``Game(check_journal=True)`` (or ``D100GUI_CHECK_JOURNAL=1``)
checks every command against full snapshots, so a command that breaks this fails its test.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, get_args

from pydantic import BaseModel, TypeAdapter, ValidationError

from d100gui.engine.protocol import CommandRefused


class Parts:
    """How to serialise and rebuild each part of a model: one adapter per field, built on first use.

    A *book* part (``books``: part -> its list field, e.g. the dungeons' ``dungeons``) is a model
    whose first field is a list of models that change by being replaced (the map's functions
    return a new dungeon): its JSON is put together from each member's JSON, cached by identity,
    so a move serialises the one dungeon it changed, not the whole book.
    """

    def __init__(
        self,
        model: type[BaseModel],
        sequences: Collection[str],
        skip: Collection[str],
        books: Mapping[str, str] | None = None,
    ) -> None:
        self._fields = model.model_fields
        self.names = tuple(n for n in self._fields if n not in skip)
        self.sequences = tuple(n for n in self.names if n in sequences)
        self.values = tuple(n for n in self.names if n not in sequences)
        self._adapters: dict[str, TypeAdapter[Any]] = {}
        self._items: dict[str, TypeAdapter[Any]] = {}
        self._books = dict(books or {})
        self._members: dict[str, dict[int, tuple[Any, str]]] = {name: {} for name in self._books}

    def adapter(self, name: str) -> TypeAdapter[Any]:
        found = self._adapters.get(name)
        if found is None:
            info = self._fields[name]
            annotation: Any = Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
            found = self._adapters[name] = TypeAdapter(annotation)
        return found

    def item_adapter(self, name: str) -> TypeAdapter[Any]:
        found = self._items.get(name)
        if found is None:
            (item,) = get_args(self._fields[name].annotation)
            found = self._items[name] = TypeAdapter(item)
        return found

    @property
    def books(self) -> tuple[str, ...]:
        return tuple(self._books)

    def is_book(self, name: str, value: Any) -> bool:
        field = self._books.get(name)
        return field is not None and isinstance(value, BaseModel) and next(iter(type(value).model_fields)) == field

    def book_members(self, name: str, value: Any) -> tuple[list[str], str]:
        """A book part as (each member's JSON, the JSON of its other fields): members cached by identity."""
        member_field = self._books[name]
        known = self._members[name]
        texts, fresh = [], {}
        for member in getattr(value, member_field):
            cached = known.get(id(member))
            if cached is None or cached[0] is not member:
                cached = (member, member.model_dump_json())
            fresh[id(member)] = cached
            texts.append(cached[1])
        self._members[name] = fresh  # only the current members are kept (and kept alive, so ids stay theirs)
        return texts, self.adapter(name).dump_json(value, exclude={member_field}).decode()

    def book_join(self, name: str, members: Sequence[str], rest: str) -> str:
        """The book's JSON from its members' JSON and :meth:`book_members`' ``rest``."""
        return join_book(self._books[name], members, rest)

    def dump(self, name: str, value: Any) -> str:
        """The part's JSON, exactly as the model writes it."""
        if not self.is_book(name, value):
            return self.adapter(name).dump_json(value).decode()
        return self.book_join(name, *self.book_members(name, value))

    def snapshot(self, name: str, value: Any) -> PartText:
        """The part as a step keeps it: its JSON, or for a book its members' JSON (:class:`BookText`).

        A book's member texts are the journal cache's own strings, so the steps of a hundred
        moves share the JSON of every dungeon they did not change instead of holding a copy each.
        """
        if not self.is_book(name, value):
            return self.adapter(name).dump_json(value).decode()
        members, rest = self.book_members(name, value)
        return BookText(self._books[name], tuple(members), rest)

    def load_snapshot(self, name: str, kept: PartText) -> Any:
        """The part a :meth:`snapshot` was taken of. A book's members still current (same JSON)
        are reused as they are, the others validated from their JSON: undoing a move validates
        the one dungeon it changed, not the whole book."""
        if isinstance(kept, str):
            return self.load(name, kept)
        known = self._members.get(name, {})
        by_text = {text: member for member, text in known.values()}
        members = []
        item = self.item_adapter_of_book(name)
        for text in kept.members:
            member = by_text.get(text)
            if member is None:
                member = by_text[text] = item.validate_json(text)
                known[id(member)] = (member, text)  # its JSON is known: the next dump reuses it
            members.append(member)
        book_type = self._fields[name].annotation
        assert isinstance(book_type, type) and issubclass(book_type, BaseModel)
        return book_type.model_validate({**json.loads(kept.rest), kept.list_field: members})

    def item_adapter_of_book(self, name: str) -> TypeAdapter[Any]:
        """The adapter of one member of book part ``name`` (a dungeon of the dungeon book)."""
        key = f"{name}.{self._books[name]}"
        found = self._items.get(key)
        if found is None:
            book_type = self._fields[name].annotation
            assert isinstance(book_type, type) and issubclass(book_type, BaseModel)
            (item,) = get_args(book_type.model_fields[self._books[name]].annotation)
            found = self._items[key] = TypeAdapter(item)
        return found

    def dump_plain(self, name: str, value: Any) -> str:
        """The part's JSON without any cache (what the journal check compares against)."""
        return self.adapter(name).dump_json(value).decode()

    def load(self, name: str, text: str | bytes) -> Any:
        return self.adapter(name).validate_json(text)

    def dump_item(self, name: str, item: Any) -> str:
        return self.item_adapter(name).dump_json(item).decode()

    def load_item(self, name: str, text: str | bytes) -> Any:
        return self.item_adapter(name).validate_json(text)


def join_book(field_name: str, members: Sequence[str], rest: str) -> str:
    """A book's JSON from its members' JSON and the JSON of its other fields (``rest``).

    Made in one ``join`` (the head glued to the first member, the tail to the last): the book is
    ~860 KB at 2,000 areas, and each copy of a string that size costs fresh pages; three copies took
    ~0.75 ms per move or search, one takes ~0.03 ms.
    """
    head = f'{{"{field_name}":['
    tail = "]}" if rest == "{}" else "]," + rest[1:]
    if not members:
        return head + tail
    pieces = list(members)
    pieces[0] = head + pieces[0]
    pieces[-1] += tail
    return ",".join(pieces)


@dataclass(frozen=True)
class BookText:
    """A book part as a step keeps it: each member's JSON (strings shared with the journal's cache
    and with other steps), the JSON of its other fields, and ``own``: the bytes only this step
    holds (the members it changed; -1 when not known, then every byte is counted)."""

    list_field: str
    members: tuple[str, ...]
    rest: str
    own: int = field(default=-1, compare=False)

    @property
    def text(self) -> str:
        """The whole book's JSON, exactly as the model writes it."""
        return join_book(self.list_field, self.members, self.rest)

    @property
    def size(self) -> int:
        return self.own if self.own >= 0 else len(self.rest) + sum(map(len, self.members))

    def owning(self, after: BookText) -> BookText:
        """This snapshot, with ``own`` counting only the members that differ from ``after``'s."""
        shared = after.members
        own = len(self.rest) + sum(len(t) for i, t in enumerate(self.members) if i >= len(shared) or t is not shared[i])
        return BookText(self.list_field, self.members, self.rest, own)


#: a part as a step keeps it: its JSON, or a book's members' JSON
PartText = str | BookText


@dataclass
class SequenceState:
    """A sequence part as a step leaves it: its length, and the entries at the indexes that differ."""

    length: int
    items: dict[int, Any] = field(default_factory=dict)


@dataclass
class Step:
    """One undoable (or redoable) action: the parts to put back, and its log entry.

    An undo step holds the parts as they were *before* the action (applying it removes the
    entry from the log); a redo step holds them as they were *after* it (applying it appends
    the entry again). ``kept`` holds each part as :meth:`Parts.snapshot` took it (a book as
    its members' shared JSON); ``parts`` gives every part as plain JSON, for the store.
    """

    label: str
    entry: Any  # the action's LogEntry
    kept: dict[str, PartText] = field(default_factory=dict)
    sequences: dict[str, SequenceState] = field(default_factory=dict)

    @property
    def parts(self) -> dict[str, str]:
        """Each part's JSON (a book's put together from its members): what the store writes."""
        return {name: kept if isinstance(kept, str) else kept.text for name, kept in self.kept.items()}

    @property
    def size(self) -> int:
        """Roughly the bytes only this step holds (its parts' JSON; of a book, the members it changed)."""
        return sum(len(kept) if isinstance(kept, str) else kept.size for kept in self.kept.values())

    def sequences_json(self, parts: Parts) -> str:
        """This step's sequence states as JSON (the store keeps its parts' JSON in rows of their own)."""
        sequences = {
            name: {"length": state.length, "items": {str(i): parts.dump_item(name, item) for i, item in state.items.items()}}
            for name, state in self.sequences.items()
        }
        return json.dumps(sequences, ensure_ascii=False)

    @classmethod
    def from_rows(cls, label: str, entry: Any, part_rows: Mapping[str, str], sequences_text: str, parts: Parts) -> Step:
        """A step the store kept: its parts' JSON rows and its :meth:`sequences_json`."""
        data = json.loads(sequences_text)
        sequences = {
            name: SequenceState(int(s["length"]), {int(i): parts.load_item(name, t) for i, t in s["items"].items()})
            for name, s in data.items()
        }
        return cls(label=label, entry=entry, kept=dict(part_rows), sequences=sequences)


#: a step not read from the store yet (the store hands these to a reopened game)
LazyStep = Callable[[], Step]


@dataclass
class Change:
    """What one do, undo or redo changed, for the campaign store to write in one transaction.

    ``parts`` is the new JSON of each value part that changed (a book's as its members, :class:`BookText`:
    the store writes the members that changed, and joins the whole text only where it keeps none); ``sequences`` the new length and
    the entries now at the indexes that changed; ``log_length`` the log's length after it;
    ``entry`` the log entry appended (do and redo; None for undo); ``step`` what went on the
    undo stack (do, redo) or the redo stack (undo); ``undo_depth`` the undo steps kept.
    """

    action: str  # "do", "undo", "redo"
    parts: dict[str, PartText]
    sequences: dict[str, SequenceState]
    log_length: int
    entry: Any
    step: Step
    undo_depth: int = 0  # how many undo steps the game keeps now (the store keeps as many)


class Watch:
    """The parts one command has reached so far, and what they were before it."""

    def __init__(self, parts: Parts, values: dict[str, Any]) -> None:
        self.parts = parts
        self.parked: dict[str, Any] = values
        self.before: dict[str, PartText] = {}  # value part -> its snapshot before the command
        self.lists: dict[str, tuple[list[Any], list[Any]]] = {}  # sequence part -> (its list, a copy of its entries)

    def reach(self, fields: dict[str, Any], name: str) -> Any:
        """Put ``name`` back into the model's ``fields`` and remember what it was; return it."""
        value = self.parked.pop(name)
        fields[name] = value
        if name in self.parts.sequences:
            self.lists[name] = (value, list(value))
        else:
            # serialised now, never taken from a cache: a test or a tool may have changed the
            # campaign by hand since the last command, and undo must give back what was there
            self.before[name] = self.parts.snapshot(name, value)
        return value

    def unpark(self, fields: dict[str, Any], order: Collection[str]) -> None:
        """Put every part not reached back (the command is over), in the model's field order.

        Pydantic serialises a model in the order of its ``__dict__``, so the order must be the
        one the model was built with, or the same campaign would serialise differently.
        """
        fields.update(self.parked)
        self.parked = {}
        ordered = {name: fields[name] for name in order}
        fields.clear()
        fields.update(ordered)


def sequence_delta(now: list[Any], old: list[Any]) -> tuple[SequenceState, SequenceState] | None:
    """(before, after) of a sequence part, or None if unchanged (entries compared by identity, or by value
    where the heads differ only by entries replaced by equal ones)."""
    common = min(len(now), len(old))
    if _same_head(now, old):  # the usual case: entries only appended
        replaced: list[int] = []
    else:
        replaced = [i for i in range(common) if now[i] is not old[i]]
    if not replaced and len(now) == len(old):
        return None
    before = SequenceState(len(old), {i: old[i] for i in replaced} | {i: old[i] for i in range(common, len(old))})
    after = SequenceState(len(now), {i: now[i] for i in replaced} | {i: now[i] for i in range(common, len(now))})
    return before, after


def _same_head(now: list[Any], old: list[Any]) -> bool:
    """True if ``now``'s and ``old``'s common head holds the same entries (each the very entry or an equal one).

    Compared as lists compare, in C (an entry is equal to itself without its ``__eq__`` being called): on
    a 12,000-slot history ~7 us, where an identity scan in Python took ~250 us and copying a head ~30 us.
    ``old`` (the journal's own copy) is lengthened by ``now``'s few new entries for the comparison and put
    back as it was. Raw slots are compared (``list``'s own methods): a paged history is never read.
    """
    length = len(old)
    if len(now) < length:  # entries were cut: now against the head of old
        return list.__eq__(now, old[: len(now)]) is True
    old.extend(list.__getitem__(now, slice(length, None)))
    try:
        return list.__eq__(now, old) is True
    finally:
        del old[length:]


class DamagedStep(CommandRefused):
    """An undo or redo step that cannot be applied whole (its saved parts are damaged): refused, nothing changed.

    ``stack`` is ``"undo"`` or ``"redo"``; the window may offer to drop the damaged history."""

    def __init__(self, message: str, stack: str) -> None:
        super().__init__(message)
        self.stack = stack


def short_reason(exc: BaseException) -> str:
    """What is wrong, in a line a player can read: a validation error's first problem and where, no links."""
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False)
        if errors:
            first = errors[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "its text"
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            return f"{where}: {first.get('msg', 'not valid')}{more}"
        return "not valid"
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:300]


def sequence_problem(target: Sequence[Any], state: SequenceState) -> str:
    """Why :func:`apply_sequence` could not bring ``target`` to ``state`` ("" if it can)."""
    if state.length < 0:
        return f"it gives a length of {state.length}"
    missing = [i for i in range(min(len(target), state.length), state.length) if i not in state.items]
    if missing:
        return f"entries {missing[0]} to {missing[-1]} are missing from it"
    if any(i < 0 or i >= state.length for i in state.items):
        return "it holds an entry outside its length"
    return ""


def apply_sequence(target: list[Any], state: SequenceState) -> SequenceState:
    """Bring ``target`` to ``state`` in place; return the state that undoes it."""
    length = len(target)
    inverse = SequenceState(length, {i: target[i] for i in state.items if i < length})
    inverse.items.update({i: target[i] for i in range(state.length, length)})
    del target[state.length :]
    for i in sorted(state.items):
        if i < len(target):
            target[i] = state.items[i]
        else:
            target.append(state.items[i])
    if len(target) != state.length:
        raise ValueError(f"a journal step left a sequence at {len(target)} entries instead of {state.length}")
    return inverse
