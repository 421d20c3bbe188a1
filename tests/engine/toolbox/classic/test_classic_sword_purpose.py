"""Special-purpose swords get the top intelligence's powers; the draining sword's alignment odds reversed;
a Chaotic sword's bonus against the creatures in parentheses (issue 22)."""

from __future__ import annotations

from collections import Counter

import pytest
from classic_script import pct

from d100gui.engine.dice.dice import Dice, RandomSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.toolbox.classic.swords import complete_sword, ego_contest


def test_a_special_purpose_sword_gains_the_powers_of_intelligence_12(scripted):
    s = scripted(
        *pct(1, 10),  # Sword +1, Lawful
        8,  # Intelligence 8: two primary powers, empathy
        *pct(20, 35),  # Detect Sloping Passages, Locate Secret Doors
        9,  # Egoism 9
        *pct(95),  # special purpose
        1,  # Slay Magic-Users
        *pct(45),  # the third primary power of the top row: Detect Traps
        *pct(60),  # languages: Two
        *pct(25),  # the extraordinary ability: ESP
    )
    sword = complete_sword(s.roller)
    assert s.source.remaining == 0
    assert sword.intelligence_score == 12 and sword.egoism_score == 12
    assert sword.communication == "Telepathy" and sword.reads_magic and sword.languages == 2
    assert [p.name for p in sword.powers] == ["Detect Sloping Passages", "Locate Secret Doors", "Detect Traps", "ESP"]
    assert sword.extraordinary == 1
    text = sword.describe()
    assert "Intelligence 12 (Telepathy)" in text and "2 language(s)" in text and "reads magic" in text
    contest = ego_contest(s.roller.dice, sword, 18, 18)  # 12 + 12 + 1 extraordinary = 25 against 36: no roll
    assert contest.sword_score == 25


def test_a_purpose_sword_rolled_at_12_rolls_nothing_more(scripted):
    s = scripted(*pct(1, 10), 12, *pct(20, 35, 45), *pct(10), *pct(50), 7, *pct(99), 6)
    sword = complete_sword(s.roller)
    assert s.source.remaining == 0
    assert sword.purpose is not None and sword.purpose.text == "Defeat Chaos" and len(sword.powers) == 4


def test_a_dull_purpose_sword_gains_every_power_of_the_top_row(scripted):
    s = scripted(*pct(1, 10), 3, *pct(91), 5, *pct(1, 16, 31), *pct(1), *pct(1))
    sword = complete_sword(s.roller)
    assert s.source.remaining == 0
    assert sword.egoism is None and sword.egoism_score == 12 and sword.has_egoism
    assert len([p for p in sword.powers if p.kind == "primary"]) == 3 and sword.extraordinary == 1
    assert sword.languages == 1 and sword.communication == "Telepathy"


def test_the_draining_sword_is_lawful_on_10_and_chaotic_on_65(scripted):
    for roll, alignment in ((10, "Lawful"), (11, "Neutral"), (35, "Neutral"), (36, "Chaotic"), (100, "Chaotic")):
        s = scripted(*pct(83, roll), 3, *pct(1))
        assert complete_sword(s.roller).alignment_name == alignment, roll


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_seeded_draining_swords_keep_the_reversed_odds(bundled_library):
    roller = TableRoller(bundled_library, Dice(RandomSource(22)), MissingRowPolicy.ASK)
    runs = 2000
    counts = Counter(complete_sword(roller, roller.read("classic.swords", 83)).alignment_name for _ in range(runs))
    # 10 / 25 / 65 %: 4 standard errors at 2,000 runs are about 2.7, 3.9 and 4.3 points
    assert 0.06 * runs <= counts["Lawful"] <= 0.14 * runs
    assert 0.20 * runs <= counts["Neutral"] <= 0.30 * runs
    assert 0.60 * runs <= counts["Chaotic"] <= 0.70 * runs


def test_a_chaotic_sword_is_against_the_creatures_in_parentheses(scripted):
    lawful = complete_sword(scripted(*pct(55, 10), 3, *pct(1)).roller)
    chaotic = complete_sword(scripted(*pct(55, 95), 3, *pct(1)).roller)
    assert lawful.foes == "Trolls" and chaotic.foes == "Clerics"
    assert "its bonus is against Clerics (Chaotic: the creatures in parentheses)" in chaotic.describe()
    flaming = complete_sword(scripted(*pct(62, 95), 3, *pct(1)).roller)
    assert flaming.foes == "Pegasi, Hippogriffs, + Rocs"
    assert complete_sword(scripted(*pct(1, 95), 3, *pct(1)).roller).foes == ""  # no foes named: nothing to swap


def test_the_ego_bands_come_from_the_influence_table(bundled_library):
    from d100gui.engine.toolbox.classic.swords import INFLUENCE_TABLE, TEXT_BANDS, _chance, influence_bands

    table = bundled_library.get(INFLUENCE_TABLE)
    assert influence_bands(table) == TEXT_BANDS == ((6, 100), (2, 75), (0, 50))
    assert [_chance(d, influence_bands(table)) for d in (0, 1, 2, 5, 6, 20)] == [50, 50, 75, 75, 100, 100]
    edited = table.model_copy(
        update={
            "rows": [
                r.model_copy(update={"fields": {"result": "60% chance the score prevail"}}) if r.key == "2-5" else r
                for r in table.rows
            ]
        }
    )
    assert _chance(3, influence_bands(edited)) == 60
