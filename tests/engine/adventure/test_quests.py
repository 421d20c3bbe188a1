"""Quests through the Game: Dungeon Training in order, Table Q by REP with re-rolls, completing and failing."""

from __future__ import annotations

import pytest
from adventure_support import RULES, game_for, hero, in_a_fight, state

from d100gui.engine.adventure.commands import (
    BeginQuest,
    ChooseQuest,
    CompleteQuest,
    FailQuest,
    ProvideQuestRow,
    RerollQuest,
)
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Row
from d100gui.engine.hero.model import Item
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.quest.events import QuestBegun, QuestOffered
from d100gui.engine.quest.model import ADVENTURE_RULES, Quest, QuestState
from d100gui.engine.town.commands import BeginTown, FinishTown

TRAINING = ADVENTURE_RULES.training_quests


def d100(n: int) -> list[int]:
    return [0, 0] if n == 100 else [n // 10, n % 10]


def begun(events) -> QuestBegun:
    found = next(e.payload() for e in events if e.kind == "quest_begun")
    assert isinstance(found, QuestBegun)
    return found


def offered(events) -> QuestOffered:
    found = next(e.payload() for e in events if e.kind == "quest_offered")
    assert isinstance(found, QuestOffered)
    return found


def on_quest(game, **fields) -> None:
    state(game).quest = QuestState(quest=Quest(name="Test quest", **fields), attempt=1)
    game.campaign.character.quest_log.current = "Test quest"


def between_quests(game) -> None:
    """The between-quests phase, opened and finished (the hero holds no shares: Table J changes nothing)."""
    game.execute(BeginTown())
    game.execute(FinishTown())


def test_the_next_quest_waits_for_the_between_quests_phase():
    """Issue 18: begin_quest straight after fail_quest carried last quest's keys and clocks, Table J never rolled."""
    ch = hero()
    game = game_for(ch)
    game.execute(BeginQuest())
    ch = game.campaign.character
    ch.keys = 2
    game.execute(FailQuest())
    with pytest.raises(CommandRefused, match="Before your next quest"):
        game.execute(BeginQuest())
    game.execute(BeginTown())
    assert game.campaign.character.keys == 0  # refreshed at the phase's first step
    with pytest.raises(CommandRefused, match="between-quests phase is under way"):
        game.execute(BeginQuest())
    game.execute(FinishTown())
    assert begun(game.execute(BeginQuest())).name == "Dungeon Training 2"


def test_a_new_hero_takes_the_training_quests_in_order():
    ch = hero()
    ch.gp = 51
    game = game_for(ch)
    first = begun(game.execute(BeginQuest()))
    assert (first.name, first.training, first.encounter_modifier, first.attempted) == ("Dungeon Training 1", 1, -40, 1)
    assert ch.quest_log.current == "Dungeon Training 1" and ch.quest_encounter_modifier == -40
    assert "loot 3 Parts" in state(game).quest.quest.objective
    with pytest.raises(CommandRefused, match="under way"):
        game.execute(BeginQuest())
    ch = game.campaign.character
    with pytest.raises(CommandRefused, match=r"objective is not met .*3 more parts \(0 of 3 looted\)"):
        game.execute(CompleteQuest())
    ch.backpack += [Item(name=f"Giant Rat {p}", kind="item", source="d100.P 10-12") for p in ("TAIL", "EAR", "TOOTH")]
    game.execute(CompleteQuest())
    assert ch.gp == 101 and ch.quest_log.completed == 1 and ch.quest_log.current == ""
    assert state(game).completed == ["Dungeon Training 1"]
    between_quests(game)  # "Before Your Next Quest" comes between two quests (issue 18)
    assert begun(game.execute(BeginQuest())).name == "Dungeon Training 2"
    game.execute(FailQuest())
    assert ch.gp == 50 and ch.quest_log.failed == 1  # half of 101, rounded up, is 51
    between_quests(game)
    assert begun(game.execute(BeginQuest())).name == "Dungeon Training 3"
    game.execute(FailQuest())
    assert ch.gp == 25  # half of 50 is 25
    between_quests(game)
    fourth = begun(game.execute(BeginQuest()))
    assert fourth.name == "Dungeon Training 4" and fourth.encounter_modifier == -30
    with pytest.raises(CommandRefused, match="fail costs"):
        game.execute(FailQuest())  # the excerpt cuts the row off before its fail column
    ch = game.campaign.character
    game.execute(FailQuest(costs="- ½ gp"))
    assert ch.gp == 12 and ch.quest_log.attempted == 4


def test_a_missing_training_quest_asks_for_its_row():
    ch = hero()
    ch.quest_log.attempted = TRAINING - 1
    game = game_for(ch)
    events = game.execute(BeginQuest())
    offer = offered(events)
    assert offer.training == TRAINING and offer.quests == []
    lo, hi = state(game).choice.gap
    decision = next(e.payload() for e in events if e.kind == "decision")
    assert decision.missing == [lo, hi]
    row = Row(range=(lo + 1, lo + 1), fields={"quest": "Dungeon Training 5"})
    with pytest.raises(CommandRefused, match=f"start at {lo}"):
        game.execute(ProvideQuestRow(row=row))
    fields = {"quest": "Dungeon Training 5", "objective": "typed", "enc_mod": "-20", "reward": "100gp", "fail": "- ½ gp"}
    events = game.execute(ProvideQuestRow(row=Row(range=(lo, lo + 1), fields=fields)))
    assert "row_provided" in [e.kind for e in events]
    fifth = begun(events)
    assert fifth.name == "Dungeon Training 5" and fifth.training == TRAINING and fifth.encounter_modifier == -20
    assert game.campaign.character.quest_log.attempted == TRAINING


def test_sample_play_rolls_table_q_when_the_training_quest_is_missing():
    ch = hero()
    ch.quest_log.attempted = TRAINING - 1
    game = game_for(ch, *d100(3), policy=MissingRowPolicy.REROLL)
    offer = offered(game.execute(BeginQuest()))
    assert offer.sample and offer.quests == ["Dungeon Training 2"]


def test_after_training_table_q_is_rolled_once_per_rep_and_a_completed_quest_may_be_rolled_again():
    ch = hero()
    ch.quest_log.attempted = TRAINING
    ch.rep = 3
    game = game_for(ch, *d100(1), *d100(5), *d100(50))
    state(game).completed = ["Dungeon Training 1"]
    events = game.execute(BeginQuest())
    offer = offered(events)
    assert offer.quests == ["Dungeon Training 1", "Dungeon Training 3", ""]
    assert offer.completed == [True, False, False]
    assert offer.missing[2] and not offer.missing[0]
    with pytest.raises(CommandRefused, match="not ticked"):
        game.execute(RerollQuest(index=1))
    game.override.push(*d100(7))
    again = offered(game.execute(RerollQuest(index=0)))
    assert again.quests[0] == "Dungeon Training 4"
    assert len(state(game).choice.rolls[0].discarded) == 1
    with pytest.raises(CommandRefused, match="type it first"):
        game.execute(ChooseQuest(index=2))
    typed = Row(
        range=(50, 51), fields={"quest": "A typed quest", "objective": "x", "enc_mod": "+10", "reward": "1gp", "fail": "-1 REP"}
    )
    game.execute(ProvideQuestRow(row=typed, index=2))
    assert state(game).choice.rolls[2].quest.name == "A typed quest"
    chosen = begun(game.execute(ChooseQuest(index=1)))
    assert chosen.name == "Dungeon Training 3" and chosen.encounter_modifier == -30
    assert state(game).choice is None and game.campaign.character.quest_log.attempted == TRAINING + 1


def test_a_skill_cost_needs_a_skill_with_enough_bonus():
    ch = hero()
    ch.skills["Locks"].bonus = 5
    game = game_for(ch)
    on_quest(game, fail="-10 Skill")
    with pytest.raises(CommandRefused, match=r"cannot be paid .*no skill has a \+10 bonus"):
        game.execute(FailQuest())
    ch = game.campaign.character
    ch.skills["Locks"].bonus = 15
    game.execute(FailQuest())  # one skill can pay: no choice to make
    assert ch.skills["Locks"].bonus == 5 and ch.quest_log.failed == 1 and state(game).quest is None


def test_a_skill_cost_with_several_payers_is_the_players_choice():
    ch = hero()
    ch.skills["Locks"].bonus = 5
    ch.skills["Traps"].bonus = 10
    game = game_for(ch)
    on_quest(game, fail="-5 Skill, -1 CHA")
    with pytest.raises(CommandRefused, match="choose what pays it"):
        game.execute(FailQuest())
    with pytest.raises(CommandRefused, match="cannot be paid from"):
        game.execute(FailQuest(choices=["Agility", "STR"]))
    game.execute(FailQuest(choices=["Traps", "DEX"]))
    ch = game.campaign.character
    assert ch.skills["Traps"].bonus == 5 and ch.skills["Locks"].bonus == 5
    assert ch.characteristics["DEX"].primary == 39


def test_rep_cannot_be_lost_at_its_minimum():
    ch = hero()
    ch.rep = RULES.reputation.min
    game = game_for(ch)
    on_quest(game, fail="-1 REP")
    with pytest.raises(CommandRefused, match="REP can never fall below"):
        game.execute(FailQuest())
    game.campaign.character.rep = RULES.reputation.min + 1
    game.execute(FailQuest())
    assert game.campaign.character.rep == RULES.reputation.min


def test_half_the_gold_rounds_up_and_is_paid_even_from_one_piece():
    ch = hero()
    ch.gp = 1
    game = game_for(ch)
    on_quest(game, fail="- ½ gp")
    game.execute(FailQuest())
    assert game.campaign.character.gp == 0


def test_nothing_to_end_or_choose_without_a_quest():
    game = game_for(hero())
    for command in (CompleteQuest(), FailQuest(), ChooseQuest(index=0), RerollQuest(index=0)):
        with pytest.raises(CommandRefused):
            game.execute(command)


def test_a_quest_cannot_be_failed_begun_or_completed_in_a_fight():
    game = game_for(hero())
    on_quest(game, fail="- ½ gp")
    in_a_fight(game)
    for command in (FailQuest(), CompleteQuest()):
        with pytest.raises(CommandRefused, match="during a fight"):
            game.execute(command)
    state(game).quest = None
    with pytest.raises(CommandRefused, match="during a fight"):
        game.execute(BeginQuest())
