"""What a rolled row of each rulebook table does when an effect rolls on it: :data:`ROW_HANDLERS`.

An effect that says "roll on Table X" (:func:`~d100gui.engine.effects.interpreter.roll_on_table`)
rolls it and applies that row here, one small function per table:

* B (boosts) and C (curses): the magic package's :func:`~d100gui.engine.magic.boosts.apply_boost`
  and :func:`~d100gui.engine.magic.curses.apply_curse`, then what they leave to the campaign
  (HP at 0, the hero's fall, a curse's clocks through the time track's procedure);
* E (encounter): the monster is offered to combat (``Campaign.adventure.fight_offered``); the
  turn's commands and the strip's "Fight the monster" start it;
* F (find): its time column through the time track, then its effect;
* G (geographic): a feature's test waits for the player; without one its effects apply;
* I, L, P, R, TA, TB, TC (and A, W): the find goes in the backpack (a potion with the unequipped
  potions), or a bracketed effect ("(+1 Food)", "(Add one Objective)") or coins apply instead;
  a full backpack (:attr:`~d100gui.engine.quest.model.AdventureRules.backpack_rows`) leaves the choice to the player;
* S (spells): the spell found is a scroll of it, for the backpack.

A row's own effects may roll again: they go back through the effects interpreter one level
deeper (``depth``), and :data:`MAX_DEPTH` rolls deep the chain stops as a loop in the tables.
The interpreter is passed in (``then``), as this module is what it calls.

Every roll goes in the dice history (:func:`to_history`), so a row the player's tables lack is
asked for the way the dice panel asks; the roll waits in ``Campaign.adventure.rows_waiting``
and :class:`~d100gui.engine.adventure.row_commands.ApplyTypedRow` applies it once typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from d100gui.engine.combat.loot import loot_gain
from d100gui.engine.combat.monster import Monster, monster_from_text
from d100gui.engine.dice.events import RollMade, RowMissing
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import MAX_DEPTH, TableRoll
from d100gui.engine.dice.tables import TableError, TableLibrary
from d100gui.engine.dice.waiting import RowWaiting
from d100gui.engine.effects.follow_ups import remember_notes
from d100gui.engine.game import GameContext
from d100gui.engine.hero.events import HeroFell, Narrative
from d100gui.engine.hero.guards import living_character
from d100gui.engine.hero.health import lay_to_rest
from d100gui.engine.hero.model import Item
from d100gui.engine.hero.primaries import changed_primaries, primaries
from d100gui.engine.hero.vitals import changed_vitals, vitals
from d100gui.engine.magic.boosts import apply_boost
from d100gui.engine.magic.curses import apply_curse
from d100gui.engine.protocol import Event, told
from d100gui.engine.quest import events as ev
from d100gui.engine.quest.access import adventure_of, hp_rule, time_effect
from d100gui.engine.quest.model import FightOffer, adventure_rules
from d100gui.engine.rules.notation import Effect, Option, Outcome, parse_effects, table_id

#: the interpreter that applies an option of a row's effects: (ctx, option, source, depth) -> events
ApplyOption = Callable[[GameContext, Option, str, int], list[Event]]
#: the interpreter for a "/" outcome (it may leave a choice): (ctx, outcome, source, depth) -> events
ApplyOutcome = Callable[[GameContext, Outcome, str, int], list[Event]]

__all__ = ["ROW_HANDLERS", "RowCall", "apply_row", "feature", "to_history"]


def to_history(ctx: GameContext, result: TableRoll) -> Event:
    """Put a table roll in the dice history: the dice panel shows it, and asks for a missing row."""
    history = ctx.campaign.dice_history
    history.append(HistoryEntry(roll=result.roll, table=result))
    index = len(history) - 1
    payload = RowMissing(index=index) if result.row is None else RollMade(index=index)
    return Event.of(payload, f"{index + 1}. {result.describe()}")


@dataclass(frozen=True)
class RowCall:
    """One rolled row being applied: the game, the roll, the log's prefix, how deep, and the interpreter."""

    ctx: GameContext
    result: TableRoll
    source: str
    depth: int
    then: ApplyOption
    choose: ApplyOutcome

    @property
    def fields(self) -> dict[str, str]:
        assert self.result.row is not None
        return self.result.row.fields

    @property
    def name(self) -> str:
        """The row's name as printed (its first naming column), for the log."""
        f = self.fields
        return (f.get("name") or f.get("item") or f.get("spell") or f.get("part") or f.get("legend") or "").strip().title()

    def apply_text(self, text: str, source: str) -> list[Event]:
        """A row's effect text through the interpreter one level deeper ("/" leaves the choice)."""
        return self.choose(self.ctx, parse_effects(text), source, self.depth)


