"""The table library: validation that names the fault, lookup, gaps, user packs, CSV."""

from __future__ import annotations

import json

import pytest

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dice.tables import Link, Pack, PackInvalid, Row, TableError, TableLibrary, check_links, load_pack_text
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir


def small_pack(**overrides) -> dict:
    data = {
        "schema_version": 1,
        "id": "test",
        "title": "Test",
        "tables": [
            {
                "id": "t.one",
                "title": "One",
                "die": "d100",
                "columns": [{"key": "name", "label": "Name"}, {"key": "value", "label": "Value"}],
                "rows": [
                    {"range": [1, 10], "fields": {"name": "Low", "value": "1gp"}},
                    {"range": [21, 30], "fields": {"name": "Mid", "value": "2gp"}, "links": [{"table": "t.two"}]},
                ],
            },
            {
                "id": "t.two",
                "title": "Two",
                "die": "d6",
                "columns": [{"key": "name", "label": "Name"}],
                "rows": [{"range": [1, 6], "fields": {"name": "Any"}}],
            },
        ],
    }
    data.update(overrides)
    return data


def test_every_bundled_pack_loads_and_links_resolve():
    loaded = packs.load_library(None)
    library = loaded.library
    files = packs.bundled_pack_files()
    assert {f.name for f in files} >= {
        "d100-dungeon.json",
        "classic-magic.json",
        "classic-underworld.json",
        "classic-wilderness.json",
        "exploration.json",
        "d20-scars.json",
    }
    assert check_links(library, set(library.ids())) == []
    assert len(library) > 60
    assert loaded.problems == []


def test_bundled_ids_are_unique_across_packs():
    seen: dict[str, str] = {}
    for path in packs.bundled_pack_files():
        for table in packs.read_pack_file(path).tables:
            assert table.id not in seen, f"{table.id} in {path.name} and {seen[table.id]}"
            seen[table.id] = path.name


def test_lookup_and_gaps():
    pack = load_pack_text(json.dumps(small_pack()))
    table = pack.tables[0]
    assert table.find(1).fields["name"] == "Low"
    assert table.find(10).fields["name"] == "Low"
    assert table.find(11) is None
    assert table.missing_ranges() == [(11, 20), (31, 100)]
    assert table.gap_containing(55) == (31, 100)


def test_unknown_table_is_a_clear_error():
    library = TableLibrary([load_pack_text(json.dumps(small_pack()))])
    with pytest.raises(TableError, match="no table 'nope'"):
        library.get("nope")


@pytest.mark.parametrize(
    ("mutate", "expect"),
    [
        (
            lambda d: d["tables"][0]["rows"].append({"range": [5, 12], "fields": {"name": "X", "value": "1"}}),
            "row 5-12, field range: overlaps row 1-10",
        ),
        (
            lambda d: d["tables"][0]["rows"].append({"range": [50, 40], "fields": {"name": "X", "value": "1"}}),
            "row 50-40, field range: range starts at 50",
        ),
        (
            lambda d: d["tables"][0]["rows"].append({"range": [95, 120], "fields": {"name": "X", "value": "1"}}),
            "outside the die's 1-100",
        ),
        (
            lambda d: d["tables"][0]["rows"].append({"range": [40, 41], "fields": {"name": "X"}}),
            "row 40-41, field value: missing",
        ),
        (
            lambda d: d["tables"][0]["rows"].append({"range": [40, 41], "fields": {"name": "X", "value": "1", "bogus": "y"}}),
            "field bogus: no column",
        ),
        (lambda d: d["tables"][1].update(die="3d0"), "table t.two, field die"),
        (lambda d: d["tables"][1].update(id="t.one"), "two tables share this id"),
        (lambda d: d["tables"][0]["rows"][0].update(range="one"), "table t.one, row #1, field range"),
        (lambda d: d["tables"][0].pop("title"), "table t.one, field title"),
    ],
)
def test_validation_names_file_table_row_and_field(mutate, expect):
    data = small_pack()
    mutate(data)
    with pytest.raises(PackInvalid) as info:
        load_pack_text(json.dumps(data), "mine.json")
    text = str(info.value)
    assert "mine.json" in text
    assert expect in text


