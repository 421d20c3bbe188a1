"""A narrative effect, with its one-click hand correction: what the engine could not carry out, made easy to do.

An effect the engine does not carry out is logged as ``narrative`` (the player does it at the
table). :func:`corrections_for` turns each narrative of an action into a :class:`Correction`:

* when the text carries a number the sheet can take (Table G's "even spikes hit -2 HP" shown
  beside its test, a typed row's "+1 Food"), the obvious correction is :class:`CorrectByHand`:
  that effect applied through the interpreter, marked manual in the log (so HP at 0 still
  spends a Life);
* otherwise the correction names the part of the sheet the text is about (:data:`SECTIONS`:
  HP, gold, supplies, tracks, items, characteristics, skills, a door on the map, the time
  track), for the view to open there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from d100gui.engine.command_registry import register_command
from d100gui.engine.dungeon.commands import SetDoor
from d100gui.engine.dungeon.events import Side
from d100gui.engine.effects.interpreter import apply_effect
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.phases import SHEET_FIX, Phases
from d100gui.engine.protocol import Event
from d100gui.engine.rules.notation import Effect, parse_effects

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

Section = Literal["hp", "gp", "supplies", "tracks", "items", "characteristics", "skills", "doors", "time", "sheet"]
#: what a text names -> the part of the sheet (or map) its correction opens; the first match wins
SECTIONS: tuple[tuple[re.Pattern[str], Section], ...] = (
    (re.compile(r"\bdoors?\b", re.I), "doors"),
    (re.compile(r"\b(?:hp|health|wounds?)\b", re.I), "hp"),
    (re.compile(r"\b(?:gp|gold|coins?)\b", re.I), "gp"),
    (re.compile(r"\b(?:oil|food|rations?|picks?)\b", re.I), "supplies"),
    (re.compile(r"\b(?:poison|disease|keys?|levers?|pips?)\b", re.I), "tracks"),
    (re.compile(r"\b(?:items?|backpack|belt|brews?|potions?|scrolls?|equipment|armour|weapons?)\b", re.I), "items"),
    (re.compile(r"\b(?:str|dex|int|strength|dexterity|intelligence|characteristics?)\b", re.I), "characteristics"),
    (re.compile(r"\b(?:skills?|agility|aware|bravery|dodge|escape|locks|lucky|magic|strong|traps)\b", re.I), "skills"),
    (re.compile(r"\b(?:time|clocks?|turns?)\b", re.I), "time"),
)
SECTION_NAMES: dict[Section, str] = {
    "hp": "HP",
    "gp": "gold",
    "supplies": "supplies",
    "tracks": "tracks",
    "items": "items",
    "characteristics": "characteristics",
    "skills": "skills",
    "doors": "a door on the map",
    "time": "the time track",
    "sheet": "the sheet",
}
#: effects a correction may apply in one click (each has a number the sheet takes)
APPLICABLE = frozenset(
    {"gp", "hp", "hp_primary", "characteristic", "skill", "rep", "fate", "life", "pick", "oil", "food"}
    | {"key", "lever", "poison", "disease", "objective", "time", "repair_pips", "belt_check"}
)


@register_command
class CorrectByHand(Command):
    """Apply a narrative's obvious correction: ``effect`` through the effects interpreter, marked manual in the log."""

    kind: Literal["correct_by_hand"] = "correct_by_hand"
    when: ClassVar[Phases] = SHEET_FIX
    manual: ClassVar[bool] = True
    effect: Effect
    source: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        living_character(ctx.campaign)
        if self.effect.kind not in APPLICABLE:
            refuse(f"{self.effect.describe()} is not a correction the sheet can take: edit the sheet instead.")
        return apply_effect(ctx, self.effect, f"Hand correction{': ' + self.source if self.source else ''}")


@dataclass(frozen=True)
class Correction:
    """A narrative as the view shows it: ``text``, a button ``label``, and ``command`` (the obvious correction)
    or ``section`` (where the view opens the sheet edit)."""

    text: str
    label: str
    section: Section
    command: Command | None = None


def section_of(text: str) -> Section:
    """The part of the sheet a narrative names (``sheet`` when it names none)."""
    return next((section for pattern, section in SECTIONS if pattern.search(text)), "sheet")


def obvious_effect(effect: Effect | None, text: str) -> Effect | None:
    """The one effect with a number a narrative carries (its parsed effect, or the text read again), or None."""
    if effect is not None and effect.kind in APPLICABLE and (effect.amount is not None or effect.kind == "belt_check"):
        return effect
    found = [
        e
        for o in parse_effects(text).options[:1]
        for e in o.effects
        if e.kind in APPLICABLE and (e.amount is not None or e.kind == "belt_check")
    ]
    return found[0] if len(found) == 1 else None