RowHandler = Callable[[RowCall], list[Event]]


def _said(message: str) -> Event:
    return Event.of(Narrative(), message)


# --------------------------------------------------------------------------- B, C: boosts and curses


def _boost(call: RowCall) -> list[Event]:
    ctx = call.ctx
    ch = living_character(ctx.campaign)
    assert call.result.row is not None
    before, held = primaries(ch), vitals(ch)
    result = apply_boost(ch, ctx.rules, call.result.row, ctx.tables, call.result)
    payload = ev.TableRowApplied(table_roll=call.result, name=result.boost, notes=result.notes, items=result.items)
    events = [told(payload), *changed_primaries(ch, before), *changed_vitals(ch, ctx.rules, held)]
    if result.door_released:  # the player chooses the door: a narrative, with its hand correction (the map)
        events.append(_said(f"{result.boost}: change one closed door of the dungeon to open on the map."))
    if ch.hp <= 0:
        events += hp_rule(ctx, result.boost)
    return events


def _curse(call: RowCall) -> list[Event]:
    ctx = call.ctx
    campaign, ch = ctx.campaign, living_character(ctx.campaign)
    assert call.result.row is not None
    before, held = primaries(ch), vitals(ch)
    result = apply_curse(ch, ctx.rules, call.result.row, ctx.dice, call.result)
    payload = ev.TableRowApplied(table_roll=call.result, name=result.curse, notes=result.notes, destroyed=result.destroyed)
    events = [told(payload), *changed_primaries(ch, before), *changed_vitals(ch, ctx.rules, held)]
    if result.adventure_over:
        lay_to_rest(campaign, ch)
        adventure_of(campaign).end_with_hero()
        return [*events, told(HeroFell(name=ch.name, source=result.curse))]
    if result.hp_zero or ch.hp <= 0:
        events += hp_rule(ctx, result.curse)
    if result.clocks and campaign.character is not None:
        steps, _ = time_effect(ctx, result.clocks)
        events += [told(step) for step in steps]
    return events


# --------------------------------------------------------------------------- E, F, G: the dungeon's procedures


def offer_fight(
    ctx: GameContext, result: TableRoll, source: str, surprise: bool = False, monster: Monster | None = None
) -> Event:
    """Offer a monster to combat (the turn's commands, or the strip's "Fight the monster", start it)."""
    ch = living_character(ctx.campaign)
    dungeon = ctx.campaign.dungeons.current_dungeon
    area = dungeon.hero_area() if dungeon is not None else None
    where = area.key if area is not None else ""
    offer = FightOffer(
        table_roll=result, clock=ch.time_track.shaded, source=source, surprise=surprise, area=where, monster=monster
    )
    adventure_of(ctx.campaign).fight_offered = offer
    missing = list(result.missing) if result.missing else []
    return told(
        ev.FightOffered(table_roll=result, clock=offer.clock, source=source, missing=missing, surprise=surprise, area=where)
    )


