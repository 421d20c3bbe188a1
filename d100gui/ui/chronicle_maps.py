"""The map image a quest's chronicle shows: its closed mapping sheet drawn by the map's own scene, as PNG bytes.

The chronicle window (``ui/chronicle/``) may not import ``ui/map`` (the feature folders are
independent); the main window hands it :func:`map_image`, which draws the dungeon as it is kept
(the sheet a quest closed at its end) cropped to its mapped areas, on white paper, without the hero.
"""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QImage, QPainter

from d100gui.engine.dungeon.map import Dungeon
from d100gui.storage.chronicle_html import MapImage
from d100gui.ui.map.scene import MapScene
from d100gui.ui.map.style import MapStyle

#: the longest side of a chronicle's map image, in pixels (sharp on the page, small in the file)
LONGEST_SIDE = 1200
#: a grid square is never drawn larger than this many pixels (a two-area map stays a map, not a poster)
MAX_SQUARE_PX = 28.0


def map_image(dungeon: Dungeon) -> MapImage | None:
    """``dungeon`` as a PNG cropped to its mapped areas; None when nothing is mapped on it."""
    if not dungeon.areas:
        return None
    scene = MapScene(MapStyle(screen=False), show_hero=False)
    scene.set_dungeon(dungeon)
    source = scene.dungeon_rect()
    square = scene.style.square
    k = min(LONGEST_SIDE / max(source.width(), source.height()), MAX_SQUARE_PX / square)
    width, height = max(1, round(source.width() * k)), max(1, round(source.height() * k))
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(scene.style.palette.paper)
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, width, height), source, Qt.AspectRatioMode.KeepAspectRatio)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stub wants a file name; PySide6 takes a QIODevice
    buffer.close()
    return MapImage(bytes(data.data()), width, height)
