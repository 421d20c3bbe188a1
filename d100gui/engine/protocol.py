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

from pydantic import ConfigDict, Field, model_validator

from d100gui.engine.kind_index import EVENT_MODULES, import_kind
from d100gui.engine.model import Model

TOPICS = ("log", "character", "map", "dice", "tables", "decision", "campaign", "combat")


class CommandRefused(ValueError):
    """The rules do not allow this command now; the message tells the player why."""


class Payload(Model):
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


class _EventKinds(dict[str, EventKind]):
    """The declared kinds; a kind asked for (``get``, ``in``, ``[]``) that is not declared yet has its module
    imported first (:mod:`d100gui.engine.kind_index`): a start imports only the event modules it meets."""

    def get(self, kind: str, default: Any = None) -> Any:
        if not super().__contains__(kind):
            import_kind(kind, EVENT_MODULES, super().__contains__)
        return super().get(kind, default)

    def __contains__(self, kind: object) -> bool:
        return isinstance(kind, str) and self.get(kind) is not None

    def __getitem__(self, kind: str) -> EventKind:
        found = self.get(kind)
        if not isinstance(found, EventKind):
            raise KeyError(kind)
        return found


#: every declared event kind, by name (filled as the feature packages are imported, or a kind when first met)
EVENT_KINDS: dict[str, EventKind] = _EventKinds()

#: whether an :class:`Event` of an undeclared kind (or off its declared topic) is refused; see :func:`require_declared`
_STRICT = {"refuse_undeclared": True}


def require_declared(on: bool = True) -> None:
    """Refuse, from now on, every event whose kind is not declared or whose topic is not its declared topic.

    On by default now that every feature package declares its kinds: a new undeclared kind fails
    the first test that emits it instead of slipping into saved logs. (Off only for a tool that
    must read events of kinds this version does not know.)
    """
    _STRICT["refuse_undeclared"] = on


def requires_declared() -> bool:
    """Whether :func:`require_declared` is on."""
    return _STRICT["refuse_undeclared"]


P = TypeVar("P", bound=type[Payload])


def declare(kind: str, topic: str = "log") -> Callable[[P], P]:
    """Register ``cls`` as the payload of events of ``kind``; each kind is declared once."""
    if topic not in TOPICS:
        raise ValueError(f"event kind {kind!r}: unknown topic {topic!r}")

    def register(cls: P) -> P:
        known = dict.get(EVENT_KINDS, kind)  # as declared so far: never imports
        if known is not None and known.payload is not cls:
            raise ValueError(f"event kind {kind!r} is declared twice ({known.payload.__name__} and {cls.__name__})")
        cls.event_kind = kind
        cls.event_topic = topic
        EVENT_KINDS[kind] = EventKind(kind, topic, cls)
        return cls

    return register


class Event(Model):
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
        if _STRICT["refuse_undeclared"]:
            if spec is None:
                raise ValueError(f"event kind {self.kind!r} is not declared (declare a Payload for it with @declare)")
            if self.topic != spec.topic:
                raise ValueError(f"event kind {self.kind!r} is declared on topic {spec.topic!r}, not {self.topic!r}")
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


# Kinds shared by several feature packages are declared here, once.


@declare("decision", topic="decision")
class Decision(Payload):
    """The game now waits for the player; the message is the prompt.

    ``decision`` is the id of the pending decision (a rolled test, an experience choice, a
    creation choice) when there is one. A fight's decisions carry ``waiting`` (the fight's
    :attr:`CombatState.waiting`: ``roll``, ``test``, ``action``, ``aim``, ``aim_pick``,
    ``offset``, ``loot``) and what that choice needs: the allowed ``actions``, the offset
    limits (``damage``, ``item_max``, ``shield_max``) or the loot ``options``. ``missing`` is
    the range of table rows a creation step needs typed in.
    """

    decision: str = ""
    waiting: str = ""
    actions: list[str] = Field(default_factory=list)
    damage: int = 0
    item_max: int = 0
    shield_max: int = 0
    options: list[str] = Field(default_factory=list)
    missing: list[int] = Field(default_factory=list)


@declare("fate_used", topic="dice")
class FateUsed(Payload):
    """Fate was spent to re-roll dice of a test or of a held combat roll.

    ``roll`` is the new :class:`~d100gui.engine.dice.dice.RollRecord` (JSON form: this module
    imports nothing of the app); ``decision`` the test re-rolled, if it was one; ``success``
    the test's result after the re-roll (None for a plain roll); ``before`` the natural total
    re-rolled and ``fate`` the Fate left.
    """

    roll: dict[str, Any] = Field(default_factory=dict)
    decision: str = ""
    success: bool | None = None
    before: int | None = None
    fate: int | None = None


class Told(Payload):
    """A payload that words its own sentence for the log."""

    def sentence(self) -> str:  # pragma: no cover - every declared subclass words its own
        return ""


def told(payload: Told) -> Event:
    """The event of ``payload`` with its own sentence."""
    return Event.of(payload, payload.sentence())
