"""One area's drawing: its floor and rock, walls, exits, doors, words and marks, and how to paint them.

An :class:`AreaDrawing` is worked out once from the engine's :class:`Area` (or a Table M
tile) in the area's own coordinates; the scene moves it into place and gathers many areas'
lists so a repaint draws each kind of stroke in one call. Nothing here decides a rule.
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

from d100gui.engine.dungeon.map import (
    DIRECTIONS,
    Area,
    AreaNote,
    Door,
    Dungeon,
    neighbour,
    rotate_floor,
    tile_side_to_map,
)
from d100gui.engine.dungeon.tiles import Tile
from d100gui.ui.map.style import DETAIL_BLOCKS, DETAIL_FULL, MapStyle, detail_for

Pos = tuple[int, int]
Square = tuple[int, int]
TextKey = tuple[float, bool, str, str]  # a text's size, bold, role and colour key: one font and ink


#: What the rulebook writes in an area's top-right corner for each Table M colour.
COLOUR_CODES: dict[str, str] = {"Y": "(Y)", "R": "(R)", "G": "(GR)", "B": "(B)"}

#: The square of an area that holds each side's exit (its side middle), ``(x, y)``.
SIDE_SQUARES: dict[str, Square] = {"N": (1, 0), "E": (2, 1), "S": (1, 2), "W": (0, 1)}
_OUTWARD: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

# Where unpinned notes go, in order, so they do not cover the hero marker in the middle.
_NOTE_SLOTS: tuple[Square, ...] = ((0, 2), (2, 2), (1, 2), (0, 0), (2, 0), (1, 0), (0, 1), (2, 1), (1, 1))

LAYER_FILL = 0  # floor tints, hatched rock
LAYER_INK = 1  # walls, doors, words and marks
LAYERS = (LAYER_FILL, LAYER_INK)


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
    _draw_rock(d, floor, s)
    _draw_walls(d, floor, exits, s)
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
    _draw_marks(d, s, searched, interacted, escaped)
    _draw_notes(d, s, notes)
    if d.rock_rects:
        for t in d.texts:
            if t.role != "note":
                t.back = _text_back(t, s, d.rock_rects)
    return d


def _draw_rock(d: AreaDrawing, floor: list[list[bool]], s: float) -> None:
    """Floor and rock blocks, and the hatching of every rock square."""
    spacing = s / 4
    d.floor_rects = _merged_squares(floor, True, s)
    d.rock_rects = _merged_squares(floor, False, s)
    for y in range(3):
        for x in range(3):
            if not floor[y][x]:
                _hatch_square(x * s, y * s, s, d.hatch, spacing)


def _draw_walls(d: AreaDrawing, floor: list[list[bool]], exits: dict[str, ExitDrawing], s: float) -> None:
    """Walls: every floor square edge that meets rock or the area's edge, except exit gaps."""
    secret_rock = {side for side, ex in exits.items() if ex.kind == "secret" and not _is_floor(floor, SIDE_SQUARES[side])}
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


def _draw_marks(d: AreaDrawing, s: float, searched: bool, interacted: bool, escaped: str) -> None:
    """The rulebook's marks: S (searched), (I) (interacted), and the dagger of an escaped monster."""
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


def _draw_notes(d: AreaDrawing, s: float, notes: Sequence[AreaNote]) -> None:
    """The player's numbered notes, each in its square."""
    for ref, (x, y) in _note_slots(notes):
        text = str(ref)
        width = max(0.44, 0.2 * len(text) + 0.16) * s
        box = QRectF(x * s + (s - width) / 2, y * s + 0.29 * s, width, 0.42 * s)
        d.notes.append((ref, box))
        d.texts.append(_Text(box, int(Qt.AlignmentFlag.AlignCenter), text, 0.3, "note", True))


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
    """One exit: a secret passage (dashed), a dead end (capped, maybe a rock stub) or a door."""
    if ex.kind == "secret":
        _draw_secret(d, floor, side, s)
    elif ex.kind == "dead_end":
        _draw_dead_end(d, side, ex, s)
    elif ex.kind == "door":
        _draw_door(d, side, ex, s)


