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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPaintEngine,
    QPainter,
    QPen,
    QPolygonF,
    QStaticText,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from d100gui.engine.dungeon.map import (
    DIRECTIONS,
    Area,
    AreaNote,
    Door,
    Dungeon,
    neighbour,
    opposite,
    pos_key,
    rotate_floor,
    tile_side_to_map,
)
from d100gui.engine.dungeon.tiles import Tile

Pos = tuple[int, int]
Square = tuple[int, int]


#: What the rulebook writes in an area's top-right corner for each Table M colour.
COLOUR_CODES: dict[str, str] = {"Y": "(Y)", "R": "(R)", "G": "(GR)", "B": "(B)"}

#: The square of an area that holds each side's exit (its side middle), ``(x, y)``.
SIDE_SQUARES: dict[str, Square] = {"N": (1, 0), "E": (2, 1), "S": (1, 2), "W": (0, 1)}
_OUTWARD: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

# Where unpinned notes go, in order, so they do not cover the hero marker in the middle.
_NOTE_SLOTS: tuple[Square, ...] = ((0, 2), (2, 2), (1, 2), (0, 0), (2, 0), (1, 0), (0, 1), (2, 1), (1, 1))

# Levels of detail, by how many screen pixels a square covers.
DETAIL_BLOCKS = 0  # floor and rock blocks only
DETAIL_PLAIN = 1  # walls and doors, rock shaded flat, no text
DETAIL_FULL = 2  # everything: hatching, labels, marks
_PLAIN_FROM_PX = 5.0
_FULL_FROM_PX = 18.0  # door labels (0.36 square) are about 6.5 pixels tall here
#: Below this many screen pixels per square (where words become unreadable) the view
#: shows the map as one image instead of drawing it live.
OVERVIEW_BELOW_PX = _FULL_FROM_PX
#: The overview image's resolution, in pixels per square (less for very big maps).
OVERVIEW_PX_PER_SQUARE = 18.0

LAYER_FILL = 0  # floor tints, hatched rock
LAYER_INK = 1  # walls, doors, words and marks
LAYERS = (LAYER_FILL, LAYER_INK)

CHUNK_AREAS = 2

Z_AREA = 0.0  # the far-out overview image; the sheet's ink one above (fills are the background)
Z_HERO = 10.0
Z_OVERLAY = 20.0


# --------------------------------------------------------------------------- style


@dataclass(frozen=True)
class MapPalette:
    """The inks and papers of one look (colour or black-and-white, light or dark)."""

    desk: QColor
    paper: QColor
    grid: QColor
    block: QColor
    ink: QColor
    hatch: QColor
    rock_fill: QColor
    door_closed: QColor
    label: QColor
    note: QColor
    hero: QColor
    hero_mark: QColor
    codes: dict[str, QColor]
    tints: dict[str, QColor]


def _colours(values: dict[str, str]) -> dict[str, QColor]:
    return {k: QColor(v) for k, v in values.items()}


@lru_cache(maxsize=8)
def _palette(colour: bool, dark: bool, screen: bool = True) -> MapPalette:
    if not screen:
        # On paper the sheet itself is the paper: no cream tint printed over the page.
        pal = _palette(colour, False, True)
        return replace(pal, desk=QColor("#ffffff"), paper=QColor("#ffffff"), hero_mark=QColor("#ffffff"))
    if dark:
        codes = {"Y": "#e0b84a", "R": "#ef7a6d", "G": "#7cc47f", "B": "#7aa7e8"}
        tints = {"Y": "#37322a", "R": "#3b2d2b", "G": "#2c372b", "B": "#2b3240"}
        if not colour:
            codes = dict.fromkeys(codes, "#ece8df")
            tints = dict.fromkeys(tints, "#2c2b28")
        return MapPalette(
            desk=QColor("#1b1b1b"),
            paper=QColor("#2c2b28"),
            grid=QColor("#3b4047"),
            block=QColor("#505864"),
            ink=QColor("#ece8df"),
            hatch=QColor("#8a8578"),
            rock_fill=QColor("#46443f"),
            door_closed=QColor("#c9a06a" if colour else "#ece8df"),
            label=QColor("#ece8df"),
            note=QColor("#8ab4f8" if colour else "#ece8df"),
            hero=QColor("#e0584a" if colour else "#ece8df"),
            hero_mark=QColor("#2c2b28"),
            codes=_colours(codes),
            tints=_colours(tints),
        )
    if colour:
        return MapPalette(
            desk=QColor("#cfc9bb"),
            paper=QColor("#fdfbf5"),
            grid=QColor("#c3d4e4"),
            block=QColor("#93adc6"),
            ink=QColor("#222222"),
            hatch=QColor("#7d7668"),
            rock_fill=QColor("#d9d4c7"),
            door_closed=QColor("#7a4a22"),
            label=QColor("#2a2118"),
            note=QColor("#1f4e8c"),
            hero=QColor("#c0392b"),
            hero_mark=QColor("#ffffff"),
            codes=_colours({"Y": "#a87600", "R": "#c0392b", "G": "#2e7d32", "B": "#1f5fa8"}),
            tints=_colours({"Y": "#fff5d2", "R": "#fde4e0", "G": "#e4f3dd", "B": "#e1ebfa"}),
        )
    # Black and white: every ink is a grey (R = G = B), so a print has no colour at all.
    return MapPalette(
        desk=QColor("#cccccc"),
        paper=QColor("#ffffff"),
        grid=QColor("#c4c4c4"),
        block=QColor("#9a9a9a"),
        ink=QColor("#000000"),
        hatch=QColor("#666666"),
        rock_fill=QColor("#d2d2d2"),
        door_closed=QColor("#000000"),
        label=QColor("#000000"),
        note=QColor("#000000"),
        hero=QColor("#000000"),
        hero_mark=QColor("#ffffff"),
        codes=_colours(dict.fromkeys("YRGB", "#000000")),
        tints=_colours(dict.fromkeys("YRGB", "#ffffff")),
    )


