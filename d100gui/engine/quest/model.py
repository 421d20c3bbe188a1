"""The adventure as data: the procedure's numbers, the quests, and the state a campaign keeps.

:class:`AdventureRules` holds every number the Time Track, Quests and Completing and Failing
Quests sections state that :class:`~d100gui.engine.rules.model.Rules` does not carry yet;
:data:`ADVENTURE_RULES` is the rulebook's values, each with its reason in
:attr:`AdventureRules.notes`. (They belong in ``resources/d100-rules.json`` as
``Rules.adventure``; :func:`adventure_rules` reads them from there once they are.)

:class:`AdventureState` is what the adventure keeps between commands: the current quest, a
quest choice waiting for the player, the quests ticked on Table Q, a wandering monster
waiting to be fought and the clocks still to shade after it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from d100gui.engine.combat.monster import Monster
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dice.waiting import RowWaiting, past_quest
from d100gui.engine.hero.model import Item
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules


class AdventureRules(Model):
    """The adventure procedure's numbers and the tables it rolls on."""

    quest_table: str = "d100.Q"
    encounter_table: str = "d100.E"
    training_quests: int = Field(default=5, ge=0)
    check_die: str = "d10"
    oil_per_trigger: int = Field(default=1, ge=0)
    food_per_trigger: int = Field(default=1, ge=0)
    hunger_hp: int = Field(default=1, ge=0)
    poison_hp: int = Field(default=1, ge=0)
    poison_pips_lost: int = Field(default=1, ge=0)
    disease_hp: int = Field(default=1, ge=0)
    find_table: str = "d100.F"
    geographic_table: str = "d100.G"
    #: Table F's column bonus by area colour (Y, R, G, B), in the order of the printed column key
    search_bonus: dict[str, int] = Field(default_factory=lambda: {"Y": 0, "R": 10, "G": 5, "B": 20})
    turn_clocks: int = Field(default=1, ge=0)
    objective_per_blue_area: int = Field(default=1, ge=0)
    #: how many items the backpack holds (None: the rulebook prints no limit, so it takes every find)
    backpack_rows: int | None = Field(default=None, ge=0)
    #: the d10 location rolls a "repair pip on a random equipped item" makes before it gives up (none equipped)
    location_rolls: int = Field(default=30, ge=1)
    notes: dict[str, str] = Field(
        default_factory=lambda: {
            "training_quests": "Choosing a Quest: the five quests entitled Dungeon Training are taken in the order listed.",
            "check_die": "Time Track and Poison/Disease: a wandering monster, poison and disease are each a d10 roll.",
            "supplies": "Time Track: an oil symbol spends a flask, a food symbol a ration; no food costs 1 HP.",
            "afflictions": "Monster Abilities: at a refresh poison and disease cost 1 HP each on a hit; poison then loses one pip.",
            "search_bonus": "Table F's column key (+0 / +10 / +5 / +20) read in the map's colour order: yellow, red, green, blue"
            " (docs/rules-interpretations.md).",
            "turn_clocks": "Turns step 2: the time track goes +1 each time the hero moves on.",
            "backpack_rows": "The rulebook prints no backpack limit: every find goes in (docs/rules-interpretations.md).",
        }
    )


#: the rulebook's values
ADVENTURE_RULES = AdventureRules()


def adventure_rules(rules: Rules) -> AdventureRules:
    """The adventure's numbers from ``rules`` (``Rules.adventure`` once the rules file has it), else the rulebook's."""
    found = getattr(rules, "adventure", None)
    return found if isinstance(found, AdventureRules) else ADVENTURE_RULES


class Quest(Model):
    """A quest as Table Q prints it. ``missing`` names the columns the excerpt cut off (never invented)."""

    name: str
    objective: str = ""
    encounter_modifier: int = 0
    reward: str = ""
    fail: str = ""
    table_id: str = ""
    range: tuple[int, int] | None = None
    training: int | None = None  # the Dungeon Training number, for a training quest
    missing: list[str] = Field(default_factory=list)


class QuestRoll(Model):
    """One Table Q roll of a quest choice: the quest it found, or the gap it fell in (``quest`` None)."""

    table_roll: TableRoll
    quest: Quest | None = None
    completed: bool = False  # ticked on Table Q: the player may roll again
    discarded: list[TableRoll] = Field(default_factory=list)  # rolls given up for a re-roll


