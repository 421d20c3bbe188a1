"""The game's flow, answered by the engine: where the game is, what waits for the player, what may be done now.

:func:`flow` reads the campaign alone (no log scans, no store reads) and returns a :class:`Flow`:
every waiting thing with the commands that answer it (:class:`Waiting`), and every other action
with whether it is allowed now and why not (:class:`FlowAction`). Views render it and send an
action's command; they never decide a rule themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.game import Campaign, Command
from d100gui.engine.rules.model import Rules


@dataclass(frozen=True)
class FlowAction:
    """One control the player may click: what it sends, whether it may now, and the tooltip."""

    key: str  # stable id, e.g. "search", "exp_d12_characteristic", "fight_offered"
    label: str  # button text
    command: Command  # what it sends (one click = one command = one undo step)
    enabled: bool
    why: str  # tooltip: what it does, or why it is not allowed now
    group: str  # "decision" | "turn" | "fight" | "quest" | "town" | "creation" | "map" | "menu"
    asks_row: bool = False  # the view must ask the player for a table row first


@dataclass(frozen=True)
class Waiting:
    """Something the game waits for the player to answer, with the controls that answer it."""

    id: str  # the pending decision id, or a stable key ("fight", "offer", "row_12", ...)
    kind: str
    prompt: str
    answers: tuple[FlowAction, ...]  # never empty: at least one enabled answer


@dataclass(frozen=True)
class Flow:
    """Where the game is and what the player may do now."""

    phase: str  # "no_hero" | "creation" | "ready" | "quest" | "town" | "fallen"
    fighting: bool
    where: str
    quest: str = ""
    turn: int = 0
    step: str = ""
    waiting: tuple[Waiting, ...] = ()
    actions: tuple[FlowAction, ...] = ()
    refusals: tuple[tuple[str, str], ...] = ()  # (kind, reason) worked out when the flow was made

    def why_not(self, kind: str) -> str:
        """"" when a command of ``kind`` is allowed now, else the reason."""
        return dict(self.refusals).get(kind, "")


def flow(campaign: Campaign, rules: Rules, library: TableLibrary | None = None) -> Flow:
    """The flow of ``campaign`` now (``library``: to name table rows and scroll spells)."""
    if campaign.character is None:
        return Flow(phase="no_hero", fighting=False, where="No hero yet.")
    return Flow(phase="ready", fighting=campaign.combat is not None, where="")
