"""The game's play policies that answer for the player: which rolls wait for Fate (beside the
missing-row policy, :class:`~d100gui.engine.dice.roller.MissingRowPolicy`).

A *Fate window* is a roll that waits so the player may accept it or spend Fate on it: a skill
test's roll (``accept_test`` / ``use_fate``), each roll and test of a fight (``combat_continue`` /
``combat_fate``). :class:`FatePolicy` says which windows the player wants: the others are
answered by the engine inside the same command (:func:`settle_fate`, called by ``Game.execute``),
so one click is one command and one undo step, and an undo lands the player back before the click.
The policy is kept in each log entry (``LogEntry.fate``) so a replay answers the same windows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import ConfigDict

from d100gui.engine.model import Model

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.game import Campaign, Command, GameContext
    from d100gui.engine.protocol import Event

#: how many windows one command may answer at most (a fight ends long before)
MOST_ANSWERS = 200


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


def answer_for(campaign: Campaign, policy: FatePolicy, fate_cost: int) -> Command | None:
    """The accept the policy gives for what waits now, or None when the player decides."""
    from d100gui.engine.fight_commands import CombatContinue  # these import the game
    from d100gui.engine.hero.decisions import PendingTest, fight_test_id, pending_of
    from d100gui.engine.skill_test_commands import AcceptTest

    combat = campaign.combat
    if combat is not None and combat.waiting in ("roll", "test"):
        return CombatContinue() if policy.fights == "never" else None
    tests = [t for t in pending_of(campaign, PendingTest) if t.id != fight_test_id(campaign)]
    if not tests:
        return None
    hero = campaign.character
    no_fate = hero is None or hero.fate < fate_cost
    if policy.tests == "never" or (policy.tests == "fate" and no_fate):
        return AcceptTest(decision=tests[0].id)
    return None


def settle_fate(ctx: GameContext, policy: FatePolicy) -> list[Event]:
    """Answer, inside the command that runs, every window the policy does not stop at."""
    events: list[Event] = []
    for _ in range(MOST_ANSWERS):
        answer = answer_for(ctx.campaign, policy, ctx.rules.fate_cost)
        if answer is None:
            break
        events += answer.apply(ctx)
    return events
