"""Turns steps 4 and 5: what an area's colour does, and searching it on Table F.

* yellow: proceed;
* red: Table E with the quest's encounter modifier (clamped into the table), and the fight starts;
* green: Table G, its test left for the player to roll (a :class:`~d100gui.engine.hero.decisions.CalledTest`);
* blue: the quest's objective: one more objective met;
* a mapped area where an escaped monster waits: it is met again (combat's ``face_escaped_monster``).

Searching rolls Table F with its colour's column bonus (:attr:`~d100gui.engine.quest.model.AdventureRules.search_bonus`),
marks the area S, shades the row's time (every trigger fired) and applies its effect, following
its links to Table G and Table E the way an area of that colour would.

Every table roll goes in the dice history, so a row the player's tables lack is asked for
the way the dice panel asks.
"""

from __future__ import annotations

from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.events import MapChanged
from d100gui.engine.effects.interpreter import absorbed, apply_effect, apply_option
from d100gui.engine.effects.rows import feature, to_history, wait_for_row
from d100gui.engine.fight_commands import FaceEscapedMonster, begin_fight
from d100gui.engine.game import GameContext
from d100gui.engine.hero.guards import living_character
from d100gui.engine.protocol import Event, told
from d100gui.engine.quest import events as ev
from d100gui.engine.quest.access import adventure_of, pass_clocks
from d100gui.engine.quest.model import AdventureRules, FightOffer, adventure_rules
from d100gui.engine.rules.notation import Effect, Option, parse_effects

# --------------------------------------------------------------------------- step 4: the area


def resolve_area(ctx: GameContext, area: dg.Area, placed: bool) -> list[Event]:
    """Step 4 for the area the hero just entered: by colour when newly mapped; a waiting monster is met."""
    if area.escaped:
        said = ev.AreaResolved(pos=area.key, colour=area.colour, outcome="monster_waits", monster=area.escaped)
        return [told(said), *FaceEscapedMonster(pos=area.key).apply(ctx)]
    if not placed:
        return [told(ev.AreaResolved(pos=area.key, colour=area.colour, outcome="mapped"))]
    if area.colour == "R":
        return encounter(ctx, area, "red area")
    if area.colour == "G":
        return geographic(ctx, area)
    if area.colour == "B":
        return objective(ctx, area)
    return [told(ev.AreaResolved(pos=area.key, colour=area.colour, outcome="proceed"))]


def encounter(ctx: GameContext, area: dg.Area, source: str, surprise: bool = False, found: str = "") -> list[Event]:
    """Table E with the quest's encounter modifier, clamped; the fight starts (or waits for a missing row)."""
    ch, arules = living_character(ctx.campaign), adventure_rules(ctx.rules)
    result = ctx.tables.roll(
        arules.encounter_table,
        f"Table E - {source}",
        modifier=ch.quest_encounter_modifier,
        modifier_label="quest encounter modifier",
    )
    offer = FightOffer(table_roll=result, clock=ch.time_track.shaded, source=source, surprise=surprise, area=area.key)
    missing = list(result.missing) if result.missing else []
    said = ev.AreaResolved(pos=area.key, colour=area.colour, outcome="encounter", table_roll=result, source=found)
    offered = ev.FightOffered(
        table_roll=result, clock=offer.clock, source=source, missing=missing, surprise=surprise, area=area.key
    )
    events = [to_history(ctx, result), told(said), told(offered)]
    if result.row is None:
        adventure_of(ctx.campaign).fight_offered = offer  # fought once its row is typed (provide_encounter_row)
        return events
    return events + start_fight(ctx, offer)


def start_fight(ctx: GameContext, offer: FightOffer) -> list[Event]:
    """Hand an offered monster whose Table E row is known (or printed elsewhere: ``offer.monster``) to combat."""
    adventure_of(ctx.campaign).fight_offered = None
    if offer.monster is not None:
        return begin_fight(ctx, "monster", offer.monster, surprise=offer.surprise)
    return begin_fight(ctx, "table_e", table_value=offer.table_roll.value, surprise=offer.surprise)


