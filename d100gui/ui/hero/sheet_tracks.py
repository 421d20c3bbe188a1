"""Sheet sections that are rows of pips: keys / levers / poison / disease, the time track, the combat track.

Track lengths, time-track triggers and combat-track milestones all come from the sheet
layout in the rules (``rules.sheet``).
"""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QCheckBox, QGridLayout, QHBoxLayout, QWidget

from d100gui.engine.hero.derive import Derived
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.queries import darkness_penalty
from d100gui.engine.hero.sheet_edits import SetSheetField, SetTrackPips
from d100gui.engine.rules.model import Rules
from d100gui.ui.common.pips import PipTrack
from d100gui.ui.hero.sheet_parts import Send, SheetSection, field_label, set_dim, signals_blocked, small

COUNT_TRACKS = ("keys", "levers", "poison", "disease")


def _pips(track: str, value: int) -> SetTrackPips:
    return SetTrackPips(track=track, value=value)  # type: ignore[arg-type]  # track is one of the sheet's tracks


class CountTracksSection(SheetSection):
    """Keys and levers held, poison and disease taken."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Keys · Levers · Poison · Disease", rules, send, parent)
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        self.count_tracks: dict[str, PipTrack] = {}
        for r, name in enumerate(COUNT_TRACKS):
            grid.addWidget(field_label(name.upper()), r, 0)
            length = int(getattr(rules.sheet, f"{name}_track"))
            track = self.track(
                length, partial(_pips, name), name.title(), shape="box" if name in ("keys", "levers") else "circle"
            )
            track.set_tips({k: f"{name.title()} {k}" for k in range(1, length + 1)})
            self.count_tracks[name] = track
            grid.addWidget(track, r, 1)
        grid.setColumnStretch(2, 1)
        self.body.addLayout(grid)

    def show_character(self, ch: Character, d: Derived) -> None:
        for name, track in self.count_tracks.items():
            track.set_value(getattr(ch, name))


class TimeSection(SheetSection):
    """The time track with its oil, food and wandering-monster symbols, the light, objectives met."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Time track", rules, send, parent)
        layout = rules.sheet.time_track
        self.time_track = self.track(layout.clocks, partial(_pips, "time"), "Time track", shape="clock", pip_size=18, gap=5)
        icons: dict[int, list[str]] = {}
        for t in layout.triggers:
            icons.setdefault(t.clock, []).append(f"{t.kind}:{t.number}" if t.number is not None else t.kind)
        self.time_track.set_icons(icons)
        self.time_track.set_tips({k: f"Clock {k}" for k in range(1, layout.clocks + 1)})
        self.body.addWidget(self.time_track)
        legend = small("Symbols: flame = use oil · loaf = eat food · eye = wandering monster on d10 ≤ n")
        legend.setWordWrap(True)
        set_dim(legend)
        self.body.addWidget(legend)
        self.time_bonuses = small()
        self.time_bonuses.setWordWrap(True)
        self.body.addWidget(self.time_bonuses)
        self.body.addLayout(self._light_row())

    def _light_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        penalty = darkness_penalty(self.rules)
        self.darkness_check = QCheckBox(f"No light ({penalty})")
        self.darkness_check.setToolTip(f"The sun at the top of the sheet is shaded: no oil, {penalty} to STR, DEX and INT")
        self.darkness_check.toggled.connect(lambda on: self.send(SetSheetField(field="in_darkness", value=on)))
        row.addWidget(self.darkness_check)
        row.addStretch(1)
        row.addWidget(field_label("OBJECTIVES"))
        self.objectives_box = self.number(-99, 999, lambda v: SetSheetField(field="objectives", value=v), 32, "Objectives met")
        row.addWidget(self.objectives_box)
        return row

    def show_character(self, ch: Character, d: Derived) -> None:
        self.time_track.set_value(ch.time_track.shaded)
        bonuses = ch.time_track.bonuses
        self.time_bonuses.setText(
            "Until the track refreshes: "
            + ", ".join(f"{b.amount:+d} {b.stat} ({b.source})" if b.source else f"{b.amount:+d} {b.stat}" for b in bonuses)
            if bonuses
            else ""
        )
        self.time_bonuses.setVisible(bool(bonuses))
        with signals_blocked(self.darkness_check):
            self.darkness_check.setChecked(ch.in_darkness)
        self.objectives_box.show_value(ch.objectives)


class CombatSection(SheetSection):
    """The combat track: a box per monster beaten, milestones starred, the last few fights listed."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Combat track", rules, send, parent)
        layout = rules.sheet.combat_track
        self.combat_track = self.track(
            layout.length, partial(_pips, "combat"), "Combat track", shape="box", per_row=10, pip_size=13, gap=4
        )
        self.combat_track.set_marks({m.position: f"Milestone: {m.reward}" for m in layout.milestones})
        self.combat_track.set_tips({k: f"Box {k}" for k in range(1, layout.length + 1)})
        self.body.addWidget(self.combat_track)
        self.combat_next = small()
        self.combat_next.setWordWrap(True)
        self.body.addWidget(self.combat_next)
        self.combat_list = small()
        self.combat_list.setWordWrap(True)
        self.body.addWidget(self.combat_list)

    def show_character(self, ch: Character, d: Derived) -> None:
        layout = self.rules.sheet.combat_track
        filled = len(ch.combat_track)
        self.combat_track.set_value(filled)
        upcoming = [m for m in layout.milestones if m.position > filled]
        self.combat_next.setText(
            f"Next milestone at box {upcoming[0].position}: {upcoming[0].reward}." if upcoming else "Every milestone reached."
        )
        lines = []
        for n, entry in list(enumerate(ch.combat_track, start=1))[-5:]:
            bits = [f"AV {entry.av}" if entry.av is not None else "", f"DEF {entry.defence}" if entry.defence is not None else ""]
            bits += [f"DMG {entry.dmg:+d}" if entry.dmg is not None else "", f"HP {entry.hp}" if entry.hp else ""]
            lines.append(f"{n}. {entry.monster} " + " ".join(b for b in bits if b))
        self.combat_list.setText("\n".join(lines))
        self.combat_list.setVisible(bool(lines))
