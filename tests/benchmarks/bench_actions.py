"""Per-action benchmarks (PRODUCT.md §7, issue 9): command + save, no window. A script, not a test:
``python tests/benchmarks/bench_actions.py [--json-save] [--sizes 1000,5000,20000] [--quick]``.

On the large campaign (demo hero, 2,000 areas) with logs of 1,000 / 5,000 / 20,000 entries
(and 0.6 dice-history lines per entry, as the demo has), measures with the real engine:

* a move, a table roll and a combat action, each followed by its save (the campaign store's
  transaction; ``--json-save`` saves the whole JSON file instead, as the window did before
  the store): median under 30 ms at every size, the 20,000-entry figure at most 1.5x the
  1,000-entry one;
* a refused command (no more than a successful one);
* undo and redo with their save: under 50 ms;
* opening the 20,000-entry campaign (state, newest log entries; the rest paged): under 300 ms;
* process memory after 5,000 actions on the large campaign: under 400 MB.

Prints each figure with its bar, then one JSON line per figure:
``{"bench": ..., "figure": ..., "value": ..., "unit": ..., "bar": ...}``. Exits non-zero if a
bar is missed.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from figures import FigureTable
from large_campaign import BENCH_MONSTER, FIGHT_ANSWERS, large_campaign

from d100gui.engine.api import Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.campaigns import save_campaign
from d100gui.storage.resources import bundled_game_data

BENCH = "actions"
ACTION_BAR_MS = 30.0
UNDO_BAR_MS = 50.0
LOAD_BAR_MS = 300.0
MEMORY_BAR_MB = 400.0
GROWTH_BAR = 1.5
HISTORY_PER_ENTRY = 0.6

MONSTER, ANSWERS = BENCH_MONSTER, FIGHT_ANSWERS
figure = FigureTable(BENCH, width=44)


class Saver:
    """After each action: the store's transaction, or (``--json-save``) the whole file, as before the store."""

    def __init__(self, session: Session, directory: Path, json_save: bool) -> None:
        self.session = session
        self.json_save = json_save
        self.store: Any = None
        if json_save:
            self.path = directory / "bench.d100.json"
            save_campaign(session.campaign, self.path)
        else:
            from d100gui.storage.store import CampaignStore

            self.path = directory / "bench.d100"
            self.store = CampaignStore.create(self.path, session.campaign, session.game)
            self.store.attach(session.game)

    def after(self) -> None:
        if self.json_save:
            save_campaign(self.session.campaign, self.path)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def timed(session: Session, saver: Saver, command: dict[str, Any]) -> float | None:
    """ms for one command and its save; None if refused."""
    t0 = time.perf_counter()
    try:
        session.run(command)
    except CommandRefused:
        return None
    saver.after()
    return (time.perf_counter() - t0) * 1000


def moves(session: Session, saver: Saver, count: int) -> tuple[list[float], list[float]]:
    """Timed moves (and timed refusals): new dungeons as needed, every side tried in turn."""
    done: list[float] = []
    refused: list[float] = []
    session.run({"kind": "new_dungeon"})
    session.run({"kind": "enter_dungeon"})
    saver.after()
    stuck = 0
    while len(done) < count:
        moved = False
        for side in "NESW":
            t0 = time.perf_counter()
            ms = timed(session, saver, {"kind": "move_hero", "side": side})
            if ms is None:
                refused.append((time.perf_counter() - t0) * 1000)
                continue
            done.append(ms)
            moved = True
            break
        stuck = 0 if moved else stuck + 1
        if stuck:
            session.run({"kind": "new_dungeon"})
            session.run({"kind": "enter_dungeon"})
            saver.after()
    return done, refused


def table_rolls(session: Session, saver: Saver, count: int) -> list[float]:
    return [ms for _ in range(count) if (ms := timed(session, saver, {"kind": "roll_table", "table_id": "d100.A"})) is not None]


def combat_actions(session: Session, saver: Saver, count: int) -> list[float]:
    done: list[float] = []
    while len(done) < count:
        if session.character is None:
            raise CommandRefused("the hero has fallen")
        if session.combat is None:
            session.run({"kind": "start_combat", "source": "monster", "monster": MONSTER, "fate_windows": False})
            saver.after()
            continue
        ms = timed(session, saver, ANSWERS[session.combat.waiting])
        if ms is None:
            raise SystemExit(f"combat answer refused while waiting for {session.combat.waiting}")
        done.append(ms)
        settle_experience(session)
    return done


def fight_to_the_end(session: Session, saver: Saver) -> int:
    """Ten combat actions, then on until that fight is over: a fight left open would refuse every
    move, and the moves would then open dungeon after dungeon looking for a way on."""
    done = len(combat_actions(session, saver, 10))
    while session.combat is not None and session.character is not None:
        if timed(session, saver, ANSWERS[session.combat.waiting]) is None:
            raise SystemExit(f"combat answer refused while waiting for {session.combat.waiting}")
        settle_experience(session)
        done += 1
    return done


def settle_experience(session: Session) -> None:
    """Put experience pips where they still fit (a characteristic at 80 takes no more)."""
    for pending in [d for d in session.pending if d.decision == "experience"]:
        for choice in ("characteristic", "skills", "decline"):
            try:
                session.run({"kind": "assign_experience", "decision": pending.id, "choice": choice})
                break
            except CommandRefused:
                continue


