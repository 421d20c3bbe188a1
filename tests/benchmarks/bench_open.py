"""Open benchmark (PRODUCT.md §7, issue 9): load of a 20,000-entry campaign from its store under 300 ms.
A script, not a test: ``python tests/benchmarks/bench_open.py [--entries 20000] [--whole-history]``.

The large campaign (demo hero, 2,000 areas) with a 20,000-entry log and 0.6 dice-history lines per
entry (12,000 rolls, about 18 MB of history, as a played campaign keeps), saved in its store; then,
each time in a fresh store object: ``CampaignStore.open`` + ``load`` (the current state, the newest
log entries and the newest rolls; the rest paged on demand). ``--whole-history`` reads the whole dice
history on open, as the store did before it was paged (for the before/after figure). Median of 7,
wall-clock and CPU time (the machine is shared: CPU time is the steadier of the two).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from figures import emit
from large_campaign import large_campaign

import d100gui.engine.commands  # noqa: F401  (every event kind declared, as in the app)
from d100gui.storage import store as store_module
from d100gui.storage.store import CampaignStore

BAR_MS = 300.0
RUNS = 7
HISTORY_PER_ENTRY = 0.6


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=20000)
    parser.add_argument("--whole-history", action="store_true", help="read the whole dice history on open (as before)")
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    if args.whole_history:
        store_module.OPEN_HISTORY_TAIL = 10**9
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "open.d100"
        campaign = large_campaign(log_entries=args.entries, history_per_entry=HISTORY_PER_ENTRY)
        rolls = len(campaign.dice_history)
        CampaignStore.create(path, campaign).close()
        del campaign
        size = path.stat().st_size
        walls, cpus = [], []
        for _ in range(args.runs + 1):
            gc.collect()
            t0, c0 = time.perf_counter(), time.process_time()
            store = CampaignStore.open(path)
            loaded = store.load()
            walls.append((time.perf_counter() - t0) * 1000)
            cpus.append((time.process_time() - c0) * 1000)
            assert loaded.log_length == args.entries and len(loaded.dice_history) == rolls
            store.close()
        walls, cpus = walls[1:], cpus[1:]  # the first warms the file cache
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    mode = "whole dice history read" if args.whole_history else "dice history paged"
    print(f"Open a {args.entries}-entry campaign ({rolls} rolls, store {size / 1e6:.0f} MB; {mode}), median of {args.runs}")
    print(f"  wall {wall:7.1f} ms   cpu {cpu:7.1f} ms   (bar {BAR_MS:.0f} ms)")
    ok = wall < BAR_MS
    print("PASS" if ok else "FAIL")
    name = f"open the {args.entries}-entry campaign" + (" (whole dice history)" if args.whole_history else "")
    emit("open", f"{name}, median wall", wall, "ms", f"< {BAR_MS:.0f} ms")
    emit("open", f"{name}, median cpu", cpu, "ms", "")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
