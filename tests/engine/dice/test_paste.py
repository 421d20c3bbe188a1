"""A table pasted as text from the rulebook (issue 19, deliver 4): read into rows, each cell checked, each row judged.

The inputs are the printed rows of the rule text (``../shared/rules/d100-dungeon-rulebook.txt``) as a PDF
viewer copies them: tabs, runs of spaces, single spaces, wrapped cells, headings, footers, blank lines.
A row the book does not print is only ever built here in memory, from printed cell values (``17-20``
below); nothing of it is shipped.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d100gui.engine.dice.paste import Verdict, guess_table, read_paste, read_range
from d100gui.engine.dice.tables import Row, Table
from d100gui.storage.resources import bundled_rules

# Table A as the rulebook prints it (title, note, headings, the four printed rows), tab-separated.
ARMOUR = """Table A – Armour (D100)

Each armour item's Condition track shades one pip per point of damage sustained (see Item Repair).

D100\tSlot\tItem\tDefence\tValue\tRep. Cost
1-4\tLegs\tLeather Tasset\t0 DEF\t23 gp\t5 gp
5-8\tTorso\tLeather Cuirass\t0 DEF\t34 gp\t7 gp
9-12\tHands\tLeather Gauntlets\t0 DEF\t27 gp\t6 gp
13-16\tArms\tLeather Arm Guards\t0 DEF\t21 gp\t5 gp
"""
# Not printed: a fictional row made of printed cells, for a range the excerpt lacks.
NEW_ARMOUR = "17-20\tTorso\tLeather Cuirass\t0 DEF\t34 gp\t7 gp"


@pytest.fixture(scope="module")
def rules():
    return bundled_rules()


@pytest.fixture
def armour(bundled_library) -> Table:
    return bundled_library.get("d100.A")


def verdicts(reading) -> list[tuple[str, Verdict]]:
    return [(p.row.range_label(), p.verdict) for p in reading.rows]


def test_tabs_the_printed_rows_are_known_and_a_new_row_fills_its_gap(armour, rules):
    reading = read_paste(armour, ARMOUR + NEW_ARMOUR, rules)
    assert verdicts(reading) == [
        ("1-4", Verdict.PRINTED),
        ("5-8", Verdict.PRINTED),
        ("9-12", Verdict.PRINTED),
        ("13-16", Verdict.PRINTED),
        ("17-20", Verdict.NEW),
    ]
    new = reading.rows[-1].row
    assert new.fields == {"slot": "Torso", "item": "Leather Cuirass", "def": "0 DEF", "value": "34 gp", "repair": "7 gp"}
    assert [(s.line, s.reason) for s in reading.skipped] == [
        (1, "a table's title"),
        (3, "before the first row"),
        (5, "the column headings"),
    ]
    assert [r.range for r in reading.to_save()] == [(17, 20)] and all(r.user for r in reading.to_save())


def test_runs_of_spaces_and_single_spaces_give_the_same_cells(armour, rules):
    spaced = "1-4     Legs    Leather Tasset     0 DEF   23 gp   5 gp\n17-20   Torso   Leather Cuirass    0 DEF   34 gp   7 gp"
    single = "1-4 Legs Leather Tasset 0 DEF 23 gp 5 gp\n17-20 Torso Leather Cuirass 0 DEF 34 gp 7 gp"
    for text in (spaced, single):
        reading = read_paste(armour, text, rules)
        assert verdicts(reading) == [("1-4", Verdict.PRINTED), ("17-20", Verdict.NEW)], text
        assert reading.rows[1].row.fields["item"] == "Leather Cuirass" and reading.rows[1].row.fields["value"] == "34 gp"


def test_single_spaces_fit_an_encounter_row_to_its_numbers(bundled_library, rules):
    table = bundled_library.get("d100.E")
    reading = read_paste(table, "11-20 Giant Bats (C) 25 0 -3 2/3/3 [K:Table P] Fly, Surprise, Pack", rules)
    [row] = reading.rows
    assert row.verdict is Verdict.PRINTED
    assert row.row.fields == {
        "monster": "Giant Bats (C)",
        "av": "25",
        "def": "0",
        "dmg": "-3",
        "hp": "2/3/3",
        "loot": "[K:Table P]",
        "special": "Fly, Surprise, Pack",
    }


def test_a_wrapped_cell_joins_its_lines(bundled_library, rules):
    curses = bundled_library.get("d100.C")
    text = (
        "D100\tEffect\n"
        "1\tDIVINE WRATH: Reduce your HP to 1, FATE points to 0, and lose 2 LIVES or if you do not have the\n"
        "lives to lose your adventure is over.\n"
        "2\tARCANE DEVASTATION: Shade in 4 pips of all of your Equipped and Backpacked items that have a\n"
        "Repair Track.\n"
    )
    reading = read_paste(curses, text, rules)
    assert verdicts(reading) == [("1", Verdict.PRINTED), ("2", Verdict.PRINTED)]
    assert reading.rows[0].lines == (2, 3)
    assert reading.rows[0].row.fields["effect"].endswith("if you do not have the lives to lose your adventure is over.")
    # the value of a wrapped Treasure A row comes on the second line, after the rest of its text
    treasure = bundled_library.get("d100.TA")
    wrapped = (
        "16-46\tOBJECTIVE ITEM: You have found an Item you need to complete a Quest (Add one Objective), if you do not\n"
        "need an objective item or you have all the objective items you need, you may just take it for its gold value to\n"
        "sell after your quest.\t100gp"
    )
    [row] = read_paste(treasure, wrapped, rules).rows
    assert row.verdict is Verdict.PRINTED and row.row.fields["value"] == "100gp" and row.row.fields["item"] == "OBJECTIVE ITEM"


def test_headings_footers_and_blank_lines_between_rows_are_skipped_with_their_reason(armour, rules):
    text = (
        "1-4\tLegs\tLeather Tasset\t0 DEF\t23 gp\t5 gp\n\n"
        "D100 Dungeon rulebook — page 34\n\n"
        "D100\tSlot\tItem\tDefence\tValue\tRep. Cost\n"
        "5-8\tTorso\tLeather Cuirass\t0 DEF\t34 gp\t7 gp\n"
        "35\n\n" + NEW_ARMOUR
    )
    reading = read_paste(armour, text, rules)
    assert verdicts(reading) == [("1-4", Verdict.PRINTED), ("5-8", Verdict.PRINTED), ("17-20", Verdict.NEW)]
    assert [s.reason for s in reading.skipped] == [
        "a page footer",
        "the column headings",
        "a number alone on its line, no cells (a page number?)",
    ]


def test_a_bad_cell_is_reported_with_its_reason_and_not_saved(armour, rules):
    reading = read_paste(armour, "17-20\tTorso\tLeather Cuirass\tx DEF\t34 gp\t7 gp", rules)
    [row] = reading.rows
    assert row.verdict is Verdict.BAD
    assert row.check.cell("def").problem == "needs a number here like '0 DEF'"
    assert row.explain(armour) == "Defence: needs a number here like '0 DEF'"
    assert reading.to_save() == []


def test_a_range_the_book_prints_is_never_replaced_silently(armour, rules):
    text = "1-4\tTorso\tLeather Cuirass\t0 DEF\t34 gp\t7 gp\n7-10\tLegs\tLeather Tasset\t0 DEF\t23 gp\t5 gp\n" + NEW_ARMOUR
    reading = read_paste(armour, text, rules)
    assert verdicts(reading)[:2] == [("1-4", Verdict.CLASH), ("7-10", Verdict.CLASH)]
    assert [r.range for r in reading.rows[0].clashes] == [(1, 4)]
    assert [r.range for r in reading.rows[1].clashes] == [(5, 8), (9, 12)]
    assert "Overlaps the printed row 1-4 (Legs | Leather Tasset | 0 DEF | 23 gp | 5 gp)" in reading.rows[0].explain(armour)
    assert [r.range for r in reading.to_save()] == [(17, 20)]  # the player has not chosen
    assert [r.range for r in reading.to_save(replace=[0])] == [(1, 4), (17, 20)]  # the player chose to replace 1-4
    assert [r.range for r in reading.to_save(replace=[2])] == [(17, 20)]  # only a clashing row can be chosen


def test_the_players_own_row_is_not_replaced_silently_either(armour, rules):
    mine = armour.model_copy(update={"rows": [*armour.rows, Row(range=(17, 20), fields={"slot": "Legs"}, user=True)]})
    [row] = read_paste(mine, NEW_ARMOUR, rules).rows
    assert row.verdict is Verdict.CLASH and "your row 17-20" in row.explain(mine)


def test_pasted_rows_that_overlap_each_other_are_bad(armour, rules):
    reading = read_paste(armour, NEW_ARMOUR + "\n19-22\tTorso\tLeather Cuirass\t0 DEF\t34 gp\t7 gp", rules)
    assert [v for _, v in verdicts(reading)] == [Verdict.BAD, Verdict.BAD]
    assert "overlaps" in reading.rows[0].check.range_problem


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("01-05\tx", ((1, 5), "x")),
        ("1–5 x", ((1, 5), "x")),
        ("1 – 5 x", ((1, 5), "x")),
        ("96-00\tx", ((96, 100), "x")),
        ("96-100\tx", ((96, 100), "x")),
        ("00 x", ((100, 100), "x")),
        ("7\tx", ((7, 7), "x")),
        ("5 -2 DMG", ((5, 5), "-2 DMG")),  # a single roll, then a negative number: not the range 5-2
    ],
)
def test_ranges_as_books_print_them(armour, text, expected):
    assert read_range(text, armour) == expected


@pytest.mark.parametrize("text", ["Leather", "101-105 x", "8-3 x", "D100 Slot"])
def test_what_is_not_a_range_of_the_die(armour, text):
    assert read_range(text, armour) is None


def test_a_pasted_column_the_table_does_not_keep_is_left_out(bundled_library, rules):
    parts = bundled_library.get("d100.P")
    text = (
        "D100\tPart\tDescription\tValue\n"
        "1-3\tEARS\tYou've heard that they are worth a lot, enough said really.\t10gp\n"
        "16-18\tBONE\tKeys, fire pokers, and kebabs sticks, everything has its uses.\t11gp\n"
    )
    reading = read_paste(parts, text, rules)
    assert reading.left_out == ["Description"]
    assert verdicts(reading) == [("1-3", Verdict.PRINTED), ("16-18", Verdict.NEW)]
    assert reading.rows[1].row.fields == {"part": "BONE", "value": "11gp"}


def test_reading_stops_at_the_next_tables_title(armour, rules):
    text = ARMOUR + "\nTable B – Boosts (D100)\n\nD100\tEffect\n1-5\tSTRONGER: add +5 STR to the Time Track.\n"
    reading = read_paste(armour, text, rules)
    assert len(reading.rows) == 4 and all(p.verdict is Verdict.PRINTED for p in reading.rows)
    assert {s.reason for s in reading.skipped[-3:]} == {"after another table's title: not this table"}


def test_the_title_line_names_the_table(bundled_library):
    tables = list(bundled_library)
    assert guess_table(ARMOUR, tables).id == "d100.A"
    assert guess_table("Table TA – Treasure A (D100)\n1-3\tSILVER PIECES\t70gp", tables).id == "d100.TA"
    assert guess_table("1-4\tLegs\tLeather Tasset\t0 DEF\t23 gp\t5 gp", tables) is None


def test_a_reference_table_is_not_pasted(bundled_library, rules):
    reference = next(t for t in bundled_library if not t.rollable)
    reading = read_paste(reference, "1-4 x", rules)
    assert reading.rows == [] and "not rolled" in reading.skipped[0].reason


# --------------------------------------------------------------------------- any printed table, any separators

D100_TABLES = ["A", "B", "C", "D", "E", "F", "G", "I", "J", "L", "P", "Q", "R", "S", "TA", "TB", "TC", "W"]
SEPARATOR = st.sampled_from(["\t", "  ", "   ", "\t ", "    "])


@st.composite
def pasted_table(draw, library) -> tuple[Table, str]:
    """A printed table as a copy might give it: any separators, any range spelling, long cells wrapped."""
    table = library.get(f"d100.{draw(st.sampled_from(D100_TABLES))}")
    lines = []
    if draw(st.booleans()):
        lines.append("D100\t" + "\t".join(c.label for c in table.columns))
    for row in table.rows:
        lo, hi = row.range or (0, 0)
        low = draw(st.sampled_from([str(lo), f"{lo:02d}"]))
        high = draw(st.sampled_from([str(hi), "00"] if hi == 100 else [str(hi), f"{hi:02d}"]))
        dash = draw(st.sampled_from(["-", "–"]))
        start = low if lo == hi else f"{low}{dash}{high}"
        cells = [row.fields[c.key] for c in table.columns if row.fields.get(c.key)]
        text = start + "".join(draw(SEPARATOR) + cell for cell in cells)
        words = text.split(" ")
        # a wrap at a space whose next word starts no roll (a number there is a new row, as it is in a book)
        wraps = [i for i in range(2, len(words)) if words[i] and not words[i][0].isdigit() and words[i - 1]]
        if wraps and draw(st.booleans()):
            at = draw(st.sampled_from(wraps))
            text = " ".join(words[:at]) + "\n" + " ".join(words[at:])
        lines.append(text)
        if draw(st.integers(0, 5)) == 0:
            lines.append("")
    return table, "\n".join(lines)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_printed_table_rejoined_with_any_separators_reads_back_as_printed(bundled_library, rules, data):
    table, text = data.draw(pasted_table(bundled_library))
    reading = read_paste(table, text, rules)
    assert [p.row.range for p in reading.rows] == [r.range for r in table.rows], text
    for pasted, printed in zip(reading.rows, table.rows, strict=True):
        assert pasted.verdict is Verdict.PRINTED, (text, pasted.row.fields, printed.fields)
        assert pasted.row.fields == {k: v for k, v in printed.fields.items() if v}, text
