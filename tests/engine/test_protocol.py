"""The event protocol: declared payloads validate, and strict mode refuses undeclared kinds."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from d100gui.engine.protocol import EVENT_KINDS, Event, LegacyMessage, Payload, declare, require_declared, requires_declared


class Ping(Payload):
    """A test-only kind."""

    count: int


@pytest.fixture(autouse=True)
def _ping_declared():
    """Declare the test-only kind for each test, and take it out of the registry again."""
    declare("protocol_test_ping", topic="log")(Ping)
    try:
        yield
    finally:
        EVENT_KINDS.pop("protocol_test_ping", None)


def _strictness(on: bool):
    was = requires_declared()
    require_declared(on)
    try:
        yield
    finally:
        require_declared(was)


@pytest.fixture
def strict():
    yield from _strictness(True)


@pytest.fixture
def lenient():
    yield from _strictness(False)


def test_of_takes_kind_and_topic_from_the_declaration():
    event = Event.of(Ping(count=2), "ping")
    assert (event.kind, event.topic, event.data, event.message) == ("protocol_test_ping", "log", {"count": 2}, "ping")
    assert event.payload() == Ping(count=2)
    assert EVENT_KINDS["protocol_test_ping"].doc == "A test-only kind."


def test_a_declared_kind_refuses_data_its_payload_does_not_know():
    with pytest.raises(ValidationError):
        Event(kind="protocol_test_ping", data={"count": 1, "extra": True})
    with pytest.raises(ValidationError):
        Event(kind="protocol_test_ping", data={})


def test_declaring_a_kind_twice_is_an_error():
    with pytest.raises(ValueError, match="declared twice"):

        @declare("protocol_test_ping")
        class Other(Payload):
            pass


def test_an_undeclared_kind_passes_unless_strict(lenient):
    assert not requires_declared()
    event = Event(kind="protocol_test_unknown", data={"anything": 1})
    with pytest.raises(KeyError):
        event.payload()


def test_strict_mode_refuses_undeclared_kinds_and_wrong_topics(strict):
    assert requires_declared()
    with pytest.raises(ValidationError, match="not declared"):
        Event(kind="protocol_test_unknown")
    with pytest.raises(ValidationError, match="declared on topic 'log'"):
        Event(kind="protocol_test_ping", topic="map", data={"count": 1})
    assert Event.of(Ping(count=1)).kind == "protocol_test_ping"
    assert Event.of(LegacyMessage(), "an old sentence").topic == "log"


def test_payloads_must_be_declared_to_make_events():
    class Loose(Payload):
        pass

    with pytest.raises(TypeError, match="not a declared event payload"):
        Event.of(Loose())


def test_undeclared_kinds_are_refused_by_default():
    """Every feature declares its kinds, so the whole suite runs strict (no per-folder switch needed)."""
    from d100gui.engine import protocol

    assert protocol._STRICT["refuse_undeclared"] is True and requires_declared()
