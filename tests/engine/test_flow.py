"""The flow query through ``Session.flow()``: every waiting thing is listed with answers that work, at any step.

Issues 18 and 26: play got stuck when a decision waited that no control answered (an experience
choice after a fight won, a test accepted or an escape with a natural roll of 10 or less; a
wandering monster a search brought at step 5). Each case is played here headless with scripted
dice, answered only with what the flow offers. A d100 is two d10 faces (tens, units).
"""

from __future__ import annotations

from typing import Any

import pytest

from d100gui.engine import CommandRefused, Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import Monster
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.waiting import curse_waiting
from d100gui.engine.flow import fight_for_roll, flow, row_wanted
from d100gui.engine.hero.decisions import ExperienceChoice, OutcomeChoice, TargetChoice, add_pending
from d100gui.engine.hero.model import Item, new_character
from d100gui.engine.quest.model import FightOffer
from d100gui.engine.rules.notation import Effect, parse_effects
from d100gui.storage.resources import bundled_game_data

DATA = bundled_game_data()
RULES = DATA.rules
LAYOUT = RULES.sheet.time_track
YELLOW, RED, GREEN = 22, 29, 10  # Table M tiles: a yellow, a red and a green crossroads


def d100(n: int) -> list[int]:
    return [0, 0] if n == 100 else [n // 10, n % 10]


def a_hero(fate: int = 0):
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Aria"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = ch.hp = 20
    ch.fate = fate
    ch.supplies.oil, ch.supplies.food, ch.supplies.picks = 20, 10, 15
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")
    return ch


def on_quest(fate: int = 0, shaded: int = 0, entrance: int = YELLOW, *faces: int) -> Session:
    """A hero on Dungeon Training 1 in the entrance area (tile ``entrance``, ``faces`` for what its colour
    rolls); the next clock is ``shaded + 1``."""
    campaign = Campaign()
    campaign.meta.seed = 7
    campaign.character = a_hero(fate)
    campaign.character.time_track.shaded = shaded
    s = Session(DATA, campaign)
    s.run({"kind": "begin_quest"})
    s.script_dice([*d100(entrance), *faces])  # the crossroads tiles have no doors
    s.run({"kind": "turn_enter"})
    assert s.scripted_left == 0
    s.seeded_dice()
    return s


def quiet(s: Session, clocks: int = 1) -> list[int]:
    """The faces the next ``clocks`` clocks' wandering checks roll, none of them bringing a monster."""
    shaded = s.character.time_track.shaded
    return [9 for n in range(clocks) for t in LAYOUT.triggers_at((shaded + n) % LAYOUT.clocks + 1) if t.kind == "wandering"]


def waiting(s: Session, kind: str) -> dict[str, Any]:
    found = [w for w in s.flow()["waiting"] if w["kind"] == kind]
    assert found, f"nothing of kind {kind!r} waits: {[w['kind'] for w in s.flow()['waiting']]}"
    return found[0]


def answer(s: Session, key: str, row: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Send the flow's answer or action ``key``, which must be offered and enabled."""
    flat = [a for w in s.flow()["waiting"] for a in w["answers"]] + s.flow()["actions"]
    [action] = [a for a in flat if a["key"] == key]
    assert action["enabled"], action["why"]
    command = dict(action["command"])
    if row:
        command["row"] = row
    return s.run(command)


def action(s: Session, key: str) -> dict[str, Any]:
    [found] = [a for a in s.flow()["actions"] if a["key"] == key]
    return found


def every_waiting_has_an_enabled_answer(s: Session) -> None:
    for w in s.flow()["waiting"]:
        assert any(a["enabled"] for a in w["answers"]), w


def fight_with_flow(s: Session, *faces: int) -> None:
    """Attack through the flow's fight answers until the fight is over (loot left behind)."""
    s.script_dice(list(faces))
    for _ in range(20):
        if s.combat is None:
            return
        every_waiting_has_an_enabled_answer(s)
        keys = [a["key"] for a in waiting(s, "fight")["answers"] if a["enabled"]]
        pick = next(k for k in ("attack_main", "fight_row_skip", "offset_none", "fight_continue") if k in keys)
        answer(s, pick)
    raise AssertionError("the fight did not end")


# --------------------------------------------------------------------------- where the game is


def test_the_phase_and_where_follow_the_game():
    s = Session.new(DATA, seed=3, policy="reroll")
    f = s.flow()
    assert f["phase"] == "no_hero" and action(s, "create_character")["enabled"]
    answer(s, "create_character")
    assert s.flow()["phase"] == "creation" and s.flow()["where"].startswith("Creation step 1")
    s = on_quest()
    f = s.flow()
    assert (f["phase"], f["turn"], f["step"], f["fighting"]) == ("quest", 1, "equipment", False)
    assert "turn 1, step 1" in f["where"]


def test_the_flow_says_why_a_kind_is_not_allowed_now():
    s = on_quest()
    made = flow(s.campaign, RULES, DATA.library)
    assert made.why_not("roll_dice") == ""  # the dice are free at any time
    assert made.why_not("combat_attack")  # no fight on: the gate says why
    assert made.why_not("no_such_kind")


# --------------------------------------------------------------------------- each decision type


def test_an_experience_choice_offers_every_legal_spread_and_each_works():
    s = on_quest()
    xp = ExperienceChoice(characteristic="DEX", skills=["Traps", "Locks"], test_name="PIT", prompt="PIT: natural 4.")
    add_pending(s.campaign, xp)
    keys = [a["key"] for a in waiting(s, "experience")["answers"]]
    assert keys == [
        f"exp_{xp.id}_characteristic",
        f"exp_{xp.id}_skills_traps_traps",
        f"exp_{xp.id}_skills_traps_locks",
        f"exp_{xp.id}_skills_locks_locks",
        f"exp_{xp.id}_decline",
    ]
    before = s.character.skills["Traps"].pips, s.character.skills["Locks"].pips
    answer(s, f"exp_{xp.id}_skills_traps_locks")
    assert (s.character.skills["Traps"].pips, s.character.skills["Locks"].pips) == (before[0] + 1, before[1] + 1)
    assert not s.pending and not [w for w in s.flow()["waiting"] if w["kind"] == "experience"]


def test_an_outcome_choice_and_a_target_choice_are_answered_from_the_flow():
    s = on_quest()
    choice = add_pending(s.campaign, OutcomeChoice(outcome=parse_effects("+10 gp/ +1 food"), source="A chest", prompt="Pick"))
    labels = [a["label"] for a in waiting(s, "outcome_choice")["answers"]]
    assert len(labels) == 2
    gp = s.character.gp
    answer(s, f"choose_{choice.id}_0")
    assert s.character.gp == gp + 10 and not s.pending
    target = add_pending(
        s.campaign, TargetChoice(effect=Effect(kind="characteristic", amount=-1, text="-1 STR/DEX"), choices=["STR", "DEX"])
    )
    assert [a["label"] for a in waiting(s, "target_choice")["answers"]] == ["STR", "DEX"]
    answer(s, f"target_{target.id}_1")
    assert not s.pending


def test_a_trap_test_is_rolled_then_accepted_from_the_flow_at_step_4():
    s = on_quest(fate=3)
    s.script_dice([*d100(GREEN), *d100(5)])  # Table G 5: SPIKED PIT TRAP, its test waits
    s.run({"kind": "turn_move", "side": "N"})
    called = waiting(s, "called_test")
    assert called["answers"][0]["label"] == "Roll SPIKED PIT TRAP" and s.flow()["step"] == "area"
    s.script_dice([1, 5])  # 15: a success (no Belt Check)
    answer(s, called["answers"][0]["key"])
    test = waiting(s, "test_roll")
    keys = [a["key"] for a in test["answers"]]
    assert keys[0].startswith("accept_") and keys[1].startswith("fate_")  # Fate is an answer too
    answer(s, keys[0])
    every_waiting_has_an_enabled_answer(s)
    assert not [d for d in s.pending if d.decision in ("test_roll", "called_test")]


def test_creation_clash_and_missing_row_wait_with_their_answers():
    s = Session.new(DATA, seed=3)  # "ask": a roll on a row the tables lack waits for it
    for step in (
        {"kind": "create_character"},
        {"kind": "assign_characteristics", "scores": {"STR": 50, "DEX": 40, "INT": 30}},
        {"kind": "choose_starting_skills", "skills": ["Locks", "Traps"]},
    ):
        s.run(step)
    answer(s, "creation_reputation")
    s.script_dice(d100(1))
    answer(s, "creation_weapon")
    table_a = DATA.library.get(RULES.creation.armour_table)
    missing = next(n for n in range(1, 101) if table_a.find(n) is None)
    printed = table_a.rows[0].low
    s.script_dice([*d100(printed), *d100(printed)])
    answer(s, "creation_armour")
    answer(s, "creation_armour")  # the same piece again: keep the new one or roll again
    clash = waiting(s, "armour_clash")
    assert [a["label"] for a in clash["answers"]][1] == "Roll again"
    s.script_dice(d100(missing))
    answer(s, clash["answers"][1]["key"])
    needed = waiting(s, "row_needed")
    typed, sample = needed["answers"]  # the re-roll among printed rows too (issue 19)
    assert typed["asks_row"] and sample["command"]["sample"] is True
    row = table_a.rows[0].model_dump(mode="json") | {"range": [missing, missing]}
    answer(s, typed["key"], row)
    assert not [w for w in s.flow()["waiting"] if w["kind"] == "row_needed"]
    answer(s, waiting(s, "armour_clash")["answers"][0]["key"])  # the typed row is the same piece: keep it
    assert not s.pending


def test_the_town_step_waits_with_its_next_step():
    s = on_quest()
    s.run({"kind": "fail_quest"})
    begin = action(s, "begin_town")
    assert begin["enabled"], begin["why"]
    answer(s, "begin_town")
    f = s.flow()
    assert f["phase"] == "town" and f["where"].startswith("Before your next quest: step 1")
    town = waiting(s, "town_step")
    answer(s, "town_next")
    assert s.campaign.town.step == "repair" and town["answers"]


# --------------------------------------------------------------------------- the stuck cases of issues 18 and 26


def test_issue_18_a_fight_the_turn_starts_won_on_a_natural_5_leaves_its_experience_answered():
    s = on_quest()
    s.script_dice([*d100(RED), *d100(45), 5])  # Table E 45 - 40 = 5: Giant Rats (reaction 5); the fight is step 4
    s.run({"kind": "turn_move", "side": "N"})
    assert s.flow()["fighting"] and waiting(s, "fight")
    # the attack rolls 05 (a hit), d6 5 at location 1 kills the pack; the rats roll 90; the loot 50 lacks its row
    fight_with_flow(s, *d100(5), 5, 1, 9, 0, 5, 0)
    xp = waiting(s, "experience")
    assert "natural 5" in xp["prompt"]
    answer(s, xp["answers"][0]["key"])  # the STR pip
    assert not s.pending
    assert action(s, "search")["enabled"]  # the turn goes on at step 5
    s.script_dice([*quiet(s), *d100(YELLOW)])
    s.run({"kind": "turn_move", "side": "N"})
    assert s.flow()["turn"] == 2


def test_issue_18_a_test_accepted_with_a_natural_4_leaves_its_experience_answered():
    s = on_quest(fate=3)
    s.script_dice([*d100(GREEN), *d100(5)])
    s.run({"kind": "turn_move", "side": "N"})
    s.script_dice([0, 4])
    answer(s, waiting(s, "called_test")["answers"][0]["key"])
    answer(s, waiting(s, "test_roll")["answers"][0]["key"])  # accept the 04
    xp = waiting(s, "experience")
    assert any(a["enabled"] for a in xp["answers"])
    answer(s, xp["answers"][-1]["key"])  # not taken: optional
    assert s.flow()["step"] == "search" and action(s, "end_turn")["enabled"]


def test_issue_18_the_dice_panel_fights_the_monster_the_turn_offers_not_a_second_one():
    s = on_quest()
    s.script_dice([*d100(YELLOW)])
    s.run({"kind": "turn_move", "side": "N"})
    s.script_dice(d100(5))
    s.run({"kind": "roll_table", "table_id": "d100.E"})  # a Table E roll in the dice panel
    entry = s.campaign.dice_history[-1]
    assert isinstance(entry, HistoryEntry)
    made = flow(s.campaign, RULES, DATA.library)
    side = fight_for_roll(made, entry)
    assert side is not None and side.command.kind == "start_combat"  # no monster offered: the roll's own fight
    wandering = FightOffer(table_roll=entry.table, clock=1, source="wandering monster", area="")
    s.campaign.adventure.fight_offered = wandering
    made = flow(s.campaign, RULES, DATA.library)
    same = fight_for_roll(made, entry)
    assert same is not None and same.enabled and same.command.kind == "turn_fight"  # the turn's own fight
    s.script_dice([5])
    s.run(same.command.model_dump(mode="json"))
    assert s.combat is not None and s.campaign.adventure.fight_offered is None  # one fight, counted by the turn


def test_issue_26_an_escape_on_a_natural_5_leaves_its_experience_answered():
    s = on_quest()
    s.script_dice([*d100(RED), *d100(45), 5])
    s.run({"kind": "turn_move", "side": "N"})
    s.script_dice(d100(5))
    answer(s, "escape")
    assert s.combat is None
    xp = waiting(s, "experience")
    assert "ESCAPE" in xp["prompt"] and xp["answers"][0]["enabled"]
    answer(s, xp["answers"][0]["key"])
    assert not s.pending and action(s, "search")["enabled"]


def test_issue_26_a_wandering_monster_a_search_brings_is_fought_from_step_5():
    wandering = next(t.clock for t in LAYOUT.triggers if t.kind == "wandering")
    s = on_quest(shaded=wandering - 2)  # the move shades the clock before; the search's +2 reaches it
    s.script_dice([*quiet(s), *d100(YELLOW)])
    s.run({"kind": "turn_move", "side": "N"})
    s.script_dice([*d100(3), 1, *d100(45)])  # Table F 3: +2 time; the wandering check 1 brings Table E 5
    s.run({"kind": "turn_search"})
    f = s.flow()
    assert f["step"] == "search" and not f["fighting"]
    offer = waiting(s, "offered_monster")
    assert [a["key"] for a in offer["answers"]] == ["fight"] and offer["answers"][0]["enabled"]
    assert not action(s, "end_turn")["enabled"] and not action(s, "complete_quest")["enabled"]
    s.script_dice([5])
    answer(s, "fight")
    assert s.combat is not None and waiting(s, "fight")


def test_issue_26_leaving_the_dungeon_is_greyed_during_a_fight():
    s = on_quest(0, 0, RED, *d100(45), 5)  # a red entrance: the fight is on where the hero could leave
    assert s.combat is not None
    leave = action(s, "leave_dungeon")
    assert not leave["enabled"] and "fight" in leave["why"]
    with pytest.raises(CommandRefused):
        s.run(leave["command"])


def test_the_fight_answers_every_wait_and_the_flow_is_plain_json():
    import json

    s = on_quest(fate=3)
    goblin = Monster(name="Goblin", av=40, defence=1, dmg=0, hp=[1])
    s.script_dice([5])
    s.run({"kind": "start_combat", "source": "monster", "monster": goblin.model_dump(mode="json")})
    json.dumps(s.flow())
    assert s.combat.waiting == "roll"  # the reaction's Fate window
    answer(s, "fight_continue")
    s.script_dice([*d100(30)])
    answer(s, "attack_main")
    fight = waiting(s, "fight")  # the Fate window on the attack: accept or re-roll, die by die
    assert {"fight_continue", "fight_fate", "fight_fate_0", "fight_fate_1"} <= {a["key"] for a in fight["answers"]}
    fight_with_flow(s, 4, 1, 9, 0)
    assert s.combat is None
    every_waiting_has_an_enabled_answer(s)


def test_a_roll_waiting_for_its_row_is_typed_or_skipped_from_the_flow():
    s = on_quest()
    s.script_dice([*d100(GREEN), *d100(50)])  # Table G 50: a row the excerpt lacks ("ask": it waits)
    s.run({"kind": "turn_move", "side": "N"})
    held = waiting(s, "row_waiting")
    typed, sample, skip = held["answers"]  # the re-roll among printed rows too (issue 19 W4)
    assert typed["asks_row"] and not skip["asks_row"] and sample["command"]["sample"] is True
    made = flow(s.campaign, RULES, DATA.library)
    [wanted] = [a for a in made.answers() if a.key == typed["key"]]
    from d100gui.engine.flow import row_wanted

    roll = row_wanted(s.campaign, wanted)
    assert roll is not None and roll.table_id == "d100.G" and roll.value == 50 and roll.gap is not None
    gp = s.character.gp
    answer(s, typed["key"], {"range": [50, 50], "fields": {"name": "GOLDEN IDOL", "effect": "+5 gp"}})
    assert s.character.gp == gp + 5 and not [w for w in s.flow()["waiting"] if w["kind"] == "row_waiting"]


def test_a_find_the_full_backpack_cannot_take_waits_with_each_drop_and_leave():
    s = on_quest()
    ch = s.character
    ch.backpack = [Item(name=f"Rock {n}", kind="item", value=1) for n in range(3)]  # the find waits (the model's)
    s.campaign.adventure.loot_waiting = Item(name="Gem", kind="item", value=50)
    loot = waiting(s, "loot")
    assert [a["key"] for a in loot["answers"]][-1] == "leave_loot"
    assert len(loot["answers"]) == len(ch.backpack) + 1
    answer(s, "keep_loot_0")
    assert [i.name for i in s.character.backpack] == ["Rock 1", "Rock 2", "Gem"]
    assert s.campaign.adventure.loot_waiting is None


def test_a_curse_waiting_for_its_row_is_answered_from_the_flow():
    s = on_quest()
    s.run({"kind": "fail_quest"})
    s.script_dice(d100(50))  # Table C 50: a row the excerpt lacks
    s.run({"kind": "roll_curse"})
    curse = waiting(s, "curse")
    assert [a["asks_row"] for a in curse["answers"]] == [True, False]
    s.script_dice(d100(3))
    answer(s, "curse_sample")  # re-rolled among the printed rows
    assert curse_waiting(s.campaign.adventure.rows_waiting) is None


def test_clocks_a_fight_interrupted_wait_with_resume_time():
    wandering = next(t.clock for t in LAYOUT.triggers if t.kind == "wandering")
    s = on_quest(shaded=wandering - 2)
    s.script_dice([*quiet(s), *d100(YELLOW)])
    s.run({"kind": "turn_move", "side": "N"})
    s.script_dice([*d100(3), 1, *d100(45)])  # the search's +2: the first clock brings a monster
    s.run({"kind": "turn_search"})
    s.script_dice([5, *d100(5)])  # reaction 5; escape 05
    answer(s, "fight")
    answer(s, "escape")
    kinds = [w["kind"] for w in s.flow()["waiting"]]
    assert "experience" in kinds and "clocks" in kinds
    answer(s, waiting(s, "experience")["answers"][0]["key"])
    s.script_dice(quiet(s))
    answer(s, "resume_time")
    assert s.campaign.adventure.clocks_owed == 0


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize("seed", range(8))
def test_a_seeded_walk_clicking_only_what_the_flow_offers_never_waits_without_an_answer(seed):
    """Clicks only the flow's enabled answers (when something waits) or actions, plus the map's exits and
    entrance in a quest: nothing waits without an enabled answer, and nothing the flow offers as enabled is
    refused (a move through a wall may be: the map's exits are not the flow's)."""
    import random

    campaign = Campaign()
    campaign.meta.seed = seed
    campaign.character = a_hero(fate=3)
    s = Session(DATA, campaign, policy="reroll")
    rng = random.Random(seed)
    for _ in range(150):
        f = s.flow()
        if f["phase"] == "fallen":
            break
        every_waiting_has_an_enabled_answer(s)
        answers = [a for w in f["waiting"] for a in w["answers"] if a["enabled"] and not a["asks_row"]]
        offered = answers or [a for a in f["actions"] if a["enabled"] and not a["asks_row"]]
        map_clicks = []
        if f["phase"] == "quest" and not answers:
            map_clicks = [{"kind": "turn_move", "side": side} for side in "NESW"] + [{"kind": "turn_enter"}]
        assert offered or map_clicks, f"nothing to click at {f['where']}"
        pick = rng.randrange(len(offered) + len(map_clicks))
        if pick < len(offered):
            s.run(offered[pick]["command"])  # never refused
        else:
            try:
                s.run(map_clicks[pick - len(offered)])
            except CommandRefused:
                pass  # a wall, a closed door, already inside


def test_the_quest_choice_waits_with_take_roll_again_and_type_the_row():
    from d100gui.engine.quest.model import adventure_rules

    campaign = Campaign()
    campaign.meta.seed = 7
    campaign.character = a_hero()
    campaign.character.quest_log.attempted = adventure_rules(RULES).training_quests
    campaign.character.rep = 3
    campaign.adventure.completed = ["Dungeon Training 1"]
    s = Session(DATA, campaign)
    s.script_dice([*d100(1), *d100(5), *d100(50)])  # Dungeon Training 1 (ticked), 3, and a row the tables lack
    s.run({"kind": "begin_quest"})
    choice = waiting(s, "quest_choice")
    keys = [a["key"] for a in choice["answers"]]
    assert keys == ["choose_0", "reroll_quest_0", "choose_1", "quest_row_2"]
    made = flow(s.campaign, RULES, DATA.library)
    wanted = row_wanted(s.campaign, made.action("quest_row_2"), RULES)
    assert wanted is not None and wanted.table_id == "d100.Q" and wanted.value == 50
    answer(s, "choose_1")
    assert s.flow()["phase"] == "quest" and s.flow()["quest"] == "Dungeon Training 3"


def test_a_hit_on_armour_waits_for_the_offset_and_both_answers_are_offered():
    s = on_quest()
    s.character.equipment["torso"] = Item(name="Leather Jerkin", kind="armour", slot="torso", defence=1)
    goblin = Monster(name="Goblin", av=40, defence=1, dmg=0, hp=[5])
    s.script_dice([5])  # the reaction
    s.run({"kind": "start_combat", "source": "monster", "monster": goblin.model_dump(mode="json"), "fate_windows": False})
    s.script_dice([9, 9, 0, 5, 4, 3])  # the attack misses (99); the goblin hits (05): d6 4 at location 3 (the torso)
    answer(s, "attack_main")
    offset = waiting(s, "fight")
    assert [a["key"] for a in offset["answers"]] == ["offset_most", "offset_none"]
    hp = s.character.hp
    s.script_dice([5])  # the next round's reaction
    answer(s, "offset_most")
    assert s.combat is None or s.combat.waiting != "offset"
    assert s.character.equipment["torso"].repair_pips > 0 and s.character.hp >= hp - 4  # the jerkin took some
