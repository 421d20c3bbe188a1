"""Help > Help (F1): the procedures the app automates, one topic each, with a search box.

The topics are Markdown files in ``resources/help/`` (our own words, never the rule text);
the search keeps the topics whose title, keywords or text hold every word typed, and marks
the words in the topic shown.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from d100gui.storage.resources import HelpTopic

ID_ROLE = Qt.ItemDataRole.UserRole


def words_of(query: str) -> list[str]:
    return [w for w in query.casefold().split() if w]


def matches(topic: HelpTopic, query: str) -> bool:
    """Every word of ``query`` is in the topic's title, keywords or text (case does not matter)."""
    haystack = " ".join([topic.title, *topic.keywords, topic.text]).casefold()
    return all(word in haystack for word in words_of(query))


def matching(topics: Iterable[HelpTopic], query: str) -> list[HelpTopic]:
    return [topic for topic in topics if matches(topic, query)]


class HelpWindow(QDialog):
    """A search box, the list of topics it keeps, and the topic chosen."""

    def __init__(self, topics: tuple[HelpTopic, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("helpWindow")
        self.setWindowTitle("d100gui help")
        self.topics = topics
        self.search = QLineEdit()
        self.search.setObjectName("helpSearch")
        self.search.setPlaceholderText("Search the help (e.g. door, Fate, oil)")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search the help")
        self.search.setToolTip("Keep the topics that mention every word you type")
        self.list = QListWidget()
        self.list.setObjectName("helpTopics")
        self.list.setAccessibleName("Help topics")
        self.list.setToolTip("The help topics; choose one to read it")
        self.none_label = QLabel("No topic mentions that. Try a shorter word.")
        self.none_label.setObjectName("helpNone")
        self.none_label.setWordWrap(True)
        self.none_label.hide()
        self.browser = QTextBrowser()
        self.browser.setObjectName("helpText")
        self.browser.setOpenExternalLinks(False)
        self.browser.setAccessibleName("Help topic")
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.list, 1)
        left_layout.addWidget(self.none_label)
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(self.browser)
        split.setStretchFactor(1, 1)
        split.setSizes([220, 520])
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(split, 1)
        self.resize(800, 560)
        self.search.textChanged.connect(self.filter)
        self.list.currentItemChanged.connect(lambda current, _previous: self._show(current))
        self.filter("")

    def visible_topics(self) -> list[str]:
        """The ids of the topics the list shows now."""
        return [str(self.list.item(n).data(ID_ROLE)) for n in range(self.list.count())]

    def current_topic(self) -> str:
        item = self.list.currentItem()
        return str(item.data(ID_ROLE)) if item is not None else ""

    def filter(self, query: str) -> None:
        """Keep the topics that match ``query``; the one shown stays if it still matches."""
        keep = self.current_topic()
        self.list.blockSignals(True)
        self.list.clear()
        for topic in matching(self.topics, query):
            item = QListWidgetItem(topic.title)
            item.setData(ID_ROLE, topic.id)
            item.setToolTip(topic.title)
            self.list.addItem(item)
        self.list.blockSignals(False)
        shown = self.visible_topics()
        self.none_label.setVisible(not shown)
        if shown:
            self.list.setCurrentRow(shown.index(keep) if keep in shown else 0)
            self._show(self.list.currentItem())
        else:
            self.browser.clear()

    def show_topic(self, topic_id: str) -> bool:
        """Show ``topic_id`` (clearing a search that hides it); False if there is no such topic."""
        if topic_id not in {t.id for t in self.topics}:
            return False
        if topic_id not in self.visible_topics():
            self.search.clear()
        self.list.setCurrentRow(self.visible_topics().index(topic_id))
        return True

    def _show(self, item: QListWidgetItem | None) -> None:
        topic = next((t for t in self.topics if item is not None and t.id == item.data(ID_ROLE)), None)
        if topic is None:
            return
        self.browser.setMarkdown(topic.text)
        self._mark(words_of(self.search.text()))

    def _mark(self, words: list[str]) -> None:
        """Highlight the searched words in the topic shown."""
        marks = []
        document = self.browser.document()
        look = QTextCharFormat()
        look.setBackground(QColor(255, 214, 0, 150))
        look.setForeground(QColor(0, 0, 0))
        for word in words:
            cursor = document.find(word, 0)
            while not cursor.isNull():
                mark = QTextEdit.ExtraSelection()
                mark.cursor = cursor
                mark.format = look
                marks.append(mark)
                cursor = document.find(word, cursor, QTextDocument.FindFlag(0))
        self.browser.setExtraSelections(marks)
