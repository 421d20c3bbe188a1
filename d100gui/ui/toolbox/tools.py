"""What each toolbox tool is, as data: its title, its rule text, a summary, its inputs and the command it sends.

A generic form (:class:`~d100gui.ui.toolbox.tool_panel.ToolPanel`) is built from a
:class:`Tool`, so adding a generator is a few lines here. Every range comes from the
engine's constants (the same ones :func:`~d100gui.engine.toolbox.inputs.in_range` checks),
never from a number typed in a widget; the engine still has the last word and its refusal is
shown as it is. No Qt here: the catalogue is plain data, testable without a window.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.game import Command
from d100gui.engine.toolbox import classic_commands as ccm
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox import procedure_commands as pc
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.classic import (
    air_sea,
    calendar,
    castles,
    evasion,
    healing,
    hiring,
    items,
    magic,
    monsters,
    stocking,
    swords,
    treasure,
    underworld,
    wilderness,
)
from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE, a_die, rule_fraction, rule_number, save_die
from d100gui.engine.toolbox.state import ToolboxState

#: the top of the fight tracker's health and HD boxes (no range label there): a widget limit, not a rule
OPEN_MAX = 999

SCARS = "d20 scars combat"
EXPLORATION = "Exploration procedure"
CLASSIC = "Classic treasure and magic"
WILDERNESS = "Classic wilderness"
REFERENCE = "Classic reference"
UNDERWORLD = "Classic underworld"
HOLDINGS = "Classic hirelings and baronies"


def _days(n: int) -> str:
    return "one day" if n == 1 else f"{n} days"


def units_in(rule_text: str, library: TableLibrary) -> str:
    """How ``rule_text`` counts time, with the numbers its rules tables print: the texts disagree, so each tool
    says its own."""
    if rule_text == SCARS:
        minutes, hours = sc.scars_time(library)
        return f"In this text a Turn is {minutes} minutes of exploring and a Watch is {hours} hours outside."
    if rule_text == EXPLORATION:
        n = ex.exploration_numbers(library)
        seconds = n.seconds_per_turn * n.turns_per_round
        round_time = (
            f"{seconds // 60} minute" + ("s" if seconds // 60 != 1 else "") if seconds % 60 == 0 else f"{seconds} seconds"
        )
        return (
            f"In this text a Turn is {n.seconds_per_turn} seconds, a Round is {n.turns_per_round} Turns ({round_time}); "
            f"travel counts {n.hours_per_travel_turn}-hour Turns."
        )
    if rule_text in (CLASSIC, UNDERWORLD):
        t = underworld.time_number
        minutes, moves, melee = t(library, "Minutes per turn"), t(library, "Moves per turn"), t(library, "Melee rounds per turn")
        head = f"In this text a turn underground is about {minutes} minutes"
        if rule_text == CLASSIC:
            return f"{head} ({moves} moves, {melee} rounds of melee)."
        feet = t(library, "Feet per inch")
        return f"{head}: {moves} moves, {melee} rounds of melee; an inch of distance is {feet} feet."
    if rule_text == WILDERNESS:
        days, miles = wilderness.wilderness_scale(library)
        return f"In this text a wilderness turn is {_days(days)}, and a hex is about {miles} miles across."
    return ""


UNITS = {text: units_in(text, TableLibrary([])) for text in (SCARS, EXPLORATION, CLASSIC, WILDERNESS, UNDERWORLD)}

InputKind = Literal["int", "bool", "choice", "text"]


@dataclass(frozen=True)
class ToolInput:
    """One input of a tool: the command field it fills, and its valid range (from the engine)."""

    name: str
    label: str
    kind: InputKind = "int"
    low: int = 0
    high: int | None = None  # None: no upper bound ("0 or more")
    default: Any = None
    choices: tuple[tuple[str, Any], ...] = ()  # (label, value) for a choice
    step: int = 1
    choices_from: str = ""  # a choice among the row keys of this table (the player's tables, at run time)
    choices_for: Callable[[TableLibrary], tuple[tuple[str, Any], ...]] | None = None  # choices read from the tables
    step_for: Callable[[TableLibrary], int] | None = None  # a step read from the tables (also the lowest value)
    high_for: Callable[[TableLibrary], int] | None = None  # the highest value read from the tables
    label_for: Callable[[TableLibrary], str] | None = None  # a yes/no label quoting a number of the tables

    def range_text(self) -> str:
        """The valid range as the engine words it ("1 to 20", "0 or more")."""
        if self.kind != "int":
            return ""
        return f"{self.low} to {self.high}" if self.high is not None else f"{self.low} or more"


def _rng(name: str, label: str, bounds: tuple[int, int | None], default: int | None = None, step: int = 1) -> ToolInput:
    low, high = bounds
    return ToolInput(name, label, "int", low, high, low if default is None else default, step=step)


@dataclass(frozen=True)
class Tool:
    """A tool of the toolbox: what it applies (in our words), what it asks, and the command it sends.

    ``build`` turns the input values into the command's fields when they differ (a party
    size becomes a party); ``status`` shows the tool's saved state from the campaign.
    ``panel`` names a purpose-built panel (the dungeon and travel clocks) instead of the form.
    """

    key: str
    title: str
    rule_text: str
    summary: str
    command: type[Command] | None  # None: a reference panel, which only shows tables
    inputs: tuple[ToolInput, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)
    build: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    status: Callable[[ToolboxState], str] | None = None
    panel: Literal["form", "fight", "dungeon_clock", "travel_clock", "reference"] = "form"
    tables: tuple[str, ...] = ()  # tables a reference panel shows
    units_note: str = ""  # a reference panel's units, from the text its tables come from
    units_text: str = ""  # ... the rule text whose units those are (its numbers read from the player's tables)
    summary_for: Callable[[TableLibrary], str] | None = None  # the summary with the numbers the player's tables print

    def summary_in(self, library: TableLibrary | None) -> str:
        """The summary naming the numbers of ``library``'s rules tables (the text's ``summary`` without them)."""
        return self.summary_for(library) if self.summary_for is not None and library is not None else self.summary

    @property
    def units(self) -> str:
        return self.units_note or UNITS.get(self.rule_text, "")

    def units_for(self, library: TableLibrary | None) -> str:
        """The units note with the numbers of ``library``'s rules tables (the text's without them)."""
        if library is None:
            return self.units
        return units_in(self.units_text or self.rule_text, library) or self.units

    def command_for(self, values: Mapping[str, Any]) -> Command:
        """The command for these input values (pydantic checks the types; the engine, the ranges)."""
        if self.command is None:
            raise TypeError(f"{self.title} is a reference panel: it sends no command")
        fields = dict(self.fixed)
        fields.update(self.build(dict(values)) if self.build else values)
        return self.command(**fields)


ATTRIBUTE = sc.ATTRIBUTE_RANGE
OPEN = (0, None)
SIGNS = (("Not used", sc.ScarsSign.NONE), ("+ Scars", sc.ScarsSign.PLUS), ("- Scars", sc.ScarsSign.MINUS))


def _scars_clock(state: ToolboxState) -> str:
    clock = state.scars_clock
    return f"{clock.turns} Turn(s) and {clock.watches} Watch(es) passed so far."


NO_TABLES = TableLibrary([])  # a summary before the player's tables are read: the text's numbers


def _d(die: str) -> str:
    """ "1d6" as the texts write a single die: "d6"."""
    return die.removeprefix("1") if die.startswith("1d") else die


def _system_die(text: str) -> Callable[[TableLibrary], str]:
    """A summary naming the system's die (``{die}``) as the d20 rules table prints it."""

    def summary(library: TableLibrary) -> str:
        n = sc.scars_numbers(library)
        return text.format(die=_d(n.die), ac_loss=_count(n.armour_loss), breaks_at=n.armour_breaks_at)

    return summary


