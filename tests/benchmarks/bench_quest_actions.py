"""A quest's routine actions headless: the engine's and the store's share of a window action (issue 18, performance).

A script, not a test: ``python tests/benchmarks/bench_quest_actions.py [--sizes 1000,5000,20000] [--reps N]``.

The window bench (``bench_window.py``) times a search, a quest turn and a combat action in a quest from
the call to the repaint; this one times what the engine and the store do for them, without a window:
on the large campaign (``large_campaign.py``, its log made of fightless entries as the window bench
makes it) written to a campaign store and reopened (the newest log entries in memory, the rest paged),
the soak bot plays a quest until each action is on offer in the engine's flow; then that very action
is sent ``--reps`` times, each followed by the flow query (what the window asks once per action) and
taken back with undo (untimed), so every repetition starts from the same state. Timed per action:

* the command (``Game.execute``: the gate, the command, the journal's change set, the checks) with the
  store's synchronous write (the store listens to the game: one transaction per action);
* the flow query after it.

Median of the thread's CPU time (steady on a shared machine) and of the wall clock, and the 20k / 1k
ratio of the CPU medians (bar 1.5x: no growth with the log). The bar of the engine's share is 4 ms:
what is left of the window's 16 ms for the views. Prints one JSON line per figure; exits non-zero if
a bar is missed.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "soak"))

from bench_window import HISTORY_PER_ENTRY, fightless_log
from figures import FigureTable
from large_campaign import large_campaign

BENCH = "quest_actions"
ENGINE_BAR_MS = 4.0
GROWTH_BAR = 1.5
#: the actions timed, by the command kind the flow offers for them
ACTIONS = {"turn_search": "search", "turn_move": "quest turn (move)", "combat_attack": "combat action in a quest"}
figure = FigureTable(BENCH, width=58)


def opened_session(size: int, directory: Path) -> tuple[Any, Any]:
    """The large campaign between quests, written to a store and reopened as the window opens it."""
    from d100gui.engine.api import Session
    from d100gui.engine.quest.model import AdventureState
    from d100gui.storage.resources import bundled_game_data
    from d100gui.storage.store import CampaignStore

    data = bundled_game_data()
    campaign = large_campaign(log_entries=size, history_per_entry=HISTORY_PER_ENTRY)
    campaign.adventure = AdventureState()
    fightless_log(campaign, size)
    first = Session(data, campaign, policy="reroll")
    path = directory / "bench.d100"
    CampaignStore.create(path, first.campaign, first.game).close()
    store = CampaignStore.open(path)
    session = Session(data, store.load(), policy="reroll")
    store.attach(session.game)
    return session, store


def on_offer(session: Any, kind: str, limit: int = 3000) -> Any:
    """Play the soak bot's choices until the flow offers an enabled ``kind``; return that command."""
    from bot import UNDO, SoakBot

    from d100gui.engine.flow import flow
    from d100gui.engine.protocol import CommandRefused

    game = session.game
    bot = SoakBot(7)
    bot.session, bot.rules, bot.library = session, game.rules, game.library
    for _ in range(limit):
        made = flow(game.campaign, game.rules, game.library)
        for action in (*made.answers(), *made.actions):
            if action.enabled and action.command.kind == kind:
                return action.command
        for command in bot.candidates():
            if command["kind"] == UNDO:
                continue
            try:
                session.run(command)
            except CommandRefused:
                continue
            bot.quest_turns += command["kind"] == "turn_move"
            break
    raise SystemExit(f"the quest never offered {kind}")


def repeat(session: Any, command: Any, reps: int) -> dict[str, list[float]]:
    """``command`` then the flow, ``reps`` times from the same state (each taken back by undo, untimed)."""
    from d100gui.engine.flow import flow
    from d100gui.engine.protocol import CommandRefused

    game = session.game
    out: dict[str, list[float]] = {"cpu": [], "wall": [], "flow": []}
    gc.collect()
    for _ in range(reps):
        w0, c0 = time.perf_counter(), time.thread_time()
        try:
            game.execute(command)
        except CommandRefused:
            continue
        w1, c1 = time.perf_counter(), time.thread_time()
        flow(game.campaign, game.rules, game.library)
        c2 = time.thread_time()
        out["cpu"].append((c1 - c0) * 1000)
        out["wall"].append((w1 - w0) * 1000)
        out["flow"].append((c2 - c1) * 1000)
        game.undo()
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--reps", type=int, default=60)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print("A quest's actions headless (command + store write; then the flow), large campaign with 2,000 areas")
    ok = True
    cpu: dict[str, dict[int, float]] = {}
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            session, store = opened_session(size, Path(tmp))
            try:
                for kind, name in ACTIONS.items():
                    runs = repeat(session, on_offer(session, kind), args.reps)
                    if not runs["cpu"]:
                        raise SystemExit(f"{kind} was refused every time")
                    med = cpu.setdefault(name, {})[size] = statistics.median(runs["cpu"])
                    label = f"{name} at {size} entries"
                    ok &= figure(
                        f"{label}: command + store, CPU (median)", med, "ms", f"< {ENGINE_BAR_MS:.0f} ms", med < ENGINE_BAR_MS
                    )
                    figure(f"{label}: command + store, wall (median)", statistics.median(runs["wall"]), "ms", "beside", True)
                    figure(f"{label}: flow query, CPU (median)", statistics.median(runs["flow"]), "ms", "beside", True)
            finally:
                store.close()
    if len(sizes) > 1:
        small, big = min(sizes), max(sizes)
        for name, by_size in cpu.items():
            ratio = by_size[big] / by_size[small] if by_size[small] else float("inf")
            ok &= figure(f"{name}: {big} / {small} entries", ratio, "x", f"<= {GROWTH_BAR}x", ratio <= GROWTH_BAR)
    print("PASS" if ok else "FAIL")
    figure.emit_all()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
