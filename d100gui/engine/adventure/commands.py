"""The adventure's commands: a few lines each over :mod:`.time`, :mod:`.health` and :mod:`.quests`.

Time: ``advance_time`` (Turns step 2, or any ``+N``), ``resume_time`` (the clocks a wandering
monster interrupted), ``light_lantern``, ``provide_encounter_row`` (a wandering monster's
missing Table E row). Quests: ``begin_quest``, ``choose_quest``,
``reroll_quest``, ``provide_quest_row``, ``complete_quest``, ``fail_quest``.

The state they keep between commands is :class:`~.model.AdventureState` in
``Campaign.adventure`` (:func:`adventure_of`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field

from d100gui.engine.adventure import quests as q
from d100gui.engine.adventure.corrections import CORRECTION_COMMANDS
from d100gui.engine.adventure.doors import DOOR_COMMANDS
from d100gui.engine.adventure.row_commands import ROW_COMMANDS
from d100gui.engine.adventure.turn import TURN_COMMANDS
from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.events import RowProvided
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Row, TableError
from d100gui.engine.dice.waiting import past_quest
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import new_sheet
from d100gui.engine.dungeon.events import MapChanged
from d100gui.engine.effects.interpreter import apply_effect, apply_outcome
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.phases import BETWEEN_QUESTS, IN_DUNGEON, OFFER_ROW, QUEST_ONLY, Phases
from d100gui.engine.protocol import Decision, Event, told
from d100gui.engine.quest import events as ev
from d100gui.engine.quest.access import adventure_of, outside_fight, pass_clocks
from d100gui.engine.quest.model import AdventureState, Quest, QuestChoice, QuestRoll, TurnState, adventure_rules
from d100gui.engine.quest.time import light_lantern
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Option, parse_effects

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

# adventure_of, _outside_fight and _pass moved to access.py (shared with the turn); kept importable here
_outside_fight = outside_fight
_pass = pass_clocks


# --------------------------------------------------------------------------- time


@register_command
class AdvanceTime(Command):
    """Shade ``clocks`` clocks on the time track and fire each clock's triggers in order (oil, food,
    wandering monster, the refresh with its poison and disease checks)."""

    kind: Literal["advance_time"] = "advance_time"
    when: ClassVar[Phases] = IN_DUNGEON
    clocks: int = Field(default=1, ge=0)

    def apply(self, ctx: GameContext) -> list[Event]:
        track = ctx.rules.sheet.time_track.clocks  # the campaign's own sheet layout
        if self.clocks > track:
            refuse(f"At most {track} clocks at a time (one whole time track); {self.clocks} were asked.")
        return _pass(ctx, self.clocks)


@register_command
class ResumeTime(Command):
    """Shade the clocks a wandering monster interrupted, once its fight is over."""

    kind: Literal["resume_time"] = "resume_time"
    when: ClassVar[Phases] = IN_DUNGEON

    def apply(self, ctx: GameContext) -> list[Event]:
        if adventure_of(ctx.campaign).clocks_owed <= 0:
            refuse("No clocks are waiting to be shaded.")
        return _pass(ctx, 0)


@register_command
class LightLantern(Command):
    """In darkness, spend a flask of oil now (it ends the darkness before the next oil symbol)."""

    kind: Literal["light_lantern"] = "light_lantern"
    when: ClassVar[Phases] = IN_DUNGEON

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = living_character(ctx.campaign)
        lit = light_lantern(ch, adventure_rules(ctx.rules))
        if lit is None:
            refuse("The lantern is lit." if not ch.in_darkness else "You have no oil to spend.")
        return [told(lit)]


@register_command
class ProvideEncounterRow(Command):
    """The player typed the Table E row a wandering monster's roll fell on: the offered fight now has its monster."""

    kind: Literal["provide_encounter_row"] = "provide_encounter_row"
    when: ClassVar[Phases] = OFFER_ROW
    row: Row

    def apply(self, ctx: GameContext) -> list[Event]:
        offer = adventure_of(ctx.campaign).fight_offered
        if offer is None or offer.table_roll.row is not None:
            refuse("No wandering monster is waiting for its Table E row.")
        try:
            resolved = ctx.tables.resolve_missing(offer.table_roll, self.row)
        except ValueError as exc:
            refuse(str(exc))
        offer.table_roll = resolved
        provided = Event.of(RowProvided(table_id=resolved.table_id, row=self.row), f"Row added: {resolved.describe()}")
        return [provided, told(ev.FightOffered(table_roll=resolved, clock=offer.clock, source=offer.source))]


# --------------------------------------------------------------------------- choosing a quest


def _new_id(campaign: Campaign) -> str:
    campaign.decision_serial += 1
    return f"d{campaign.decision_serial}"