_ATTACK = _system_die(
    "Roll a {die}: at or under the attacker's attribute and above the target's AC hits. Exactly the attribute "
    "also stuns and gives another attack; exactly the AC does no damage but knocks the AC down {ac_loss} ({breaks_at}: broken). "
    "Once a round an adventurer may shift the roll by their number of Scars."
)
_INITIATIVE = _system_die(
    "Roll a {die} against Agility: at or under acts before the enemies; exactly the Agility also earns one quick "
    "action before the fight starts."
)
_HIRELING = _system_die("A hireling stays loyal when a {die} comes in over their HD and at or under the employer's Cunning.")
_RITUAL = _system_die(
    "Performing a Ritual mid-fight is a {die} against Cunning; if you took damage before your go this Round, the roll "
    "must also come in over that damage. A failure means a Mishap. You cannot cast and move in the same Round."
)


def _reaction(library: TableLibrary) -> str:
    table = library.get(sc.REACTION_TABLE) if sc.REACTION_TABLE in library else None
    die = table.die if table is not None and table.die else sc.REACTION_DIE
    return f"Roll {die} on the reaction table for how an enemy first behaves towards the party."


def _morale(library: TableLibrary) -> str:
    n = sc.scars_numbers(library)
    base = n.morale_base
    return (
        f"When an enemy drops to half health, roll a {_d(n.die)} against {base} + its HD: under, it fights on; exactly, it "
        "rallies (an extra attack next round, never tested again); over, it flees or gives up."
    )


def _distance(library: TableLibrary) -> str:
    n = sc.scars_numbers(library)
    return (
        f"When the scene does not say how far away the encounter is: {n.distance_die} x {n.distance_times}, in feet "
        "underground, in yards outside."
    )


def _zero_health(library: TableLibrary) -> str:
    n = sc.scars_numbers(library)
    return (
        f"At 0 health an adventurer gains a Scar, then rolls {n.scars_check_die}: at or under their Scars they die; "
        f"over, they wake at 1 health after as many d{n.wake_sides} rounds as they have Scars."
    )


def _pack(library: TableLibrary) -> str:
    n = sc.scars_numbers(library)
    return (
        f"Digging an item out of a pack mid-fight is a {_d(n.die)} against Cunning: exactly, it is in hand now; under, it is "
        f"ready next round; over, the search goes on for {n.pack_search_die} rounds (or the item is given up)."
    )


def _scars_turns(library: TableLibrary) -> str:
    n = sc.scars_numbers(library)
    return (
        "Count exploration Turns underground or Watches outside; each one ends with a "
        f"{_d(n.encounter_die)} encounter check (a {n.encounter_on} means an encounter)."
    )


def _dungeon_clock_summary(library: TableLibrary) -> str:
    n = ex.exploration_numbers(library)
    return (
        f"Each action costs Turns; every Turn burns the lit items down, and each full card of {n.rounds_per_card} "
        f"Rounds ({n.rounds_per_card * n.turns_per_round} Turns) brings a "
        f"{n.dungeon_die} encounter check ({n.dungeon_at_most} or less brings an encounter). You are warned before a "
        "light goes out."
    )


def _travel_clock_summary(library: TableLibrary) -> str:
    n = ex.exploration_numbers(library)
    return (
        f"Travel is counted in hours: {n.hours_per_travel_round}-hour Rounds (the text's day: morning, afternoon, "
        "night). Each Round gets a "
        f"{n.travel_die} check ({n.hostile_at_most} or less: hostile or neutral, {n.friendly_at_least} or more: "
        f"friendly) and the hour it comes on a {_d(n.hour_die)}. After {n.rounds_before_rest} Rounds of travel the "
        f"party should rest {_rounds(n.rest_rounds_owed)}."
    )


def _rest_summary(library: TableLibrary) -> str:
    n = ex.exploration_numbers(library)
    return (
        f"A partial rest ({n.rest_step_minutes}-minute spells) restores a little Stress and attribute damage; a short rest "
        f"({n.short_rest_hours} hours) and a full rest ({n.full_rest_hours} hours) restore by HD per hour and heal "
        "wounds. On a clock, the rest's time passes there first and an encounter can cut it short."
    )


def _count(n: int) -> str:
    return "one" if n == 1 else str(n)


def _rounds(n: int) -> str:
    """The Rounds of rest owed: "one" (the text's) or "2 Rounds"."""
    return "one" if n == 1 else f"{n} Rounds"


def _strength(n: int) -> str:
    return "a point of Strength" if n == 1 else f"{n} points of Strength"


def _ego_summary(library: TableLibrary) -> str:
    return (
        "The latest sword made meets its wielder: the sword's Intelligence and Egoism (plus "
        f"{_count(swords.ego_per_ability(library))} for each extraordinary ability) against the wielder's Intelligence "
        "and Strength, with a die for how fresh or worn the wielder is. A wide gap decides it, a narrow one is rolled. "
        "Over time, the sword's Egoism meets the fighting-man's level instead."
    )


def _push_on_summary(library: TableLibrary) -> str:
    n = ex.exploration_numbers(library)
    return (
        f"Skipping the Round of rest costs each character Stress ({_count(n.push_on_stress_per_hd)} per HD) and "
        f"{_strength(n.push_on_strength_damage)}, and a "
        f"{n.push_on_die} roll: {n.push_on_injured_at_most} or less means {n.push_on_wound_die} wound points and a "
        "roll on the injury table."
    )


