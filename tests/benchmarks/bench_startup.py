"""Cold start benchmark (issue 23, deliver 6; PRODUCT.md §7): the app started as a player starts it, its last
campaign (20,000 log entries, 12,000 dice-history lines, 2,000 mapped areas) reopened, against a bare PySide6
``QMainWindow``. A script, not a test: ``python tests/benchmarks/bench_startup.py [--runs N]``.

Each run is a fresh process; the cases alternate run by run (all see the same machine state); medians.
Two figures, each as process CPU time (user + system, every thread, from the process's start: the steadier
figure on a shared machine) and as wall time from launch, both against the bare window shown:

- **shown**: the window on screen with the last campaign's sheet and map painted (the app's ``idle`` mark:
  the campaign opened, then every waiting event handled, paints included). Bar: 1.5x the bare window.
- **first action accepted**: then the player's first action, the dice panel's Roll table on Table A by its
  real button, run by the engine, written to the store and its result painted (the ``acted`` mark). Bar: 2x.

A new campaign's start is printed beside them (no bar). The package's bytecode is compiled first (``make``
does it at install; ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile every module at every start).
Where the time goes: ``python -X importtime -m d100gui`` and cProfile of ``d100gui.app.main``; the figures
are in docs/architecture.md ("How data flows on open", the start-up paragraphs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from figures import FigureTable
from large_campaign import large_campaign

from d100gui.storage.store import CampaignStore

SHOWN_BAR = 1.5
ACTION_BAR = 2.0
ENTRIES = 20000
HISTORY_PER_ENTRY = 0.6  # as bench_open: about one history line per roll a played campaign made
PACKAGE = Path(__file__).resolve().parents[2] / "d100gui"
RUNS = 7
BARE = """
import sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv)
w = QMainWindow()
w.resize(1400, 900)
w.show()
def idle():
    app.processEvents()
    print(f"d100gui-startup idle={time.time():.6f} cpu={time.process_time():.6f}", file=sys.stderr)
    app.quit()
QTimer.singleShot(0, idle)
app.exec()
"""
REMEMBER_LAST = """
import sys
from pathlib import Path
from d100gui.ui.common.settings import Preferences
from d100gui.ui.table_editor.setup import CHOSEN_KEY
p = Preferences(); p.add_recent(Path(sys.argv[1])); p.tour_shown = True
p.qsettings.setValue(CHOSEN_KEY, "true")  # the first start's question (how to handle missing rows) answered
p.sync()
"""


def _run(cmd: list[str], env: dict[str, str]) -> dict[str, float]:
    """Each mark the process printed: ``<mark>`` ms of wall from launch, ``<mark> cpu`` ms of its CPU time."""
    t0 = time.time()
    done = subprocess.run(cmd, env=env, check=False, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"{cmd} failed ({done.returncode}): {done.stderr[-800:]}")
    marks: dict[str, float] = {}
    for line in done.stderr.splitlines():
        if line.startswith("d100gui-startup "):
            wall, cpu = line.split(" ")[1:3]
            name, _, value = wall.partition("=")
            marks[name] = (float(value) - t0) * 1000
            marks[f"{name} cpu"] = float(cpu.partition("=")[2]) * 1000
    if "idle" not in marks:
        raise SystemExit(f"no idle mark from {cmd}: {done.stderr[-800:]}")
    return marks


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--entries", type=int, default=ENTRIES)
    parser.add_argument(
        "--platform", default="offscreen", help="Qt's platform for every case (xcb: real windows, on $DISPLAY, e.g. Xvfb)"
    )
    args = parser.parse_args()
    # the installed state: bytecode compiled (make does it at install; the environment may forbid writing it)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", str(PACKAGE)], check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        store_path = home / "large.d100"
        campaign = large_campaign(log_entries=args.entries, history_per_entry=HISTORY_PER_ENTRY)
        CampaignStore.create(store_path, campaign).close()
        del campaign
        env = {**os.environ, "QT_QPA_PLATFORM": args.platform, "D100GUI_HOME": str(home / "home")}
        # the player's last campaign: a start with no file reopens it (as a player's does); the tour seen and the
        # first start's question answered (a player with a last campaign has had both).
        # Told again before each of its runs: the new campaign's first action makes that campaign the last one
        remember = [sys.executable, "-c", REMEMBER_LAST, str(store_path)]
        app = [sys.executable, "-m", "d100gui", "--quit-when-idle"]
        cases = {
            "bare QMainWindow": [sys.executable, "-c", BARE],
            "last campaign": [*app, "--first-action"],
            "new campaign": [*app, "--new", "--first-action"],
        }
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in cases}
        for turn in range(args.runs + 1):  # the first turn warms the file cache
            for name, cmd in cases.items():
                if name == "last campaign":
                    subprocess.run(remember, env=env, check=True)
                measured = _run(cmd, env)
                if turn:
                    runs[name].append(measured)
        size = store_path.stat().st_size
        with CampaignStore.read_only(store_path) as store:  # each run reopened it and its action was written
            acted = store.load().log_length - args.entries
        if acted != args.runs + 1:
            raise SystemExit(f"the last campaign took {acted} actions in {args.runs + 1} runs: it was not reopened")

    def median(case: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[case])

    bare, bare_cpu = median("bare QMainWindow", "idle"), median("bare QMainWindow", "idle cpu")
    print(
        f"Cold start, median of {args.runs} interleaved runs (last campaign: {args.entries:,} log entries, "
        f"store {size / 1e6:.0f} MB, 2,000 areas; Qt platform {args.platform})"
    )
    print(f"  bare QMainWindow shown: {bare_cpu:.0f} ms CPU, {bare:.0f} ms wall")
    table = FigureTable("startup", width=62)
    table("bare QMainWindow shown, process CPU, median", bare_cpu, "ms", "", True)
    table("bare QMainWindow shown, wall, median", bare, "ms", "", True)
    ok = True
    for case in ("last campaign", "new campaign"):
        barred = case == "last campaign"
        for mark, what, bar in (("idle", "shown, painted", SHOWN_BAR), ("acted", "first action accepted", ACTION_BAR)):
            cpu, wall = median(case, f"{mark} cpu"), median(case, mark)
            bar_text = f"<= {bar}x" if barred else ""
            table(f"{case}: {what}, process CPU, median", cpu, "ms", "", True)
            table(f"{case}: {what}, wall, median", wall, "ms", "", True)
            good_cpu = table(f"{case}: {what}, CPU / bare", cpu / bare_cpu, "x", bar_text, not barred or cpu / bare_cpu <= bar)
            good_wall = table(f"{case}: {what}, wall / bare", wall / bare, "x", bar_text, not barred or wall / bare <= bar)
            ok = ok and good_cpu and good_wall
    print(f"The bars ({SHOWN_BAR}x shown, {ACTION_BAR}x first action, CPU and wall): {'PASS' if ok else 'FAIL'}")
    table.emit_all()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
