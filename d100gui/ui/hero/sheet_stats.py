"""Sheet sections for who the hero is: the header, characteristics, health points and skills."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from d100gui.engine.hero.derive import Derived
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.queries import ability_requirement, ability_unlocked, track_full_gain
from d100gui.engine.hero.sheet_edits import SetCharacteristic, SetSheetField, SetSkillBonus, SetTrackPips
from d100gui.engine.rules.model import Rules
from d100gui.ui.common.pips import PipTrack
from d100gui.ui.hero.sheet_parts import NumberBox, Send, SheetSection, field_label, set_tip, signals_blocked, small

HEADER_FIELDS = (
    ("rep", "REP", "Reputation: {min} to {max}", 0, 99),
    ("gp", "GP", "Gold pieces", 0, 9999999),
    ("fate", "FATE", "Fate points: re-roll any dice of a roll", 0, 99),
    ("lives", "LIVES", "Lives: cheat death, HP back to maximum", 0, 99),
    ("quest_encounter_modifier", "ENC.MOD", "Quest encounter modifier, added to Table E rolls", -999, 999),
)


def _field(key: str, value: int) -> SetSheetField:
    return SetSheetField(field=key, value=value)  # type: ignore[arg-type]  # key is one of HEADER_FIELDS' fields


def _experience(target: str, value: int) -> SetTrackPips:
    return SetTrackPips(track="experience", target=target, value=value)


class HeaderSection(SheetSection):
    """Name, REP, GP, Fate, Lives (and RES) and the quest encounter modifier."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Character", rules, send, parent)
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(1)
        grid.addWidget(field_label("NAME"), 0, 0)
        self.name_edit = QLineEdit()
        self.name_edit.setAccessibleName("Hero's name")
        self.name_edit.setToolTip("The hero's name")
        self.name_edit.setObjectName("sheetText")
        grid.addWidget(self.name_edit, 0, 1, 1, 5)
        self.header_boxes: dict[str, NumberBox] = {}
        row = QHBoxLayout()
        row.setSpacing(3)
        for key, label, tip, lo, hi in HEADER_FIELDS:
            cell = QVBoxLayout()
            cell.setSpacing(0)
            tip = tip.format(min=rules.reputation.min, max=rules.reputation.max)
            cell.addWidget(field_label(label, tip), 0, Qt.AlignmentFlag.AlignHCenter)
            box = self.number(lo, hi, partial(_field, key), 56 if key == "gp" else 40, tip)
            self.header_boxes[key] = box
            cell.addWidget(box, 0, Qt.AlignmentFlag.AlignHCenter)
            row.addLayout(cell)
        row.addStretch(1)
        grid.addLayout(row, 1, 0, 1, 6)
        self.res_check = QCheckBox("RES in the Lives box")
        self.res_check.setToolTip("Resurrection: when the hero dies they rise at full HP without spending a Life; RES is removed")
        self.res_check.toggled.connect(lambda on: self.send(SetSheetField(field="res", value=on)))
        grid.addWidget(self.res_check, 2, 0, 1, 6)
        self.body.addLayout(grid)
        self._shown_name = ""
        self.name_edit.editingFinished.connect(self._name_edited)

    def _name_edited(self) -> None:
        if self.name_edit.text().strip() != self._shown_name:
            self.send(SetSheetField(field="name", value=self.name_edit.text()))

    def show_character(self, ch: Character, d: Derived) -> None:
        self._shown_name = ch.name
        if not self.name_edit.hasFocus():
            self.name_edit.setText(ch.name)
        self.name_edit.setPlaceholderText("(not named yet)")
        for key, box in self.header_boxes.items():
            box.show_value(getattr(ch, key))
        with signals_blocked(self.res_check):
            self.res_check.setChecked(ch.res)


