"""What every adventure command starts from: the campaign's adventure state, the fight guard, the time track.

Kept apart from :mod:`d100gui.engine.adventure.commands` so the turn's commands (:mod:`d100gui.engine.adventure.turn`) and the
quest's share them without importing each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from d100gui.engine.game import GameContext
from d100gui.engine.hero.events import HeroFell
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.health import lay_to_rest, settle_hp
from d100gui.engine.hero.time_track import FiredTrigger
from d100gui.engine.protocol import Event, Told, told
from d100gui.engine.quest import events as ev
from d100gui.engine.quest.model import AdventureState, FightOffer, adventure_rules
from d100gui.engine.quest.time import pass_time

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


def adventure_of(campaign: Campaign) -> AdventureState:
    """The campaign's adventure state (``Campaign.adventure``); refused on a campaign that keeps none."""
    state = getattr(campaign, "adventure", None)
    if not isinstance(state, AdventureState):
        refuse("This campaign keeps no adventure state (Campaign.adventure).")
    return state


def offer_waiting(campaign: Campaign) -> FightOffer | None:
    """The monster offered and not yet fought (a wandering monster, a red area's), if any."""
    state = getattr(campaign, "adventure", None)
    return state.fight_offered if isinstance(state, AdventureState) else None


def outside_fight(campaign: Campaign, doing: str) -> None:
    """Refuse ``doing`` during a fight, or while an offered monster waits to be fought."""
    if campaign.combat is not None:
        refuse(f"You cannot {doing} during a fight: finish the fight first.")
    offer = offer_waiting(campaign)
    if offer is not None:
        refuse(f"You cannot {doing} now: a {offer.source} waits ({offer.table_roll.describe()}); fight it first.")


def pass_clocks(ctx: GameContext, clocks: int) -> list[Event]:
    """Shade ``clocks`` (plus those owed) with every trigger fired; store an offered fight, lay a dead hero to rest."""
    campaign, rules = ctx.campaign, ctx.rules
    ch = living_character(campaign)
    state = adventure_of(campaign)
    outside_fight(campaign, "shade the time track")
    asked = state.clocks_owed + clocks
    if asked <= 0:
        refuse("There is no time to shade.")
    out = pass_time(ch, rules, adventure_rules(rules), ctx.dice, ctx.tables, asked)
    state.clocks_owed = out.clocks_left
    if out.fight is not None:
        state.fight_offered = FightOffer(table_roll=out.fight.table_roll, clock=out.fight.clock, source=out.fight.source)
    track = ch.time_track
    summary = ev.TimeAdvanced(
        clocks=asked,
        shaded=out.shaded,
        on_track=track.shaded,
        total=track.total,
        clocks_left=out.clocks_left,
        triggers=out.triggers,
    )
    if out.fell is not None:
        lay_to_rest(campaign, ch)
        state.end_with_hero()
    return [told(summary), *(told(step) for step in out.steps)]


def time_effect(ctx: GameContext, clocks: int) -> tuple[list[Told], list[FiredTrigger]]:
    """A ``+N`` from any effect: the one time-track procedure (every trigger fired, a wandering monster offered).

    During a fight, or while an offered monster waits, the clocks are owed: ``resume_time``
    shades them once the fight is over (a wandering monster cannot join a fight under way).
    Returns the procedure's steps and the triggers the clocks reached; a death lays the hero to rest.
    """
    campaign = ctx.campaign
    ch = living_character(campaign)
    state = adventure_of(campaign)
    if campaign.combat is not None or state.fight_offered is not None:
        state.clocks_owed += max(0, clocks)
        return [], []
    out = pass_time(ch, ctx.rules, adventure_rules(ctx.rules), ctx.dice, ctx.tables, clocks)
    state.clocks_owed += out.clocks_left
    if out.fight is not None:
        state.fight_offered = FightOffer(table_roll=out.fight.table_roll, clock=out.fight.clock, source=out.fight.source)
    if out.fell is not None:
        lay_to_rest(campaign, ch)
        state.end_with_hero()
    return list(out.steps), list(out.triggers)


def hp_rule(ctx: GameContext, source: str) -> list[Event]:
    """HP at 0 or less outside a fight: RES, a Life (HP back to maximum), else the hero falls and the quest ends.

    In a fight nothing is done here: the fight applies the same rule itself (:mod:`~d100gui.engine.combat.defence`).
    """
    campaign = ctx.campaign
    if campaign.combat is not None or campaign.character is None:
        return []
    outcome = settle_hp(campaign, ctx.rules, source)
    if outcome is None:
        return []
    if isinstance(outcome, HeroFell):
        adventure_of(campaign).end_with_hero()
    return [told(outcome)]
