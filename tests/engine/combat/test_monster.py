"""Monsters read from Table E, from printed stat lines, from Table G's GIANT SNAKE, or typed in."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from d100gui.engine.combat.monster import (
    ABILITY_NAMES,
    Monster,
    giant_snake,
    monster_from_row,
    monster_from_text,
    parse_abilities,
    parse_hp,
    split_name_type,
    typed_monster,
)
from d100gui.engine.dice.tables import Row


def test_giant_rats_from_table_e(bundled_library):
    rats = monster_from_row(bundled_library.get("d100.E").find(1))
    assert (rats.name, rats.type, rats.av, rats.defence, rats.dmg) == ("Giant Rats", "C", 25, 0, -2)
    assert rats.hp == [3, 2, 2] and rats.max_hp == 7 and rats.members == 3
    assert [a.id for a in rats.abilities] == ["disease", "pack"]
    assert rats.loot is not None and rats.loot.options[0].table == "d100.P" and rats.loot.options[0].modifier == 0
    assert rats.source == "d100.E 1-10" and rats.notes == []
    assert rats.describe() == "GIANT RATS [C] AV:25 DEF:0 HP:3/2/2 DMG:-2 [K:Table P] (Disease, Pack)"


def test_giant_bats_and_the_cut_short_ants(bundled_library):
    table = bundled_library.get("d100.E")
    bats = monster_from_row(table.find(15))
    assert [a.id for a in bats.abilities] == ["fly", "surprise", "pack"] and bats.dmg == -3 and bats.hp == [2, 3, 3]
    ants = monster_from_row(table.find(23))
    assert ants.abilities == [] and ants.hp == [3, 2, 3, 3] and ants.defence == 2
    assert ants.notes and "not printed in this excerpt" in ants.notes[0]


def test_giant_snake_from_table_g(bundled_library):
    snake = giant_snake(bundled_library)
    assert (snake.name, snake.av, snake.defence, snake.hp, snake.dmg) == ("Giant Snake", 55, 3, [16], 2)
    assert [a.id for a in snake.abilities] == ["poison"]
    assert snake.loot is not None and (snake.loot.options[0].table, snake.loot.options[0].modifier) == ("d100.P", 10)
    assert snake.source == "d100.G 4"


def test_the_monster_characteristics_line():
    rats = monster_from_text("GIANT RATS [C] AV:25 DEF:0 HP:3/2/2 DMG: -2 [K:Table P] (Disease, Pack)")
    assert (rats.name, rats.type, rats.av, rats.dmg, rats.hp) == ("Giant Rats", "C", 25, -2, [3, 2, 2])
    assert [a.id for a in rats.abilities] == ["disease", "pack"]
    with pytest.raises(ValueError, match="needs at least AV and HP"):
        monster_from_text("A shadow moves in the dark.")


def test_ability_ratings_and_unknown_words():
    abilities, unknown = parse_abilities("Attacks 2, Fear, Dark Magic; Death Touch and Regenerates, Glows")
    assert [(a.id, a.rating) for a in abilities] == [
        ("attacks", 2),
        ("fear", None),
        ("dark_magic", None),
        ("death_touch", None),
        ("regenerate", None),
    ]
    assert unknown == ["Glows"]
    assert parse_abilities("—") == ([], []) and parse_abilities("") == ([], [])
    assert [a.name for a in abilities][:2] == ["Attacks 2", "Fear"]
    for text, rating in (("Attacks x3", 3), ("Attacks (4)", 4), ("2 Attacks", 2)):
        [a], rest = parse_abilities(text)
        assert (a.id, a.rating, rest) == ("attacks", rating, [])


def test_every_monster_ability_is_recognised():
    text = ", ".join(ABILITY_NAMES.values())
    abilities, unknown = parse_abilities(text)
    assert [a.id for a in abilities] == list(ABILITY_NAMES) and unknown == []
    assert len(abilities) == 19


def test_attacks_rating_defaults():
    assert typed_monster("Hydra", av=40, hp=10, special="Attacks 3").attacks == 3
    assert typed_monster("Orc", av=40, hp=10, special="Attacks").attacks == 1
    assert typed_monster("Orc", av=40, hp=10).attacks == 1


def test_typed_monster_and_hp_parsing():
    m = typed_monster("Skeletons", av=35, hp="4/4", defence=1, dmg=1, loot="[K:Table P/Table TA]", special="Tough", type="UD")
    assert m.hp == [4, 4] and m.type == "UD" and m.has("tough") and not m.has("pack")
    assert m.loot is not None and [o.table for o in m.loot.options] == ["d100.P", "d100.TA"]
    assert m.rating("tough", 7) == 7
    assert parse_hp(16) == [16] and parse_hp(" 3 / 2 ") == [3, 2] and parse_hp([5, 1]) == [5, 1]
    for bad in ("", "3/x", "0", "3//2"):
        with pytest.raises(ValueError):
            parse_hp(bad)
    with pytest.raises(ValidationError):
        Monster(name="Nothing", av=10, hp=[])
    with pytest.raises(ValidationError):
        Monster(name="Nothing", av=10, hp=[3, 0])


def test_name_and_type():
    assert split_name_type("Giant Rats (C)") == ("Giant Rats", "C")
    assert split_name_type("Lich [UD]") == ("Lich", "UD")
    assert split_name_type("Wanderer") == ("Wanderer", "")


def test_row_without_hp_or_av_is_refused():
    row = Row(range=(1, 1), fields={"monster": "Ghost (UD)", "av": "", "hp": "5"})
    with pytest.raises(ValueError, match="no AV printed"):
        monster_from_row(row)
    row = Row(range=(1, 1), fields={"monster": "Ghost (UD)", "av": "30", "hp": "?"})
    with pytest.raises(ValueError, match=r"Ghost\): HP must be"):
        monster_from_row(row)


def test_monster_round_trips_through_json():
    m = typed_monster("Hydra", av=40, hp="5/5", loot="[K:Table TA +5]", special="Attacks 2, Large, Regenerate")
    assert Monster.model_validate_json(m.model_dump_json()) == m
