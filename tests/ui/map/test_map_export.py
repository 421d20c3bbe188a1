"""Exporting and printing the map: true-scale PNG, SVG and PDF, tiling, black-and-white."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QRectF, QSizeF
from PySide6.QtGui import QImage

from d100gui.engine.dungeon.map import Dungeon, add_note, mark_searched, move_hero, place_manual, set_door
from d100gui.storage.resources import standard_tileset
from d100gui.ui.map import export as map_export
from d100gui.ui.map.export import (
    MapPrintPreview,
    PrintOptions,
    export_pdf,
    export_png,
    export_svg,
    page_label,
    plan_pages,
)
from d100gui.ui.map.style import MapStyle

pytestmark = pytest.mark.gui

# The standard sheet: 15 x 11 areas of 3 x 3 squares, with a margin of 0.6 square around it
# and 1.9 squares below for the entrance mark.
SHEET_W_SQUARES = 15 * 3 + 1.2
SHEET_H_SQUARES = 11 * 3 + 2.5


@pytest.fixture(autouse=True)
def _app(qapp):
    return qapp


@pytest.fixture
def dungeon() -> Dungeon:
    """A few hand-placed standard tiles with a labelled door, a note and the hero."""
    tiles = standard_tileset()
    d = Dungeon(id="q", name="Export test")
    d, _ = place_manual(d, 7, 10, tiles.tile(7), 0)  # a red hall with a door ahead
    d, _ = place_manual(d, 7, 9, tiles.tile(10), 0)
    d, _ = place_manual(d, 6, 10, tiles.tile(3), 270)
    d = set_door(d, (7, 10), "N", "TLD", 54, False)
    d = mark_searched(d, (7, 9))
    d, _ = add_note(d, (7, 9), "Lever", (0, 2))
    return move_hero(d, (7, 10))


def colour_pixels(image: QImage) -> int:
    """How many pixels are not a grey (R, G and B not all equal)."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    data = bytes(image.constBits())
    b, g, r = data[0::4], data[1::4], data[2::4]
    return sum(1 for x, y, z in zip(b, g, r, strict=True) if not x == y == z)


def pdf_pages(path) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", path.read_bytes()))


def test_png_at_a_dpi_has_the_true_scale_pixel_size(tmp_path, dungeon: Dungeon) -> None:
    for dpi in (100, 200):
        path = tmp_path / f"map-{dpi}.png"
        size = export_png(dungeon, path, dpi=dpi)
        image = QImage(str(path))
        expected_w = math.ceil(SHEET_W_SQUARES * 5 / 25.4 * dpi - 1e-6)
        expected_h = math.ceil(SHEET_H_SQUARES * 5 / 25.4 * dpi - 1e-6)
        assert (image.width(), image.height()) == (expected_w, expected_h) == (size.width(), size.height())
        assert image.dotsPerMeterX() == round(dpi / 0.0254)


def test_png_is_drawn_at_true_scale(tmp_path, dungeon: Dungeon) -> None:
    """The sheet's grid starts 0.6 square (3 mm) in from the left and ends 45 squares later."""
    path = tmp_path / "map.png"
    export_png(dungeon, path, dpi=100, colour=False)
    image = QImage(str(path))
    row = image.height() // 3  # a row of empty grid paper

    def dark(x_mm: float) -> bool:
        return image.pixelColor(round(x_mm / 25.4 * 100), row).lightness() < 230

    assert dark(3.0) and dark(3.0 + 45 * 5) and dark(3.0 + 15 * 5)  # sheet edges, an area line
    assert not dark(1.0) and not dark(3.0 + 45 * 5 + 2)  # the paper margin


def test_black_and_white_png_has_no_colour_pixels(tmp_path, dungeon: Dungeon) -> None:
    export_png(dungeon, tmp_path / "bw.png", dpi=60, colour=False)
    export_png(dungeon, tmp_path / "colour.png", dpi=60, colour=True)
    assert colour_pixels(QImage(str(tmp_path / "bw.png"))) == 0
    assert colour_pixels(QImage(str(tmp_path / "colour.png"))) > 1000


def test_png_refuses_an_absurd_dpi_and_writes_nothing(tmp_path, dungeon: Dungeon) -> None:
    with pytest.raises(ValueError, match="DPI"):
        export_png(dungeon, tmp_path / "x.png", dpi=5000)
    assert list(tmp_path.iterdir()) == []