def _encounter(call: RowCall) -> list[Event]:
    if call.ctx.campaign.combat is not None:  # a monster cannot join a fight under way
        return [_said(f"{call.result.describe()}: a fight is under way - meet it afterwards by hand if the rules ask.")]
    surprise = "surprise" in " ".join(call.fields.values()).lower() or "surprise" in call.source.lower()
    return [offer_fight(call.ctx, call.result, call.source or "monster", surprise)]


def _find(call: RowCall) -> list[Event]:
    """A Table F row: its time (every trigger fired), then its effect unless the hero fell or a monster came."""
    ctx, campaign = call.ctx, call.ctx.campaign
    events: list[Event] = []
    clocks = sum(
        e.amount or 0 for o in parse_effects(call.fields.get("time", "")).options[:1] for e in o.effects if e.kind == "time"
    )
    if clocks > 0:
        steps, _ = time_effect(ctx, clocks)
        events += [told(step) for step in steps]
        if campaign.character is None or adventure_of(campaign).fight_offered is not None:
            return events
    effect = call.fields.get("effect", "")
    source = "hidden monster (surprise)" if re.search(r"\bsurprise\b", effect, re.I) else (call.source or "Table F")
    return events + call.apply_text(effect, source)


def feature(ctx: GameContext, option: Option, name: str, then: ApplyOption, depth: int = 0) -> list[Event]:
    """A Table G feature: with a test, the test is what applies (its [S]/[F] carry the effects) and
    the rest of the line describes what the test refers to (shown, not applied); without one, it all applies."""
    if not option.tests:
        return then(ctx, option, name, depth)
    events = then(ctx, Option(items=list(option.tests)), name, depth)
    notes = feature_notes(", ".join(e.text or e.describe() for e in option.effects))
    remember_notes(ctx.campaign, notes)  # its test's outcome may roll one ("roll SPIKES")
    for named, text in notes:
        events.append(told(ev.FeatureNote(feature=name, name=named, text=text)))
    return events


_NOTE_NAME = re.compile(r"(?:^|(?<=[.;,]\s))([A-Z][A-Z' ]{2,}?)\s*[-–—]\s+")


def feature_notes(text: str) -> list[tuple[str, str]]:
    """A feature's notes, one per printed name: ``"SPIKES – Roll 1d10, ... -2 HP."`` -> ``[("SPIKES", that text)]``."""
    text = text.strip()
    if not text:
        return []
    starts = [m for m in _NOTE_NAME.finditer(text)]
    if not starts:
        return [("", text)]
    found = []
    for n, m in enumerate(starts):
        end = starts[n + 1].start() if n + 1 < len(starts) else len(text)
        found.append((m.group(1).strip(), text[m.start() : end].strip(" ,;")))
    return found


def _geographic(call: RowCall) -> list[Event]:
    outcome = parse_effects(call.fields.get("effect", ""))
    if not outcome.options:
        return []
    return feature(call.ctx, outcome.options[0], call.name or "Table G", call.then, call.depth)


# --------------------------------------------------------------------------- loot: into the backpack


def _loot(call: RowCall) -> list[Event]:
    ctx = call.ctx
    assert call.result.row is not None
    gain = loot_gain(ctx.rules, call.result.table_id, call.result.row, call.source or "Monster")
    if gain.item is None:
        return call.choose(ctx, gain.outcome or Outcome(), call.name or call.source, call.depth)
    return stow(ctx, gain.item, call.result)


def _spell(call: RowCall) -> list[Event]:
    """A Table S roll as a find: a scroll of that spell (the belt or the book takes it later)."""
    spell = call.name or "Spell"
    item = Item(
        name=f"Scroll of {spell}",
        kind="scroll",
        effect=call.fields.get("effect", ""),
        source=f"{call.result.table_id} {call.result.row.range_label() if call.result.row else ''}".strip(),
    )
    return stow(call.ctx, item, call.result)


