"""The dungeon map drawn like a neat hand-drawn map on grid paper.

One :class:`MapScene` per map sheet, painted in a few layers rather than thousands of
items: the background is the grid paper with every exposed area's fills (tinted floor,
hatched rock), one :class:`InkItem` draws every area's walls, doors, marks and words above
them, then come the hero marker and the hover/edit overlays. Each mapped area is an
:class:`AreaShape` whose drawing is worked out on first use and kept in scene coordinates,
so a repaint only gathers lists and draws each kind of stroke in one call. Zoomed far out,
an :class:`OverviewItem` shows the whole map as one small image.

Screen, print and export all render through this scene and one :class:`MapStyle`, so they
always agree. Scene units: a square is ``MapStyle.square`` units; area ``(col, row)`` covers
squares ``col*3 .. col*3+2`` and ``row*3 .. row*3+2``. At true scale a square is
``MapStyle.square_mm`` millimetres (5 mm, like the paper mapping sheet).

Nothing here decides a rule: it draws what the engine's :class:`Dungeon` says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QLineF, QObject, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from d100gui.engine.dungeon.map import (
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    DIRECTIONS,
    Area,
    Dungeon,
    neighbour,
    opposite,
    pos_key,
)
from d100gui.engine.dungeon.tiles import Tile
from d100gui.ui.map.drawing import (
    _OUTWARD,
    SIDE_SQUARES,
    AreaDrawing,
    ExitDrawing,
    FillLists,
    InkLists,
    _edge,
    _merged_squares,
    _moved_rects,
    _pixel_device,
    area_drawing,
    area_exit_drawings,
    build_drawing,
    fill_lists,
    ink_lists,
    paint_drawing,
    paint_entrance,
    paint_fills,
    paint_ink,
    tile_drawing,
)
from d100gui.ui.map.style import (
    DETAIL_BLOCKS,
    DETAIL_FULL,
    DETAIL_PLAIN,
    OVERVIEW_PX_PER_SQUARE,
    MapStyle,
)

Pos = tuple[int, int]
Square = tuple[int, int]

CHUNK_AREAS = 2

Z_AREA = 0.0  # the far-out overview image; the sheet's ink one above (fills are the background)
Z_HERO = 10.0
Z_OVERLAY = 20.0


def _chunk_of(pos: Pos) -> Pos:
    return pos[0] // CHUNK_AREAS, pos[1] // CHUNK_AREAS


def _blocks(floor: list[list[bool]], s: float) -> tuple[list[QRectF], list[QRectF]]:
    """Floor and rock squares of an area, for the far-out views (no walls, no words)."""
    return _merged_squares(floor, True, s), _merged_squares(floor, False, s)


class AreaShape:
    """One mapped area on the sheet: its drawing, worked out on first use and kept in scene
    coordinates per level of detail, so a repaint only gathers lists and draws them."""

    __slots__ = ("_bare", "_cache", "_drawing", "_dungeon", "_exits", "_style", "area", "origin")

    def __init__(self, area: Area, dungeon: Dungeon, style: MapStyle) -> None:
        self.area = area
        self._dungeon = dungeon
        self._style = style
        self.origin = QPointF(area.col * style.area, area.row * style.area)
        self._exits: dict[str, ExitDrawing] | None = None
        self._drawing: AreaDrawing | None = None
        self._bare: AreaDrawing | None = None
        self._cache: dict[tuple[str, int], object] = {}

    @property
    def key(self) -> str:
        return self.area.key

    def rect(self) -> QRectF:
        """The area's 3x3 squares in scene units."""
        return QRectF(self.origin.x(), self.origin.y(), self._style.area, self._style.area)

    def bounds(self) -> QRectF:
        """Everything the area draws: door halves and dead-end rock reach past its edge."""
        s = self._style.square
        return self.rect().adjusted(-0.6 * s, -0.6 * s, 0.6 * s, 0.6 * s)

    def exit_drawings(self) -> dict[str, ExitDrawing]:
        if self._exits is None:
            self._exits = area_exit_drawings(self.area, self._dungeon)
        return self._exits

    @property
    def drawing(self) -> AreaDrawing:
        """Everything drawn on the area, in its own coordinates (top-left at 0,0)."""
        if self._drawing is None:
            self._drawing = area_drawing(self.area, self._dungeon, self._style.square, self.exit_drawings())
        return self._drawing

    @property
    def bare(self) -> AreaDrawing:
        """The drawing without words: all a far-out view needs, and cheaper to work out."""
        if self._drawing is not None:
            return self._drawing
        if self._bare is None:
            self._bare = build_drawing(
                self.area.floor, self.exit_drawings(), self._style.square, colour=self.area.colour, words=False
            )
        return self._bare

    @property
    def labels(self) -> list[str]:
        """Every word written on the area: door labels, colour code, marks, note numbers."""
        return self.drawing.labels

    def blocks(self) -> tuple[list[QRectF], list[QRectF]]:
        return _blocks(self.area.floor, self._style.square)

    def fills(self, detail: int) -> FillLists:
        key = ("fill", DETAIL_FULL if detail >= DETAIL_FULL else DETAIL_PLAIN)
        found = self._cache.get(key)
        if found is None:
            if detail >= DETAIL_FULL:
                found = fill_lists(self.drawing, detail, self.origin)
            else:
                floors, rocks = self.blocks()
                dx, dy = self.origin.x(), self.origin.y()
                found = FillLists(floors={self.area.colour: _moved_rects(floors, dx, dy)}, rocks=_moved_rects(rocks, dx, dy))
            self._cache[key] = found
        return found  # type: ignore[return-value]

    def ink(self, detail: int) -> InkLists:
        key = ("ink", detail)
        found = self._cache.get(key)
        if found is None:
            drawing = self.drawing if detail >= DETAIL_FULL else self.bare
            found = self._cache[key] = ink_lists(drawing, detail, self.origin)
        return found  # type: ignore[return-value]


