"""Autosave benchmark (PRODUCT.md §7): a large campaign (100 quests, 2,000 areas) saved in under
100 ms. A script, not a test: ``python tests/benchmarks/bench_autosave.py``.

Measures what the window does after every command: serialize the campaign and write it
atomically with three rotating backups. Median of 15 runs.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from figures import emit
from large_campaign import large_campaign

from d100gui.storage.campaigns import campaign_json, save_campaign

BAR_MS = 100.0


def main() -> int:
    campaign = large_campaign()
    areas = sum(len(d.areas) for d in campaign.dungeons.dungeons)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.d100.json"
        save_campaign(campaign, path)
        serial, total = [], []
        for _ in range(15):
            t0 = time.perf_counter()
            text = campaign_json(campaign)
            t1 = time.perf_counter()
            save_campaign(campaign, path, text)
            t2 = time.perf_counter()
            serial.append((t1 - t0) * 1000)
            total.append((t2 - t0) * 1000)
        size = path.stat().st_size
    median = statistics.median(total)
    print(f"Autosave of a campaign with {areas} areas, {len(campaign.log)} log entries, {size / 1e6:.1f} MB")
    print(f"  serialize  median {statistics.median(serial):7.1f} ms")
    print(f"  save total median {median:7.1f} ms   (bar {BAR_MS:.0f} ms)")
    ok = median < BAR_MS
    print("PASS" if ok else "FAIL")
    emit("autosave", "serialize, median", statistics.median(serial), "ms", "")
    emit("autosave", "save total, median", median, "ms", f"< {BAR_MS:.0f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