def test_svg_is_valid_xml_with_paths_at_true_size(tmp_path, dungeon: Dungeon) -> None:
    path = tmp_path / "map.svg"
    export_svg(dungeon, path)
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    ns = "{http://www.w3.org/2000/svg}"
    drawn = root.findall(f".//{ns}path") + root.findall(f".//{ns}polyline")
    assert len(drawn) > 50
    width_mm = float(root.get("width").removesuffix("mm"))
    height_mm = float(root.get("height").removesuffix("mm"))
    assert width_mm == pytest.approx(SHEET_W_SQUARES * 5, abs=0.5)
    assert height_mm == pytest.approx(SHEET_H_SQUARES * 5, abs=0.5)
    texts = "".join(t.text or "" for t in root.iter(f"{ns}text"))
    assert "TLD (54)" in texts and "(R)" in texts


def test_pdf_true_scale_tiles_pages(tmp_path, dungeon: Dungeon) -> None:
    # 5 mm squares: the 231 x 177.5 mm sheet fits one landscape A4 page.
    one = tmp_path / "one.pdf"
    assert export_pdf(dungeon, one) == 1
    assert pdf_pages(one) == 1
    # 8 mm squares: 369.6 x 284 mm, landscape A4 maps 274 x 181 mm with 10 mm overlap: 2 x 2 pages.
    four = tmp_path / "four.pdf"
    assert export_pdf(dungeon, four, square_mm=8) == 4
    assert pdf_pages(four) == 4
    # Fit to page: always one page.
    fit = tmp_path / "fit.pdf"
    assert export_pdf(dungeon, fit, square_mm=8, true_scale=False) == 1
    assert pdf_pages(fit) == 1


def test_page_plan_overlaps_and_covers_the_map() -> None:
    style = MapStyle(square=25, square_mm=5)
    paper = QRectF(0, 0, 1000, 600)  # 200 x 120 mm at true scale
    plan = plan_pages(paper, style, QSizeF(90, 100), PrintOptions(overlap_mm=10))
    assert (plan.cols, plan.rows, plan.count) == (3, 2, 6)
    by_pos = {(t.row, t.col): t for t in plan.tiles}
    overlap_units = 10 / style.mm_per_unit
    assert by_pos[(1, 1)].source.right() - by_pos[(1, 2)].source.left() == pytest.approx(overlap_units)
    assert by_pos[(1, 1)].source.bottom() - by_pos[(2, 1)].source.top() == pytest.approx(overlap_units)
    assert by_pos[(2, 3)].source.right() == pytest.approx(paper.right())
    assert by_pos[(2, 3)].source.bottom() == pytest.approx(paper.bottom())
    assert page_label(by_pos[(1, 2)], plan) == "Map 2 of 6 (row 1, column 2)"
    assert page_label(by_pos[(2, 1)], plan) == "Map 4 of 6 (row 2, column 1)"
    fitted = plan_pages(paper, style, QSizeF(90, 100), PrintOptions(true_scale=False))
    assert fitted.count == 1 and fitted.tiles[0].target.width() == pytest.approx(90)


def test_failed_export_keeps_the_old_file_and_leaves_no_temp(tmp_path, dungeon: Dungeon, monkeypatch) -> None:
    target = tmp_path / "map.pdf"
    target.write_bytes(b"old map")

    def broken(*_args, **_kwargs):
        raise RuntimeError("printer on fire")

    monkeypatch.setattr(map_export, "render_pages", broken)
    with pytest.raises(RuntimeError):
        export_pdf(dungeon, target)
    assert target.read_bytes() == b"old map"
    assert [p.name for p in tmp_path.iterdir()] == ["map.pdf"]


def test_print_preview_counts_pages_for_its_options(qtbot, dungeon: Dungeon) -> None:
    dialog = MapPrintPreview(dungeon)
    qtbot.addWidget(dialog)
    dialog.preview_widget.updatePreview()
    assert dialog.pages == 1
    assert dialog.preview_widget.pageCount() == 1
    dialog.square_spin.setValue(8.0)
    assert dialog.options.square_mm == 8.0
    assert dialog.pages > 1
    dialog.scale_box.setCurrentIndex(1)  # fit to page
    assert dialog.options.true_scale is False
    assert dialog.pages == 1