class InkItem(QGraphicsItem):
    """The ink of the whole sheet (walls, doors, marks, words), above every area's fills.

    One item paints every area in the exposed rect, gathering each kind of stroke into one
    call: a 2,000-area map repaints in a few calls, not thousands of item paints.
    """

    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self._map = scene
        self._bounds = QRectF()
        self.setZValue(Z_AREA + 1)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_bounds(self, rect: QRectF) -> None:
        if rect != self._bounds:
            self.prepareGeometryChange()
            self._bounds = QRectF(rect)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        style = self._map.style
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        detail = style.detail(lod * style.square)
        if detail <= DETAIL_BLOCKS:
            return
        paint_ink(painter, self._map.ink_in(_visible_rect(painter, option.exposedRect), detail), style, detail)


def _repaint(item: QGraphicsItem, old: QRectF) -> None:
    """Ask the scene to repaint where ``item`` was (``old``) and where it is now."""
    scene = item.scene()
    if scene is None:
        return
    for rect in (old, item.sceneBoundingRect() if item.isVisible() else QRectF()):
        if not rect.isEmpty():
            scene.update(rect)


def _visible_rect(painter: QPainter, rect: QRectF) -> QRectF:
    """``rect`` cut down to what the painter can reach (render() exposes whole items)."""
    device = painter.device()
    if device is not None:
        inverse, ok = painter.worldTransform().inverted()
        if ok:
            rect = rect.intersected(inverse.mapRect(QRectF(0, 0, device.width(), device.height())))
    if painter.hasClipping():
        rect = rect.intersected(painter.clipBoundingRect())
    return rect


