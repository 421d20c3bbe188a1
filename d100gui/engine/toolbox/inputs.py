"""Input checks shared by the tools: an out-of-range value is refused with its valid range."""

from __future__ import annotations

from d100gui.engine.dice.dice import DiceError, parse_expression
from d100gui.engine.protocol import CommandRefused


class ToolInputError(CommandRefused):
    """A tool's input outside its valid range; the message names the input and the range."""


def in_range(name: str, value: int, low: int, high: int | None = None) -> int:
    """``value`` when ``low <= value <= high`` (no upper bound when ``high`` is None), else refuse."""
    if value < low or (high is not None and value > high):
        valid = f"{low} to {high}" if high is not None else f"{low} or more"
        raise ToolInputError(f"{name} must be {valid}; {value} is out of range.")
    return value


def dice_expression(name: str, text: str) -> str:
    """A dice expression such as ``1d6`` or ``2d4+1``, checked before it is rolled."""
    try:
        parse_expression(text)
    except DiceError as exc:
        raise ToolInputError(f"{name}: {exc}") from None
    return text.strip()
