"""The engine's protocol: how a command is refused and what an event is.

Every event kind is declared once, here or in its feature package, as a :class:`Payload`
subclass registered with :func:`declare`::

    @declare("combat_hit", topic="combat")
    class CombatHit(Payload):
        damage: int
        location: str

    events.append(Event.of(CombatHit(damage=4, location="torso"), "You hit the orc for 4."))

The payload is the event's meaning; the message is only a sentence for the log. Views render
from :meth:`Event.payload` (typed) and never parse messages. Events are kept in the command
log with their kind, topic, payload and message, so a reloaded campaign renders exactly as
it did when it was played.

This module imports nothing of the app (only pydantic), so every layer may use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

TOPICS = ("log", "character", "map", "dice", "tables", "decision", "campaign", "combat")


class CommandRefused(ValueError):
    """The rules do not allow this command now; the message tells the player why."""


class Payload(BaseModel):
    """Base of every event payload: the typed data a view renders from."""

    model_config = ConfigDict(extra="forbid")

    #: set by :func:`declare`
    event_kind: ClassVar[str] = ""
    event_topic: ClassVar[str] = "log"


@dataclass(frozen=True)
class EventKind:
    """One declared kind of event: its name, the views it concerns, its payload model."""

    kind: str
    topic: str
    payload: type[Payload]

    @property
    def doc(self) -> str:
        return (self.payload.__doc__ or "").strip().splitlines()[0] if self.payload.__doc__ else ""


#: every declared event kind, by name (filled as the feature packages are imported)
EVENT_KINDS: dict[str, EventKind] = {}

P = TypeVar("P", bound=type[Payload])


def declare(kind: str, topic: str = "log") -> Callable[[P], P]:
    """Register ``cls`` as the payload of events of ``kind``; each kind is declared once."""
    if topic not in TOPICS:
        raise ValueError(f"event kind {kind!r}: unknown topic {topic!r}")

    def register(cls: P) -> P:
        known = EVENT_KINDS.get(kind)
        if known is not None and known.payload is not cls:
            raise ValueError(f"event kind {kind!r} is declared twice ({known.payload.__name__} and {cls.__name__})")
        cls.event_kind = kind
        cls.event_topic = topic
        EVENT_KINDS[kind] = EventKind(kind, topic, cls)
        return cls

    return register


class Event(BaseModel):
    """Something that happened: its kind, the views it concerns, its payload, a sentence.

    ``data`` is the payload in JSON form (as saved in the log). When the kind is declared,
    ``data`` must validate against the declared payload: an event cannot carry fields its
    declaration does not know.
    """

    kind: str
    message: str = ""
    topic: str = "log"
    data: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _matches_its_declaration(self) -> Event:
        spec = EVENT_KINDS.get(self.kind)
        if spec is not None:
            spec.payload.model_validate(self.data)
        return self

    @classmethod
    def of(cls, payload: Payload, message: str = "") -> Event:
        """The event of a declared payload (kind and topic come from the declaration)."""
        kind = type(payload).event_kind
        if not kind:
            raise TypeError(f"{type(payload).__name__} is not a declared event payload (use @declare)")
        return cls(kind=kind, topic=type(payload).event_topic, message=message, data=payload.model_dump(mode="json"))

    def payload(self) -> Payload:
        """The typed payload; :class:`KeyError` if the kind was never declared."""
        spec = EVENT_KINDS.get(self.kind)
        if spec is None:
            raise KeyError(f"event kind {self.kind!r} is not declared")
        return spec.payload.model_validate(self.data)


@declare("legacy_message", topic="log")
class LegacyMessage(Payload):
    """A sentence from a campaign saved before events kept their payloads (migrated as it was)."""
