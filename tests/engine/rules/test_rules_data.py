"""The rules as data: dice readings, characteristic texts, and the notation's vocabulary agreeing with the rules file."""

from __future__ import annotations

import pytest

from d100gui.engine.rules import notation
from d100gui.engine.rules.faces import chance_of, d10_reading
from d100gui.engine.rules.model import STATS
from d100gui.storage.resources import bundled_rules

RULES = bundled_rules()


@pytest.mark.parametrize(("face", "reads"), [(0, 10), (1, 1), (9, 9), (10, 10)])
def test_a_lone_d10_reads_0_as_10(face, reads):
    assert d10_reading(face) == reads


@pytest.mark.parametrize(
    ("target", "die", "chance"),
    [(70, "d100", 70), (130, "d100", 100), (-5, "d100", 0), (3, "d10", 30), (12, "d10", 100), (0, "d10", 0)],
)
def test_chance_of_rolling_a_target_or_under(target, die, chance):
    assert chance_of(target, die) == chance


def test_characteristic_summaries_name_the_ability_from_the_rules():
    assert RULES.characteristic_summary("STR").startswith("Strength: ")
    assert RULES.characteristic_summary("INT").endswith("At 50 it unlocks Spell Caster.")
    raised = RULES.model_copy(update={"abilities": [a.model_copy(update={"threshold": 60}) for a in RULES.abilities]})
    assert raised.characteristic_summary("DEX").endswith("At 60 it unlocks Perfect Aim.")
    assert set(RULES.characteristic_summaries) == set(RULES.characteristics)


def test_the_notation_reads_the_skills_and_characteristics_the_rules_list():
    """The effect notation compiles its patterns from its own word lists: they must be the rules file's."""
    assert list(notation.SKILLS) == RULES.skills
    assert tuple(RULES.characteristics) == STATS
    assert {s: RULES.characteristic_names[s] for s in STATS} == {"STR": "Strength", "DEX": "Dexterity", "INT": "Intelligence"}