@dataclass(frozen=True)
class MapStyle:
    """How the map looks, shared by the screen and every export.

    ``square`` is the size of one grid square in scene units; ``square_mm`` its size on paper
    at true scale. ``colour`` False gives clean black-and-white (greys only); ``dark`` is for
    the screen in a dark theme and is never used for paper.
    """

    colour: bool = True
    dark: bool = False
    square: float = 25.0
    square_mm: float = 5.0
    screen: bool = True  # False for print and export: white paper, never dark

    @property
    def area(self) -> float:
        """The side of one 3x3 area in scene units."""
        return 3 * self.square

    @property
    def palette(self) -> MapPalette:
        return _palette(self.colour, self.dark and self.screen, self.screen)

    @property
    def mm_per_unit(self) -> float:
        return self.square_mm / self.square

    def detail(self, pixels_per_square: float) -> int:
        """The level of detail to draw: by pixel size on screen, always everything on paper."""
        return detail_for(pixels_per_square) if self.screen else DETAIL_FULL

    def for_paper(self, colour: bool | None = None) -> MapStyle:
        """The same style for print or export: white paper, optionally black-and-white."""
        return replace(self, colour=self.colour if colour is None else colour, dark=False, screen=False)


def detail_for(pixels_per_square: float) -> int:
    """The level of detail worth drawing when a square covers this many device pixels."""
    if pixels_per_square < _PLAIN_FROM_PX:
        return DETAIL_BLOCKS
    if pixels_per_square < _FULL_FROM_PX:
        return DETAIL_PLAIN
    return DETAIL_FULL


@lru_cache(maxsize=64)
def _font(pixels: int, bold: bool = False) -> QFont:
    font = QFont("DejaVu Sans")
    font.setStyleHint(QFont.StyleHint.SansSerif)
    font.setPixelSize(max(1, pixels))
    font.setBold(bold)
    font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    return font


# --------------------------------------------------------------------------- drawing of one area


@dataclass(frozen=True)
class ExitDrawing:
    """What to draw on one side of an area: the exit kind, its door, and rock beyond a dead end."""

    kind: str  # open | door | dead_end | secret
    door: Door | None = None
    stub: bool = False  # hatch rock beyond the gap (a dead end into nothing mapped)
    label: bool = True  # write the door's label (False on bare tile diagrams)


@dataclass
class _Text:
    rect: QRectF
    flags: int
    text: str
    size: float  # in squares
    role: str  # label | code | note | mark
    bold: bool = False
    vertical: bool = False
    colour_key: str = ""
    back: QRectF | None = None  # clean paper under the words (set when they cross rock)
    at: QPointF | None = None  # where a cached layout is drawn (top-left; in the turned frame if vertical)


@dataclass
class AreaDrawing:
    """The primitives of one area in its own coordinates (top-left of the area at 0,0).

    Built once from the model; :func:`paint_drawing` replays it at any level of detail.
    """

    square: float
    tint: str | None = None
    floor_rects: list[QRectF] = field(default_factory=list)
    rock_rects: list[QRectF] = field(default_factory=list)
    hatch: list[QLineF] = field(default_factory=list)
    passages: list[QRectF] = field(default_factory=list)
    walls: list[QLineF] = field(default_factory=list)
    wall_rects: list[QRectF] = field(default_factory=list)  # the walls as bars 0.12 square thick
    caps: list[QLineF] = field(default_factory=list)
    dashed: list[QLineF] = field(default_factory=list)
    doors: list[tuple[QRectF, str]] = field(default_factory=list)  # rect, closed|open|pending
    texts: list[_Text] = field(default_factory=list)
    circles: list[tuple[QPointF, float]] = field(default_factory=list)
    notes: list[tuple[int, QRectF]] = field(default_factory=list)  # ref, box

    @property
    def labels(self) -> list[str]:
        """Every word written on the area (door labels, colour code, marks, note numbers)."""
        return [t.text for t in self.texts]


def _merged_squares(floor: list[list[bool]], want: bool, s: float) -> list[QRectF]:
    """The squares that are floor (``want`` True) or rock, as few rects as runs allow."""
    runs: list[list[float]] = []  # [x0, x1, y0, y1] in squares
    for y in range(3):
        x = 0
        while x < 3:
            if floor[y][x] != want:
                x += 1
                continue
            start = x
            while x < 3 and floor[y][x] == want:
                x += 1
            above = next((r for r in runs if r[0] == start and r[1] == x and r[3] == y), None)
            if above is not None:
                above[3] = y + 1
            else:
                runs.append([start, x, y, y + 1])
    return [QRectF(x0 * s, y0 * s, (x1 - x0) * s, (y1 - y0) * s) for x0, x1, y0, y1 in runs]


