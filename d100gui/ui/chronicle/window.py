"""View > Chronicle: a quest's chronicle, or the whole campaign's, to read, export (HTML, PDF) and print.

The chronicle's data comes from the engine (:class:`~d100gui.engine.chronicle.ChronicleReader`, fed
with the campaign's log: the older entries from the store, in SQL (only the events a chronicle reads:
``CampaignStore.fold_chronicle``; as entries if a row cannot be read so), then the entries in memory; each new action
folds only its own entries, an undo or another campaign starts again). The page is the HTML of
``storage/chronicle_html.py`` (Jinja2 templates), shown in a ``QTextBrowser``; the same HTML is the
exported file, the PDF (``QTextDocument`` on a ``QPdfWriter``) and the printout. The map images are
drawn by a function the main window hands in (this folder may not import ``ui/map``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QMarginsF, Qt
from PySide6.QtGui import QPagedPaintDevice, QPageLayout, QPageSize, QPdfWriter, QShowEvent, QTextDocument
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.chronicle import ChronicleReader, QuestChronicle
from d100gui.engine.dungeon.map import Dungeon
from d100gui.engine.game import LogEntry
from d100gui.storage.atomic import replacing, write_text_atomic
from d100gui.storage.chronicle_html import MapImage, render_campaign, render_quest
from d100gui.ui.common.bridge import ChangeSet, EngineBridge

OlderLog = Callable[[int, int], Sequence[LogEntry]]
#: reads the stored log's rows from the reader's next entry up to an end, in SQL (False: read the entries)
RowReader = Callable[[ChronicleReader, int], bool]
MapDrawer = Callable[[Dungeon], MapImage | None]
#: log entries read from the store at a time when the chronicle is first read
PAGE = 1000
#: the picker's data for the whole campaign
CAMPAIGN = -1
#: the PDF's page margins, in millimetres
MARGIN_MM = 15.0


def print_html(html: str, device: QPagedPaintDevice) -> None:
    """Lay ``html`` out on ``device``'s pages (a PDF writer or a printer): the same page as on screen."""
    document = QTextDocument()
    document.setHtml(html)
    document.print_(device)


def write_pdf(html: str, path: Path, title: str = "") -> None:
    """``html`` as a PDF file at ``path`` (A4, written beside it and moved into place when whole)."""
    with replacing(Path(path), ".pdf") as tmp:
        writer = QPdfWriter(str(tmp))
        writer.setCreator("d100gui")
        writer.setTitle(title or "Chronicle")
        writer.setPageLayout(
            QPageLayout(
                QPageSize(QPageSize.PageSizeId.A4),
                QPageLayout.Orientation.Portrait,
                QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                QPageLayout.Unit.Millimeter,
            )
        )
        print_html(html, writer)
        del writer  # closes the file


