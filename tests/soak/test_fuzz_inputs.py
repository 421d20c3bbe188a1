"""Fuzzing the files a player opens and the texts the engine reads: accepted, or refused with the module's own error.

Mutated and truncated campaigns (the JSON file, old formats included, and the SQLite store),
table packs, pack CSV, tile sets and effect texts. Each input must either load or be refused
with the error class the module documents (``CampaignFileError``, ``PackInvalid``,
``TileSetInvalid``; the notation parser never raises); any other exception is a bug. Every
example runs under an alarm, so a hang fails too. Examples are few and small: the whole file
stays well under 30 s.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from bot import SoakBot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.tables import PackInvalid, Table
from d100gui.engine.dungeon.tiles import TileSetInvalid
from d100gui.engine.rules import notation
from d100gui.storage.campaigns import CampaignFileError, load_campaign
from d100gui.storage.packs import read_pack_file, table_from_csv, table_to_csv
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore
from d100gui.storage.tilesets import read_tileset_file

# slow: left out of `make check` (the fast lane); `make test` runs it
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "storage" / "fixtures"
PACK = ROOT / "resources" / "tables" / "d20-scars.json"
BIG_PACK = ROOT / "resources" / "tables" / "d100-dungeon.json"
TILESET = ROOT / "resources" / "tilesets" / "standard.json"
HANG_SECONDS = 10

FUZZ = settings(
    max_examples=int(os.environ.get("D100GUI_FUZZ_EXAMPLES", "60")),
    deadline=None,  # a hang is caught by the alarm below (a loaded 2-core machine makes deadlines flaky)
    database=None,
    derandomize="D100GUI_FUZZ_EXAMPLES" not in os.environ,  # make test: the same examples on every run
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)


@contextmanager
def no_hang(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Fail (TimeoutError) if the body runs longer than ``seconds``: a hang is a bug too."""

    def alarm(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s: the input hangs the reader")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------------------- mutations
json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)
json_value = st.recursive(
    json_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6
)


def mutate_tree(data: st.DataObject, tree: Any) -> Any:
    """Replace, drop or add one value somewhere in a JSON tree (chosen by hypothesis)."""
    if isinstance(tree, dict) and tree and data.draw(st.integers(0, 9)) > 0:
        key = data.draw(st.sampled_from(sorted(tree)))
        action = data.draw(st.sampled_from(["descend", "replace", "drop", "add"]))
        if action == "descend":
            tree[key] = mutate_tree(data, tree[key])
        elif action == "replace":
            tree[key] = data.draw(json_value)
        elif action == "drop":
            del tree[key]
        else:
            tree[data.draw(st.text(max_size=8))] = data.draw(json_value)
        return tree
    if isinstance(tree, list) and tree and data.draw(st.integers(0, 9)) > 0:
        i = data.draw(st.integers(0, len(tree) - 1))
        action = data.draw(st.sampled_from(["descend", "replace", "drop", "duplicate"]))
        if action == "descend":
            tree[i] = mutate_tree(data, tree[i])
        elif action == "replace":
            tree[i] = data.draw(json_value)
        elif action == "drop":
            del tree[i]
        else:
            tree.insert(i, tree[i])
        return tree
    return data.draw(json_value)


def mutate_text(data: st.DataObject, text: str) -> str:
    """Truncate, splice random characters into, or structurally change JSON text."""
    how = data.draw(st.sampled_from(["truncate", "splice", "tree", "tree", "tree"]))
    if how == "truncate":
        return text[: data.draw(st.integers(0, max(0, len(text) - 1)))]
    if how == "splice":
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 20))
        return text[:at] + data.draw(st.text(alphabet='{}[]":,0123456789-eE.nultrfalse\\u ', max_size=12)) + text[at + cut :]
    tree = mutate_tree(data, json.loads(text))
    return json.dumps(tree, allow_nan=True)


# ---------------------------------------------------------------------------- campaigns
@pytest.fixture(scope="module")
def campaign_texts() -> list[str]:
    """A played campaign (the soak bot, 60 actions) and the old formats' fixtures."""
    bot = SoakBot(17)
    bot.play(60)
    return [bot.session.to_json(), (FIXTURES / "campaign-v1.json").read_text(), (FIXTURES / "campaign-v0.json").read_text()]


@FUZZ
@given(data=st.data())
def test_mutated_campaign_json_loads_or_is_refused(data: st.DataObject, campaign_texts: list[str], tmp_path: Path) -> None:
    text = mutate_text(data, data.draw(st.sampled_from(campaign_texts)))
    path = tmp_path / "fuzz.d100.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with no_hang():
        try:
            campaign = load_campaign(path)
        except CampaignFileError as exc:
            assert str(exc)
            return
    assert isinstance(campaign, Campaign)
    Campaign.model_validate_json(campaign.model_dump_json())  # what loads can be saved and loaded again


