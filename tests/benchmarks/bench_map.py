"""Map benchmarks (PRODUCT.md §7). A script, not a test: ``python tests/benchmarks/bench_map.py``.

Bars:
  - a 10,000-area dungeon built by placing its areas one by one in under 10 s (issue 9; it took ~58 s
    when every placement rebuilt the dead-end record), and a placement / a move costing about the
    same at 200, 2,000 and 10,000 areas (the 10,000 figure at most 1.5x the 200 one);
  - a 2,000-area dungeon: scene built (and first painted) in under 1 s;
  - panning and zooming repaint in under 16 ms median on a 1400x900 viewport;
  - a 500-area map exported to PNG, SVG and PDF in under 2 s each.

The dungeons are made with the real engine (``place_manual`` on every square of a big sheet,
the standard tile set, Table D doors rolled with seeded dice), so areas have the walls,
hatching, doors and labels a played map has. Prints a table of figures in milliseconds and
exits non-zero if a bar is missed. ``--placement`` runs only the placement figures.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


sys.path.insert(0, str(Path(__file__).parent))

from figures import emit
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from d100gui.engine.dice.dice import Dice, RandomSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dungeon.map import (
    ROTATIONS,
    Dungeon,
    DungeonBook,
    add_note,
    mark_escaped,
    mark_interacted,
    mark_searched,
    place_manual,
)
from d100gui.storage.packs import load_library
from d100gui.storage.resources import standard_tileset
from d100gui.ui.map.export import export_pdf, export_png, export_svg
from d100gui.ui.map.scene import MapScene
from d100gui.ui.map.view import MapView

VIEW_W, VIEW_H = 1400, 900


def big_dungeon(cols: int, rows: int, seed: int = 1) -> Dungeon:
    """A sheet of ``cols`` x ``rows`` areas, every square mapped by hand with rolled doors."""
    rng = random.Random(seed)
    tileset = standard_tileset()
    doors = TableRoller(load_library(None).library, Dice(RandomSource(seed)), MissingRowPolicy.REROLL)
    d = Dungeon(id="bench", name="Benchmark", width=cols, height=rows)
    for row in range(rows):
        for col in range(cols):
            if (col, row) == d.outside:
                continue
            d, _ = place_manual(d, col, row, tileset.tile(rng.randint(1, 100)), rng.choice(ROTATIONS), doors)
    for i, area in enumerate(list(d.areas.values())):
        if i % 7 == 0:
            d = mark_searched(d, area.pos)
        if i % 11 == 0:
            d = mark_interacted(d, area.pos)
        if i % 23 == 0:
            d = mark_escaped(d, area.pos, "Goblin")
        if i % 13 == 0:
            d, _ = add_note(d, area.pos, f"note {i}", (i % 3, (i // 3) % 3))
    return d.model_copy(update={"hero": (cols // 2, rows - 1)})


PLACEMENT_SIZES = (200, 2000, 10000)
BUILD_BAR_S = 10.0
FLAT_BAR = 1.5


def bench_placement() -> tuple[dict[str, float], dict[str, float]]:
    """Building a 10,000-area dungeon by placement, then one placement and one move at each size.

    A move is timed through the whole command path the window uses (the game's journal and the
    campaign store's transaction included) on a campaign whose current dungeon has that many
    areas; a placement is the engine's ``place_manual`` alone.
    """
    out: dict[str, float] = {}
    bars: dict[str, float] = {}
    rng = random.Random(5)
    tileset = standard_tileset()
    doors = TableRoller(load_library(None).library, Dice(RandomSource(5)), MissingRowPolicy.REROLL)
    cols, rows = 200, 60  # the top 50 rows hold 10,000 areas; the rest is left to move into
    d = Dungeon(id="bench", name="Benchmark", width=cols, height=rows)
    built: dict[int, Dungeon] = {}
    start = time.perf_counter()
    for i in range(max(PLACEMENT_SIZES)):
        col, row = i % cols, i // cols
        d, _ = place_manual(d, col, row, tileset.tile(rng.randint(1, 100)), rng.choice(ROTATIONS), doors)
        if i + 1 in PLACEMENT_SIZES:
            built[i + 1] = d
    name = f"build a {max(PLACEMENT_SIZES):,}-area dungeon by placement"
    out[name] = time.perf_counter() - start
    bars[name] = BUILD_BAR_S
    for size, dungeon in built.items():
        times = []
        for j in range(40):
            col, row = rng.randrange(cols), rows - 2 - rng.randrange(8)
            t0 = time.perf_counter()
            place_manual(dungeon, col, row, tileset.tile(1 + j), 0, doors)
            times.append(time.perf_counter() - t0)
        out[f"place one area at {size:,} areas (median)"] = ms(statistics.median(times))
    for size in PLACEMENT_SIZES:
        out[f"move + save, campaign of {size:,} areas (median)"] = move_figure(campaign_book(size, rng, doors))
    for size, dungeon in built.items():
        out[f"move + save in one {size:,}-area dungeon (median)"] = move_figure(DungeonBook(dungeons=[dungeon]))
    first, last = min(PLACEMENT_SIZES), max(PLACEMENT_SIZES)
    for what in ("place one area", "move + save, campaign of"):
        sep = " " if what.endswith(" of") else " at "
        small, big = out[f"{what}{sep}{first:,} areas (median)"], out[f"{what}{sep}{last:,} areas (median)"]
        name = f"{what}: {last:,} / {first:,} areas"
        out[name] = big / small if small else float("inf")
        bars[name] = FLAT_BAR
    return out, bars


def campaign_book(areas: int, rng: random.Random, doors: TableRoller, per_dungeon: int = 150) -> DungeonBook:
    """A campaign's dungeons holding ``areas`` areas in all, on standard 15x11 sheets, as quests leave them."""
    tileset = standard_tileset()
    dungeons = []
    while sum(len(d.areas) for d in dungeons) < areas:
        d = Dungeon(id=f"quest-{len(dungeons) + 1}", width=15, height=11)
        left = min(per_dungeon, areas - sum(len(x.areas) for x in dungeons))
        for i in range(left):
            col, row = i % 15, i // 15
            d, _ = place_manual(d, col, row, tileset.tile(rng.randint(1, 100)), rng.choice(ROTATIONS), doors)
        dungeons.append(d)
    return DungeonBook(dungeons=dungeons, current=len(dungeons) - 1)


def move_figure(book: DungeonBook, count: int = 25) -> float:
    """Median ms of a move (command, journal and the store's save) on a campaign with ``book``'s dungeons.

    The moves are made in a new 200x60 sheet added after them, or (a one-dungeon book whose
    sheet has room) in that dungeon itself."""
    from d100gui.demo import build_demo_campaign
    from d100gui.engine.api import Session
    from d100gui.engine.dungeon.map import replace_current
    from d100gui.engine.protocol import CommandRefused
    from d100gui.storage.resources import bundled_game_data
    from d100gui.storage.store import CampaignStore

    data = bundled_game_data()
    session = Session(data, build_demo_campaign(load_library(None).library), policy="reroll")
    campaign = session.campaign
    campaign.adventure.quest = campaign.adventure.turn = None  # free mapping: bare moves are refused in a quest
    if len(book.dungeons) == 1:
        (dungeon,) = book.dungeons
        session.run({"kind": "new_dungeon", "width": dungeon.width, "height": dungeon.height})
        campaign.dungeons = replace_current(
            campaign.dungeons, dungeon.model_copy(update={"id": campaign.dungeons.dungeons[-1].id})
        )
    else:
        campaign.dungeons = book
        session.run({"kind": "new_dungeon", "width": 200, "height": 60})
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = CampaignStore.create(Path(tmp) / "bench.d100", campaign, session.game)
        store.attach(session.game)
        session.run({"kind": "enter_dungeon"})
        stuck = 0
        while len(times) < count and stuck < 50:
            for side in "NESW"[stuck % 4 :] + "NESW"[: stuck % 4]:
                t0 = time.perf_counter()
                try:
                    session.run({"kind": "move_hero", "side": side})
                except CommandRefused:
                    continue
                times.append(time.perf_counter() - t0)
                break
            stuck += 1
        store.close()
    return ms(statistics.median(times))


def ms(seconds: float) -> float:
    return seconds * 1000.0


def render_view(view: MapView, image: QImage) -> float:
    """Paint the view's viewport into ``image``; the time it took."""
    start = time.perf_counter()
    painter = QPainter(image)
    view.render(painter, QRectF(0, 0, image.width(), image.height()), view.viewport().rect())
    painter.end()
    return time.perf_counter() - start


def bench_scene(dungeon: Dungeon) -> dict[str, float]:
    out: dict[str, float] = {}
    start = time.perf_counter()
    scene = MapScene()
    scene.set_dungeon(dungeon)
    out["scene build (2,000 areas)"] = ms(time.perf_counter() - start)

    # First paint of the whole sheet, fitted into the viewport (every area drawn once).
    image = QImage(VIEW_W, VIEW_H, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.white)
    start = time.perf_counter()
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, VIEW_W, VIEW_H), scene.paper_rect(), Qt.AspectRatioMode.KeepAspectRatio)
    painter.end()
    out["first paint, whole sheet"] = ms(time.perf_counter() - start)
    out["build + first paint"] = out["scene build (2,000 areas)"] + out["first paint, whole sheet"]

    # First paint at reading zoom (full detail: hatching, labels) of a 1400x900 window.
    view = MapView(scene)
    view.resize(VIEW_W, VIEW_H)
    view.show()  # an unshown view keeps a small default viewport
    QApplication.processEvents()
    assert view.viewport().width() >= VIEW_W - 20, view.viewport().size()
    view.set_dungeon(dungeon)
    view.set_zoom(1.0)
    view.centerOn(scene.sheet_rect().center())
    out["first paint, 1400x900 at 100%"] = ms(render_view(view, image))

    # A sequence of pans and zooms, each repainted in full.
    times = []
    rng = random.Random(3)
    for step in range(60):
        kind = step % 4
        if kind == 0:
            view.pan_by(rng.randint(-300, 300), rng.randint(-200, 200))
        elif kind == 1:
            view.zoom_by(1.25, view.viewport().rect().center())
        elif kind == 2:
            view.pan_by(rng.randint(-300, 300), rng.randint(-200, 200))
        else:
            view.zoom_by(0.8, view.viewport().rect().center())
        times.append(render_view(view, image))
    out["pan/zoom repaint, median (100%)"] = ms(statistics.median(times))
    out["pan/zoom repaint, max (100%)"] = ms(max(times))

    # The same through real paint events (scrolling, background cache, backing store).
    times = []
    for step in range(40):
        if step % 2:
            view.pan_by(rng.randint(-300, 300), rng.randint(-200, 200))
        else:
            view.zoom_by(1.25 if step % 4 == 0 else 0.8, view.viewport().rect().center())
        start = time.perf_counter()
        view.viewport().repaint()
        times.append(time.perf_counter() - start)
    out["pan/zoom paint events, median (100%)"] = ms(statistics.median(times))

    # A sweep from the whole map up to 200% and back: every level of detail on the way.
    view.fit_to_dungeon()
    times = []
    for _ in range(2):
        while view.zoom < 2.0:
            view.zoom_by(1.15, view.viewport().rect().center())
            times.append(render_view(view, image))
        while view.zoom > 0.2:
            view.zoom_by(1 / 1.15, view.viewport().rect().center())
            times.append(render_view(view, image))
    out["zoom sweep fit..200%, median"] = ms(statistics.median(times))
    out["zoom sweep fit..200%, 90th percentile"] = ms(sorted(times)[int(len(times) * 0.9)])

    # The same while zoomed out to the whole dungeon (every area on screen).
    view.fit_to_dungeon()
    times = []
    for step in range(30):
        if step % 2:
            view.pan_by(rng.randint(-100, 100), rng.randint(-100, 100))
        else:
            view.zoom_by(1.1 if step % 4 == 0 else 1 / 1.1, view.viewport().rect().center())
        times.append(render_view(view, image))
    out["pan/zoom repaint, median (fit)"] = ms(statistics.median(times))
    view.deleteLater()
    return out


