"""What each toolbox tool is, as data: its title, its rule text, a summary, its inputs and the command it sends.

A generic form (:class:`~d100gui.ui.toolbox.tool_panel.ToolPanel`) is built from a
:class:`Tool`, so adding a generator is a few lines here. Every range comes from the
engine's constants (the same ones :func:`~d100gui.engine.toolbox.inputs.in_range` checks),
never from a number typed in a widget; the engine still has the last word and its refusal is
shown as it is. No Qt here: the catalogue is plain data, testable without a window.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from d100gui.engine.game import Command
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.classic import monsters, treasure
from d100gui.engine.toolbox.state import ToolboxState

#: the top of a spin box whose engine range is open ("0 or more"): a widget limit, not a rule
OPEN_MAX = 999

SCARS = "d20 scars combat"
EXPLORATION = "Exploration procedure"
CLASSIC = "Classic treasure and magic"
#: how each rule text counts time: the texts disagree, so each tool says its own
UNITS = {
    SCARS: "In this text a Turn is 10 minutes of exploring and a Watch is 6 hours outside.",
    EXPLORATION: "In this text a Turn is 6 seconds, a Round is 10 Turns (1 minute); travel counts 1-hour Turns.",
    CLASSIC: "",
}

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
    command: type[Command]
    inputs: tuple[ToolInput, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)
    build: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    status: Callable[[ToolboxState], str] | None = None
    panel: Literal["form", "fight", "dungeon_clock", "travel_clock"] = "form"

    @property
    def units(self) -> str:
        return UNITS.get(self.rule_text, "")

    def command_for(self, values: Mapping[str, Any]) -> Command:
        """The command for these input values (pydantic checks the types; the engine, the ranges)."""
        fields = dict(self.fixed)
        fields.update(self.build(dict(values)) if self.build else values)
        return self.command(**fields)


ATTRIBUTE = sc.ATTRIBUTE_RANGE
OPEN = (0, None)
SIGNS = (("Not used", sc.ScarsSign.NONE), ("+ Scars", sc.ScarsSign.PLUS), ("- Scars", sc.ScarsSign.MINUS))


def _scars_clock(state: ToolboxState) -> str:
    clock = state.scars_clock
    return f"{clock.turns} Turn(s) and {clock.watches} Watch(es) passed so far."


SCARS_TOOLS: tuple[Tool, ...] = (
    Tool(
        "scars_attack",
        "Attack",
        SCARS,
        "Roll a d20: at or under the attacker's attribute and above the target's AC hits. Exactly the attribute "
        "also stuns and gives another attack; exactly the AC does no damage but knocks the AC down one (0: broken). "
        "Once a round an adventurer may shift the roll by their number of Scars.",
        tc.ScarsAttack,
        (
            _rng("attribute", "Attribute", ATTRIBUTE, 10),
            _rng("armour_class", "Target's AC", sc.AC_RANGE),
            ToolInput("damage", "Damage dice", "text", default="1d6"),
            _rng("scars", "Scars", (0, sc.MAX_SCARS)),
            ToolInput("sign", "Scars modifier", "choice", choices=SIGNS, default=sc.ScarsSign.NONE),
        ),
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
        "Roll a d20 against Agility: at or under acts before the enemies; exactly the Agility also earns one quick "
        "action before the fight starts.",
        tc.ScarsInitiativeRoll,
        (_rng("agility", "Agility", ATTRIBUTE, 10),),
    ),
    Tool(
        "scars_morale",
        "Morale",
        SCARS,
        "When an enemy drops to half health, roll a d20 against 10 + its HD: under, it fights on; exactly, it rallies "
        "(an extra attack next round, never tested again); over, it flees or gives up.",
        tc.ScarsMoraleTest,
        (_rng("hd", "Enemy HD", OPEN),),
    ),
    Tool(
        "scars_hireling",
        "Hireling morale",
        SCARS,
        "A hireling stays loyal when a d20 comes in over their HD and at or under the employer's Cunning.",
        tc.ScarsHirelingMoraleTest,
        (_rng("cunning", "Employer's Cunning", ATTRIBUTE, 10), _rng("hd", "Hireling HD", OPEN)),
    ),
    Tool(
        "scars_reaction",
        "Reaction",
        SCARS,
        "Roll 2d6 on the reaction table for how an enemy first behaves towards the party.",
        tc.ScarsReactionRoll,
    ),
    Tool(
        "scars_distance",
        "Encounter distance",
        SCARS,
        "When the scene does not say how far away the encounter is: 2d6 x 10, in feet underground, in yards outside.",
        tc.ScarsDistanceRoll,
        (ToolInput("outdoors", "Outdoors", "bool", default=False),),
    ),
    Tool(
        "scars_zero_health",
        "Zero health",
        SCARS,
        "At 0 health an adventurer gains a Scar, then rolls 2d6: at or under their Scars they die; over, they wake at "
        "1 health after as many d6 rounds as they have Scars.",
        tc.ScarsZeroHealthCheck,
        (_rng("scars", "Scars before this one", (0, sc.MAX_SCARS - 1)),),
    ),
    Tool(
        "scars_pack",
        "Pack retrieval",
        SCARS,
        "Digging an item out of a pack mid-fight is a d20 against Cunning: exactly, it is in hand now; under, it is "
        "ready next round; over, the search goes on for 1d3 rounds (or the item is given up).",
        tc.ScarsPackRetrieve,
        (_rng("cunning", "Cunning", ATTRIBUTE, 10), ToolInput("search", "Keep searching on a failure", "bool", default=True)),
    ),
    Tool(
        "scars_clock",
        "Turn tracker",
        SCARS,
        "Count exploration Turns underground or Watches outside; each one ends with a d6 encounter check (a 1 means "
        "an encounter).",
        tc.ScarsClockAdvance,
        (
            _rng("count", "How many", (1, sc.MAX_CLOCK_STEPS)),
            ToolInput("unit", "Counting", "choice", choices=(("Turns", "turn"), ("Watches", "watch")), default="turn"),
        ),
        status=_scars_clock,
    ),
)


def _party(values: dict[str, Any]) -> dict[str, Any]:
    size, hd = int(values.pop("size")), int(values.pop("hd"))
    return {"party": [ex.Traveller(name=f"Character {i + 1}", hd=hd) for i in range(size)]}


RESTS = (
    ("Partial (minutes)", ex.RestKind.PARTIAL),
    ("Short (8 hours)", ex.RestKind.SHORT),
    ("Full (24 hours)", ex.RestKind.FULL),
)
ON_CLOCK = (("No clock", "none"), ("Dungeon clock", "dungeon"), ("Travel clock", "travel"))

EXPLORATION_TOOLS: tuple[Tool, ...] = (
    Tool(
        "explore_dungeon_clock",
        "Dungeon clock",
        EXPLORATION,
        "Each action costs Turns; every Turn burns the lit items down, and each full card of Rounds brings a 2d12 "
        "encounter check (low rolls bring an encounter). You are warned before a light goes out.",
        tc.ExploreSpend,
        panel="dungeon_clock",
    ),
    Tool(
        "explore_travel_clock",
        "Travel clock",
        EXPLORATION,
        "Travel is counted in hours: 8-hour Rounds (morning, afternoon, night), 3 a day. Each Round gets a 2d6 check "
        "(very low: hostile or neutral, very high: friendly) and the hour it comes on a d8. After two Rounds of travel "
        "the party should rest one.",
        tc.TravelSpend,
        panel="travel_clock",
    ),
    Tool(
        "explore_rest",
        "Rest",
        EXPLORATION,
        "A partial rest (10-minute spells) restores a little Stress and attribute damage; a short rest (8 hours) and a "
        "full rest (24 hours) restore by HD per hour and heal wounds. On a clock, the rest's time passes there first "
        "and an encounter can cut it short.",
        tc.Rest,
        (
            ToolInput("rest", "Rest", "choice", choices=RESTS, default=ex.RestKind.PARTIAL),
            _rng("hd", "HD", OPEN, 1),
            _rng("wounds", "Wounds", (0, ex.MAX_WOUNDS)),
            _rng("minutes", "Minutes (partial)", (ex.REST_MINUTES_STEP, ex.MAX_REST_MINUTES), step=ex.REST_MINUTES_STEP),
            ToolInput("heal_check", "Heal check made", "bool", default=False),
            ToolInput("on_clock", "Pass the time on", "choice", choices=ON_CLOCK, default="none"),
        ),
    ),
    Tool(
        "explore_push_on",
        "Push on",
        EXPLORATION,
        "Skipping the Round of rest costs each character Stress (one per HD) and a point of Strength, and a 3d4 roll: "
        "a low roll means wound points and a roll on the injury table.",
        tc.PushOn,
        (_rng("size", "Party size", (1, None), 1), _rng("hd", "HD of each", OPEN, 1)),
        build=_party,
    ),
    Tool(
        "explore_injury",
        "Injury",
        EXPLORATION,
        "Roll d% on the injury table; dice written in the effect are rolled, and a 'roll again' result is followed.",
        tc.RollInjury,
    ),
)


def _classic_tools() -> tuple[Tool, ...]:
    """The classic generators whose commands exist (another part of the toolbox adds them)."""
    found = {c.model_fields["kind"].default: c for c in tc.TOOLBOX_COMMANDS}
    level = (1, None)  # the engine's check_level: level 1 or more
    wanted = (
        ("toolbox_classic_magic", "Magic item", "A magic item or a map, rolled through to the item (maps roll their contents).",
         (ToolInput("maps", "Maps can come up", "bool", default=True),)),
        ("toolbox_classic_sword", "Magic sword", "A complete sword: alignment, intelligence, powers, languages and ego.", ()),
        ("toolbox_classic_gems", "Gems", "Value a number of gems, each with its chance to step up in value.",
         (_rng("count", "Gems", (1, treasure.MAX_GEMS)),)),
        ("toolbox_classic_jewelry", "Jewelry", "Value a number of pieces of jewelry.",
         (_rng("count", "Pieces", (1, treasure.MAX_GEMS)),)),
        ("toolbox_classic_hoard", "Treasure by level", "The treasure of a room on a dungeon level, every part rolled out, with its value in gold.",
         (_rng("level", "Dungeon level", level),)),
        ("toolbox_classic_wandering", "Wandering monster", "A monster for a dungeon level and a party size; optionally the d6 check first.",
         (_rng("level", "Dungeon level", level), _rng("party_size", "Party size", (1, monsters.MAX_PARTY), 3),
          ToolInput("check", "Roll the check first", "bool", default=False))),
    )  # fmt: skip
    return tuple(Tool(k.removeprefix("toolbox_"), t, CLASSIC, s, found[k], i) for k, t, s, i in wanted if k in found)


def tool_groups() -> list[tuple[str, tuple[Tool, ...]]]:
    """Every tool, grouped by the rule text it applies (the classic group only when it has tools)."""
    groups = [(SCARS, SCARS_TOOLS), (EXPLORATION, EXPLORATION_TOOLS)]
    classic = _classic_tools()
    if classic:
        groups.append((CLASSIC, classic))
    return groups