class CharacteristicsSection(SheetSection):
    """STR, DEX and INT: primary and adjusted values, experience pips, and the abilities they unlock."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Characteristics", rules, send, parent)
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(2)
        grid.addWidget(field_label("PRIM."), 0, 1, Qt.AlignmentFlag.AlignHCenter)
        grid.addWidget(field_label("ADJ."), 0, 2, Qt.AlignmentFlag.AlignHCenter)
        gain = track_full_gain(rules, "characteristic")
        grid.addWidget(field_label(f"EXPERIENCE  (full: {gain})"), 0, 3)
        self.primary_boxes: dict[str, NumberBox] = {}
        self.adjusted_labels: dict[str, QLabel] = {}
        self.stat_tracks: dict[str, PipTrack] = {}
        for r, stat in enumerate(rules.characteristics, start=1):
            self._add_row(grid, r, stat, gain)
        grid.setColumnStretch(4, 1)
        self.body.addLayout(grid)
        badges = QHBoxLayout()
        badges.setSpacing(3)
        self.ability_badges: dict[str, QLabel] = {}
        for ability in rules.abilities:
            badge = QLabel(ability.name)
            badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.ability_badges[ability.id] = badge
            badges.addWidget(badge)
        self.body.addLayout(badges)

    def _add_row(self, grid: QGridLayout, r: int, stat: str, gain: str) -> None:
        name = QLabel(f"<b>{stat}</b>")
        name.setToolTip(self.rules.characteristic_names.get(stat, stat))
        grid.addWidget(name, r, 0)
        box = self.number(0, 999, partial(_primary, stat), 34, "Primary value")
        box.setAccessibleName(f"{stat} primary value")
        self.primary_boxes[stat] = box
        grid.addWidget(box, r, 1)
        adj = QLabel()
        adj.setMinimumWidth(26)
        adj.setAlignment(Qt.AlignmentFlag.AlignCenter)
        adj.setStyleSheet("font-weight: bold; font-size: 11pt;")
        self.adjusted_labels[stat] = adj
        grid.addWidget(adj, r, 2)
        track = self.track(
            self.rules.sheet.characteristic_track, partial(_experience, stat), f"{stat} experience", end_label=gain
        )
        self.stat_tracks[stat] = track
        grid.addWidget(track, r, 3)

    def show_character(self, ch: Character, d: Derived) -> None:
        for stat in self.rules.characteristics:
            score = ch.characteristics[stat]
            self.primary_boxes[stat].show_value(score.primary)
            adj = self.adjusted_labels[stat]
            adj.setText(str(d.characteristics[stat]))
            set_tip(
                adj, " ".join(f"{p.value:+d} {p.label}" if i else f"{p.value} {p.label}" for i, p in enumerate(d.sources[stat]))
            )
            self.stat_tracks[stat].set_value(score.pips)
        for ability in self.rules.abilities:
            lit = ability_unlocked(d, ability.id)
            badge = self.ability_badges[ability.id]
            look = "badgeOn" if lit else "badgeOff"
            if badge.objectName() != look:  # re-polished (and repainted) only when it changes
                badge.setObjectName(look)
                badge.style().unpolish(badge)  # re-polish: the style sheet picks the look by object name
                badge.style().polish(badge)
            state = "unlocked" if lit else f"locked until {ability_requirement(self.rules, ability.id)}"
            set_tip(badge, f"{ability.name} ({state}): {ability.summary}")
            if badge.property("lit") != lit:
                badge.setProperty("lit", lit)


def _primary(stat: str, value: int) -> SetCharacteristic:
    return SetCharacteristic(stat=stat, primary=value)


class HealthSection(SheetSection):
    """Current, maximum and primary HP, with the damage and Defence Bonus they fight with."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Health points", rules, send, parent)
        row = QHBoxLayout()
        row.setSpacing(4)
        row.addWidget(field_label("HP"))
        self.hp_box = self.number(-99, 999, partial(_field, "hp"), 38, "Current HP")
        row.addWidget(self.hp_box)
        self.hp_max_label = QLabel()
        row.addWidget(self.hp_max_label)
        row.addSpacing(6)
        row.addWidget(field_label("PRIMARY"))
        self.hp_primary_box = self.number(-99, 999, partial(_field, "hp_primary"), 38, "Primary HP")
        row.addWidget(self.hp_primary_box)
        row.addStretch(1)
        self.body.addLayout(row)
        self.combat_summary = small()
        self.combat_summary.setWordWrap(True)
        self.body.addWidget(self.combat_summary)

    def show_character(self, ch: Character, d: Derived) -> None:
        self.hp_box.show_value(ch.hp)
        self.hp_primary_box.show_value(ch.hp_primary)
        self.hp_max_label.setText(f"/ {d.max_hp}")
        set_tip(self.hp_max_label, "Adjusted maximum: primary HP plus item and time-track bonuses")
        dmg = ", ".join(f"{self.rules.slot(s).name} {v:+d}" for s, v in d.weapon_dmg.items()) or f"{d.dmg:+d}"
        self.combat_summary.setText(f"DMG {dmg} · Defence Bonus {d.defence_bonus}")


class SkillsSection(SheetSection):
    """Every skill's bonus and experience pips."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__(f"Skills  (max +{rules.skill_max})", rules, send, parent)
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(1)
        self.skill_boxes: dict[str, NumberBox] = {}
        self.skill_tracks: dict[str, PipTrack] = {}
        gain = track_full_gain(rules, "skill")
        for r, skill in enumerate(rules.skills):
            grid.addWidget(QLabel(skill), r, 0)
            box = self.number(-99, 999, partial(_skill_bonus, skill), 32, f"{skill} bonus")
            box.setPrefix("+")
            box.setSingleStep(rules.skill_step)
            self.skill_boxes[skill] = box
            grid.addWidget(box, r, 1)
            track = self.track(rules.sheet.skill_track, partial(_experience, skill), f"{skill} experience", end_label=gain)
            self.skill_tracks[skill] = track
            grid.addWidget(track, r, 2)
        grid.setColumnStretch(3, 1)
        self.body.addLayout(grid)

    def show_character(self, ch: Character, d: Derived) -> None:
        for skill in self.rules.skills:
            score = ch.skills[skill]
            self.skill_boxes[skill].show_value(score.bonus)
            self.skill_tracks[skill].set_value(score.pips)


def _skill_bonus(skill: str, value: int) -> SetSkillBonus:
    return SetSkillBonus(skill=skill, bonus=value)
