"""The gate: whether the game's phase allows a command now, and if not, why.

One place answers "may this run now?" for every command, from the campaign alone:

- a fallen hero's campaign takes no command at all (:func:`d100gui.engine.hero.fallen.read_only_reason`);
- each command class declares when it may run (``Command.when``, a :class:`~d100gui.engine.phases.Phases`):
  during a fight, during a quest (or only as a hand correction there), in the middle of the
  between-quests phase;
- a command class may add a finer check of its own (``Command.refuse_now``), read first here: its
  reason, when it gives one, is the more precise (e.g. an equipment change names the fight's own
  Change weapon action).

:meth:`d100gui.engine.game.Game.execute` calls :func:`refusal` (through its referee,
:mod:`d100gui.engine.referee`) before ``apply`` and raises
:class:`~d100gui.engine.protocol.CommandRefused` with its reason; the flow query and the menus
call :func:`refusal_for_kind` to grey an action and say why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from d100gui.engine.hero.fallen import read_only_reason
from d100gui.engine.phases import FACE_OFFER, START_FIGHT, Phases
from d100gui.engine.protocol import Event, Payload, declare

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.game import Command
    from d100gui.engine.rules.model import Rules

__all__ = ["HandCorrection", "declared", "hand_correction", "hand_correction_event", "refusal", "refusal_for_kind"]


@declare("hand_correction", topic="log")
class HandCorrection(Payload):
    """A map command run during a quest as a hand correction, not as a step of the turn (the entry is marked manual)."""

    command: str


def declared(cls: type[Command]) -> Phases | None:
    """The phases ``cls`` declares (None when it declares none: such a command never runs)."""
    when = getattr(cls, "when", None)
    return when if isinstance(when, Phases) else None


def _command_class(kind: str) -> type[Command] | None:
    from d100gui.engine.game import EVERY_COMMAND  # a kind's module imported when first asked for

    return EVERY_COMMAND.get(kind)


def _label(kind: str) -> str:
    return kind.replace("_", " ")


#: how a refusal names what the player tried, where the kind alone reads badly
DOING = {
    "turn_move": "move on",
    "turn_search": "search",
    "turn_end": "end the turn",
    "turn_enter": "enter",
    "move_hero": "move",
    "enter_dungeon": "enter the dungeon",
    "leave_dungeon": "leave the dungeon",
    "advance_time": "shade the time track",
}


def _doing(kind: str) -> str:
    return DOING.get(kind, _label(kind))


def _head(campaign: Campaign) -> str:
    """``Turn 2, step 4 (The area): `` while a quest's turn is under way, else ""."""
    from d100gui.engine.adventure.turn import current_step, step_label, turn_of  # adventure imports the game

    turn = turn_of(campaign)
    return f"Turn {turn.number}, {step_label(current_step(campaign))}: " if turn is not None else ""


def _phase_refusal(campaign: Campaign, cls: type[Command]) -> str:
    kind = str(cls.model_fields["kind"].default)
    when = declared(cls)
    if when is None:
        return f"{_label(kind)} declares no phase it may run in, so it never runs."
    combat = campaign.combat
    if when.fight == "no" and combat is not None:
        name = combat.monster.name
        if when is START_FIGHT or when is FACE_OFFER:
            return f"{_head(campaign)}a fight with {name} is already under way: win it, escape or resolve it first."
        return f"{_head(campaign)}you cannot {_doing(kind)} during a fight with {name}: win it, escape or resolve it first."
    if when.fight == "only" and combat is None:
        if campaign.character is None:
            return "There is no character yet: create one first."
        return "There is no fight in progress."
    offer = campaign.adventure.fight_offered
    if when.offer == "no" and offer is not None:
        waits = f"a {offer.source} waits ({offer.table_roll.describe()})"
        if offer.table_roll.row is None:
            return f"{_head(campaign)}{waits}: type its Table E row, then fight it first."
        return f"{_head(campaign)}you cannot {_doing(kind)} now: {waits}; fight it first."
    quest = campaign.adventure.quest
    if when.quest == "no" and quest is not None:
        instead = when.instead or "complete or fail it first"
        return f"{_head(campaign)}{quest.quest.name} is under way: {instead}."
    if when.quest == "only" and quest is None:
        return "No quest is under way: begin a quest first."
    town = campaign.town
    if when.town == "no" and town.active:
        return f"The between-quests phase is under way: finish it (Ready for the next quest) before you {_doing(kind)}."
    if when.town == "only" and not town.active:
        return "The between-quests phase is not open: it comes after a quest."
    return ""


def _own_refusal(campaign: Campaign, cls: type[Command], rules: Rules, command: Command | None) -> str:
    check = getattr(cls, "refuse_now", None)
    if check is None:
        return ""
    reason = check(campaign, rules, command)
    return reason if isinstance(reason, str) else ""


def refusal(campaign: Campaign, command: Command, rules: Rules) -> str:
    """ "" when the game's phase allows ``command`` now, else the reason (a sentence for the player)."""
    reason = read_only_reason(campaign)
    if reason:
        return reason
    cls = type(command)
    return _own_refusal(campaign, cls, rules, command) or _phase_refusal(campaign, cls)


def step_refusal(campaign: Campaign) -> str:
    """ "" when undo and redo may step through ``campaign``, else why not: a fallen hero's campaign is
    read-only, undo included (the rulebook has no way back from a death)."""
    return read_only_reason(campaign)


def refusal_for_kind(campaign: Campaign, kind: str, rules: Rules) -> str:
    """The same as :func:`refusal`, for a command kind without its fields (to grey an action)."""
    reason = read_only_reason(campaign)
    if reason:
        return reason
    cls = _command_class(kind)
    if cls is None:
        return f"Unknown command {kind!r}."
    return _own_refusal(campaign, cls, rules, None) or _phase_refusal(campaign, cls)


def hand_correction(campaign: Campaign, command: Command) -> bool:
    """Whether ``command`` runs now as a hand correction (marked manual in the log)."""
    if type(command).manual:
        return True
    when = declared(type(command))
    return when is not None and when.quest == "manual" and campaign.adventure.quest is not None


def hand_correction_event(campaign: Campaign, command: Command) -> Event | None:
    """The log's mark for a command that runs as a hand correction only because a quest is under way."""
    if type(command).manual:
        return None  # a hand edit by its nature says so itself
    when = declared(type(command))
    if when is None or when.quest != "manual" or campaign.adventure.quest is None:
        return None
    what = _label(str(type(command).model_fields["kind"].default))
    return Event.of(HandCorrection(command=command.kind), f"By hand: {what} (a correction, not a step of the turn).")
