"""Memory benchmark (issue 9): process memory after 5,000 actions on the large campaign. A script, not a test:
``python tests/benchmarks/bench_memory.py [--actions 5000]``.

The campaign is ``large_campaign`` (demo hero, 2,000 areas over 20 dungeons, 5,000 log entries),
played through the path the window uses: a :class:`~d100gui.engine.game.Game` (via the
headless ``Session``) saving every action in its :class:`~d100gui.storage.store.CampaignStore`.
The actions cycle table rolls, moves (new dungeons as they fill), combat actions and dice
rolls. Bar: resident memory under 400 MB after the actions; the undo journal's own share
(the bytes its steps hold) is printed too, as it is the part that used to grow with the log.

Prints RSS before and after, then one JSON line per figure. Exits non-zero if the bar is missed.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_actions import Saver, play_mixed, rss_mb
from figures import emit
from large_campaign import large_campaign

from d100gui.engine.api import Session
from d100gui.engine.journal import Step
from d100gui.storage.resources import bundled_game_data

MEMORY_BAR_MB = 400.0


def undo_bytes(session: Session) -> int:
    """What the in-memory undo steps hold (their parts' JSON), the journal's own accounting."""
    return sum(s.size for s in session.game.undo_steps if isinstance(s, Step))


def play(session: Session, saver: Saver, actions: int) -> int:
    """Play ``actions`` mixed actions, printing the resident memory every 500."""
    told = [0]

    def progress(done: int) -> None:
        if done - told[0] >= 500:
            told[0] = done
            print(f"  ... {done} actions, RSS {rss_mb():.0f} MB", flush=True)

    return play_mixed(session, saver, actions, progress)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=5000)
    parser.add_argument("--log-entries", type=int, default=5000, help="the large campaign's log length to start from")
    args = parser.parse_args()
    data = bundled_game_data()
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(data, large_campaign(log_entries=args.log_entries), policy="reroll")
        saver = Saver(session, Path(tmp), json_save=False)
        gc.collect()
        before = rss_mb()
        t0 = time.perf_counter()
        done = play(session, saver, args.actions)
        seconds = time.perf_counter() - t0
        gc.collect()
        after = rss_mb()
        journal = undo_bytes(session) / (1024 * 1024)
        depth = len(session.game.undo_steps)
        saver.close()
    ok = after < MEMORY_BAR_MB
    print(f"Memory, large campaign, {done} actions through Game + campaign store ({seconds:.0f} s)")
    print(f"  RSS before the actions      {before:8.1f} MB")
    print(f"  RSS after the actions       {after:8.1f} MB  (bar < {MEMORY_BAR_MB:.0f} MB) {'ok' if ok else 'MISSED'}")
    print(f"  undo steps kept             {depth:8d}")
    print(f"  bytes the undo steps hold   {journal:8.1f} MB")
    emit("memory", "RSS before the actions", round(before, 1), "MB", "")
    emit("memory", f"RSS after {done} actions", round(after, 1), "MB", f"< {MEMORY_BAR_MB:.0f} MB")
    emit("memory", "undo steps' parts", round(journal, 1), "MB", "")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