def _start(ctx: GameContext, state: AdventureState, quest: Quest, sample: bool = False) -> list[Event]:
    ch = living_character(ctx.campaign)
    state.quest = q.begin(ch, quest, sample)
    state.choice = None
    state.turn = TurnState()
    payload = ev.QuestBegun(
        name=quest.name,
        objective=quest.objective,
        encounter_modifier=quest.encounter_modifier,
        attempted=ch.quest_log.attempted,
        training=quest.training,
        sample=sample,
    )
    objective = f" Objective: {quest.objective}" if quest.objective else ""
    message = (
        f"Quest: {quest.name} (encounter modifier {quest.encounter_modifier:+d}; attempt {ch.quest_log.attempted}).{objective}"
    )
    sheet = new_sheet(ctx, name=quest.name, quest=quest.name)  # a fresh mapping sheet for the quest
    return [Event.of(payload, message), *sheet]


def _offered(choice: QuestChoice) -> list[Event]:
    rolls = choice.rolls
    payload = ev.QuestOffered(
        decision=choice.id,
        quests=[r.quest.name if r.quest else "" for r in rolls],
        completed=[r.completed for r in rolls],
        missing=[list(r.table_roll.missing) if r.table_roll.missing else [] for r in rolls],
        training=choice.training,
        sample=choice.sample,
    )
    gap = list(choice.gap) if choice.gap else []
    decision = Decision(decision=choice.id, options=payload.quests, missing=gap)
    rolled = "; ".join(r.table_roll.describe() for r in rolls) or choice.prompt
    return [Event.of(payload, rolled), Event.of(decision, choice.prompt)]


def _choice_prompt(rolls: list[QuestRoll]) -> str:
    ticked = " (a completed quest may be rolled again)" if any(r.completed for r in rolls) else ""
    missing = " Type the rows your tables lack." if any(r.quest is None for r in rolls) else ""
    return f"Choose your quest from the {len(rolls)} rolled on Table Q{ticked}.{missing}"


def between_quests_due(campaign: Campaign) -> str:
    """Why the next quest cannot begin yet ("" when it can): after a quest the rulebook's "Before Your Next Quest"
    comes first (refresh tracks, the healer, repairs, sales, required items, markets, training, then Table J
    for the investments): the between-quests phase, opened and finished once per quest."""
    ch = campaign.character
    if ch is None or campaign.adventure.quest is not None or campaign.adventure.choice is not None:
        return ""
    ended = campaign.adventure.ended  # a hero whose earlier quests were played elsewhere (typed in) owes no phase
    town = campaign.town
    if ended is None or (town.after_quest is not None and town.after_quest >= ended and not town.active):
        return ""
    if town.active:
        return "The between-quests phase is under way: finish it (Ready for the next quest) before the next quest."
    return (
        "Before your next quest: open the between-quests phase (refresh tracks, the healer, repairs, sales, "
        "required items, markets, training, Table J for your investments) and finish it first."
    )


@register_command
class BeginQuest(Command):
    """Choose the next quest: the next Dungeon Training quest, or Table Q rolled once per REP point."""

    kind: Literal["begin_quest"] = "begin_quest"
    when: ClassVar[Phases] = BETWEEN_QUESTS

    @classmethod
    def refuse_now(cls, campaign: Campaign, rules: Rules, command: Command | None) -> str:
        """After a quest, the next begins only once the between-quests phase is done ("Before Your Next Quest")."""
        return between_quests_due(campaign)

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign, arules = ctx.campaign, adventure_rules(ctx.rules)
        ch = living_character(campaign)
        state = adventure_of(campaign)
        _outside_fight(campaign, "begin a quest")
        if state.quest is not None:
            refuse(f"{state.quest.quest.name} is under way: complete or fail it first.")
        if state.choice is not None:
            refuse("Your quest choice is waiting: choose a quest first.")
        table = ctx.tables.library.get(arules.quest_table)
        training = q.next_training(ch, arules)
        sample = False
        if training is not None:
            row, gap = q.training_row(table, training)
            if row is not None:
                return _start(ctx, state, q.quest_from_row(table, row, training))
            if ctx.tables.policy is not MissingRowPolicy.REROLL:
                lo, hi = gap or table.die_range()
                prompt = f"Dungeon Training {training} is not in your tables: type its row ({lo}-{hi}, starting at {lo})."
                state.choice = QuestChoice(id=_new_id(campaign), prompt=prompt, training=training, gap=(lo, hi))
                return _offered(state.choice)
            sample = True  # sample play: the tables lack the training quest, so Table Q is rolled
        rolls = q.roll_quests(ch, arules, ctx.tables, state.completed)
        state.choice = QuestChoice(id=_new_id(campaign), prompt=_choice_prompt(rolls), rolls=rolls, sample=sample)
        return _offered(state.choice)


