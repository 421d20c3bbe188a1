"""Complete swords and the ego contest, with scripted dice."""

from __future__ import annotations

import pytest
from classic_script import pct

from d100gui.engine.toolbox.classic.swords import complete_sword, ego_contest
from d100gui.engine.toolbox.inputs import ToolInputError


def test_take_two_rolls_ignore_the_scores_the_text_says_and_doubles_are_double_strength(scripted):
    s = scripted(
        *pct(1, 10),  # Sword +1, Lawful
        8,  # Intelligence 8: two primary powers, empathy (both rolled, then each followed)
        *pct(96, 3),  # take two rolls ignoring scores over 95 except 00; Note Shifting Walls & Rooms
        *pct(97, 5),  # the two rolls: 97 ignored; Note Shifting Walls & Rooms again
        *pct(100),  # a score of 00 is kept: roll on the extraordinary table instead
        *pct(98),  # take two rolls ignoring scores over 97
        *pct(99, 1, 10),  # 99 ignored; Clairaudience twice
        9,  # Egoism 9
        *pct(90),  # origin/purpose: under 91, no special purpose
    )
    sword = complete_sword(s.roller)
    assert s.source.remaining == 0
    assert sword.name == "Sword +1" and sword.alignment.text == "Sword is Lawful"
    assert sword.intelligence_score == 8 and sword.communication == "Empathy" and sword.egoism_score == 9
    assert [(p.name, p.kind, p.times, p.strength) for p in sword.powers] == [
        ("Note Shifting Walls & Rooms", "primary", 2, "double strength"),
        ("Clairaudience", "extraordinary", 2, "double strength"),
    ]
    assert sword.extraordinary == 2
    assert not any("Take" in p.name for p in sword.powers)  # the "take two rolls" rows are never powers
    text = sword.describe()
    assert "Note Shifting Walls & Rooms (double strength)" in text and "Egoism 9" in text


def test_languages_take_two_rolls_ignoring_00_and_add_up(scripted):
    s = scripted(*pct(1, 10), 10, *pct(20, 35, 45), *pct(100, 100, 60, 90), 4, *pct(1))
    sword = complete_sword(s.roller)
    assert s.source.remaining == 0
    assert [p.name for p in sword.powers] == ["Detect Sloping Passages", "Locate Secret Doors", "Detect Traps"]
    assert [r.text for r in sword.language_rolls] == ["Two", "Four"]
    assert [r.final for r in sword.language_rolls[0].ignored] == [100]
    assert sword.languages == 6 and sword.communication == "Speech" and not sword.reads_magic


def test_the_energy_draining_sword_reads_alignment_reversed_and_a_dull_sword_has_no_egoism(scripted):
    s = scripted(*pct(83, 5), 3, *pct(50))
    sword = complete_sword(s.roller)
    assert s.source.remaining == 0
    assert sword.alignment.reversed and sword.alignment.text == "Sword is Lawful"  # reversed: Lawful is 01-10 (issue 22)
    assert sword.powers == [] and sword.egoism is None
    with pytest.raises(ToolInputError, match="only swords of 7 or more have an Egoism"):
        ego_contest(s.roller.dice, sword, 10, 10)


def test_a_wishing_sword_rolls_its_wishes(scripted):
    s = scripted(*pct(66), 3, 4, *pct(50), 2, *pct(1))
    sword = complete_sword(s.roller)
    assert [d.value for d in sword.item.dice] == [7]  # 2-8 Wishes is 2d4
    assert "Wishes: 7" in sword.describe()


@pytest.fixture
def ego_sword(scripted):
    s = scripted(*pct(1, 10), 7, *pct(100, 5), 9, *pct(1))  # one power: 00 sends it to the extraordinary table (Clairaudience)
    sword = complete_sword(s.roller)
    assert sword.egoism_score == 9 and sword.extraordinary == 1
    return sword  # score 7 + 9 + 1 = 17