def undo_redo(session: Session, saver: Saver, count: int) -> tuple[list[float], list[float]]:
    undos, redos = [], []
    for _ in range(count):
        t0 = time.perf_counter()
        session.undo()
        saver.after()
        undos.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        session.redo()
        saver.after()
        redos.append((time.perf_counter() - t0) * 1000)
    return undos, redos


def campaign_of(entries: int) -> Campaign:
    return large_campaign(log_entries=entries, history_per_entry=HISTORY_PER_ENTRY)


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json-save", action="store_true", help="save the whole JSON file per action (before the store)")
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, no memory run")
    parser.add_argument("--memory-actions", type=int, default=5000)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    reps = 5 if args.quick else 25
    data = bundled_game_data()
    ok = True
    mode = "JSON file per action" if args.json_save else "campaign store"
    print(f"Per action (command + save: {mode}), large campaign with 2,000 areas")
    medians: dict[str, dict[int, float]] = {"move": {}, "table roll": {}, "combat action": {}}
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            session = Session(data, campaign_of(size), policy="reroll")
            saver = Saver(session, Path(tmp), args.json_save)
            gc.collect()
            runs: dict[str, list[float]] = {}
            runs["move"], refused = moves(session, saver, reps)
            runs["table roll"] = table_rolls(session, saver, reps)
            runs["combat action"] = combat_actions(session, saver, reps)
            for name, values in runs.items():
                medians[name][size] = statistics.median(values)
                ok &= figure(
                    f"{name} at {size} entries (median)",
                    medians[name][size],
                    "ms",
                    f"< {ACTION_BAR_MS:.0f} ms",
                    medians[name][size] < ACTION_BAR_MS,
                )
            if refused:
                value = statistics.median(refused)
                figure(
                    f"refused move at {size} entries (median)",
                    value,
                    "ms",
                    "<= a move",
                    value <= max(medians["move"][size], 1.0) * 1.5,
                )
            undos, redos = undo_redo(session, saver, max(3, reps // 2))
            for name, values in (("undo", undos), ("redo", redos)):
                value = statistics.median(values)
                ok &= figure(f"{name} at {size} entries (median)", value, "ms", f"< {UNDO_BAR_MS:.0f} ms", value < UNDO_BAR_MS)
            saver.close()
            if not args.json_save and size == max(sizes):
                ok &= load_figure(Path(tmp) / "bench.d100", size)
    if len(sizes) > 1:
        small, big = min(sizes), max(sizes)
        for name, by_size in medians.items():
            ratio = by_size[big] / by_size[small] if by_size[small] else float("inf")
            ok &= figure(f"{name}: {big} / {small} entries", ratio, "x", f"<= {GROWTH_BAR}x", ratio <= GROWTH_BAR)
    if not args.quick:
        ok &= memory_figure(data, args.memory_actions, args.json_save)
    print("PASS" if ok else "FAIL")
    figure.emit_all()
    return 0 if ok else 1


def load_figure(path: Path, size: int) -> bool:
    from d100gui.storage.store import CampaignStore

    times = []
    for _ in range(5):
        gc.collect()
        t0 = time.perf_counter()
        store = CampaignStore.open(path)
        campaign = store.load()
        times.append((time.perf_counter() - t0) * 1000)
        assert campaign.log_length >= size
        store.close()
    value = statistics.median(times)
    return figure(f"open the {size}-entry campaign (median)", value, "ms", f"< {LOAD_BAR_MS:.0f} ms", value < LOAD_BAR_MS)


def play_mixed(session: Session, saver: Saver, actions: int, progress: Callable[[int], None] | None = None) -> int:
    """Play about ``actions`` actions, cycling table rolls, moves, fights (each to its end) and dice
    rolls. Before each fight a hero under their primary HP is healed by hand (a sheet correction, not
    counted): a fallen hero's campaign refuses every command (issue 18), which would end the run early.
    A step refused, or that did nothing, is dropped (the run never loops without playing). Returns how
    many were done."""
    steps: list[Callable[[], int]] = [
        lambda: len(table_rolls(session, saver, 10)),
        lambda: len(moves(session, saver, 10)[0]),
        lambda: heal(session, saver) + fight_to_the_end(session, saver),
        lambda: sum(1 for _ in range(10) if timed(session, saver, {"kind": "roll_dice", "expression": "d100"})),
    ]
    done = i = 0
    while done < actions and steps:
        step = steps[i % len(steps)]
        try:
            played = step()
        except CommandRefused:
            played = 0
        if played:
            done += played
            i += 1
        else:
            steps.remove(step)
        if progress is not None:
            progress(done)
    return done


def heal(session: Session, saver: Saver) -> int:
    """A standing hero under their primary HP set back to it by hand (untimed, not counted: 0)."""
    hero = session.character
    if hero is not None and not hero.dead and hero.hp < hero.hp_primary:
        session.run({"kind": "set_sheet_field", "field": "hp", "value": hero.hp_primary})
        saver.after()
    return 0


def memory_figure(data: Any, actions: int, json_save: bool) -> bool:
    """RSS after ``actions`` actions (rolls, table rolls, moves, fights) on the large campaign."""
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(data, large_campaign(), policy="reroll")
        saver = Saver(session, Path(tmp), json_save)
        done = play_mixed(session, saver, actions)
        gc.collect()
        value = rss_mb()
        saver.close()
    return figure(f"memory after {done} actions (RSS)", value, "MB", f"< {MEMORY_BAR_MB:.0f} MB", value < MEMORY_BAR_MB)


if __name__ == "__main__":
    sys.exit(main())
