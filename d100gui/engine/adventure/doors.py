"""Doors by Table D: each door type runs its own procedure (rulebook "Doors", Table D).

=====  ======================  ==============================================================
type   ways to open            what the table says
=====  ======================  ==============================================================
LD     ``key``, ``pick``       d10 at or under the keys held opens it (a key is deleted); or
                               pick the lock: LOCKED DOOR test, [F: -1 Pick, +1]
TLD    ``pick``                TRAP LOCKED DOOR test, [F: -1 Pick, -1 hp, +1]
JD     ``force``               JAMMED DOOR test, [F: -1HP, +1], forced again and again
LVD    ``lever``, ``force``    d10 at or under the levers held opens it (a lever pip is
                               removed); else it stays closed or is forced as a JAMMED DOOR
TD     ``test``                TRAPPED DOOR test, [F: -1HP]
MS     ``spell``, ``scroll``   Open Magic, cast from the spell book or a scroll on the belt
=====  ======================  ==============================================================

A test runs as a skill test that carries its door (:class:`~d100gui.engine.skill_test_commands.RollTest`
with ``door``), so the table's [S: Open] opens it and its [F: ...] costs are applied by the
effects interpreter (time through the time track's procedure, HP through the HP-zero rule).
"You need to have a pick in order to pick a lock": without one the pick is refused. A key or
lever roll is made once per door (a failed one is not retried: the lock is picked or the
lever door forced instead). The player may retry a test or turn to another exit.

:func:`can_open` says whether the hero can open a closed door with what they hold; the
secret passage (:func:`secret_passage_allowed`) is offered only when no way on can.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Literal

from d100gui.engine.combat.spells import scroll_spell, spell_id
from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.door_tests import check_door, door_row, open_tested_door
from d100gui.engine.effects.interpreter import apply_effect
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero.decisions import PendingTest, pending_of
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.model import Character
from d100gui.engine.magic import book
from d100gui.engine.magic.commands import CastSpell
from d100gui.engine.magic.events import SpellTookEffect
from d100gui.engine.phases import IN_DUNGEON, Phases
from d100gui.engine.protocol import CommandRefused, Event, told
from d100gui.engine.quest import events as ev
from d100gui.engine.quest.access import adventure_of, outside_fight
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Effect
from d100gui.engine.skill_test_commands import RollTest

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

Method = Literal["key", "pick", "lever", "force", "test", "spell", "scroll"]
#: door type -> the ways Table D gives to open it
METHODS: dict[str, tuple[Method, ...]] = {
    "LD": ("key", "pick"),
    "TLD": ("pick",),
    "JD": ("force",),
    "LVD": ("lever", "force"),
    "TD": ("test",),
    "MS": ("spell", "scroll"),
}
OPEN_MAGIC = "open_magic"
_TEST = re.compile(r"\b([A-Z]{2,}(?: [A-Z]{2,})*)\s+[–-]\s+Test:.*$")


def _key(dungeon: dg.Dungeon, where: dg.DoorAt) -> str:
    return f"{dungeon.id}/{where.pos}/{where.side}"


def tried(campaign: Campaign, where: dg.DoorAt) -> list[str]:
    """The once-only ways already tried on this door (``key``, ``lever``)."""
    dungeon = campaign.dungeons.current_dungeon
    return adventure_of(campaign).door_tries.get(_key(dungeon, where), []) if dungeon is not None else []


def open_magic_scrolls(character: Character, library: TableLibrary | None) -> list[int]:
    """Belt slots (1-based) holding an Open Magic scroll (without Table S to read: a scroll named Open Magic)."""
    slots = []
    for n, item in enumerate(character.belt, start=1):
        if item is None or item.kind != "scroll":
            continue
        if library is None:
            if "open magic" in f"{item.name} {item.effect}".lower():
                slots.append(n)
            continue
        try:
            if scroll_spell(library, item)[1] == OPEN_MAGIC:
                slots.append(n)
        except CommandRefused:
            continue
    return slots


def open_magic_positions(character: Character, rules: Rules) -> list[int]:
    """Spell-book positions (0-based) holding Open Magic that can be cast now."""
    return [
        n
        for n, place in enumerate(book.positions(character, rules))
        if place.spell is not None and place.castable and spell_id(place.spell.name) == OPEN_MAGIC
    ]


def methods_now(
    character: Character, rules: Rules, library: TableLibrary | None, door_type: str, done: list[str]
) -> list[Method]:
    """The ways the hero can try on a closed door of ``door_type`` now, with what they hold."""
    ways: list[Method] = []
    for method in METHODS.get(door_type, ()):
        if method == "key" and (character.keys <= 0 or "key" in done):
            continue
        if method == "lever" and "lever" in done:
            continue
        if method == "force" and door_type == "LVD" and "lever" not in done:
            continue
        if method == "pick" and character.supplies.picks <= 0:
            continue
        if method == "spell" and not open_magic_positions(character, rules):
            continue
        if method == "scroll" and not open_magic_scrolls(character, library):
            continue
        ways.append(method)
    return ways


def can_open(campaign: Campaign, rules: Rules, library: TableLibrary, where: dg.DoorAt, door: dg.Door) -> bool:
    """Whether the hero can open this door with what they hold (an unknown door type: no)."""
    ch = campaign.character
    if ch is None or door.pending:
        return False
    if door.is_open:
        return True
    done = tried(campaign, where)
    if door.type == "LVD":
        return True  # a lever door that will not open is forced as a JAMMED DOOR
    return bool(methods_now(ch, rules, library, door.type, done))


def openable(campaign: Campaign, rules: Rules, library: TableLibrary) -> Callable[[dg.Pos, dg.Direction, dg.Door], bool]:
    """The predicate :func:`~d100gui.engine.dungeon.map.progress_blocked` asks of each closed door."""

    def check(pos: dg.Pos, side: dg.Direction, door: dg.Door) -> bool:
        return can_open(campaign, rules, library, dg.DoorAt(pos=dg.pos_key(pos), side=side), door)

    return check


def secret_passage_allowed(campaign: Campaign, rules: Rules, library: TableLibrary) -> bool:
    """A secret passage is offered only when no way on can be opened with what the hero has."""
    dungeon = campaign.dungeons.current_dungeon
    return dungeon is not None and dg.progress_blocked(dungeon, openable(campaign, rules, library))


def door_test_line(row_text: str, door_type: str) -> str:
    """The Table D test of a door row: ``TRAPPED DOOR – Test: Dex [S: Open] [F:-1HP] (Traps)``
    (a lever door's is its JAMMED DOOR test)."""
    found = _TEST.search(row_text)
    if found is None:
        refuse(f"Table D prints no test for a {door_type} door: open it by hand (Mark it open) once done at the table.")
    return found.group(0).strip()


# --------------------------------------------------------------------------- the command


def _hero_door(ctx: GameContext, where: dg.DoorAt) -> tuple[dg.DoorAt, dg.Door]:
    campaign = ctx.campaign
    dungeon = campaign.dungeons.current_dungeon
    if dungeon is None or dungeon.hero is None:
        refuse("The hero is not in the dungeon.")
    at = check_door(campaign, where)
    door = dg.door_at(dungeon, at)
    if door is None or at not in dg.doorways_of(dungeon, dungeon.hero):
        refuse(f"The door on the {dg.DIRECTION_NAMES[where.side]} side of area {where.pos} is not a door of the hero's area.")
    if door.pending:
        refuse(f"The door {door.label} is not identified yet: type its Table D row first.")
    if door.is_open:
        refuse(f"The door {door.label} stands open.")
    return at, door


def _count_roll(ctx: GameContext, at: dg.DoorAt, door: dg.Door, method: Method) -> list[Event]:
    """A key or lever door: d10 at or under the keys (levers) held opens it and spends one."""
    campaign, ch = ctx.campaign, living_character(ctx.campaign)
    held = ch.keys if method == "key" else ch.levers
    dungeon = campaign.dungeons.current_dungeon
    assert dungeon is not None
    adventure_of(campaign).door_tries.setdefault(_key(dungeon, at), []).append(method)
    roll = ctx.dice.roll("d10", f"Table D: {door.label}, {method}s held {held}") if held > 0 else None
    success = roll is not None and roll.final <= held
    said = ev.DoorTried(pos=at.pos, side=at.side, door=door.type, method=method, roll=roll, success=success, held=held)
    events = [told(said)]
    if success:
        spent = Effect(kind="key" if method == "key" else "lever", amount=-1, text=f"-1 {method}")
        events += apply_effect(ctx, spent, f"Door {door.label}")
        events += open_tested_door(campaign, at)
    return events


def _cast(ctx: GameContext, at: dg.DoorAt, door: dg.Door, method: Method, index: int | None, belt_slot: int) -> list[Event]:
    """A magic seal: cast Open Magic (the magic package pays and tests), then apply its ``open_magic_seal`` here."""
    ch = living_character(ctx.campaign)
    if method == "spell":
        places = open_magic_positions(ch, ctx.rules)
        position = index if index is not None else (places[0] if places else None)
        if position not in places:
            refuse("Open Magic is not castable from that spell-book position.")
        cast = CastSpell(index=position)
    else:
        slots = open_magic_scrolls(ch, ctx.tables.library)
        slot = belt_slot or (slots[0] if slots else 0)
        if slot not in slots:
            refuse(f"Belt slot {slot} holds no Open Magic scroll.")
        cast = CastSpell(belt_slot=slot)
    events = cast.apply(ctx)
    opened = any(e.kind == SpellTookEffect.event_kind and e.data.get("effect") == "open_magic_seal" for e in events)
    said = ev.DoorTried(pos=at.pos, side=at.side, door=door.type, method=method, success=opened)
    events.append(told(said))
    return events + (open_tested_door(ctx.campaign, at) if opened else [])


@register_command
class TryDoor(Command):
    """Try to open a closed door of the hero's area the way Table D gives (see the module).

    ``method``: ``key`` / ``lever`` (a d10 against the keys or levers held), ``pick`` /
    ``force`` / ``test`` (the row's test, rolled as a skill test that carries the door:
    accept it or spend Fate), ``spell`` (Open Magic at book position ``index``, from 0) or
    ``scroll`` (the Open Magic scroll in ``belt_slot``, 1-10).
    """

    kind: Literal["try_door"] = "try_door"
    when: ClassVar[Phases] = IN_DUNGEON
    pos: str
    side: dg.Direction
    method: Method
    index: int | None = None
    belt_slot: int = 0
    auto_accept: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        ch = living_character(campaign)
        outside_fight(campaign, "open a door")
        if pending_of(campaign, PendingTest):
            refuse("A rolled test is waiting: accept it or use Fate first.")
        at, door = _hero_door(ctx, dg.DoorAt(pos=self.pos, side=self.side))
        ways = METHODS.get(door.type)
        if ways is None:
            refuse(f"Table D gives no procedure for a {door.type} door here: open it by hand once done at the table.")
        if self.method not in ways:
            refuse(f"A {door.type} door is opened by {' or '.join(ways)}, not by {self.method}.")
        allowed = methods_now(ch, ctx.rules, ctx.tables.library, door.type, tried(campaign, at))
        if self.method not in allowed:
            refuse(why_not(self.method, door, allowed))
        if self.method in ("key", "lever"):
            return _count_roll(ctx, at, door, self.method)
        if self.method in ("spell", "scroll"):
            return _cast(ctx, at, door, self.method, self.index, self.belt_slot)
        table = ctx.tables.library.get(dg.DOOR_TABLE)
        row = door_row(door, table)
        text = " ".join(row.fields.values()) if row is not None else ""
        said = told(ev.DoorTried(pos=at.pos, side=at.side, door=door.type, method=self.method, held=ch.supplies.picks))
        return [said, *RollTest(text=door_test_line(text, door.type), door=at, auto_accept=self.auto_accept).apply(ctx)]


def why_not(method: Method, door: dg.Door, allowed: list[Method]) -> str:
    reasons = {
        "key": "you hold no key, or your keys already failed on this door",
        "lever": "the levers were already tried on this door",
        "force": "a lever door is forced only once its levers failed",
        "pick": "you need a pick to pick a lock (Table D)",
        "spell": "Open Magic is not in your spell book, or you cannot cast it now",
        "scroll": "no Open Magic scroll is on your belt",
    }
    other = f"; try {' or '.join(allowed)}" if allowed else "; turn to another exit"
    return f"The door {door.label}: {reasons.get(method, method)}{other}."


DOOR_COMMANDS: tuple[type[Command], ...] = (TryDoor,)
