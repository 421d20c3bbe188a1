"""The referee: what the D100 rules say around every command a game runs.

:class:`~d100gui.engine.game.Game` knows no rule; it asks its campaign's referee
(:attr:`Campaign.referee <d100gui.engine.campaign.Campaign.referee>`, this module's
:data:`REFEREE`):

- before ``apply``: may the command run now (:mod:`d100gui.engine.gate`: its phase, a fallen hero's
  campaign read-only), and does it run as a hand correction (marked in the log);
- inside the same command: the Fate windows the player's policy skips (:func:`settle_fate`;
  the policy itself is :class:`~d100gui.engine.policies.FatePolicy`), so one click is one command
  and one undo step, and an undo lands the player back before the click;
- after it: the hero's values against the rules' ranges (:mod:`d100gui.engine.checks`, the load
  check's own list), so what the engine accepts, the open path accepts;
- before an undo or a redo: a fallen hero's campaign steps nowhere.

It stands above the features it asks (the gate, the fight's and the tests' accept commands, the
checks) and below the campaign that names it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from d100gui.engine import gate
from d100gui.engine.policies import FatePolicy

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.game import Command, GameContext
    from d100gui.engine.protocol import Event
    from d100gui.engine.rules.model import Rules

__all__ = ["MOST_ANSWERS", "REFEREE", "D100Referee", "answer_for", "settle_fate"]

#: how many windows one command may answer at most (a fight ends long before)
MOST_ANSWERS = 200


def answer_for(campaign: Campaign, policy: FatePolicy, fate_cost: int) -> Command | None:
    """The accept the policy gives for what waits now, or None when the player decides."""
    from d100gui.engine.fight_commands import CombatContinue  # imported when a window is answered
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


class D100Referee:
    """The D100 rules around every command (see the module); it holds nothing: one serves every game."""

    def refusal(self, campaign: Campaign, command: Command, rules: Rules) -> str:
        return gate.refusal(campaign, command, rules)

    def step_refusal(self, campaign: Campaign) -> str:
        return gate.step_refusal(campaign)

    def hand_correction(self, campaign: Campaign, command: Command) -> bool:
        return gate.hand_correction(campaign, command)

    def hand_correction_event(self, campaign: Campaign, command: Command) -> Event | None:
        return gate.hand_correction_event(campaign, command)

    def settle(self, ctx: GameContext, policy: FatePolicy) -> list[Event]:
        return settle_fate(ctx, policy)

    def outcome_refusal(self, ctx: GameContext, command: Command, was: Mapping[str, Callable[[], Any]]) -> str:
        """Refuse a command that left the hero with a value the rules do not allow (the load check's own list).

        One set of range rules (:mod:`d100gui.engine.checks`, from this game's rules, the player's
        sheet layout included): what the engine accepts, the open path accepts. A sheet that was
        already out of range before the command (an older file) is not held against it.
        """
        before = was.get("character")
        if before is None:  # the command never reached the hero
            return ""
        character = ctx.campaign.character
        if character is None:
            return ""
        from d100gui.engine.checks import character_problems  # imported when a command reached the hero

        problems = character_problems(character, ctx.rules)
        if not problems:
            return ""
        old = before()
        if old is None or not character_problems(old, ctx.rules):
            return f"{command.kind.replace('_', ' ').capitalize()} is refused: {problems[0].removeprefix('the hero: ')}"
        return ""


#: the referee of every D100 campaign (:attr:`d100gui.engine.campaign.Campaign.referee`)
REFEREE = D100Referee()