def _merged_segments(lines: list[QLineF]) -> list[QLineF]:
    """Axis-aligned segments joined where they continue one another (fewer, longer walls)."""
    rows: dict[float, list[tuple[float, float]]] = {}
    cols: dict[float, list[tuple[float, float]]] = {}
    for line in lines:
        if line.y1() == line.y2():
            rows.setdefault(line.y1(), []).append(tuple(sorted((line.x1(), line.x2()))))  # type: ignore[arg-type]
        else:
            cols.setdefault(line.x1(), []).append(tuple(sorted((line.y1(), line.y2()))))  # type: ignore[arg-type]
    out: list[QLineF] = []
    for fixed, spans, horizontal in [*((k, v, True) for k, v in rows.items()), *((k, v, False) for k, v in cols.items())]:
        spans.sort()
        a, b = spans[0]
        for c, e in spans[1:]:
            if c <= b + 1e-6:
                b = max(b, e)
                continue
            out.append(QLineF(a, fixed, b, fixed) if horizontal else QLineF(fixed, a, fixed, b))
            a, b = c, e
        out.append(QLineF(a, fixed, b, fixed) if horizontal else QLineF(fixed, a, fixed, b))
    return out


def _hatch_square(x0: float, y0: float, s: float, lines: list[QLineF], spacing: float) -> None:
    """``/////`` lines over one square, on a grid shared by all squares so they run on."""
    # Lines x + y = c, in scene-local units; c on a global grid so neighbours continue.
    start = math.floor((x0 + y0) / spacing) + 1
    end = math.ceil((x0 + y0 + 2 * s) / spacing)
    for k in range(start, end):
        c = k * spacing - x0 - y0  # relative to the square's top-left corner, 0 < c < 2s
        if c <= 0 or c >= 2 * s:
            continue
        if c <= s:
            lines.append(QLineF(x0, y0 + c, x0 + c, y0))
        else:
            lines.append(QLineF(x0 + c - s, y0 + s, x0 + s, y0 + c - s))


def _edge(x: int, y: int, side: str, s: float) -> QLineF:
    """The edge of square ``(x, y)`` on ``side``."""
    x0, y0 = x * s, y * s
    if side == "N":
        return QLineF(x0, y0, x0 + s, y0)
    if side == "S":
        return QLineF(x0, y0 + s, x0 + s, y0 + s)
    if side == "W":
        return QLineF(x0, y0, x0, y0 + s)
    return QLineF(x0 + s, y0, x0 + s, y0 + s)


def _part(line: QLineF, a: float, b: float) -> QLineF:
    return QLineF(line.pointAt(a), line.pointAt(b))


def _note_slots(notes: Sequence[AreaNote]) -> list[tuple[int, Square]]:
    pinned = [(n.ref, n.square) for n in notes if n.square is not None]
    used = {sq for _, sq in pinned}
    free = [sq for sq in _NOTE_SLOTS if sq not in used] or list(_NOTE_SLOTS)
    out: list[tuple[int, Square]] = [(ref, (sq[0], sq[1])) for ref, sq in pinned if sq is not None]
    for i, note in enumerate(n for n in notes if n.square is None):
        out.append((note.ref, free[i % len(free)]))
    return out