def test_ego_contest_bands(ego_sword, scripted):
    far = ego_contest(scripted().roller.dice, ego_sword, 15, 15)  # 30 against 17: no roll
    assert (far.difference, far.roll, far.winner) == (13, None, "wielder")
    s = scripted(*pct(75))
    near = ego_contest(s.roller.dice, ego_sword, 10, 10)  # 20 against 17: the higher on 75%
    assert (near.difference, near.chance, near.winner) == (3, 75, "wielder")
    s = scripted(*pct(76))
    assert ego_contest(s.roller.dice, ego_sword, 10, 10).winner == "sword"
    s = scripted(*pct(50))
    even = ego_contest(s.roller.dice, ego_sword, 9, 9, condition=-1)  # 17 against 17: either way
    assert (even.difference, even.chance, even.winner) == (0, 50, "sword")
    assert "the sword prevails" in even.describe()


def test_ego_contest_refuses_inputs_out_of_range(ego_sword, scripted):
    with pytest.raises(ToolInputError, match="Wielder's Intelligence must be 3 to 18; 2 is out of range"):
        ego_contest(scripted().roller.dice, ego_sword, 2, 10)
    with pytest.raises(ToolInputError, match="Wielder's Strength must be 3 to 18; 19 is out of range"):
        ego_contest(scripted().roller.dice, ego_sword, 10, 19)


def test_a_purpose_sword_tops_intelligence_and_egoism_and_gains_its_alignment_s_ability(scripted):
    # Sword +1, Chaotic (95); Intelligence 3 (no powers, no egoism); purpose 91: Slay Clerics (d6 4);
    # the top intelligence's powers (issue 22): 3 primary, languages, one extraordinary ability (Clairaudience)
    s = scripted(*pct(1, 95), 3, *pct(91), 4, *pct(1, 16, 31), *pct(1), *pct(1), *pct(75))
    sword = complete_sword(s.roller)
    assert s.source.remaining == 2  # the ego contest's roll
    assert sword.purpose is not None and sword.purpose.text == "Slay Clerics"
    assert sword.purpose_ability == "The ability to disintegrate Lawful opponents"
    assert sword.intelligence_score == 12 and sword.egoism_score == 12 and sword.has_egoism and sword.egoism is None
    assert "special purpose: Slay Clerics" in sword.describe() and "Egoism 12" in sword.describe()
    contest = ego_contest(s.roller.dice, sword, 10, 10)  # 12 + 12 + 1 extraordinary = 25 against 20: a roll on 75%
    assert contest.sword_score == 25 and contest.chance == 75 and contest.winner == "sword"


def test_ninety_is_no_purpose(scripted):
    s = scripted(*pct(1, 10), 3, *pct(90))
    sword = complete_sword(s.roller)
    assert sword.purpose is None and sword.purpose_roll is not None and sword.purpose_roll.value == 90


def test_the_wielder_s_state_is_a_die_added_or_taken_off(scripted, ego_sword):
    s = scripted(4)  # fresh: +4 -> 10 + 10 + 4 = 24 against the sword's 17: no roll needed
    contest = ego_contest(s.roller.dice, ego_sword, 10, 10, state="fresh")
    assert contest.wielder_score == 24 and contest.winner == "wielder" and contest.roll is None
    assert "fresh: +4" in contest.describe()
    s = scripted(3, 4, *pct(80))  # badly hurt: -(3+4) -> 13 against 17: 75% for the sword, 80 fails it
    contest = ego_contest(s.roller.dice, ego_sword, 10, 10, state="badly_hurt")
    assert contest.wielder_score == 13 and contest.chance == 75 and contest.winner == "wielder"


def test_the_continuing_relationship_is_egoism_against_level(scripted, ego_sword):
    from d100gui.engine.toolbox.classic.swords import continuing_ego

    contest = continuing_ego(scripted().roller.dice, ego_sword, 3)  # 9 against 3: the sword always prevails
    assert contest.continuing and contest.winner == "sword" and contest.roll is None
    with pytest.raises(ToolInputError, match="Wielder's level must be 1 to 36; 0 is out of range"):
        continuing_ego(scripted().roller.dice, ego_sword, 0)
