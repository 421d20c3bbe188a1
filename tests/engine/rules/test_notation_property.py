"""Property tests: the notation parser never raises and never loses text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d100gui.engine.rules.notation import (
    Effect,
    LootSpec,
    Notation,
    Option,
    Outcome,
    TestSpec,
    parse,
    parse_effects,
    parse_loot,
    parse_test,
)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

FRAGMENTS = [
    "TRAPPED CHEST",
    "JAMMED DOOR",
    " – ",
    " - ",
    "Test:",
    "Test",
    "Test - ",
    "To open test ",
    " Dex",
    " STR",
    "Int",
    " -10",
    "-15",
    " +20",
    "(+/- Spell Bonus)",
    "[S:",
    "[F:",
    "[K:",
    "[",
    "]",
    "(",
    ")",
    "Locks, Traps",
    "Traps,Aware,Lucky",
    "/",
    ",",
    ";",
    ". ",
    " ",
    "+1",
    "+2 ",
    "+30 gp",
    "-10 hp",
    "-1HP",
    "- ½ gp",
    "-5 Skill",
    "-1 CHA",
    "-1 REP",
    "50gp",
    "roll x1 Table TA",
    "Table P +10",
    "Roll on TABLE C - CURSES",
    "Belt Check",
    "encounter GIANT SNAKE",
    "Avoid Trap",
    "No Effect",
    "Forfeit next attack",
    "No Escape",
    "Remove Monster",
    "Open",
    "Closed",
    "Roll equal to or less than the number of Levers you have to open,",
    "Roll equal to or less than the number of keys you have",
    " to open, if successful delete 1 key",
    "add +5 STR to the Time Track.",
    "(Shade in 1 Key Pip)",
    "shade in two pip of your Poison track",
    "up to 3",
    "3/2/2",
    "½",
    "\n",
    "é",
]


def notation_text() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=30).map("".join)


def assert_in_order(container: str, parts: list[str], *, covering: bool) -> None:
    """Each part occurs in ``container`` after the one before; with ``covering`` no letter or
    digit of ``container`` is left outside the parts."""
    pos = 0
    for part in parts:
        assert part, "an empty text was kept"
        found = container.find(part, pos)
        assert found >= 0, (part, container, pos)
        if covering:
            assert not any(ch.isalnum() for ch in container[pos:found]), (container[pos:found], container)
        pos = found + len(part)
    if covering:
        assert not any(ch.isalnum() for ch in container[pos:]), (container[pos:], container)


def check_effect(effect: Effect) -> None:
    assert any(ch.isalnum() for ch in effect.text)
    assert isinstance(effect.describe(), str) and effect.describe()


def check_option(option: Option) -> None:
    assert option.items
    assert_in_order(option.text, [item.text for item in option.items], covering=True)
    for item in option.items:
        if isinstance(item, TestSpec):
            check_test(item)
        else:
            check_effect(item)


def check_outcome(outcome: Outcome) -> None:
    assert_in_order(outcome.text, [option.text for option in outcome.options], covering=False)
    for option in outcome.options:
        check_option(option)


def check_test(test: TestSpec) -> None:
    assert test.characteristic in ("", "STR", "DEX", "INT")
    assert test.against in ("", "keys", "levers")
    for outcome in (test.success, test.failure):
        assert outcome.text in test.text
        check_outcome(outcome)
    assert test.describe()


def check_notation(text: str, result: Notation) -> None:
    assert result.text == text
    assert_in_order(text, [item.text for item in result.items], covering=True)
    for item in result.items:
        if isinstance(item, TestSpec):
            check_test(item)
        elif isinstance(item, LootSpec):
            assert item.describe()
        else:
            check_outcome(item)
    assert result.tests == [i for i in result.items if isinstance(i, TestSpec)]
    assert result.loot == [i for i in result.items if isinstance(i, LootSpec)]


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@SETTINGS
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises_and_keeps_text(text):
    check_notation(text, parse(text))
    outcome = parse_effects(text)
    assert outcome.text == text.strip()
    check_outcome(outcome)
    test = parse_test(text)
    assert test is None or test.text in text
    loot = parse_loot(text)
    assert loot is None or loot.text in text


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@SETTINGS
@given(notation_text())
def test_notation_fragments_never_raise_and_keep_text(text):
    result = parse(text)
    check_notation(text, result)
    for test in result.all_tests():
        check_test(test)
    again = Notation.model_validate_json(result.model_dump_json())
    assert again == result
    check_outcome(parse_effects(text))


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@SETTINGS
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=12))
def test_tests_built_from_fragments(parts):
    """A test line followed by arbitrary outcome fragments is always read as one test."""
    success = "".join(p for p in parts if "[" not in p and "]" not in p)
    text = f"TRAPPED CHEST – Test: Dex -10 [S:{success}] [F:-10 hp] (Locks, Traps)"
    test = parse_test(text)
    assert test is not None
    assert (test.name, test.characteristic, test.modifier, test.skills) == ("TRAPPED CHEST", "DEX", -10, ["Locks", "Traps"])
    assert [(e.kind, e.amount) for e in test.failure.options[0].effects] == [("hp", -10)]
    check_test(test)