def build_drawing(
    floor: list[list[bool]],
    exits: dict[str, ExitDrawing],
    square: float,
    *,
    colour: str | None = None,
    code: bool = True,
    searched: bool = False,
    interacted: bool = False,
    escaped: str = "",
    notes: Sequence[AreaNote] = (),
    words: bool = True,
) -> AreaDrawing:
    """The drawing of one 3x3 area (map orientation) with its exits, doors, marks and notes.

    ``words`` False leaves out everything written (labels, codes, marks, notes): what a
    far-out view shows, and the same for every area of one shape.
    """
    s = square
    d = AreaDrawing(square=s, tint=colour)
    spacing = s / 4
    secret_rock = {side for side, ex in exits.items() if ex.kind == "secret" and not _is_floor(floor, SIDE_SQUARES[side])}

    d.floor_rects = _merged_squares(floor, True, s)
    d.rock_rects = _merged_squares(floor, False, s)
    for y in range(3):
        for x in range(3):
            if not floor[y][x]:
                _hatch_square(x * s, y * s, s, d.hatch, spacing)

    # Walls: every floor square edge that meets rock or the area's edge, except exit gaps.
    for y in range(3):
        for x in range(3):
            if not floor[y][x]:
                continue
            for side in DIRECTIONS:
                dx, dy = _OUTWARD[side]
                nx, ny = x + dx, y + dy
                edge = _edge(x, y, side, s)
                if 0 <= nx < 3 and 0 <= ny < 3:
                    if floor[ny][nx]:
                        continue
                    through = next((sd for sd in secret_rock if SIDE_SQUARES[sd] == (nx, ny) and (x, y) == (1, 1)), None)
                    if through is not None:
                        d.walls.extend([_part(edge, 0, 0.25), _part(edge, 0.75, 1)])
                    else:
                        d.walls.append(edge)
                    continue
                ex = exits.get(side) if SIDE_SQUARES[side] == (x, y) else None
                if ex is None:
                    d.walls.append(edge)
                elif ex.kind == "door":
                    d.walls.extend([_part(edge, 0, 0.2), _part(edge, 0.8, 1)])

    for side, ex in exits.items():
        _draw_exit(d, floor, side, ex, s)
    d.walls = _merged_segments(d.walls)
    half = 0.06 * s
    d.wall_rects = [
        QRectF(min(w.x1(), w.x2()) - half, min(w.y1(), w.y2()) - half, abs(w.dx()) + 2 * half, abs(w.dy()) + 2 * half)
        for w in d.walls
    ]
    if not words:
        d.texts.clear()
        return d

    if code and colour is not None:
        d.texts.append(
            _Text(
                QRectF(1.5 * s, 0.1 * s, 1.36 * s, 0.4 * s),
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop),
                COLOUR_CODES.get(colour, f"({colour})"),
                0.32,
                "code",
                bold=True,
                colour_key=colour,
            )
        )
    if searched:
        centre = QPointF(0.4 * s, 0.4 * s)
        d.circles.append((centre, 0.24 * s))
        d.texts.append(
            _Text(QRectF(0.16 * s, 0.16 * s, 0.48 * s, 0.48 * s), int(Qt.AlignmentFlag.AlignCenter), "S", 0.32, "mark", True)
        )
    if interacted:
        d.texts.append(
            _Text(
                QRectF(1.8 * s, 2.42 * s, 1.06 * s, 0.46 * s),
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom),
                "(I)",
                0.32,
                "mark",
                True,
            )
        )
    if escaped:
        d.texts.append(
            _Text(
                QRectF(0.14 * s, 2.44 * s, 2.0 * s, 0.44 * s),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom),
                f"\u2020 {escaped}",
                0.3,
                "mark",
            )
        )
    for ref, (x, y) in _note_slots(notes):
        text = str(ref)
        width = max(0.44, 0.2 * len(text) + 0.16) * s
        box = QRectF(x * s + (s - width) / 2, y * s + 0.29 * s, width, 0.42 * s)
        d.notes.append((ref, box))
        d.texts.append(_Text(box, int(Qt.AlignmentFlag.AlignCenter), text, 0.3, "note", True))
    if d.rock_rects:
        for t in d.texts:
            if t.role != "note":
                t.back = _text_back(t, s, d.rock_rects)
    return d


def _text_back(t: _Text, s: float, rocks: list[QRectF]) -> QRectF | None:
    """The tight rect of a text, padded a little, if it crosses a rock square."""
    metrics = QFontMetricsF(_font(round(t.size * s), t.bold))
    if t.vertical:
        frame = QRectF(-t.rect.width() / 2, -t.rect.height() / 2, t.rect.width(), t.rect.height())
        tight = metrics.boundingRect(frame, t.flags, t.text)
        c = t.rect.center()
        tight = QRectF(c.x() + tight.y(), c.y() - tight.right(), tight.height(), tight.width())
    else:
        tight = metrics.boundingRect(t.rect, t.flags, t.text)
    pad = 0.05 * s
    tight = tight.adjusted(-pad, 0, pad, 0)
    return tight if any(tight.intersects(r) for r in rocks) else None


def _is_floor(floor: list[list[bool]], square: Square) -> bool:
    return floor[square[1]][square[0]]


def _draw_exit(d: AreaDrawing, floor: list[list[bool]], side: str, ex: ExitDrawing, s: float) -> None:
    x, y = SIDE_SQUARES[side]
    edge = _edge(x, y, side, s)
    mid = edge.center()
    horizontal = side in ("N", "S")
    dx, dy = _OUTWARD[side]

    if ex.kind == "secret":
        if not _is_floor(floor, (x, y)):
            # A passage cut through the rock from the middle square to the edge.
            if horizontal:
                rect = QRectF(x * s + 0.25 * s, y * s, 0.5 * s, s)
                d.dashed.extend([QLineF(rect.topLeft(), rect.bottomLeft()), QLineF(rect.topRight(), rect.bottomRight())])
            else:
                rect = QRectF(x * s, y * s + 0.25 * s, s, 0.5 * s)
                d.dashed.extend([QLineF(rect.topLeft(), rect.topRight()), QLineF(rect.bottomLeft(), rect.bottomRight())])
            d.passages.append(rect)
        d.dashed.append(_part(edge, 0.1, 0.9))
        return

    if ex.kind == "dead_end":
        d.caps.append(edge)
        if ex.stub:
            depth = 0.5 * s
            if horizontal:
                top = edge.y1() - depth if dy < 0 else edge.y1()
                stub = QRectF(x * s, top, s, depth)
            else:
                left = edge.x1() - depth if dx < 0 else edge.x1()
                stub = QRectF(left, y * s, depth, s)
            d.rock_rects.append(stub)
            lines: list[QLineF] = []
            _hatch_square(stub.x(), stub.y(), max(stub.width(), stub.height()), lines, s / 4)
            d.hatch.extend(_clip_lines(lines, stub))
        return

    if ex.kind != "door":
        return
    door = ex.door
    along, across = 0.6 * s, 0.24 * s
    if horizontal:
        rect = QRectF(mid.x() - along / 2, mid.y() - across / 2, along, across)
    else:
        rect = QRectF(mid.x() - across / 2, mid.y() - along / 2, across, along)
    state = "pending" if door is None or door.pending else ("open" if door.is_open else "closed")
    d.doors.append((rect, state))
    if not ex.label or door is None:
        return
    text = door.label
    size = 0.36
    box_h = 0.45 * s
    box_w = 2.3 * s
    flags = int(Qt.AlignmentFlag.AlignCenter)
    if side == "N":
        d.texts.append(_Text(QRectF(1.5 * s - box_w / 2, 0.47 * s, box_w, box_h), flags, text, size, "label"))
    elif side == "S":
        d.texts.append(_Text(QRectF(1.5 * s - box_w / 2, 2.13 * s, box_w, box_h), flags, text, size, "label"))
    else:
        cx = 2.62 * s if side == "E" else 0.38 * s
        # Written along the wall (rotated), centred on the door.
        d.texts.append(
            _Text(QRectF(cx - box_w / 2, 1.5 * s - box_h / 2, box_w, box_h), flags, text, size, "label", vertical=True)
        )


