"""A seeded player that clicks only what the real window shows, and says when play is stuck for good.

Why: issues 18 and 26 found games that stopped for ever (an experience choice no button
showed, a waiting monster whose Fight button was hidden, an exit that left a fight). A
headless bot (tests/soak/bot.py) sends commands the engine accepts, so it cannot see a
control the window fails to show. This player sees only the window: each click picks one
visible, enabled control of the real :class:`~d100gui.ui.main_window.MainWindow`:

* the turn strip's buttons and the combat panel's buttons (a button's menu: its items);
* the buttons of every open dialog, message box, wizard and menu (the creation wizard, the
  between-quests wizard, a missing-row dialog, where it types a row as a player copies one
  from the book, a door's menu);
* the hero's exits on the map (and the entrance while the hero is outside), clicked on the
  map view where they are drawn, so the view's own mouse handling and the routing run;
* the tabs of the docks (a player brings the Combat tab forward), and two menu items a player
  uses to come back to a closed wizard (Hero > New character, Town > Before your next quest).

It is stuck, and fails with the seed, the click trail and what waits, when

* (a) no visible enabled control changes the game any more (the log's length and last entry
  stay the same for ``stuck_after`` clicks while every visible control has been tried), or
* (b) something waits for the player (a pending decision, the fight, a monster waiting, a
  row, a loot, a curse, the town phase, and whatever the engine's flow query says waits)
  and no click answers it: it stays the same for ``answer_within`` clicks while every
  visible control has been tried, even if other clicks keep changing the log; or
* (c) a click on the map's exit runs a command in the middle of a fight (issue 26: leaving
  the dungeon was accepted then, and the fight went on).

Each report names how the waiting thing came (the click and commands that left it, the
command that began the last fight) and what the turn strip showed, so the figures say which
kind of stuck a seed met.

While nothing looks wrong the player clicks at random with weights (dialogs and the fight
first, the quest's end only after ``quest_turns`` turns); once something has waited long,
it clicks the controls it has not tried yet first, so every visible control gets its chance
before it calls the game stuck.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QDialog,
    QLineEdit,
    QMenu,
    QTabBar,
    QWidget,
)

from d100gui.engine.adventure.turn_view import turn_panel
from d100gui.engine.dice.waiting import curse_waiting
from d100gui.ui.common.dialogs import MissingRowDialog
from d100gui.ui.main_window import MainWindow

#: a quest is ended (its Complete or Fail button preferred) after about this many turns
QUEST_TURNS = 12
#: the names a player types into the wizard's name box
NAMES = ("Aldo", "Brin", "Cora", "Dax", "Edda", "Fenn")


class StuckError(AssertionError):
    """Play is stuck for good: the message holds the seed, what waits and the click trail."""


@dataclass(frozen=True)
class Control:
    """One thing the player can click now: ``key`` names it the same way each time it shows."""

    key: str
    group: str  # strip | combat | dialog | menu | map | tab | banner
    label: str
    click: Callable[[], object]
    weight: float = 1.0


@dataclass
class PlayFigures:
    """What a run did, for the report."""

    seeds: int = 0
    clicks: int = 0
    changes: int = 0  # clicks that changed the game
    heroes: int = 0
    quests: int = 0
    quests_ended: int = 0
    towns: int = 0
    fights: int = 0
    stuck: list[str] = field(default_factory=list)
    waited: Counter[str] = field(default_factory=Counter)  # waiting things met, by kind (each answered, unless stuck)

    def add(self, other: PlayFigures) -> None:
        for name in ("seeds", "clicks", "changes", "heroes", "quests", "quests_ended", "towns", "fights"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.stuck += other.stuck
        self.waited.update(other.waited)

    def line(self) -> str:
        return (
            f"seeds {self.seeds}, heroes {self.heroes}, quests begun {self.quests}, ended {self.quests_ended}, "
            f"towns {self.towns}, fights {self.fights}, clicks {self.clicks} ({self.changes} changed the game), "
            f"stuck {len(self.stuck)}; waited for: {', '.join(f'{k} {n}' for k, n in sorted(self.waited.items()))}"
        )


def _dump(model: Any) -> str:
    return model.model_dump_json() if hasattr(model, "model_dump_json") else json.dumps(model, default=str, sort_keys=True)


def waiting_things(window: MainWindow) -> dict[str, tuple[str, str]]:
    """Everything the game waits for the player to answer: key -> (kind, a fingerprint of its state).

    Read from the campaign (the pending decisions, the fight, the adventure's waiting monster,
    rows and loot, a curse, the town phase, a hero being created) and from the engine's flow
    query's ``waiting`` (its answers' keys in the fingerprint), so a new kind of waiting the
    flow reports is watched too.
    """
    campaign = window.game.campaign
    out: dict[str, tuple[str, str]] = {}
    for d in campaign.pending:
        out[f"pending:{d.id}"] = (str(getattr(d, "decision", "decision")), _dump(d))
    if campaign.combat is not None:
        out["fight"] = ("fight", _dump(campaign.combat))
    adventure = campaign.adventure
    if adventure.fight_offered is not None:
        out["offer"] = ("offered_monster", _dump(adventure.fight_offered))
    for w in adventure.rows_waiting:
        if w.entry is not None:  # a curse's roll is the "curse" below
            out[f"row:{w.entry}"] = ("row_waiting", _dump(w))
    if adventure.loot_waiting is not None:
        out["loot"] = ("loot", _dump(adventure.loot_waiting))
    town = campaign.town
    curse = curse_waiting(adventure.rows_waiting)
    if curse is not None:
        out["curse"] = ("curse", _dump(curse))
    if town.active:
        out["town"] = ("town_step", _dump(town))
    ch = campaign.character
    if ch is not None and ch.creation is not None:
        out["creation"] = ("creation", _dump(ch))
    for w in _flow_waiting(window):
        if {w.id, f"pending:{w.id}", w.id.replace("row_", "row:")} & out.keys():
            continue  # watched above, by the campaign's own field
        answers = ",".join(sorted(a.key for a in w.answers))
        out[f"flow:{w.id}"] = (w.kind, f"{w.prompt}|{answers}|{_dump(adventure)}|{_dump(town)}")
    return out


def _flow_waiting(window: MainWindow) -> tuple[Any, ...]:
    """The engine's flow query's ``waiting`` (empty while the query is not there yet)."""
    shown = getattr(window.bridge, "flow", None)  # the bridge's, worked out once per change, as the widgets read it
    if callable(shown):
        return tuple(shown().waiting)
    try:
        from d100gui.engine.flow import flow
    except ImportError:  # an older tree without the flow query (the BEFORE figures): the campaign's fields alone
        return ()
    return tuple(flow(window.game.campaign, window.bridge.rules, window.game.library).waiting)


def game_state(window: MainWindow) -> str:
    """What changes when the game does: the log's length and its last entry (every command, undo and redo
    moves them), and the dice history's length. Cheap at any size, unlike the whole campaign's JSON."""
    c = window.game.campaign
    last = c.log[-1].model_dump_json() if c.log else ""
    return f"{c.log_length}|{len(c.dice_history)}|{last}"


class WindowPlayer:
    """Plays one seeded game in ``window`` (shown, offscreen in tests) by clicking what it shows.

    ``qtbot`` clicks (pytest-qt's, so a click goes through Qt's event handling as a player's does).
    ``stuck_after``: clicks with no change to the game, every control tried, that make (a);
    ``answer_within``: clicks a waiting thing may stay unanswered, every control tried, before (b).
    """

    def __init__(
        self,
        window: MainWindow,
        qtbot: Any,
        seed: int,
        *,
        quest_turns: int = QUEST_TURNS,
        stuck_after: int = 60,
        answer_within: int = 80,
    ) -> None:
        self.window = window
        self.qtbot = qtbot
        self.seed = seed
        self.rng = random.Random(seed)
        self.quest_turns = quest_turns
        self.stuck_after = stuck_after
        self.answer_within = answer_within
        self.figures = PlayFigures(seeds=1)
        self.trace = bool(os.environ.get("D100GUI_STUCK_TRACE"))
        self.trail: deque[str] = deque(maxlen=60)
        self.tried: set[str] = set()  # controls clicked since the game last changed
        self.tried_for: dict[str, set[str]] = {}  # controls clicked since each waiting thing last changed
        self.state = game_state(window)
        self.since_change = 0
        self.waiting: dict[str, tuple[str, str, int]] = {}  # key -> (kind, fingerprint, click it last changed at)
        self._seen_log = window.game.campaign.log_length
        self.born: dict[str, str] = {}  # waiting key -> the click and commands that left it waiting
        self.fight_started_by = ""  # the command that started the last fight (a turn's, the panel's, ...)
        self._last_click = "start"
        self._last_commands: list[str] = []
        self._refusals: list[str] = []
        self._shown: list[Control] | None = None  # the controls on screen after the last click
        self._tops: list[QWidget] = []  # the visible top-level windows at the last look
        window.bridge.error.connect(self._refusals.append)  # what a click was refused with, for the trail
        self._note_waiting()

    # ------------------------------------------------------------------ the loop
    def play(self, *, quests: int, max_clicks: int) -> PlayFigures:
        """Click until ``quests`` quests have ended (or ``max_clicks``); raise :class:`StuckError` when stuck."""
        while self.figures.quests_ended < quests and self.figures.clicks < max_clicks:
            self.step()
        return self.figures

    def step(self) -> None:
        """One click: pick a visible enabled control, click it, then look at what changed."""
        controls, self._shown = self._shown or self.controls(), None  # what the last check saw is still on screen
        if not controls:
            self.fail("no visible enabled control at all", controls)
        control = self.choose(controls)
        self.trail.append(f"{self.figures.clicks}: [{control.group}] {control.label}")
        self._refusals.clear()
        self._last_click, self._last_commands = control.label, []
        fighting = self.window.game.campaign.combat is not None
        with self.qtbot.captureExceptions() as errors:
            control.click()
            QApplication.processEvents()
            # back in the event loop, Qt deletes what a view let go of (deleteLater): processEvents alone does not
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        if self._refusals:
            self.trail[-1] += f"  -> refused: {self._refusals[-1][:160]}"
        said = self._dialog_says()
        if said:
            self.trail[-1] += f"  -> the dialog says: {said[:160]}"
        if errors:
            kind, value, _tb = errors[0]
            self.fail(f"the click raised {kind.__name__}: {value}", controls)
        if self.trace:
            print(self.trail[-1], "   ", control.key, flush=True)
        self.figures.clicks += 1
        self.tried.add(control.key)
        for tried in self.tried_for.values():
            tried.add(control.key)
        self.after_click(controls, control if fighting else None)

    def after_click(self, controls: list[Control], in_fight: Control | None = None) -> None:
        state = game_state(self.window)
        if state != self.state:
            self.state = state
            self.since_change = 0
            self.tried = set()
            self.figures.changes += 1
            self._count_log()
            if in_fight is not None and in_fight.group == "map":
                ran = ", ".join(self._last_commands) or "a change with no log entry"
                self.fail(f"(c) the map's {in_fight.label} ran {ran} in the middle of a fight", controls)
        else:
            self.since_change += 1
        self._note_waiting()
        self.check_stuck()

    # ------------------------------------------------------------------ stuck
    def check_stuck(self) -> None:
        self._shown = self.controls()
        visible = {c.key for c in self._shown}
        if self.since_change >= self.stuck_after and (visible <= self.tried or self.since_change >= 3 * self.stuck_after):
            self.fail(f"(a) no visible control changed the game in {self.since_change} clicks", self.controls())
        for key, (_kind, _fp, at) in self.waiting.items():
            waited = self.figures.clicks - at
            if waited >= self.answer_within and (visible <= self.tried_for[key] or waited >= 3 * self.answer_within):
                self.fail(f"(b) unanswered for {waited} clicks: {self.diagnosis(key)}", self.controls())

    def _note_waiting(self) -> None:
        now = waiting_things(self.window)
        clicks = self.figures.clicks
        kept: dict[str, tuple[str, str, int]] = {}
        for key, (kind, fp) in now.items():
            old = self.waiting.get(key)
            if old is not None and old[1] == fp:
                kept[key] = old
            else:
                kept[key] = (kind, fp, clicks)
                self.tried_for[key] = set()
                if old is None:
                    self.born[key] = self._birth(kind)
                    self.figures.waited[kind] += 1
        self.waiting = kept
        self.tried_for = {k: v for k, v in self.tried_for.items() if k in kept}

    def _birth(self, kind: str) -> str:
        said = f"after the click '{self._last_click}' ({', '.join(self._last_commands) or 'no command'})"
        if kind == "experience" or "fight" in kind:
            said += f"; the last fight began with {self.fight_started_by or 'none'}"
        return said

    def diagnosis(self, key: str) -> str:
        """One line on a waiting thing for the figures: what it is, how it came, what the strip offers."""
        campaign = self.window.game.campaign
        kind = self.waiting.get(key, ("?", "", 0))[0]
        extra = ""
        if key == "offer" and campaign.adventure.fight_offered is not None:
            offer = campaign.adventure.fight_offered
            missing = offer.table_roll.row is None and offer.monster is None
            extra = f" ({offer.source}{', its Table E row missing' if missing else ''})"
        elif key.startswith("pending:"):
            d = next((d for d in campaign.pending if f"pending:{d.id}" == key), None)
            extra = f" ({getattr(d, 'test_name', '') or getattr(d, 'source', '')})" if d is not None else ""
        panel = turn_panel(campaign, self.window.bridge.rules, self.window.game.library)
        strip = ", ".join(c.label for c in self.controls() if c.group == "strip") or "nothing"
        fight = f"; a fight waits for {campaign.combat.waiting}" if campaign.combat is not None else ""
        return f"{kind}{extra} {self.born.get(key, '')}; turn step {panel.step or '-'}{fight}; the strip shows: {strip}"

    def stuck_kind(self) -> str:
        """The oldest waiting thing's kind (what a stuck report names)."""
        if not self.waiting:
            return "nothing waits"
        key = min(self.waiting.items(), key=lambda kv: kv[1][2])[0]
        return self.diagnosis(key)

    def fail(self, what: str, controls: list[Control]) -> None:
        oldest = "" if what.startswith("(b)") else f"; oldest waiting: {self.stuck_kind()}"
        self.figures.stuck.append(f"seed {self.seed} at click {self.figures.clicks}: {what}{oldest}")
        campaign = self.window.game.campaign
        panel = turn_panel(campaign, self.window.bridge.rules, self.window.game.library)
        lines = [
            f"STUCK, seed {self.seed}, after {self.figures.clicks} clicks: {what}",
            f"  waits: {[(k, kind, self.figures.clicks - at) for k, (kind, _fp, at) in self.waiting.items()]}",
            f"  pending: {[(d.id, d.decision) for d in campaign.pending]}; fight: "
            f"{campaign.combat.waiting if campaign.combat else None}; town: {campaign.town.step if campaign.town.active else None}",
            f"  strip: step {panel.step!r}, hint {panel.hint!r}",
            f"  visible controls: {[c.label for c in controls]}",
            "  last clicks:",
            *[f"    {t}" for t in self.trail],
        ]
        raise StuckError("\n".join(lines))

    # ------------------------------------------------------------------ figures
    def _count_log(self) -> None:
        campaign = self.window.game.campaign
        start = max(self._seen_log, campaign.log_start)
        entries = campaign.log[start - campaign.log_start :] if campaign.log_length > self._seen_log else []
        self._seen_log = campaign.log_length
        for entry in entries:
            kinds = {e.kind for e in entry.events}
            self.figures.quests += "quest_begun" in kinds
            self.figures.quests_ended += bool(kinds & {"quest_completed", "quest_failed"})
            self.figures.towns += "town_finished" in kinds  # a between-quests phase seen through
            self.figures.fights += "combat_started" in kinds
            self.figures.heroes += "character_started" in kinds
            self._last_commands.append(str(entry.command.get("kind")))
            if "combat_started" in kinds:
                self.fight_started_by = str(entry.command.get("kind"))

    # ------------------------------------------------------------------ choosing
    def choose(self, controls: list[Control]) -> Control:
        """At random by weight; once the game looks stuck, the controls not tried yet first."""
        suspect = self.since_change >= self.stuck_after // 2
        old = [k for k, (_kind, _fp, at) in self.waiting.items() if self.figures.clicks - at >= self.answer_within // 2]
        untried = [c for c in controls if c.key not in self.tried] if suspect else []
        for key in old:
            untried += [c for c in controls if c.key not in self.tried_for.get(key, set()) and c not in untried]
        pool = untried or controls
        # a control that changed nothing is clicked again less often until the game moves on (a player learns)
        weights = [max(c.weight, 0.01) * (0.2 if c.key in self.tried else 1.0) for c in pool]
        return self.rng.choices(pool, weights=weights)[0]

    # ------------------------------------------------------------------ what the window shows
    def controls(self) -> list[Control]:
        """Every visible, enabled control the player may click now."""
        w = self.window
        self._tops = [t for t in QApplication.topLevelWidgets() if t.isVisible()]  # once per look at the screen
        popups = list(self._popup_controls())
        if popups:  # an open menu takes the next click (a click anywhere else only closes it)
            return sorted(popups, key=lambda c: c.key)
        modal = QApplication.activeModalWidget()
        if modal is not None and self._mine(modal):  # a modal dialog (a wizard, a row to type) takes every click until it closes
            return sorted(self._dialog_controls(only=modal), key=lambda c: c.key)
        out: list[Control] = []
        out += self._buttons(w.turn_strip, "strip", "strip")
        out += self._buttons(w.fallen_banner, "banner", "banner")
        out += self._buttons(w.combat_panel, "combat", "combat")
        out += list(self._map_controls())
        out += list(self._dialog_controls())
        out += list(self._tab_controls())
        out += list(self._menu_controls())
        return sorted(out, key=lambda c: c.key)  # Qt lists top-level windows in no set order: the seed decides alone

    def _buttons(self, root: QWidget, group: str, prefix: str) -> list[Control]:
        out: list[Control] = []
        if not root.isVisible():
            return out
        for button in root.findChildren(QAbstractButton):
            if button.window() is not root.window():
                continue  # a dialog the panel opened: its buttons are the dialog's, listed with it
            if not (button.isVisible() and button.isEnabled()) or (button.objectName().startswith("qt_") and not button.text()):
                continue  # Qt's own inner buttons (a table's corner) are not the game's controls
            label = button.text().replace("&", "") or button.toolTip()[:40] or button.objectName()
            menu = getattr(button, "menu", lambda: None)()
            if isinstance(menu, QMenu):
                out += self._menu_items(menu, f"{prefix}/{label}", group)
                continue
            key = f"{prefix}/{button.objectName() or label}"
            out.append(Control(key, group, label, self._clicker(button), self._weight(group, label, key)))
        return out

    def _clicker(self, button: QAbstractButton) -> Callable[[], object]:
        def click() -> None:
            if isinstance(button, QCheckBox):
                button.click()  # the box and its label both toggle it; the box's corner is where a mouse lands
            else:
                self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

        return click

    def _menu_items(self, menu: QMenu, prefix: str, group: str) -> list[Control]:
        out: list[Control] = []
        for action in menu.actions():
            if action.isSeparator() or not action.isEnabled() or not action.isVisible() or action.menu() is not None:
                continue
            label = action.text().replace("&", "")
            out.append(Control(f"{prefix}/{label}", group, f"{prefix.split('/')[-1]} > {label}", action.trigger, 3.0))
        return out

    def _weight(self, group: str, label: str, key: str) -> float:
        text = label.lower()
        if text in ("help", "cancel", "close") or text.startswith("< "):
            return 0.05 if group == "dialog" else 0.3
        if "complete the quest" in text or "fail the quest" in text:
            return 40.0 if self._quest_long() else 0.05
        if "start a fight" in text:
            return 0.1
        if "re-roll among printed rows" in text:  # sample play instead of typing the row: now and then
            return 1.0 if "from now on" in text else 3.0
        if group == "dialog":
            return 2.0 if "Start a fight" in key else 10.0
        if group == "combat":
            return 8.0
        if group == "banner":
            return 6.0
        return 5.0

    def _quest_long(self) -> bool:
        turn = self.window.game.campaign.adventure.turn
        return turn is not None and turn.number >= self.quest_turns

    def _dialog_says(self) -> str:
        """The error an open dialog shows (a row OK refused), for the trail."""
        for top in self._tops:
            label = getattr(top, "error_label", None)
            if isinstance(top, QDialog) and top.isVisible() and self._mine(top) and label is not None and label.text():
                return str(label.text())
        return ""

    def _mine(self, widget: QWidget) -> bool:
        """Whether ``widget`` belongs to this player's window (not a window an earlier game left behind)."""
        parent = widget.parentWidget()
        while parent is not None and parent is not self.window:
            parent = parent.parentWidget()
        return parent is self.window

    def _popup_controls(self) -> Iterator[Control]:
        """The items of a menu that popped up (a door's Table D methods), and Esc, which closes it."""
        for top in self._tops:
            if isinstance(top, QMenu) and top.isVisible() and self._mine(top):
                name = top.objectName() or top.title()
                for item in self._menu_items(top, f"popup/{name}", "dialog"):
                    yield Control(item.key, item.group, item.label, partial(_then_close, item.click, top), item.weight)
                yield Control(f"popup/{name}/Esc", "dialog", f"{name}: Esc", top.close, 1.0)

    def _dialog_controls(self, only: QWidget | None = None) -> Iterator[Control]:
        """The buttons of every open dialog (``only``: of that one, modal)."""
        for top in [only] if only is not None else self._tops:
            if top is self.window or not top.isVisible() or not isinstance(top, QDialog) or not self._mine(top):
                continue
            name = top.objectName() or type(top).__name__
            self._type_into(top)
            yield from self._buttons(top, "dialog", f"{name}:{top.windowTitle()}")

    def _type_into(self, dialog: QDialog) -> None:
        """Type what a player types before OK: a hero's name, a row copied from the book (once per box)."""
        if isinstance(dialog, MissingRowDialog):
            if not dialog.property("bot_typed"):
                dialog.setProperty("bot_typed", True)
                if self.rng.random() < 0.9:  # now and then OK on an empty row first: the dialog says what is wrong
                    self.type_row(dialog)
            elif dialog.error_label.text() and not dialog.property("bot_fixed"):
                dialog.setProperty("bot_fixed", True)
                self.type_row(dialog)
            return
        for edit in dialog.findChildren(QLineEdit):
            if edit.property("bot_typed") or not (edit.isVisible() and edit.isEnabled()) or edit.isReadOnly():
                continue
            edit.setProperty("bot_typed", True)
            if not edit.text():
                edit.setText(self.rng.choice(NAMES))

    def type_row(self, dialog: MissingRowDialog) -> None:
        """A printed row of the same table, copied at the value rolled, as a player types it from the book."""
        rows = [r for r in dialog.table.rows if r.fields]
        if not rows:
            for edit in dialog.fields.values():
                edit.setText("Bot's find")
            return
        row = self.rng.choice(rows)
        for key, edit in dialog.fields.items():
            edit.setText(row.fields.get(key, ""))
        if self.rng.random() < 0.5:
            dialog.low.setValue(dialog.missing[0])
            dialog.high.setValue(dialog.missing[1])

    def _tab_controls(self) -> Iterator[Control]:
        """The dock tabs: a player brings the Combat (or another) tab forward."""
        for bar in self.window.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if not bar.isVisible():
                continue
            for i in range(bar.count()):
                if i == bar.currentIndex():
                    continue
                title = bar.tabText(i).replace("&", "")
                weight = 6.0 if title == "Combat" and self.window.game.campaign.combat is not None else 0.3
                click = partial(self.qtbot.mouseClick, bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(i).center())
                yield Control(f"tab/{title}", "tab", f"tab {title}", click, weight)

    def _menu_controls(self) -> Iterator[Control]:
        """Two menu items a player uses to come back to a wizard they closed."""
        w = self.window
        campaign = w.game.campaign
        ch = campaign.character
        wizard = w.creation_wizard
        no_hero = ch is None or ch.dead or ch.creation is not None
        if w.new_character_action.isEnabled() and no_hero and not (wizard is not None and wizard.isVisible()):
            yield Control("menu/new_character", "menu", "Hero > New character...", w.new_character_action.trigger, 30.0)
        town = w.town_actions.wizard
        if campaign.town.active and w.town_action.isEnabled() and not (town is not None and town.isVisible()):
            yield Control("menu/town", "menu", "Town > Before your next quest...", w.town_action.trigger, 1.0)

    def _map_controls(self) -> Iterator[Control]:
        """The hero's exits where the map draws them, and the entrance while the hero is outside."""
        view = self.window.map_area.view
        dungeon = self.window.game.campaign.dungeons.current_dungeon
        if dungeon is None or not view.isVisible():
            return
        scene = view.map_scene
        if dungeon.hero is None:
            at = scene.area_rect(dungeon.entrance).center()
            yield Control("map/entrance", "map", "map: the entrance", partial(self._click_map, at), 5.0)
            return
        area = dungeon.hero_area()
        if area is None:
            return
        for side, ex in area.exits.items():
            at = scene.exit_mark_rect(dungeon.hero, side).center()
            weight = 0.5 if ex.kind == "dead_end" else 5.0
            yield Control(f"map/exit/{side}", "map", f"map: exit {side}", partial(self._click_map, at), weight)

    def _click_map(self, scene_point: QPointF) -> None:
        view = self.window.map_area.view
        view.centerOn(scene_point)  # the player scrolls the map until the exit is in view
        target = view.mapFromScene(scene_point)
        self.qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=target)


def _then_close(click: Callable[[], object], menu: QMenu) -> None:
    """A menu item chosen: it runs, and the menu closes (as it does under the mouse)."""
    menu.close()
    click()