@pytest.fixture(scope="module")
def store_bytes(campaign_texts: list[str], tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The played campaign as a SQLite store, read once (the bytes stay fixed for every example)."""
    base = tmp_path_factory.mktemp("store") / "base.d100"
    CampaignStore.create(base, Campaign.model_validate_json(campaign_texts[0])).close()
    return base.read_bytes()


fraction = st.floats(0, 1, exclude_max=True)


@FUZZ
@given(cut=st.none() | fraction, edits=st.lists(st.tuples(fraction, st.integers(0, 255)), max_size=8))
def test_mutated_campaign_store_opens_or_is_refused(
    cut: float | None, edits: list[tuple[float, int]], store_bytes: bytes
) -> None:
    """The store's bytes truncated at ``cut`` (a fraction of its length) or overwritten at ``edits``."""
    out = bytearray(store_bytes)
    for where, byte in edits:
        out[int(where * len(out))] = byte
    raw = bytes(out if cut is None else out[: int(cut * len(out))])
    with tempfile.TemporaryDirectory() as folder:  # a fresh folder: no -wal file of an earlier example
        path = Path(folder) / "fuzz.d100"
        path.write_bytes(raw)
        with no_hang():
            try:
                opened = CampaignStore.open(path)
            except CampaignFileError as exc:
                assert str(exc)
                return
        opened.close()


# ---------------------------------------------------------------------------- packs, CSV, tile sets
@FUZZ
@given(data=st.data())
def test_mutated_table_pack_reads_or_is_refused(data: st.DataObject, tmp_path: Path) -> None:
    source = data.draw(st.sampled_from([PACK, BIG_PACK]))
    path = tmp_path / "fuzz-pack.json"
    path.write_text(mutate_text(data, source.read_text(encoding="utf-8")), encoding="utf-8", errors="surrogatepass")
    with no_hang():
        try:
            read_pack_file(path)
        except PackInvalid as exc:
            assert str(exc)


@pytest.fixture(scope="module")
def csv_tables() -> list[Table]:
    library = bundled_game_data().library
    return [library.get(t) for t in ("d100.W", "d100.A", "d100.E", "d100.Q", "d100.D")]


csv_cell = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=10)


@FUZZ
@given(data=st.data())
def test_mutated_pack_csv_imports_or_is_refused(data: st.DataObject, csv_tables: list[Table]) -> None:
    table = data.draw(st.sampled_from(csv_tables))
    lines = table_to_csv(table).splitlines(keepends=True)
    how = data.draw(st.sampled_from(["truncate", "cell", "line", "random"]))
    if how == "truncate":
        text = "".join(lines)[: data.draw(st.integers(0, len("".join(lines))))]
    elif how == "cell":
        i = data.draw(st.integers(0, len(lines) - 1))
        cells = lines[i].rstrip("\r\n").split(",")
        cells[data.draw(st.integers(0, len(cells) - 1))] = data.draw(csv_cell)
        lines[i] = ",".join(cells) + "\n"
        text = "".join(lines)
    elif how == "line":
        lines.insert(data.draw(st.integers(0, len(lines))), ",".join(data.draw(st.lists(csv_cell, max_size=9))) + "\n")
        text = "".join(lines)
    else:
        text = data.draw(st.text(max_size=200))
    with no_hang():
        try:
            result = table_from_csv(text, table)
        except PackInvalid as exc:
            assert str(exc)
            return
    assert isinstance(result, Table)


@FUZZ
@given(data=st.data())
def test_mutated_tileset_reads_or_is_refused(data: st.DataObject, tmp_path: Path) -> None:
    path = tmp_path / "fuzz-tiles.json"
    path.write_text(mutate_text(data, TILESET.read_text(encoding="utf-8")), encoding="utf-8", errors="surrogatepass")
    with no_hang():
        try:
            read_tileset_file(path)
        except TileSetInvalid as exc:
            assert str(exc)


# ---------------------------------------------------------------------------- effect texts
@pytest.fixture(scope="module")
def printed_texts() -> list[str]:
    """Every cell and text of the bundled d100 tables: what the notation parser really reads."""
    library = bundled_game_data().library
    out: list[str] = []
    for table_id in ("d100.E", "d100.F", "d100.G", "d100.D", "d100.P", "d100.C", "d100.B", "d100.Q"):
        for row in library.get(table_id).rows:
            out += [row.text, *row.fields.values()]
    return [t for t in out if t]


notation_alphabet = st.sampled_from(
    [
        *"[]()/:.,+-½0123456789 ",
        "Test:",
        "[S:",
        "[F:",
        "[K:",
        "Str",
        "Dex",
        "Int",
        "HP",
        "gp",
        "REP",
        "Table ",
        "roll ",
        "x2",
        "1d6",
    ]
)


@FUZZ
@given(data=st.data())
def test_effect_texts_parse_without_an_exception(data: st.DataObject, printed_texts: list[str]) -> None:
    base = data.draw(st.sampled_from(printed_texts))
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(base)))
        text = (
            base[:at] + "".join(data.draw(st.lists(notation_alphabet, max_size=12))) + base[at + data.draw(st.integers(0, 10)) :]
        )
    else:
        text = "".join(data.draw(st.lists(notation_alphabet, max_size=30)))
    with no_hang():
        parsed = notation.parse(text)
        outcome = notation.parse_effects(text)
        test = notation.parse_test(text)
        loot = notation.parse_loot(text)
    assert isinstance(parsed, notation.Notation)
    assert isinstance(outcome, notation.Outcome)
    assert test is None or isinstance(test, notation.TestSpec)
    assert loot is None or isinstance(loot, notation.LootSpec)
    if test is not None:
        assert isinstance(test.describe(), str)


def test_sqlite_error_class_is_not_leaked_by_an_empty_store(tmp_path: Path) -> None:
    """An empty file named like a store is refused as a campaign file, not as a raw SQLite error."""
    path = tmp_path / "empty.d100"
    path.write_bytes(b"")
    with no_hang():
        try:
            CampaignStore.open(path).close()
        except CampaignFileError:
            pass
        except sqlite3.Error as exc:  # pragma: no cover - the bug this guards against
            pytest.fail(f"raw SQLite error: {exc!r}")
