"""Damaged campaign stores, made from a real played campaign, and what the app does with each.

:func:`base_store` plays the demo campaign through the real commands with a store attached
(so its undo journal holds the hero, the dungeons, the random state, ...), then
:func:`mutants` damages copies of it the ways a disk, a power cut or a hostile hand would: bit
flips, truncation, zeroed pages, schema edits, absurd or undecodable values in any row.
:func:`try_store` opens each the way the window does and, if it loads, plays undo, redo and ten
actions, and sorts the outcome: ``refused`` (a clear message), ``loaded`` (and playable),
``crashed`` (any other exception) or ``hung`` (over :data:`HANG_SECONDS`).
"""

from __future__ import annotations

import random
import shutil
import signal
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from d100gui import demo
from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dungeon_entry import EnterDungeon
from d100gui.engine.game import Game
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.campaigns import CampaignFileError
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore, open_campaign

HANG_SECONDS = 5.0
#: what a clear refusal never shows the player
UNCLEAR = ("pydantic", "errors.pydantic.dev", "Traceback", "validation error for")
ACTIONS = [{"kind": "roll_dice", "expression": "3d6"}, {"kind": "roll_table", "table_id": "d100.A"}]


def _game(campaign: Campaign) -> Game:
    data = bundled_game_data()
    return Game(campaign, data.library, ALL_COMMANDS, policy=MissingRowPolicy.REROLL, rules=data.rules, tilesets=data.tilesets)


def base_store(path: Path) -> Path:
    """The demo campaign played with its store attached, a fight begun, a few undone: closed, one file."""
    campaign = Campaign()
    campaign.meta.seed = demo.DEMO_SEED
    game = _game(campaign)
    store = CampaignStore.create(path, game.campaign, game)
    store.attach(game)
    demo._create_hero(game)
    demo._run(game, {"kind": "begin_quest"})
    game.execute(EnterDungeon())
    demo._settle(game)
    demo._play_turns(game)
    for command in ACTIONS * 3:
        game.execute(game.parse_command(dict(command)))
    game.undo()
    game.undo()
    store.close()
    return path


@dataclass
class Mutant:
    name: str
    damage: Callable[[Path], None]


def _flip(rng: random.Random) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        data = bytearray(path.read_bytes())
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))

    return damage


def _truncate(rng: random.Random) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        data = path.read_bytes()
        path.write_bytes(data[: rng.randrange(len(data))])

    return damage