def _healing_summary(library: TableLibrary) -> str:
    first, hp = healing.healing_numbers(library)
    days = "the first day" if first == 1 else f"the first {first} days"
    points = "a hit point" if hp == 1 else f"{hp} hit points"
    return (
        f"Wounds heal with complete rest: nothing on {days}, then {points} on every second day until healed "
        "(lost energy levels need new experience)."
    )


def _ritual_damage(state: ToolboxState) -> str:
    """The fight tracker's damage this Round, which a tracked caster's Ritual must roll over."""
    fight = state.scars_encounter
    if fight is None:
        return "No fight is tracked: give the damage taken before your go."
    taken = ", ".join(f"{f.name} {f.damage_this_round}" for f in fight.fighters)
    return (
        f"Fight tracker, Round {fight.round}, damage taken this Round: {taken}. A caster named here takes theirs "
        "(the damage typed counts only for a caster the tracker does not know)."
    )


SCARS_TOOLS: tuple[Tool, ...] = (
    Tool(
        "scars_attack",
        "Attack",
        SCARS,
        _ATTACK(NO_TABLES),
        tc.ScarsAttack,
        (
            _rng("attribute", "Attribute", ATTRIBUTE, 10),
            _rng("armour_class", "Target's AC", sc.AC_RANGE),
            ToolInput("damage", "Damage dice", "text", default="1d6"),
            _rng("scars", "Scars", (0, sc.MAX_SCARS)),
            ToolInput("sign", "Scars modifier", "choice", choices=SIGNS, default=sc.ScarsSign.NONE),
        ),
        summary_for=_ATTACK,
    ),
    Tool(
        "scars_fight",
        "Fight tracker",
        SCARS,
        "Keep a whole fight: each fighter's health and AC, a stun until the next round, the Scars shift once a round "
        "(it can be used on a roll already seen), enemies' morale at half health, and the scars check at 0 health.",
        tc.ScarsAttack,
        panel="fight",
    ),
    Tool(
        "scars_initiative",
        "Initiative",
        SCARS,
        _INITIATIVE(NO_TABLES),
        tc.ScarsInitiativeRoll,
        (_rng("agility", "Agility", ATTRIBUTE, 10),),
        summary_for=_INITIATIVE,
    ),
    Tool(
        "scars_morale",
        "Morale",
        SCARS,
        _morale(NO_TABLES),
        tc.ScarsMoraleTest,
        (_rng("hd", "Enemy HD", OPEN),),
        summary_for=_morale,
    ),
    Tool(
        "scars_hireling",
        "Hireling morale",
        SCARS,
        _HIRELING(NO_TABLES),
        tc.ScarsHirelingMoraleTest,
        (_rng("cunning", "Employer's Cunning", ATTRIBUTE, 10), _rng("hd", "Hireling HD", OPEN)),
        summary_for=_HIRELING,
    ),
    Tool(
        "scars_reaction",
        "Reaction",
        SCARS,
        _reaction(NO_TABLES),
        tc.ScarsReactionRoll,
        summary_for=_reaction,
    ),
    Tool(
        "scars_distance",
        "Encounter distance",
        SCARS,
        _distance(NO_TABLES),
        tc.ScarsDistanceRoll,
        (ToolInput("outdoors", "Outdoors", "bool", default=False),),
        summary_for=_distance,
    ),
    Tool(
        "scars_zero_health",
        "Zero health",
        SCARS,
        _zero_health(NO_TABLES),
        tc.ScarsZeroHealthCheck,
        (_rng("scars", "Scars before this one", (0, sc.MAX_SCARS - 1)),),
        summary_for=_zero_health,
    ),
    Tool(
        "scars_pack",
        "Pack retrieval",
        SCARS,
        _pack(NO_TABLES),
        tc.ScarsPackRetrieve,
        (_rng("cunning", "Cunning", ATTRIBUTE, 10), ToolInput("search", "Keep searching on a failure", "bool", default=True)),
        summary_for=_pack,
    ),
    Tool(
        "scars_ritual",
        "Ritual",
        SCARS,
        _RITUAL(NO_TABLES),
        pc.ScarsRitualCheck,
        (
            ToolInput("name", "Caster's name", "text", default=""),
            _rng("cunning", "Cunning", ATTRIBUTE, 10),
            _rng("damage", "Damage taken before your go", (0, sc.MAX_DAMAGE)),
            ToolInput("moved", "Moved this Round", "bool", default=False),
        ),
        status=_ritual_damage,
        summary_for=_RITUAL,
    ),
    Tool(
        "scars_clock",
        "Turn tracker",
        SCARS,
        _scars_turns(NO_TABLES),
        tc.ScarsClockAdvance,
        (
            _rng("count", "How many", (1, sc.MAX_CLOCK_STEPS)),
            ToolInput("unit", "Counting", "choice", choices=(("Turns", "turn"), ("Watches", "watch")), default="turn"),
        ),
        status=_scars_clock,
        summary_for=_scars_turns,
    ),
)


def _party(values: dict[str, Any]) -> dict[str, Any]:
    size, hd = int(values.pop("size")), int(values.pop("hd"))
    return {"party": [ex.Traveller(name=f"Character {i + 1}", hd=hd) for i in range(size)]}


def rest_choices(library: TableLibrary) -> tuple[tuple[str, Any], ...]:
    """The rests, each labelled with its length as the procedure rules table prints it."""
    n = ex.exploration_numbers(library)
    return (
        ("Partial (minutes)", ex.RestKind.PARTIAL),
        (f"Short ({n.short_rest_hours} hours)", ex.RestKind.SHORT),
        (f"Full ({n.full_rest_hours} hours)", ex.RestKind.FULL),
    )


def rest_step(library: TableLibrary) -> int:
    """The partial rest's step in minutes, as the procedure rules table prints it."""
    return ex.exploration_numbers(library).rest_step_minutes


RESTS = rest_choices(TableLibrary([]))  # before the player's tables are read: the text's
ON_CLOCK = (("No clock", "none"), ("Dungeon clock", "dungeon"), ("Travel clock", "travel"))