def _choice(state: AdventureState) -> QuestChoice:
    if state.choice is None:
        refuse("No quest choice is waiting: begin a quest first.")
    return state.choice


def _rolled(choice: QuestChoice, index: int) -> QuestRoll:
    if not 0 <= index < len(choice.rolls):
        refuse(f"There is no quest {index + 1} to choose: {len(choice.rolls)} were rolled.")
    return choice.rolls[index]


@register_command
class ChooseQuest(Command):
    """Take quest ``index`` (0-based) of the Table Q rolls."""

    kind: Literal["choose_quest"] = "choose_quest"
    when: ClassVar[Phases] = BETWEEN_QUESTS
    index: int

    def apply(self, ctx: GameContext) -> list[Event]:
        state = adventure_of(ctx.campaign)
        choice = _choice(state)
        rolled = _rolled(choice, self.index)
        if rolled.quest is None:
            lo, hi = rolled.table_roll.missing or (rolled.table_roll.value, rolled.table_roll.value)
            refuse(f"Roll {self.index + 1} fell on row {lo}-{hi}, which your tables lack: type it first.")
        return _start(ctx, state, rolled.quest, choice.sample)


@register_command
class RerollQuest(Command):
    """Roll again for offered quest ``index`` (0-based): allowed for a quest already completed."""

    kind: Literal["reroll_quest"] = "reroll_quest"
    when: ClassVar[Phases] = BETWEEN_QUESTS
    index: int

    def apply(self, ctx: GameContext) -> list[Event]:
        state = adventure_of(ctx.campaign)
        choice = _choice(state)
        again = q.reroll(_rolled(choice, self.index), self.index, adventure_rules(ctx.rules), ctx.tables, state.completed)
        choice.rolls[self.index] = again
        choice.prompt = _choice_prompt(choice.rolls)
        payload = ev.QuestRerolled(index=self.index, table_roll=again.table_roll, quest=again.quest.name if again.quest else "")
        return [Event.of(payload, again.table_roll.describe()), *_offered(choice)]


@register_command
class ProvideQuestRow(Command):
    """The player typed a Table Q row their tables lack: a training quest's (``index`` None) or roll ``index``'s."""

    kind: Literal["provide_quest_row"] = "provide_quest_row"
    when: ClassVar[Phases] = BETWEEN_QUESTS
    row: Row
    index: int | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        state = adventure_of(ctx.campaign)
        choice = _choice(state)
        arules = adventure_rules(ctx.rules)
        provided = Event.of(
            RowProvided(table_id=arules.quest_table, row=self.row),
            f"Row added to Table Q: {' | '.join(self.row.fields.values())}",
        )
        if choice.training is not None and choice.gap is not None:
            lo, hi = choice.gap
            if self.row.range is None or self.row.range[0] != lo or self.row.range[1] > hi:
                refuse(f"Dungeon Training {choice.training}'s row must start at {lo} and end by {hi}.")
            try:
                table = ctx.tables.library.add_user_row(arules.quest_table, self.row)
            except (TableError, ValueError) as exc:
                refuse(str(exc))
            row, _ = q.training_row(table, choice.training)
            assert row is not None
            return [provided, *_start(ctx, state, q.quest_from_row(table, row, choice.training))]
        if self.index is None:
            refuse("Say which roll the row is for.")
        rolled = _rolled(choice, self.index)
        if rolled.quest is not None:
            refuse(f"Roll {self.index + 1} is not waiting for a row.")
        try:
            resolved = ctx.tables.resolve_missing(rolled.table_roll, self.row)
        except ValueError as exc:
            refuse(str(exc))
        table = ctx.tables.library.get(arules.quest_table)
        choice.rolls[self.index] = q.quest_roll(table, resolved, state.completed)
        choice.prompt = _choice_prompt(choice.rolls)
        return [provided, *_offered(choice)]


# --------------------------------------------------------------------------- ending a quest


def _current(state: AdventureState) -> Quest:
    if state.quest is None:
        refuse("No quest is under way.")
    return state.quest.quest


def _close(ctx: GameContext) -> list[Event]:
    """The quest's map sheet is closed: the hero is out, and it is never entered again."""
    dungeon = ctx.campaign.dungeons.current_dungeon
    if dungeon is None or dungeon.closed:
        return []
    ctx.campaign.dungeons = dg.replace_current(ctx.campaign.dungeons, dg.close(dungeon))
    return [Event.of(MapChanged(), f"{dungeon.name or 'The dungeon'} is closed: the quest is over.")]