class ChronicleWindow(QWidget):
    """A quest's chronicle (or the whole campaign's), with a quest picker, export and print."""

    def __init__(
        self,
        bridge: EngineBridge,
        older: OlderLog | None = None,
        map_image: MapDrawer | None = None,
        parent: QWidget | None = None,
        rows: RowReader | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("chronicleWindow")
        self.setWindowTitle("Chronicle")
        self.resize(900, 700)
        self.bridge = bridge
        self.older = older
        self.rows = rows  # the store's SQL read of the older entries (CampaignStore.fold_chronicle)
        self.map_image = map_image
        self.reader: ChronicleReader | None = None
        self._last: LogEntry | None = None
        self._stale = True  # the log changed since the page was made
        self._maps: dict[int, MapImage | None] = {}  # by dungeon index: closed sheets never change
        self.html = ""
        self.picker = QComboBox()
        self.picker.setObjectName("chronicle_quest")
        self.picker.setToolTip("The quest whose chronicle is shown, or the whole campaign")
        self.picker.currentIndexChanged.connect(lambda _i: self._show_current())
        self.view = QTextBrowser()
        self.view.setObjectName("chronicle_view")
        self.view.setOpenLinks(True)
        self.view.setOpenExternalLinks(False)  # the page links only to its own sections
        self.campaign_button = QPushButton("&Whole campaign...")
        self.campaign_button.setToolTip("The whole campaign as one document, with a contents page")
        self.html_button = QPushButton("Export &HTML...")
        self.html_button.setToolTip("One self-contained HTML file: the maps and the style inside it")
        self.pdf_button = QPushButton("Export &PDF...")
        self.print_button = QPushButton("P&rint...")
        for button in (self.campaign_button, self.html_button, self.pdf_button, self.print_button):
            button.setAutoDefault(False)
        self.campaign_button.clicked.connect(lambda _=False: self.show_campaign())
        self.html_button.clicked.connect(lambda _=False: self._ask_html())
        self.pdf_button.clicked.connect(lambda _=False: self._ask_pdf())
        self.print_button.clicked.connect(lambda _=False: self._ask_print())
        self.empty = QLabel()
        self.empty.setObjectName("chronicle_empty")
        top = QHBoxLayout()
        label = QLabel("&Quest:")
        label.setBuddy(self.picker)
        top.addWidget(label)
        top.addWidget(self.picker, 1)
        top.addWidget(self.campaign_button)
        bottom = QHBoxLayout()
        bottom.addWidget(self.empty, 1)
        bottom.addWidget(self.html_button)
        bottom.addWidget(self.pdf_button)
        bottom.addWidget(self.print_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        layout.addLayout(bottom)
        bridge.changed.connect(self._changed)

    # ---------------------------------------------------------------- the data

    def _changed(self, change: ChangeSet) -> None:
        if change.action not in ("do", "redo") or change.reset:
            self.reader = None  # entries left (undo) or another campaign: read again
            self._maps.clear()
        self._stale = True
        if self.isVisible():
            self.refresh()

    def _read(self) -> ChronicleReader:
        """The reader, brought up to the log's last entry (read from the start when it is new)."""
        campaign = self.bridge.game.campaign
        log, start = campaign.log, campaign.log_start
        reader, last = self.reader, self._last
        if reader is not None and last is not None:
            at = last.index - start
            if not (0 <= at < len(log) and log[at] is last):
                reader = None
        if reader is None:
            reader = ChronicleReader()
            if self.rows is not None and start > 0 and not self.rows(reader, start):
                reader = ChronicleReader()  # a row SQL cannot read: the entries themselves (log_page names it)
            offset = reader.stats.next_index
            while self.older is not None and offset < start:
                page = self.older(offset, min(PAGE, start - offset))
                if not page:
                    break
                reader.fold_all(page)
                offset += len(page)
        reader.fold_all(log[max(0, reader.stats.next_index - start) :])
        self.reader, self._last = reader, (log[-1] if log else None)
        return reader

    def chronicles(self) -> list[QuestChronicle]:
        """Every quest attempt's chronicle, read up to the last action."""
        return self._read().chronicles()

    def _hero(self) -> str:
        character = self.bridge.game.campaign.character
        return character.name if character is not None and character.name else "the hero"

    def _map(self, chronicle: QuestChronicle) -> MapImage | None:
        dungeons = self.bridge.game.campaign.dungeons.dungeons
        index = chronicle.dungeon
        if self.map_image is None or index is None or not 0 <= index < len(dungeons):
            return None
        dungeon = dungeons[index]
        if not dungeon.closed or index not in self._maps:  # a sheet in play changes; a closed one never does
            self._maps[index] = self.map_image(dungeon)
        return self._maps[index]

    # ---------------------------------------------------------------- the page

    def refresh(self) -> None:
        """Read the log's new entries, list the quests again and show the chosen page."""
        self._stale = False
        chronicles = self.chronicles()
        keep = self.picker.currentData()
        self.picker.blockSignals(True)
        self.picker.clear()
        self.picker.addItem("The whole campaign (contents)", CAMPAIGN)
        for c in chronicles:
            again = f" (attempt {c.attempt})" if c.attempt > 1 else ""
            self.picker.addItem(f"Quest {c.number}: {c.name}{again} - {c.outcome_text}", c.index)
        index = self.picker.findData(keep) if keep is not None else -1
        self.picker.setCurrentIndex(index if index >= 0 else self.picker.count() - 1)
        self.picker.blockSignals(False)
        self.empty.setText("" if chronicles else "No quest has been begun yet: the chronicle starts with the first.")
        self._show_current()

    def _show_current(self) -> None:
        choice = self.picker.currentData()
        if choice is None:
            return
        chronicles = self.chronicles()
        if choice == CAMPAIGN or not 0 <= choice < len(chronicles):
            maps = {c.index: m for c in chronicles if (m := self._map(c)) is not None}
            self.html = render_campaign(chronicles, self._hero(), maps)
            self.setWindowTitle("Chronicle - the whole campaign")
        else:
            chronicle = chronicles[choice]
            self.html = render_quest(chronicle, self._hero(), self._map(chronicle))
            self.setWindowTitle(f"Chronicle - {chronicle.name}")
        scroll = self.view.verticalScrollBar().value()
        self.view.setHtml(self.html)
        self.view.verticalScrollBar().setValue(scroll)

    def show_quest(self, index: int) -> None:
        """Show quest attempt ``index`` (from 0, as the statistics number them less one)."""
        if self._stale or self.picker.count() == 0:
            self.refresh()
        at = self.picker.findData(index)
        if at >= 0:
            self.picker.setCurrentIndex(at)

    def show_campaign(self) -> None:
        """Show the whole campaign as one document, its contents page first."""
        if self._stale or self.picker.count() == 0:
            self.refresh()
        self.picker.setCurrentIndex(self.picker.findData(CAMPAIGN))
        self.view.scrollToAnchor("contents")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    # ---------------------------------------------------------------- export and print

    def _name(self) -> str:
        choice = self.picker.currentData()
        words = "campaign" if choice in (None, CAMPAIGN) else f"quest-{int(choice) + 1}"
        return f"chronicle-{words}"

    def export_html(self, path: Path) -> None:
        """The page shown as one self-contained HTML file (maps and style inside)."""
        write_text_atomic(Path(path), self.html)

    def export_pdf(self, path: Path) -> None:
        """The page shown as a PDF (A4)."""
        write_pdf(self.html, Path(path), self.windowTitle())

    def print_to(self, printer: QPrinter) -> None:
        """The page shown, on ``printer``'s pages."""
        print_html(self.html, printer)

    def _ask_html(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the chronicle", f"{self._name()}.html", "HTML page (*.html)")
        if path:
            self.export_html(Path(path))

    def _ask_pdf(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the chronicle as PDF", f"{self._name()}.pdf", "PDF (*.pdf)")
        if path:
            self.export_pdf(Path(path))

    def _ask_print(self) -> None:
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dialog = QPrintDialog(printer, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.print_to(printer)
