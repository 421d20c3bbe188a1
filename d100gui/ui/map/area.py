"""The central map area: the dungeon map with its edit panel, or a prompt to start a dungeon.

It turns the map view's requests into map commands sent through the bridge, and redraws the
map from the campaign when the bridge says the map (or the whole campaign) changed.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dungeon.commands import (
    DOOR_TABLE,
    AddNote,
    DeleteArea,
    LeaveDungeon,
    MoveHero,
    MoveNote,
    OpenDoor,
    PlaceTile,
    SetDoor,
)
from d100gui.engine.dungeon.map import DEFAULT_HEIGHT, DEFAULT_WIDTH, Direction, Dungeon, parse_key
from d100gui.engine.dungeon.tiles import TileSet
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon, SecretPassage
from d100gui.ui.common.bridge import MAP_PARTS, EngineBridge
from d100gui.ui.common.theme import scaled_font
from d100gui.ui.map.style import MapStyle
from d100gui.ui.map.view import MapEditPanel, MapView


class MapArea(QWidget):
    """Map view + edit panel, or "No dungeon yet" with a button to start one."""

    message = Signal(str)  # why a click did nothing, or what happened
    test_requested = Signal(str)  # a door's Table D test line, for the skill-test dialog
    edit_mode_changed = Signal(bool)  # the map view entered or left "edit by hand"

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mapArea")  # the tour and F1 find it by name
        self.bridge = bridge
        self.sheet_options: tuple[tuple[int, int], bool] = ((DEFAULT_WIDTH, DEFAULT_HEIGHT), False)  # from the preferences
        self.follow_hero = True  # scroll after each move so the hero stays in view (a preference)
        self._hero_at: tuple[int, int] | None = None  # where the hero stood at the last refresh
        self.stack = QStackedWidget()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        self.stack.addWidget(self._build_placeholder())
        self.stack.addWidget(self._build_map_page())
        self._connect()
        self.refresh()

    def _build_placeholder(self) -> QWidget:
        empty = QWidget()
        el = QVBoxLayout(empty)
        el.addStretch(1)
        self.placeholder = QLabel("No dungeon yet.\nStart a quest's mapping sheet: the entrance is at the bottom middle.")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setStyleSheet("color: palette(placeholder-text); padding: 24px;")
        scaled_font(self.placeholder, 1.15)
        self.new_button = QPushButton("New dungeon and enter it")
        self.new_button.setToolTip("Take a blank mapping sheet and step in: Table M is rolled for the entrance area")
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.new_button)
        row.addStretch(1)
        el.addWidget(self.placeholder)
        el.addLayout(row)
        el.addStretch(1)
        return empty

    def _build_map_page(self) -> QWidget:
        page = QWidget()
        pl = QVBoxLayout(page)
        pl.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.title.setContentsMargins(8, 4, 8, 0)
        self.title.setWordWrap(True)  # a long quest name wraps rather than widening the window
        self.view = MapView(tileset=self._tileset())
        self.edit_panel = MapEditPanel(self._tileset())
        self.edit_scroll = QScrollArea()
        self.edit_scroll.setWidget(self.edit_panel)
        self.edit_scroll.setWidgetResizable(True)
        self.edit_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.edit_scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.edit_scroll.setFixedHeight(self.edit_panel.sizeHint().height() + 18)
        self.edit_scroll.setVisible(False)  # shown in edit mode (Map > Edit map by hand, Ctrl+E)
        pl.addWidget(self.title)
        pl.addWidget(self.edit_scroll)
        pl.addWidget(self.view, 1)
        return page

    def _tileset(self) -> TileSet:
        game = self.bridge.game
        return game.tilesets.get(game.campaign.tileset) or game.tilesets["standard"]

    def _connect(self) -> None:
        v, p, send = self.view, self.edit_panel, self.bridge.send
        self.new_button.clicked.connect(self.new_dungeon)
        v.move_requested.connect(lambda side: send(MoveHero(side=side)))
        v.enter_requested.connect(lambda: send(EnterDungeon()))
        v.leave_requested.connect(lambda: send(LeaveDungeon()))
        v.secret_passage_requested.connect(self.offer_secret_passage)
        v.door_open_requested.connect(self.offer_door)
        v.place_tile_requested.connect(lambda c, r, t, rot: send(PlaceTile(pos=f"{c},{r}", tile=t, rotation=rot)))
        v.delete_area_requested.connect(lambda key: send(DeleteArea(pos=key)))
        v.door_set_requested.connect(
            lambda key, side, kind, roll, is_open: send(
                SetDoor(pos=key, side=side, door_type=kind or None, roll=roll, is_open=is_open)
            )
        )
        v.note_add_requested.connect(lambda key, text: send(AddNote(pos=key, text=text)))
        v.note_move_requested.connect(lambda key, ref, x, y: send(MoveNote(ref=ref, pos=key, square=(x, y))))
        v.message.connect(self.message)
        p.edit_mode_toggled.connect(v.set_edit_mode)
        p.tool_changed.connect(v.set_tool)
        p.tile_changed.connect(v.set_tile)
        p.rotation_changed.connect(v.set_rotation)
        v.edit_mode_changed.connect(p.set_edit_mode)
        v.edit_mode_changed.connect(self.edit_scroll.setVisible)
        v.edit_mode_changed.connect(self.edit_mode_changed)
        self.bridge.changed.connect(lambda change: self.refresh() if change.reset or change.touches(*MAP_PARTS) else None)

    # ------------------------------------------------------------------ state
    def dungeon(self) -> Dungeon | None:
        return self.bridge.game.campaign.dungeons.current_dungeon

    def refresh(self) -> None:
        dungeon = self.dungeon()
        if dungeon is None:
            self.stack.setCurrentIndex(0)
            return
        first = self.stack.currentIndex() == 0 or self.view.scene() is None
        self.stack.setCurrentIndex(1)
        tileset = self._tileset()
        self.view.set_tileset(tileset)
        self.view.set_dungeon(dungeon)
        quest = f" · {dungeon.quest}" if dungeon.quest and dungeon.quest != dungeon.name else ""
        self.title.setText(
            f"<b>{dungeon.name}</b>{quest} · {len(dungeon.areas)} area{'' if len(dungeon.areas) == 1 else 's'} · tile set: {tileset.title}"
        )
        moved = dungeon.hero != self._hero_at
        self._hero_at = dungeon.hero
        if first:
            self.view.fit_to_dungeon()
            QTimer.singleShot(0, self.view.fit_to_dungeon)  # again once the view has its real size
        elif moved and self.follow_hero and dungeon.hero is not None:
            scene = self.view.map_scene
            self.view.keep_in_view(scene.area_rect(dungeon.hero), margin=scene.style.area)

    def set_dark(self, dark: bool) -> None:
        self.view.set_style(MapStyle(dark=dark))

    def fit_to_dungeon(self) -> None:
        """Zoom the map so the whole dungeon shows (Map > Fit map to window)."""
        self.view.fit_to_dungeon()

    def set_edit_mode(self, on: bool) -> None:
        """Enter or leave "edit by hand" (Map > Edit map by hand); ``edit_mode_changed`` follows."""
        self.view.set_edit_mode(on)

    # ------------------------------------------------------------------ actions
    def new_dungeon(self) -> bool:
        """A blank sheet of the preferred size for the current quest, and step in."""
        quest = ""
        character = self.bridge.game.campaign.character
        if character is not None and character.quest_log.current:
            quest = character.quest_log.current
        (width, height), unbounded = self.sheet_options
        return self.bridge.send(NewDungeon(quest=quest, width=width, height=height, unbounded=unbounded, enter=True))

    def offer_door(self, key: str, side: str) -> QMessageBox | None:
        """A closed door was clicked: offer its Table D test, or marking it open."""
        dungeon = self.dungeon()
        area = dungeon.area_at(parse_key(key)) if dungeon else None
        exit_ = area.exits.get(side) if area else None  # type: ignore[call-overload]
        door = exit_.door if exit_ else None
        if door is None:
            return None
        box = QMessageBox(QMessageBox.Icon.Question, "Closed door", f"The door {door.label} is closed.", parent=self)
        effect = ""
        table = self.bridge.game.library.get(DOOR_TABLE)
        row = table.find(door.roll) if door.roll else None
        if row is not None:
            effect = row.fields.get("effect", "")
            box.setInformativeText(f"Table D: {effect}")
        test_button = box.addButton("Test to open...", QMessageBox.ButtonRole.ActionRole) if "Test" in effect else None
        open_button = box.addButton("Mark it open", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)

        def clicked(button: object) -> None:
            if button is open_button:
                self.bridge.send(OpenDoor(pos=key, side=cast(Direction, side)))
            elif test_button is not None and button is test_button:
                self.test_requested.emit(effect)

        box.buttonClicked.connect(clicked)
        box.open()
        self.last_box = box
        return box

    def offer_secret_passage(self, key: str, side: str) -> QMessageBox:
        """The dungeon blocks all progress: the rules allow a secret passage through rock."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Secret passage",
            f"The dungeon blocks your progress. Add a secret passage on the {side} side of area {key}?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.buttonClicked.connect(
            lambda button: (
                self.bridge.send(SecretPassage(pos=key, side=side))  # type: ignore[arg-type]
                if box.standardButton(button) == QMessageBox.StandardButton.Yes
                else None
            )
        )
        box.open()
        self.last_box = box
        return box