EXPLORATION_TOOLS: tuple[Tool, ...] = (
    Tool(
        "explore_dungeon_clock",
        "Dungeon clock",
        EXPLORATION,
        _dungeon_clock_summary(NO_TABLES),
        tc.ExploreSpend,
        panel="dungeon_clock",
        summary_for=_dungeon_clock_summary,
    ),
    Tool(
        "explore_travel_clock",
        "Travel clock",
        EXPLORATION,
        _travel_clock_summary(NO_TABLES),
        tc.TravelSpend,
        panel="travel_clock",
        summary_for=_travel_clock_summary,
    ),
    Tool(
        "explore_rest",
        "Rest",
        EXPLORATION,
        _rest_summary(NO_TABLES),
        tc.Rest,
        (
            ToolInput("rest", "Rest", "choice", choices=RESTS, default=ex.RestKind.PARTIAL, choices_for=rest_choices),
            _rng("hd", "HD", OPEN, 1),
            _rng("wounds", "Wounds", (0, ex.MAX_WOUNDS)),
            _rng("worst_wound", "Worst wound's damage", (0, ex.MAX_WOUND_DAMAGE)),
            replace(
                _rng("minutes", "Minutes (partial)", (ex.REST_MINUTES_STEP, ex.MAX_REST_MINUTES), step=ex.REST_MINUTES_STEP),
                step_for=rest_step,
            ),
            ToolInput("heal_check", "Heal check made", "bool", default=False),
            ToolInput("on_clock", "Pass the time on", "choice", choices=ON_CLOCK, default="none"),
        ),
        summary_for=_rest_summary,
    ),
    Tool(
        "explore_push_on",
        "Push on",
        EXPLORATION,
        _push_on_summary(NO_TABLES),
        tc.PushOn,
        (_rng("size", "Party size", (1, None), 1), _rng("hd", "HD of each", OPEN, 1)),
        build=_party,
        summary_for=_push_on_summary,
    ),
    Tool(
        "explore_injury",
        "Injury",
        EXPLORATION,
        "Roll d% on the injury table; dice written in the effect are rolled, and a 'roll again' result is followed.",
        tc.RollInjury,
    ),
)


def guardian_choices(library: TableLibrary) -> tuple[tuple[str, Any], ...]:
    """A map's guardians: the referee's, or rolled on one of the monster levels the item rules table prints."""
    return (("Left to you", 0), *((f"Rolled on monster level {n}", n) for n in magic.guardian_levels(library)))


#: the choices before the player's tables are read (the text's levels)
GUARDIAN_CHOICES = guardian_choices(TableLibrary([]))


def _classic_tools() -> tuple[Tool, ...]:
    """The classic generators whose commands exist (another part of the toolbox adds them)."""
    found = {c.model_fields["kind"].default: c for c in tc.TOOLBOX_COMMANDS}
    level = (1, None)  # the engine's check_level: level 1 or more
    wanted = (
        ("toolbox_classic_magic", "Magic item", "A magic item or a map, rolled through to the item (maps roll their contents; a map's guardians too, "
         "if you pick the monster level they come from).",
         (ToolInput("maps", "Maps can come up", "bool", default=True),
          ToolInput("guardians", "A map's guardians", "choice", choices=GUARDIAN_CHOICES, default=0,
                    choices_for=guardian_choices))),
        ("toolbox_classic_sword", "Magic sword", "A complete sword: alignment, intelligence, powers, languages and ego.", ()),
        ("toolbox_classic_gems", "Gems", "Value a number of gems, each with its chance to step up in value.",
         (_rng("count", "Gems", (1, treasure.MAX_GEMS)),)),
        ("toolbox_classic_jewelry", "Jewelry", "Value a number of pieces of jewelry.",
         (_rng("count", "Pieces", (1, treasure.MAX_GEMS)),)),
        ("toolbox_classic_hoard", "Treasure by level", "The treasure of a room on a dungeon level, every part rolled out, with its value in gold.",
         (_rng("level", "Dungeon level", level),)),
        ("toolbox_classic_wandering", "Wandering monster",
         "A monster for a dungeon level and a party size; optionally the d6 check first, and the meeting: which way it "
         "comes, who is surprised, how far off it is seen, and how it reacts if it acts on its own.",
         (_rng("level", "Dungeon level", level), _rng("party_size", "Party size", (1, monsters.MAX_PARTY), 3),
          ToolInput("check", "Roll the check first", "bool", default=False),
          ToolInput("meet", "Roll the meeting", "bool", default=True),
          ToolInput("surprise", "Surprise possible", "bool", default=True),
          _rng("entries", "Ways in", (0, monsters.MAX_ENTRIES), 0),
          _rng("reaction_modifier", "Reaction modifier", (-monsters.MAX_REACTION_MODIFIER, monsters.MAX_REACTION_MODIFIER), 0))),
    )  # fmt: skip
    return tuple(Tool(k.removeprefix("toolbox_"), t, CLASSIC, s, found[k], i) for k, t, s, i in wanted if k in found)


def tool_groups() -> list[tuple[str, tuple[Tool, ...]]]:
    """Every tool, grouped by the rule text it applies (the classic group only when it has tools)."""
    groups = [(SCARS, SCARS_TOOLS), (EXPLORATION, EXPLORATION_TOOLS)]
    classic = _classic_tools()
    if classic:
        groups.append((CLASSIC, classic + CLASSIC_EXTRA_TOOLS + CLASSIC_ITEM_TOOLS))
    groups += [(UNDERWORLD, UNDERWORLD_TOOLS), (WILDERNESS, WILDERNESS_TOOLS + AIR_SEA_TOOLS), (HOLDINGS, HOLDINGS_TOOLS)]
    groups.append((REFERENCE, reference_tools()))
    return groups


# --------------------------------------------------------------------------- classic: stocking, wilderness, reference


def _trip(state: ToolboxState) -> str:
    trip = state.wilderness
    due = " A day of rest is due." if trip.rest_due else ""
    return f"Trip: {trip.day} day(s) so far, {trip.since_rest} moved since the last rest.{due}"


def _kept_sword(state: ToolboxState) -> str:
    sword = state.sword
    if sword is None:
        return "No sword generated yet: tick 'New sword' or use the Magic sword tool."
    ego = f", Egoism {sword.egoism_score}" if sword.egoism is not None else " (no Egoism: no contest)"
    return f"Sword tested: {sword.name}, Intelligence {sword.intelligence_score}{ego}."


TERRAIN_CHOICES = tuple((t.capitalize(), t) for t in wilderness.TERRAINS)
SURPRISE_CHOICES = (("Nobody", "none"), ("The party surprised them", "party"), ("The monsters surprised the party", "monsters"))
ESCAPE_CHOICES = (
    ("Straight on", "straight"),
    ("Round a corner, a door or stairs", "corner"),
    ("Through a secret door", "secret_door"),
)
FOOD_CHOICES = (("No food thrown", "none"), ("To an intelligent monster", "intelligent"),
                ("To a semi-intelligent one", "semi-intelligent"), ("To a non-intelligent one", "non-intelligent"))  # fmt: skip