def stow(ctx: GameContext, item: Item, result: TableRoll | None = None) -> list[Event]:
    """Put a find in the backpack (a potion with the unequipped potions); a full backpack waits for the player."""
    ch = living_character(ctx.campaign)
    if item.kind == "potion":
        ch.potions.append(item)
        return [told(ev.LootStowed(item=item, place="potions", table_roll=result))]
    limit = adventure_rules(ctx.rules).backpack_rows
    if limit is not None and len(ch.backpack) >= limit:
        adventure_of(ctx.campaign).loot_waiting = item
        return [told(ev.LootWaiting(item=item, held=len(ch.backpack), limit=limit))]
    ch.backpack.append(item)
    return [told(ev.LootStowed(item=item, place="backpack", table_roll=result))]


#: table id -> what applying one of its rows does
ROW_HANDLERS: dict[str, RowHandler] = {
    table_id("B"): _boost,
    table_id("C"): _curse,
    table_id("E"): _encounter,
    table_id("F"): _find,
    table_id("G"): _geographic,
    table_id("S"): _spell,
    **dict.fromkeys((table_id(t) for t in ("A", "I", "L", "P", "R", "TA", "TB", "TC", "W")), _loot),
}


def apply_row(call: RowCall) -> list[Event]:
    """Apply a rolled row through :data:`ROW_HANDLERS`; a table with none, or a roll too deep, is reported only."""
    if call.result.row is None:
        return []
    if call.depth > MAX_DEPTH:
        return [_said(f"{call.result.describe()}: the tables loop (more than {MAX_DEPTH} rolls deep) - stopped here.")]
    handler = ROW_HANDLERS.get(call.result.table_id)
    return handler(call) if handler is not None else []


def wait_for_row(ctx: GameContext, result: TableRoll, entry: int, source: str, depth: int) -> None:
    """A roll whose row the player's tables lack: it waits for the typed row (:mod:`~d100gui.engine.adventure.row_commands`)."""
    if result.table_id in ROW_HANDLERS:
        waiting = RowWaiting(entry=entry, table_id=result.table_id, source=source, depth=depth)
        adventure_of(ctx.campaign).rows_waiting.append(waiting)


_STAT_LINE = r"\s*[-–—:]?\s*AV\s*:"


def printed_monster(library: TableLibrary, name: str) -> tuple[str, int, Monster] | None:
    """A monster an effect names ("encounter GIANT SNAKE"), read from its stat line in a table:
    (table id, the row's value, the monster), or None when no table prints it."""
    wanted = name.strip().upper()
    if not wanted:
        return None
    for tid in (table_id("G"), table_id("F"), table_id("E")):
        try:
            table = library.get(tid)
        except TableError:
            continue
        for row in table.rows:
            for value in row.fields.values():
                m = re.search(re.escape(wanted) + _STAT_LINE, value, re.I)
                if m and row.range is not None:
                    try:
                        return tid, row.low, monster_from_text(value[m.start() :], source=f"{tid} {row.range_label()}")
                    except ValueError:
                        continue
    return None


def encounter_effect(ctx: GameContext, effect: Effect, source: str) -> list[Event] | None:
    """``encounter GIANT SNAKE``: offer the monster to combat, as its table prints it (Table E by name, or a
    stat line elsewhere); None when no table prints it (the player types it in the combat panel)."""
    campaign = ctx.campaign
    if campaign.combat is not None:
        return None  # a monster cannot join a fight under way; the log tells the player
    library = ctx.tables.library
    found = printed_monster(library, effect.target)
    if found is not None:
        tid, value, monster = found
        result = ctx.tables.read(tid, value, purpose=f"{source or 'Encounter'}: {monster.name}")
        return [offer_fight(ctx, result, source or monster.name, monster=monster)]
    try:
        table = library.get(adventure_rules(ctx.rules).encounter_table)
    except TableError:
        return None
    for row in table.rows:
        printed = row.fields.get("monster", "")
        if row.range is not None and effect.target.strip().lower() in printed.lower():
            result = ctx.tables.read(table.id, row.low, purpose=f"{source or 'Encounter'}: {printed}")
            return [offer_fight(ctx, result, source or printed)]
    return None
