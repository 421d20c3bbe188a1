"""The character sheet on paper: two A4 pages at true scale, for the printer or a PDF.

:func:`paint_sheet` draws both pages with a :class:`QPainter` on any paged device, in
millimetres (the painter is scaled by the device's resolution, so 10 mm on the page is 10 mm
on paper whatever the printer). :func:`export_sheet_pdf` writes it with ``QPdfWriter``;
:func:`print_sheet` opens a print preview whose printer is painted by the same function.

Page 1: header, characteristics, health points, equipped slots, belt, keys / levers /
poison / disease, skills, spell book, time track. Page 2: backpack, unequipped potions,
non-slot items, quest log, supplies, empire building, notes, combat track. Ink is black on
white whatever the screen theme, like the printed sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QGuiApplication, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QWidget

from d100gui.engine.hero.derive import Derived, derive
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.hero.queries import (
    ability_for,
    ability_unlocked,
    belt_item,
    covering_two_handed,
    darkness_penalty,
    spells_castable,
    track_full_gain,
)
from d100gui.engine.rules.model import Rules
from d100gui.ui.common.pips import paint_trigger_icon

MARGIN_MM = 10.0
INK = QColor("#111111")
SHADE = QColor("#3a3a3a")
FAINT = QColor("#9a9a9a")
RULE = QColor("#777777")


def _item_bonuses(item: Item) -> str:
    return " ".join(f"{n:+d}{s[0]}" for s, n in item.bonuses.items() if n)


class _Pen:
    """Drawing in millimetres: every coordinate is converted to the device's pixels here,
    so text is laid out at its real point size (no scaled-up tiny fonts)."""

    def __init__(self, painter: QPainter, dpi: float) -> None:
        self.p = painter
        self.dpi = dpi
        self.k = dpi / 25.4  # device pixels per millimetre
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)

    def r(self, rect: QRectF) -> QRectF:
        k = self.k
        return QRectF(rect.x() * k, rect.y() * k, rect.width() * k, rect.height() * k)

    def pt(self, x: float, y: float) -> QPointF:
        return QPointF(x * self.k, y * self.k)

    def font(self, pt: float, bold: bool = False, italic: bool = False) -> QFont:
        font = QFont("Helvetica")
        font.setStyleHint(QFont.StyleHint.SansSerif)
        font.setPointSizeF(pt)
        font.setBold(bold)
        font.setItalic(italic)
        return font

    def pen(self, colour: QColor = INK, width: float = 0.25) -> QPen:
        return QPen(colour, width * self.k)

    def text(
        self,
        rect: QRectF,
        text: str,
        pt: float = 8,
        bold: bool = False,
        align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        colour: QColor = INK,
        italic: bool = False,
        wrap: bool = False,
    ) -> None:
        font = self.font(pt, bold, italic)
        self.p.setFont(font)
        self.p.setPen(colour)
        target = self.r(rect)
        if wrap:
            self.p.drawText(target, int(align | Qt.TextFlag.TextWordWrap), text)
            return
        shown = QFontMetricsF(font, self.p.device()).elidedText(text, Qt.TextElideMode.ElideRight, target.width())
        self.p.drawText(target, int(align), shown)

    def box(self, rect: QRectF, fill: QColor | None = None, width: float = 0.25, colour: QColor = INK) -> None:
        self.p.setPen(self.pen(colour, width) if width > 0 else Qt.PenStyle.NoPen)
        self.p.setBrush(fill if fill is not None else Qt.BrushStyle.NoBrush)
        self.p.drawRect(self.r(rect))

    def ellipse(self, rect: QRectF, fill: QColor | None = None, width: float = 0.25, colour: QColor = INK) -> None:
        self.p.setPen(self.pen(colour, width))
        self.p.setBrush(fill if fill is not None else Qt.BrushStyle.NoBrush)
        self.p.drawEllipse(self.r(rect))

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: QColor = RULE, width: float = 0.15) -> None:
        self.p.setPen(self.pen(colour, width))
        self.p.drawLine(self.pt(x1, y1), self.pt(x2, y2))

    def icon(self, kind: str, rect: QRectF, number: int | None = None) -> None:
        paint_trigger_icon(self.p, kind, self.r(rect), number)

    def pips(
        self,
        x: float,
        y: float,
        count: int,
        shaded: int,
        size: float = 3.0,
        step: float = 3.8,
        shape: str = "circle",
        per_row: int = 0,
        row_step: float = 4.2,
        group: int = 5,
    ) -> float:
        """Draw a track; returns the x after the last pip of the first row."""
        per_row = per_row or count
        end = x
        for k in range(count):
            row, col = divmod(k, per_row)
            gx = x + col * step + (col // group) * (step * 0.35 if group and per_row > group else 0)
            rect = QRectF(gx, y + row * row_step, size, size)
            fill = SHADE if k < shaded else None
            if shape == "box":
                self.box(rect, fill, 0.2)
            else:
                self.ellipse(rect, fill, 0.2)
            end = max(end, rect.right())
        return end

    def section(self, rect: QRectF, title: str) -> float:
        """A boxed section with an inverted title bar; returns the y under the bar."""
        self.box(rect, width=0.3)
        bar = QRectF(rect.left(), rect.top(), rect.width(), 4.2)
        self.box(bar, fill=INK, width=0)
        self.text(bar.adjusted(1.5, 0, -1, 0), title.upper(), 7, True, colour=QColor("#ffffff"))
        return bar.bottom()

    def labelled(self, rect: QRectF, label: str, value: str, value_pt: float = 11) -> None:
        """A box with a small label in its top-left corner and the value written in it."""
        self.box(rect)
        self.text(QRectF(rect.left() + 0.8, rect.top() + 0.3, rect.width() - 1.6, 2.6), label, 5.5, True)
        self.text(rect.adjusted(0.8, 2.2, -0.8, 0), value, value_pt, align=Qt.AlignmentFlag.AlignCenter)


def _title(pen: _Pen, width: float, character: Character, page: int) -> float:
    bar = QRectF(0, 0, width, 7)
    pen.box(bar, fill=INK, width=0)
    pen.text(bar.adjusted(2, 0, -2, 0), "D100 DUNGEON  ·  CHARACTER SHEET", 10, True, colour=QColor("#ffffff"))
    pen.text(
        bar.adjusted(2, 0, -2, 0),
        f"{character.name or '(unnamed)'}  ·  page {page} of 2",
        7,
        align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
        colour=QColor("#ffffff"),
    )
    return bar.bottom() + 2


def _halves(w: float) -> tuple[float, float]:
    """The width of a half-page block and the x where the right-hand block starts."""
    half = w / 2 - 1.5
    return half, half + 3


def _header(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """Name, REP, GP, Fate, Lives and the quest encounter modifier, boxed."""
    cells = [
        ("NAME", ch.name, 74.0),
        (f"REP ({rules.reputation.min}-{rules.reputation.max})", str(ch.rep), 17.0),
        ("GP", str(ch.gp), 26.0),
        ("FATE", str(ch.fate), 15.0),
        ("LIVES", "RES" if ch.res and not ch.lives else (f"{ch.lives} RES" if ch.res else str(ch.lives)), 17.0),
        ("QUEST ENC. MOD", f"{ch.quest_encounter_modifier:+d}", 26.0),
    ]
    gap = (w - sum(c[2] for c in cells)) / (len(cells) - 1)
    x = 0.0
    for label, value, width in cells:
        pen.labelled(QRectF(x, y, width, 11), label, value, 12 if label != "NAME" else 13)
        x += width + gap
    y += 14
    return y


def _characteristics_and_health(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """STR / DEX / INT with experience pips and ability badges (left); health points (right)."""
    left_w = 124.0
    top = pen.section(QRectF(0, y, left_w, 34), "Characteristics")
    heads = (
        ("", 0, 12),
        ("PRIMARY", 12, 14),
        ("ADJUSTED", 27, 15),
        (f"EXPERIENCE (full track: {track_full_gain(rules, 'characteristic')}, then clear)", 44, 58),
        ("ABILITY", 102, 22),
    )
    for label, col_x, col_w in heads:
        pen.text(QRectF(col_x + 1, top + 0.5, col_w, 3), label, 5.5, True)
    ry = top + 4
    for stat in rules.characteristics:
        score = ch.characteristics.get(stat)
        pen.text(QRectF(2, ry, 10, 8), stat, 11, True)
        pen.box(QRectF(13, ry + 0.5, 12, 7))
        pen.text(QRectF(13, ry + 0.5, 12, 7), str(score.primary if score else 0), 11, align=Qt.AlignmentFlag.AlignCenter)
        pen.box(QRectF(28, ry + 0.5, 13, 7), width=0.5)
        pen.text(QRectF(28, ry + 0.5, 13, 7), str(d.characteristics[stat]), 12, True, align=Qt.AlignmentFlag.AlignCenter)
        end = pen.pips(45, ry + 2.5, rules.sheet.characteristic_track, score.pips if score else 0, 3.0, 4.0)
        pen.text(QRectF(end + 0.8, ry, 6, 8), track_full_gain(rules, "characteristic"), 6.5)
        ability = ability_for(rules, stat)
        if ability is not None:
            lit = ability_unlocked(d, ability.id)
            badge = QRectF(103, ry + 1.5, 20, 5)
            pen.box(badge, fill=INK if lit else None, width=0.25, colour=INK if lit else FAINT)
            pen.text(badge, ability.name, 6.2, lit, Qt.AlignmentFlag.AlignCenter, QColor("#ffffff") if lit else FAINT)
        ry += 9
    hx = left_w + 3
    hw = w - hx
    top = pen.section(QRectF(hx, y, hw, 34), "Health points")
    pen.labelled(QRectF(hx + 2, top + 2, 18, 11), "PRIMARY", str(ch.hp_primary))
    pen.labelled(QRectF(hx + 22, top + 2, 18, 11), "ADJUSTED", str(d.max_hp))
    pen.labelled(QRectF(hx + 42, top + 2, hw - 44, 11), "CURRENT HP", str(ch.hp), 14)
    dmg = ", ".join(f"{rules.slot(s).name} {v:+d}" for s, v in d.weapon_dmg.items()) or f"{d.dmg:+d}"
    pen.text(QRectF(hx + 2, top + 15, hw - 4, 4), f"DMG: {dmg}", 7)
    pen.text(QRectF(hx + 2, top + 19.5, hw - 4, 4), f"Defence Bonus (DB): {d.defence_bonus}", 7)
    pen.text(
        QRectF(hx + 2, top + 24, hw - 4, 4),
        f"Light: no oil, {darkness_penalty(rules)} STR/DEX/INT" if ch.in_darkness else "Light: lit",
        6.5,
        colour=FAINT,
    )
    y += 37
    return y


def _equipment(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """The equipment slots with hit location, damage mod, the item's columns and its repair track."""
    rows = len(rules.slots)
    row_h = 6.4
    height = 4.2 + 4 + rows * row_h + 1
    top = pen.section(QRectF(0, y, w, height), "Equipment (hit location · damage mod)")
    columns = [
        ("LOC", 8),
        ("SLOT", 25),
        ("MOD", 9),
        ("ITEM", 53),
        ("STR/DEX/INT", 19),
        ("HP", 8),
        ("DEF", 9),
        ("DMG", 9),
        ("VALUE", 13),
        ("REPAIR", w - 153),
    ]
    cx = 0.0
    xs = []
    for label, cw in columns:
        xs.append(cx)
        pen.text(QRectF(cx + 1, top + 0.5, cw - 1, 3.2), label, 5.5, True)
        cx += cw
    ry = top + 4
    for slot in rules.slots:
        item = ch.equipment.get(slot.id)
        pen.line(0, ry, w, ry)
        if slot.hit_location:
            centre = QPointF(xs[0] + 4, ry + row_h / 2)
            pen.ellipse(QRectF(centre.x() - 2.4, centre.y() - 2.4, 4.8, 4.8))
            pen.text(QRectF(centre.x() - 3, centre.y() - 3, 6, 6), str(slot.hit_location), 7, True, Qt.AlignmentFlag.AlignCenter)
            pen.text(QRectF(xs[2], ry, 9, row_h), f"{rules.damage_mod(slot.id):+d}", 8, align=Qt.AlignmentFlag.AlignCenter)
        pen.text(QRectF(xs[1] + 1, ry, 24, row_h), slot.name, 8, True)
        if item is None:
            cover = covering_two_handed(ch, slot.id)
            if cover is not None:
                pen.text(QRectF(xs[3] + 1, ry, 52, row_h), f"({cover.name}, two-handed)", 7.5, italic=True, colour=FAINT)
        else:
            pen.text(QRectF(xs[3] + 1, ry, 52, row_h), item.name, 8.5)
            pen.text(QRectF(xs[4], ry, 19, row_h), _item_bonuses(item), 7, align=Qt.AlignmentFlag.AlignCenter)
            pen.text(
                QRectF(xs[5], ry, 8, row_h),
                f"{item.hp_bonus:+d}" if item.hp_bonus else "",
                7.5,
                align=Qt.AlignmentFlag.AlignCenter,
            )
            defence = f"S{item.shield}" if item.shield else (item.def_label if item.kind == "armour" or item.defence else "")
            pen.text(QRectF(xs[6], ry, 9, row_h), defence, 7.5, align=Qt.AlignmentFlag.AlignCenter)
            pen.text(QRectF(xs[7], ry, 9, row_h), f"{item.dmg:+d}" if item.dmg else "", 7.5, align=Qt.AlignmentFlag.AlignCenter)
            pen.text(QRectF(xs[8], ry, 13, row_h), f"{item.value}" if item.value else "", 7.5, align=Qt.AlignmentFlag.AlignCenter)
            pen.pips(xs[9] + 2, ry + 1.6, item.repair_track or rules.sheet.repair_track, item.repair_pips, 3.0, 3.9, "box")
        ry += row_h
    for x in xs[1:]:
        pen.line(x, top, x, ry)
    y += height + 3
    return y


