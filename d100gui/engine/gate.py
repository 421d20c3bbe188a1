"""The gate: whether the game's phase allows a command now, and if not, why.

One place answers "may this run now?" for every command, from the campaign alone:

- a fallen hero's campaign takes no command at all (:func:`d100gui.engine.town.fallen.read_only_reason`);
- each command class declares when it may run (``Command.when``, a :class:`~d100gui.engine.phases.Phases`):
  during a fight, during a quest (or only as a hand correction there), in the middle of the
  between-quests phase;
- a command class may add a finer check of its own (``Command.refuse_now``), read here too.

:meth:`d100gui.engine.game.Game.execute` calls :func:`refusal` before ``apply`` and raises
:class:`~d100gui.engine.protocol.CommandRefused` with its reason; the flow query and the menus
call :func:`refusal_for_kind` to grey an action and say why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from d100gui.engine.phases import Phases
from d100gui.engine.town.fallen import read_only_reason

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.game import Campaign, Command
    from d100gui.engine.rules.model import Rules

__all__ = ["declared", "hand_correction", "refusal", "refusal_for_kind"]


def declared(cls: type[Command]) -> Phases | None:
    """The phases ``cls`` declares (None when it declares none: such a command never runs)."""
    when = getattr(cls, "when", None)
    return when if isinstance(when, Phases) else None


def _command_class(kind: str) -> type[Command] | None:
    from d100gui.engine.commands import ALL_COMMANDS

    for cls in ALL_COMMANDS:
        if cls.model_fields["kind"].default == kind:
            return cls
    return None


def _label(kind: str) -> str:
    return kind.replace("_", " ")


def _phase_refusal(campaign: Campaign, cls: type[Command]) -> str:
    kind = str(cls.model_fields["kind"].default)
    when = declared(cls)
    if when is None:
        return f"{_label(kind)} declares no phase it may run in, so it never runs."
    fighting = campaign.combat is not None
    if when.fight == "no" and fighting:
        return f"A fight is on: finish it (or escape) before you {_label(kind)}."
    if when.fight == "only" and not fighting:
        return "There is no fight on."
    in_quest = campaign.adventure.quest is not None
    if when.quest == "no" and in_quest:
        return f"A quest is under way: complete or fail it before you {_label(kind)}."
    if when.quest == "only" and not in_quest:
        return "There is no quest under way."
    in_town = campaign.town.active
    if when.town == "no" and in_town:
        return f"The between-quests phase is under way: finish it before you {_label(kind)}."
    if when.town == "only" and not in_town:
        return "The between-quests phase is not under way."
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
    return _phase_refusal(campaign, cls) or _own_refusal(campaign, cls, rules, command)


def refusal_for_kind(campaign: Campaign, kind: str, rules: Rules) -> str:
    """The same as :func:`refusal`, for a command kind without its fields (to grey an action)."""
    reason = read_only_reason(campaign)
    if reason:
        return reason
    cls = _command_class(kind)
    if cls is None:
        return f"Unknown command {kind!r}."
    return _phase_refusal(campaign, cls) or _own_refusal(campaign, cls, rules, None)


def hand_correction(campaign: Campaign, command: Command) -> bool:
    """Whether ``command`` runs now as a hand correction (marked manual in the log)."""
    if type(command).manual:
        return True
    when = declared(type(command))
    return when is not None and when.quest == "manual" and campaign.adventure.quest is not None
