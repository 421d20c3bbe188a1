"""View > Chronicle (issue 24, deliver 3): opened through the real menu action and by a click in the Statistics view;
the page shows the quest's parts and its map, and exports as one self-contained HTML file and as a PDF."""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import QDialog, QFileDialog

from d100gui.engine import Session, creation_steps
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_game_data
from d100gui.ui.chronicle.window import CAMPAIGN, ChronicleWindow
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support raise")]  # offscreen has no window stack

GOBLIN = {"name": "Goblin", "av": 40, "defence": 1, "dmg": 0, "hp": [1]}
ANSWERS: dict[str, dict[str, Any]] = {"action": {"kind": "combat_attack"}, "roll": {"kind": "combat_continue"}}


def played() -> Session:
    """A hero; a first quest entered, a goblin fought and won, the quest given up; a second quest entered."""
    session = Session.new(bundled_game_data(), seed=2038, policy="reroll")  # a quiet entrance area
    for step in creation_steps("<b>Brana</b> & co", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    session.run({"kind": "begin_quest"})
    session.run({"kind": "turn_enter"})
    session.script_dice([5, 3, 0, 4, 1, 9, 0])  # the goblin dies at once (docs/engine-api.md)
    session.run({"kind": "start_combat", "source": "monster", "monster": GOBLIN, "fate_windows": False})
    while session.combat is not None:
        session.run(ANSWERS[session.combat.waiting])
    for choice in [d for d in session.pending if d.decision == "experience"]:
        session.run({"kind": "assign_experience", "decision": choice.id, "choice": "characteristic"})
    session.seeded_dice()
    session.run({"kind": "fail_quest"})
    return session


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=4)
    qtbot.addWidget(win)
    win.bridge.set_game(played().game)
    return win


def view_action(window: MainWindow, text: str):
    [menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&View"]
    [action] = [a for a in menu.actions() if a.text() == text]
    return action


def test_the_view_menu_opens_the_chronicle_of_the_quest(window, qtbot):
    view_action(window, "&Chronicle...").trigger()
    chronicle = window.chronicle_window
    assert isinstance(chronicle, ChronicleWindow) and chronicle.isVisible()
    assert chronicle.picker.itemData(0) == CAMPAIGN and chronicle.picker.count() == 2, "the campaign, then each quest"
    assert chronicle.picker.currentData() == 0, "the latest quest first"
    html = chronicle.view.toHtml()
    text = chronicle.view.toPlainText()
    assert "Dungeon Training 1" in text and "Goblin" in text and "Outcome: failed" in text
    assert "&lt;b&gt;Brana&lt;/b&gt; &amp; co" in chronicle.html, "the hero's name escaped"
    assert "<img" in html and "data:image/png;base64," in chronicle.html, "the quest's map inline"
    qtbot.mouseClick(chronicle.campaign_button, Qt.MouseButton.LeftButton)
    assert chronicle.picker.currentData() == CAMPAIGN and "Contents" in chronicle.view.toPlainText()
    assert re.findall(r'href="#(quest-\d+)"', chronicle.html) == ["quest-1"]


def test_the_chronicle_follows_an_undo_and_a_redo(window):
    chronicle = window.show_chronicle()
    assert chronicle.picker.itemText(1).endswith("failed")
    window.bridge.undo()  # the quest given up: under way again
    assert chronicle.picker.itemText(1).endswith("in progress") and "Outcome: in progress" in chronicle.view.toPlainText()
    window.bridge.redo()
    assert chronicle.picker.itemText(1).endswith("failed") and "Outcome: failed" in chronicle.view.toPlainText()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_export_html_and_pdf(window, qtbot, tmp_path, monkeypatch):
    chronicle = window.show_chronicle()
    target = tmp_path / "quest.html"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(chronicle.html_button, Qt.MouseButton.LeftButton)
    page = target.read_text(encoding="utf-8")
    assert page == chronicle.html and "Goblin" in page
    assert not re.search(r"(?:href|src)=\"(?:https?|file):", page) and "<link" not in page, "self-contained"
    srcs = re.findall(r'src="([^"]*)"', page)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)
    pdf = tmp_path / "quest.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(pdf), ""))
    qtbot.mouseClick(chronicle.pdf_button, Qt.MouseButton.LeftButton)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 2000 and b"%%EOF" in data[-64:]
    # the exported page opened in the window reads the same
    chronicle.view.setHtml(page)
    assert "Goblin" in chronicle.view.toPlainText()


def pdf_pages(data: bytes) -> int:
    """The pages of a PDF file (its page objects, not the page tree's root)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_print_lays_the_page_out_on_the_printer_the_dialog_accepts(window, qtbot, tmp_path, monkeypatch):
    chronicle = window.show_chronicle()
    chronicle.show_campaign()  # the contents page, then each quest from a new page
    printed = tmp_path / "printed.pdf"
    asked: list[QPrinter] = []

    def accept(dialog: QPrintDialog) -> int:
        printer = dialog.printer()
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)  # the printer the player chose: a file here
        printer.setOutputFileName(str(printed))
        asked.append(printer)
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(QPrintDialog, "exec", accept)
    qtbot.mouseClick(chronicle.print_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 1, "the print dialog was asked"
    data = printed.read_bytes()
    assert data.startswith(b"%PDF") and b"%%EOF" in data[-64:]
    quests = chronicle.picker.count() - 1
    assert quests >= 1 and pdf_pages(data) >= quests + 1, "the contents page, then a page (at least) per quest"
    one = tmp_path / "one.pdf"
    chronicle.show_quest(0)
    printed = one
    qtbot.mouseClick(chronicle.print_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 2 and pdf_pages(one.read_bytes()) >= 1, "the quest shown, printed on its own"


def test_a_cancelled_print_dialog_prints_nothing(window, qtbot, tmp_path, monkeypatch):
    chronicle = window.show_chronicle()
    target = tmp_path / "never.pdf"
    asked: list[bool] = []

    def cancel(dialog: QPrintDialog) -> int:
        dialog.printer().setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        dialog.printer().setOutputFileName(str(target))
        asked.append(True)
        return int(QDialog.DialogCode.Rejected)

    monkeypatch.setattr(QPrintDialog, "exec", cancel)
    qtbot.mouseClick(chronicle.print_button, Qt.MouseButton.LeftButton)
    assert asked == [True] and not target.exists(), "nothing printed"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_click_on_a_quest_in_the_statistics_view_opens_its_chronicle(window, qtbot):
    view_action(window, "&Statistics...").trigger()
    stats = window.stats_window
    qtbot.waitUntil(lambda: stats.feed.ready)
    stats.show_figures(stats.feed.figures(), force=True)
    table = stats.hero.table
    assert table.rowCount() == 1
    rect = table.visualItemRect(table.item(0, 1))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a double click: press, then
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    chronicle = window.chronicle_window
    assert chronicle is not None and chronicle.isVisible() and chronicle.picker.currentData() == 0
    chronicle.picker.setCurrentIndex(chronicle.picker.findData(CAMPAIGN))
    # a click on the quest's point of the hero's plot
    plot = stats.hero.plot
    plot.resize(600, 400)
    plot.getPlotItem().vb.autoRange()
    qtbot.wait(10)
    [scatter] = [i for i in plot.getPlotItem().items if i.objectName() == "points_HP"]
    point = scatter.points()[0]
    scene = plot.getPlotItem().vb.mapViewToScene(QPointF(point.pos()))
    at = plot.mapFromScene(scene)
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(at.x(), at.y()))
    assert chronicle.picker.currentData() == 0, "the clicked quest's chronicle"
