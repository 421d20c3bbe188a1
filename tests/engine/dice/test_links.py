"""Links that say what the texts say, and a walk of every link of every classic table.

The walk rolls every classic table (in every column a link is chosen by) through to a final
result thousands of times with seeded dice: no link may dangle, no chain may loop, and no
result may be left with dice written in it that were not rolled (or marked as rolled when
the effect is used).
"""

from __future__ import annotations

import re

import pytest

from d100gui.engine.dice.dice import Dice, DiceError, RandomSource, ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy, RollTree, TableRoller
from d100gui.engine.dice.tables import Link, Pack, Row, Table, TableLibrary, check_links, check_table

# Dice written in a printed cell: "3d6", "3-30", "10,000 - 40,000"
_DICE_TEXT = re.compile(r"\b\d+d\d+\b|\b\d[\d,]*\s*-\s*\d[\d,]*\b")


def pct(*values: int) -> list[int]:
    """Scripted faces for d100 rolls: tens and units (00 is 100)."""
    return [face for v in values for face in ([0, 0] if v == 100 else [v // 10, v % 10])]


# Numbers there are faces of the check die and party sizes, not dice to roll.
DIE_FACE_TABLES = {
    "classic.wilderness_lost_encounter", "classic.wilderness_evasion", "classic.underworld_checks", "classic.castle_rules",
    "classic.stocking_rules", "classic.wilderness_rules", "classic.item_rules", "classic.pursuit", "classic.healing",
    "classic.dice", "classic.air_sea",  # the air and sea rules: their dice are the tools', read from the row
}  # fmt: skip


def classic(library: TableLibrary) -> list[Table]:
    return [t for t in library if t.id.startswith("classic.")]


def columns_read(table: Table) -> list[str]:
    """Every column some link of the table is chosen by, and "" (no column chosen)."""
    chosen = {col for row in table.rows for link in row.links for col in link.when}
    return ["", *sorted(chosen)]


def unrolled_dice(tree: RollTree) -> list[str]:
    """Dice text in results of the tree that no rolled (or rolled-later) dice account for."""
    left = []
    for node in tree.walk():
        roll = node.roll
        assert roll.row is not None, f"{roll.table_title}: roll {roll.value} found no row"
        if roll.table_id in DIE_FACE_TABLES:
            continue
        cells = [roll.text] if roll.column else [*roll.row.fields.values()]
        covered = {d.spec.text for d in roll.dice}
        for cell in cells:
            for match in _DICE_TEXT.finditer(cell):
                if not any(match.group(0) in text or text in match.group(0) for text in covered):
                    left.append(f"{roll.table_id} {roll.row.range_label()}: {match.group(0)!r} in {cell!r}")
        for rolled in roll.dice:
            assert rolled.spec.later or rolled.roll is not None
    return left


def test_every_classic_link_resolves_down_to_its_column_and_row(bundled_library):
    tables = classic(bundled_library)
    assert len(tables) == 91  # the five classic packs (57 in the three of tables, 19 of reference, 15 of procedures)
    assert check_links(tables, list(bundled_library)) == []
    assert all(check_table(t) == [] for t in tables)


def test_a_link_back_to_its_own_table_ignores_the_row_it_came_from(bundled_library):
    """The "take two rolls" rows link to their own table: they must ignore their own range, or they could loop."""
    for table in classic(bundled_library):
        for row in table.rows:
            for link in row.links:
                if link.table == table.id and link.row is None:
                    assert row.range is not None and link.ignores(row.low) and link.ignores(row.high), (table.id, row.range)
                if link.table == table.id and link.row is not None:
                    assert link.row < row.low  # "1 & 2 above": only rows above, so the chain ends


def test_the_links_between_classic_tables_never_lead_back(bundled_library):
    """Apart from the self-links above, following links never returns to a table already on the way."""
    graph = {t.id: {link.table for r in t.rows for link in r.links if link.table != t.id} for t in classic(bundled_library)}

    def visit(table_id: str, path: tuple[str, ...]) -> None:
        assert table_id not in path, " -> ".join([*path, table_id])
        for nxt in graph.get(table_id, set()):
            visit(nxt, (*path, table_id))

    for table_id in graph:
        visit(table_id, ())


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_walk_every_classic_link_to_a_final_result_thousands_of_times(bundled_library):
    roller = TableRoller(bundled_library, Dice(RandomSource(13)), MissingRowPolicy.REROLL)  # the one gap: wands 26-30
    walks = nodes = 0
    seen_tables: set[str] = set()
    left: list[str] = []
    for table in classic(bundled_library):
        if not table.rollable:
            for row in table.rows:
                tree = roller.expand(roller.read(table.id, key=row.key), optional=True)
                walks += 1
                nodes += sum(1 for _ in tree.walk())
                seen_tables.update(n.roll.table_id for n in tree.walk())
                left += unrolled_dice(tree)
            continue
        for column in columns_read(table):
            for _ in range(80):
                tree = roller.roll_through(table.id, column=column, optional=True)
                walks += 1
                nodes += sum(1 for _ in tree.walk())
                seen_tables.update(n.roll.table_id for n in tree.walk())
                left += unrolled_dice(tree)
    assert walks > 3000 and nodes > 10000
    assert left == []
    linked = {link.table for t in classic(bundled_library) for r in t.rows for link in r.links}
    assert linked <= seen_tables | {"classic.wilderness_evasion"}  # a table read by the player, never rolled


# --------------------------------------------------------------------------- each feature, with scripted dice


def _library(*tables: dict) -> TableLibrary:
    return TableLibrary([Pack.model_validate({"id": "t", "title": "t", "tables": list(tables)})])


def _d6(table_id: str, rows: list[dict], **extra: object) -> dict:
    return {"id": table_id, "title": table_id, "die": "d6", "columns": [{"key": "a", "label": "A"}], "rows": rows, **extra}


def _roller(
    library: TableLibrary, *faces: int, policy: MissingRowPolicy = MissingRowPolicy.ASK
) -> tuple[TableRoller, ScriptedSource]:
    source = ScriptedSource(faces)
    return TableRoller(library, Dice(source), policy), source


def test_ignored_scores_are_rolled_again_and_kept_on_the_result(bundled_library):
    roller, source = _roller(bundled_library, *pct(96, 97, 100, 12, 99, 40))
    powers = roller.follow(Link(table="classic.sword_primary_powers", times="2", reroll=[(96, 99)]))
    assert [p.value for p in powers] == [100, 12]  # 96 and 97 ignored; a score of 00 is kept
    assert [r.final for r in powers[0].ignored] == [96, 97]
    assert "ignored and rolled again: 96, 97" in powers[0].describe()
    languages = roller.follow(Link(table="classic.sword_languages", reroll=[(100, 100)]))
    assert languages[0].value == 99 and languages[0].ignored == []
    assert source.remaining == 2  # the 40 is left


def test_a_reversed_link_reverses_the_percentages(bundled_library):
    # 65 / 25 / 10 reversed is 10 / 25 / 65: Lawful 01-10, Neutral 11-35, Chaotic 36-00 (reading the die
    # backwards would keep the odds, which the text's "percentages are reversed" changes)
    roller, _ = _roller(bundled_library, *pct(10, 11, 35, 36, 100))
    link = Link(table="classic.sword_alignment", reverse=True)
    read = [roller.follow(link)[0] for _ in range(5)]
    assert [r.row.fields["alignment"].removeprefix("Sword is ") for r in read] == [
        "Lawful", "Neutral", "Neutral", "Chaotic", "Chaotic",
    ]  # fmt: skip
    assert "percentages reversed" in read[0].describe()


def test_a_link_to_a_row_reads_it_without_rolling(bundled_library):
    roller, source = _roller(bundled_library, 3, 2, 4)
    [treasure] = roller.follow(Link(table="classic.map_treasure", row=2, label="2 above"))
    assert treasure.fixed and treasure.row.fields["map_to"] == "5,000 - 30,000 Gold"
    assert [d.value for d in treasure.dice] == [15000]  # the dice written in the row are still rolled: 3 x 5,000
    [lord] = roller.follow(Link(table="classic.castle_companions", key="Fighting-Men"))
    assert lord.fixed and lord.row.key == "Fighting-Men"
    assert [(d.spec.text, d.value) for d in lord.dice] == [("5-8", 6), ("3-6", 6)]  # the companions' levels: 1d4+4, 1d4+2
    assert source.remaining == 0


def test_a_chosen_column_picks_the_links_and_the_linked_column(bundled_library):
    roller, _ = _roller(bundled_library, 1, 6)
    tree = roller.roll_through("classic.wilderness_encounter_type", column="mountains")
    assert tree.roll.text == "Men"
    [men] = tree.children
    assert men.roll.table_id == "classic.wilderness_men" and men.roll.column == "mountain"
    assert men.roll.text == "Superhero"
    matrix, _ = _roller(bundled_library, 3, 7)
    tree = matrix.roll_through("classic.monster_determination_matrix", column="level_3")
    assert tree.roll.text == "Table 4"
    assert [c.roll.table_id for c in tree.children] == ["classic.monster_level_4"]
    assert tree.children[0].roll.text == "Lycanthropes"


def test_no_entry_cells_are_rolled_again_in_the_column_read(bundled_library):
    roller, _ = _roller(bundled_library, 7, 12, 3)
    [men] = roller.follow(Link(table="classic.wilderness_men", column="waterbourne"))
    assert men.text == "Buccaneers" and [r.final for r in men.ignored] == [7, 12]
    city, _ = _roller(bundled_library, 5, 8, 2)
    rolled = city.roll("classic.wilderness_encounter_type", column="city")
    assert rolled.text == "Undead" and [r.final for r in rolled.ignored] == [5, 8]
    # read with no column chosen, a row with some names is a result as printed
    panel, _ = _roller(bundled_library, 7)
    assert panel.roll("classic.wilderness_men").ignored == []


def test_gem_step_up_a_one_steps_up_anything_else_does_not_under_either_policy(bundled_library):
    for policy in MissingRowPolicy:
        roller, _ = _roller(bundled_library, 1, 2, 3, 4, 5, 6, policy=policy)
        results = [roller.roll("classic.gem_step_up") for _ in range(6)]
        assert all(r.row is not None and r.missing is None and not r.sample for r in results)  # never asks, never re-rolls
        assert [r.row.implied for r in results] == [False, True, True, True, True, True]
        assert results[0].text == "the gem is of the next higher category"
        assert {r.text for r in results[1:]} == {"no change: the gem stays in its category"}


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_step_up_rolls_over_many_gems_step_up_about_one_in_six(bundled_library):
    roller = TableRoller(bundled_library, Dice(RandomSource(5)), MissingRowPolicy.REROLL)
    ups = sum(not roller.roll("classic.gem_step_up").row.implied for _ in range(6000))
    assert 850 < ups < 1150


def test_dice_written_in_a_result_are_rolled_with_their_multiplier(bundled_library):
    roller, _ = _roller(bundled_library, *pct(10), 3, 4, 5)
    jewelry = roller.roll("classic.jewelry_base_value")
    assert jewelry.text == "3d6 x 100 GP"
    [value] = jewelry.dice
    assert value.roll.final == 12 and value.value == 1200
    assert "3d6 GP: 12 x 100 = 1,200" in jewelry.describe()
    arrows, _ = _roller(bundled_library, *pct(30), 1, 2, 3)
    assert [d.value for d in arrows.roll("classic.misc_weapons").dice] == [6]  # 3-30 Magic Arrows is 3d10


def test_dice_used_later_are_listed_not_rolled(bundled_library):
    roller, source = _roller(bundled_library, *pct(95))
    strength = roller.roll("classic.sword_extraordinary")
    assert [(d.spec.dice, d.roll) for d in strength.dice] == [("1d4", None), ("1d10", None)]
    assert source.remaining == 0
    assert "roll 1d10 when it is used" in strength.describe()


def test_a_reference_link_with_no_row_is_read_not_rolled(bundled_library):
    roller, source = _roller(bundled_library)
    assert roller.follow(Link(table="classic.wilderness_evasion", optional=True)) == []
    assert source.remaining == 0


def test_optional_links_are_left_out_of_a_roll_through_unless_asked(bundled_library):
    roller, _ = _roller(bundled_library, 1, 1, 4)
    tree = roller.roll_through("classic.map_treasure")  # 10,000 - 40,000 Silver, guardians left to the referee
    assert tree.children == [] and tree.roll.dice[0].value == 10000
    roller, _ = _roller(bundled_library, 1, 1, 4, 4)
    tree = roller.roll_through("classic.map_treasure", optional=True)
    assert [c.roll.table_id for c in tree.children] == ["classic.monster_level_5", "classic.monster_level_6"]


def test_a_looping_pack_is_stopped_not_rolled_forever():
    library = _library(_d6("t.a", [{"range": [1, 6], "fields": {"a": "again"}, "links": [{"table": "t.a"}]}]))
    roller = TableRoller(library, Dice(RandomSource(1)))
    with pytest.raises(DiceError, match="loop"):
        roller.roll_through("t.a")


def test_pack_checks_name_bad_columns_rows_and_dice():
    library = _library(
        _d6(
            "t.a",
            [
                {
                    "range": [1, 6],
                    "fields": {"a": "2-12 rats"},
                    "links": [{"table": "t.b", "when": ["nope"], "column": "zz"}, {"table": "t.b", "row": 9}],
                    "dice": [{"text": "3-30", "dice": "3d10"}, {"text": "2-12", "dice": "2q6"}],
                }
            ],
        ),
        _d6("t.b", [{"range": [1, 6], "fields": {"a": "x"}}]),
    )
    table = library.get("t.a")
    messages = [p.message for p in check_table(table)]
    assert any("column 'nope'" in m for m in messages)
    assert any("'3-30' is not written" in m for m in messages)
    assert len(messages) == 3  # the bad expression too
    links = [p.message for p in check_links([table], list(library))]
    assert links == ["t.b has no column 'zz'", "t.b has no row for 9"]


def test_otherwise_rows_are_implied_not_stored():
    table = Table.model_validate(_d6("t.s", [{"range": [1, 1], "fields": {"a": "up"}}], otherwise={"a": "no change"}))
    assert table.missing_ranges() == []
    assert table.find(4) == Row(range=(4, 4), fields={"a": "no change"}, implied=True)
    assert [r.range for r in table.rows] == [(1, 1)]


def test_a_roll_through_describes_each_roll_under_the_one_that_asked_for_it(bundled_library):
    roller, _ = _roller(bundled_library, 3, 7)
    tree = roller.roll_through("classic.monster_determination_matrix", column="level_3")
    assert tree.describe().splitlines() == [
        "Monster Determination and Level of Monster Matrix: 3 -> Table 4",
        "  Dungeon levels 3, 4-5: Monster Level Table 4: 7 -> Lycanthropes",
    ]