def geographic(ctx: GameContext, area: dg.Area, die: str | None = None, found: str = "") -> list[Event]:
    """Table G: its feature's effect applies; a test in it waits for the player to roll it.

    A roll on a row the player's tables lack waits for the typed row, then applies the same way
    (:class:`~d100gui.engine.adventure.row_commands.ApplyTypedRow`). ``found``: what rolled it when not the area's colour (a search)."""
    arules = adventure_rules(ctx.rules)
    result = ctx.tables.roll(arules.geographic_table, "Table G - Geographic", die=die)
    said = ev.AreaResolved(pos=area.key, colour=area.colour, outcome="geographic", table_roll=result, source=found)
    events = [to_history(ctx, result), told(said)]
    if result.row is None:
        wait_for_row(ctx, result, len(ctx.campaign.dice_history) - 1, "Table G", 0)
        return events
    name = result.row.fields.get("name", "") or "Table G"
    outcome = parse_effects(result.row.fields.get("effect", ""))
    return events + (feature(ctx, outcome.options[0], name, _then) if outcome.options else [])


def _then(ctx: GameContext, option: Option, source: str, depth: int) -> list[Event]:
    return apply_option(ctx, option, source, depth=depth)


def objective(ctx: GameContext, area: dg.Area) -> list[Event]:
    """A blue area is the quest's objective: it counts toward it."""
    ch, arules = living_character(ctx.campaign), adventure_rules(ctx.rules)
    counted = apply_effect(ctx, Effect(kind="objective", amount=arules.objective_per_blue_area, text="blue area"), "Blue area")
    said = ev.AreaResolved(pos=area.key, colour=area.colour, outcome="objective", objectives=ch.objectives)
    return [told(said), *counted]


# --------------------------------------------------------------------------- step 5: search


def search_bonus(arules: AdventureRules, colour: str) -> int:
    """Table F's column bonus for an area of ``colour``."""
    return arules.search_bonus.get(colour, 0)


def search(ctx: GameContext, area: dg.Area) -> list[Event]:
    """Roll Table F with the colour's column bonus, mark the area S, then its time and its effect."""
    campaign, arules = ctx.campaign, adventure_rules(ctx.rules)
    bonus = search_bonus(arules, area.colour)
    result = ctx.tables.roll(arules.find_table, "Table F - Search", modifier=bonus, modifier_label="column bonus")
    dungeon = campaign.dungeons.current_dungeon
    assert dungeon is not None
    campaign.dungeons = dg.replace_current(campaign.dungeons, dg.mark_searched(dungeon, area.pos, True))
    said = ev.AreaSearched(pos=area.key, colour=area.colour, bonus=bonus, table_roll=result)
    events = [to_history(ctx, result), told(said), Event.of(MapChanged(pos=area.key), f"Area {area.key} marked S.")]
    if result.row is None:
        wait_for_row(ctx, result, len(campaign.dice_history) - 1, "Table F", 0)
        return events
    time = parse_effects(result.row.fields.get("time", ""))
    clocks = sum(e.amount or 0 for o in time.options[:1] for e in o.effects if e.kind == "time")
    if clocks > 0:
        events += pass_clocks(ctx, clocks)
        if campaign.character is None or adventure_of(campaign).fight_offered is not None:
            return events  # the hero fell, or a wandering monster comes first: the find waits
    outcome = parse_effects(result.row.fields.get("effect", ""))
    if outcome.options:
        events += _find(ctx, area, outcome.options[0])
    return events


def _find(ctx: GameContext, area: dg.Area, option: Option) -> list[Event]:
    """A Table F effect, item by item: its links to Table G and Table E play as a green or red area would."""
    arules = adventure_rules(ctx.rules)
    surprise = any(isinstance(i, Effect) and "surprise" in i.text.lower() for i in option.items)
    events: list[Event] = []
    previous: Effect | None = None
    for item in option.items:
        if isinstance(item, Effect) and absorbed(previous, item):
            continue  # the previous effect's own procedure (the repair pips' re-roll)
        previous = item if isinstance(item, Effect) else None
        if not isinstance(item, Effect):
            events += apply_option(ctx, Option(items=[item]), "Table F")  # a test waits for the player
        elif item.kind == "roll_table" and item.table == arules.geographic_table:
            events += geographic(ctx, area, die=item.die or None, found="Search, Table F")
        elif item.kind == "roll_table" and item.table == arules.encounter_table:
            events += encounter(ctx, area, "hidden monster", surprise=surprise, found="Search, Table F")
        elif item.kind == "narrative" and "surprise" in item.text.lower():
            continue  # the encounter carries it
        else:
            events += apply_effect(ctx, item, "Table F")
    return events
