"""Commands register by kind with ``@register_command``, which refuses a kind registered twice (as ``@declare``
does for events): a second class under a taken kind would otherwise stand in for the first in every log read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest

from d100gui.engine.command_registry import COMMAND_KINDS, register_command
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice_commands import DICE_COMMANDS, RollDice
from d100gui.engine.game import Command

COMMANDS_DOC = Path(__file__).parents[2] / "docs" / "commands.md"


def test_a_second_class_under_a_registered_kind_is_refused_at_registration() -> None:
    class AnotherRollDice(Command):
        kind: Literal["roll_dice"] = "roll_dice"

    with pytest.raises(ValueError, match="'roll_dice' is registered twice"):
        register_command(AnotherRollDice)
    assert COMMAND_KINDS["roll_dice"] is RollDice  # the first one stays


def test_registering_the_same_class_again_is_harmless() -> None:
    assert register_command(RollDice) is RollDice
    assert COMMAND_KINDS["roll_dice"] is RollDice


def test_a_command_class_without_a_kind_is_refused() -> None:
    class NoKind(Command):
        pass

    with pytest.raises(ValueError, match="has no kind"):
        register_command(NoKind)


def test_all_commands_is_the_registry() -> None:
    assert ALL_COMMANDS == tuple(COMMAND_KINDS.values())
    assert {c.model_fields["kind"].default for c in ALL_COMMANDS} == set(COMMAND_KINDS)
    assert set(DICE_COMMANDS) <= set(ALL_COMMANDS)


def test_every_kind_the_command_vocabulary_lists_is_registered() -> None:
    """docs/commands.md's generated table lists every kind that existed: none may be lost."""
    text = COMMANDS_DOC.read_text(encoding="utf-8")
    vocabulary = text.split("# Command vocabulary", 1)[1].split("# Event kinds", 1)[0]
    documented = set(re.findall(r"^\| `([a-z0-9_]+)` \|", vocabulary, flags=re.MULTILINE))
    assert len(documented) > 150
    assert documented == set(COMMAND_KINDS)