def test_partial_rows_and_optional_columns_are_allowed():
    data = small_pack()
    data["tables"][0]["rows"].append({"range": [40, 41], "fields": {"name": "Cut"}, "partial": True})
    data["tables"][0]["columns"][1]["optional"] = True
    data["tables"][0]["rows"].append({"range": [42, 43], "fields": {"name": "No value"}})
    pack = load_pack_text(json.dumps(data))
    assert pack.tables[0].find(40).partial


def test_not_json_and_newer_version_are_refused():
    with pytest.raises(PackInvalid, match="not valid JSON"):
        load_pack_text("{nope", "x.json")
    with pytest.raises(PackInvalid, match="newer than this app"):
        load_pack_text(json.dumps(small_pack(schema_version=99)), "x.json")
    with pytest.raises(PackInvalid, match="must be a JSON object"):
        load_pack_text("[]", "x.json")


def test_user_rows_override_bundled_rows():
    base = load_pack_text(json.dumps(small_pack()))
    user = Pack(
        id="u",
        title="u",
        tables=[
            base.tables[0].model_copy(update={"rows": [Row(range=(5, 15), fields={"name": "Mine", "value": "9gp"}, user=True)]})
        ],
    )
    library = TableLibrary([base], [user])
    table = library.get("t.one")
    assert table.find(1) is None  # the bundled 1-10 gave way to the player's 5-15
    assert table.find(12).fields["name"] == "Mine"
    assert table.find(25).fields["name"] == "Mid"
    assert library.bundled("t.one").find(1).fields["name"] == "Low"


def test_broken_user_pack_never_blocks_start(_fresh_home):
    path = user_data_dir() / packs.USER_PACK_FILE
    path.write_text('{"id": "u", "title": "u", "tables": [{"id": "d100.A"}]}', encoding="utf-8")
    loaded = packs.load_library(user_data_dir())
    assert "d100.A" in loaded.library
    assert loaded.library.get("d100.A").find(1).fields["item"] == "Leather Tasset"
    assert len(loaded.problems) == 1
    assert "my-tables.json" in loaded.problems[0] and "table d100.A" in loaded.problems[0]


def test_user_pack_with_bad_link_is_refused(_fresh_home):
    path = user_data_dir() / packs.USER_PACK_FILE
    bad = small_pack()
    bad["tables"][0]["rows"][1]["links"] = [{"table": "nowhere"}]
    path.write_text(json.dumps(bad), encoding="utf-8")
    loaded = packs.load_library(user_data_dir())
    assert "unknown table 'nowhere'" in loaded.problems[0]
    assert "t.one" not in loaded.library


def test_typed_row_is_saved_and_reloaded(_fresh_home):
    loaded = packs.load_library(user_data_dir())
    roller = TableRoller(loaded.library, Dice(ScriptedSource([8, 0])), MissingRowPolicy.ASK)
    result = roller.roll("d100.A")
    assert result.row is None and result.missing == (17, 100)
    resolved = roller.resolve_missing(
        result,
        Row(range=(80, 84), fields={"slot": "Head", "item": "Test Helm", "def": "1 DEF", "value": "50 gp", "repair": "10 gp"}),
    )
    assert resolved.row.fields["item"] == "Test Helm"
    packs.save_user_table(loaded.user_pack_path, loaded.library.get("d100.A"))
    stored = json.loads(loaded.user_pack_path.read_text(encoding="utf-8"))
    assert [r["range"] for r in stored["tables"][0]["rows"]] == [[80, 84]]
    again = packs.load_library(user_data_dir()).library.get("d100.A")
    assert again.find(82).fields["item"] == "Test Helm"
    assert again.find(1).fields["item"] == "Leather Tasset"