def _clip_lines(lines: Iterable[QLineF], rect: QRectF) -> list[QLineF]:
    """Clip ``/`` lines to a rect (used for the half-square rock beyond a dead end)."""
    out = []
    for line in lines:
        # Lines run from bottom-left to top-right: x + y = c. Intersect with the rect.
        c = line.x1() + line.y1()
        x_lo = max(rect.left(), c - rect.bottom())
        x_hi = min(rect.right(), c - rect.top())
        if x_hi - x_lo > 1e-6:
            out.append(QLineF(x_lo, c - x_lo, x_hi, c - x_hi))
    return out


@dataclass
class FillLists:
    """The fills of one or many areas, gathered so each kind is drawn in one call."""

    floors: dict[str, list[QRectF]] = field(default_factory=dict)  # by tint (colour code, "" for paper)
    rocks: list[QRectF] = field(default_factory=list)
    hatch: list[QLineF] = field(default_factory=list)
    passages: dict[str, list[QRectF]] = field(default_factory=dict)

    def add(self, other: FillLists) -> None:
        for key, rects in other.floors.items():
            self.floors.setdefault(key, []).extend(rects)
        self.rocks.extend(other.rocks)
        self.hatch.extend(other.hatch)
        for key, rects in other.passages.items():
            self.passages.setdefault(key, []).extend(rects)


@dataclass
class InkLists:
    """The ink of one or many areas (walls, doors, marks, words), gathered by kind."""

    walls: list[QRectF] = field(default_factory=list)
    caps: list[QLineF] = field(default_factory=list)
    dashed: list[QLineF] = field(default_factory=list)
    doors: dict[str, list[QRectF]] = field(default_factory=dict)  # by state: closed | open | pending
    circles: list[tuple[QPointF, float]] = field(default_factory=list)
    notes: list[QRectF] = field(default_factory=list)
    backs: dict[str, list[QRectF]] = field(default_factory=dict)  # by tint
    texts: dict[tuple, list[_Text]] = field(default_factory=dict)  # by font and ink

    def add(self, other: InkLists) -> None:
        self.walls.extend(other.walls)
        self.caps.extend(other.caps)
        self.dashed.extend(other.dashed)
        for key, rects in other.doors.items():
            self.doors.setdefault(key, []).extend(rects)
        self.circles.extend(other.circles)
        self.notes.extend(other.notes)
        for key, rects in other.backs.items():
            self.backs.setdefault(key, []).extend(rects)
        for key, texts in other.texts.items():
            self.texts.setdefault(key, []).extend(texts)


def _moved_rects(rects: Iterable[QRectF], dx: float, dy: float) -> list[QRectF]:
    return [r.translated(dx, dy) for r in rects]


def _moved_lines(lines: Iterable[QLineF], dx: float, dy: float) -> list[QLineF]:
    return [line.translated(dx, dy) for line in lines]


def fill_lists(d: AreaDrawing, detail: int, at: QPointF | None = None) -> FillLists:
    """A drawing's fills for one level of detail, moved to ``at`` (its place on the sheet)."""
    dx, dy = (at.x(), at.y()) if at is not None else (0.0, 0.0)
    key = d.tint or ""
    out = FillLists(floors={key: _moved_rects(d.floor_rects, dx, dy)}, rocks=_moved_rects(d.rock_rects, dx, dy))
    if detail >= DETAIL_FULL:
        out.hatch = _moved_lines(d.hatch, dx, dy)
        if d.passages:
            out.passages = {key: _moved_rects(d.passages, dx, dy)}
    return out


