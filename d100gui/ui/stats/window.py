"""View > Statistics: the campaign at a glance, drawn by pyqtgraph from the engine's figures.

Four tabs, each a plot and a table: the hero over quests (HP, gold, REP; hovering a point names
the quest), the characteristics over quests and the experience shaded per track, the fights by
monster, and the dice (each kind's faces against the fair count, with the chi-square test; the
app's dice and the physical ones apart). Every plot exports as PNG or SVG (pyqtgraph's
exporters) and every table as CSV. The figures come from :class:`StatsFeed`; nothing here adds
anything up.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyqtgraph as pg
import pyqtgraph.exporters as pg_exporters
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPalette, QShowEvent
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.stats.feed import Keeper, OlderLog, StatsFeed

#: series colours, one set per theme: each reads at >= 3:1 against its theme's plot background
SERIES = {
    "light": ("#1f5fa8", "#b3261e", "#1b7a2e", "#8a4b00"),
    "dark": ("#7cb8ff", "#ff8a80", "#7ee08e", "#ffc66d"),
}
STATS = ("STR", "DEX", "INT")
#: a quest's outcome (``Statistics.figures()``'s word) as the hero's table shows it
OUTCOME_WORDS = {"success": "Completed", "failure": "Failed", "in_progress": "In progress", "died": "Died"}
#: what a plot over quests shows while no quest has ended (each ended quest adds its point)
NO_QUEST_YET = "No quest has ended yet.\nEach quest adds its point here when it ends."


def _dark(widget: QWidget) -> bool:
    return widget.palette().color(QPalette.ColorRole.Base).lightness() < 128


def whole_ticks(plot: pg.PlotWidget, xs: list[int]) -> None:
    """Ticks on the whole numbers ``xs`` (quests, faces) while they fit; pyqtgraph's own beyond 40."""
    plot.getAxis("bottom").setTicks([[(x, str(x)) for x in xs]] if len(xs) <= 40 else None)


def quest_tip(x: float, y: float, data: Any) -> str:
    """A point's tooltip: the quest it stands for, and its value."""
    return f"{data}\n{y:g}"


def export_plot(plot: pg.PlotWidget, path: Path) -> None:
    """Write ``plot`` as SVG (``.svg``) or PNG (anything else), with pyqtgraph's exporters."""
    item = plot.getPlotItem()
    if path.suffix.lower() == ".svg":
        _export_svg(plot, path)
    else:
        exporter = pg_exporters.ImageExporter(item)
        exporter.parameters()["width"] = max(800, int(plot.width()))
        exporter.export(str(path if path.suffix else path.with_suffix(".png")))


def _export_svg(plot: pg.PlotWidget, path: Path) -> None:
    """The plot as SVG through Qt's own generator: pyqtgraph 0.14's SVGExporter fails on the path
    data Qt 6.11 writes (``x,y = c.split(',')``: pyqtgraph issue 3485, open), so the plot widget
    renders itself into a ``QSvgGenerator`` (vector, the same drawing as on screen)."""
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(plot.size())
    generator.setViewBox(plot.rect())
    generator.setTitle(plot.getPlotItem().titleLabel.text or "d100gui statistics")
    painter = QPainter(generator)
    try:
        plot.render(painter)
    finally:
        painter.end()


def export_table(table: QTableWidget, path: Path) -> None:
    """Write ``table`` as CSV: its header, then its rows as shown."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        columns = range(table.columnCount())
        writer.writerow([_text(table.horizontalHeaderItem(c)) for c in columns])
        for r in range(table.rowCount()):
            writer.writerow([_text(table.item(r, c)) for c in columns])


def _count(n: int, noun: str) -> str:
    """``n`` with ``noun``, plural unless one ("1 quest", "2 quests")."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _text(item: QTableWidgetItem | None) -> str:
    return item.text() if item is not None else ""


