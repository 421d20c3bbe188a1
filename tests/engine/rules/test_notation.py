"""The effect-notation parser: the rulebook's own examples, every test it prints, and every
effect field of every bundled pack."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from d100gui.engine.dice.tables import Column, Pack, PackInvalid, Row, Table
from d100gui.engine.rules import notation
from d100gui.engine.rules.notation import (
    Effect,
    Notation,
    Outcome,
    canonical_skill,
    parse,
    parse_effects,
    parse_loot,
    parse_test,
    table_id,
)
from d100gui.storage.packs import read_pack_file
from d100gui.storage.resources import bundled_pack_files

# --------------------------------------------------------------------------- helpers


def only_test(text: str) -> notation.TestSpec:
    result = parse(text)
    assert len(result.tests) == 1, result.tests
    return result.tests[0]


def kinds(outcome: Outcome) -> list[list[str]]:
    """The outcome as a list of options, each the list of its item kinds."""
    return [option.kinds() for option in outcome.options]


def single(outcome: Outcome) -> list[Effect]:
    assert len(outcome.options) == 1, outcome
    return outcome.options[0].effects


def one_effect(text: str) -> Effect:
    outcome = parse_effects(text)
    assert len(outcome.options) == 1 and len(outcome.options[0].items) == 1, outcome
    effect = outcome.options[0].items[0]
    assert isinstance(effect, Effect)
    return effect


# --------------------------------------------------------------------------- the rulebook's examples

HARRY = "TRAPPED CHEST – Test: Dex -10 [S:+30 gp/ roll x1 Table TA] [F:-10 hp] (Locks, Traps)"


def test_harrys_trapped_chest():
    test = only_test(HARRY)
    assert test.name == "TRAPPED CHEST"
    assert test.characteristic == "DEX"
    assert test.modifier == -10
    assert test.skills == ["Locks", "Traps"]
    assert test.success.is_choice
    assert kinds(test.success) == [["gp"], ["roll_table"]]
    gold = test.success.options[0].effects[0]
    assert (gold.amount, gold.text) == (30, "+30 gp")
    roll = test.success.options[1].effects[0]
    assert (roll.table, roll.times, roll.modifier) == ("d100.TA", 1, 0)
    assert roll.text == "roll x1 Table TA"
    assert not test.failure.is_choice
    [hp] = single(test.failure)
    assert (hp.kind, hp.amount) == ("hp", -10)
    assert test.text == HARRY


def test_judiths_pendulum_trap():
    test = only_test("PENDULUM TRAP – Test: Dex -10 [S: Avoid Trap] [F:-4 hp] (Traps,Aware,Lucky)")
    assert (test.name, test.characteristic, test.modifier) == ("PENDULUM TRAP", "DEX", -10)
    assert test.skills == ["Traps", "Aware", "Lucky"]
    [avoid] = single(test.success)
    assert (avoid.kind, avoid.text) == ("avoid", "Avoid Trap")
    [hp] = single(test.failure)
    assert (hp.kind, hp.amount) == ("hp", -4)


def test_rulebook_skill_test_examples():
    outcome = parse_effects(" +5 gp/Table I")
    assert kinds(outcome) == [["gp"], ["roll_table"]]
    assert outcome.options[1].effects[0].table == "d100.I"
    both = single(parse_effects(" -5 hp, -1 Str"))
    assert [(e.kind, e.amount, e.stat) for e in both] == [("hp", -5, ""), ("characteristic", -1, "STR")]


SNAKE_PIT = (
    "Test - SNAKE PIT TRAP – Test: Dex -15 [S: Spotted Trap] [F:Belt Check, -2 hp, encounter GIANT SNAKE, +1 ] "
    "(Traps,Aware,Lucky). GIANT SNAKE – AV:55 DEF:3 HP:16 DMG:+2 [K:Table P +10] (Poison)"
)


def test_snake_pit_multi_effect_failure():
    result = parse(SNAKE_PIT)
    [test] = result.tests
    assert (test.name, test.characteristic, test.modifier) == ("SNAKE PIT TRAP", "DEX", -15)
    assert test.skills == ["Traps", "Aware", "Lucky"]
    assert single(test.success)[0].kind == "avoid"
    belt, hp, snake, time = single(test.failure)
    assert belt.kind == "belt_check"
    assert (hp.kind, hp.amount) == ("hp", -2)
    assert (snake.kind, snake.target) == ("encounter", "GIANT SNAKE")
    assert (time.kind, time.amount) == ("time", 1)
    # the snake's own stat block: its loot, and the rest kept as narrative
    [loot] = result.loot
    assert [(o.table, o.modifier) for o in loot.options] == [("d100.P", 10)]
    assert "GIANT SNAKE – AV:55 DEF:3 HP:16 DMG:+2" in result.narrative
    assert "(Poison)" in result.narrative
    assert [item.node for item in result.items] == ["test", "outcome", "loot", "outcome"]


LEVER_DOOR = (
    "Roll equal to or less than the number of Levers you have to open, [S: Opens, Remove 1 lever pip] "
    "[F: Closed/To open test JAMMED DOOR – Test: Str [S: Open] [F:-1HP,+1] (Strong)"
)


def test_lever_door_nested_test_inside_unclosed_failure():
    lever = only_test(LEVER_DOOR)
    assert (lever.characteristic, lever.against, lever.name) == ("", "levers", "")
    assert lever.skills == []  # "(Strong)" belongs to the nested test
    opens, pip = single(lever.success)
    assert opens.kind == "open"
    assert (pip.kind, pip.amount) == ("lever", -1)
    assert kinds(lever.failure) == [["no_effect"], ["test"]]
    assert lever.failure.options[0].effects[0].text == "Closed"
    [jammed] = lever.failure.options[1].tests
    assert (jammed.name, jammed.characteristic, jammed.modifier) == ("JAMMED DOOR", "STR", 0)
    assert jammed.skills == ["Strong"]
    assert kinds(jammed.success) == [["open"]]
    hp, time = single(jammed.failure)
    assert (hp.kind, hp.amount, time.kind, time.amount) == ("hp", -1, "time", 1)
    assert parse(LEVER_DOOR).all_tests() == [lever, jammed]


def test_locked_door_key_roll_then_pick_the_lock():
    text = (
        "Roll equal to or less than the number of keys you have to open, if successful delete 1 key; "
        "or pick the lock LOCKED DOOR – Test: Dex [S: Open] [F:-1 Pick, +1 ] (Locks)"
    )
    keys, locked = parse(text).tests
    assert keys.against == "keys"
    assert [(e.kind, e.amount) for e in single(keys.success)] == [("open", None), ("key", -1)]
    assert keys.failure.is_empty
    assert (locked.name, locked.characteristic, locked.skills) == ("LOCKED DOOR", "DEX", ["Locks"])
    assert [(e.kind, e.amount) for e in single(locked.failure)] == [("pick", -1), ("time", 1)]
    assert parse(text).narrative == "or pick the lock"


@pytest.mark.parametrize(
    ("text", "name", "stat", "mod", "skills", "success", "failure"),
    [
        (
            "FEAR – Test: Int -15 [S: Attack as Normal] [F: Forfeit next attack] (Bravery)",
            "FEAR",
            "INT",
            -15,
            ["Bravery"],
            ["no_effect"],
            ["forfeit_attack"],
        ),
        (
            "SURPRISE – Test Int-10 [S: No Effect] [F: Monster has free attack, then start combat normally] (Aware)",
            "SURPRISE",
            "INT",
            -10,
            ["Aware"],
            ["no_effect"],
            ["free_attack", "narrative"],
        ),
        (
            "DAZED – Test: STR-15 [S: No Effect] [F: Forfeit next attack, No Escape, cannot use belt slots] (Dodge)",
            "DAZED",
            "STR",
            -15,
            ["Dodge"],
            ["no_effect"],
            ["forfeit_attack", "no_escape", "no_belt"],
        ),
        (
            "AVOID WEB – Test: Dex +20 [S: Attack as Normal] [F: Forfeit next attack, No Escape] (Dodge)",
            "AVOID WEB",
            "DEX",
            20,
            ["Dodge"],
            ["no_effect"],
            ["forfeit_attack", "no_escape"],
        ),
        (
            "ESCAPE COMBAT – Test: Dex -10 [S:Remove Monster] [F:-2 HP] (Escape)",
            "ESCAPE COMBAT",
            "DEX",
            -10,
            ["Escape"],
            ["remove_monster"],
            ["hp"],
        ),
        (
            "BLOCK ESCAPE – Test: STR-10 [S:Start Combat at Step 3] [F:Remove Monster] (Escape)",
            "BLOCK ESCAPE",
            "STR",
            -10,
            ["Escape"],
            ["narrative"],
            ["remove_monster"],
        ),
        (
            "AVOID FIRE – Test: Dex -5 [S: No Effect] [F:-2HP] (Dodge)",
            "AVOID FIRE",
            "DEX",
            -5,
            ["Dodge"],
            ["no_effect"],
            ["hp"],
        ),
        (
            "AVOID FREEZE – Test: Dex [S: No Effect] [F: -1HP, -2 DEF Next Combat Round] (Dodge).",
            "AVOID FREEZE",
            "DEX",
            0,
            ["Dodge"],
            ["no_effect"],
            ["hp", "def"],
        ),
        (
            "CAST SPELL – Test: INT (+/- Spell Bonus) [S:Cast] [F: Roll on TABLE C - CURSES] (Magic)",
            "CAST SPELL",
            "INT",
            0,
            ["Magic"],
            ["cast"],
            ["roll_table"],
        ),
    ],
)
def test_rulebook_tests(text, name, stat, mod, skills, success, failure):
    test = only_test(text)
    assert (test.name, test.characteristic, test.modifier, test.skills) == (name, stat, mod, skills)
    assert kinds(test.success) == [success]
    assert kinds(test.failure) == [failure]
    assert test.text == text.rstrip(".")


def test_block_escape_success_keeps_its_text():
    test = only_test("BLOCK ESCAPE – Test: STR-10 [S:Start Combat at Step 3] [F:Remove Monster] (Escape)")
    assert single(test.success)[0].text == "Start Combat at Step 3"


def test_cast_spell_bonus_note_and_curse_table():
    test = only_test("CAST SPELL – Test: INT (+/- Spell Bonus) [S:Cast] [F: Roll on TABLE C - CURSES] (Magic)")
    assert test.bonus_note == "+/- Spell Bonus"
    [curse] = single(test.failure)
    assert (curse.table, curse.times) == ("d100.C", 1)


def test_freeze_def_penalty_keeps_its_duration():
    test = only_test("AVOID FREEZE – Test: Dex [S: No Effect] [F: -1HP, -2 DEF Next Combat Round] (Dodge).")
    hp, defence = single(test.failure)
    assert (hp.amount, defence.amount, defence.note) == (-1, -2, "Next Combat Round")


# --------------------------------------------------------------------------- Table D and G as printed


@pytest.mark.parametrize(
    ("text", "name", "stat", "mod", "skills", "failure"),
    [
        (
            "To open test TRAP LOCKED DOOR – Test: Dex [S:Open] [F:-1 Pick, -1 hp, +1 ] (Locks,Traps)",
            "TRAP LOCKED DOOR",
            "DEX",
            0,
            ["Locks", "Traps"],
            [("pick", -1), ("hp", -1), ("time", 1)],
        ),
        (
            "To open test JAMMED DOOR – Test: Str [S: Open] [F:-1HP,+1] (Strong)",
            "JAMMED DOOR",
            "STR",
            0,
            ["Strong"],
            [("hp", -1), ("time", 1)],
        ),
        ("To open test TRAPPED DOOR – Test: Dex [S: Open] [F:-1HP] (Traps)", "TRAPPED DOOR", "DEX", 0, ["Traps"], [("hp", -1)]),
        (
            "Test - BALL TRAP – Test: Dex-5 [S: Avoid Trap] [F:Belt Check, -6 hp] (Traps,Aware,Lucky)",
            "BALL TRAP",
            "DEX",
            -5,
            ["Traps", "Aware", "Lucky"],
            [("belt_check", None), ("hp", -6)],
        ),
        (
            "Test - GAS TRAP - Dex [S: Spotted Trap] [F:-3 hp, +1 ] (Traps,Aware,Lucky)",
            "GAS TRAP",
            "DEX",
            0,
            ["Traps", "Aware", "Lucky"],
            [("hp", -3), ("time", 1)],
        ),
        (
            "Test - PIT TRAP – Test: Dex -5 [S:Spotted Trap] [F:Belt Check, -2 hp, +1 ] (Traps,Aware,Lucky)",
            "PIT TRAP",
            "DEX",
            -5,
            ["Traps", "Aware", "Lucky"],
            [("belt_check", None), ("hp", -2), ("time", 1)],
        ),
    ],
)
def test_door_and_trap_tests(text, name, stat, mod, skills, failure):
    test = only_test(text)
    assert (test.name, test.characteristic, test.modifier, test.skills) == (name, stat, mod, skills)
    assert [(e.kind, e.amount) for e in single(test.failure)] == failure
    assert single(test.success)[0].kind in ("open", "avoid")
    assert test.text == text  # the lead-in ("To open test", "Test -") belongs to the test


def test_spiked_pit_keeps_the_spikes_rule_as_text():
    text = (
        "Test - SPIKED PIT TRAP – Test: Dex [S: Spotted Trap] [F:Belt Check, -2 hp, roll SPIKES, +1 ] (Traps,Aware,Lucky)."
        " SPIKES – Roll 1d10, odds spikes missed, even spikes hit -2 HP."
    )
    result = parse(text)
    [test] = result.tests
    assert [e.kind for e in single(test.failure)] == ["belt_check", "hp", "narrative", "time"]
    assert single(test.failure)[2].text == "roll SPIKES"
    assert "SPIKES – Roll 1d10" in result.narrative


# --------------------------------------------------------------------------- characteristic and skill spelling


@pytest.mark.parametrize(
    ("header", "stat", "mod"),
    [
        ("Test: Dex-5", "DEX", -5),
        ("Test: STR-15", "STR", -15),
        ("Test: Dex -10", "DEX", -10),
        ("Test: Dex +20", "DEX", 20),
        ("Test: int", "INT", 0),
        ("Test: dEx – 5", "DEX", -5),
        ("Test Str", "STR", 0),
        ("Test: Strength -5", "STR", -5),
    ],
)
def test_characteristic_spellings(header, stat, mod):
    test = parse_test(f"X – {header} [S: Open] [F:-1 hp] (Locks)")
    assert test is not None
    assert (test.characteristic, test.modifier) == (stat, mod)


def test_skills_match_case_insensitively_and_tolerate_spaces():
    test = only_test("Test: Dex [S: Open] [F:-1 hp] ( locks ,TRAPS,  aware/Lucky and Strong)")
    assert test.skills == ["Locks", "Traps", "Aware", "Lucky", "Strong"]
    test = only_test("Test: Dex [S: Open] [F:-1 hp] (Locks, Swimming)")
    assert (test.skills, test.skill_notes) == (["Locks"], ["Swimming"])


def test_canonical_skill():
    assert [canonical_skill(w) for w in ("traps", " Trap ", "LOCK", "bravery", "strength", "")] == [
        "Traps",
        "Traps",
        "Locks",
        "Bravery",
        None,
        None,
    ]
    assert notation.SKILLS == ("Agility", "Aware", "Bravery", "Dodge", "Escape", "Locks", "Lucky", "Magic", "Strong", "Traps")


def test_brackets_without_a_test_line_still_make_a_test():
    test = only_test("[S: +5 gp] [F: -1 hp]")
    assert (test.characteristic, test.name) == ("", "")
    assert kinds(test.success) == [["gp"]] and kinds(test.failure) == [["hp"]]


def test_a_test_line_without_outcomes():
    test = parse_test('The game writes "Test: Str -5" for a test')
    assert test is not None
    assert (test.characteristic, test.modifier) == ("STR", -5)
    assert test.success.is_empty and test.failure.is_empty


def test_no_test_in_plain_text():
    assert parse_test("The door is open") is None
    assert parse_test("test your strength") is None
    assert parse("+5 Dex for your next dice roll").tests == []


# --------------------------------------------------------------------------- fail costs, rewards, loot, time


@pytest.mark.parametrize(
    ("text", "kind", "amount", "stat"),
    [
        ("- ½ gp", "gp_half", None, ""),
        ("-½ gp", "gp_half", None, ""),
        ("-5 Skill", "skill", -5, ""),
        ("-10 Skill", "skill", -10, ""),
        ("-1 CHA", "characteristic", -1, "CHA"),
        ("-1 REP", "rep", -1, ""),
        ("50gp", "gp", 50, ""),
        ("80gp", "gp", 80, ""),
        ("+1 REP", "rep", 1, ""),
        ("-3 Pips", "investment_pip", -3, ""),
        ("-1 Share", "investment_share", -1, ""),
        ("No Gain", "no_effect", None, ""),
        ("+5 Locks", "skill", 5, ""),
        ("-5 STR", "characteristic", -5, "STR"),
        ("-2 DMG", "dmg", -2, ""),
        ("+1 DEF", "def", 1, ""),
    ],
)
def test_costs_and_rewards(text, kind, amount, stat):
    effect = one_effect(text)
    assert (effect.kind, effect.amount, effect.stat) == (kind, amount, stat)
    assert effect.text == text


def test_named_and_chosen_skill():
    assert one_effect("+5 Locks").target == "Locks"
    assert one_effect("-5 Skill").target == ""


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("[K:Table P +10]", [("d100.P", 10)]),
        ("[K:Table P]", [("d100.P", 0)]),
        ("[K: Table TA / Table W -5]", [("d100.TA", 0), ("d100.W", -5)]),
        ("Table P +10", [("d100.P", 10)]),
    ],
)
def test_loot(text, options):
    loot = parse_loot(text)
    assert loot is not None
    assert [(o.table, o.modifier) for o in loot.options] == options


def test_loot_in_a_field_and_no_loot():
    result = parse("[K:Table P +10]")
    assert [(o.table, o.modifier) for o in result.loot[0].options] == [("d100.P", 10)]
    assert result.tests == [] and result.effects.is_empty
    assert parse_loot("Disease, Pack") is None
    assert parse_loot("[K:]") is not None and parse_loot("[K:]").options == []


@pytest.mark.parametrize(("text", "clocks"), [("+2", 2), ("+1", 1), (" +1 ", 1), ("[+3]", 3), ("+12", 12)])
def test_bare_number_is_time(text, clocks):
    [effect] = single(parse(text).effects)
    assert (effect.kind, effect.amount) == ("time", clocks)


def test_negative_bare_number_is_not_time():
    assert one_effect("-2").kind == "narrative"


@pytest.mark.parametrize(
    ("text", "stat", "amount"),
    [
        ("add +5 STR to the Time Track.", "STR", 5),
        ("add +5 DEX to the Time Track.", "DEX", 5),
        ("add +5 INT to the Time Track.", "INT", 5),
        ("add +1 DEF to the time track.", "DEF", 1),
        ("add +1 DMG to the time track.", "DMG", 1),
    ],
)
def test_time_track_bonus(text, stat, amount):
    [effect] = single(parse(text).effects)
    assert (effect.kind, effect.stat, effect.amount) == ("time_track_bonus", stat, amount)


@pytest.mark.parametrize(
    ("text", "kind", "amount"),
    [
        ("(Shade in 1 Key Pip)", "key", 1),
        ("WORN KEY: You find a worn Key (Shade in 1 Key Pip)", "key", 1),
        ("(+1 Food)", "food", 1),
        ("(+1 Pick)", "pick", 1),
        ("(+1 Oil)", "oil", 1),
        ("(Add one Objective)", "objective", 1),
        ("Remove 1 lever pip", "lever", -1),
        ("shade in two pip of your Poison track.", "poison", 2),
        ("shade in 2 pips of your Disease Track.", "disease", 2),
        ("Remove up to 3 shaded Disease pips from your character sheet.", "disease", -3),
        ("restore up to 3 lost HP.", "hp", 3),
        ("Restores 10 lost HP.", "hp", 10),
        ("suffer -4 to your primary HP.", "hp_primary", -4),
        ("Shade in 4 pips of all of your Equipped and Backpacked items that have a Repair Track.", "repair_pips", 4),
        ("make a belt check.", "belt_check", None),
        ("Gain +1 Reputation", "rep", 1),
        ("Gain +1 Fate point", "fate", 1),
        ("Gain +1 Lives", "life", 1),
        ("Gain 50 gp", "gp", 50),
        ("Shade any 1 Skill Pip", "xp", 1),
        ("Opens magic sealed doors.", "open", None),
        ("The door is open", "open", None),
        ("Deal 2 HP of damage to a Monster at the start of the next combat round.", "narrative", None),
    ],
)
def test_item_and_table_phrases(text, kind, amount):
    effect = one_effect(text)
    assert (effect.kind, effect.amount) == (kind, amount)


@pytest.mark.parametrize(
    ("text", "table", "times", "die", "modifier"),
    [
        ("roll x1 Table TA", "d100.TA", 1, "", 0),
        ("Roll on TABLE C - CURSES", "d100.C", 1, "", 0),
        ("Roll on TABLE I – ITEM to see what has magically appeared.", "d100.I", 1, "", 0),
        ("roll 1d10 on TABLE G.", "d100.G", 1, "1d10", 0),
        ("roll twice on Table A", "d100.A", 2, "", 0),
        ("roll x2 Table P +10", "d100.P", 2, "", 10),
        ("Table W", "d100.W", 1, "", 0),
    ],
)
def test_roll_on_table(text, table, times, die, modifier):
    effect = one_effect(text)
    assert (effect.kind, effect.table, effect.times, effect.die, effect.modifier) == ("roll_table", table, times, die, modifier)


def test_table_ids():
    assert [table_id(x) for x in ("TA", "c", " P ")] == ["d100.TA", "d100.C", "d100.P"]


def test_curse_rows():
    wrath = single(parse_effects("Reduce your HP to 1, FATE points to 0, and lose 2 LIVES or if you do not have the lives"))
    assert [e.kind for e in wrath] == ["narrative", "narrative", "life"]
    assert wrath[2].amount == -2
    unskilled = single(
        parse_effects(
            "Roll d10 for a skill and suffer -10 from its bonus, if the skill does not have enough instead suffer -7HP."
        )
    )
    assert [(e.kind, e.amount) for e in unskilled] == [("skill", -10), ("hp", -7)]
    clueless = one_effect("-4 INT to your primary characteristic.")
    assert (clueless.kind, clueless.stat, clueless.amount) == ("characteristic", "INT", -4)
    still = parse("cannot move [+3].")
    assert [e.kind for e in single(still.effects)] == ["narrative", "time"]


def test_find_rows():
    monster = single(parse_effects("roll on TABLE E – ENCOUNTER and fight, it has SURPRISE."))
    assert [e.kind for e in monster] == ["roll_table", "narrative"]
    assert monster[0].table == "d100.E"
    assert monster[1].text == "it has SURPRISE"


# --------------------------------------------------------------------------- whole fields


def test_top_level_effects_combine_independent_choices():
    result = parse("+5 gp/Table I [+1]")
    assert kinds(result.effects) == [["gp", "time"], ["roll_table", "time"]]


def test_slash_between_digits_is_not_a_choice():
    assert len(parse_effects("HP:3/2/2").options) == 1
    assert len(parse_effects("-1 pip/-1 share").options) == 2


def test_unknown_text_is_narrative_and_kept():
    text = "Somewhere in the dungeon, a door grinds open; the air smells of rain."
    result = parse(text)
    assert result.text == text
    assert result.tests == [] and result.loot == []
    effects = single(result.effects)
    assert all(e.kind == "narrative" for e in effects)
    assert [e.text for e in effects] == ["Somewhere in the dungeon", "a door grinds open", "the air smells of rain"]
    assert result.narrative == "Somewhere in the dungeon a door grinds open the air smells of rain"
    assert not result.has_mechanics
    assert parse("+1 Food").has_mechanics


@pytest.mark.parametrize("value", ["", "   ", None, 12, "[", "]", "[S:", "(", "Test:", "[K:", "/", "½"])
def test_odd_input_never_raises(value):
    result = parse(value)
    assert isinstance(result, Notation)
    assert isinstance(parse_effects(value), Outcome)
    parse_test(value)
    parse_loot(value)
    if isinstance(value, str):
        assert result.text == value


def test_an_internal_error_becomes_one_narrative_effect(monkeypatch):
    def broken(_text):
        raise RuntimeError("bug")

    monkeypatch.setattr(notation, "_parse", broken)
    monkeypatch.setattr(notation, "_parse_outcome", broken)
    result = parse(HARRY)
    assert result.text == HARRY
    assert result.tests == []
    [effect] = single(result.effects)
    assert (effect.kind, effect.text) == ("narrative", HARRY)
    assert result.narrative == HARRY
    assert parse_test(HARRY) is None
    [effect] = single(parse_effects("-10 hp"))
    assert (effect.kind, effect.text) == ("narrative", "-10 hp")


def test_round_trips_through_json():
    for text in (HARRY, SNAKE_PIT, LEVER_DOOR, "+2", "[K:Table P +10]"):
        result = parse(text)
        again = Notation.model_validate_json(result.model_dump_json())
        assert again == result
        assert again.all_tests() == result.all_tests()


# --------------------------------------------------------------------------- describe()


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("+30 gp", "Gain 30 gp"),
        ("-10 hp", "Lose 10 HP"),
        ("restore up to 3 lost HP.", "Restore up to 3 HP"),
        ("- ½ gp", "Lose half your gold (rounded up)"),
        ("-1 CHA", "-1 to a characteristic of your choice"),
        ("-5 Skill", "-5 to a skill of your choice"),
        ("-1 Str", "-1 STR"),
        ("roll x1 Table TA", "Roll once on Table TA"),
        ("Table P +10", "Roll once on Table P +10"),
        ("Roll on TABLE C - CURSES", "Roll once on Table C (Curses)"),
        ("roll 1d10 on TABLE G.", "Roll 1d10 on Table G"),
        ("encounter GIANT SNAKE", "Encounter GIANT SNAKE"),
        ("+1", "+1 time (1 clock on the time track)"),
        ("Belt Check", "Make a Belt Check"),
        ("Remove 1 lever pip", "Remove 1 Lever pip"),
        ("Forfeit next attack", "Forfeit your next attack"),
        ("Spotted Trap", "Spotted Trap"),
        ("-2 DEF Next Combat Round", "-2 DEF (Next Combat Round)"),
        ("add +5 STR to the Time Track.", "+5 STR on the time track (until it is refreshed)"),
        ("a door grinds open", "a door grinds open"),
    ],
)
def test_describe(text, line):
    assert one_effect(text).describe() == line


def test_test_and_loot_describe():
    assert only_test(HARRY).describe() == "Test TRAPPED CHEST: DEX -10 (Locks, Traps)"
    assert only_test(LEVER_DOOR).label() == "d10 ≤ levers"
    assert parse_loot("[K:Table P +10]").describe() == "Loot: roll on Table P +10"


# --------------------------------------------------------------------------- every bundled pack

_S_MARK = re.compile(r"\[\s*S\s*:")
_TEST_LINE = re.compile(r"\btest\b\s*[:\-–—]?\s*(?:[A-Z][A-Z' ]+\s*[-–—]\s*)?(?:str|dex|int)\b", re.I)


def is_test_bearing(text: str) -> bool:
    """A field the notation says holds a test: ``[S:`` or ``Test: Dex`` / ``Test - NAME - Dex``."""
    return bool(_S_MARK.search(text) or _TEST_LINE.search(text))


def effect_fields_of_pack(pack: Pack) -> list[tuple[str, str, str, str]]:
    return [(t.id, row.range_label(), key, text) for t in pack.tables for row, key, text in t.effect_texts()]


def effect_fields_of_json(data: object) -> list[tuple[str, str, str, str]]:
    """The same walk over raw JSON, for a pack another engineer has not finished yet."""
    found = []
    tables = data.get("tables", []) if isinstance(data, dict) else []
    for t in tables if isinstance(tables, list) else []:
        if not isinstance(t, dict):
            continue
        keys = [c.get("key") for c in t.get("columns", []) if isinstance(c, dict) and c.get("effect") is True]
        for index, row in enumerate(t.get("rows", []) if isinstance(t.get("rows"), list) else []):
            fields = row.get("fields", {}) if isinstance(row, dict) else {}
            for key in keys:
                text = fields.get(key) if isinstance(fields, dict) else None
                if isinstance(text, str) and text:
                    found.append((str(t.get("id")), f"#{index + 1}", str(key), text))
    return found


def check_fields(fields: list[tuple[str, str, str, str]]) -> int:
    """Parse every field; assert nothing raises, text is kept and tests are found. Returns the test count."""
    problems = []
    tests = 0
    for table, row, key, text in fields:
        try:
            result = parse(text)
        except Exception as exc:  # parse must never raise: report which field did
            problems.append(f"{table} {row} {key}: raised {exc!r}")
            continue
        if result.text != text:
            problems.append(f"{table} {row} {key}: text not kept")
        found = result.all_tests()
        tests += len(found)
        if is_test_bearing(text) and not result.tests:
            problems.append(f"{table} {row} {key}: no test found in {text!r}")
        if len(found) < len(_S_MARK.findall(text)):
            problems.append(f"{table} {row} {key}: {len(found)} tests for {len(_S_MARK.findall(text))} [S:] in {text!r}")
    assert not problems, "\n".join(problems)
    return tests


def pack_fields(path: Path) -> list[tuple[str, str, str, str]]:
    try:
        return effect_fields_of_pack(read_pack_file(path))
    except PackInvalid:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            pytest.skip(f"{path.name} is not readable JSON yet ({exc})")
        return effect_fields_of_json(data)


@pytest.mark.parametrize("path", bundled_pack_files(), ids=lambda p: p.name)
def test_every_effect_field_of_every_bundled_pack(path):
    check_fields(pack_fields(path))


def test_the_d100_pack_tests_are_found():
    """Table D, G and the rest carry tests; when the d100 pack exists they must all be read."""
    path = next((p for p in bundled_pack_files() if p.name == "d100-dungeon.json"), None)
    if path is None:
        pytest.skip("the d100 pack has not landed yet")
    fields = pack_fields(path)
    bearing = [f for f in fields if is_test_bearing(f[3])]
    assert bearing, "the d100 pack marks no test-bearing effect field"
    assert check_fields(bearing) >= len(bearing)


def test_walker_on_an_in_memory_pack():
    """The walk itself, on rows as printed, whatever packs exist on disk."""
    columns = [Column(key="name", label="Name"), Column(key="effect", label="Effect", effect=True)]
    texts = [
        "The door is open",
        LEVER_DOOR,
        "To open test JAMMED DOOR – Test: Str [S: Open] [F:-1HP,+1] (Strong)",
        SNAKE_PIT,
        "[K:Table P]",
        "+2",
        "add +5 STR to the Time Track.",
    ]
    rows = [Row(range=(i + 1, i + 1), fields={"name": f"row {i}", "effect": t}) for i, t in enumerate(texts)]
    pack = Pack(id="memory", title="In memory", tables=[Table(id="memory.D", title="Doors", columns=columns, rows=rows)])
    fields = effect_fields_of_pack(pack)
    assert len(fields) == len(texts)
    assert check_fields(fields) == 4  # lever + nested jammed, jammed, snake pit
    assert effect_fields_of_json(json.loads(pack.model_dump_json())) == [(t, f"#{int(r)}", k, x) for t, r, k, x in fields]
    with pytest.raises(AssertionError, match="no test found"):
        check_fields([("x", "1", "effect", "Test: foo bar - Dex [T: wrong bracket]")])