def _belt_and_counts(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """The belt slots (left); keys, levers, poison and disease tracks (right)."""
    half = w / 2 - 1.5
    block = 36.0
    top = pen.section(QRectF(0, y, half, block), "Belt slots (brews, potions, scrolls)")
    per_col = (rules.belt_slots + 1) // 2
    for i in range(rules.belt_slots):
        col, row = divmod(i, per_col)
        bx = 1.5 + col * (half / 2)
        by = top + 1.2 + row * 6
        pen.ellipse(QRectF(bx, by + 0.4, 4.4, 4.4))
        pen.text(QRectF(bx, by + 0.4, 4.4, 4.4), str(i + 1), 6.5, True, Qt.AlignmentFlag.AlignCenter)
        item = ch.belt[i] if i < len(ch.belt) else None
        pen.line(bx + 5, by + 5, bx + half / 2 - 2, by + 5)
        if item is not None:
            pen.text(QRectF(bx + 5.5, by, half / 2 - 8, 5), item.name, 7.5)
    rx = half + 3
    top = pen.section(QRectF(rx, y, w - rx, block), "Keys · Levers · Poison · Disease")
    for i, (name, label) in enumerate((("keys", "KEYS"), ("levers", "LEVERS"), ("poison", "POISON"), ("disease", "DISEASE"))):
        ty = top + 1.5 + i * 7.3
        pen.text(QRectF(rx + 2, ty, 18, 5), label, 7, True)
        length = int(getattr(rules.sheet, f"{name}_track"))
        shape = "box" if name in ("keys", "levers") else "circle"
        pen.pips(rx + 21, ty + 0.8, length, getattr(ch, name), 3.6, 5.4, shape)
        if shape == "box":
            for k in range(length):
                gx = rx + 21 + k * 5.4 + (k // 5) * (5.4 * 0.35)
                pen.text(QRectF(gx, ty + 4.4, 3.6, 2.6), str(k + 1), 4.5, align=Qt.AlignmentFlag.AlignCenter, colour=FAINT)
    y += block + 3
    return y


def _skills_and_spells(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """Skills with bonus and experience pips (left); the spell book with its INT thresholds (right)."""
    half, rx = _halves(w)
    block = 52.0
    top = pen.section(QRectF(0, y, half, block), f"Skills (max +{rules.skill_max})")
    for i, skill in enumerate(rules.skills):
        score = ch.skills.get(skill)
        sy = top + 1.2 + i * 4.6
        pen.text(QRectF(2, sy, 17, 4.2), skill, 7.5)
        pen.box(QRectF(19, sy + 0.3, 7, 3.8))
        bonus = score.bonus if score else 0
        pen.text(QRectF(19, sy + 0.3, 7, 3.8), f"+{bonus}" if bonus else "", 7, True, Qt.AlignmentFlag.AlignCenter)
        end = pen.pips(28.5, sy + 0.6, rules.sheet.skill_track, score.pips if score else 0, 3.0, 4.2)
        pen.text(QRectF(end + 0.6, sy, 6, 4.2), track_full_gain(rules, "skill"), 6)
    top = pen.section(QRectF(rx, y, w - rx, block), "Spell book")
    caster = spells_castable(rules, d)
    pen.text(
        QRectF(rx + 2, top + 0.4, w - rx - 4, 3.4),
        "Spell Caster: active" if caster else "Spell Caster: locked (scrolls only)",
        6,
        italic=True,
    )
    pen.text(QRectF(w - 18, top + 0.4, 16, 3.4), "COST", 5.5, True, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    for i, threshold in enumerate(d.spell_thresholds):
        sy = top + 4 + i * 4.3
        reach = i < d.spells_in_reach
        colour = INK if reach else FAINT
        pen.text(QRectF(rx + 2, sy, 10, 4), f"{threshold}+", 6.5, True, colour=colour)
        spell = ch.spell_book[i] if i < len(ch.spell_book) else None
        pen.line(rx + 12, sy + 4, w - 2, sy + 4)
        if spell is not None:
            pen.text(QRectF(rx + 12.5, sy, w - rx - 32, 4), spell.name, 7.5, reach, colour=colour)
            pen.text(
                QRectF(w - 20, sy, 18, 4),
                spell.cost,
                6.5,
                align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                colour=colour,
            )
    y += block + 3
    return y


def _time_track(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """The time track with its trigger symbols, objectives met and the legend, to the foot of the page."""
    layout = rules.sheet.time_track
    block = h - y
    top = pen.section(QRectF(0, y, w, block), "Time track")
    size = 8.5
    step = min(12.5, (w - 46) / layout.clocks)
    for k in range(1, layout.clocks + 1):
        cx = 3 + (k - 1) * step
        rect = QRectF(cx, top + 1.5, size, size)
        shaded = k <= ch.time_track.shaded
        pen.ellipse(rect, SHADE if shaded else None, 0.3)
        c = rect.center()
        hands = QColor("#ffffff") if shaded else INK
        pen.line(c.x(), c.y(), c.x(), rect.top() + 1.6, hands, 0.3)
        pen.line(c.x(), c.y(), rect.right() - 2.2, c.y(), hands, 0.3)
        triggers = layout.triggers_at(k)
        ix = c.x() - len(triggers) * 2.1
        for t in triggers:
            pen.icon(t.kind, QRectF(ix, rect.bottom() + 0.6, 3.0, 3.4), t.number)
            ix += 4.2 if t.kind != "wandering" else 5.2
    ox = 3 + layout.clocks * step + 2
    pen.labelled(QRectF(ox, top + 1.5, w - ox - 2, 9), "OBJECTIVES MET", str(ch.objectives))
    bonuses = ", ".join(f"{b.amount:+d} {b.stat}" for b in ch.time_track.bonuses)
    legend = "Flame: use oil · loaf: eat food · eye n: wandering monster on d10 ≤ n (Table E)"
    pen.text(QRectF(ox, top + 11, w - ox - 2, block - 12), (f"Bonuses: {bonuses}. " if bonuses else "") + legend, 5.5, wrap=True)
    return y


def _item_table(pen: _Pen, rect: QRectF, title: str, items: Sequence[Item], rules: Rules, repair: bool, min_rows: int) -> None:
    top = pen.section(rect, title)
    w = rect.width()
    x0 = rect.left()
    cols = [("ITEM", 0.42), ("SLOT / KIND", 0.16), ("BONUSES · DEF · DMG", 0.22), ("VALUE", 0.08), ("REPAIR", 0.12)]
    if not repair:
        cols = [("ITEM", 0.55), ("EFFECT / NOTES", 0.45)]
    xs, cx = [], x0
    for label, frac in cols:
        xs.append(cx)
        pen.text(QRectF(cx + 1, top + 0.4, frac * w - 1, 3.2), label, 5.5, True)
        cx += frac * w
    row_h = 5.6
    ry = top + 4
    rows = max(min_rows, len(items))
    rows = min(rows, int((rect.bottom() - ry) / row_h))
    for i in range(rows):
        pen.line(x0, ry, x0 + w, ry)
        item = items[i] if i < len(items) else None
        if item is not None:
            pen.text(QRectF(xs[0] + 1.2, ry, xs[1] - xs[0] - 1.5, row_h), item.name, 7.5)
            if repair:
                slot = rules.slot(item.slot).name if item.slot in rules.slot_ids() else ""
                pen.text(QRectF(xs[1] + 1, ry, xs[2] - xs[1] - 1.5, row_h), slot or item.kind, 6.5)
                bits = [_item_bonuses(item)]
                if item.defence or item.defence_bonus:
                    bits.append(f"DEF {item.def_label}")
                if item.shield:
                    bits.append(f"S{item.shield}")
                if item.dmg:
                    bits.append(f"{item.dmg:+d} DMG")
                if item.hp_bonus:
                    bits.append(f"{item.hp_bonus:+d} HP")
                pen.text(QRectF(xs[2] + 1, ry, xs[3] - xs[2] - 1.5, row_h), " ".join(b for b in bits if b), 6.5)
                pen.text(
                    QRectF(xs[3], ry, xs[4] - xs[3], row_h),
                    str(item.value) if item.value else "",
                    7,
                    align=Qt.AlignmentFlag.AlignCenter,
                )
                if not belt_item(rules, item):
                    pen.pips(
                        xs[4] + 1.5, ry + 1.3, item.repair_track or rules.sheet.repair_track, item.repair_pips, 2.8, 3.6, "box"
                    )
            else:
                pen.text(QRectF(xs[1] + 1, ry, x0 + w - xs[1] - 2, row_h), item.effect or item.describe(), 6.5)
        ry += row_h
    if len(items) > rows:
        pen.text(QRectF(x0 + 1, rect.bottom() - 3.6, w - 2, 3.4), f"… and {len(items) - rows} more", 6, italic=True)
    for x in xs[1:]:
        pen.line(x, top, x, ry)


def _lists(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """Backpack across the page; unequipped potions and non-slot items side by side."""
    height = 4.2 + 4 + 12 * 5.6 + 1
    _item_table(pen, QRectF(0, y, w, height), "Backpack (unequipped items)", ch.backpack, rules, True, 12)
    y += height + 3
    half = w / 2 - 1.5
    rx = half + 3
    height = 4.2 + 4 + 7 * 5.6 + 1
    _item_table(pen, QRectF(0, y, half, height), "Unequipped potions", ch.potions, rules, False, 7)
    _item_table(pen, QRectF(rx, y, w - rx, height), "Non-slot items", ch.non_slot_items, rules, False, 7)
    y += height + 3
    return y


def _quest_log_and_supplies(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """The quest log (left) and supplies (right)."""
    half, rx = _halves(w)
    block = 30.0
    top = pen.section(QRectF(0, y, half, block), "Quest log")
    for i, (label, value) in enumerate(
        (("ATTEMPTED", ch.quest_log.attempted), ("COMPLETED", ch.quest_log.completed), ("FAILED", ch.quest_log.failed))
    ):
        pen.labelled(QRectF(2 + i * (half - 4) / 3, top + 1.5, (half - 4) / 3 - 2, 11), label, str(value))
    pen.text(QRectF(2, top + 14, 30, 4), "CURRENT QUEST", 5.5, True)
    pen.box(QRectF(2, top + 18, half - 4, 6.5))
    pen.text(QRectF(3, top + 18, half - 6, 6.5), ch.quest_log.current, 8)
    top = pen.section(QRectF(rx, y, w - rx, block), "Supplies")
    sy = top + 1.4
    for key, maximum in rules.supplies_max.items():
        value = getattr(ch.supplies, key)
        pen.text(QRectF(rx + 2, sy, 12, 4), key.upper(), 7, True)
        per_row = 15
        pen.pips(rx + 14, sy + 0.5, maximum, value, 3.0, 3.8, "box", per_row=per_row, row_step=3.8)
        pen.text(
            QRectF(w - 14, sy, 12, 4), f"{value}/{maximum}", 7, True, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        )
        sy += 3.8 * ((maximum + per_row - 1) // per_row) + 1.6
    y += block + 3
    return y


def _empire(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """Empire building: each investment's shares, pips and worth."""
    inv = rules.investments
    block = 4.2 + 4 + len(inv.kinds) * 5.4 + 1.5
    top = pen.section(QRectF(0, y, w, block), "Empire building")
    heads = (("INVESTMENT", 2), ("1 SHARE · 1 PIP", 26), ("SHARES", 62), ("PIPS", 118), ("WORTH", w - 26))
    for label, hx in heads:
        pen.text(QRectF(hx, top + 0.4, 40, 3.2), label, 5.5, True)
    ry = top + 4
    for kind in inv.kinds:
        held = ch.empire.get(kind.id)
        shares, pips = (held.shares, held.pips) if held else (0, 0)
        pen.line(0, ry, w, ry)
        pen.text(QRectF(2, ry, 24, 5.4), kind.name, 8, True)
        pen.text(QRectF(26, ry, 36, 5.4), f"{kind.share_value} gp · {kind.pip_value} gp", 6.5)
        pen.pips(62, ry + 1.2, inv.max_shares, shares, 3.0, 4.8, "box")
        pen.pips(118, ry + 1.2, inv.pips_per_share - 1, pips, 3.0, 4.4)
        pen.text(
            QRectF(w - 30, ry, 28, 5.4),
            f"{shares * kind.share_value + pips * kind.pip_value} gp",
            7.5,
            align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
        )
        ry += 5.4
    y += block + 3
    return y


def _notes_and_combat(pen: _Pen, w: float, h: float, y: float, ch: Character, rules: Rules, d: Derived) -> float:
    """Notes (left) and the combat track with its milestones and last fights (right), to the foot of the page."""
    half, rx = _halves(w)
    block = h - y
    top = pen.section(QRectF(0, y, half, block), "Notes")
    for rule_y in range(int(top + 6), int(y + block - 1), 6):
        pen.line(2, rule_y, half - 2, rule_y, FAINT, 0.1)
    pen.text(
        QRectF(2, top + 1.4, half - 4, block - 6),
        ch.notes,
        7.5,
        wrap=True,
        align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
    )

    layout = rules.sheet.combat_track
    top = pen.section(QRectF(rx, y, w - rx, block), "Combat track")
    per_row = 10
    cw = (w - rx - 4) / per_row
    box = min(cw - 1.5, 6.5)
    filled = len(ch.combat_track)
    marks = {m.position: m for m in layout.milestones}
    for k in range(1, layout.length + 1):
        row, col = divmod(k - 1, per_row)
        rect = QRectF(rx + 2 + col * cw, top + 2 + row * (box + 2.2), box, box)
        pen.box(rect, fill=SHADE if k <= filled else None, width=0.25)
        pen.text(
            rect.adjusted(0.3, 0.2, 0, 0), str(k), 4.5, align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, colour=FAINT
        )
        if k in marks:
            pen.icon("milestone", QRectF(rect.right() - 2.6, rect.top() - 1.2, 3.4, 3.4))
    rows = (layout.length + per_row - 1) // per_row
    ly = top + 2 + rows * (box + 2.2) + 0.5
    legend = "  ".join(f"{m.position}: {m.reward}" for m in layout.milestones)
    pen.text(
        QRectF(rx + 2, ly, w - rx - 4, 10),
        "★ " + legend,
        5.5,
        wrap=True,
        align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
    )
    ly += 10.5
    for n, entry in list(enumerate(ch.combat_track, start=1))[-max(0, int((y + block - ly) / 3.6)) :]:
        bits = [
            f"AV {entry.av}" if entry.av is not None else "",
            f"DEF {entry.defence}" if entry.defence is not None else "",
            f"DMG {entry.dmg:+d}" if entry.dmg is not None else "",
            f"HP {entry.hp}" if entry.hp else "",
        ]
        pen.text(QRectF(rx + 2, ly, w - rx - 4, 3.4), f"{n}. {entry.monster}  " + " ".join(b for b in bits if b), 6)
        ly += 3.6
    return y


PAGE_ONE = (_header, _characteristics_and_health, _equipment, _belt_and_counts, _skills_and_spells, _time_track)
PAGE_TWO = (_lists, _quest_log_and_supplies, _empire, _notes_and_combat)


def _page(pen: _Pen, w: float, h: float, ch: Character, rules: Rules, d: Derived, number: int) -> None:
    """One page: the title bar, then each part below the last."""
    y = _title(pen, w, ch, number)
    for part in PAGE_ONE if number == 1 else PAGE_TWO:
        y = part(pen, w, h, y, ch, rules, d)


def paint_sheet(
    painter: QPainter,
    dpi: float,
    page_mm: tuple[float, float],
    character: Character,
    rules: Rules,
    new_page: Callable[[], object],
) -> None:
    """Draw both pages; ``page_mm`` is the printable area in millimetres, ``new_page`` starts page 2."""
    w, h = page_mm
    d = derive(character, rules)
    pen = _Pen(painter, dpi)
    _page(pen, w, h, character, rules, d, 1)
    new_page()
    _page(pen, w, h, character, rules, d, 2)


def _layout() -> QPageLayout:
    return QPageLayout(
        QPageSize(QPageSize.PageSizeId.A4),
        QPageLayout.Orientation.Portrait,
        QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
        QPageLayout.Unit.Millimeter,
    )


def _area_mm(layout: QPageLayout) -> tuple[float, float]:
    rect = layout.paintRect(QPageLayout.Unit.Millimeter)
    return rect.width(), rect.height()


def export_sheet_pdf(character: Character, rules: Rules, path: str | Path) -> Path:
    """Write the sheet to a two-page A4 PDF at true scale; returns the path. OSError if it cannot be written."""
    if QGuiApplication.instance() is None:
        raise RuntimeError("Drawing the sheet needs a running Qt application (fonts come from it).")
    target = Path(path)
    with open(target, "wb"):  # fail here, with the OS's reason, rather than inside Qt
        pass
    writer = QPdfWriter(str(target))
    writer.setResolution(600)
    writer.setPageLayout(_layout())
    writer.setTitle(f"{character.name or 'Character'} - D100 Dungeon character sheet")
    writer.setCreator("d100gui")
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"Could not write a PDF to {target}.")
    try:
        paint_sheet(painter, writer.resolution(), _area_mm(writer.pageLayout()), character, rules, writer.newPage)
    finally:
        painter.end()
    return target


def render_to_printer(printer: QPrinter, character: Character, rules: Rules) -> None:
    """Paint the sheet on a printer (the preview's, or a real one) at its resolution."""
    painter = QPainter()
    if not painter.begin(printer):
        return
    try:
        paint_sheet(painter, printer.resolution(), _area_mm(printer.pageLayout()), character, rules, printer.newPage)
    finally:
        painter.end()


class SheetPreview(QPrintPreviewDialog):
    """The print preview of the sheet; it keeps its printer alive as long as it is open."""

    def __init__(self, printer: QPrinter, parent: QWidget | None = None) -> None:
        super().__init__(printer, parent)
        self.printer_ = printer


def print_sheet(parent: QWidget | None, character: Character, rules: Rules) -> QPrintPreviewDialog:
    """Open a print preview of the sheet (A4, two pages, true scale); printing goes from there."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(_layout())
    printer.setDocName(f"{character.name or 'Character'} - character sheet")
    dialog = SheetPreview(printer, parent)
    dialog.setWindowTitle("Print the character sheet")
    snapshot = character.model_copy(deep=True)
    dialog.paintRequested.connect(lambda p: render_to_printer(p, snapshot, rules))
    dialog.open()
    return dialog
