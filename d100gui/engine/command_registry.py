"""Every command class by its kind, registered with ``@register_command`` as events are with ``@declare``.

A command's ``kind`` is what the log stores and what a replay reads back, so two classes must never
share one: registering a second class under a kind already taken raises at import, instead of the
later one silently standing in for the first. :data:`d100gui.engine.commands.ALL_COMMANDS` is this
registry once every feature's command module is imported.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

#: kind -> the command class (a ``game.Command``) that reads and runs it; this module sits below the
#: game (every feature's command module imports it), so it names only the pydantic base
COMMAND_KINDS: dict[str, type[BaseModel]] = {}

C = TypeVar("C", bound=type[BaseModel])


def register_command(cls: C) -> C:
    """Register ``cls`` under its ``kind`` (the field's default); a kind is registered once."""
    model: type[BaseModel] = cls
    field = model.model_fields.get("kind")
    kind = None if field is None else field.default
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"command class {cls.__name__} has no kind (give its kind field a default)")
    known = COMMAND_KINDS.get(kind)
    if known is not None and known is not cls:
        raise ValueError(f"command kind {kind!r} is registered twice ({known.__name__} and {cls.__name__})")
    COMMAND_KINDS[kind] = cls
    return cls