def ink_lists(d: AreaDrawing, detail: int, at: QPointF | None = None) -> InkLists:
    """A drawing's ink for one level of detail, moved to ``at`` (nothing far out)."""
    out = InkLists()
    if detail <= DETAIL_BLOCKS:
        return out
    dx, dy = (at.x(), at.y()) if at is not None else (0.0, 0.0)
    out.walls = _moved_rects(d.wall_rects, dx, dy)
    out.caps = _moved_lines(d.caps, dx, dy)
    out.dashed = _moved_lines(d.dashed, dx, dy)
    for rect, state in d.doors:
        out.doors.setdefault(state, []).append(rect.translated(dx, dy))
    if detail < DETAIL_FULL:
        return out
    out.circles = [(c + QPointF(dx, dy), r) for c, r in d.circles]
    out.notes = [box.translated(dx, dy) for _, box in d.notes]
    backs = [t.back.translated(dx, dy) for t in d.texts if t.back is not None]
    if backs:
        out.backs = {d.tint or "": backs}
    s = d.square
    for t in d.texts:
        moved = replace(t, rect=t.rect.translated(dx, dy), back=None)
        _, w, h = _static_text(t.text, round(t.size * s), t.bold)
        if t.vertical:
            frame = QRectF(-t.rect.width() / 2, -t.rect.height() / 2, t.rect.width(), t.rect.height())
            moved.at = _aligned(frame, t.flags, w, h)
        else:
            moved.at = _aligned(moved.rect, t.flags, w, h)
        out.texts.setdefault((t.size, t.bold, t.role, t.colour_key), []).append(moved)
    return out


def paint_fills(painter: QPainter, fills: FillLists, style: MapStyle, detail: int, texture: bool) -> None:
    """Floors in their tints, then rock: flat far out, hatched close up (a texture on screens,
    real lines on paper)."""
    pal = style.palette
    s = style.square
    painter.setPen(Qt.PenStyle.NoPen)
    for key, rects in fills.floors.items():
        if rects:
            painter.setBrush(pal.tints.get(key, pal.paper) if style.colour else pal.paper)
            painter.drawRects(rects)
    if detail < DETAIL_FULL:
        painter.setBrush(pal.rock_fill)
        painter.drawRects(fills.rocks)
    elif texture:
        t = painter.worldTransform()
        painter.setBrush(hatch_brush(pal.hatch.name(), s, math.hypot(t.m11(), t.m12()) or 1.0))
        painter.drawRects(fills.rocks)
    else:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        hatch = QPen(pal.hatch, 0.045 * s)
        hatch.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(hatch)
        painter.drawLines(fills.hatch)
        painter.setPen(Qt.PenStyle.NoPen)
    for key, rects in fills.passages.items():
        painter.setBrush(pal.tints.get(key, pal.paper) if style.colour else pal.paper)
        painter.drawRects(rects)


def paint_ink(painter: QPainter, ink: InkLists, style: MapStyle, detail: int) -> None:
    """Walls, dead-end caps, secret passages, doors; close up also marks, notes and words."""
    if detail <= DETAIL_BLOCKS:
        return
    pal = style.palette
    s = style.square
    # Walls are axis-aligned: filled bars (square ends) draw far faster than stroked lines,
    # and without antialiasing they land crisp on whole pixels, like a firm pen line.
    smooth = painter.testRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(pal.ink)
    painter.drawRects(ink.walls)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, smooth)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    if ink.caps:
        cap = QPen(pal.ink, 0.05 * s)
        cap.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(cap)
        painter.drawLines(ink.caps)
    if ink.dashed:
        dash = QPen(pal.ink, 0.06 * s)
        dash.setDashPattern([2.5, 2.0])
        dash.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(dash)
        painter.drawLines(ink.dashed)
    for state in ("closed", "open", "pending"):
        rects = ink.doors.get(state)
        if not rects:
            continue
        pen = QPen(pal.ink, 0.05 * s, Qt.PenStyle.DashLine if state == "pending" else Qt.PenStyle.SolidLine)
        painter.setPen(pen)
        painter.setBrush(pal.door_closed if state == "closed" else pal.paper)
        painter.drawRects(rects)
    if detail < DETAIL_FULL:
        return
    if ink.circles:
        painter.setPen(QPen(pal.ink, 0.05 * s))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for centre, radius in ink.circles:
            painter.drawEllipse(centre, radius, radius)
    if ink.notes:
        painter.setPen(QPen(pal.note, 0.04 * s))
        painter.setBrush(pal.paper)
        for box in ink.notes:
            painter.drawRoundedRect(box, 0.08 * s, 0.08 * s)
    if ink.backs:
        # Words written over hatching get a patch of clean paper so they stay readable.
        painter.setPen(Qt.PenStyle.NoPen)
        for key, rects in ink.backs.items():
            painter.setBrush(pal.tints.get(key, pal.paper) if style.colour else pal.paper)
            painter.drawRects(rects)
    static = _pixel_device(painter)
    for (size, bold, role, colour_key), texts in ink.texts.items():
        painter.setPen({"code": pal.codes.get(colour_key, pal.ink), "note": pal.note, "label": pal.label}.get(role, pal.ink))
        px = round(size * s)
        font = _font(px, bold)
        painter.setFont(font)
        for t in texts:
            if static:
                _draw_static(painter, t, px, bold)
            elif t.vertical:
                painter.save()
                painter.translate(t.rect.center())
                painter.rotate(-90)
                painter.drawText(
                    QRectF(-t.rect.width() / 2, -t.rect.height() / 2, t.rect.width(), t.rect.height()), t.flags, t.text
                )
                painter.restore()
            else:
                painter.drawText(t.rect, t.flags, t.text)