class StatsTab(QWidget):
    """One tab: a plot above a table, with their export buttons."""

    def __init__(self, name: str, title: str, columns: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"stats_{name}")
        self.name = name
        self.plot = pg.PlotWidget(title=title)
        self.plot.setObjectName(f"stats_{name}_plot")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.legend = self.plot.addLegend(offset=(-10, 10))  # top right
        self.empty_note: pg.TextItem | None = None  # what the plot will show, while it shows nothing
        self.table = QTableWidget(0, len(columns))
        self.table.setObjectName(f"stats_{name}_table")
        self._texts: list[list[str]] = []  # the rows shown, as text
        self.table.setHorizontalHeaderLabels(columns)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        # sized once after each fill: ResizeToContents re-measures every column at each setItem (seconds for 200 rows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.verticalHeader().setVisible(False)
        self.export_plot_button = QPushButton("Export plot (PNG/SVG)...")
        self.export_table_button = QPushButton("Export table (CSV)...")
        self.export_plot_button.clicked.connect(lambda _=False: self._ask_plot())
        self.export_table_button.clicked.connect(lambda _=False: self._ask_table())
        self.controls = QHBoxLayout()
        self.controls.addStretch(1)
        self.controls.addWidget(self.export_plot_button)
        self.controls.addWidget(self.export_table_button)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.plot)
        split.addWidget(self.table)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(self.controls)
        layout.addWidget(split, 1)

    def _ask_plot(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export plot", f"{self.name}.png", "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            export_plot(self.plot, Path(path))

    def _ask_table(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export table", f"{self.name}.csv", "CSV (*.csv)")
        if path:
            export_table(self.table, Path(path))

    def fill_table(self, rows: list[list[Any]]) -> None:
        """Show ``rows``; only the rows that differ from those shown are written (an action changes one or two)."""
        texts = [[f"{v:.2f}" if isinstance(v, float) else str(v) for v in row] for row in rows]
        grown = len(texts) != len(self._texts)
        self.table.setUpdatesEnabled(False)
        self.table.setRowCount(len(texts))
        for r, (row, text) in enumerate(zip(rows, texts, strict=True)):
            if r < len(self._texts) and self._texts[r] == text:
                continue
            for c, (value, word) in enumerate(zip(row, text, strict=True)):
                item = QTableWidgetItem(word)
                if isinstance(value, int | float):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self._texts = texts
        if grown:
            self.table.resizeColumnsToContents()
        self.table.setUpdatesEnabled(True)

    def say_empty(self, text: str) -> None:
        """Write ``text`` in the middle of the plot (what it will show, while it shows nothing); "" takes it away."""
        if self.empty_note is not None:
            self.plot.removeItem(self.empty_note)
            self.empty_note = None
        if text:
            colour = self.plot.palette().color(QPalette.ColorRole.Text)
            self.empty_note = pg.TextItem(text, color=colour, anchor=(0.5, 0.5))
            self.empty_note.setObjectName(f"stats_{self.name}_empty")
            self.plot.addItem(self.empty_note)
            self.plot.getPlotItem().setRange(xRange=(0, 1), yRange=(0, 1))
            self.empty_note.setPos(0.5, 0.5)

    def restyle(self, palette: QPalette) -> None:
        """Background, axes and text from the window's palette (both themes)."""
        back = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        self.plot.setBackground(back)
        item = self.plot.getPlotItem()
        for axis in ("left", "bottom"):
            item.getAxis(axis).setPen(pg.mkPen(text))
            item.getAxis(axis).setTextPen(pg.mkPen(text))
        item.titleLabel.setText(item.titleLabel.text, color=text.name())
        if self.empty_note is not None:
            self.empty_note.setColor(text)
        self.legend.setLabelTextColor(text)
        self.legend.setBrush(pg.mkBrush(QColor(back.red(), back.green(), back.blue(), 200)))


class StatisticsWindow(QWidget):
    """The Statistics window: the figures of :class:`StatsFeed` in four plotted tabs.

    Clicking a quest's point on a plot over quests, or double-clicking its row in the hero's
    table, says ``quest_chosen`` with the attempt's index (from 0): the main window opens its
    chronicle (this folder does not know the chronicle window).
    """

    quest_chosen = Signal(int)

    def __init__(
        self,
        bridge: EngineBridge,
        older: OlderLog | None = None,
        parent: QWidget | None = None,
        keeper: Callable[[], Keeper | None] | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("statisticsWindow")
        self.setWindowTitle("Statistics")
        self.resize(1100, 660)
        self.figures: dict[str, Any] = {}
        self.summary = QLabel()
        self.summary.setObjectName("stats_summary")
        self.summary.setWordWrap(True)
        self.tabs = QTabWidget()
        self.hero = StatsTab(
            "hero",
            "The hero over quests",
            [
                "#",
                "Quest",
                "Attempt",
                "Outcome",
                "Turns",
                "HP lost",
                "Gold",
                "REP",
                "Areas",
                "Won",
                "Fled",
                "Lost",
                "HP",
                "GP",
                "REP now",
            ],
        )
        self.growth = StatsTab("characteristics", "Characteristics over quests", ["Track", "Experience pips", "Trained pips"])
        self.fights = StatsTab(
            "fights",
            "Fights by monster",
            ["Monster", "Fights", "Won", "Fled", "Lost", "Escaped", "Win rate", "HP lost", "Rounds"],
        )
        self.dice = StatsTab("dice", "Dice", ["Dice", "Kind", "Rolls", "Chi-square", "dof", "p-value", "Verdict"])
        self.dice_kind = QComboBox()
        self.dice_kind.setObjectName("stats_dice_kind")
        self.dice_kind.setToolTip("The die kind plotted (the app's dice, or the physical ones typed in)")
        self.dice_kind.currentIndexChanged.connect(lambda _i: self._draw_dice())
        self.dice.controls.insertWidget(0, QLabel("Plot:"))
        self.dice.controls.insertWidget(1, self.dice_kind)
        for tab, label in (
            (self.hero, "&Hero"),
            (self.growth, "&Characteristics"),
            (self.fights, "&Fights"),
            (self.dice, "&Dice"),
        ):
            self.tabs.addTab(tab, label)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.tabs, 1)
        self.hero.table.cellDoubleClicked.connect(lambda row, _column: self._row_chosen(row))
        self.hero.table.setToolTip("Double-click a quest to open its chronicle")
        self.feed = StatsFeed(bridge, older, self, keeper)
        self._stale = False  # figures came while the window was hidden: drawn when it is shown
        self._drawn: dict[str, tuple[Any, ...]] = {}  # what each tab (and the hero's table) last drew
        self.tabs.currentChanged.connect(lambda _i: self._draw_current())
        self.feed.updated.connect(self._updated)
        self.feed.progress.connect(self._reading)
        self._restyle()
        if self.feed.ready:
            self.show_figures(self.feed.figures())
        else:  # its first page was counted before the signal was connected: say so until the figures are ready
            self._reading(*self.feed.counted())

    def _reading(self, done: int, of: int) -> None:
        self.summary.setText(f"Reading the log: {done} of {of} older entries...")

    def _updated(self, figures: dict[str, Any]) -> None:
        """Each action's figures: drawn now if the window is shown, else when it is shown again."""
        if self.isVisible():
            self.show_figures(figures)
        else:
            self._stale = True

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale and self.feed.ready:
            self._stale = False
            self.show_figures(self.feed.figures())

    # ---------------------------------------------------------------- theme

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._restyle()
            if self.figures:
                self.show_figures(self.figures, force=True)

    def _restyle(self) -> None:
        dark = _dark(self)
        self.colours = SERIES["dark" if dark else "light"]
        for tab in (self.hero, self.growth, self.fights, self.dice):
            tab.restyle(self.palette())

    # ---------------------------------------------------------------- drawing

    def show_figures(self, figures: dict[str, Any], force: bool = False) -> None:
        """Show ``figures`` (``Statistics.figures()``): the summary, and the tab in front if what it draws
        changed (the others when they come to the front). ``force`` draws again what is unchanged."""
        self.figures = figures
        if force:
            self._drawn.clear()
        c = figures["campaign"]
        self.summary.setText(
            f"{_count(c['quests_attempted'], 'quest')} ({c['quests_completed']} completed, {c['quests_failed']} failed), "
            f"{_count(c['fights'], 'fight')} ({c['fights_won']} won), {c['hp_lost']} HP lost, Fate spent {c['fate_spent']}, "
            f"Lives spent {c['lives_spent']}, deaths {len(c['deaths'])}"
            + (f" (last: {c['deaths'][-1]['cause']})" if c["deaths"] else "")
        )
        self._draw_current()

    def _draw_current(self) -> None:
        """Draw the tab in front, unless what it draws is as it was last drawn (most actions change one part)."""
        if not self.figures:
            return
        f, name = self.figures, self.tabs.currentWidget().objectName()
        over = f["campaign"]["over_quests"]
        parts: dict[str, tuple[Any, ...]] = {
            "stats_hero": (over,),
            "stats_hero_table": (f["quests"],),
            "stats_characteristics": (over, f["campaign"]["experience"], f["campaign"]["trained"]),
            "stats_fights": (f["fights"],),
            "stats_dice": (f["dice"],),
        }
        draws = {
            "stats_hero": self._draw_hero,
            "stats_hero_table": self._fill_hero_table,
            "stats_characteristics": self._draw_growth,
            "stats_fights": self._draw_fights,
            "stats_dice": self._draw_dice_tab,
        }
        for key in (name, f"{name}_table"):
            if key in parts and self._drawn.get(key) != parts[key]:
                self._drawn[key] = parts[key]
                draws[key](f)

    def _draw_dice_tab(self, figures: dict[str, Any]) -> None:
        self._fill_dice_kinds(figures)
        self._draw_dice()

    def _series(self, tab: StatsTab, name: str, xs: list[int], ys: list[float], names: list[str], colour: str) -> None:
        pen = pg.mkPen(colour, width=2)
        tab.plot.plot(xs, ys, pen=pen, name=name)
        points = pg.ScatterPlotItem(
            x=xs, y=ys, data=names, size=9, pen=pg.mkPen(colour), brush=pg.mkBrush(colour), hoverable=True, tip=quest_tip
        )
        points.setObjectName(f"points_{name}")
        points.sigClicked.connect(self._points_clicked)
        tab.plot.addItem(points)

    def _points_clicked(self, _item: pg.ScatterPlotItem, points: Any, _event: Any = None) -> None:
        """A click on a quest's point (its x is the quest's number): open that quest's chronicle."""
        for point in points:
            self.quest_chosen.emit(round(point.pos().x()) - 1)
            return

    def _row_chosen(self, row: int) -> None:
        quests = self.figures.get("quests", []) if self.figures else []
        if 0 <= row < len(quests):
            self.quest_chosen.emit(int(quests[row]["number"]) - 1)

    def _draw_hero(self, figures: dict[str, Any]) -> None:
        tab = self.hero
        tab.plot.clear()
        over = figures["campaign"]["over_quests"]
        xs = [p["quest"] for p in over]
        names = [f"Quest {p['quest']}: {p['name']}" for p in over]
        for (key, label), colour in zip((("hp", "HP"), ("gp", "Gold"), ("rep", "REP")), self.colours, strict=False):
            ys = [float(p[key] or 0) for p in over]
            self._series(tab, label, xs, ys, names, colour)
        whole_ticks(tab.plot, xs)
        tab.plot.setLabel("bottom", "quest")
        tab.say_empty("" if over else NO_QUEST_YET)

    def _fill_hero_table(self, figures: dict[str, Any]) -> None:
        self.hero.fill_table(
            [
                [
                    q["number"],
                    q["name"],
                    q["attempt"],
                    OUTCOME_WORDS.get(q["outcome"], q["outcome"]),
                    q["turns"],
                    q["hp_lost"],
                    q["gold_gained"],
                    q["rep_gained"],
                    q["areas_mapped"],
                    q["fights_won"],
                    q["fights_fled"],
                    q["fights_lost"],
                    q["end"].get("hp", ""),
                    q["end"].get("gp", ""),
                    q["end"].get("rep", ""),
                ]
                for q in figures["quests"]
            ]
        )

    def _draw_growth(self, figures: dict[str, Any]) -> None:
        tab = self.growth
        tab.plot.clear()
        over = figures["campaign"]["over_quests"]
        xs = [p["quest"] for p in over]
        names = [f"Quest {p['quest']}: {p['name']}" for p in over]
        for stat, colour in zip(STATS, self.colours, strict=False):
            self._series(tab, stat, xs, [float(p.get(stat) or 0) for p in over], names, colour)
        whole_ticks(tab.plot, xs)
        tab.plot.setLabel("bottom", "quest")
        tab.say_empty("" if over else NO_QUEST_YET)
        experience, trained = figures["campaign"]["experience"], figures["campaign"]["trained"]
        tracks = sorted(set(experience) | set(trained))
        tab.fill_table([[t, experience.get(t, 0), trained.get(t, 0)] for t in tracks])

    def _draw_fights(self, figures: dict[str, Any]) -> None:
        tab = self.fights
        tab.plot.clear()
        monsters = figures["fights"]
        names = list(monsters)
        xs = list(range(len(names)))
        won = [monsters[n]["won"] for n in names]
        other = [monsters[n]["fights"] - monsters[n]["won"] for n in names]
        if names:
            tab.plot.addItem(pg.BarGraphItem(x=xs, height=won, width=0.6, brush=self.colours[2], name="won"))
            tab.plot.addItem(pg.BarGraphItem(x=xs, y0=won, height=other, width=0.6, brush=self.colours[1], name="not won"))
        tab.plot.getAxis("bottom").setTicks([list(enumerate(names))])
        tab.plot.setLabel("left", "fights")
        tab.say_empty("" if names else "No fight yet.\nEach monster fought adds its bar here.")
        tab.fill_table(
            [
                [n, m["fights"], m["won"], m["fled"], m["lost"], m["monster_escaped"], m["win_rate"], m["hp_lost"], m["rounds"]]
                for n, m in monsters.items()
            ]
        )

    def _fill_dice_kinds(self, figures: dict[str, Any]) -> None:
        keep = self.dice_kind.currentData()
        self.dice_kind.blockSignals(True)
        self.dice_kind.clear()
        rows = []
        for group, words in (("app", "App's dice"), ("physical", "Physical dice")):
            for kind, d in figures["dice"][group].items():
                self.dice_kind.addItem(f"{words}: {kind}", (group, kind))
                verdict = ("fair" if d["fair"] else "unfair (p < 0.01)") if d["judged"] else "too few rolls to judge"
                rows.append([words, kind, d["rolls"], d["chi_square"], d["dof"], f"{d['p_value']:.4g}", verdict])
        index = self.dice_kind.findData(keep) if keep is not None else 0
        self.dice_kind.setCurrentIndex(max(0, index))
        self.dice_kind.blockSignals(False)
        self.dice.fill_table(rows)

    def _draw_dice(self) -> None:
        tab = self.dice
        tab.plot.clear()
        choice = self.dice_kind.currentData()
        tab.say_empty("" if choice is not None else "No dice rolled yet.")
        if not self.figures or choice is None:
            return
        group, kind = choice
        d = self.figures["dice"][group][kind]
        tab.plot.addItem(pg.BarGraphItem(x=d["faces"], height=d["counts"], width=0.7, brush=self.colours[0], name="rolled"))
        fair = pg.PlotDataItem(
            [0.5, d["sides"] + 0.5],
            [d["expected"]] * 2,
            pen=pg.mkPen(self.colours[1], width=2, style=Qt.PenStyle.DashLine),
            name="fair",
        )
        tab.plot.addItem(fair)
        tab.plot.setTitle(
            f"{kind} ({'app' if group == 'app' else 'physical'}): {d['rolls']} rolls, chi-square {d['chi_square']:.2f}, p = {d['p_value']:.3g}",
            color=self.palette().color(QPalette.ColorRole.Text).name(),
        )
        whole_ticks(tab.plot, d["faces"])
        tab.plot.setLabel("bottom", "face")
        tab.plot.setLabel("left", "rolls")
