"""What the turn strip shows, worked out by the engine: the five steps, the current one, and each action with why it is greyed.

:func:`turn_panel` answers for a campaign; a view renders the :class:`TurnPanel` and sends an
action's command, and never decides a rule itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from d100gui.engine.adventure.areas import search_bonus
from d100gui.engine.adventure.commands import BeginQuest, ChooseQuest, CompleteQuest, FailQuest, LightLantern, ResumeTime
from d100gui.engine.adventure.corrections import Correction, corrections_for
from d100gui.engine.adventure.doors import METHODS, TryDoor, door_test_line, methods_now, tried, why_not
from d100gui.engine.adventure.quests import FAIL, objective_missing
from d100gui.engine.adventure.row_commands import ApplyTypedRow, KeepLoot, LeaveLoot, SkipTypedRow
from d100gui.engine.adventure.turn import (
    EndTurn,
    FaceOfferedMonster,
    MoveOn,
    SearchArea,
    Side,
    current_step,
    entrance_search_open,
    turn_of,
    waiting_on,
)
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.door_tests import door_row
from d100gui.engine.game import Command
from d100gui.engine.hero.decisions import CalledTest, PendingTest
from d100gui.engine.hero.model import Character
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.quest.access import offer_waiting
from d100gui.engine.quest.model import TURN_STEPS, AdventureState, TurnStep, adventure_rules
from d100gui.engine.rules.model import Rules
from d100gui.engine.skill_test_commands import AcceptTest, RollTest

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


@dataclass(frozen=True)
class TurnAction:
    """One button of the strip: what it sends, whether it may now, and the tooltip (what it does, or why not)."""

    key: str
    label: str
    step: TurnStep | None  # the step it belongs to (None: the quest's)
    command: Command
    enabled: bool
    why: str
    asks_row: bool = False  # the command needs the row the player types first (the view opens the row dialog)


@dataclass(frozen=True)
class TurnPanel:
    """The turn as the strip shows it."""

    quest: str = ""
    number: int = 0
    step: TurnStep = "equipment"
    steps: tuple[tuple[TurnStep, str], ...] = TURN_STEPS
    hint: str = ""
    actions: list[TurnAction] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)  # the last action's narratives, each with its hand correction


def _state(campaign: Campaign) -> AdventureState | None:
    state = getattr(campaign, "adventure", None)
    return state if isinstance(state, AdventureState) else None


def _no_quest(campaign: Campaign, state: AdventureState | None) -> TurnPanel:
    if state is not None and state.choice is not None:
        choices = [
            TurnAction(
                f"choose_{n}",
                f"Take {r.quest.name}" if r.quest else f"Roll {n + 1}: row missing",
                None,
                ChooseQuest(index=n),
                r.quest is not None,
                r.quest.objective if r.quest else "Type this Table Q row first (your tables lack it).",
            )
            for n, r in enumerate(state.choice.rolls)
        ]
        return TurnPanel(hint=state.choice.prompt, actions=choices)
    ready = campaign.character is not None and campaign.character.creation is None and not campaign.character.dead
    why = "The next Dungeon Training quest, or Table Q once per REP point." if ready else "Create a hero first."
    begin = TurnAction("begin_quest", "Begin a quest", None, BeginQuest(), ready, why)
    return TurnPanel(hint="No quest is under way.", actions=[begin])


def turn_panel(campaign: Campaign, rules: Rules, library: TableLibrary | None = None) -> TurnPanel:
    """The turn strip's contents for ``campaign`` (``library``: to read an Open Magic scroll's spell from Table S)."""
    state = _state(campaign)
    turn = turn_of(campaign)
    if state is None or state.quest is None or turn is None:
        return _no_quest(campaign, state)
    step, waiting = current_step(campaign), waiting_on(campaign)
    dungeon = campaign.dungeons.current_dungeon
    area = dungeon.hero_area() if dungeon is not None else None
    actions = [
        *_time_actions(campaign, state, turn.step),
        *([_continue(turn.exit, step, waiting)] if turn.exit else []),  # only after the time track stopped a move
        *(door_actions(campaign, rules, library) if step in _DOOR_STEPS else []),
        *_area_tests(campaign),
        *_waiting_finds(campaign, state),
        _search(
            rules,
            step,
            waiting or ("" if area else "the hero is not in the dungeon: enter it first"),
            area,
            entrance_search_open(campaign),
        ),
        TurnAction(
            "end_turn",
            "End turn" if turn.searched else "End turn (skip search)",
            "search",
            EndTurn(),
            step == "search" and not waiting,
            (
                "The area is searched: the turn is over; clicking an exit does this too."
                if turn.searched
                else "The search is skipped; clicking an exit does this too."
            )
            if step == "search" and not waiting
            else _not_yet(step, waiting),
        ),
        *_quest_actions(campaign, state),
    ]
    hint = f"Waiting: {waiting}." if waiting else _HINTS[step]
    return TurnPanel(
        quest=state.quest.quest.name,
        number=turn.number,
        step=step,
        hint=hint,
        actions=actions,
        corrections=corrections_for(campaign),
    )


def _time_actions(campaign: Campaign, state: AdventureState, at: TurnStep) -> list[TurnAction]:
    """Steps 1-2: the lantern in darkness, the clocks a fight interrupted, the monster the time track brought."""
    ch, fight, offer = campaign.character, campaign.combat is not None, offer_waiting(campaign)
    dark, oil = bool(ch and ch.in_darkness), bool(ch and ch.supplies.oil > 0)
    lantern = (
        "Spend a flask of oil now: the darkness ends."
        if dark and oil
        else "The lantern is lit."
        if not dark
        else "You have no oil."
    )
    owed = state.clocks_owed
    return [
        TurnAction("light_lantern", "Light the lantern", "equipment", LightLantern(), dark and oil, lantern),
        TurnAction(
            "resume_time",
            "Shade the clocks owed",
            "time",
            ResumeTime(),
            owed > 0 and not fight and offer is None,
            f"{owed} clock(s) wait behind the fight." if owed else "No clocks are owed.",
        ),
        TurnAction(
            "fight",
            "Fight the monster",
            "time" if at == "time" or offer is None else "area",  # at step 4 only when a monster waits there
            FaceOfferedMonster(),
            offer is not None and not fight,
            offer.table_roll.describe() if offer is not None else "No monster waits to be fought.",
        ),
    ]


_METHOD_LABELS = {
    "key": "Use a key",
    "pick": "Pick the lock",
    "lever": "Work the levers",
    "force": "Force it",
    "test": "Open it (trapped)",
    "spell": "Cast Open Magic",
    "scroll": "Read the Open Magic scroll",
}


def door_actions(
    campaign: Campaign, rules: Rules, library: TableLibrary | None, only: dg.DoorAt | None = None
) -> list[TurnAction]:
    """Step 3: each Table D way of opening each closed door of the hero's area (``only``: one door, as a click
    on it on the map asks), greyed with the reason when it cannot."""
    ch, dungeon = campaign.character, campaign.dungeons.current_dungeon
    if ch is None or dungeon is None or dungeon.hero is None:
        return []
    waiting = waiting_on(campaign)
    actions: list[TurnAction] = []
    wanted = dg.door_at(dungeon, only) if only is not None else None
    for where in dg.doorways_of(dungeon, dungeon.hero):
        if only is not None and where != only and (wanted is None or dg.door_at(dungeon, where) is not wanted):
            continue  # another door than the one clicked
        door = dg.door_at(dungeon, where)
        if door is None or door.is_open or door.pending or door.type not in METHODS:
            continue
        done = tried(campaign, where)
        now = methods_now(ch, rules, library, door.type, done)
        for method in METHODS[door.type]:
            ok = method in now and not waiting
            why = (
                method_tip(method, door, ch, library)
                if ok
                else (f"Not yet: {waiting}." if waiting else why_not(method, door, now))
            )
            command = TryDoor(pos=where.pos, side=where.side, method=method)
            label = f"{_METHOD_LABELS[method]} ({door.type}, {where.side} of {where.pos})"
            actions.append(TurnAction(f"door_{where.pos}_{where.side}_{method}", label, None, command, ok, why))
    return actions


def method_tip(method: str, door: dg.Door, ch: Character, library: TableLibrary | None) -> str:
    """What trying ``method`` on ``door`` does, as Table D says (its test line for a test)."""
    if method in ("key", "lever"):
        held = ch.keys if method == "key" else ch.levers
        return f"Table D {door.label}: roll a d10 at or under the {method}s you hold ({held}); a success opens it and spends one."
    if method in ("spell", "scroll"):
        where = "from your spell book" if method == "spell" else "from the scroll on your belt"
        return f"Table D {door.label}: cast Open Magic {where} (its cost, then the CAST SPELL test)."
    line = ""
    if library is not None and dg.DOOR_TABLE in library:
        row = door_row(door, library.get(dg.DOOR_TABLE))
        try:
            line = door_test_line(" ".join(row.fields.values()), door.type) if row is not None else ""
        except CommandRefused:
            line = ""
    return f"Table D {door.label}: {line or 'its test'}."


def _area_tests(campaign: Campaign) -> list[TurnAction]:
    """A test the turn waits on (a Table G trap, a door's) to roll, or its roll to accept (Fate is on the sheet):
    shown at every step, as it is what the turn waits for."""
    actions: list[TurnAction] = []
    for decision in campaign.pending:
        if isinstance(decision, CalledTest):
            name = decision.spec.name or "the test"
            why = f"{decision.spec.describe()}: roll it (the sheet offers Fate afterwards)."
            actions.append(TurnAction(f"roll_{decision.id}", f"Roll {name}", None, RollTest(called=decision.id), True, why))
        elif isinstance(decision, PendingTest):
            verdict = "success" if decision.success else "failure"
            why = f"Rolled {decision.roll.natural} against {decision.target}: {verdict}. Accept it, or spend Fate on the sheet."
            actions.append(
                TurnAction(f"accept_{decision.id}", "Accept the roll", None, AcceptTest(decision=decision.id), True, why)
            )
    return actions


def _waiting_finds(campaign: Campaign, state: AdventureState) -> list[TurnAction]:
    """An effect's roll waiting for its typed row (apply it once typed), and a find the full backpack cannot take."""
    actions: list[TurnAction] = []
    history = campaign.dice_history
    for waiting in state.rows_waiting:
        if waiting.entry is None:  # a curse's roll waits outside the turn (the flow's town agenda)
            continue
        held = history[waiting.entry].table if waiting.entry < len(history) else None
        if held is None:
            continue
        typed = held.row is not None
        label = f"Apply {held.table_title} {held.value}" if typed else f"Type {held.table_title} row {held.value}"
        why = "The row is typed: apply it." if typed else f"{held.describe()}: type the row from your rulebook, then it applies."
        command = ApplyTypedRow(entry=waiting.entry)
        actions.append(TurnAction(f"row_{waiting.entry}", label, None, command, True, why, asks_row=not typed))
        skip = SkipTypedRow(entry=waiting.entry)
        actions.append(
            TurnAction(f"skip_row_{waiting.entry}", "Go without it", None, skip, True, "Nothing of the roll is applied.")
        )
    item = state.loot_waiting
    if item is not None and campaign.character is not None:
        for n, held_item in enumerate(campaign.character.backpack):
            why = f"Drop {held_item.name} ({held_item.value} gp) to keep {item.name} ({item.value} gp)."
            actions.append(TurnAction(f"keep_loot_{n}", f"Drop {held_item.name}", None, KeepLoot(drop=n), True, why))
        actions.append(TurnAction("leave_loot", f"Leave {item.name}", None, LeaveLoot(), True, "Leave the find behind."))
    return actions


def _quest_actions(campaign: Campaign, state: AdventureState) -> list[TurnAction]:
    """Ending the quest: never during a fight, nor with a monster waiting."""
    fight, free = campaign.combat is not None, campaign.combat is None and offer_waiting(campaign) is None
    quest = state.quest.quest if state.quest else None
    met = campaign.character.objectives if campaign.character else 0
    objective = f"Objective: {(quest.objective if quest else '') or 'as your rulebook prints it'} ({met} met so far)."
    offer = offer_waiting(campaign)
    waits = f"Not yet: a {offer.source} waits - fight it first." if offer is not None and not fight else ""
    ch = campaign.character
    missing = objective_missing(ch, state.quest) if ch is not None and state.quest is not None else ""
    unmet = f"Not yet: the objective is not met ({missing})." if missing else ""
    printed = state.quest.quest if state.quest is not None else None
    unprinted = (
        f"Your tables do not print {printed.name}'s fail costs: type them from your rulebook."
        if printed is not None and not printed.fail and FAIL in printed.missing
        else ""
    )
    return [
        TurnAction(
            "complete_quest",
            "Complete the quest",
            None,
            CompleteQuest(),
            free and not missing,
            "You cannot complete a quest during a fight." if fight else waits or unmet or objective,
        ),
        TurnAction(
            "fail_quest",
            "Fail the quest",
            None,
            FailQuest(),
            free and not unprinted,
            "You cannot fail a quest during a fight."
            if fight
            else waits or unprinted or "End the quest as failed and pay its fail costs.",
        ),
    ]


#: the steps at which the hero may try the doors of the area (step 3 is choosing an exit; a door is tried before it)
_DOOR_STEPS: frozenset[TurnStep] = frozenset({"equipment", "exit", "search"})

_HINTS: dict[TurnStep, str] = {
    "equipment": "Adjust your equipment if you wish, then click an exit of the hero's area on the map.",
    "time": "The time track is shading.",
    "exit": "Click an exit of the hero's area on the map.",
    "area": "The area is being resolved.",
    "search": "Search the area, or click an exit to move on (the search is skipped).",
}


def step_hint(step: TurnStep) -> str:
    """What the player does at ``step`` when nothing waits (the strip's hint line)."""
    return _HINTS[step]


def _not_yet(step: TurnStep, waiting: str) -> str:
    if waiting:
        return f"Not yet: {waiting}."
    return f"Not at this step ({dict(TURN_STEPS)[step]})."


def _continue(exit_: Side | None, step: TurnStep, waiting: str) -> TurnAction:
    side: Side = exit_ or "N"
    ok = step == "exit" and exit_ is not None and not waiting
    why = f"Carry on through the {side} exit you chose." if ok else "Click an exit on the map to move on."
    return TurnAction("continue", f"Continue through {side}" if exit_ else "Continue", "exit", MoveOn(side=side), ok, why)


def _search(rules: Rules, step: TurnStep, waiting: str, area: dg.Area | None, entrance: bool = False) -> TurnAction:
    """Step 5's search; ``entrance``: the entrance area just stepped into, searchable before turn 1 moves on."""
    searched, colour = (area.searched, area.colour) if area is not None else (False, "")
    bonus = search_bonus(adventure_rules(rules), colour)
    ok = (step == "search" or entrance) and not waiting and not searched
    if searched:
        why = "This area is already searched (S): once per area per quest."
    elif ok:
        why = f"Roll Table F {bonus:+d} (this area's column) and mark it S."
    else:
        why = _not_yet(step, waiting)
    at: TurnStep = "equipment" if entrance else "search"  # the entrance's search is offered before step 1 moves on
    return TurnAction("search", f"Search (Table F {bonus:+d})", at, SearchArea(), ok, why)
