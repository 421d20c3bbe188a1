"""A feature's follow-up roll: "roll SPIKES" in a test's outcome rolls the note its feature printed.

Table G 5 prints ``[F: Belt Check, -2 hp, roll SPIKES, +1]`` and, after the test, the note
``SPIKES – Roll 1d10, odds spikes missed, even spikes hit -2 HP.`` The die and what each
parity does are read from that text (the tables' data in ``resources/``), never written here:
:func:`parse_follow_up` reads the note, :func:`remember_notes` keeps a feature's notes on the
adventure state when the feature is met (so a saved campaign still knows them when its test is
rolled later), and :func:`follow_up_roll` rolls the die and hands the side it lands on back to
the effects interpreter. A note that is not a parity roll stays a narrative for the player.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from d100gui.engine.game import GameContext
from d100gui.engine.protocol import Event, told
from d100gui.engine.quest import events as ev
from d100gui.engine.rules.notation import Outcome, parse_effects

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

#: "roll NAME": the printed name in capitals, as a test's outcome names its note
_CALL = re.compile(r"^\s*roll\s+(?P<name>[A-Z][A-Z']{2,}(?:\s+[A-Z][A-Z']{2,})*)\s*\.?\s*$")
#: "NAME – " at the head of a note
_HEAD = re.compile(r"^\s*[A-Z][A-Z' ]{2,}?\s*[-–—]\s+")
#: "Roll 1d10, odds <what happens>, even(s) <what happens>" (either side first)
_PARITY = re.compile(
    r"^roll\s+(?P<die>\d*d\d+)\s*,\s*(?P<first>odds?|evens?)\s+(?P<a>.+?)\s*,\s*(?P<second>odds?|evens?)\s+(?P<b>.+?)\s*\.?\s*$",
    re.I,
)


@dataclass(frozen=True)
class FollowUp:
    """A note's parity roll: roll ``die``; an odd result does ``odd``, an even one ``even`` (effect notation)."""

    name: str
    die: str
    odd: str
    even: str

    def side(self, value: int) -> tuple[Literal["odd", "even"], str]:
        """``("odd" | "even", what it does)`` for a rolled ``value``."""
        return ("even", self.even) if value % 2 == 0 else ("odd", self.odd)


def parse_follow_up(name: str, note: str) -> FollowUp | None:
    """The parity roll a note prints (``"SPIKES – Roll 1d10, odds ..., even ..."``), or None if it prints none."""
    found = _PARITY.match(_HEAD.sub("", note, count=1).strip())
    if found is None or found["first"][0].lower() == found["second"][0].lower():
        return None
    sides = {found["first"][0].lower(): found["a"], found["second"][0].lower(): found["b"]}
    return FollowUp(name=name, die=found["die"].lower(), odd=sides["o"], even=sides["e"])


def called_note(text: str) -> str:
    """The name a ``roll NAME`` effect calls (``"roll SPIKES"`` -> ``"SPIKES"``), else ``""``."""
    found = _CALL.match(text)
    return found["name"].upper() if found else ""


def remember_notes(campaign: Campaign, notes: list[tuple[str, str]]) -> None:
    """Keep the notes of the feature just met, by name, for its test's outcome to roll (replaces the last feature's)."""
    state = getattr(campaign, "adventure", None)
    named = {name.upper(): text for name, text in notes if name}
    if state is not None and named:
        state.notes = named


def _recent_notes(campaign: Campaign, lookback: int) -> dict[str, str]:
    """Notes shown by the last actions' ``feature_note`` events (a campaign saved before notes were kept)."""
    found: dict[str, str] = {}
    for entry in campaign.log[-lookback:]:
        for event in entry.events:
            if event.kind == "feature_note" and event.data.get("name"):
                found[str(event.data["name"]).upper()] = str(event.data.get("text", ""))
    return found


#: how many actions back a feature's notes are looked for when the adventure state kept none
NOTES_LOOKBACK = 30

Apply = Callable[[GameContext, Outcome, str, int], list[Event]]


def follow_up_roll(ctx: GameContext, text: str, source: str, depth: int, apply: Apply) -> list[Event] | None:
    """Roll the note a ``roll NAME`` effect calls and apply the side it lands on; None if ``text`` calls none."""
    name = called_note(text)
    if not name:
        return None
    state = getattr(ctx.campaign, "adventure", None)
    kept: dict[str, str] = dict(getattr(state, "notes", {}) or {})
    note = kept.get(name) or _recent_notes(ctx.campaign, NOTES_LOOKBACK).get(name, "")
    follow = parse_follow_up(name, note) if note else None
    if follow is None:
        return None
    roll = ctx.dice.roll(follow.die, name)
    parity, what = follow.side(roll.final)
    outcome = parse_effects(what)
    applies = any(item.kind != "narrative" for option in outcome.options for item in option.effects)
    payload = ev.FollowUpRolled(name=name, roll=roll, parity=parity, text=what, source=source, applied=applies)
    events = [told(payload)]
    if applies:
        events += apply(ctx, outcome, name, depth + 1)
    return events