TREASURE_CHOICES = (("No treasure dropped", "none"), ("For an intelligent monster", "intelligent"),
                    ("For a semi-intelligent one", "semi-intelligent"), ("For a non-intelligent one", "non-intelligent"))  # fmt: skip
WIELDER_STATES = tuple(swords.wielder_states())


def _cornered(library: TableLibrary) -> str:
    """The cornered input's label, naming the pursuit table's distance."""
    feet = evasion.pursuit_numbers(library.get(evasion.PURSUIT_TABLE) if evasion.PURSUIT_TABLE in library else None)
    return f"Surprised within {feet.cornered_feet} feet"


CLASSIC_EXTRA_TOOLS: tuple[Tool, ...] = (
    Tool("classic_stock_rooms", "Stock rooms", CLASSIC,
         "For each room a die decides whether a monster lives there (then the monster matrix of the level names it) and "
         "another whether treasure is there (likelier with a monster); treasure is the level's hoard, rolled out. How many "
         "monsters is left to you.",
         ccm.ClassicStockRooms, (_rng("level", "Dungeon level", (1, None)), _rng("rooms", "Rooms", (1, stocking.MAX_ROOMS), 6))),
    Tool("classic_ego_test", "Ego contest", CLASSIC,
         _ego_summary(NO_TABLES),
         ccm.ClassicEgoTest,
         (_rng("intelligence", "Wielder's Intelligence", swords.WIELDER_SCORE_RANGE, 10),
          _rng("strength", "Wielder's Strength", swords.WIELDER_SCORE_RANGE, 10),
          ToolInput("state", "Wielder's state", "choice", choices=WIELDER_STATES, default="as_given"),
          _rng("condition", "Your own adjustment", swords.CONDITION_RANGE, 0),
          ToolInput("continuing", "Continuing relationship (Egoism against level)", "bool", default=False),
          _rng("level", "Fighting-man's level", (1, swords.MAX_LEVEL), 1),
          ToolInput("new_sword", "New sword first", "bool", default=False)),
         status=_kept_sword, summary_for=_ego_summary),
    Tool("classic_underworld_pursuit", "Fleeing underground", CLASSIC,
         "A monster chases a fleeing party in a straight line while it is close; a corner, door or stairs may shake it off, "
         "a secret door more likely; food may distract it, by its wits, and dropped treasure stops the clever ones more "
         "often; burning oil deters many. With both speeds, a turn of flight (moves doubled) opens or closes the gap, and "
         "surprising the monster gives a free turn to flee. A surprised character may drop something.",
         ccm.ClassicUnderworldPursuit,
         (_rng("distance", "Feet between them", OPEN, 30, step=10),
          ToolInput("escape", "The party goes", "choice", choices=ESCAPE_CHOICES, default="straight"),
          ToolInput("food", "Food", "choice", choices=FOOD_CHOICES, default="none"),
          ToolInput("treasure", "Treasure dropped", "choice", choices=TREASURE_CHOICES, default="none"),
          _rng("party_speed", "Party's speed (0: skip)", (0, evasion.MAX_SPEED), 0),
          _rng("monster_speed", "Monster's speed (0: skip)", (0, evasion.MAX_SPEED), 0),
          ToolInput("surprised", "The party was surprised", "bool", default=False),
          ToolInput("cornered", _cornered(NO_TABLES), "bool", default=False, label_for=_cornered),
          ToolInput("free_segment", "The monster was surprised", "bool", default=False),
          ToolInput("oil", "Burning oil thrown", "bool", default=False))),
)  # fmt: skip

PROCEDURES = (
    ("Search for a secret door ({wall} of wall, a turn)", "secret_door"),
    ("An elf passes a secret door", "sense_secret_door"),
    ("Force a door open", "force_door"),
    ("Listen at a door", "listen"),
    ("Pass over or by a trap (or a pit)", "trap"),
    ("Spikes wedging a door open", "spike"),
)


def procedures(library: TableLibrary) -> tuple[tuple[str, Any], ...]:
    """The underworld checks, the search naming the wall a turn searches as the underworld time table prints it."""
    wall = underworld.wall_searched(library)
    return tuple((label.format(wall=wall), value) for label, value in PROCEDURES)


RACES = (("Human", "human"), ("Elf", "elf"), ("Dwarf", "dwarf"), ("Hobbit", "hobbit"))
ACTIVITIES = (
    ("Move (mapping)", "move"),
    ("Flight or pursuit", "flight"),
    ("Search, listen, load treasure...", "other"),
    ("Rest, motionless", "rest"),
)
ALIGNMENTS = (("Lawful", "Lawful"), ("Neutral", "Neutral"), ("Chaotic", "Chaotic"))
RINGS = (("Spell Storing: what it holds", "storing"), ("Spell Turning: a spell aimed at the wearer", "turning"))
ATTACKS = (("Fire", "fire"), ("Lightning", "lightning"))
HIRED_RACES = (("Man", "man"), ("Dwarf", "dwarf"), ("Elf", "elf"), ("Orc", "orc"))
STRONGHOLDS = (
    ("No stronghold yet", "none"),
    ("A stronghold in the wilderness", "wilderness"),
    ("A stronghold in a village or town not theirs", "town"),
)


def _underworld(state: ToolboxState) -> str:
    return f"Underground: {state.underworld.describe()}."


def _underworld_check(library: TableLibrary) -> str:
    die = _d(a_die(library))
    small = underworld.check_on(library, "Force a door: smaller and lighter character", "1")
    return (
        f"The {die} checks of the underworld: finding a secret door (elves see more), an elf sensing one passed, forcing "
        f"a stuck door (up to {underworld.max_forcers(library)} together; small folk may need a {small}), listening at a "
        "door (humans hear less; undead make no sound), a trap or pit springing as each character passes, and spikes "
        "slipping so the door swings shut."
    )


def _underworld_turn(library: TableLibrary) -> str:
    t = underworld.time_number
    return (
        f"Count turns underground: {t(library, 'Moves per turn')} moves a turn at the speed of the slowest (in inches, "
        f"each a {t(library, 'Feet per inch')}-foot step), {t(library, 'Moves per turn in flight or pursuit')} in flight "
        f"or pursuit with no mapping. {t(library, 'Rest turns per hour')} turn(s) each hour must be spent motionless, "
        f"{t(library, 'Rest after a flight or pursuit')} after a flight."
    )