def bench_export(dungeon: Dungeon) -> dict[str, float]:
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        export_png(dungeon, folder / "map.png", dpi=150)
        out["export PNG 150 dpi (500 areas)"] = ms(time.perf_counter() - start)
        start = time.perf_counter()
        export_svg(dungeon, folder / "map.svg")
        out["export SVG (500 areas)"] = ms(time.perf_counter() - start)
        start = time.perf_counter()
        pages = export_pdf(dungeon, folder / "map.pdf", true_scale=True)
        out[f"export PDF true scale, {pages} A4 pages (500 areas)"] = ms(time.perf_counter() - start)
    return out


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    placement, placement_bars = bench_placement()
    report_placement(placement, placement_bars)
    placement_missed = any(placement[k] >= bar for k, bar in placement_bars.items())
    if "--placement" in sys.argv[1:]:
        emit_placement(placement, placement_bars)
        return 1 if placement_missed else 0
    start = time.perf_counter()
    big = big_dungeon(50, 40)
    medium = big_dungeon(25, 20, seed=2)
    print(f"(dungeons made in {time.perf_counter() - start:.1f} s: {len(big.areas)} and {len(medium.areas)} areas)")
    figures = {**bench_scene(big), **bench_export(medium)}
    bars = {
        "build + first paint": 1000.0,
        "pan/zoom repaint, median (100%)": 16.0,
        "pan/zoom paint events, median (100%)": 16.0,
        "zoom sweep fit..200%, median": 16.0,
        "pan/zoom repaint, median (fit)": 16.0,
    }
    missed = []
    width = max(len(k) for k in figures) + 2
    print(f"{'measure':<{width}}{'ms':>10}  bar")
    for name, value in figures.items():
        bar = bars.get(name, 2000.0 if name.startswith("export") else None)
        verdict = "" if bar is None else (f"< {bar:g}  ok" if value < bar else f"< {bar:g}  MISSED")
        if bar is not None and value >= bar:
            missed.append(name)
        print(f"{name:<{width}}{value:>10.1f}  {verdict}")
    for name, value in figures.items():
        bar = bars.get(name, 2000.0 if name.startswith("export") else None)
        emit("map", name, value, "ms", "" if bar is None else f"< {bar:g}")
    emit_placement(placement, placement_bars)
    app.processEvents()
    return 1 if missed or placement_missed else 0


def _unit(name: str) -> str:
    return "s" if name.startswith("build") else "x" if "/" in name else "ms"


def report_placement(figures: dict[str, float], bars: dict[str, float]) -> None:
    """Print the placement figures (seconds, ms or a ratio, by name) with their bars."""
    for name, value in figures.items():
        bar = bars.get(name)
        verdict = "" if bar is None else (f"< {bar:g} {_unit(name)}  ok" if value < bar else f"< {bar:g} {_unit(name)}  MISSED")
        print(f"{name:<48}{value:>10.2f} {_unit(name):<3} {verdict}")


def emit_placement(figures: dict[str, float], bars: dict[str, float]) -> None:
    for name, value in figures.items():
        bar = bars.get(name)
        emit("map", name, value, _unit(name), "" if bar is None else f"< {bar:g}")


if __name__ == "__main__":
    sys.exit(main())