def _draw_secret(d: AreaDrawing, floor: list[list[bool]], side: str, s: float) -> None:
    x, y = SIDE_SQUARES[side]
    edge = _edge(x, y, side, s)
    if not _is_floor(floor, (x, y)):
        # A passage cut through the rock from the middle square to the edge.
        if side in ("N", "S"):
            rect = QRectF(x * s + 0.25 * s, y * s, 0.5 * s, s)
            d.dashed.extend([QLineF(rect.topLeft(), rect.bottomLeft()), QLineF(rect.topRight(), rect.bottomRight())])
        else:
            rect = QRectF(x * s, y * s + 0.25 * s, s, 0.5 * s)
            d.dashed.extend([QLineF(rect.topLeft(), rect.topRight()), QLineF(rect.bottomLeft(), rect.bottomRight())])
        d.passages.append(rect)
    d.dashed.append(_part(edge, 0.1, 0.9))


def _draw_dead_end(d: AreaDrawing, side: str, ex: ExitDrawing, s: float) -> None:
    x, y = SIDE_SQUARES[side]
    edge = _edge(x, y, side, s)
    dx, dy = _OUTWARD[side]
    d.caps.append(edge)
    if not ex.stub:
        return
    depth = 0.5 * s
    if side in ("N", "S"):
        top = edge.y1() - depth if dy < 0 else edge.y1()
        stub = QRectF(x * s, top, s, depth)
    else:
        left = edge.x1() - depth if dx < 0 else edge.x1()
        stub = QRectF(left, y * s, depth, s)
    d.rock_rects.append(stub)
    lines: list[QLineF] = []
    _hatch_square(stub.x(), stub.y(), max(stub.width(), stub.height()), lines, s / 4)
    d.hatch.extend(_clip_lines(lines, stub))


def _draw_door(d: AreaDrawing, side: str, ex: ExitDrawing, s: float) -> None:
    x, y = SIDE_SQUARES[side]
    mid = _edge(x, y, side, s).center()
    door = ex.door
    along, across = 0.6 * s, 0.24 * s
    if side in ("N", "S"):
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
    texts: dict[TextKey, list[_Text]] = field(default_factory=dict)  # by font and ink

    def add(self, other: InkLists) -> None:
        self.walls.extend(other.walls)
        self.caps.extend(other.caps)
        self.dashed.extend(other.dashed)
        for state, rects in other.doors.items():
            self.doors.setdefault(state, []).extend(rects)
        self.circles.extend(other.circles)
        self.notes.extend(other.notes)
        for tint, rects in other.backs.items():
            self.backs.setdefault(tint, []).extend(rects)
        for font_key, texts in other.texts.items():
            self.texts.setdefault(font_key, []).extend(texts)


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
    _paint_lines(painter, ink, style)
    if detail < DETAIL_FULL:
        return
    _paint_marks(painter, ink, style)
    _paint_words(painter, ink, style)


def _paint_lines(painter: QPainter, ink: InkLists, style: MapStyle) -> None:
    """Walls, dead-end caps, secret passages and doors."""
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


def _paint_marks(painter: QPainter, ink: InkLists, style: MapStyle) -> None:
    """The searched circles, the note boxes, and clean paper behind words over hatching."""
    pal = style.palette
    s = style.square
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


def _paint_words(painter: QPainter, ink: InkLists, style: MapStyle) -> None:
    """Every word, grouped by font and ink (laid out once per word on pixel devices)."""
    pal = style.palette
    s = style.square
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


def paint_entrance(painter: QPainter, style: MapStyle, at: QPointF) -> None:
    """The arrow and the word ENTRANCE below the entrance area (``at``: the middle of its bottom edge)."""
    s = style.square
    cx, bottom = at.x(), at.y()
    pal = style.palette
    pen = QPen(pal.ink, 0.08 * s)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.drawLine(QPointF(cx, bottom + 1.05 * s), QPointF(cx, bottom + 0.3 * s))
    painter.setBrush(pal.ink)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawPolygon(
        QPolygonF(
            [QPointF(cx, bottom + 0.12 * s), QPointF(cx - 0.2 * s, bottom + 0.45 * s), QPointF(cx + 0.2 * s, bottom + 0.45 * s)]
        )
    )
    painter.setPen(pal.ink)
    painter.setFont(_font(round(0.42 * s), True))
    painter.drawText(QRectF(cx - 2 * s, bottom + 1.1 * s, 4 * s, 0.7 * s), int(Qt.AlignmentFlag.AlignCenter), "ENTRANCE")


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
    exits: dict[str, ExitDrawing] = {tile_side_to_map("back", rotation): ExitDrawing(kind="open")}
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
