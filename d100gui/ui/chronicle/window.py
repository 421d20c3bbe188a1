"""View > Chronicle: a quest's chronicle, or the whole campaign's, to read, export (HTML, PDF) and print.

The chronicle's data comes from the engine (:class:`~d100gui.engine.chronicle.ChronicleReader`, fed
with the campaign's log: the older entries from the store, in SQL (only the events a chronicle reads:
``CampaignStore.fold_chronicle``; as entries if a row cannot be read so), then the entries in memory; each new action
folds only its own entries, an undo or another campaign starts again). The older entries are read a page per turn of
the event loop (the store's connection is the window's own, locked to it: no worker may open a second one), the page
saying "Reading the campaign's story..." meanwhile; an action, undo or redo during the read starts it again, so the
page never shows a chronicle the log no longer holds. The page is the HTML of
``storage/chronicle_html.py`` (Jinja2 templates), shown in a ``QTextBrowser``; the same HTML is the
exported file, the PDF (``QTextDocument`` on a ``QPdfWriter``) and the printout. The map images are
drawn by a function the main window hands in (this folder may not import ``ui/map``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QMarginsF, Qt, QTimer
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
#: log entries read from the store as entries (a row SQL cannot read) per turn of the event loop
PAGE = 250
#: log entries read from the store's rows in SQL per turn of the event loop (some 30 ms each on 20,000 entries)
ROWS_PAGE = 2000
#: what the page says while the older entries are read
READING = "Reading the campaign's story..."
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
        self._reading: ChronicleReader | None = None  # the older entries being read, a page per event-loop turn
        self._by_rows = True  # the read in hand reads rows in SQL (False: a row could not be: entries)
        self._generation = 0  # bumped by every change: a page of an older read is dropped
        self._wanted: int | None = None  # a quest asked for during the read
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
        if self._reading is not None:
            self._start_reading()  # the older entries may have changed too (another campaign): from the start
        elif self.isVisible():
            self.refresh()

    @property
    def reading(self) -> bool:
        """Whether the older entries are being read (the page says so; export and print wait)."""
        return self._reading is not None

    def _current_reader(self) -> ChronicleReader | None:
        """The reader if it still reads this log (its last entry is the one it read last), else None."""
        campaign = self.bridge.game.campaign
        log, start = campaign.log, campaign.log_start
        reader, last = self.reader, self._last
        if reader is not None and last is not None:
            at = last.index - start
            if not (0 <= at < len(log) and log[at] is last):
                reader = None
        if reader is None and start == 0:
            reader = ChronicleReader()  # nothing older than the log in memory: read at once
        return reader

    def _read(self) -> ChronicleReader:
        """The reader, brought up to the log's last entry; the older entries read at once if none is kept (the
        window reads them a page per event-loop turn instead: :meth:`refresh`)."""
        reader = self._current_reader()
        if reader is None:
            start = self.bridge.game.campaign.log_start
            reader, done, self._by_rows = ChronicleReader(), False, True
            while not done:
                reader, done = self._read_page(reader, start, start)
        return self._caught_up(reader)

    def _caught_up(self, reader: ChronicleReader) -> ChronicleReader:
        """``reader`` with the log's entries in memory folded (those it has not read yet)."""
        campaign = self.bridge.game.campaign
        log, start = campaign.log, campaign.log_start
        reader.fold_all(log[max(0, reader.stats.next_index - start) :])
        self.reader, self._last = reader, (log[-1] if log else None)
        return reader

    def _read_page(self, reader: ChronicleReader, start: int, size: int) -> tuple[ChronicleReader, bool]:
        """Read the next page (up to ``size`` entries) of the older entries, below ``start``: the reader (a new one
        when a row SQL cannot read: the entries themselves then, from the first) and whether all are read."""
        offset = reader.stats.next_index
        if offset >= start:
            return reader, True
        if self._by_rows and self.rows is not None:
            if self.rows(reader, min(start, offset + size)):
                return reader, reader.stats.next_index >= start
            self._by_rows, reader, offset = False, ChronicleReader(), 0  # log_page names a damaged entry
        if self.older is None:
            return reader, True
        page = self.older(offset, min(PAGE, start - offset))
        if not page:
            return reader, True
        reader.fold_all(page)
        return reader, reader.stats.next_index >= start

    def _start_reading(self) -> None:
        """Read the older entries again from the start, a page per event-loop turn, saying so on the page."""
        self._generation += 1
        self._reading, self._by_rows = ChronicleReader(), True
        self.reader = None
        for button in (self.html_button, self.pdf_button, self.print_button, self.campaign_button):
            button.setEnabled(False)
            button.setToolTip(f"{READING} (wait for the chronicle to be read)")
        self.picker.setEnabled(False)
        self.html = ""
        self.view.setPlainText(READING)
        self.empty.setText(READING)
        QTimer.singleShot(0, lambda g=self._generation: self._next_page(g))

    def _next_page(self, generation: int) -> None:
        if generation != self._generation or self._reading is None:
            return  # a change started the read again
        start = self.bridge.game.campaign.log_start
        reader, done = self._read_page(self._reading, start, ROWS_PAGE)
        self._reading = reader
        if not done:
            self.empty.setText(f"{READING} ({reader.stats.next_index:,} of {start:,} entries)")
            QTimer.singleShot(0, lambda: self._next_page(generation))
            return
        self._reading = None
        self._caught_up(reader)
        self.html_button.setToolTip("One self-contained HTML file: the maps and the style inside it")
        self.campaign_button.setToolTip("The whole campaign as one document, with a contents page")
        for button in (self.pdf_button, self.print_button):
            button.setToolTip("")
        for button in (self.html_button, self.pdf_button, self.print_button, self.campaign_button):
            button.setEnabled(True)
        self.picker.setEnabled(True)
        wanted, self._wanted = self._wanted, None
        self.refresh()
        if wanted == CAMPAIGN:
            self.show_campaign()
        elif wanted is not None:
            self.show_quest(wanted)

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
        """Read the log's new entries, list the quests again and show the chosen page (the older entries, when no
        reader keeps them, are read first, a page per event-loop turn: the page says so meanwhile)."""
        if self._reading is not None:
            return  # the read in hand refreshes when it ends
        if self._current_reader() is None:
            self._start_reading()
            return
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
        """Show quest attempt ``index`` (from 0, as the statistics number them less one); during a read, once read."""
        if self._stale or self.picker.count() == 0:
            self.refresh()
        if self._reading is not None:
            self._wanted = index
            return
        at = self.picker.findData(index)
        if at >= 0:
            self.picker.setCurrentIndex(at)

    def show_campaign(self) -> None:
        """Show the whole campaign as one document, its contents page first (during a read, once read)."""
        if self._stale or self.picker.count() == 0:
            self.refresh()
        if self._reading is not None:
            self._wanted = CAMPAIGN
            return
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