def test_resolve_missing_rejects_rows_that_do_not_fit(bundled_library):
    library = TableLibrary([Pack(id="x", title="x", tables=[bundled_library.get("d100.A")])])
    roller = TableRoller(library, Dice(ScriptedSource([5, 0])))
    result = roller.roll("d100.A")
    with pytest.raises(ValueError, match="cover the roll of 50"):
        roller.resolve_missing(
            result, Row(range=(60, 61), fields={"slot": "a", "item": "b", "def": "c", "value": "d", "repair": "e"})
        )
    with pytest.raises(ValueError, match="inside the missing range 17-100"):
        roller.resolve_missing(
            result, Row(range=(10, 60), fields={"slot": "a", "item": "b", "def": "c", "value": "d", "repair": "e"})
        )


def test_reroll_policy_lands_on_a_known_row_and_is_labelled(bundled_library):
    library = TableLibrary([Pack(id="x", title="x", tables=[bundled_library.get("d100.A")])])
    roller = TableRoller(library, Dice(ScriptedSource([5, 0, 9, 9, 0, 3])), MissingRowPolicy.REROLL)
    result = roller.roll("d100.A")
    assert result.sample
    assert result.roll.final == 3
    assert result.row.fields["item"] == "Leather Tasset"
    assert [r.final for r in result.discarded] == [50, 99]
    assert "sample play" in result.describe()


def test_table_e_modifier_is_clamped(bundled_library):
    roller = TableRoller(bundled_library, Dice(ScriptedSource([1, 5])))
    result = roller.roll("d100.E", modifier=-40, modifier_label="quest encounter modifier")
    assert result.roll.natural == 15
    assert result.roll.final == 1
    assert result.row.fields["monster"] == "Giant Rats (C)"


def test_follow_link_uses_times_modifier_and_die(bundled_library):
    roller = TableRoller(bundled_library, Dice(ScriptedSource([2, 3, 0, 4])))
    rolls = roller.follow(Link(table="d100.G", times="2", die="d10"))
    assert [r.roll.final for r in rolls] == [2, 3]
    assert rolls[0].row.fields["name"].startswith("POISONOUS GAS")
    more = roller.follow(Link(table="d100.P", modifier=10))
    assert more[0].roll.final == 14


def test_csv_round_trip_and_errors(bundled_library):
    table = bundled_library.get("d100.W")
    text = packs.table_to_csv(table)
    back = packs.table_from_csv(text, table, "w.csv")
    assert [r.range for r in back.rows] == [r.range for r in table.rows]
    assert back.rows[0].fields == table.rows[0].fields
    bad = text + "9,x," + ",".join(["a"] * (len(table.columns) + 1)) + "\n"
    with pytest.raises(PackInvalid, match=r"w\.csv, table d100\.W, row line \d+, field from/to"):
        packs.table_from_csv(bad, table, "w.csv")
    with pytest.raises(PackInvalid, match="expected columns"):
        packs.table_from_csv("a,b\n1,2\n", table, "w.csv")


def test_import_and_export_pack_files(tmp_path, bundled_library):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(small_pack()), encoding="utf-8")
    pack = packs.import_pack(good, bundled_library)
    out = tmp_path / "out" / "exported.json"
    packs.export_pack(pack, out)
    assert packs.read_pack_file(out).tables[0].id == "t.one"
    broken = tmp_path / "broken.json"
    broken.write_text(
        json.dumps(
            small_pack(
                tables=[
                    {
                        "id": "t.x",
                        "title": "x",
                        "columns": [{"key": "a", "label": "A"}],
                        "rows": [{"range": [1, 2], "fields": {}}],
                    }
                ]
            )
        ),
        encoding="utf-8",
    )
    with pytest.raises(PackInvalid, match=r"broken\.json, table t\.x, row 1-2, field a"):
        packs.import_pack(broken, bundled_library)
    with pytest.raises(PackInvalid, match="cannot read the file"):
        packs.read_pack_file(tmp_path / "missing.json")
