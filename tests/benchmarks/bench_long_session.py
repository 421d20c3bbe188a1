"""Long-session benchmark (issue 27 #16): memory flat as a session goes on, and the open of a huge log.

``python tests/benchmarks/bench_long_session.py [--actions 20000] [--rows 200000]``

1. A headless game with its store attached (the window's save path) plays dice and table rolls;
   resident memory (RSS) at 1,000, 5,000 and 20,000 actions. Bar: at most 2 MB more per 1,000
   actions after the first thousand (the log in memory is trimmed to its newest entries once saved,
   the undo history is bounded; both are paged from the store).
2. A store whose log holds ``--rows`` entries (one roll each, written straight into the file): the
   time to open and load it (the checks at open included). Bar: under 1 s.

Prints one JSON line per figure; exits non-zero if a bar is missed.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_actions import rss_mb
from figures import emit

from d100gui.engine.api import Session
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore

MARKS = (1_000, 5_000, 20_000)


def memory(folder: Path, actions: int) -> dict[int, float]:
    session = Session.new(bundled_game_data(), seed=11, policy="reroll")
    store = CampaignStore.create(folder / "session.d100", session.campaign, session.game)
    store.attach(session.game)
    found: dict[int, float] = {}
    commands = [{"kind": "roll_dice", "expression": "3d6"}, {"kind": "roll_table", "table_id": "d100.A"}]
    for i in range(1, actions + 1):
        session.run(commands[i % 2])
        if i in MARKS or i == actions:
            found[i] = rss_mb()
    store.close()
    return found


def huge_log(folder: Path, rows: int) -> float:
    """Open and load time (ms) of a store with ``rows`` log entries."""
    session = Session.new(bundled_game_data(), seed=5, policy="reroll")
    path = folder / "huge.d100"
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    session.run({"kind": "roll_dice", "expression": "d6"})
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    row = db.execute("SELECT * FROM log WHERE idx = 0").fetchone()
    db.execute("BEGIN")
    db.execute("DELETE FROM journal_parts")
    db.execute("DELETE FROM journal")
    db.executemany(f"INSERT INTO log VALUES ({','.join('?' * len(row))})", ((i, *row[1:]) for i in range(1, rows)))
    counts = db.execute("SELECT value FROM meta WHERE key = 'counts'").fetchone()
    if counts:
        data = json.loads(counts[0])
        data.update(log=rows, journal_parts=0)
        db.execute("UPDATE meta SET value = ? WHERE key = 'counts'", (json.dumps(data),))
    db.execute("COMMIT")
    db.close()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        opened = CampaignStore.open(path)
        opened.load()
        best = min(best, (time.perf_counter() - start) * 1000)
        opened.close()
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=MARKS[-1])
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        found = memory(Path(tmp), args.actions)
        for mark, value in sorted(found.items()):
            emit("long_session", f"rss_after_{mark}_actions", value, "MB", "")
        first, last = min(found), max(found)
        if last > first:
            growth = (found[last] - found[first]) * 1000 / (last - first)
            emit("long_session", "rss_growth_per_1000_actions", growth, "MB", "<= 2")
            ok = ok and growth <= 2
        opened = huge_log(Path(tmp), args.rows)
        emit("long_session", f"open_{args.rows}_row_log", opened, "ms", "< 1000")
        ok = ok and opened < 1000
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
