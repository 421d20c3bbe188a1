"""Every command class by its kind, registered with ``@register_command`` as events are with ``@declare``.

A command's ``kind`` is what the log stores and what a replay reads back, so two classes must never
share one: registering a second class under a kind already taken raises at import, instead of the
later one silently standing in for the first. :data:`d100gui.engine.commands.ALL_COMMANDS` is this
registry once every feature's command module is imported.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TypeVar, cast

from pydantic import BaseModel

from d100gui.engine.kind_index import COMMAND_MODULES, import_kind

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


M = TypeVar("M", bound=BaseModel)


class CommandKinds(Mapping[str, type[M]]):
    """Every command class by kind, its module imported the first time its kind is asked for
    (:mod:`d100gui.engine.kind_index`): what the window gives its game (``game.EVERY_COMMAND``), so a start
    imports only the command modules it meets. Going through them all (``iter``, ``len``) imports them all."""

    def __getitem__(self, kind: str) -> type[M]:
        if kind not in COMMAND_KINDS:
            import_kind(kind, COMMAND_MODULES, COMMAND_KINDS.__contains__)
        return cast("type[M]", COMMAND_KINDS[kind])

    def __iter__(self) -> Iterator[str]:
        importlib.import_module("d100gui.engine.commands")
        return iter(COMMAND_KINDS)

    def __len__(self) -> int:
        importlib.import_module("d100gui.engine.commands")
        return len(COMMAND_KINDS)
