"""A graphics view the player can zoom (wheel, + and -) and pan (arrow keys, dragging).

:class:`MapView` builds on it; keeping navigation here leaves the map view with what a
click and a hover mean.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

MIN_ZOOM = 0.04
MAX_ZOOM = 8.0
FIT_MAX_ZOOM = 2.0


class ZoomView(QGraphicsView):
    """Zoom about a point, pan by a distance, fit a rect; ``zoom_changed`` after each zoom."""

    zoom_changed = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)  # zoom_by keeps its own anchor
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)  # panning is by hand, so a click stays a click
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # for the arrow keys

    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom to ``zoom`` keeping the scene point under ``anchor`` (a viewport point) in place."""
        self.zoom_by(zoom / self.zoom, anchor)

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        """Zoom by ``factor`` (kept between MIN_ZOOM and MAX_ZOOM) about ``anchor``, the centre by default."""
        old = self.zoom
        new = min(MAX_ZOOM, max(MIN_ZOOM, old * factor))
        if abs(new - old) < 1e-9:
            return
        if anchor is None:
            anchor = QPointF(self.viewport().rect().center())
        inverse, _ = self.viewportTransform().inverted()
        fixed = inverse.map(anchor)
        self.scale(new / old, new / old)
        moved = self.viewportTransform().map(fixed) - anchor
        self._scroll_by(moved.x(), moved.y())
        self._zoomed()

    def _scroll_by(self, dx: float, dy: float) -> None:
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() + round(dx))
        v.setValue(v.value() + round(dy))

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the view over the map by a viewport distance (positive: towards east/south)."""
        self._scroll_by(dx, dy)

    def fit_rect(self, rect: QRectF) -> None:
        """Show ``rect`` whole, but never closer than FIT_MAX_ZOOM nor further than MIN_ZOOM."""
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.zoom > FIT_MAX_ZOOM:
            self.setTransform(self.transform().fromScale(FIT_MAX_ZOOM, FIT_MAX_ZOOM))
            self.centerOn(rect.center())
        elif self.zoom < MIN_ZOOM:
            self.setTransform(self.transform().fromScale(MIN_ZOOM, MIN_ZOOM))
            self.centerOn(rect.center())
        self._zoomed()

    def keep_in_view(self, rect: QRectF, margin: float) -> None:
        """Scroll as little as needed for ``rect`` (the hero's area after a move) to show with ``margin`` around it.

        The zoom stays as the player left it; a view too small for the margin centres ``rect``.
        """
        visible = self.visible_scene_rect()
        wanted = rect.adjusted(-margin, -margin, margin, margin)
        if visible.contains(wanted):
            return
        if wanted.width() > visible.width() or wanted.height() > visible.height():
            self.centerOn(rect.center())
        else:
            pixels = round(margin * self.zoom)
            self.ensureVisible(rect, pixels, pixels)

    def _zoomed(self) -> None:
        self.zoom_changed.emit(self.zoom)

    def visible_scene_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y() or event.angleDelta().x()
        if not delta:
            event.ignore()
            return
        self.zoom_by(1.0015**delta, event.position())
        event.accept()

    def navigate(self, event: QKeyEvent, step: float) -> bool:
        """Arrow keys pan by ``step`` (four times with Shift), + and - zoom; True if the key was one of them."""
        key = event.key()
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            step *= 4
        moves: dict[int, tuple[float, float]] = {
            Qt.Key.Key_Left: (-step, 0),
            Qt.Key.Key_Right: (step, 0),
            Qt.Key.Key_Up: (0, -step),
            Qt.Key.Key_Down: (0, step),
        }
        if key in moves:
            self.pan_by(*moves[key])
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(1.25)
        elif key == Qt.Key.Key_Minus:
            self.zoom_by(0.8)
        else:
            return False
        return True