UNDERWORLD_TOOLS: tuple[Tool, ...] = (
    Tool("classic_underworld_check", "Doors, traps and listening", UNDERWORLD,
         _underworld_check(NO_TABLES),
         pc.ClassicUnderworldCheck,
         (ToolInput("procedure", "Check", "choice", choices=procedures(NO_TABLES), default="secret_door",
                    choices_for=procedures),
          ToolInput("race", "Race", "choice", choices=RACES, default="human"),
          _rng("characters", "Characters (or spikes)", (1, underworld.MAX_ROLLERS), 1),
          ToolInput("small", "Small and light (doors)", "bool", default=False),
          ToolInput("sound", "Something to hear", "bool", default=True)),
         summary_for=_underworld_check),
    Tool("classic_underworld_turn", "Underworld turns", UNDERWORLD,
         _underworld_turn(NO_TABLES),
         pc.ClassicUnderworldTurn,
         (ToolInput("activity", "Doing", "choice", choices=ACTIVITIES, default="move"),
          _rng("turns", "Turns", (1, underworld.MAX_TURNS), 1),
          _rng("speed", "Speed (inches)", (1, underworld.MAX_SPEED), 6),
          ToolInput("new_expedition", "A new expedition", "bool", default=False)),
         status=_underworld, summary_for=_underworld_turn),
)  # fmt: skip


def _fraction(share: float) -> str:
    return {0.5: "half", 0.25: "a quarter", 1 / 3: "a third"}.get(share, f"{share:g}")


def _sword_pickup(library: TableLibrary) -> str:
    share = rule_fraction(library, ITEM_RULES_TABLE, "An NPC directed to take up a sword", swords.NPC_SHARE)
    return (
        "Taking up the latest sword made with a different alignment hurts: Law against Chaos more than Neutrality against "
        f"either; an NPC told to take it up takes {_fraction(share)}. With the character's scores, a sword far above them "
        "takes control."
    )


def _treasure_harm(library: TableLibrary) -> str:
    return (
        "Lightning shatters gems; fire spares them (unless you use the optional rule, a small chance each); both knock "
        f"{items.jewelry_loss(library)}% off jewelry's value, and metal melts to lumps."
    )


def _item_save(library: TableLibrary) -> str:
    return (
        f"A magic item caught by fire or lightning (its owner killed, or lying alone) survives on a {_d(save_die(library))} "
        "at or over its score; some fare worse against the other element. Items not listed are simply destroyed."
    )


CLASSIC_ITEM_TOOLS: tuple[Tool, ...] = (
    Tool("classic_sword_pickup", "Sword of another alignment", CLASSIC,
         _sword_pickup(NO_TABLES),
         pc.ClassicSwordPickup,
         (ToolInput("alignment", "Character's alignment", "choice", choices=ALIGNMENTS, default="Lawful"),
          ToolInput("npc", "An NPC directed to take it", "bool", default=False),
          _rng("intelligence", "Character's Intelligence (0: skip)", (0, swords.WIELDER_SCORE_RANGE[1]), 0),
          _rng("strength", "Character's Strength (0: skip)", (0, swords.WIELDER_SCORE_RANGE[1]), 0)),
         status=_kept_sword, summary_for=_sword_pickup),
    Tool("classic_spell_ring", "Spell rings", CLASSIC,
         "A ring of spell storing holds a few spells of low to middling level, sometimes a priest's (and then perhaps "
         "chaotic ones). A ring of spell turning sends back a share of a spoken spell aimed at its wearer.",
         pc.ClassicSpellRing,
         (ToolInput("ring", "Ring", "choice", choices=RINGS, default="storing"),
          _rng("effect", "The spell's damage (turning; 0: none)", (0, items.MAX_DAMAGE), 0))),
    Tool("classic_item_save", "Item saving throw", CLASSIC,
         _item_save(NO_TABLES),
         pc.ClassicItemSave,
         (ToolInput("item", "Item", "choice", default="Staff of Power", choices_from=items.ITEM_SAVES_TABLE),
          ToolInput("attack", "Struck by", "choice", choices=ATTACKS, default="fire"),
          ToolInput("opposite", "A wand hit by the other element", "bool", default=False)),
         summary_for=_item_save),
    Tool("classic_treasure_harm", "Fire and lightning", CLASSIC,
         _treasure_harm(NO_TABLES),
         pc.ClassicTreasureHarm,
         (ToolInput("attack", "Struck by", "choice", choices=ATTACKS, default="fire"),
          _rng("gems", "Gems", (0, items.MAX_GEMS), 0),
          _rng("jewelry_value", "Jewelry (GP)", (0, items.MAX_VALUE), 0, step=100),
          ToolInput("optional_rule", "Optional: fire may destroy gems", "bool", default=False)),
         summary_for=_treasure_harm),
)  # fmt: skip


def _specialist(values: dict[str, Any]) -> dict[str, Any]:
    return {**values, "classification": ""}


def _hire_summary(library: TableLibrary) -> str:
    return (
        f"The monthly upkeep of hired fighters by kind and race (orcs for {_fraction(hiring.orc_upkeep(library))}), "
        "and the cost of the notices or servitors that find them. A kind the table gives no cost for that race cannot "
        "be hired."
    )


def _men_at_arms(values: dict[str, Any]) -> dict[str, Any]:
    return {**values, "specialist": ""}


