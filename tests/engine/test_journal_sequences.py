"""The journal's hot paths after every command (issue 18, performance), pinned to what they were.

The sequence delta (the dice history): appended, replaced, cut, unchanged; the heads are compared as
lists (identity first, then value), so an entry replaced by an equal one is no change: it would write
and undo the same JSON. A book's JSON (the dungeons), put together in one join: exactly the model's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from d100gui.engine.journal import BookText, SequenceState, apply_sequence, join_book, sequence_delta


@dataclass
class Entry:
    text: str


def delta(now: list[Entry], old: list[Entry]) -> tuple[SequenceState, SequenceState]:
    found = sequence_delta(now, old)
    assert found is not None
    return found


def history(n: int) -> list[Entry]:
    return [Entry(f"roll {i}") for i in range(n)]


def test_an_untouched_sequence_has_no_delta() -> None:
    old = history(5)
    assert sequence_delta(list(old), old) is None


def test_appended_entries_are_the_delta_and_undo_cuts_them() -> None:
    old = history(5)
    now = [*old, Entry("new")]
    before, after = delta(now, old)
    assert (before.length, before.items) == (5, {})
    assert after.length == 6 and after.items == {5: now[5]}
    apply_sequence(now, before)
    assert now == old


def test_an_entry_replaced_by_another_value_is_in_the_delta_both_ways() -> None:
    old = history(5)
    now = list(old)
    now[1] = Entry("a typed row")
    before, after = delta(now, old)
    assert before.items == {1: old[1]} and after.items == {1: now[1]}
    assert before.items[1] is old[1]  # undo puts back the very entry


def test_an_entry_replaced_and_entries_appended_together() -> None:
    old = history(4)
    now = [old[0], Entry("changed"), old[2], old[3], Entry("appended")]
    before, after = delta(now, old)
    assert before == SequenceState(4, {1: old[1]})
    assert after == SequenceState(5, {1: now[1], 4: now[4]})


def test_an_entry_replaced_by_an_equal_one_is_no_change() -> None:
    old = history(3)
    now = [old[0], Entry("roll 1"), old[2]]
    assert sequence_delta(now, old) is None


def test_a_shorter_sequence_keeps_the_cut_entries_to_put_back() -> None:
    old = history(4)
    now = old[:2]
    before, after = delta(now, old)
    assert before == SequenceState(4, {2: old[2], 3: old[3]})
    assert after == SequenceState(2, {})
    apply_sequence(now, before)
    assert now == old and now[3] is old[3]


def test_a_list_subclass_is_compared_by_its_slots() -> None:
    """The paged dice history is a list subclass whose slices may read the store: the heads are its raw slots."""

    class Paged(list[Entry]):
        def __getitem__(self, index):  # type: ignore[no-untyped-def]
            if isinstance(index, slice):
                raise AssertionError("the delta must not slice through the history's own []")
            return list.__getitem__(self, index)

    old = history(3)
    now = Paged([*old, Entry("new")])
    before, after = delta(now, old)
    assert before.length == 3 and after.length == 4


def test_the_journal_copy_is_left_as_it_was() -> None:
    """The comparison lengthens the journal's copy for a moment: it is put back, even when an ``__eq__`` raises."""
    old = history(3)
    kept = list(old)
    sequence_delta([*old, Entry("new"), Entry("newer")], old)
    assert old == kept and all(a is b for a, b in zip(old, kept, strict=True))

    class Touchy(Entry):
        def __eq__(self, other: object) -> bool:
            raise RuntimeError("no comparing")

    now = [Touchy("x"), *old[1:], Entry("new")]
    with pytest.raises(RuntimeError):
        sequence_delta(now, old)
    assert old == kept and len(old) == 3


@pytest.mark.parametrize("members", [(), ('{"id":"a"}',), ('{"id":"a"}', '{"id":"b"}', '{"id":"c"}')])
@pytest.mark.parametrize("rest", ["{}", '{"current":1}', '{"current":1,"name":"x"}'])
def test_a_book_is_joined_as_the_model_writes_it(members: tuple[str, ...], rest: str) -> None:
    naive = '{"dungeons":[' + ",".join(members) + "]" + ("}" if rest == "{}" else "," + rest[1:])
    joined = join_book("dungeons", members, rest)
    assert joined == naive
    assert json.loads(joined) == {"dungeons": [json.loads(m) for m in members], **json.loads(rest)}


def test_the_dungeon_book_joins_to_its_own_json() -> None:
    from d100gui.demo import build_demo_campaign
    from d100gui.engine.campaign import CAMPAIGN_PARTS
    from d100gui.storage.packs import load_library

    campaign = build_demo_campaign(load_library(None).library)
    kept = CAMPAIGN_PARTS.snapshot("dungeons", campaign.dungeons)
    assert isinstance(kept, BookText) and len(kept.members) >= 1
    assert kept.text == CAMPAIGN_PARTS.dump_plain("dungeons", campaign.dungeons)
