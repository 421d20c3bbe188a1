"""The sheet on paper: a two-page A4 PDF at true scale, and the print preview."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtPrintSupport import QPrintPreviewWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.engine.hero.creation import (
    creation_commands,
)
from d100gui.engine.hero.model import CombatTrackEntry, Item, SpellEntry
from d100gui.engine.item_commands import CHARACTER_COMMANDS
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.hero.sheet_print import export_sheet_pdf, paint_sheet, print_sheet

pytestmark = [pytest.mark.gui, pytest.mark.usefixtures("qapp")]  # fonts come from the Qt application
RULES = bundled_rules()
A4_POINTS = (595, 842)


@pytest.fixture
def hero(bundled_library):
    """A finished hero made by the creation commands, with a few things on page 2."""
    game = Game(Campaign(), bundled_library, commands=CHARACTER_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource([0, 5, 0, 1, 0, 5, 1, 0])
    for command in (*creation_commands("Judith", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]),):
        game.execute(command)
    ch = game.campaign.character.model_copy(deep=True)
    ch.backpack.append(Item(name="Iron Helm", kind="armour", slot="head", defence=1, value=40, repair_pips=2))
    ch.spell_book[0] = SpellEntry(name="Heal", cost="-1 HP")
    ch.combat_track = [CombatTrackEntry(monster="Goblin", av=30, defence=0, dmg=1, hp="5")]
    ch.notes = "East door locked."
    return ch


def pages_in(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", data))


def test_pdf_has_two_a4_pages(hero, tmp_path):
    path = export_sheet_pdf(hero, RULES, tmp_path / "judith.pdf")
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert pages_in(data) == 2
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert len(boxes) == 2
    assert all((round(float(w)), round(float(h))) == A4_POINTS for w, h in boxes)
    assert len(data) > 20_000  # fonts and two full pages of drawing, not an empty document
    assert "Judith".encode("utf-16-be") in data  # the title names the hero


def test_an_empty_sheet_still_prints_both_pages(tmp_path):
    from d100gui.engine.hero.model import new_character

    blank = new_character(RULES)
    data = export_sheet_pdf(blank, RULES, tmp_path / "blank.pdf").read_bytes()
    assert pages_in(data) == 2


def test_an_unwritable_path_is_refused_with_the_os_reason(hero, tmp_path):
    with pytest.raises(OSError):
        export_sheet_pdf(hero, RULES, tmp_path)  # a directory


def test_drawing_is_true_scale(hero):
    """At 100 dpi the 190 mm title bar is 748 px wide and the page's two halves are 277 mm tall."""
    dpi = 100
    per_mm = dpi / 25.4
    image = QImage(800, 2 * 1100, QImage.Format.Format_RGB32)
    image.setDotsPerMeterX(round(dpi / 0.0254))
    image.setDotsPerMeterY(round(dpi / 0.0254))
    image.fill(QColor("white"))
    painter = QPainter(image)
    starts = [0.0]

    def next_page():
        painter.translate(0, 1100)
        starts.append(1100.0)

    paint_sheet(painter, dpi, (190.0, 277.0), hero, RULES, next_page)
    painter.end()
    assert len(starts) == 2
    bar_end = 190 * per_mm  # 748 px
    for top in starts:
        y = int(top + 3 * per_mm)  # inside the 7 mm title bar
        assert QColor(image.pixel(5, y)).lightness() < 60
        assert QColor(image.pixel(int(bar_end) - 3, y)).lightness() < 60
        assert QColor(image.pixel(int(bar_end) + 4, y)).lightness() > 200
        below = int(top + 8 * per_mm)  # the 2 mm gap under the bar
        assert QColor(image.pixel(int(bar_end) // 2, below)).lightness() > 200
        bottom = round(top + 277 * per_mm)  # the last sections' bottom edge is the bottom of the 277 mm area
        edge = [
            max(QColor(image.pixel(x, y)).lightness() < 120 for y in range(bottom - 1, bottom + 2)) for x in range(10, 700, 7)
        ]
        assert sum(edge) > 0.9 * len(edge)
        assert all(QColor(image.pixel(x, bottom + 5)).lightness() > 200 for x in range(10, 700, 7))


def test_print_preview_shows_two_pages(qtbot, hero):
    dialog = print_sheet(None, hero, RULES)
    qtbot.addWidget(dialog)
    preview = dialog.findChild(QPrintPreviewWidget)
    preview.updatePreview()
    assert preview.pageCount() == 2
    dialog.reject()