class QuestChoice(Model):
    """The pending quest decision: Table Q rolled once per REP point, or a training quest's missing row.

    ``training`` and ``gap`` are set when the next Dungeon Training quest is not in the player's
    tables: they type its row (it must start at ``gap[0]``). Otherwise ``rolls`` are the quests
    to choose from.
    """

    decision: Literal["quest_choice"] = "quest_choice"
    id: str = ""
    prompt: str = ""
    training: int | None = None
    gap: tuple[int, int] | None = None
    rolls: list[QuestRoll] = Field(default_factory=list)
    sample: bool = False  # training quests were skipped because the tables lack them (sample play)


class QuestState(Model):
    """The quest under way: what it is and which attempt of the quest log it is."""

    quest: Quest
    attempt: int = 0
    sample: bool = False
    carried: dict[str, int] = Field(default_factory=dict)  # objective items in the backpack when the quest began


class FightOffer(Model):
    """A monster the time track brought (a wandering monster): to be fought, not yet a fight."""

    table_roll: TableRoll
    clock: int
    source: str = "wandering monster"
    surprise: bool = False  # Table F: "it has SURPRISE"
    area: str = ""  # the area it waits in (a red area's monster, a search's), "" for the time track's
    monster: Monster | None = None  # a monster printed outside Table E (Table G's GIANT SNAKE): fought as printed


TurnStep = Literal["equipment", "time", "exit", "area", "search"]
#: the five steps of a turn, in order, with the name the rulebook's Turns section gives each
TURN_STEPS: tuple[tuple[TurnStep, str], ...] = (
    ("equipment", "Adjust equipment"),
    ("time", "Time track +1"),
    ("exit", "Choose an exit"),
    ("area", "The area"),
    ("search", "Search or skip"),
)


class TurnState(Model):
    """Where the quest's turn stands, kept between commands so a saved campaign resumes at the same step.

    ``step`` is the step last reached; a step that waits on something (a wandering monster, a
    fight, a test) stays until it is over (:func:`~d100gui.engine.adventure.turn.current_step` reads past it then).
    ``exit`` is the side chosen when the time track stopped the turn before the move;
    ``area`` the area reached this turn; ``searched`` that this turn's search was made.
    """

    number: int = Field(default=1, ge=1)
    step: TurnStep = "equipment"
    exit: Literal["N", "E", "S", "W"] | None = None
    area: str = ""
    searched: bool = False
    entrance: bool = False  # this turn's area is the entrance just stepped into: once it is settled, turn 1 begins


class AdventureState(Model):
    """What the adventure keeps between commands (``Campaign.adventure``)."""

    quest: QuestState | None = None
    choice: QuestChoice | None = None
    completed: list[str] = Field(default_factory=list)  # quest names ticked on Table Q
    fight_offered: FightOffer | None = None
    clocks_owed: int = Field(default=0, ge=0)  # clocks of a +N still to shade after the offered fight
    turn: TurnState | None = None  # the turn under way while a quest is (see turn.py)
    door_tries: dict[str, list[str]] = Field(default_factory=dict)  # "dungeon/pos/side" -> once-only ways tried (doors.py)
    #: the rolls waiting for a row the player's tables lack: an effect's, a curse's (``engine/dice/waiting.py``)
    rows_waiting: list[RowWaiting] = Field(default_factory=list)
    loot_waiting: Item | None = None  # a find the full backpack cannot take: keep it (drop another) or leave it
    notes: dict[str, str] = Field(default_factory=dict)  # the last feature's printed notes by name ("SPIKES" -> its roll)
    ended: int | None = Field(default=None, ge=0)  # the attempt number of the last quest completed or failed here

    def take_fight(self) -> FightOffer | None:
        """Hand the offered fight to combat (which starts it); the clocks owed wait for ``resume_time``."""
        offer, self.fight_offered = self.fight_offered, None
        return offer

    def end_with_hero(self) -> None:
        """The hero died: the quest, a choice, a waiting monster and the effects' rolls end with them (the ticks stay)."""
        self.quest = None
        self.choice = None
        self.fight_offered = None
        self.clocks_owed = 0
        self.turn = None
        self.rows_waiting = past_quest(self.rows_waiting)  # a curse waiting outlives the quest
        self.loot_waiting = None
