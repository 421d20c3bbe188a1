"""The campaign's statistics (issue 24): scripted campaigns with known answers."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from d100gui.engine import Session, creation_steps
from d100gui.engine.game import LogEntry
from d100gui.engine.protocol import EVENT_KINDS, Event
from d100gui.engine.stats import Statistics, chi_square_sf, fairness, statistics_of
from d100gui.storage.resources import bundled_game_data

ANSWERS: dict[str, dict[str, Any]] = {
    "action": {"kind": "combat_attack"},
    "roll": {"kind": "combat_continue"},
    "test": {"kind": "combat_continue"},
    "offset": {"kind": "combat_offset"},
    "loot": {"kind": "combat_choose_loot", "option": 0},
    "aim": {"kind": "combat_perfect_aim", "choice": "keep"},
    "aim_pick": {"kind": "combat_perfect_aim", "choice": "first"},
}


def ev(kind: str, **data: Any) -> Event:
    """A declared event with its payload (validated against its declaration)."""
    return Event(kind=kind, topic=EVENT_KINDS[kind].topic, data=data)


def log_of(*actions: list[Event]) -> list[LogEntry]:
    return [LogEntry(index=i, command={"kind": "scripted"}, events=events) for i, events in enumerate(actions)]


def hero_session(seed: int = 2037) -> Session:
    session = Session.new(bundled_game_data(), seed=seed, policy="reroll")
    for step in creation_steps("Brana", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    return session


def fight(session: Session, start: dict[str, Any]) -> dict[str, Any]:
    events = session.run(start)
    while session.combat is not None:
        events = session.run(ANSWERS[session.combat.waiting])
    for choice in [d for d in session.pending if d.decision == "experience"]:
        session.run({"kind": "assign_experience", "decision": choice.id, "choice": "characteristic"})
    over = [e for e in events if e["kind"] in ("combat_over", "hero_died")]
    data: dict[str, Any] = over[0]["data"]
    return data


# ---------------------------------------------------------------- the chi-square survival function


@pytest.mark.parametrize(
    ("statistic", "dof", "p"),
    [
        (3.841458820694124, 1, 0.05),  # the textbook 5% critical values
        (16.918977604620448, 9, 0.05),
        (11.070497693516351, 5, 0.05),
        (21.665994333461924, 9, 0.01),
        (2.0, 2, math.exp(-1.0)),  # dof 2: the sf is exp(-x/2)
        (9.0, 4, math.exp(-4.5) * (1 + 4.5)),  # dof 4: exp(-x/2) (1 + x/2)
        (0.0, 5, 1.0),
    ],
)
def test_chi_square_survival_function_matches_known_values(statistic: float, dof: int, p: float) -> None:
    assert chi_square_sf(statistic, dof) == pytest.approx(p, rel=1e-9, abs=1e-12)


def test_fairness_of_counts() -> None:
    assert fairness([100, 100, 100, 100, 100, 100])["p_value"] == pytest.approx(1.0)
    loaded = fairness([50, 50, 50, 50, 50, 250])
    assert loaded["judged"] and not loaded["fair"] and loaded["p_value"] < 1e-20
    assert loaded["chi_square"] == pytest.approx(400.0)  # 5 * 50^2/83.3 + 166.7^2/83.3
    few = fairness([3, 0, 0, 0, 0, 0])
    assert not few["judged"] and few["fair"], "three rolls judge nothing"


# ---------------------------------------------------------------- dice


def test_a_fair_seeded_die_passes_and_a_loaded_one_fails() -> None:
    session = Session.new(bundled_game_data(), seed=11)
    for _ in range(20):
        session.run({"kind": "roll_dice", "expression": "30d6"})
        session.run({"kind": "roll_dice", "expression": "d100"})
    figures = session.statistics()
    d6 = figures["dice"]["app"]["d6"]
    assert d6["rolls"] == 600 and sum(d6["counts"]) == 600
    assert d6["judged"] and d6["fair"] and d6["p_value"] > 0.01
    assert figures["dice"]["app"]["d10"]["rolls"] == 40, "a d100 is two d10s, tens and units"
    assert figures["dice"]["physical"] == {}

    # the same rolls with the die loaded: two faces in three turned to a six
    loaded = []
    for entry in session.log:
        rolls = []
        for record in entry.rolls:
            faces = [d.model_copy(update={"face": 6}) if d.sides == 6 and i % 3 else d for i, d in enumerate(record.dice)]
            rolls.append(record.model_copy(update={"dice": faces}))
        loaded.append(entry.model_copy(update={"rolls": rolls}))
    d6 = statistics_of(loaded)["dice"]["app"]["d6"]
    assert d6["rolls"] == 600 and d6["counts"][5] > 400
    assert d6["judged"] and not d6["fair"] and d6["p_value"] < 1e-6


def test_physical_dice_are_counted_apart() -> None:
    session = Session.new(bundled_game_data(), seed=3)
    session.script_dice([6] * 30)  # faces given: counted as physical dice
    session.run({"kind": "roll_dice", "expression": "30d6"})
    session.seeded_dice()
    session.run({"kind": "roll_dice", "expression": "30d6"})  # seeded: the app's
    dice = session.statistics()["dice"]
    assert dice["physical"]["d6"]["counts"] == [0, 0, 0, 0, 0, 30]
    assert not dice["physical"]["d6"]["fair"]
    assert dice["app"]["d6"]["rolls"] == 30


# ---------------------------------------------------------------- fights


def test_a_scripted_fight_is_counted_by_monster() -> None:
    session = hero_session()
    # reaction 5; the attack test 30 hits; damage d6 4 at location 1 kills it; its attack rolls 90, a miss
    session.script_dice([5, 3, 0, 4, 1, 9, 0])
    goblin = {"name": "Goblin", "av": 40, "defence": 1, "dmg": 0, "hp": [1]}
    over = fight(session, {"kind": "start_combat", "source": "monster", "monster": goblin, "fate_windows": False})
    assert over["outcome"] == "won"
    goblins = session.statistics()["fights"]["Goblin"]
    assert goblins == {
        "fights": 1,
        "won": 1,
        "fled": 0,
        "lost": 0,
        "monster_escaped": 0,
        "win_rate": 1.0,
        "hp_lost": 0,
        "rounds": 1,
    }


def test_hp_lost_in_fights_matches_the_hero() -> None:
    session = hero_session(seed=5)
    assert session.character is not None
    outcomes: list[dict[str, Any]] = []
    troll = {"name": "Troll", "av": 60, "defence": 2, "dmg": 2, "hp": [12]}
    while session.character is not None and len(outcomes) < 3:
        outcomes.append(fight(session, {"kind": "start_combat", "source": "monster", "monster": troll, "fate_windows": False}))
    figures = session.statistics()
    trolls = figures["fights"]["Troll"]
    assert trolls["fights"] == len(outcomes)
    assert trolls["hp_lost"] == sum(o.get("hp_lost", 0) for o in outcomes)
    assert trolls["hp_lost"] > 0, "the seeded trolls hit the hero"
    assert trolls["won"] == sum(o.get("outcome") == "won" for o in outcomes)
    assert trolls["win_rate"] == pytest.approx(trolls["won"] / trolls["fights"])
    lives_left = session.character.lives if session.character else session.campaign.hall_of_fallen[-1].lives
    assert figures["campaign"]["lives_spent"] == 3 - lives_left >= 1, "a Life was spent against the trolls"


# ---------------------------------------------------------------- quests and the campaign


def scripted_campaign() -> list[LogEntry]:
    """Two attempts at one quest (a failure, then a success) and a death in a third."""
    goblin = {"name": "Goblin", "av": 40, "hp": [3]}
    return log_of(
        [ev("characteristics", scores={"STR": 50, "DEX": 40, "INT": 30}), ev("finishing", hp=20, fate=3, lives=3)],
        [ev("rep", rep=1, before=0)],
        [ev("quest_begun", name="The Crypt")],
        [ev("turn_moved", number=1, side="N", pos="7,9", colour="Y", placed=True)],
        [
            ev("combat_started", monster=goblin),
            ev("combat_hero_hp", delta=-3, hp=17),
            ev("combat_over", outcome="won", rounds=2, hp_lost=3),
        ],
        [ev("turn_ended", number=1), ev("turn_moved", number=2, side="E", pos="8,9", colour="R", placed=True)],
        [
            ev("combat_started", monster=goblin),
            ev("combat_hero_hp", delta=-2, hp=15),
            ev("combat_over", outcome="hero_escaped", rounds=1, hp_lost=2),
        ],
        [ev("fate_used", success=True, fate=2), ev("food_eaten", clock=4, spent=False, food=0, hp_lost=1, hp=14)],
        [ev("quest_failed", name="The Crypt", costs=["-10 GP"]), ev("gp", delta=-10)],
        [
            ev("town_begun", step="healer", gp=40),
            ev("town_healed", hp=6, cost=5, gp=35),
            ev("town_trained", track="STR", pips=1, cost=10, gp=25, trained=1, limit=2),
        ],
        [ev("quest_begun", name="The Crypt")],
        [ev("turn_moved", number=1, side="N", pos="7,9", colour="Y", placed=False)],
        [ev("experience", track="STR"), ev("experience", track="STR"), ev("experience", track="DEX")],
        [ev("characteristic", stat="STR", primary=55), ev("gp", delta=30), ev("hp", delta=6, hp=20, max_hp=20)],
        [ev("quest_completed", name="The Crypt", reward="+30 GP"), ev("rep", rep=2, before=1)],
        [ev("quest_begun", name="The Pit")],
        [ev("combat_started", monster={"name": "Ogre", "av": 70, "hp": [20]}), ev("combat_life", lives=2, hp=20)],
        [ev("combat_hero_hp", delta=-20, hp=0), ev("hero_died", reason="killed by the Ogre")],
    )


def test_quests_of_a_scripted_campaign() -> None:
    figures = statistics_of(scripted_campaign())
    first, second, third = figures["quests"]
    assert (first["name"], first["attempt"], first["outcome"]) == ("The Crypt", 1, "failure")
    assert first["turns"] == 2 and first["areas_mapped"] == 2
    assert first["hp_lost"] == 6, "3 and 2 in fights, 1 for want of food"
    assert (first["fights_won"], first["fights_fled"], first["fights_lost"]) == (1, 1, 0)
    assert first["gold_gained"] == -10 and first["rep_gained"] == 0
    # the sheet now keeps Fate and Lives too (issue 24: every path that changes them emits a typed event)
    assert first["end"] == {"hp": 14, "gp": -10, "rep": 1, "fate": 2, "lives": 3, "STR": 50, "DEX": 40, "INT": 30}
    assert (second["attempt"], second["outcome"], second["turns"], second["areas_mapped"]) == (2, "success", 1, 0)
    assert second["gold_gained"] == 30 and second["rep_gained"] == 1 and second["hp_lost"] == 0
    assert second["end"] == {"hp": 20, "gp": 55, "rep": 2, "fate": 2, "lives": 3, "STR": 55, "DEX": 40, "INT": 30}
    assert (third["name"], third["outcome"], third["fights_lost"], third["hp_lost"]) == ("The Pit", "died", 1, 20)
    assert figures["quest_totals"] == {
        "The Crypt": {"attempts": 2, "successes": 1, "failures": 1},
        "The Pit": {"attempts": 1, "successes": 0, "failures": 0},
    }
    campaign = figures["campaign"]
    assert [(p["quest"], p["hp"], p["gp"], p["rep"], p["STR"]) for p in campaign["over_quests"]] == [
        (1, 14, -10, 1, 50),
        (2, 20, 55, 2, 55),
        (3, 0, 55, 2, 55),
    ]
    assert campaign["experience"] == {"DEX": 1, "STR": 2} and campaign["trained"] == {"STR": 1}
    assert (campaign["fate_spent"], campaign["lives_spent"], campaign["hp_lost"]) == (1, 1, 26)
    # the cause in the hall of the fallen's words: the death event's reason, then the fight it ended
    assert campaign["deaths"] == [{"entry": 17, "cause": "killed by the Ogre, fighting Ogre", "foe": "Ogre", "quest": "The Pit"}]
    assert figures["fights"]["Goblin"]["win_rate"] == 0.5 and figures["fights"]["Goblin"]["hp_lost"] == 5
    assert figures["fights"]["Ogre"]["lost"] == 1


def test_folding_one_entry_at_a_time_gives_the_whole_log_figures() -> None:
    log = scripted_campaign()
    stats = Statistics()
    for i, entry in enumerate(log):
        stats.fold(entry)
        assert stats.figures() == statistics_of(log[: i + 1])
    stats.fold(log[3])  # an entry already counted is not counted twice
    assert stats.figures() == statistics_of(log)


def test_session_statistics_follow_undo_and_paged_older_entries() -> None:
    session = hero_session()
    session.run({"kind": "roll_dice", "expression": "10d6"})
    first = session.statistics()
    session.run({"kind": "roll_dice", "expression": "10d6"})
    assert session.statistics()["dice"]["app"]["d6"]["rolls"] == first["dice"]["app"]["d6"]["rolls"] + 10
    session.undo()
    assert session.statistics() == first, "an undone action leaves the figures"
    session.run({"kind": "roll_dice", "expression": "5d6"})
    assert session.statistics() == statistics_of(session.log)

    # a campaign opened from its store holds its newest entries: the older ones come in pages, once
    whole = list(session.log)
    tail = Session.from_json(bundled_game_data(), session.to_json())
    tail.game.campaign.log[:] = whole[10:]
    tail.game.campaign.set_log_start(10)
    asked: list[tuple[int, int]] = []

    def older(offset: int, limit: int) -> list[LogEntry]:
        asked.append((offset, limit))
        return whole[offset : offset + limit]

    assert tail.statistics(older) == statistics_of(whole)
    tail.run({"kind": "roll_dice", "expression": "d6"})
    assert tail.statistics(older)["dice"]["app"]["d6"]["rolls"] == statistics_of(whole)["dice"]["app"]["d6"]["rolls"] + 1
    assert asked == [(0, 10)], "the older entries are read once"


def test_a_kept_state_folds_on_as_if_never_kept() -> None:
    """A store may keep ``state()`` beside the log: opened again, only the newer entries are folded."""
    session = hero_session()
    session.script_dice([5, 3, 0, 4, 1, 9, 0])
    goblin = {"name": "Goblin", "av": 40, "defence": 1, "dmg": 0, "hp": [1]}
    fight(session, {"kind": "start_combat", "source": "monster", "monster": goblin, "fate_windows": False})
    log = [*session.log, *(e.model_copy(update={"index": len(session.log) + e.index}) for e in scripted_campaign())]
    for cut in (0, len(session.log), len(session.log) + 4, len(session.log) + 17, len(log)):  # mid-quest, mid-fight
        kept = json.loads(json.dumps(Statistics().fold_all(log[:cut]).state()))
        again = Statistics.from_state(kept).fold_all(log[cut:])
        assert again.figures() == statistics_of(log)
        assert again.state() == Statistics().fold_all(log).state()
    with pytest.raises(ValueError, match="version"):
        Statistics.from_state({**kept, "version": 0})