@lru_cache(maxsize=4096)
def _static_text(text: str, px: int, bold: bool) -> tuple[QStaticText, float, float]:
    """A laid-out word (shared by every area that writes it) and its width and height."""
    st = QStaticText(text)
    st.setTextFormat(Qt.TextFormat.PlainText)
    st.prepare(QTransform(), _font(px, bold))
    size = st.size()
    return st, size.width(), size.height()


_LEFT = int(Qt.AlignmentFlag.AlignLeft.value)
_RIGHT = int(Qt.AlignmentFlag.AlignRight.value)
_TOP = int(Qt.AlignmentFlag.AlignTop.value)
_BOTTOM = int(Qt.AlignmentFlag.AlignBottom.value)


def _aligned(rect: QRectF, flags: int, w: float, h: float) -> QPointF:
    """The top-left of a ``w`` x ``h`` text placed in ``rect`` as ``flags`` say."""
    flags = int(flags)
    if flags & _LEFT:
        x = rect.left()
    elif flags & _RIGHT:
        x = rect.right() - w
    else:
        x = rect.center().x() - w / 2
    if flags & _TOP:
        y = rect.top()
    elif flags & _BOTTOM:
        y = rect.bottom() - h
    else:
        y = rect.center().y() - h / 2
    return QPointF(x, y)


def _draw_static(painter: QPainter, t: _Text, px: int, bold: bool) -> None:
    """Screens write with cached layouts (twice as fast as laying words out every paint)."""
    st, w, h = _static_text(t.text, px, bold)
    at = t.at
    if at is None:
        frame = QRectF(-t.rect.width() / 2, -t.rect.height() / 2, t.rect.width(), t.rect.height()) if t.vertical else t.rect
        at = _aligned(frame, t.flags, w, h)
    if t.vertical:
        painter.save()
        painter.translate(t.rect.center())
        painter.rotate(-90)
        painter.drawStaticText(at, st)
        painter.restore()
    else:
        painter.drawStaticText(at, st)


def paint_drawing(
    painter: QPainter,
    d: AreaDrawing,
    style: MapStyle,
    detail: int,
    layers: Sequence[int] = LAYERS,
    texture: bool | None = None,
) -> None:
    """Draw one area's drawing; the painter's origin is the area's top-left corner.

    On a map every area's fills go under every area's ink (walls and doors straddle the
    shared edges); ``layers`` picks :data:`LAYER_FILL`, :data:`LAYER_INK` or both.
    ``texture`` hatches rock with a texture (screens) rather than lines (paper); by default
    it follows the painter's device.
    """
    if texture is None:
        texture = _pixel_device(painter)
    if LAYER_FILL in layers:
        paint_fills(painter, fill_lists(d, detail), style, detail, texture)
    if LAYER_INK in layers:
        paint_ink(painter, ink_lists(d, detail), style, detail)


_PIXEL_ENGINES = (QPaintEngine.Type.Raster, QPaintEngine.Type.OpenGL2, QPaintEngine.Type.OpenGL)


def _pixel_device(painter: QPainter) -> bool:
    """True on screens and images, False on paper (PDF, SVG, a printer)."""
    engine = painter.paintEngine()
    return engine is not None and engine.type() in _PIXEL_ENGINES


@lru_cache(maxsize=64)
def _hatch_tile(colour: str, n: int) -> QImage:
    """One square of ``/////`` hatching, ``n`` pixels wide (four strokes to a square)."""
    tile = QImage(n, n, QImage.Format.Format_ARGB32_Premultiplied)
    tile.fill(Qt.GlobalColor.transparent)
    p = QPainter(tile)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor(colour), max(0.6, 0.045 * n))
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    p.setPen(pen)
    step = n / 4
    for k in range(-4, 12):
        c = k * step
        p.drawLine(QPointF(-n, c + n), QPointF(c + n, -n))
    p.end()
    return tile


def hatch_brush(colour: str, square: float, device_scale: float = 1.0) -> QBrush:
    """``/////`` hatching as a texture, for screens and images.

    Filling rock with it is one call for the whole view where stroking costs dozens of lines
    per area. The tile is drawn at the device's resolution (``device_scale`` pixels per scene
    unit) so the texture is copied pixel for pixel, the fast path. Paper gets real lines.
    """
    n = max(4, round(square * device_scale))
    brush = QBrush(_hatch_tile(colour, n))
    brush.setTransform(QTransform.fromScale(1 / device_scale, 1 / device_scale))
    return brush


# --------------------------------------------------------------------------- from the models


def area_exit_drawings(area: Area, dungeon: Dungeon) -> dict[str, ExitDrawing]:
    """What to draw on each side of a mapped area (a dead end into nothing gets rock beyond)."""
    exits: dict[str, ExitDrawing] = {}
    for side, ex in area.exits.items():
        stub = ex.kind == "dead_end" and dungeon.area_at(neighbour(area.pos, side)) is None
        exits[side] = ExitDrawing(kind=ex.kind, door=ex.door, stub=stub)
    return exits


