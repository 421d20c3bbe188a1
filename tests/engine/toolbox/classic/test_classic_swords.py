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
    s = scripted(*pct(1, 10), 10, *pct(20, 35, 45), *pct(100, 100, 60, 90), 4)
    sword = complete_sword(s.roller)
    assert s.source.remaining == 0
    assert [p.name for p in sword.powers] == ["Detect Sloping Passages", "Locate Secret Doors", "Detect Traps"]
    assert [r.text for r in sword.language_rolls] == ["Two", "Four"]
    assert [r.final for r in sword.language_rolls[0].ignored] == [100]
    assert sword.languages == 6 and sword.communication == "Speech" and not sword.reads_magic


def test_the_energy_draining_sword_reads_alignment_reversed_and_a_dull_sword_has_no_egoism(scripted):
    s = scripted(*pct(83, 5), 3)
    sword = complete_sword(s.roller)
    assert s.source.remaining == 0
    assert sword.alignment.reversed and sword.alignment.text == "Sword is Chaotic"  # 05 read as 96
    assert sword.powers == [] and sword.egoism is None
    with pytest.raises(ToolInputError, match="only swords of 7 or more have an Egoism"):
        ego_contest(s.roller.dice, sword, 10, 10)


def test_a_wishing_sword_rolls_its_wishes(scripted):
    s = scripted(*pct(66), 3, 4, *pct(50), 2)
    sword = complete_sword(s.roller)
    assert [d.value for d in sword.item.dice] == [7]  # 2-8 Wishes is 2d4
    assert "Wishes: 7" in sword.describe()


@pytest.fixture
def ego_sword(scripted):
    s = scripted(*pct(1, 10), 7, *pct(100, 5), 9)  # one power: 00 sends it to the extraordinary table (Clairaudience)
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
