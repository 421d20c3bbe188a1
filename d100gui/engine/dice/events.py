"""The events of the dice: a roll made, a roll that landed on a missing row, a row typed in.

``roll_made`` and ``row_provided`` are emitted by other features too (the map adds its Table M
and Table D rolls to the dice history; creation asks for starting rows): they import these
payloads rather than declaring kinds of their own.
"""

from __future__ import annotations

from typing import Any

from pydantic import SerializerFunctionWrapHandler, model_serializer

from d100gui.engine.dice.tables import Row
from d100gui.engine.protocol import Payload, declare


@declare("roll_made", topic="dice")
class RollMade(Payload):
    """A roll was added to the dice history (``index`` is its place there, from 0)."""

    index: int


@declare("row_missing", topic="dice")
class RowMissing(Payload):
    """A table roll landed on a row the player's tables lack: the dice panel asks them for it."""

    index: int


@declare("row_provided", topic="dice")
class RowProvided(Payload):
    """The player typed a row their tables lacked; it is laid over table ``table_id`` (and saved to their pack).

    ``index`` is the dice-history entry that was waiting for it, when the roll was made in the
    dice panel; ``row`` is the row itself, when the command that asked for it knows it.
    Absent values are left out of the event's data, so ``"index" in data`` means "a history entry".
    """

    table_id: str
    index: int | None = None
    row: Row | None = None

    @model_serializer(mode="wrap")
    def _leave_out_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {key: value for key, value in data.items() if value is not None or key == "table_id"}


__all__ = ["RollMade", "RowMissing", "RowProvided"]