def correction(effect: Effect | None, text: str, source: str = "") -> Correction:
    """The hand correction of one narrative (see the module)."""
    shown = text.strip()
    fix = obvious_effect(effect, shown)
    if fix is not None:
        return Correction(shown, f"Apply: {fix.describe()}", section_of(shown), CorrectByHand(effect=fix, source=source))
    section = section_of(shown)
    return Correction(shown, f"Correct {SECTION_NAMES[section]} by hand...", section)


#: how many actions back a feature's notes are looked for ("roll SPIKES" names the note its feature printed)
NOTES_LOOKBACK = 30
_NAMES = re.compile(r"\b[A-Z][A-Z']{2,}(?:\s+[A-Z][A-Z']{2,})*\b")


def _notes(campaign: Campaign) -> dict[str, str]:
    """The feature notes of the last actions, by the name they print (``SPIKES`` -> its text)."""
    found: dict[str, str] = {}
    for entry in campaign.log[-NOTES_LOOKBACK:]:
        for event in entry.events:
            if event.kind == "feature_note" and event.data.get("name"):
                found[str(event.data["name"]).upper()] = str(event.data.get("text", ""))
    return found


def corrections_for(campaign: Campaign) -> list[Correction]:
    """The hand corrections of the last action's narratives (none once a correction was made: it is the last action).

    A narrative that names a note its feature printed ("roll SPIKES") is corrected from that note's text."""
    if not campaign.log or campaign.character is None:
        return []
    found: list[Correction] = []
    notes: dict[str, str] | None = None
    applied = {event.kind for event in campaign.log[-1].events}
    for event in campaign.log[-1].events:
        if event.kind != "narrative":
            continue
        raw = event.data.get("effect")
        effect = Effect.model_validate(raw) if isinstance(raw, dict) else None
        text = event.message
        if notes is None:
            notes = _notes(campaign)
        named = next((notes[n.upper()] for n in _NAMES.findall(text) if n.upper() in notes), "")
        if named:
            fix = correction(None, named)
            found.append(Correction(text.strip(), fix.label, fix.section, fix.command))
            continue
        fix = correction(effect, text)
        if fix.command is None and _APPLIED_BY.get(fix.section, frozenset()) & applied:
            continue  # a row's words beside its numbers ("a pouch of coins" of "... +10gp"): the action applied them
        found += door_choices(campaign, fix)
        found.append(fix)
    return found


#: the events that change each part of the sheet: a narrative with no number that names a part this very action
#: changed is the words of a row whose numbers were applied, not something left to do at the table (offering "Correct
#: gold by hand" after the +10 gp was added invited counting it twice)
_APPLIED_BY: dict[Section, frozenset[str]] = {
    "gp": frozenset({"gp"}),
    "hp": frozenset({"hp", "hp_primary"}),
    "supplies": frozenset({"supplies"}),
    "tracks": frozenset({"poison", "disease", "key", "lever", "track"}),
    "characteristics": frozenset({"characteristic"}),
    "skills": frozenset({"skill"}),
}


#: how many closed doors a "change any door ... to Open" correction offers as buttons (nearest first)
DOOR_CHOICES = 4
_OPENS_A_DOOR = re.compile(r"\bopen\b", re.I)


def door_choices(campaign: Campaign, fix: Correction) -> list[Correction]:
    """A narrative that opens a door of the player's choice (Table B's DOOR RELEASED): one button per closed door
    of the map, nearest the hero first, each marking that door open by hand; the map's own menu does the rest."""
    dungeon = campaign.dungeons.current_dungeon
    if fix.section != "doors" or fix.command is not None or dungeon is None or not _OPENS_A_DOOR.search(fix.text):
        return []
    hx, hy = dungeon.hero or dungeon.entrance
    closed: list[tuple[int, str, Side, str]] = []
    for key, area in dungeon.areas.items():
        for side, ex in area.exits.items():
            door = ex.door
            if door is not None and ex.drawn == "door" and not door.is_open and not door.pending:
                x, y = area.pos
                closed.append((abs(x - hx) + abs(y - hy), key, side, door.type))
    choices = []
    for _, key, side, door_type in sorted(closed)[:DOOR_CHOICES]:
        command = SetDoor(pos=key, side=side, door_type=door_type, is_open=True)
        choices.append(Correction(fix.text, f"Open the {door_type} door ({key} {side})", "doors", command))
    return choices


CORRECTION_COMMANDS: tuple[type[Command], ...] = (CorrectByHand,)