class HeroItem(QGraphicsItem):
    """Where the hero stands: a marker in the middle of the area pointing the way they face."""

    def __init__(self, style: MapStyle) -> None:
        super().__init__()
        self._style = style
        self.facing = "N"
        r = 0.42 * style.square
        self._bounds = QRectF(-r, -r, 2 * r, 2 * r)
        self.setZValue(Z_HERO)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_facing(self, facing: str) -> None:
        if facing != self.facing:
            self.facing = facing
            self.update()

    def place(self, at: QPointF | None, facing: str = "N") -> None:
        """Stand at ``at`` facing ``facing`` (``None``: hidden), repainting where it stood and where it stands.

        The scene is told both spots itself: once the scene has been updated in a rect (a changed
        area) in the same turn of the event loop, Qt may drop a moved item's old spot, and the
        marker stayed drawn in the area the hero left until the next full repaint.
        """
        old = self.sceneBoundingRect() if self.isVisible() else QRectF()
        if at is None:
            self.setVisible(False)
        else:
            self.setPos(at)
            self.set_facing(facing)
            self.setVisible(True)
        _repaint(self, old)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        pal = self._style.palette
        s = self._style.square
        r = 0.34 * s
        painter.setPen(QPen(pal.paper, 0.08 * s))
        painter.setBrush(pal.hero)
        painter.drawEllipse(QPointF(0, 0), r, r)
        tip = 0.24 * s
        arrow = QPolygonF([QPointF(0, -tip), QPointF(0.17 * s, 0.14 * s), QPointF(0, 0.06 * s), QPointF(-0.17 * s, 0.14 * s)])
        painter.save()
        painter.rotate(DIRECTIONS.index(self.facing) * 90 if self.facing in DIRECTIONS else 0)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(pal.hero_mark)
        painter.drawPolygon(arrow)
        painter.restore()


class OverviewItem(QGraphicsItem):
    """The whole map in one image, for views too far out to read a word.

    Floors, flat rock, walls and doors are drawn once at :data:`OVERVIEW_PX_PER_SQUARE`
    (less for very big maps) and the image is scaled to the view: a 2,000-area map pans and
    zooms in one image draw (PRODUCT.md §7). Changed areas are redrawn into it in place.
    """

    MAX_SIDE = 4096

    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self._map = scene
        self._image: QImage | None = None
        self._pending: list[QRectF] = []  # changed rects not yet redrawn into the image (while it is hidden)
        self._bounds = QRectF()
        self._scale = 1.0
        self.setZValue(Z_AREA)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def invalidate(self, changed: Sequence[QRectF] | None = None) -> None:
        """The dungeon changed: redraw ``changed`` rects (everything if None) before the next paint."""
        s = self._map.style.square
        bounds = self._map.sheet_rect().adjusted(-s, -s, s, s)
        if changed is None or self._image is None or bounds != self._bounds or len(self._pending) + len(changed) > 200:
            self.prepareGeometryChange()
            self._bounds = bounds
            self._image = None
            self._pending.clear()
            self.update()
            return
        if not self.isVisible():  # zoomed in, the overview is not shown: redrawn when it is (not at each action)
            self._pending.extend(changed)
            return
        for rect in changed:
            self._draw(self._image, rect)
            self.update(rect)

    def _render(self) -> QImage:
        bounds = self._bounds
        style = self._map.style
        self._scale = min(OVERVIEW_PX_PER_SQUARE / style.square, self.MAX_SIDE / max(bounds.width(), bounds.height(), 1.0))
        k = self._scale
        image = QImage(
            max(1, math.ceil(bounds.width() * k)),
            max(1, math.ceil(bounds.height() * k)),
            QImage.Format.Format_ARGB32_Premultiplied,
        )
        image.fill(Qt.GlobalColor.transparent)
        self._draw(image, None)
        return image

    def _draw(self, image: QImage, rect: QRectF | None) -> None:
        style = self._map.style
        p = QPainter(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.scale(self._scale, self._scale)
        p.translate(-self._bounds.topLeft())
        if rect is not None:
            p.setClipRect(rect)
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_Clear)
            p.fillRect(rect, Qt.GlobalColor.transparent)
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        shapes = self._map.area_shapes() if rect is None else self._map.shapes_in(rect)
        fills, ink = FillLists(), InkLists()
        for shape in shapes:
            fills.add(shape.fills(DETAIL_PLAIN))
            ink.add(shape.ink(DETAIL_PLAIN))
        paint_fills(p, fills, style, DETAIL_PLAIN, texture=False)
        paint_ink(p, ink, style, DETAIL_PLAIN)
        p.end()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._image is None:
            self._image = self._render()
            self._pending.clear()
        for rect in self._pending:
            self._draw(self._image, rect)
        self._pending.clear()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(self._bounds, self._image)