def area_drawing(area: Area, dungeon: Dungeon, square: float, exits: dict[str, ExitDrawing] | None = None) -> AreaDrawing:
    """The drawing of a mapped area as it stands in ``dungeon``."""
    return build_drawing(
        area.floor,
        exits if exits is not None else area_exit_drawings(area, dungeon),
        square,
        colour=area.colour,
        searched=area.searched,
        interacted=area.interacted,
        escaped=area.escaped,
        notes=area.notes,
    )


def tile_drawing(tile: Tile, rotation: int, square: float, *, code: bool = True) -> AreaDrawing:
    """A Table M tile drawn as it would lie on the map turned ``rotation`` (doors unlabelled)."""
    exits = {tile_side_to_map("back", rotation): ExitDrawing(kind="open")}
    for side, kind in tile.exits.items():
        exits[tile_side_to_map(side, rotation)] = ExitDrawing(kind=kind, door=Door(type="", is_open=False), label=False)
    return build_drawing(rotate_floor(tile.floor, rotation), exits, square, colour=tile.colour, code=code)


def paint_tile(painter: QPainter, rect: QRectF, tile: Tile, rotation: int = 0, style: MapStyle | None = None) -> None:
    """Paint a tile diagram scaled into ``rect`` (previews, the tile editor's overview)."""
    style = style or MapStyle()
    side = min(rect.width(), rect.height())
    d = tile_drawing(tile, rotation, style.square, code=False)
    scale = side / style.area
    painter.save()
    painter.translate(rect.x() + (rect.width() - side) / 2, rect.y() + (rect.height() - side) / 2)
    painter.scale(scale, scale)
    painter.setClipRect(
        QRectF(-0.2 * style.square, -0.2 * style.square, style.area + 0.4 * style.square, style.area + 0.4 * style.square)
    )
    paint_drawing(painter, d, style, detail_for(side / 3))
    painter.restore()


# --------------------------------------------------------------------------- items


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
        if changed is None or self._image is None or bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = bounds
            self._image = None
            self.update()
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

    def __init__(self, style: MapStyle | None = None, show_hero: bool = True, parent=None) -> None:
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
        self._sheet_key: tuple = ()
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
    def style(self) -> MapStyle:
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
        # Repaint (and drop the cached background) only where something changed.
        if changed is None or len(changed) > 200:
            self.invalidate(QRectF(), QGraphicsScene.SceneLayer.BackgroundLayer)
            self.ink_item.update()
            self.overview_item.invalidate(None)
        else:
            for rect in changed:
                self.invalidate(rect, QGraphicsScene.SceneLayer.BackgroundLayer)
                self.ink_item.update(rect)
            self.overview_item.invalidate(changed)
        self._place_hero()
        self.overlay.set_marks([])

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
            self.hero_item.setVisible(False)
            return
        self.hero_item.setPos(self.area_rect(hero).center())
        self.hero_item.set_facing(d.facing)
        self.hero_item.setVisible(True)

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
        for side, sq in SIDE_SQUARES.items():
            if sq == square:
                return here, side
        # The point may sit in the reach of a neighbour's zone, just across its edge.
        for side in DIRECTIONS:
            other = neighbour(here, side)
            if self.side_zone(other, opposite(side)).contains(scene_pos):  # type: ignore[arg-type]
                return other, opposite(side)  # type: ignore[arg-type]
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
    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
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
        d = self._dungeon
        if d is not None:
            col, row = d.entrance
        else:
            from d100gui.engine.dungeon.map import DEFAULT_HEIGHT, DEFAULT_WIDTH

            col, row = DEFAULT_WIDTH // 2, DEFAULT_HEIGHT - 1
        s = self._style.square
        bottom = self.area_rect((col, row)).bottom()
        cx = self.area_rect((col, row)).center().x()
        zone = QRectF(cx - 2 * s, bottom, 4 * s, 2.2 * s)
        if not zone.intersects(rect):
            return
        pal = self._style.palette
        pen = QPen(pal.ink, 0.08 * s)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawLine(QPointF(cx, bottom + 1.05 * s), QPointF(cx, bottom + 0.3 * s))
        painter.setBrush(pal.ink)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawPolygon(
            QPolygonF(
                [
                    QPointF(cx, bottom + 0.12 * s),
                    QPointF(cx - 0.2 * s, bottom + 0.45 * s),
                    QPointF(cx + 0.2 * s, bottom + 0.45 * s),
                ]
            )
        )
        painter.setPen(pal.ink)
        painter.setFont(_font(round(0.42 * s), True))
        painter.drawText(QRectF(cx - 2 * s, bottom + 1.1 * s, 4 * s, 0.7 * s), int(Qt.AlignmentFlag.AlignCenter), "ENTRANCE")


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


__all__ = [
    "COLOUR_CODES",
    "LAYERS",
    "LAYER_FILL",
    "LAYER_INK",
    "OVERVIEW_BELOW_PX",
    "AreaDrawing",
    "AreaShape",
    "ExitDrawing",
    "FillLists",
    "HeroItem",
    "InkItem",
    "InkLists",
    "MapPalette",
    "MapScene",
    "MapStyle",
    "Mark",
    "OverlayItem",
    "OverviewItem",
    "area_drawing",
    "area_exit_drawings",
    "build_drawing",
    "detail_for",
    "paint_drawing",
    "paint_tile",
    "tile_drawing",
]
