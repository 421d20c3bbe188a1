"""Printing and exporting the map: PNG at a chosen DPI, SVG and PDF, true scale or fitted.

Everything renders through :class:`~d100gui.ui.map.scene.MapScene` and
:class:`~d100gui.ui.map.style.MapStyle`, so paper shows exactly what the screen shows (without
the hover highlights). At true scale a grid square is ``square_mm`` millimetres (5 mm by
default, the paper mapping sheet's size); a map bigger than the page is tiled over several
pages that overlap by ``overlap_mm``, with dashed lines where the neighbouring page starts,
corner marks for trimming, and a label on each page like "Map 2 of 6 (row 1, column 2)".

Files are written beside their target and moved into place, so a failed export never leaves
half a file under the player's chosen name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPagedPaintDevice, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog, QPrintPreviewWidget
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLabel, QToolBar, QWidget

from d100gui.engine.dungeon.map import Dungeon
from d100gui.storage.atomic import replacing
from d100gui.ui.map.scene import MapScene
from d100gui.ui.map.style import MapStyle

A4 = QPageSize.PageSizeId.A4
DEFAULT_SQUARE_MM = 5.0
DEFAULT_OVERLAP_MM = 10.0
PAGE_MARGIN_MM = 8.0
HEADER_MM = 6.0
MARK_MM = 3.5  # room around the map for the corner marks
MAX_PNG_PIXELS = 300_000_000


@dataclass(frozen=True)
class PrintOptions:
    """How a map goes on paper."""

    true_scale: bool = True
    colour: bool = True
    square_mm: float = DEFAULT_SQUARE_MM
    overlap_mm: float = DEFAULT_OVERLAP_MM
    show_hero: bool = True


@dataclass(frozen=True)
class PageTile:
    """One printed page: which part of the map (scene units) goes where on it (mm)."""

    number: int  # 1-based, reading order
    row: int  # 1-based
    col: int  # 1-based
    source: QRectF  # scene units
    target: QRectF  # mm inside the page's map area


@dataclass(frozen=True)
class PagePlan:
    """The pages a map needs and the scale it is printed at."""

    rows: int
    cols: int
    mm_per_unit: float
    tiles: list[PageTile]

    @property
    def count(self) -> int:
        return len(self.tiles)


def _style(options: PrintOptions) -> MapStyle:
    return MapStyle(colour=options.colour, square_mm=options.square_mm, screen=False)


def _scene(dungeon: Dungeon, options: PrintOptions) -> MapScene:
    scene = MapScene(_style(options), show_hero=options.show_hero)
    scene.set_dungeon(dungeon)
    return scene


def plan_pages(paper: QRectF, style: MapStyle, area: QSizeF, options: PrintOptions) -> PagePlan:
    """Lay the map's paper rect (scene units) over pages whose map area is ``area`` (mm).

    True scale keeps ``style.mm_per_unit`` and tiles with overlap; fit-to-page scales the
    whole map onto one page.
    """
    aw, ah = area.width(), area.height()
    if not options.true_scale:
        k = min(aw / paper.width(), ah / paper.height())
        w, h = paper.width() * k, paper.height() * k
        target = QRectF((aw - w) / 2, 0, w, h)
        return PagePlan(1, 1, k, [PageTile(1, 1, 1, QRectF(paper), target)])
    k = style.mm_per_unit
    map_w, map_h = paper.width() * k, paper.height() * k
    overlap = max(0.0, min(options.overlap_mm, aw / 3, ah / 3))

    def split(length: float, room: float) -> list[tuple[float, float]]:
        if length <= room + 1e-6:
            return [(0.0, length)]
        step = room - overlap
        count = math.ceil((length - overlap) / step - 1e-9)
        return [(i * step, min(room, length - i * step)) for i in range(count)]

    cols, rows = split(map_w, aw), split(map_h, ah)
    tiles: list[PageTile] = []
    for r, (y0, h) in enumerate(rows):
        for c, (x0, w) in enumerate(cols):
            source = QRectF(paper.x() + x0 / k, paper.y() + y0 / k, w / k, h / k)
            left = (aw - w) / 2 if len(cols) == 1 else 0.0
            tiles.append(PageTile(len(tiles) + 1, r + 1, c + 1, source, QRectF(left, 0, w, h)))
    return PagePlan(len(rows), len(cols), k, tiles)


def _map_area(layout: QPageLayout) -> QSizeF:
    rect = layout.paintRect(QPageLayout.Unit.Millimeter)
    return QSizeF(rect.width() - 2 * MARK_MM, rect.height() - HEADER_MM - 2 * MARK_MM)


def best_orientation(dungeon: Dungeon, page: QPageSize, options: PrintOptions) -> QPageLayout.Orientation:
    """Portrait or landscape, whichever needs fewer pages (or, fitted, prints larger)."""
    scene = MapScene(_style(options), show_hero=False)
    scene.set_dungeon(dungeon)
    paper = scene.paper_rect()
    best = None
    for orientation in (QPageLayout.Orientation.Portrait, QPageLayout.Orientation.Landscape):
        layout = QPageLayout(page, orientation, QMarginsF(*(PAGE_MARGIN_MM,) * 4), QPageLayout.Unit.Millimeter)
        plan = plan_pages(paper, scene.style, _map_area(layout), options)
        score = (plan.count, -plan.mm_per_unit)
        if best is None or score < best[0]:
            best = (score, orientation)
    assert best is not None
    return best[1]


def page_label(tile: PageTile, plan: PagePlan) -> str:
    """What each page says about where it sits: "Map 2 of 6 (row 1, column 2)"."""
    if plan.count == 1:
        return "Map 1 of 1"
    return f"Map {tile.number} of {plan.count} (row {tile.row}, column {tile.col})"


def render_pages(dungeon: Dungeon, device: QPagedPaintDevice, options: PrintOptions, title: str = "") -> int:
    """Paint the map onto a printer or PDF writer page by page; the number of pages."""
    scene = _scene(dungeon, options)
    layout = device.pageLayout()
    area = _map_area(layout)
    plan = plan_pages(scene.paper_rect(), scene.style, area, options)
    dpi = device.logicalDpiX()
    px = dpi / 25.4  # device pixels per mm
    painter = QPainter()
    if not painter.begin(device):
        raise OSError("Cannot start printing: the printer or file could not be opened.")
    try:
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        name = title or dungeon.name or dungeon.quest or "Dungeon map"
        if options.true_scale:
            scale = f"true scale: 1 square = {options.square_mm:g} mm"
        else:
            scale = f"fitted to the page: 1 square = {plan.mm_per_unit * scene.style.square:.2g} mm"
        for tile in plan.tiles:
            if tile.number > 1:
                device.newPage()
            _paint_page(painter, scene, plan, tile, px, f"{name} — {page_label(tile, plan)} — {scale}", options)
    finally:
        painter.end()
    return plan.count


def _paint_page(
    painter: QPainter, scene: MapScene, plan: PagePlan, tile: PageTile, px: float, label: str, options: PrintOptions
) -> None:
    ink = QColor("#000000")
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, round(3.0 * px)))
    painter.setFont(font)
    painter.setPen(ink)
    painter.drawText(
        QRectF(0, 0, (tile.target.width() + 2 * MARK_MM) * px * 4, HEADER_MM * px),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
        label,
    )

    origin = QPointF(MARK_MM * px, (HEADER_MM + MARK_MM) * px)
    t = tile.target
    target = QRectF(origin.x() + t.x() * px, origin.y() + t.y() * px, t.width() * px, t.height() * px)
    painter.save()
    painter.setClipRect(target)
    scene.render(painter, target, tile.source, Qt.AspectRatioMode.IgnoreAspectRatio)
    painter.restore()

    # Corner marks for trimming, just outside each corner of the map.
    mark = QPen(ink, max(1.0, 0.2 * px))
    painter.setPen(mark)
    length, gap = 2.5 * px, 0.6 * px
    for corner, (sx, sy) in (
        (target.topLeft(), (-1, -1)),
        (target.topRight(), (1, -1)),
        (target.bottomLeft(), (-1, 1)),
        (target.bottomRight(), (1, 1)),
    ):
        painter.drawLine(QPointF(corner.x() + sx * gap, corner.y()), QPointF(corner.x() + sx * (gap + length), corner.y()))
        painter.drawLine(QPointF(corner.x(), corner.y() + sy * gap), QPointF(corner.x(), corner.y() + sy * (gap + length)))

    # Overlap marks: where the neighbouring page's map begins (dashed), so pages line up.
    if plan.count > 1:
        ov = options.overlap_mm * px
        dash = QPen(ink, max(1.0, 0.25 * px), Qt.PenStyle.DashLine)
        painter.setPen(dash)
        if tile.col < plan.cols:
            x = target.right() - ov
            painter.drawLine(QPointF(x, target.top() - length), QPointF(x, target.top()))
            painter.drawLine(QPointF(x, target.bottom()), QPointF(x, target.bottom() + length))
            painter.drawLine(QPointF(x, target.top()), QPointF(x, target.bottom()))
        if tile.col > 1:
            x = target.left() + ov
            painter.drawLine(QPointF(x, target.top()), QPointF(x, target.bottom()))
        if tile.row < plan.rows:
            y = target.bottom() - ov
            painter.drawLine(QPointF(target.left(), y), QPointF(target.right(), y))
        if tile.row > 1:
            y = target.top() + ov
            painter.drawLine(QPointF(target.left(), y), QPointF(target.right(), y))


# --------------------------------------------------------------------------- files


def png_size(dungeon: Dungeon, dpi: float, square_mm: float = DEFAULT_SQUARE_MM) -> QSize:
    """The pixel size a PNG export at ``dpi`` will have (true scale)."""
    scene = MapScene(MapStyle(square_mm=square_mm, screen=False), show_hero=False)
    scene.set_dungeon(dungeon)
    return _png_size(scene.paper_rect(), scene.style, dpi)


def _png_size(paper: QRectF, style: MapStyle, dpi: float) -> QSize:
    k = style.mm_per_unit / 25.4 * dpi
    return QSize(math.ceil(paper.width() * k - 1e-6), math.ceil(paper.height() * k - 1e-6))


def export_png(
    dungeon: Dungeon,
    path: Path | str,
    dpi: float = 150,
    colour: bool = True,
    square_mm: float = DEFAULT_SQUARE_MM,
    show_hero: bool = True,
) -> QSize:
    """Write the map as a PNG at true scale for ``dpi``; the image size in pixels."""
    if not 10 <= dpi <= 1200:
        raise ValueError(f"A PNG is exported at 10 to 1200 DPI, not {dpi:g}.")
    options = PrintOptions(colour=colour, square_mm=square_mm, show_hero=show_hero)
    scene = _scene(dungeon, options)
    paper = scene.paper_rect()
    size = _png_size(paper, scene.style, dpi)
    if size.width() * size.height() > MAX_PNG_PIXELS:
        raise ValueError(f"At {dpi:g} DPI the map would be {size.width()} x {size.height()} pixels: choose a lower DPI.")
    image = QImage(size, QImage.Format.Format_RGB32)
    image.fill(scene.style.palette.paper)
    dots_per_metre = round(dpi / 0.0254)
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)
    k = scene.style.mm_per_unit / 25.4 * dpi
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, paper.width() * k, paper.height() * k), paper, Qt.AspectRatioMode.IgnoreAspectRatio)
    painter.end()
    with replacing(Path(path), ".png") as tmp:
        if not image.save(str(tmp), "PNG"):  # type: ignore[call-overload]  # the stub says bytes; PySide6 wants str
            raise OSError(f"Cannot write {path}.")
    return size


def export_svg(
    dungeon: Dungeon,
    path: Path | str,
    colour: bool = True,
    square_mm: float = DEFAULT_SQUARE_MM,
    show_hero: bool = True,
) -> None:
    """Write the map as an SVG drawing whose width and height are its true size in mm."""
    options = PrintOptions(colour=colour, square_mm=square_mm, show_hero=show_hero)
    scene = _scene(dungeon, options)
    paper = scene.paper_rect()
    dpi = 96
    k = scene.style.mm_per_unit / 25.4 * dpi
    w, h = paper.width() * k, paper.height() * k
    with replacing(Path(path), ".svg") as tmp:
        generator = QSvgGenerator()
        generator.setFileName(str(tmp))
        generator.setResolution(dpi)
        generator.setSize(QSize(round(w), round(h)))
        generator.setViewBox(QRectF(0, 0, w, h))
        generator.setTitle(dungeon.name or "Dungeon map")
        generator.setDescription(f"d100gui dungeon map, 1 square = {square_mm:g} mm")
        painter = QPainter()
        if not painter.begin(generator):
            raise OSError(f"Cannot write {path}.")
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        scene.render(painter, QRectF(0, 0, w, h), paper, Qt.AspectRatioMode.IgnoreAspectRatio)
        painter.end()


def export_pdf(
    dungeon: Dungeon,
    path: Path | str,
    page_size: QPageSize.PageSizeId | QPageSize = A4,
    true_scale: bool = True,
    colour: bool = True,
    square_mm: float = DEFAULT_SQUARE_MM,
    overlap_mm: float = DEFAULT_OVERLAP_MM,
    orientation: QPageLayout.Orientation | None = None,
    show_hero: bool = True,
) -> int:
    """Write the map as a PDF: at true scale tiled over pages, or fitted to one page.

    The orientation that needs fewer pages is chosen unless one is given. Returns the
    number of pages.
    """
    options = PrintOptions(true_scale=true_scale, colour=colour, square_mm=square_mm, overlap_mm=overlap_mm, show_hero=show_hero)
    page = page_size if isinstance(page_size, QPageSize) else QPageSize(page_size)
    orientation = orientation or best_orientation(dungeon, page, options)
    with replacing(Path(path), ".pdf") as tmp:
        writer = QPdfWriter(str(tmp))
        writer.setResolution(600)
        writer.setCreator("d100gui")
        writer.setTitle(dungeon.name or "Dungeon map")
        writer.setPageLayout(QPageLayout(page, orientation, QMarginsF(*(PAGE_MARGIN_MM,) * 4), QPageLayout.Unit.Millimeter))
        pages = render_pages(dungeon, writer, options)
        del writer  # closes the file
    return pages


# --------------------------------------------------------------------------- printing


class MapPrintPreview(QPrintPreviewDialog):
    """The print preview, with the map's own choices in its tool bar: true scale or fit to
    page, square size, colour or black-and-white."""

    def __init__(self, dungeon: Dungeon, parent: QWidget | None = None, options: PrintOptions | None = None) -> None:
        self.map_printer = QPrinter(QPrinter.PrinterMode.HighResolution)  # not ``printer``: that is a QPrintPreviewDialog method
        self.options = options or PrintOptions()
        self.dungeon = dungeon
        page = QPageSize(A4)
        self.map_printer.setPageLayout(
            QPageLayout(
                page,
                best_orientation(dungeon, page, self.options),
                QMarginsF(*(PAGE_MARGIN_MM,) * 4),
                QPageLayout.Unit.Millimeter,
            )
        )
        super().__init__(self.map_printer, parent)
        self.setWindowTitle("Print map")
        self.pages = 0
        self.preview_widget = self.findChild(QPrintPreviewWidget)
        self._add_controls()
        self.paintRequested.connect(self._paint)

    def _add_controls(self) -> None:
        self.scale_box = QComboBox()
        self.scale_box.addItem("True scale", True)
        self.scale_box.addItem("Fit to page", False)
        self.scale_box.setCurrentIndex(0 if self.options.true_scale else 1)
        self.square_spin = QDoubleSpinBox()
        self.square_spin.setRange(2.0, 12.0)
        self.square_spin.setSingleStep(0.5)
        self.square_spin.setSuffix(" mm squares")
        self.square_spin.setValue(self.options.square_mm)
        self.colour_box = QCheckBox("Colour")
        self.colour_box.setChecked(self.options.colour)
        bar = self.findChild(QToolBar)
        widgets = [QLabel(" Map: "), self.scale_box, self.square_spin, self.colour_box]
        if bar is not None:
            bar.addSeparator()
            for w in widgets:
                bar.addWidget(w)
        elif (layout := self.layout()) is not None:  # pragma: no cover - every Qt version has the tool bar
            for w in widgets:
                layout.addWidget(w)
        self.scale_box.currentIndexChanged.connect(self._options_changed)
        self.square_spin.valueChanged.connect(self._options_changed)
        self.colour_box.toggled.connect(self._options_changed)

    def _options_changed(self, *_args: object) -> None:
        self.options = replace(
            self.options,
            true_scale=bool(self.scale_box.currentData()),
            square_mm=self.square_spin.value(),
            colour=self.colour_box.isChecked(),
        )
        self.square_spin.setEnabled(self.options.true_scale)
        if self.preview_widget is not None:
            self.preview_widget.updatePreview()

    def _paint(self, printer: QPrinter) -> None:
        self.pages = render_pages(self.dungeon, printer, self.options)


def print_map(dungeon: Dungeon, parent: QWidget | None = None, options: PrintOptions | None = None) -> bool:
    """Show the print preview (true scale by default); True if the player printed."""
    dialog = MapPrintPreview(dungeon, parent, options)
    return dialog.exec() == MapPrintPreview.DialogCode.Accepted