@dataclass
class Mark:
    """One overlay shape: a rect with a fill and an outline (hover highlights, edit previews)."""

    rect: QRectF
    fill: QColor
    outline: QColor


class OverlayItem(QGraphicsItem):
    """Hover highlights and edit previews; a ghost tile can be shown under the mouse."""

    def __init__(self, style: MapStyle) -> None:
        super().__init__()
        self._style = style
        self.marks: list[Mark] = []
        self._ghost: tuple[QPointF, AreaDrawing, bool] | None = None
        self._bounds = QRectF()
        self.setZValue(Z_OVERLAY)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_marks(self, marks: list[Mark], ghost: tuple[QPointF, AreaDrawing, bool] | None = None) -> None:
        """Show these marks (and the ghost tile); the old ones are repainted away (see :meth:`HeroItem.place`)."""
        old = self.sceneBoundingRect()
        self.prepareGeometryChange()
        self.marks = marks
        self._ghost = ghost
        bounds = QRectF()
        for m in marks:
            bounds = bounds.united(m.rect)
        if ghost is not None:
            bounds = bounds.united(QRectF(ghost[0], QPointF(ghost[0].x() + self._style.area, ghost[0].y() + self._style.area)))
        s = self._style.square
        self._bounds = bounds.adjusted(-0.2 * s, -0.2 * s, 0.2 * s, 0.2 * s) if not bounds.isNull() else QRectF()
        self.update()
        _repaint(self, old)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        s = self._style.square
        if self._ghost is not None:
            at, drawing, ok = self._ghost
            painter.save()
            painter.setOpacity(0.75)
            painter.translate(at)
            paint_drawing(painter, drawing, self._style, DETAIL_FULL)
            painter.restore()
            painter.setPen(QPen(QColor("#2e7d32" if ok else "#c0392b"), 0.1 * s))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(at.x(), at.y(), self._style.area, self._style.area))
        for m in self.marks:
            painter.setPen(QPen(m.outline, 0.08 * s))
            painter.setBrush(m.fill)
            painter.drawRoundedRect(m.rect, 0.12 * s, 0.12 * s)


# --------------------------------------------------------------------------- the scene