HOLDINGS_TOOLS: tuple[Tool, ...] = (
    Tool("classic_hire_specialist", "Hire specialists", HOLDINGS,
         "What specialists cost a lord with a stronghold, by the month or the mission, and what a few weeks of notices or "
         "servitors cost to find them; whether anyone answers is the referee's call.",
         pc.ClassicHire,
         (ToolInput("specialist", "Specialist", "choice", default="Alchemist", choices_from=hiring.SPECIALISTS_TABLE),
          _rng("count", "How many", (1, hiring.MAX_HIRED), 1),
          _rng("periods", "Months (or missions)", (1, hiring.MAX_MONTHS), 1),
          _rng("weeks", "Weeks spent finding them", (0, hiring.MAX_WEEKS), 0)),
         build=_specialist),
    Tool("classic_hire_men_at_arms", "Hire men-at-arms", HOLDINGS,
         _hire_summary(NO_TABLES),
         pc.ClassicHire,
         (ToolInput("classification", "Kind", "choice", default="Light Foot", choices_from=hiring.MEN_AT_ARMS_TABLE),
          ToolInput("race", "Race", "choice", choices=HIRED_RACES, default="man"),
          _rng("count", "How many", (1, hiring.MAX_HIRED), 10),
          _rng("periods", "Months", (1, hiring.MAX_MONTHS), 1),
          _rng("weeks", "Weeks spent finding them", (0, hiring.MAX_WEEKS), 0)),
         build=_men_at_arms, summary_for=_hire_summary),
    Tool("classic_rumours", "Rumours", HOLDINGS,
         "Making the rounds of the taverns for news: a round of drinks here and there and a coin for the barman. What "
         "is heard, true or false, is the referee's.",
         pc.ClassicRumours,
         (_rng("rounds", "Rounds of drinks", (0, hiring.MAX_ROUNDS), 1), ToolInput("barman", "Pay the barman", "bool", default=True))),
    Tool("classic_upkeep", "Upkeep", HOLDINGS,
         "A character pays for support and upkeep a share of their experience until they build a stronghold in the "
         "wilderness; a stronghold in someone else's town does not end it.",
         pc.ClassicUpkeep,
         (_rng("xp", "Experience points", (0, hiring.MAX_XP), 0, step=100),
          ToolInput("stronghold", "Stronghold", "choice", choices=STRONGHOLDS, default="none"))),
    Tool("classic_barony", "Barony", HOLDINGS,
         "A stronghold in the wilderness rules the land around it once cleared: a few villages of a few hundred people "
         "each, who pay a yearly tax a head. Investments earn what the referee judges.",
         pc.ClassicBarony),
)  # fmt: skip

AERIAL_ACTIONS = (("A flyer crashes", "crash"), ("A bomb is dropped", "bomb"))
NAVAL_ACTIONS = (
    ("Grapple (up to {n} tries a turn)", "grapple"),
    ("Cut a grapple (up to {n} tries)", "cut_grapple"),
    ("A galley ships water (fresh to strong breeze)", "ship_water"),
    ("Ram", "ram"),
    ("Patch a hole below the waterline", "patch"),
    ("Oars sheared off", "shear"),
)


def naval_actions(library: TableLibrary) -> tuple[tuple[str, Any], ...]:
    """The naval actions, the grapples naming the tries a turn the air and sea table prints."""
    n = air_sea.grapple_attempts(library)
    return tuple((label.format(n=n), value) for label, value in NAVAL_ACTIONS)


def _aerial_summary(library: TableLibrary) -> str:
    direct = air_sea.direct_hit(library)
    return (
        "A flyer that crashes hurts its rider by the height it fell from; a bomb dropped on a straight run falls true "
        f"on a {direct} on {_d(air_sea.bomb_dice(library))}, and the further off, the wider it misses."
    )


AIR_SEA_TOOLS: tuple[Tool, ...] = (
    Tool("classic_aerial", "Aerial combat", WILDERNESS,
         _aerial_summary(NO_TABLES),
         pc.ClassicAerialCombat,
         (ToolInput("action", "What happens", "choice", choices=AERIAL_ACTIONS, default="crash"),
          _rng("height", "Height (inches)", (1, air_sea.MAX_HEIGHT), 6)),
         summary_for=_aerial_summary),
    Tool("classic_naval", "Naval combat", WILDERNESS,
         "Ships close enough may grapple (or cut free); a galley in a stiff breeze may ship water and slow until it "
         "sinks; a ram damages, may hole the hull and kills crew; a patch may not hold; sheared oars kill rowers and stop "
         "a ship.",
         pc.ClassicNavalCombat,
         (ToolInput("action", "What happens", "choice", choices=naval_actions(NO_TABLES), default="grapple",
                    choices_for=naval_actions),
          replace(_rng("attempts", "Tries this turn", (1, air_sea.GRAPPLE_ATTEMPTS), 1), high_for=air_sea.grapple_attempts),
          _rng("turns", "Turns (water)", (1, air_sea.MAX_TURNS), 1),
          _rng("speed_lost", "SPEED lost so far (%)", (0, 100), 0),
          _rng("crew", "Crew (ram)", (0, air_sea.MAX_CREW), 0),
          _rng("rowers", "Rowers on that side", (0, air_sea.MAX_CREW), 0),
          ToolInput("side", "Rammed in the side", "bool", default=True),
          ToolInput("oared", "An oared ship", "bool", default=True),
          ToolInput("sheared_before", "Oars sheared before", "bool", default=False))),
)  # fmt: skip


def _wilderness_day(library: TableLibrary) -> str:
    rest_dice = rule_number(library, wilderness.RULES_TABLE, "Encounter dice on a day of rest", wilderness.REST_DICE)
    days = rule_number(library, wilderness.RULES_TABLE, "Days of movement before a rest", wilderness.DAYS_BEFORE_REST)
    return (
        "A day's travel: the hexes your means of travel covers, less for big parties and rough ground; a die for getting "
        "lost on the terrain you start on; at day's end the encounter die for the terrain (afloat or flying: a mid-day die "
        f"too; resting: {rest_dice} dice), each encounter rolled through to the creature with surprise and distance. After "
        f"{days} days of movement a day of rest is due."
    )


def _evade(library: TableLibrary) -> str:
    n = evasion.pursuit_numbers(library.get(evasion.PURSUIT_TABLE) if evasion.PURSUIT_TABLE in library else None)
    rest = "half a day" if n.rest_per_hex == 0.5 else f"{n.rest_per_hex:g} day(s)"
    return (
        "The chance to slip away depends on the party's size and how many of the possible monsters turned up; surprise, "
        f"woods and a big difference in speed (one side at least {n.speed_factor} times as fast) change it. If evasion "
        "fails, the chase goes hex by hex until the party is caught (only by monsters faster than it: "
        f"{n.catch}% each hex, less in woods or swamp) or the pursuers give up; each hex costs {rest} of rest. Speeds are "
        "the SPEED of the monster tables and the party's move by encumbrance, in inches."
    )


