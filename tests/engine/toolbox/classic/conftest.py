"""Shared helpers for the classic toolbox tests: scripted dice over the bundled tables."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller


class Scripted:
    """A roller over the bundled tables whose faces come from a script, and the script."""

    def __init__(self, library, faces: list[int]) -> None:
        self.source = ScriptedSource(faces)
        self.roller = TableRoller(library, Dice(self.source), MissingRowPolicy.ASK)


@pytest.fixture
def scripted(bundled_library):
    def make(*faces: int) -> Scripted:
        return Scripted(bundled_library, list(faces))

    return make