def _zero_page(rng: random.Random) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        data = bytearray(path.read_bytes())
        page = int.from_bytes(data[16:18], "big") or 65536
        pages = max(1, len(data) // page)
        at = rng.randrange(1, pages) * page if pages > 1 else 0
        data[at : at + page] = bytes(len(data[at : at + page]))
        path.write_bytes(bytes(data))

    return damage


def _sql(*statements: str, params: tuple[object, ...] = ()) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            for statement in statements:
                db.execute(statement, params if "?" in statement else ())
        finally:
            db.close()

    return damage


SCHEMA_EDITS = [
    "DROP TABLE journal",
    "DROP TABLE journal_parts",
    "DROP TABLE items",
    "DROP TABLE log",
    "DROP TABLE parts",
    "DELETE FROM meta",
    "UPDATE meta SET value = '0' WHERE key = 'store_version'",
    "UPDATE meta SET value = '-1' WHERE key = 'store_version'",
    "UPDATE meta SET value = 'two' WHERE key = 'store_version'",
    "ALTER TABLE log RENAME COLUMN events TO happened",
    "ALTER TABLE log DROP COLUMN extra",
    "ALTER TABLE journal RENAME COLUMN sequences TO seqs",
    "ALTER TABLE parts RENAME COLUMN json TO text",
    "ALTER TABLE items RENAME TO things",
    "DELETE FROM parts",
    "DELETE FROM items",
    "DELETE FROM items WHERE part = 'dungeons'",
    "DELETE FROM journal_parts",
    "DELETE FROM journal",
    "DELETE FROM log",
    "DELETE FROM log WHERE idx = (SELECT max(idx) FROM log)",
    "DELETE FROM log WHERE idx = 3",
    "DELETE FROM parts WHERE name = 'character'",
    "DELETE FROM parts WHERE name = 'rng_state'",
    "DELETE FROM parts WHERE name = 'schema_version'",
    "UPDATE parts SET json = '0' WHERE name = 'schema_version'",
    "UPDATE parts SET json = '999' WHERE name = 'schema_version'",
    "UPDATE journal SET entry_idx = 99999",
    "UPDATE journal SET stack = 'sideways'",
    "UPDATE log SET idx = idx + 1000 WHERE idx = 5",
]

#: (table, key column, value column) of every row that holds JSON
JSON_COLUMNS = [
    ("parts", "name", "json"),
    ("items", "rowid", "json"),
    ("journal_parts", "rowid", "json"),
    ("journal", "id", "sequences"),
    ("journal", "id", "entry"),
    ("log", "idx", "command"),
    ("log", "idx", "rolls"),
    ("log", "idx", "events"),
    ("log", "idx", "extra"),
]
ABSURD = [
    "garbage",
    "{}",
    "[]",
    "null",
    '{"length": -5, "rest": "{}", "members": {}}',
    "CAST(X'7B22FFFE22' AS TEXT)",  # not UTF-8
    "substr({col}, 1, length({col}) / 2)",  # cut short
    "replace({col}, '1', '9999999999')",
    "replace({col}, ':3', ':153')",
    "replace({col}, ',', ',-40,')",
    "replace({col}, '\"hp\":', '\"hp\":-4')",
    "replace({col}, '[', '[[')",
]


def _absurd(rng: random.Random) -> tuple[str, Callable[[Path], None]]:
    table, key, col = rng.choice(JSON_COLUMNS)
    value = rng.choice(ABSURD)
    expression = value.format(col=col) if "(" in value else "'" + value.replace("'", "''") + "'"

    def damage(path: Path) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            keys = [r[0] for r in db.execute(f"SELECT {key} FROM {table} WHERE {col} IS NOT NULL")]
            if keys:
                db.execute(f"UPDATE {table} SET {col} = {expression} WHERE {key} = ?", (rng.choice(keys),))
        finally:
            db.close()

    return f"value {table}.{col} {value[:30]}", damage


def mutants(count: int, seed: int = 21) -> Iterator[Mutant]:
    """``count`` damaged copies' recipes: every schema edit once, then random kinds of damage."""
    rng = random.Random(seed)
    made = 0
    for statement in SCHEMA_EDITS:
        if made >= count:
            return
        yield Mutant(f"schema {statement}", _sql(statement))
        made += 1
    kinds = ("flip", "truncate", "zero", "value")
    while made < count:
        # each kind once first (a short run sees them all), then at random, absurd values twice as often
        kind = kinds[made - len(SCHEMA_EDITS)] if made - len(SCHEMA_EDITS) < len(kinds) else rng.choice((*kinds, "value"))
        if kind == "flip":
            yield Mutant("bit flips", _flip(random.Random(rng.random())))
        elif kind == "truncate":
            yield Mutant("truncated", _truncate(random.Random(rng.random())))
        elif kind == "zero":
            yield Mutant("zeroed page", _zero_page(random.Random(rng.random())))
        else:
            name, damage = _absurd(random.Random(rng.random()))
            yield Mutant(name, damage)
        made += 1


class _Hung(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise _Hung


@dataclass
class Outcome:
    kind: str  # refused, loaded, crashed, hung
    detail: str = ""


def _play(path: Path) -> Outcome:
    try:
        store = open_campaign(path)
        try:
            campaign = store.load()
        except BaseException:
            store.close()
            raise
    except CampaignFileError as exc:
        text = str(exc)
        if any(word in text for word in UNCLEAR):
            return Outcome("crashed", f"unclear refusal: {text[:200]}")
        return Outcome("refused", text)
    try:
        game = _game(campaign)
        store.attach(game)
        for step in (game.undo, game.redo):
            try:
                step()
            except CommandRefused as exc:
                if "Nothing to" not in str(exc) and "damaged" not in str(exc):
                    return Outcome("crashed", f"unclear undo refusal: {exc}")
        for i in range(10):
            game.execute(game.parse_command(dict(ACTIONS[i % 2])))
    finally:
        store.close()
    return Outcome("loaded")


def try_store(path: Path) -> Outcome:
    """Open ``path`` as the window does and play it; the outcome (see the module)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    start = time.monotonic()
    try:
        outcome = _play(path)
    except _Hung:
        return Outcome("hung")
    except Exception as exc:  # what the fuzz counts
        outcome = Outcome("crashed", f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    if time.monotonic() - start > HANG_SECONDS:
        return Outcome("hung", outcome.detail)
    return outcome


def run_fuzz(folder: Path, count: int, seed: int = 21) -> dict[str, list[tuple[str, str]]]:
    """Damage ``count`` copies of the base store in ``folder`` and try each: outcome -> [(mutation, detail)]."""
    base = base_store(folder / "base.d100")
    results: dict[str, list[tuple[str, str]]] = {"refused": [], "loaded": [], "crashed": [], "hung": []}
    for i, mutant in enumerate(mutants(count, seed)):
        target = folder / f"m{i}.d100"
        shutil.copyfile(base, target)
        try:
            mutant.damage(target)
        except sqlite3.Error:
            pass  # the damage could not be made (e.g. a column already gone): the copy is tried as it is
        outcome = try_store(target)
        results[outcome.kind].append((mutant.name, outcome.detail))
    return results
