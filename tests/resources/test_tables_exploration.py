"""The exploration procedure pack ships exactly the tables and rows the rule text prints."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.tables import Pack, Table
from d100gui.storage.packs import read_pack_file
from d100gui.storage.resources import resource_dir

INJURY_RANGES = [
    (1, 12),
    (13, 18),
    (19, 30),
    (31, 36),
    (37, 42),
    (43, 53),
    (54, 58),
    (59, 69),
    (70, 74),
    (75, 87),
    (88, 90),
    (91, 93),
    (94, 96),
    (97, 97),
    (98, 98),
    (99, 99),
    (100, 100),
]

DURATION_KEYS = [
    "Torch",
    "Lantern",
    "Flashlight",
    "candle",
    "matchstick",
    "monster repellent sprays",
    "monster bait",
    "status-resistance droughts",
    "status-immunity potions",
]

EXPLORATION_ACTION_KEYS = [
    "light a torch or lantern with Flint & Steel",
    "light a torch or lantern with a matchstick",
    "listen at a door or the ground",
    "push or shove a stuck or locked door",
    "mark a wall or other surface with chalk",
    "read a line of writing by torchlight",
    "search a room thoroughly",
    "pick a lock",
    "search a chest for traps or other threats",
    "search the contents of a chest or other large container",
    "jam or disable a trap",
]

TRAVEL_ACTION_KEYS = [
    "Short Rest",
    "Long Rest",
    "equipment maintenance",
    "cooking",
    "eating",
    "set up camp",
    "fortify camp",
    "search area",
    "break down camp",
    "cover tracks",
]


@pytest.fixture(scope="module")
def pack() -> Pack:
    return read_pack_file(resource_dir() / "tables" / "exploration.json")


def _table(pack: Pack, table_id: str) -> Table:
    return next(t for t in pack.tables if t.id == table_id)


def test_pack_holds_exactly_these_tables(pack: Pack) -> None:
    assert [t.id for t in pack.tables] == [
        "explore.injury",
        "explore.item_durations",
        "explore.exploration_actions",
        "explore.travel_actions",
        "explore.travel_rounds",
        "explore.procedure_rules",
    ]
    assert all(t.id.startswith("explore.") for t in pack.tables)


def test_travel_rounds_are_the_three_printed_and_the_travel_clock_counts_by_them(pack: Pack) -> None:
    from d100gui.engine.toolbox.exploration import TRAVEL_ROUNDS

    rounds = _table(pack, "explore.travel_rounds")
    assert [(r.key, r.fields["from"], r.fields["to"]) for r in rounds.rows] == [
        ("Morning", "4am", "12pm"),
        ("Afternoon", "12pm", "8pm"),
        ("Night", "8pm", "4am"),
    ]
    hour = {"4am": 4, "12pm": 12, "8pm": 20}
    assert [(r.key, hour[r.fields["from"]]) for r in rounds.rows] == list(TRAVEL_ROUNDS)
    from d100gui.engine.toolbox.exploration import travel_rounds

    assert travel_rounds(rounds) == TRAVEL_ROUNDS  # the clock reads its Rounds from the table


def test_injury_rows(pack: Pack) -> None:
    table = _table(pack, "explore.injury")
    assert table.die == "d100"
    assert table.title == "Injuries"
    assert [c.key for c in table.columns] == ["injury", "details"]
    assert len(table.rows) == 17
    assert [r.range for r in table.rows] == INJURY_RANGES
    assert table.missing_ranges() == []


def test_injury_key_fields(pack: Pack) -> None:
    table = _table(pack, "explore.injury")
    first = table.find(1)
    assert first is not None
    assert first.fields == {"injury": "sprained ankle", "details": "1d4 Agility damage, and move at half speed."}
    skull = table.find(72)
    assert skull is not None
    assert skull.fields["injury"] == "cracked skull"
    assert skull.fields["details"] == "3d4 Wound Points, Unconscious for 1d12 minutes, then Dazed for 2d12 hours."
    spine = table.find(97)
    assert spine is not None
    assert spine.fields["injury"] == "broken spine"
    assert spine.range == (97, 97)


def test_injury_roll_again_rows_link_back(pack: Pack) -> None:
    table = _table(pack, "explore.injury")
    infected = table.find(99)
    assert infected is not None
    assert infected.fields["injury"] == "roll again plus wound is Infected"
    assert infected.fields["details"] == "infection deals 1d4 Strength damage per failed Physical Save."
    assert not infected.partial
    assert [(lk.table, lk.times) for lk in infected.links] == [("explore.injury", "1")]
    twice = table.find(100)
    assert twice is not None
    assert twice.fields == {"injury": "roll again twice"}
    assert twice.partial  # the printed row has no Details
    assert [(lk.table, lk.times) for lk in twice.links] == [("explore.injury", "2")]
    others = [r for r in table.rows if r.range not in ((99, 99), (100, 100))]
    assert all(not r.links and not r.partial for r in others)


def test_item_durations(pack: Pack) -> None:
    table = _table(pack, "explore.item_durations")
    assert table.die is None
    assert not table.rollable
    assert len(table.rows) == 9
    assert [r.key for r in table.rows] == DURATION_KEYS
    assert all(r.range is None for r in table.rows)
    rows = {r.key: r for r in table.rows}
    assert rows["Torch"].fields["duration"] == "burns out after 10 rounds (100 turns)."
    assert rows["Lantern"].fields["duration"] == "burns out after 10 hours (600 rounds, or 6,000 turns)."
    assert rows["matchstick"].fields["duration"] == "burns out after 1 turn."


def test_exploration_actions(pack: Pack) -> None:
    table = _table(pack, "explore.exploration_actions")
    assert table.die is None
    assert len(table.rows) == 11
    assert [r.key for r in table.rows] == EXPLORATION_ACTION_KEYS
    rows = {r.key: r for r in table.rows}
    assert rows["pick a lock"].fields["cost"] == "5 turns with an Open Locks check."
    assert rows["search a room thoroughly"].fields["cost"] == "10 turns."
    assert rows["jam or disable a trap"].fields["cost"] == "3 turns (may require a check, at Referee's discretion)."


def test_travel_actions(pack: Pack) -> None:
    table = _table(pack, "explore.travel_actions")
    assert table.die is None
    assert len(table.rows) == 10
    assert [r.key for r in table.rows] == TRAVEL_ACTION_KEYS
    rows = {r.key: r for r in table.rows}
    assert rows["Long Rest"].fields["cost"] == "24 turns (3 rounds)."
    assert rows["fortify camp"].fields["cost"] == "4 turns."


def test_reference_rows_repeat_their_key(pack: Pack) -> None:
    for table_id in ("explore.item_durations", "explore.exploration_actions", "explore.travel_actions"):
        table = _table(pack, table_id)
        first_col = table.columns[0].key
        assert all(r.fields[first_col] == r.key and not r.partial for r in table.rows)