class MapScene(QGraphicsScene):
    """The map sheet of one dungeon, painted in a few layers.

    The background is the grid paper with every exposed area's fills (tinted floor, hatched
    rock); :class:`InkItem` draws every area's walls, doors, marks and words above them; then
    the hero marker and the overlays. Each mapped area is an :class:`AreaShape` whose drawing
    is worked out once; ``set_dungeon`` keeps the shapes of areas the engine left unchanged
    (the same object) and repaints only where something changed.
    """

    def __init__(self, style: MapStyle | None = None, show_hero: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._style = style or MapStyle()
        self._show_hero = show_hero
        self._dungeon: Dungeon | None = None
        self._shapes: dict[str, AreaShape] = {}
        self._by_pos: dict[Pos, AreaShape] = {}
        # Areas in chunks of CHUNK_AREAS x CHUNK_AREAS, with their gathered fills and ink, so
        # a repaint joins a few dozen lists instead of hundreds.
        self._chunk_shapes: dict[Pos, list[AreaShape]] = {}
        self._chunk_lists: dict[Pos, dict[tuple[str, int], FillLists | InkLists]] = {}
        self._sheet_key: tuple[object, ...] = ()
        self._sheet = QRectF()
        self.ink_item = InkItem(self)
        self.addItem(self.ink_item)
        self.hero_item = HeroItem(self._style)
        self.hero_item.setVisible(False)
        self.addItem(self.hero_item)
        self.overlay = OverlayItem(self._style)
        self.addItem(self.overlay)
        self._overview_on = False
        self.overview_item = OverviewItem(self)
        self.overview_item.setVisible(False)
        self.addItem(self.overview_item)
        self._update_rects()

    # ------------------------------------------------------------------ model
    @property
    def style(self) -> MapStyle:  # type: ignore[override]  # the map's look, not QGraphicsScene.style()'s QStyle
        return self._style

    @property
    def dungeon(self) -> Dungeon | None:
        return self._dungeon

    def set_style(self, style: MapStyle) -> None:
        """Change the look (colour/black-and-white, dark): every area is drawn again."""
        if style == self._style:
            return
        self._style = style
        dungeon = self._dungeon
        self._shapes.clear()
        self._by_pos.clear()
        self._chunk_lists.clear()
        self.removeItem(self.hero_item)
        self.removeItem(self.overlay)
        self.hero_item = HeroItem(style)
        self.hero_item.setVisible(False)
        self.addItem(self.hero_item)
        self.overlay = OverlayItem(style)
        self.addItem(self.overlay)
        self._dungeon = None
        self._sheet_key = ()
        self.set_dungeon(dungeon)
        self.invalidate(self.sceneRect(), QGraphicsScene.SceneLayer.BackgroundLayer)
        self.ink_item.update()

    def set_dungeon(self, dungeon: Dungeon | None) -> None:
        """Show ``dungeon`` (``None`` clears the sheet)."""
        sheet_key = (dungeon.width, dungeon.height, dungeon.unbounded) if dungeon else ()
        changed: list[QRectF] | None = []  # None: everything
        old = self._shapes
        if sheet_key != self._sheet_key:
            old = {}
            changed = None
        self._sheet_key = sheet_key
        self._dungeon = dungeon
        self._shapes = {}
        moved: list[Pos] = []
        if dungeon is not None:
            for key, area in dungeon.areas.items():
                shape = old.pop(key, None)
                if shape is None or shape.area is not area:
                    shape = AreaShape(area, dungeon, self._style)
                    moved.append(area.pos)
                    if changed is not None:
                        changed.append(shape.bounds())
                self._shapes[key] = shape
        moved.extend(shape.area.pos for shape in old.values())
        if changed is not None:
            changed.extend(shape.bounds() for shape in old.values())
        self._by_pos = {shape.area.pos: shape for shape in self._shapes.values()}
        self._chunk_shapes = {}
        for shape in self._shapes.values():
            self._chunk_shapes.setdefault(_chunk_of(shape.area.pos), []).append(shape)
        if changed is None:
            self._chunk_lists.clear()
        else:
            for pos in moved:
                self._chunk_lists.pop(_chunk_of(pos), None)
        self._update_rects()
        # Repaint (and drop the cached background) only where something changed. The items are told first, the
        # scene's background last: Qt then paints the window once for both. (Each is handled by a queued call that
        # paints the window at once; the items' call leaves the painting to a scene update still to come, but a
        # scene update handled first paints, and the items' call after it painted the map a second time.)
        whole = changed is None or len(changed) > 200
        if whole:
            self.ink_item.update()
            self.overview_item.invalidate(None)
        else:
            for rect in changed or ():
                self.ink_item.update(rect)
            self.overview_item.invalidate(changed)
        self._place_hero()
        self.overlay.set_marks([])
        if whole:
            self.invalidate(QRectF(), QGraphicsScene.SceneLayer.BackgroundLayer)
        else:
            for rect in changed or ():
                self.invalidate(rect, QGraphicsScene.SceneLayer.BackgroundLayer)

    @property
    def overview(self) -> bool:
        return self._overview_on

    def set_overview(self, on: bool) -> None:
        """Zoomed far out, show the map as one image instead of drawing it live.

        The view switches this as its zoom crosses :data:`OVERVIEW_BELOW_PX` per square.
        """
        if on == self._overview_on:
            return
        self._overview_on = on
        self.ink_item.setVisible(not on)
        self.overview_item.setVisible(on)
        self.invalidate(QRectF(), QGraphicsScene.SceneLayer.BackgroundLayer)

    def _place_hero(self) -> None:
        d = self._dungeon
        hero = d.hero if d is not None else None
        if hero is None or not self._show_hero or d is None or d.area_at(hero) is None:
            self.hero_item.place(None)
            return
        self.hero_item.place(self.area_rect(hero).center(), d.facing)

    def _update_rects(self) -> None:
        sheet = self._compute_sheet()
        if sheet != self._sheet:
            self._sheet = sheet
            self.invalidate(QRectF(), QGraphicsScene.SceneLayer.BackgroundLayer)
        a = self._style.area
        self.setSceneRect(self.paper_rect().adjusted(-4 * a, -4 * a, 4 * a, 4 * a))
        s = self._style.square
        self.ink_item.set_bounds(self._sheet.adjusted(-s, -s, s, s))

    def _compute_sheet(self) -> QRectF:
        a = self._style.area
        d = self._dungeon
        if d is None:
            from d100gui.engine.dungeon.map import DEFAULT_HEIGHT, DEFAULT_WIDTH

            return QRectF(0, 0, DEFAULT_WIDTH * a, DEFAULT_HEIGHT * a)
        sheet = QRectF(0, 0, d.width * a, d.height * a)
        if d.unbounded and d.areas:
            cols = [area.col for area in d.areas.values()]
            rows = [area.row for area in d.areas.values()]
            sheet = sheet.united(
                QRectF((min(cols) - 1) * a, (min(rows) - 1) * a, (max(cols) - min(cols) + 3) * a, (max(rows) - min(rows) + 3) * a)
            )
        return sheet

    # ------------------------------------------------------------------ geometry
    def area_shapes(self) -> list[AreaShape]:
        """One :class:`AreaShape` per mapped area."""
        return list(self._shapes.values())

    def area_shape(self, key: str) -> AreaShape | None:
        return self._shapes.get(key)

    def _chunks_in(self, rect: QRectF) -> list[Pos]:
        span = self._style.area * CHUNK_AREAS
        reach = self._style.square  # ink reaches a little past an area's edge
        c0, c1 = math.floor((rect.left() - reach) / span), math.floor((rect.right() + reach) / span)
        r0, r1 = math.floor((rect.top() - reach) / span), math.floor((rect.bottom() + reach) / span)
        chunks = self._chunk_shapes
        if (c1 - c0 + 1) * (r1 - r0 + 1) > 2 * len(chunks):
            return [c for c in chunks if c0 <= c[0] <= c1 and r0 <= c[1] <= r1]
        return [(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1) if (c, r) in chunks]

    def _gathered(self, chunk: Pos, kind: str, detail: int) -> FillLists | InkLists:
        cache = self._chunk_lists.setdefault(chunk, {})
        key = (kind, detail)
        found = cache.get(key)
        if found is None:
            found = FillLists() if kind == "fill" else InkLists()
            for shape in self._chunk_shapes.get(chunk, ()):
                found.add(shape.fills(detail) if kind == "fill" else shape.ink(detail))  # type: ignore[arg-type]
            cache[key] = found
        return found

    def fills_in(self, rect: QRectF, detail: int) -> FillLists:
        """The fills of every area that may reach into ``rect``, gathered by kind."""
        detail = DETAIL_FULL if detail >= DETAIL_FULL else DETAIL_PLAIN
        out = FillLists()
        for chunk in self._chunks_in(rect):
            out.add(self._gathered(chunk, "fill", detail))  # type: ignore[arg-type]
        return out

    def ink_in(self, rect: QRectF, detail: int) -> InkLists:
        """The ink of every area that may reach into ``rect``, gathered by kind."""
        out = InkLists()
        for chunk in self._chunks_in(rect):
            out.add(self._gathered(chunk, "ink", detail))  # type: ignore[arg-type]
        return out

    def shapes_in(self, rect: QRectF) -> list[AreaShape]:
        """The shapes whose drawing may reach into ``rect`` (scene units)."""
        by_pos = self._by_pos
        if not by_pos:
            return []
        a = self._style.area
        c0, c1 = math.floor(rect.left() / a) - 1, math.floor(rect.right() / a) + 1
        r0, r1 = math.floor(rect.top() / a) - 1, math.floor(rect.bottom() / a) + 1
        if (c1 - c0 + 1) * (r1 - r0 + 1) > 2 * len(by_pos):
            return [sh for sh in by_pos.values() if c0 <= sh.area.col <= c1 and r0 <= sh.area.row <= r1]
        return [sh for c in range(c0, c1 + 1) for r in range(r0, r1 + 1) if (sh := by_pos.get((c, r))) is not None]

    def sheet_rect(self) -> QRectF:
        """The grid of the map sheet (all placeable areas), in scene units."""
        return QRectF(self._sheet)

    def paper_rect(self) -> QRectF:
        """The sheet plus its margins (the entrance mark below): what prints and exports."""
        s = self._style.square
        return self._sheet.adjusted(-0.6 * s, -0.6 * s, 0.6 * s, 1.9 * s)

    def area_rect(self, pos: Pos) -> QRectF:
        a = self._style.area
        return QRectF(pos[0] * a, pos[1] * a, a, a)

    def dungeon_rect(self) -> QRectF:
        """The mapped areas' bounding rect (the whole sheet while nothing is mapped)."""
        d = self._dungeon
        if d is None or not d.areas:
            return self.paper_rect()
        rect = QRectF()
        for area in d.areas.values():
            rect = rect.united(self.area_rect(area.pos))
        s = self._style.square
        if d.hero is None or d.entrance == d.hero or d.area_at(d.entrance) is not None:
            # The entrance and its mark below the sheet.
            rect = rect.united(self.area_rect(d.entrance).adjusted(0, 0, 0, 1.9 * s))
        return rect.adjusted(-s, -s, s, s)

    def cell_at(self, scene_pos: QPointF) -> tuple[Pos, Square]:
        """The area cell and the square in it (``(x, y)``, 0-2) under a scene point."""
        s = self._style.square
        gx = math.floor(scene_pos.x() / s)
        gy = math.floor(scene_pos.y() / s)
        return (gx // 3, gy // 3), (gx % 3, gy % 3)

    def area_at(self, scene_pos: QPointF) -> Area | None:
        """The mapped area under a scene point, if any."""
        if self._dungeon is None:
            return None
        pos, _ = self.cell_at(scene_pos)
        return self._dungeon.area_at(pos)

    def side_zone(self, pos: Pos, side: str) -> QRectF:
        """Where a click means "the exit on ``side``": its side-middle square and a bit beyond."""
        s = self._style.square
        x, y = SIDE_SQUARES[side]
        rect = self.area_rect(pos)
        sq = QRectF(rect.x() + x * s, rect.y() + y * s, s, s)
        dx, dy = _OUTWARD[side]
        reach = 0.45 * s
        return sq.adjusted(min(dx, 0) * reach, min(dy, 0) * reach, max(dx, 0) * reach, max(dy, 0) * reach)

    def side_at(self, scene_pos: QPointF, pos: Pos | None = None) -> tuple[Pos, str] | None:
        """The area side whose zone holds the point: of area ``pos`` if given, else of any cell."""
        if pos is not None:
            for side in DIRECTIONS:
                if self.side_zone(pos, side).contains(scene_pos):
                    return pos, side
            return None
        here, square = self.cell_at(scene_pos)
        for name, sq in SIDE_SQUARES.items():
            if sq == square:
                return here, name
        # The point may sit in the reach of a neighbour's zone, just across its edge.
        for side in DIRECTIONS:
            other = neighbour(here, side)
            if self.side_zone(other, opposite(side)).contains(scene_pos):
                return other, opposite(side)
        return None

    def exit_at(self, scene_pos: QPointF) -> tuple[str, str] | None:
        """``(pos_key, side)`` of the mapped exit under a scene point, if any.

        The area the point is in wins; otherwise a mapped neighbour's exit whose zone reaches
        across the shared edge.
        """
        d = self._dungeon
        if d is None:
            return None
        here, _ = self.cell_at(scene_pos)
        candidates = [here, *(neighbour(here, side) for side in DIRECTIONS)]
        for pos in candidates:
            area = d.area_at(pos)
            if area is None:
                continue
            for side in area.exits:
                if self.side_zone(pos, side).contains(scene_pos):
                    return pos_key(pos), side
        return None

    def note_at(self, scene_pos: QPointF) -> tuple[str, int] | None:
        """``(pos_key, ref)`` of the note box under a scene point, if any."""
        d = self._dungeon
        if d is None:
            return None
        here, _ = self.cell_at(scene_pos)
        shape = self._shapes.get(pos_key(here))
        if shape is None:
            return None
        local = scene_pos - shape.origin
        for ref, box in shape.drawing.notes:
            if box.adjusted(-2, -2, 2, 2).contains(local):
                return shape.key, ref
        return None

    def exit_mark_rect(self, pos: Pos, side: str) -> QRectF:
        """The highlight drawn over an exit: its gap, a little thicker than the wall."""
        s = self._style.square
        x, y = SIDE_SQUARES[side]
        rect = self.area_rect(pos)
        edge = _edge(x, y, side, s).translated(rect.topLeft())
        t = 0.32 * s
        if side in ("N", "S"):
            return QRectF(edge.x1(), edge.y1() - t, s, 2 * t)
        return QRectF(edge.x1() - t, edge.y1(), 2 * t, s)

    def ghost_drawing(self, tile: Tile, rotation: int) -> AreaDrawing:
        """A tile diagram for the place-tile preview."""
        return tile_drawing(tile, rotation, self._style.square)

    # ------------------------------------------------------------------ paper
    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        rect = QRectF(rect)
        pal = self._style.palette
        s = self._style.square
        painter.fillRect(rect, pal.desk)
        paper = self.paper_rect()
        painter.fillRect(rect.intersected(paper), pal.paper)
        px = s * QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        if not self._overview_on:
            self._draw_fills(painter, rect, self._style.detail(px))
        sheet = self._sheet
        area = rect.intersected(sheet)
        if area.isEmpty():
            self._draw_entrance(painter, rect)
            return
        a = self._style.area
        painter.save()
        if px >= 4:
            step = s
            pen = QPen(pal.grid, 0.035 * s)
        else:
            step = a
            pen = QPen(pal.grid, 0.035 * s)
        if 3 * px >= 3:
            painter.setPen(pen)
            painter.drawLines(_grid_lines(area, sheet, step))
            painter.setPen(QPen(pal.block, 0.06 * s))
            painter.drawLines(_grid_lines(area, sheet, a))
        painter.restore()
        self._draw_entrance(painter, rect)

    def _draw_fills(self, painter: QPainter, rect: QRectF, detail: int) -> None:
        """Every exposed area's tinted floor and hatched rock, under the grid and all ink."""
        fills = self.fills_in(rect, detail)
        painter.save()
        paint_fills(painter, fills, self._style, detail, texture=_pixel_device(painter))
        painter.restore()

    def _draw_entrance(self, painter: QPainter, rect: QRectF) -> None:
        col, row = self._dungeon.entrance if self._dungeon is not None else (DEFAULT_WIDTH // 2, DEFAULT_HEIGHT - 1)
        s = self._style.square
        bottom = self.area_rect((col, row)).bottom()
        cx = self.area_rect((col, row)).center().x()
        if QRectF(cx - 2 * s, bottom, 4 * s, 2.2 * s).intersects(rect):
            paint_entrance(painter, self._style, QPointF(cx, bottom))


def _grid_lines(area: QRectF, sheet: QRectF, step: float) -> list[QLineF]:
    """Grid lines every ``step`` units inside ``area``, aligned on the sheet's origin."""
    lines = []
    x = sheet.left() + math.ceil((area.left() - sheet.left()) / step) * step
    while x <= area.right() + 1e-6:
        lines.append(QLineF(x, area.top(), x, area.bottom()))
        x += step
    y = sheet.top() + math.ceil((area.top() - sheet.top()) / step) * step
    while y <= area.bottom() + 1e-6:
        lines.append(QLineF(area.left(), y, area.right(), y))
        y += step
    return lines


__all__ = ["AreaShape", "HeroItem", "InkItem", "MapScene", "Mark", "OverlayItem", "OverviewItem"]
