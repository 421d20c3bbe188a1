"""Dice history benchmark (issue 9). A script, not a test: ``python tests/benchmarks/bench_dice_history.py``.

A roll in the dice panel with 100 and with 100,000 rolls in the history, median of 30 rolls:
the panel's refresh (result box, the history's new row scrolled to, the list repainted), and the
whole roll (the command and its journal too). Bar: the refresh at 100,000 at most 1.5x the one
at 100, and under 30 ms. For comparison, the same refresh with the list the panel used before
(a word-wrapped ``QListWidget`` holding every row), at 100 and 12,000 rows.

Prints the figures with their bars, then one JSON line per figure. Exits non-zero if a bar is missed.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).parent))

from figures import emit
from PySide6.QtWidgets import QApplication, QListWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice_commands import RollDice
from d100gui.engine.game import Game
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.dice.panel import DicePanel

SIZES = (100, 100_000)
OLD_SIZES = (100, 12_000)
ROLLS = 30
BAR_MS = 30.0
FLAT_BAR = 1.5


def panel_roll_ms(size: int) -> tuple[float, float]:
    """Median ms with ``size`` rolls in the history: (the panel's refresh after a roll, the whole roll).

    The refresh is what the panel does with the roll (the result box, the history's new row,
    scrolled to) and the history list's repaint; the whole roll adds the command and its journal.
    """
    library = load_library(None).library
    game = Game(Campaign(), library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.execute(RollDice(expression="d100", purpose="first"))
    game.campaign.dice_history.extend([game.campaign.dice_history[0]] * (size - 1))
    bridge = EngineBridge(game)
    panel = DicePanel(bridge)
    panel.resize(420, 900)
    panel.show()
    panel.reload_history()
    QApplication.processEvents()
    refresh, whole = [], []
    for _ in range(ROLLS):
        t0 = time.perf_counter()
        game.execute(RollDice(expression="d100", purpose="bench"))
        t1 = time.perf_counter()
        index = len(game.campaign.dice_history) - 1
        panel.show_entry(index, game.campaign.dice_history[index])
        panel.history.viewport().repaint()
        QApplication.processEvents()
        t2 = time.perf_counter()
        refresh.append(t2 - t1)
        whole.append(t2 - t0)
    assert panel.history.count() == size + ROLLS
    panel.close()
    panel.deleteLater()
    QApplication.processEvents()
    return statistics.median(refresh) * 1000, statistics.median(whole) * 1000


def old_list_ms(size: int) -> float:
    """The same refresh with the old list: a word-wrapped QListWidget that holds every row."""
    view = QListWidget()
    view.setWordWrap(True)
    view.resize(400, 300)  # as the panel's history box
    line = "12345. d100 -> 57: Table A, a long line of result that wraps in a narrow dock"
    view.addItems([line] * size)
    view.show()
    QApplication.processEvents()
    times = []
    for _ in range(ROLLS):
        t0 = time.perf_counter()
        view.addItem(line)
        view.scrollToBottom()
        view.viewport().repaint()
        QApplication.processEvents()
        times.append(time.perf_counter() - t0)
    view.close()
    view.deleteLater()
    return statistics.median(times) * 1000


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    figures: dict[str, float] = {}
    for size in SIZES:
        refresh, whole = panel_roll_ms(size)
        figures[f"panel refresh after a roll at {size:,} rolls (median)"] = refresh
        figures[f"roll + refresh at {size:,} rolls (median)"] = whole
    small, big = (figures[f"panel refresh after a roll at {s:,} rolls (median)"] for s in SIZES)
    figures[f"refresh: {SIZES[-1]:,} / {SIZES[0]:,} rolls"] = big / small if small else float("inf")
    for size in OLD_SIZES:
        figures[f"before: word-wrapped QListWidget at {size:,} rows (median)"] = old_list_ms(size)
    bars = {
        f"panel refresh after a roll at {SIZES[-1]:,} rolls (median)": BAR_MS,
        f"refresh: {SIZES[-1]:,} / {SIZES[0]:,} rolls": FLAT_BAR,
    }
    missed = False
    for name, value in figures.items():
        unit = "x" if "/" in name else "ms"
        bar = bars.get(name)
        ok = bar is None or value < bar
        missed |= not ok
        verdict = "" if bar is None else f"< {bar:g} {unit}  {'ok' if ok else 'MISSED'}"
        print(f"{name:<58}{value:>9.2f} {unit:<3} {verdict}")
    for name, value in figures.items():
        bar = bars.get(name)
        emit("dice_history", name, value, "x" if "/" in name else "ms", "" if bar is None else f"< {bar:g}")
    app.processEvents()
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