@register_command
class CompleteQuest(Command):
    """The objective is met: pay the reward, log the success, tick the quest on Table Q and close the dungeon.

    Refused, naming what is missing, while the objective is not met (:func:`~.quests.objective_missing`).

    ``reward`` is the printed reward, typed by the player where the excerpt cut it off.
    """

    kind: Literal["complete_quest"] = "complete_quest"
    when: ClassVar[Phases] = QUEST_ONLY
    reward: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        ch = living_character(campaign)
        state = adventure_of(campaign)
        _outside_fight(campaign, "complete a quest")
        quest = _current(state)
        assert state.quest is not None
        missing = q.objective_missing(ch, state.quest)
        if missing:
            refuse(f"{quest.name}'s objective is not met ({quest.objective or 'as printed'}): {missing}.")
        reward = quest.reward or self.reward.strip()
        if not reward and q.REWARD in quest.missing:
            refuse(f"Your tables do not print {quest.name}'s reward: type it from your rulebook.")
        events = apply_outcome(ctx, parse_effects(reward), "Quest reward") if reward else []
        q.finish(ch, won=True)
        if quest.name not in state.completed:
            state.completed.append(quest.name)
        state.ended = ch.quest_log.attempted  # the between-quests phase follows it
        state.quest = None
        state.turn = None
        state.rows_waiting, state.loot_waiting = past_quest(state.rows_waiting), None  # what the quest left waiting ends with it
        payload = ev.QuestCompleted(name=quest.name, reward=reward, completed=ch.quest_log.completed)
        return [Event.of(payload, f"{quest.name} is complete: reward {reward or 'none'}."), *events, *_close(ctx)]


@register_command
class FailQuest(Command):
    """End the quest as failed (never in a fight) and pay its fail costs; refused while one cannot be paid.

    ``choices`` name, in order, what each cost with a choice is paid from (a skill for
    ``-5 Skill``, a characteristic for ``-1 CHA``); a cost with one possible payer needs none.
    ``option`` picks among "/" alternatives; ``costs`` is the printed fail column, typed by the
    player where the excerpt cut it off.
    """

    kind: Literal["fail_quest"] = "fail_quest"
    when: ClassVar[Phases] = QUEST_ONLY
    choices: list[str] = Field(default_factory=list)
    option: int = 0
    costs: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign, rules = ctx.campaign, ctx.rules
        ch = living_character(campaign)
        state = adventure_of(campaign)
        _outside_fight(campaign, "fail a quest")
        quest = _current(state)
        text = quest.fail or self.costs.strip()
        if not text and q.FAIL in quest.missing:
            refuse(f"Your tables do not print {quest.name}'s fail costs: type them from your rulebook.")
        outcome = parse_effects(text) if text else None
        option = Option()
        if outcome is not None and outcome.options:
            if not 0 <= self.option < len(outcome.options):
                refuse(f"The fail costs offer {len(outcome.options)} option(s): {outcome.describe()}.")
            option = outcome.options[self.option]
        costs = q.fail_costs(ch, rules, option)
        unpaid = q.unpaid_reason(costs)
        if unpaid:
            refuse(f"You cannot fail {quest.name} now - its costs cannot be paid ({unpaid}). You must press on.")
        chosen = list(self.choices)
        effects = []
        for cost in costs:
            if len(cost.choices) > 1 and not chosen:
                refuse(f"{cost.effect.describe()}: choose what pays it ({', '.join(cost.choices)}).")
            effects.append(
                q.with_choice(cost, chosen.pop(0) if len(cost.choices) > 1 else cost.choices[0]) if cost.choices else cost.effect
            )
        if chosen:
            refuse(f"Nothing is left to pay from {', '.join(chosen)}.")
        events: list[Event] = []
        for effect in effects:
            events += apply_effect(ctx, effect, "Quest failed")
        q.finish(ch, won=False)
        state.ended = ch.quest_log.attempted  # the between-quests phase follows it
        state.quest = None
        state.turn = None
        state.rows_waiting, state.loot_waiting = past_quest(state.rows_waiting), None  # what the quest left waiting ends with it
        payload = ev.QuestFailed(name=quest.name, costs=[e.describe() for e in effects], failed=ch.quest_log.failed)
        paid = ", ".join(payload.costs) or "nothing"
        return [Event.of(payload, f"{quest.name} is failed; its costs are paid: {paid}."), *events, *_close(ctx)]


ADVENTURE_COMMANDS: tuple[type[Command], ...] = (
    AdvanceTime,
    ResumeTime,
    LightLantern,
    ProvideEncounterRow,
    BeginQuest,
    ChooseQuest,
    RerollQuest,
    ProvideQuestRow,
    CompleteQuest,
    FailQuest,
    *TURN_COMMANDS,
    *DOOR_COMMANDS,
    *ROW_COMMANDS,
    *CORRECTION_COMMANDS,
)
