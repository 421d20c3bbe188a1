"""Routine actions in the whole main window, from the call to the repaint done (issue 18, PRODUCT.md §7).

A script, not a test: ``python tests/benchmarks/bench_window.py [--sizes 1000,5000,20000] [--reps N]``.

The large campaign (``large_campaign.py``: demo hero, 2,000 areas) with logs of 1,000 / 5,000 /
20,000 entries (the demo's entries that fought no fight, repeated: the worst case for a view that
looks back for a fight's start; ``--with-fights`` keeps them) is written to a campaign store and opened by the window as a player would
(``MainWindow.open_campaign``: the newest log entries in memory, the rest paged from the store).
Each routine action is sent through the window's own action or its bridge, as a click sends it:

* a move (Map > Move north/east/south/west, outside a quest), a table roll (Table A), a combat
  action (the fight's answer to what it waits for; and, apart, until its odds are shown: they are
  worked out off the GUI thread, bar 200 ms), a skill test's accept, undo and redo
  (Edit > Undo / Redo);
* in a quest (a training quest begun through the turn strip's command): the quest turn (the move
  action, which sends the turn), a search, the fight's actions, undo and redo. What the quest
  asks in between (a pending test, experience, a row) is answered by the soak bot's choices,
  untimed.

Each is timed from the call until the window has painted: the events the action posted are
processed (zero-length timers, update requests, paints) until none are left. With ``DISPLAY`` set
the window is a real xcb window (Xvfb works: ``Xvfb :99 &`` then ``DISPLAY=:99``); otherwise
offscreen. Median and 95th percentile per action and size, bars 16 ms / 50 ms, and the
20k / 1k ratio of the medians at most 1.5x. The headless engine figures (command + store save,
no window) are in ``bench_actions.py``; this bench also prints, beside the window figure, the GUI
thread's own CPU time (steadier than the wall clock on a shared machine) and the engine's share
(``Game.execute``, undo and redo).

Prints one JSON line per figure. Exits non-zero if a bar is missed.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "soak"))

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from figures import FigureTable
from large_campaign import BENCH_MONSTER, FIGHT_ANSWERS, large_campaign

BENCH = "window"
MEDIAN_BAR_MS = 16.0
P95_BAR_MS = 50.0
GROWTH_BAR = 1.5
HISTORY_PER_ENTRY = 0.6
MONSTER, ANSWERS = BENCH_MONSTER, FIGHT_ANSWERS
figure = FigureTable(BENCH, width=58)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


class Timer:
    """Times one action through the window: the call, then the events it posted until painted."""

    def __init__(self, app: Any, window: Any) -> None:
        self.app = app
        self.window = window
        self.runs: dict[str, list[float]] = {}
        self.engine: dict[str, list[float]] = {}
        self.odds: list[float] = []  # from a combat action to its odds shown
        self.cpu: dict[str, list[float]] = {}
        self._engine_ms = 0.0
        game_type = type(window.game)
        for name in ("execute", "undo", "redo"):  # the engine's share of the action
            setattr(game_type, name, self._timed(getattr(game_type, name)))

    def _timed(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return original(*args)
            finally:
                self._engine_ms += (time.perf_counter() - t0) * 1000

        return run

    def settle(self) -> None:
        """Process what the action posted until nothing is left (timers, update requests, paints)."""
        from PySide6.QtCore import QEventLoop

        for _ in range(4):
            self.app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
        self.app.sendPostedEvents()
        self.app.processEvents()

    def time(self, name: str, action: Callable[[], object]) -> bool:
        """Run ``action`` and time it to the repaint; True if the game changed (a log entry, undo or redo)."""
        game = self.window.game
        before = (game.campaign.log_length, game.can_undo, game.can_redo, len(game.campaign.dice_history))
        self.settle()
        self._engine_ms = 0.0
        t0, c0 = time.perf_counter(), time.thread_time()
        action()
        self.settle()
        ms = (time.perf_counter() - t0) * 1000
        cpu = (time.thread_time() - c0) * 1000  # the GUI thread's own CPU: steadier on a shared machine
        game = self.window.game
        after = (game.campaign.log_length, game.can_undo, game.can_redo, len(game.campaign.dice_history))
        if after == before and name not in ("undo", "redo", "undo in a quest", "redo in a quest"):
            return False
        self.runs.setdefault(name, []).append(ms)
        self.cpu.setdefault(name, []).append(cpu)
        self.engine.setdefault(name, []).append(self._engine_ms)
        return True


def send(window: Any, command: dict[str, Any]) -> bool:
    return bool(window.bridge.send(window.game.parse_command(dict(command))))


def move(window: Any, timer: Timer, name: str) -> bool:
    """One move through Map > Move <side> (the turn's command while a quest is on): the first side that goes."""
    for action in window.move_actions:
        if timer.time(name, action.trigger):
            return True
    return False


def outside_quest(window: Any, timer: Timer, reps: int) -> None:
    send(window, {"kind": "new_dungeon"})
    send(window, {"kind": "enter_dungeon"})
    done = stuck = 0
    while done < reps and stuck < 5:
        if move(window, timer, "move"):
            done, stuck = done + 1, 0
        else:
            stuck += 1
            send(window, {"kind": "new_dungeon"})
            send(window, {"kind": "enter_dungeon"})
    for _ in range(reps):
        timer.time("table roll", lambda: send(window, {"kind": "roll_table", "table_id": "d100.A"}))
    fights = 0
    while len(timer.runs.get("combat action", [])) < reps and fights < 20:
        combat = window.game.campaign.combat
        if combat is None:
            fights += 1
            send(window, {"kind": "start_combat", "source": "monster", "monster": MONSTER, "fate_windows": False})
            continue
        if timer.time("combat action", lambda c=combat: send(window, ANSWERS[c.waiting])):
            odds_shown(window, timer)
        settle_pending(window)
    while window.game.campaign.combat is not None:
        send(window, ANSWERS[window.game.campaign.combat.waiting])
        settle_pending(window)
    for _ in range(reps):
        send(window, {"kind": "roll_test", "text": "Test: Dex"})
        tests = [d for d in window.game.campaign.pending if d.decision == "test_roll"]
        if not tests:
            break
        timer.time("skill test accept", lambda d=tests[0]: send(window, {"kind": "accept_test", "decision": d.id}))
        settle_pending(window)
    for _ in range(reps):
        timer.time("undo", window.undo_action.trigger)
        timer.time("redo", window.redo_action.trigger)


def odds_shown(window: Any, timer: Timer) -> None:
    """After a combat action, until its odds are shown (worked out off the GUI thread once the fight stands still)."""
    panel = window.combat_panel
    if window.game.campaign.combat is None:
        return
    waited = time.perf_counter()
    while panel.odds is None and time.perf_counter() - waited < 5:
        timer.app.processEvents()
        time.sleep(0.001)
    ms = timer.runs["combat action"][-1] + (time.perf_counter() - waited) * 1000
    timer.odds.append(ms)


def settle_pending(window: Any) -> None:
    """Experience pips and the like, answered untimed (they are not the action measured)."""
    for d in list(window.game.campaign.pending):
        if d.decision == "experience":
            for choice in ("characteristic", "skills", "decline"):
                if send(window, {"kind": "assign_experience", "decision": d.id, "choice": choice}):
                    break


def in_quest(window: Any, timer: Timer, reps: int, data: Any) -> None:
    """A quest played by the soak bot's choices through the window; the routine actions timed."""
    from bot import UNDO, SoakBot

    from d100gui.engine.protocol import CommandRefused

    bot = SoakBot(7)
    errors: list[str] = []
    window.bridge.error.connect(errors.append)

    class WindowSession:
        """The bot's session, played through the window's bridge."""

        def __init__(self) -> None:
            self.data = data

        game = property(lambda self: window.game)
        campaign = property(lambda self: window.game.campaign)
        character = property(lambda self: window.game.campaign.character)
        pending = property(lambda self: window.game.campaign.pending)
        combat = property(lambda self: window.game.campaign.combat)
        log = property(lambda self: window.game.campaign.log)

        def run(self, command: dict[str, Any]) -> list[dict[str, Any]]:
            kind = str(command["kind"])
            errors.clear()
            if kind == "turn_move":
                sides = {"N": 0, "E": 1, "S": 2, "W": 3}
                action = window.move_actions[sides[str(command["side"])]]
                ok = timer.time("quest turn (move)", action.trigger)
            elif kind == "turn_search":
                ok = timer.time("search", lambda: send(window, command))
            elif kind.startswith("combat_"):
                ok = timer.time("combat action in a quest", lambda: send(window, command))
            else:
                ok = send(window, command)
            if not ok:
                raise CommandRefused(errors[-1] if errors else "refused")
            return []

        def undo(self) -> list[dict[str, Any]]:
            raise CommandRefused("the bench times undo on its own")

    bot.session = WindowSession()  # type: ignore[assignment]
    bot.rules = data.rules
    bot.library = window.game.library
    wanted = ("quest turn (move)", "search", "combat action in a quest")
    steps = 0
    while steps < reps * 40 and any(len(timer.runs.get(n, [])) < reps for n in wanted):
        steps += 1
        for command in bot.candidates():
            if command["kind"] == UNDO:
                continue
            try:
                bot.session.run(command)
            except CommandRefused:
                continue
            bot.quest_turns += command["kind"] == "turn_move"
            break
        if window.game.campaign.character is None or window.game.campaign.character.dead:
            break
        if steps % 10 == 0 and window.game.campaign.adventure.quest is not None:
            timer.time("undo in a quest", window.undo_action.trigger)
            timer.time("redo in a quest", window.redo_action.trigger)


def fightless_log(campaign: Any, size: int) -> None:
    """The campaign's log made of the demo's entries that fought no fight: the worst case for a view
    that looks back through the log for a fight's start (the quest turn's multi-second outliers)."""
    quiet = [e for e in campaign.log if not any(ev.kind == "combat_started" for ev in e.events)]
    quiet = [e for e in quiet if e.command.get("kind") != "start_combat"]
    campaign.log[:] = [quiet[i % len(quiet)].model_copy(update={"index": i}) for i in range(size)]


def measure(size: int, reps: int, app: Any, data: Any, fightless: bool = True) -> Timer:
    from d100gui.engine.commands import ALL_COMMANDS
    from d100gui.engine.dice.roller import MissingRowPolicy
    from d100gui.engine.game import Game
    from d100gui.engine.quest.model import AdventureState
    from d100gui.storage.packs import load_library
    from d100gui.storage.store import CampaignStore
    from d100gui.ui.common.settings import Preferences
    from d100gui.ui.main_window import MainWindow

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["D100GUI_HOME"] = tmp
        path = Path(tmp) / "bench.d100"
        campaign = large_campaign(log_entries=size, history_per_entry=HISTORY_PER_ENTRY)
        campaign.adventure = AdventureState()  # between quests: the moves outside a quest first, then a quest begun
        if fightless:
            fightless_log(campaign, size)
        game = Game(campaign, data.library, ALL_COMMANDS, rules=data.rules, tilesets=data.tilesets)
        CampaignStore.create(path, campaign, game).close()
        prefs = Preferences()  # in D100GUI_HOME: the player's own settings are not touched
        prefs.missing_row_policy = MissingRowPolicy.REROLL  # the excerpts' gaps re-rolled, no dialog
        prefs.qsettings.setValue("tour/shown", True)
        window = MainWindow(load_library(None), prefs)
        window.resize(1400, 900)
        window.show()
        timer = Timer(app, window)
        assert window.open_campaign(path), "the bench campaign did not open"
        timer.settle()
        gc.collect()
        outside_quest(window, timer, reps)
        in_quest(window, timer, reps, data)
        window.campaigns.close()
        window.close()
        window.deleteLater()
        timer.settle()
        return timer


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--with-fights", action="store_true", help="keep the demo's fights in the long log")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    from PySide6.QtWidgets import QApplication

    from d100gui.storage.resources import bundled_game_data

    app = QApplication.instance() or QApplication(sys.argv)
    data = bundled_game_data()
    print(f"Window actions, call to repaint ({app.platformName()}), large campaign with 2,000 areas", flush=True)
    ok = True
    medians: dict[str, dict[int, float]] = {}
    for size in sizes:
        timer = measure(size, args.reps, app, data, fightless=not args.with_fights)
        for name, values in timer.runs.items():
            med, top = statistics.median(values), p95(values)
            medians.setdefault(name, {})[size] = med
            ok &= figure(
                f"{name} at {size} entries (median, n={len(values)})", med, "ms", f"< {MEDIAN_BAR_MS:.0f} ms", med < MEDIAN_BAR_MS
            )
            ok &= figure(f"{name} at {size} entries (95th percentile)", top, "ms", f"< {P95_BAR_MS:.0f} ms", top < P95_BAR_MS)
            cpu = statistics.median(timer.cpu[name])
            figure(f"{name} at {size} entries: GUI thread CPU (median)", cpu, "ms", "beside", True)
            engine = statistics.median(timer.engine[name])
            figure(f"{name} at {size} entries: engine's share (median)", engine, "ms", "headless", True)
        if timer.odds:
            med = statistics.median(timer.odds)
            ok &= figure(f"combat action to its odds shown at {size} entries (median)", med, "ms", "< 200 ms", med < 200)
    if len(sizes) > 1:
        small, big = min(sizes), max(sizes)
        for name, by_size in medians.items():
            if small in by_size and big in by_size:
                ratio = by_size[big] / by_size[small] if by_size[small] else float("inf")
                ok &= figure(f"{name}: {big} / {small} entries", ratio, "x", f"<= {GROWTH_BAR}x", ratio <= GROWTH_BAR)
    print("PASS" if ok else "FAIL")
    figure.emit_all()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
