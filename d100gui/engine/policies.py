"""The game's play policies that answer for the player: which rolls wait for Fate (beside the
missing-row policy, :class:`~d100gui.engine.dice.roller.MissingRowPolicy`).

A *Fate window* is a roll that waits so the player may accept it or spend Fate on it: a skill
test's roll (``accept_test`` / ``use_fate``), each roll and test of a fight (``combat_continue`` /
``combat_fate``). :class:`FatePolicy` says which windows the player wants: the others are
answered by the engine inside the same command (:func:`d100gui.engine.referee.settle_fate`, which
``Game.execute`` runs through its referee), so one click is one command and one undo step, and an
undo lands the player back before the click. The policy is kept in each log entry
(``LogEntry.fate``) so a replay answers the same windows.

This module holds the policy as data only, so it stands below the game (the log entry names it);
answering the windows, which needs the fight's and the tests' commands, is the referee's.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from d100gui.engine.model import Model


class FatePolicy(Model):
    """Which rolls wait for the player (Preferences > Play > Fate windows).

    ``tests``: ``always`` (every skill test waits), ``fate`` (only while the hero has Fate to spend),
    ``never`` (settled at once). ``fights``: ``fate`` (each roll waits while the hero has Fate),
    ``never`` (the fight goes on by itself until it needs a choice).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    tests: Literal["always", "fate", "never"] = "always"
    fights: Literal["fate", "never"] = "fate"

    @property
    def is_default(self) -> bool:
        return self == STOP_AT_EVERY_WINDOW


#: the default: every window waits for the player (the engine answers none)
STOP_AT_EVERY_WINDOW = FatePolicy()