WILDERNESS_TOOLS: tuple[Tool, ...] = (
    Tool("classic_wilderness_day", "Wilderness day", WILDERNESS,
         _wilderness_day(NO_TABLES),
         ccm.ClassicWildernessDayCommand,
         (ToolInput("terrain", "Terrain", "choice", choices=TERRAIN_CHOICES, default="clear"),
          ToolInput("means", "Travelling by", "choice", default="Man on foot", choices_from=wilderness.MOVEMENT_TABLE),
          _rng("party_size", "Party size", (1, wilderness.MAX_PARTY), 4),
          ToolInput("resting", "A day of rest", "bool", default=False),
          ToolInput("exploring", "Exploring (mapping new hexes)", "bool", default=False),
          ToolInput("track", "On a track", "bool", default=False),
          ToolInput("river_crossing", "Crossing a river away from a ford", "bool", default=False),
          ToolInput("at_sea", "A ship staying on the water", "bool", default=False),
          ToolInput("new_trip", "Start a new trip", "bool", default=False)),
         status=_trip, summary_for=_wilderness_day),
    Tool("classic_castle", "Castle", WILDERNESS,
         "The nearer the party passes a castle, the likelier its occupants ride out (always if a weak-looking party hails it). "
         "Then who lives there, what guards or retainers come along and how many, whether they are hostile, the men on the "
         "walls, their companions, and the toll they may ask.",
         ccm.ClassicCastle,
         (_rng("hexes", "Hexes from the castle", (0, castles.MAX_HEXES)),
          ToolInput("hailed", "A weak-looking party hails it", "bool", default=False),
          ToolInput("moving_on", "The party moves on (do they pursue?)", "bool", default=False))),
    Tool("classic_evade", "Evasion and pursuit", WILDERNESS,
         _evade(NO_TABLES),
         ccm.ClassicEvade,
         (_rng("party_size", "Party size", (1, evasion.MAX_PARTY), 4), _rng("monsters", "Monsters met", (1, None), 4),
          _rng("possible", "Most that could appear", (1, None), 10),
          ToolInput("surprise", "Surprise", "choice", choices=SURPRISE_CHOICES, default="none"),
          ToolInput("woods", "In woods", "bool", default=False), ToolInput("swamp", "In swamp", "bool", default=False),
          ToolInput("magic", "The party can use magic", "bool", default=False),
          _rng("party_speed", "Party's speed", (1, evasion.MAX_SPEED), 12),
          _rng("monster_speed", "Monsters' speed", (1, evasion.MAX_SPEED), 12),
          ToolInput("chase", "Run the pursuit on a failure", "bool", default=True)),
         summary_for=_evade),
    Tool("classic_swim", "Swimming", WILDERNESS,
         "Whoever goes into the water risks drowning by the armour worn (heavier is worse; unarmoured only when thrown "
         "overboard); metal armour that does not drown its wearer at once must come off. A storm adds its own chance "
         "each turn.",
         ccm.ClassicSwim,
         (ToolInput("armor", "Armour", "choice", default="Leather", choices_from="classic.swimming"),
          ToolInput("overboard", "Thrown overboard", "bool", default=True),
          ToolInput("storm", "Gale or storm", "bool", default=False))),
    Tool("classic_campaign_time", "Campaign time", WILDERNESS,
         "Keep the campaign's calendar: a dungeon expedition counts a week, a wilderness adventure a day per move (rest "
         "days included), a week of real time a week of game time, as the campaign time table says.",
         ccm.ClassicCampaignTime,
         (ToolInput("activity", "Activity", "choice", default="Dungeon expedition", choices_from="classic.campaign_time"),
          _rng("count", "How many", (1, calendar.MAX_COUNT), 1)),
         status=lambda state: f"Game time so far: {state.calendar.describe()}."),
    Tool("classic_healing", "Healing by rest", WILDERNESS, _healing_summary(NO_TABLES),
         ccm.ClassicHealing,
         (_rng("hp_missing", "Hit points missing", (0, healing.MAX_HP), 5), _rng("days", "Days of rest", (0, healing.MAX_DAYS), 7)),
         summary_for=_healing_summary),
)  # fmt: skip

#: reference panels: (key, title, summary, tables) — read, never rolled
REFERENCE_PANELS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("ref_movement", "Movement and terrain", "How many hexes a day each way of travel covers, what terrain costs, and the big-party penalty.",
     (wilderness.MOVEMENT_TABLE, "classic.wilderness_terrain_cost", "classic.wilderness_large_party")),
    ("ref_specialists", "Specialists", "Monthly or per-mission costs of specialists for those with a stronghold.", ("classic.specialists",)),
    ("ref_men_at_arms", "Men-at-arms", "Monthly upkeep of hired fighters by kind and race.", ("classic.men_at_arms",)),
    ("ref_swords", "Sword purpose", "When a sword has a special purpose, what it can be, and the ability its alignment gives.",
     ("classic.sword_purpose", "classic.sword_purposes", "classic.sword_purpose_ability")),
    ("ref_staves", "Staff powers", "What a Staff of Power and a Staff of Wizardry can do.", ("classic.staff_of_power", "classic.staff_of_wizardry")),
    ("ref_artifacts", "Artifacts", "Examples of artifacts and of what they may do to the wrong hands.", ("classic.artifacts", "classic.artifact_harm")),
    ("ref_naval", "Ships", "Ship speeds by oar and sail, rowers' fatigue, how speed may change, and typical crews.",
     ("classic.naval_movement", "classic.oar_fatigue", "classic.oar_speed_changes", "classic.crew_numbers")),
    ("ref_swimming", "Drowning chances", "The chance of drowning by armour, and what swimmers can carry.", ("classic.swimming",)),
    ("ref_aerial", "Aerial turns", "How many turns a flyer makes per move and how far apart, by size.", ("classic.aerial_turns",)),
    ("ref_campaign", "Campaign and money", "How campaign time passes, the exchange rate, and barony investments.",
     ("classic.campaign_time", "classic.exchange_rate", "classic.barony_investments")),
    ("ref_travel_rounds", "Travel rounds", "The exploration text's three travel rounds of a day.", ("explore.travel_rounds",)),
    ("ref_procedures", "Referee's numbers", "The numbers the classic tools read, each with its rule as printed (edit them in the "
     "table editor to change how the tools play).",
     ("classic.underworld_checks", "classic.underworld_time", "classic.pursuit", "classic.stocking_rules", "classic.castle_rules",
      "classic.wilderness_rules", "classic.item_rules", "classic.sword_alignment_damage", "classic.spell_rings",
      "classic.treasure_fire_lightning", "classic.hiring_costs", "classic.barony", "classic.air_sea")),
)  # fmt: skip


#: the reference panels that count time or distance, with the units of the text their tables come from
REFERENCE_UNITS = {"ref_movement": WILDERNESS, "ref_campaign": WILDERNESS, "ref_travel_rounds": EXPLORATION}


def reference_tools() -> tuple[Tool, ...]:
    """The reference panels as tools with no command of their own (``panel`` "reference")."""
    return tuple(
        Tool(
            k,
            t,
            REFERENCE,
            s,
            None,
            panel="reference",
            tables=ids,
            units_note=UNITS.get(REFERENCE_UNITS.get(k, ""), ""),
            units_text=REFERENCE_UNITS.get(k, ""),
        )
        for k, t, s, ids in REFERENCE_PANELS
    )
