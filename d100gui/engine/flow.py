"""The game's flow, answered by the engine: where the game is, what waits for the player, what may be done now.

:func:`flow` reads the campaign alone (no log scans, no store reads) and returns a :class:`Flow`:

- ``phase`` and ``where``: creation, between quests, a quest's turn and step, the town step, fallen;
- ``waiting``: every thing the game waits for the player to answer (each pending decision, the
  fight's current wait, a monster offered by the time track or a search, a roll waiting for its
  typed row, a find the full backpack cannot take, a curse waiting for its row, the town's step,
  the quest choice), each with the commands that answer it (:class:`Waiting`, never without an
  enabled answer), whatever step the turn stands at;
- ``actions``: every other action of the moment (this turn step's, the quest's, the map's), with
  whether it is allowed now and why not (:class:`FlowAction`).

Every action's ``enabled`` also passes :func:`d100gui.engine.gate.refusal`, so the flow never
offers what ``Game.execute`` would refuse for the phase. Views render a flow and send an
action's command; they never decide a rule themselves (nor from a command kind).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import combinations_with_replacement
from typing import Any

from d100gui.engine import gate
from d100gui.engine.adventure.commands import BeginQuest, ChooseQuest, ProvideQuestRow, RerollQuest, ResumeTime
from d100gui.engine.adventure.doors import openable, secret_passage_allowed
from d100gui.engine.adventure.quests import objective_items, objective_needs
from d100gui.engine.adventure.row_commands import ApplyTypedRow, KeepLoot, LeaveLoot, SkipTypedRow
from d100gui.engine.adventure.turn import EnterOnTurn, FaceOfferedMonster, current_step, turn_of
from d100gui.engine.adventure.turn_view import TurnAction, turn_panel
from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.actions import ACTIONS, action_words, available_actions
from d100gui.engine.combat.attack import WEAPON_SLOTS, weapon_in, weapon_stats
from d100gui.engine.combat.flow import WAIT_TEXT
from d100gui.engine.combat.monster import CombatState
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dice.tables import Row, TableLibrary
from d100gui.engine.dice.waiting import curse_waiting
from d100gui.engine.dice_commands import AddTableRow, ProvideRow, SampleRow
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import LeaveDungeon
from d100gui.engine.dungeon_entry import SecretPassage
from d100gui.engine.fight_commands import (
    CombatAttack,
    CombatBlockEscape,
    CombatCastSpell,
    CombatChangeWeapon,
    CombatChooseLoot,
    CombatContinue,
    CombatEscape,
    CombatFate,
    CombatOffset,
    CombatPass,
    CombatPerfectAim,
    CombatProvideRow,
    CombatUseBelt,
)
from d100gui.engine.fight_start import StartCombat, fight_from_roll
from d100gui.engine.game import EVERY_COMMAND, Command
from d100gui.engine.hero.creation import (
    STEPS,
    CreateCharacter,
    FinishCharacter,
    ProvideStartingRow,
    ResolveArmourClash,
    RollStartingArmour,
    RollStartingWeapon,
    SetStartingHealth,
    SetStartingReputation,
    TakeStartingPotions,
    TakeStartingSupplies,
    next_step,
    step_labels,
)
from d100gui.engine.hero.decisions import (
    ArmourClash,
    CalledTest,
    ExperienceChoice,
    OutcomeChoice,
    PendingTest,
    RowNeeded,
    TargetChoice,
    fight_test_id,
)
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.fallen import read_only_reason
from d100gui.engine.hero.model import Character
from d100gui.engine.magic.commands import ProvideCurseRow
from d100gui.engine.quest.access import offer_waiting
from d100gui.engine.quest.model import TURN_STEPS, AdventureState, FightOffer, QuestState, adventure_rules
from d100gui.engine.rules.model import Rules, TimeTrackLayout
from d100gui.engine.skill_test_commands import (
    AcceptTest,
    AssignExperience,
    ChooseOutcome,
    ChooseTarget,
    DismissDecision,
    RollTest,
    UseFate,
)
from d100gui.engine.town.commands import BeginTown, FinishTown, ProvideInvestmentRow, ProvideMarketRow, RollInvestments, TownNext
from d100gui.engine.town.model import STEP_TITLES, TOWN_STEPS, TownState, step_index

__all__ = [
    "Flow",
    "FlowAction",
    "RowWanted",
    "Status",
    "Waiting",
    "fight_for_roll",
    "flow",
    "row_for_roll",
    "row_wanted",
    "sample_answer",
    "sample_for_roll",
    "status_of",
]


@dataclass(frozen=True)
class FlowAction:
    """One control the player may click: what it sends, whether it may now, and the tooltip."""

    key: str  # stable id, e.g. "search", "exp_d12_characteristic", "fight_offered"
    label: str  # button text
    command: Command  # what it sends (one click = one command = one undo step)
    enabled: bool
    why: str  # tooltip: what it does, or why it is not allowed now
    group: str  # "decision" | "turn" | "fight" | "quest" | "town" | "creation" | "map" | "menu"
    asks_row: bool = False  # the view must ask the player for a table row first (see :func:`row_wanted`)
    confirm: str = ""  # a drastic action's confirmation key (the view asks first, per the player's preference)


#: the actions a view asks about before sending (the key is also the confirmation's): failing a quest pays its fail costs
CONFIRM = frozenset({"fail_quest"})


@dataclass(frozen=True)
class Waiting:
    """Something the game waits for the player to answer, with the controls that answer it."""

    id: str  # the pending decision id, or a stable key ("fight", "offer", "row_12", ...)
    kind: str  # "experience", "test_roll", "called_test", "outcome_choice", "target_choice", "armour_clash",
    # "row_needed", "fight", "offered_monster", "row_waiting", "loot", "clocks", "curse", "town_step", "quest_choice"
    prompt: str
    answers: tuple[FlowAction, ...]  # never empty: at least one enabled answer


def _allowed(_kind: str) -> str:
    return ""


@dataclass(frozen=True)
class Status:
    """What matters always in view while playing (the status line above the map), worked out by the engine."""

    hero: str
    hp: int
    max_hp: int
    fate: int
    lives: int
    quest: str = ""  # "" outside a quest
    objective: str = ""  # the quest's objective as printed
    progress: str = ""  # "Parts 1 of 3", "objective area found"
    turn: int = 0
    clock: int = 0  # clocks shaded on the time track
    clocks: int = 0  # clocks on the track
    next_trigger: str = ""  # "food in 2" (the next printed symbol and how many clocks away)
    waits: str = ""  # the first thing the game waits for ("" when nothing)
    waits_short: str = ""  # the same in a few words ("a test's roll", "+1 more" when several wait): the status line's

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass(frozen=True)
class Flow:
    """Where the game is and what the player may do now (valid until the campaign changes)."""

    phase: str  # "no_hero" | "creation" | "ready" (no quest) | "quest" | "town" | "fallen"
    fighting: bool  # a fight is on (campaign.combat is not None)
    where: str  # one line for the player: "Turn 3, step 5 (Search or skip)", "Creation step 2 ..."
    quest: str = ""
    turn: int = 0
    step: str = ""  # the turn's step id ("equipment", "time", "exit", "area", "search"), "" outside a quest
    waiting: tuple[Waiting, ...] = ()
    actions: tuple[FlowAction, ...] = ()
    _why: Callable[[str], str] = field(default=_allowed, repr=False, compare=False)
    status: Status | None = None  # what matters always in view (the status line), with a hero

    def why_not(self, kind: str) -> str:
        """ "" when a command of ``kind`` is allowed now, else the reason (the engine's gate)."""
        return self._why(kind)

    def answers(self) -> tuple[FlowAction, ...]:
        """Every waiting thing's answers, in order."""
        return tuple(a for w in self.waiting for a in w.answers)

    def action(self, key: str) -> FlowAction | None:
        """The answer or action ``key`` (answers first), or None."""
        return next((a for a in (*self.answers(), *self.actions) if a.key == key), None)

    def as_dict(self) -> dict[str, Any]:
        """The flow as plain JSON-able dicts (commands as their dicts): what ``Session.flow()`` returns."""
        return {
            "phase": self.phase,
            "fighting": self.fighting,
            "where": self.where,
            "quest": self.quest,
            "turn": self.turn,
            "step": self.step,
            "waiting": [
                {"id": w.id, "kind": w.kind, "prompt": w.prompt, "answers": [_action_dict(a) for a in w.answers]}
                for w in self.waiting
            ],
            "actions": [_action_dict(a) for a in self.actions],
            "status": self.status.as_dict() if self.status is not None else None,
        }


def _action_dict(a: FlowAction) -> dict[str, Any]:
    return {
        "key": a.key,
        "label": a.label,
        "command": a.command.model_dump(mode="json"),
        "enabled": a.enabled,
        "why": a.why,
        "group": a.group,
        "asks_row": a.asks_row,
        "confirm": a.confirm,
    }


#: the label of every answer that re-rolls a missing row among the printed rows (sample play)
_RESAMPLE = "Re-roll among printed rows"

#: the placeholder row of an answer that asks for a row (the view replaces it with the typed one)
_NO_ROW = Row(fields={})


# --------------------------------------------------------------------------- the query


def flow(campaign: Campaign, rules: Rules, library: TableLibrary | None = None) -> Flow:
    """The flow of ``campaign`` now (``library``: to word door tests and read scroll spells)."""
    made = _flow(campaign, rules, library)
    return replace(made, status=status_of(campaign, rules, made))


#: what waits, in a few words (the status line's; the prompt itself and the answers are the strip's or the panel's)
_WAIT_SHORT = {
    "experience": "an experience choice",
    "test_roll": "a test's roll (accept it or use Fate)",
    "called_test": "a test to roll",
    "outcome_choice": "a choice of outcome",
    "target_choice": "a choice of target",
    "armour_clash": "an armour choice",
    "row_needed": "a table row",
    "fight": "the fight",
    "offered_monster": "a monster to fight",
    "row_waiting": "a table row",
    "loot": "a find for a full backpack",
    "clocks": "clocks to shade",
    "curse": "a curse's row",
    "town_step": "the town",
    "quest_choice": "the quest choice",
}


def status_of(campaign: Campaign, rules: Rules, made: Flow) -> Status | None:
    """The status line's contents: the hero's HP, Fate and Lives; the quest, its objective and progress; the turn;
    the time track's clocks and its next printed symbol; what waits (None without a hero)."""
    ch = campaign.character
    if ch is None:
        return None
    layout = rules.sheet.time_track
    shaded = ch.time_track.shaded
    waits = made.waiting[0].prompt if made.waiting else ""
    short = _WAIT_SHORT.get(made.waiting[0].kind, "your answer") if made.waiting else ""
    if len(made.waiting) > 1:
        short += f" (+{len(made.waiting) - 1} more)"
    base = Status(ch.name or "The hero", ch.hp, derive(ch, rules).max_hp, ch.fate, ch.lives, waits=waits, waits_short=short)
    state = campaign.adventure if isinstance(campaign.adventure, AdventureState) else None
    if state is None or state.quest is None:
        return base
    quest = state.quest.quest
    turn = turn_of(campaign)
    return replace(
        base,
        quest=quest.name,
        objective=quest.objective,
        progress=objective_progress(ch, state.quest),
        turn=turn.number if turn is not None else 0,
        clock=shaded,
        clocks=layout.clocks,
        next_trigger=_next_trigger(layout, shaded),
    )


def objective_progress(ch: Character, quest: QuestState) -> str:
    """How far the objective is: "Parts 1 of 3" per kind it names (looted this quest, plus the objectives a blue
    area or a find counted, as completing it counts them), or whether an objective area was found."""
    needs = objective_needs(quest.quest.objective)
    spare = ch.objectives
    if not needs:
        return "objective reached" if spare >= 1 else "objective not reached yet"
    held = objective_items(ch)
    parts = []
    for kind, need in needs.items():
        got = max(0, held.get(kind, 0) - quest.carried.get(kind, 0))
        used = min(max(0, need - got), spare)
        spare -= used
        parts.append(f"{kind.capitalize()} {got + used} of {need}")
    return ", ".join(parts)


def _next_trigger(layout: TimeTrackLayout, shaded: int) -> str:
    """The next clock with a printed symbol after ``shaded`` ("food in 2", "oil, wandering in 5"); "" if none."""
    for ahead in range(1, layout.clocks + 1):
        clock = (shaded + ahead - 1) % layout.clocks + 1
        symbols = layout.triggers_at(clock)
        if symbols:
            kinds = ", ".join(dict.fromkeys(t.kind for t in symbols))
            return f"{kinds} in {ahead}"
    return ""


def _flow(campaign: Campaign, rules: Rules, library: TableLibrary | None = None) -> Flow:
    def why(kind: str) -> str:
        return gate.refusal_for_kind(campaign, kind, rules)

    ch = campaign.character
    fallen = read_only_reason(campaign)
    if fallen or (ch is not None and ch.dead):
        return Flow(phase="fallen", fighting=False, where=fallen or f"{ch.name if ch else 'The hero'} has fallen.", _why=why)
    if ch is None:
        create = FlowAction("create_character", "New hero", CreateCharacter(), True, "Start a new character sheet.", "creation")
        begin = FlowAction("begin_quest", "Begin a quest", BeginQuest(), False, "Create a hero first.", "quest")
        return _checked(campaign, rules, Flow("no_hero", False, "No hero yet: create one.", actions=(create, begin), _why=why))
    fighting = campaign.combat is not None
    waiting = [*_fight_waiting(campaign, rules, ch), *_decisions_waiting(campaign, rules, ch)]
    if ch.creation is not None:
        where = _creation_where(ch, rules)
        begin = FlowAction("begin_quest", "Begin a quest", BeginQuest(), False, "Finish creating the hero first.", "quest")
        made = Flow(
            "creation", fighting, where, waiting=tuple(waiting), actions=(*creation_actions(campaign, rules), begin), _why=why
        )
        return _checked(campaign, rules, made)
    adventure = campaign.adventure if isinstance(campaign.adventure, AdventureState) else None
    town = campaign.town if isinstance(campaign.town, TownState) else None
    waiting += _adventure_waiting(campaign, adventure, library)
    if town is not None:
        waiting += _town_waiting(campaign, town)
    turn = turn_of(campaign)
    if adventure is not None and adventure.quest is not None and turn is not None:
        panel = turn_panel(campaign, rules, library)
        step = current_step(campaign)
        actions = [_from_turn(a) for a in panel.actions if not _answered(a.key) and a.step in (None, step)]
        if not waiting and campaign.combat is None and library is not None:
            actions += _secret_passages(campaign, rules, library)
        actions += _enter(campaign)
        actions.append(_leave(campaign))
        number = [s for s, _ in TURN_STEPS].index(step) + 1
        where = f"{panel.quest}: turn {turn.number}, step {number} ({dict(TURN_STEPS)[step]})"
        made = Flow("quest", fighting, where, panel.quest, turn.number, step, tuple(waiting), tuple(actions), why)
        return _checked(campaign, rules, made)
    if town is not None and town.active:
        where = f"Before your next quest: step {step_index(town.step) + 1} ({STEP_TITLES[town.step]})"
        return _checked(campaign, rules, Flow("town", fighting, where, waiting=tuple(waiting), _why=why))
    actions = [] if adventure is not None and adventure.choice is not None else _between_quests(campaign, rules)
    where = "Between quests" + (f": the fight with {campaign.combat.monster.name} is on" if campaign.combat else "")
    return _checked(campaign, rules, Flow("ready", fighting, where, waiting=tuple(waiting), actions=tuple(actions), _why=why))


def _checked(campaign: Campaign, rules: Rules, made: Flow) -> Flow:
    """Grey every action the engine's gate would refuse now, with the gate's reason."""

    def check(a: FlowAction) -> FlowAction:
        if not a.enabled:
            return a
        reason = gate.refusal(campaign, a.command, rules)
        return replace(a, enabled=False, why=reason) if reason else a

    waiting = tuple(replace(w, answers=tuple(check(a) for a in w.answers)) for w in made.waiting)
    return replace(made, waiting=waiting, actions=tuple(check(a) for a in made.actions))


def _act(
    key: str, label: str, command: Command, why: str, group: str = "decision", enabled: bool = True, asks_row: bool = False
) -> FlowAction:
    return FlowAction(key, label, command, enabled, why, group, asks_row)


# --------------------------------------------------------------------------- the fight


def _fight_waiting(campaign: Campaign, rules: Rules, ch: Character) -> list[Waiting]:
    c = campaign.combat
    if c is None or not c.waiting:
        return []
    answers = _fight_answers(campaign, rules, ch, c)
    prompt = f"The fight with {c.monster.name} waits for {WAIT_TEXT.get(c.waiting, c.waiting)}."
    return [Waiting("fight", "fight", prompt, tuple(answers))]


def _fight_answers(campaign: Campaign, rules: Rules, ch: Character, c: CombatState) -> list[FlowAction]:
    wait = c.waiting
    if wait in ("roll", "test"):
        return _fight_roll(campaign, rules, ch, c)
    if wait == "action":
        return _fight_actions(campaign, rules, ch, c)
    if wait == "aim":
        return [
            _act("aim_keep", "Keep the hit location", CombatPerfectAim(choice="keep"), "Perfect Aim: keep it.", "fight"),
            _act("aim_reroll", "Re-roll the location once", CombatPerfectAim(choice="reroll"), "Then pick either.", "fight"),
        ]
    if wait == "aim_pick":
        return [
            _act("aim_first", "First location", CombatPerfectAim(choice="first"), "Perfect Aim: the first roll.", "fight"),
            _act("aim_second", "Second location", CombatPerfectAim(choice="second"), "Perfect Aim: the second roll.", "fight"),
        ]
    if wait == "offset" and c.monster_hit is not None:
        hit = c.monster_hit
        item = min(hit.item_max, hit.damage)
        most = CombatOffset(item=item, shield=max(0, min(hit.shield_max, hit.damage - item)))
        return [
            _act("offset_most", "Offset onto your items", most, "Shade the repair pips; the rest is HP.", "fight"),
            _act("offset_none", "Take it all as HP", CombatOffset(), "Offset nothing.", "fight"),
        ]
    if wait == "loot" and c.monster.loot is not None:
        return [
            _act(f"loot_{i}", f"Roll {o.text}", CombatChooseLoot(option=i), "Roll the loot on this table.", "fight")
            for i, o in enumerate(c.monster.loot.options)
        ]
    if wait == "row" and c.row_wait is not None:
        answers = [
            _act("fight_row", "Type the row...", CombatProvideRow(row=_NO_ROW), c.row_wait.describe(), "fight", asks_row=True),
            _act("fight_row_sample", _RESAMPLE, CombatProvideRow(sample=True), "Sample play.", "fight"),
        ]
        if c.row_use == "loot":
            answers.append(_act("fight_row_skip", "Go without the loot", CombatProvideRow(), "No loot.", "fight"))
        return answers
    return [_act("fight_continue", "Continue", CombatContinue(), "Carry on with the fight.", "fight")]


def _fight_roll(campaign: Campaign, rules: Rules, ch: Character, c: CombatState) -> list[FlowAction]:
    record = c.held.record if c.waiting == "roll" and c.held is not None else None
    if c.waiting == "test" and c.test is not None:
        test = next((d for d in campaign.pending if d.id == c.test.decision and isinstance(d, PendingTest)), None)
        record = test.roll if test is not None else None
    answers = [_act("fight_continue", "Accept the roll", CombatContinue(), "Accept it and carry on.", "fight")]
    if record is not None:
        fate = ch.fate >= rules.fate_cost
        no_fate = "No Fate left to spend."
        every = list(range(len(record.dice)))
        answers.append(
            _act(
                "fight_fate",
                "Fate: re-roll it",
                CombatFate(dice=every),
                f"Spend {rules.fate_cost} Fate to re-roll every die." if fate else no_fate,
                "fight",
                enabled=fate,
            )
        )
        if len(every) > 1:
            for i in every:
                why = f"Spend {rules.fate_cost} Fate to re-roll die {i + 1}." if fate else no_fate
                answers.append(_act(f"fight_fate_{i}", f"Fate: re-roll die {i + 1}", CombatFate(dice=[i]), why, "fight", fate))
    return answers


def _fight_actions(campaign: Campaign, rules: Rules, ch: Character, c: CombatState) -> list[FlowAction]:
    why = available_actions(campaign, rules)
    answers: list[FlowAction] = []
    for name in ACTIONS:
        reason = why.get(name, "")
        for key, label, command in _action_commands(name, campaign, rules, ch, reason):
            answers.append(_act(key, label, command, reason or label, "fight", enabled=not reason))
    return answers


def _action_commands(name: str, campaign: Campaign, rules: Rules, ch: Character, reason: str) -> list[tuple[str, str, Command]]:
    """The commands of one step-2 action (one per weapon stat, spell, belt item or weapon to change to)."""
    words = action_words([name], ch)
    if name in ("attack_main", "attack_off", "block_escape"):
        slot = "off_weapon" if name == "attack_off" else "main_weapon"
        if name == "block_escape" and weapon_in(ch, slot) is None:
            slot = "off_weapon"  # blocking strikes with the weapon in hand
        weapon = weapon_in(ch, slot)
        stats = weapon_stats(weapon) if weapon is not None and not reason else [""]
        make = CombatBlockEscape if name == "block_escape" else CombatAttack
        if len(stats) > 1:
            return [(f"{name}_{s.lower()}", f"{words} ({s})", make(slot=slot, stat=s)) for s in stats]  # type: ignore[arg-type]
        return [(name, words, make(slot=slot))]  # type: ignore[arg-type]
    if name == "cast_spell":
        usable = derive(ch, rules).usable_spells if not reason else []
        spells = [(i, e.name) for i, e in enumerate(ch.spell_book) if e is not None and i < len(usable) and usable[i]]
        if spells:
            return [(f"cast_{i}", f"Cast {n}", CombatCastSpell(index=i)) for i, n in spells]
        return [(name, words, CombatCastSpell())]
    if name == "use_belt":
        held = [(i, item.name) for i, item in enumerate(ch.belt) if item is not None] if not reason else []
        if held:
            return [(f"belt_{i}", f"Use {n}", CombatUseBelt(belt_slot=i)) for i, n in held]
        return [(name, words, CombatUseBelt(belt_slot=0))]
    if name == "change_weapon":
        if reason:
            return [(name, words, CombatChangeWeapon())]
        options: list[tuple[str, str, Command]] = []
        if any(ch.equipment.get(s) is not None for s in WEAPON_SLOTS):
            options.append(("change_swap", "Swap hands", CombatChangeWeapon(swap=True)))
        for i, item in enumerate(ch.backpack):
            if item.kind in ("weapon", "shield"):
                slot = "off_weapon" if item.kind == "shield" else "main_weapon"
                options.append((f"change_{i}", f"Take {item.name}", CombatChangeWeapon(backpack_index=i, slot=slot)))  # type: ignore[arg-type]
        return options or [(name, words, CombatChangeWeapon())]
    if name == "escape":
        return [(name, words, CombatEscape())]
    return [(name, words, CombatPass())]


# --------------------------------------------------------------------------- pending decisions


def _decisions_waiting(campaign: Campaign, rules: Rules, ch: Character) -> list[Waiting]:
    fight_test = fight_test_id(campaign)
    out: list[Waiting] = []
    for d in campaign.pending:
        if isinstance(d, PendingTest):
            if d.id == fight_test:
                continue  # the fight's own test: answered in the fight's waiting
            out.append(Waiting(d.id, "test_roll", _test_prompt(d), tuple(_test_answers(d, ch, rules))))
        elif isinstance(d, ExperienceChoice):
            out.append(Waiting(d.id, "experience", d.prompt or f"{d.test_name}: experience.", tuple(_experience(d, rules))))
        elif isinstance(d, CalledTest):
            name = d.spec.name or "the test"
            answers = [_act(f"roll_{d.id}", f"Roll {name}", RollTest(called=d.id), f"{d.spec.describe()}: roll it.")]
            if d.optional:
                answers.append(_act(f"dismiss_{d.id}", "Don't attempt it", DismissDecision(decision=d.id), "Let it go."))
            out.append(Waiting(d.id, "called_test", d.prompt or f"{d.spec.describe()}: roll it.", tuple(answers)))
        elif isinstance(d, OutcomeChoice):
            answers = [
                _act(f"choose_{d.id}_{i}", o.describe(), ChooseOutcome(decision=d.id, option=i), f"Choose: {o.describe()}.")
                for i, o in enumerate(d.outcome.options)
            ]
            out.append(Waiting(d.id, "outcome_choice", d.prompt or "Choose one.", tuple(answers)))
        elif isinstance(d, TargetChoice):
            answers = [
                _act(f"target_{d.id}_{n}", t, ChooseTarget(decision=d.id, target=t), f"Apply it to {t}.")
                for n, t in enumerate(d.choices)
            ]
            out.append(Waiting(d.id, "target_choice", d.prompt or "Choose which.", tuple(answers)))
        elif isinstance(d, ArmourClash):
            keep = ResolveArmourClash(decision=d.id, choice="keep_new")
            answers = [
                _act(f"keep_{d.id}", f"Keep {d.new_item.name}", keep, f"{d.old_item.name} is discarded.", "creation"),
                _act(f"reroll_{d.id}", "Roll again", ResolveArmourClash(decision=d.id, choice="reroll"), "", "creation"),
            ]
            out.append(Waiting(d.id, "armour_clash", d.prompt or "Keep the new piece or roll again.", tuple(answers)))
        elif isinstance(d, RowNeeded):
            row = ProvideStartingRow(decision=d.id, row=_NO_ROW)
            why = f"{d.table_roll.describe()}: type the row from your rulebook."
            resample = ProvideStartingRow(decision=d.id, sample=True)
            answers = [
                _act(f"row_{d.id}", "Type the row...", row, why, "creation", asks_row=True),
                _act(f"sample_{d.id}", _RESAMPLE, resample, "Sample play, this time only: nothing is saved.", "creation"),
            ]
            out.append(Waiting(d.id, "row_needed", d.prompt or why, tuple(answers)))
    return out


def _test_prompt(d: PendingTest) -> str:
    verdict = "success" if d.success else "failure"
    return f"{d.spec.name or d.spec.describe()}: rolled {d.roll.natural} against {d.target}, a {verdict}."


def _test_answers(d: PendingTest, ch: Character, rules: Rules) -> list[FlowAction]:
    fate = ch.fate >= rules.fate_cost
    answers = [_act(f"accept_{d.id}", "Accept the roll", AcceptTest(decision=d.id), "Settle the test with this roll.")]
    why = f"Spend {rules.fate_cost} Fate to re-roll the dice." if fate else "No Fate left to spend."
    every = list(range(len(d.roll.dice)))
    label = "Fate: re-roll all" if len(every) > 1 else "Fate: re-roll it"
    answers.append(_act(f"fate_{d.id}", label, UseFate(decision=d.id, dice=every), why, enabled=fate))
    if len(every) > 1:  # Fate re-rolls "any dice of a roll": each die alone too (the tens of an 85 against 30)
        for i, face in enumerate(d.roll.dice):
            name = face.role if face.role in ("tens", "units") else f"die {i + 1}"
            why_one = f"Spend {rules.fate_cost} Fate to re-roll the {name} die only." if fate else "No Fate left to spend."
            command = UseFate(decision=d.id, dice=[i])
            answers.append(_act(f"fate_{d.id}_{i}", f"Fate: {name} only", command, why_one, enabled=fate))
    return answers


def _experience(d: ExperienceChoice, rules: Rules) -> list[FlowAction]:
    """One answer per legal spread: the characteristic's pip, or the skill pips over the listed skills."""
    pips = rules.experience
    one = "pip" if pips.characteristic_pips == 1 else "pips"
    answers = [
        _act(
            f"exp_{d.id}_characteristic",
            f"{pips.characteristic_pips} {one} on {d.characteristic}",
            AssignExperience(decision=d.id, choice="characteristic"),
            f"Shade the {d.characteristic} experience track.",
        )
    ]
    if d.skills and pips.skill_pips > 0:
        for spread in combinations_with_replacement(d.skills, pips.skill_pips):
            names = list(spread)
            label = " + ".join(names) if len(set(names)) > 1 else f"{len(names)} on {names[0]}"
            command = AssignExperience(decision=d.id, choice="skills", skills=names)
            key = f"exp_{d.id}_skills_{'_'.join(n.lower().replace(' ', '') for n in names)}"
            answers.append(_act(key, f"Skill pips: {label}", command, f"Shade {', '.join(names)}."))
    if d.optional:
        answers.append(_act(f"exp_{d.id}_decline", "Don't take it", DismissDecision(decision=d.id), "No pip is shaded."))
    return answers


# --------------------------------------------------------------------------- the adventure


#: the turn strip's actions the flow answers as waiting things (not repeated among the step's actions)
_WAITING_PREFIXES = ("roll_", "accept_", "row_", "skip_row_", "keep_loot_")
_WAITING_KEYS = frozenset({"fight", "resume_time", "leave_loot"})


def _answered(key: str) -> bool:
    """Whether the strip model's action ``key`` answers a waiting thing (the flow lists it there instead)."""
    return key in _WAITING_KEYS or key.startswith(_WAITING_PREFIXES)


def _from_turn(a: TurnAction) -> FlowAction:
    group = "quest" if a.step is None and not a.key.startswith("door_") else "turn"  # a door is tried at step 3
    return FlowAction(a.key, a.label, a.command, a.enabled, a.why, group, a.asks_row, a.key if a.key in CONFIRM else "")


def _adventure_waiting(campaign: Campaign, state: AdventureState | None, library: TableLibrary | None) -> list[Waiting]:
    if state is None:
        return []
    out: list[Waiting] = []
    offer = offer_waiting(campaign)
    if offer is not None and campaign.combat is None:
        out.append(_offer_waiting(offer, library))
    history = campaign.dice_history
    for held_row in state.rows_waiting:
        if held_row.entry is None:  # a curse's roll: the town's agenda asks for it
            continue
        held = history[held_row.entry].table if held_row.entry < len(history) else None
        if held is None:
            continue
        typed = held.row is not None
        label = f"Apply {held.table_title} {held.value}" if typed else f"Type {held.table_title} row {held.value}"
        why = "The row is typed: apply it." if typed else f"{held.describe()}: type the row from your rulebook, then it applies."
        sample = ApplyTypedRow(entry=held_row.entry, sample=True)
        resample = "Sample play, this time only: re-rolled until it lands on a printed row, which then applies."
        answers = (
            _act(f"row_{held_row.entry}", label, ApplyTypedRow(entry=held_row.entry), why, "turn", asks_row=not typed),
            *([] if typed else [_act(f"sample_row_{held_row.entry}", _RESAMPLE, sample, resample, "turn")]),
            _act(
                f"skip_row_{held_row.entry}", "Go without it", SkipTypedRow(entry=held_row.entry), "Nothing is applied.", "turn"
            ),
        )
        out.append(Waiting(f"row_{held_row.entry}", "row_waiting", f"{held.describe()}: the row waits.", answers))
    item = state.loot_waiting
    if item is not None and campaign.character is not None:
        loot = [
            _act(f"keep_loot_{n}", f"Drop {held_item.name}", KeepLoot(drop=n), f"Drop it to keep {item.name}.", "turn")
            for n, held_item in enumerate(campaign.character.backpack)
        ]
        loot.append(_act("leave_loot", f"Leave {item.name}", LeaveLoot(), "Leave the find behind.", "turn"))
        out.append(Waiting("loot", "loot", f"Your backpack is full: keep {item.name} (drop an item) or leave it.", tuple(loot)))
    if state.quest is not None and state.clocks_owed and campaign.combat is None and offer is None:
        resume = _act("resume_time", "Shade the clocks owed", ResumeTime(), f"{state.clocks_owed} clock(s) wait.", "turn")
        out.append(Waiting("clocks", "clocks", f"{state.clocks_owed} clock(s) still wait to be shaded.", (resume,)))
    if state.quest is None and state.choice is not None:
        choice = state.choice
        offers: list[FlowAction] = []
        if choice.training is not None:
            why = f"Dungeon Training {choice.training} is not in your tables: type its Table Q row from your rulebook."
            offers.append(
                _act("quest_row", "Type the training quest's row...", ProvideQuestRow(row=_NO_ROW), why, "quest", asks_row=True)
            )
        for n, r in enumerate(choice.rolls):
            if r.quest is None:
                why = f"{r.table_roll.describe()}: type this Table Q row from your rulebook."
                provide = ProvideQuestRow(row=_NO_ROW, index=n)
                offers.append(_act(f"quest_row_{n}", f"Type roll {n + 1}'s row...", provide, why, "quest", asks_row=True))
                continue
            offers.append(
                _act(f"choose_{n}", f"Take {r.quest.name}", ChooseQuest(index=n), r.quest.objective or r.quest.name, "quest")
            )
            if r.completed:
                why = f"{r.quest.name} is ticked on Table Q: you may roll again for another."
                offers.append(_act(f"reroll_quest_{n}", f"Roll again for {r.quest.name}", RerollQuest(index=n), why, "quest"))
        if offers:
            out.append(Waiting("quest_choice", "quest_choice", choice.prompt or "Choose your quest.", tuple(offers)))
    return out


def _offer_waiting(offer: FightOffer, library: TableLibrary | None) -> Waiting:
    roll = offer.table_roll
    typed = roll.row is not None or offer.monster is not None
    # a row typed since (in the dice panel) is read when the fight is sent; without the tables, let the engine say
    found = library is None or (roll.table_id in library and library.get(roll.table_id).find(roll.value) is not None)
    fight = _act(
        "fight",
        "Fight the monster",
        FaceOfferedMonster(),
        roll.describe() if typed or found else "Type its Table E row first.",
        "turn",
        enabled=typed or found,
    )
    prompt = f"A {offer.source} waits ({roll.describe()}): fight it."
    if typed or found:
        return Waiting("offer", "offered_monster", prompt, (fight,))
    add = AddTableRow(table_id=roll.table_id, row=_NO_ROW)
    type_row = _act("offer_row", f"Type {roll.table_title} row {roll.value}", add, roll.describe(), "turn", asks_row=True)
    return Waiting("offer", "offered_monster", f"{prompt} Type its row first.", (type_row, fight))


def _secret_passages(campaign: Campaign, rules: Rules, library: TableLibrary) -> list[FlowAction]:
    """A secret passage through each wall of the hero's area where one may go, offered only when no way on can be
    opened with what the hero has (a dead end, a shut way): the strip says it is possible and the keyboard reaches it."""
    dungeon = campaign.dungeons.current_dungeon
    if dungeon is None or dungeon.hero is None or not secret_passage_allowed(campaign, rules, library):
        return []
    check = openable(campaign, rules, library)
    out: list[FlowAction] = []
    for side in dg.DIRECTIONS:
        try:
            dg.secret_passage(dungeon, dungeon.hero, side, openable=check)
        except dg.DungeonError:
            continue  # an exit already, or off the sheet
        name = dg.DIRECTION_NAMES[side]
        why = f"No way on can be opened: add a secret passage through the {name} wall, then move through it."
        command = SecretPassage(pos=dg.pos_key(dungeon.hero), side=side)
        out.append(FlowAction(f"secret_{side}", f"Secret passage {side}", command, True, why, "turn"))
    return out


def _enter(campaign: Campaign) -> list[FlowAction]:
    """Step in at the entrance, while the hero is outside the dungeon during a quest (the map's entrance does it too)."""
    dungeon = campaign.dungeons.current_dungeon
    if dungeon is None or dungeon.hero is not None:
        return []
    why = "Step in at the entrance: the entrance area is mapped and resolved by its colour."
    return [FlowAction("enter_dungeon", "Step in at the entrance", EnterOnTurn(), True, why, "turn")]


def _leave(campaign: Campaign) -> FlowAction:
    dungeon = campaign.dungeons.current_dungeon
    here = dungeon is not None and dungeon.hero is not None and dungeon.hero == dungeon.entrance
    why = "Leave the dungeon by the entrance." if here else "Only from the entrance area (click its exit on the map)."
    return FlowAction("leave_dungeon", "Leave the dungeon", LeaveDungeon(), here, why, "map")


_TOWN_WHY = "Before your next quest: refresh tracks, heal, repair, sell, buy, train and invest."


def _between_quests(campaign: Campaign, rules: Rules) -> list[FlowAction]:
    begin = BeginQuest()
    reason = gate.refusal(campaign, begin, rules)
    actions = [FlowAction("begin_quest", "Begin a quest", begin, not reason, reason or "The next quest.", "quest")]
    town = campaign.town if isinstance(campaign.town, TownState) else None
    ch = campaign.character
    if town is not None and ch is not None and town.after_quest != ch.quest_log.attempted and ch.quest_log.attempted:
        actions.append(FlowAction("begin_town", "Begin the between-quests phase", BeginTown(), True, _TOWN_WHY, "town"))
    return actions


# --------------------------------------------------------------------------- the town, creation


def _town_waiting(campaign: Campaign, town: TownState) -> list[Waiting]:
    out: list[Waiting] = []
    adventure = campaign.adventure if isinstance(campaign.adventure, AdventureState) else None
    curse = curse_waiting(adventure.rows_waiting) if adventure is not None else None
    if curse is not None:
        answers = (
            _act(
                "curse_row",
                f"Type {curse.table_title} row {curse.value}",
                ProvideCurseRow(row=_NO_ROW),
                curse.describe(),
                asks_row=True,
            ),
            _act("curse_sample", _RESAMPLE, ProvideCurseRow(sample=True), "Sample play, this time only."),
        )
        out.append(Waiting("curse", "curse", f"{curse.describe()}: the curse waits for its row.", answers))
    if not town.active:
        return out
    answers_list: list[FlowAction] = []
    for i, rolled in enumerate(town.market_rolls):
        if rolled.row is None:
            command = ProvideMarketRow(index=i, row=_NO_ROW)
            answers_list.append(
                _act(
                    f"market_row_{i}",
                    f"Type {rolled.table_title} row {rolled.value}",
                    command,
                    rolled.describe(),
                    "town",
                    asks_row=True,
                )
            )
    roll = town.investment_roll
    if town.step == "investments" and roll is not None and roll.row is None:
        provide = ProvideInvestmentRow(row=_NO_ROW)
        answers_list.append(
            _act("investment_row", f"Type {roll.table_title} row {roll.value}", provide, roll.describe(), "town", asks_row=True)
        )
    due = not town.investments_applied
    if town.step == "investments" and due and roll is None:
        answers_list.append(_act("roll_investments", "Roll Table J", RollInvestments(), "Rolled after every quest.", "town"))
    here = step_index(town.step)
    if here + 1 < len(TOWN_STEPS) - 1:
        nxt = TOWN_STEPS[here + 1]
        blocked = nxt == "done" or (step_index(nxt) > step_index("investments") and due)
        answers_list.append(
            _act("town_next", f"Next: {STEP_TITLES[nxt]}", TownNext(), f"Move on to {STEP_TITLES[nxt]}.", "town", not blocked)
        )
    if town.step == "investments":
        why = "Roll Table J for your investments first." if due else "Ready for the next quest."
        answers_list.append(_act("finish_town", "Ready for the next quest", FinishTown(), why, "town", enabled=not due))
    prompt = f"Before your next quest, step {here + 1}: {STEP_TITLES[town.step]}."
    if answers_list:
        out.append(Waiting("town", "town_step", prompt, tuple(answers_list)))
    return out


_CREATION_COMMANDS: dict[str, Callable[[], Command]] = {
    "reputation": SetStartingReputation,
    "weapon": RollStartingWeapon,
    "armour": RollStartingArmour,
    "supplies": TakeStartingSupplies,
    "potions": TakeStartingPotions,
    "finishing": SetStartingHealth,
}


def _creation_where(ch: Character, rules: Rules) -> str:
    step = next_step(ch)
    if step is None:
        return "Creation: every step is done - name the hero and finish."
    return f"Creation step {STEPS.index(step) + 1}: {step_labels(rules)[step]}"


def creation_actions(campaign: Campaign, rules: Rules) -> tuple[FlowAction, ...]:
    """The creation step that needs no input (a roll, a fixed value) as a one-click action; the wizard asks the rest."""
    ch = campaign.character
    if ch is None or ch.creation is None:
        return ()
    step = next_step(ch)
    if step is None:
        return (
            _act(
                "finish_character",
                "Finish the hero",
                FinishCharacter(),
                "Name the hero first." if not ch.name else "Done.",
                "creation",
                bool(ch.name),
            ),
        )
    make = _CREATION_COMMANDS.get(step)
    if make is None:
        return ()
    words = step_labels(rules)[step]
    return (_act(f"creation_{step}", words[:1].upper() + words[1:], make(), words, "creation"),)  # "Table W" kept


# --------------------------------------------------------------------------- helpers for views


@dataclass(frozen=True)
class RowWanted:
    """The table row an ``asks_row`` action wants typed: the table, the value rolled, the gap it fell in."""

    table_id: str
    value: int
    gap: tuple[int, int] | None = None


def row_wanted(campaign: Campaign, action: FlowAction, rules: Rules | None = None) -> RowWanted | None:
    """The row an ``asks_row`` action wants typed (the view opens its row dialog), or None.

    The view sends ``action.command`` with ``row`` replaced by the typed row.
    """
    if not action.asks_row:
        return None
    held = _held_roll(campaign, action.command)
    if held is not None:
        return RowWanted(held.table_id, held.value, held.missing)
    state = campaign.adventure if isinstance(campaign.adventure, AdventureState) else None
    choice = state.choice if state is not None else None
    if isinstance(action.command, ProvideQuestRow) and choice is not None and choice.gap is not None:
        table = adventure_rules(rules).quest_table if rules is not None else "d100.Q"
        return RowWanted(table, choice.gap[0], choice.gap)
    return None


def sample_answer(made: Flow, action: FlowAction) -> FlowAction | None:
    """The "re-roll among printed rows" answer beside the row-asking ``action`` (the same waiting thing's), or
    None: a row dialog offers it, and it settles what the row was asked for."""
    for w in made.waiting:
        if action in w.answers:
            return next((a for a in w.answers if a is not action and getattr(a.command, "sample", False) is True), None)
    return None


#: the toolbox command that answers a tool's missing row and runs the tool on (engine/toolbox/runs.py)
CONTINUE_TOOL_RUN = "toolbox_continue_run"


def sample_for_roll(campaign: Campaign, index: int) -> Command:
    """What "re-roll among printed rows" sends for dice-history roll ``index``: when an effect waits on that roll
    (a search's Table F, a Table G feature) or a toolbox tool's run does, the re-roll applies and settles it (the
    tool's run goes on); else a re-roll of the roll alone."""
    if campaign.toolbox.run_waiting_on(index) is not None:
        return _continue_tool_run(entry=index, sample=True)
    state = campaign.adventure if isinstance(campaign.adventure, AdventureState) else None
    if state is not None and any(w.entry == index for w in state.rows_waiting):
        return ApplyTypedRow(entry=index, sample=True)
    return SampleRow(entry=index)


def row_for_roll(campaign: Campaign, index: int, row: Row) -> Command:
    """What typing ``row`` sends for dice-history roll ``index``: when a toolbox tool's run waits on that roll, the
    row is saved and the tool's run goes on in the same command (one undo); else the row is saved alone."""
    if campaign.toolbox.run_waiting_on(index) is not None:
        return _continue_tool_run(entry=index, row=row)
    return ProvideRow(entry=index, row=row)


def _continue_tool_run(**fields: Any) -> Command:
    """The toolbox's ``toolbox_continue_run`` (its module imported when first asked for: a start imports no tool)."""
    return EVERY_COMMAND[CONTINUE_TOOL_RUN].model_validate({"kind": CONTINUE_TOOL_RUN, **fields})


def _held_roll(campaign: Campaign, command: Command) -> TableRoll | None:
    """The table roll an asks-row command is for."""
    if isinstance(command, ApplyTypedRow):
        history = campaign.dice_history
        return history[command.entry].table if command.entry < len(history) else None
    if isinstance(command, ProvideStartingRow):
        needed = next((d for d in campaign.pending if d.id == command.decision and isinstance(d, RowNeeded)), None)
        return needed.table_roll if needed is not None else None
    if isinstance(command, AddTableRow):
        offer = offer_waiting(campaign)
        return offer.table_roll if offer is not None else None
    if isinstance(command, CombatProvideRow):
        return campaign.combat.row_wait if campaign.combat is not None else None
    state = campaign.adventure if isinstance(campaign.adventure, AdventureState) else None
    if isinstance(command, ProvideQuestRow) and state is not None and state.choice is not None:
        rolls = state.choice.rolls
        return rolls[command.index].table_roll if command.index is not None and command.index < len(rolls) else None
    if isinstance(command, ProvideCurseRow):
        return curse_waiting(state.rows_waiting) if state is not None else None
    town = campaign.town if isinstance(campaign.town, TownState) else None
    if town is None:
        return None
    if isinstance(command, ProvideInvestmentRow):
        return town.investment_roll
    if isinstance(command, ProvideMarketRow):
        return town.market_rolls[command.index] if command.index < len(town.market_rolls) else None
    return None


def fight_for_roll(made: Flow, entry: HistoryEntry) -> FlowAction | None:
    """What "Fight this monster" on a dice-history line sends: the monster the turn offers when one waits
    (the same fight the turn counts), else the line's own fight, greyed with the gate's reason; None when
    the line offers no fight."""
    command = fight_from_roll(entry)
    if command is None:
        return None
    offered = next((w for w in made.waiting if w.kind == "offered_monster"), None)
    if offered is not None:
        fight = next(a for a in offered.answers if a.key == "fight")
        return replace(fight, label="Fight this monster", why=f"The monster the turn waits on: {fight.why}")
    reason = made.why_not(StartCombat.model_fields["kind"].default)
    why = reason or "Start the fight in the combat panel with this encounter."
    return FlowAction("fight_roll", "Fight this monster", command, not reason, why, "fight")
