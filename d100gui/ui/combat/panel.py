"""The combat panel: the fight in progress, its round step by step with the dice drawn, and its choices.

:class:`CombatPanel` is built from the :class:`~.bridge.EngineBridge` and re-renders from
``bridge.game.campaign.combat`` whenever the game changes (``command_done``,
``campaign_changed``; ``character_changed`` is coalesced). It decides nothing: every button
sends one of the engine's combat commands (``COMBAT_COMMANDS``) and a refusal comes back
as the engine's own reason.

What it shows:

* the monster card — name, type, AV/DEF/DMG with this round's bonuses, HP of every pack
  member as pips (the dead struck through), abilities as badges whose tooltip says what the
  ability does in this fight, the loot ``[K:...]``;
* the hero's numbers for the fight — HP, DEF at each hit location, Defence Bonus, DMG,
  Fate, Lives/RES, and the conditions (webbed, dazed, forfeit attack, frozen, brews);
* the steps of the round — read from the command log of the fight (each
  :class:`~d100gui.engine.game.LogEntry` holds the messages and every
  :class:`~d100gui.engine.dice.dice.RollRecord` of one command), so a saved and reloaded fight
  shows the same list, and every die rolled is drawn;
* the odds before each action (:func:`~d100gui.engine.combat.odds.combat_odds`, recomputed once
  per change of the game, never on paint);
* the choice the fight waits for — Continue, Fate (die by die), the actions of step 2 from
  :func:`~d100gui.engine.combat.round.available_actions` (disabled ones carry the reason as
  tooltip), Perfect Aim, offsets, the loot table — and experience pips on a natural 10 or
  less;
* the end of the fight (victory with the combat-track box, milestone and loot; escape; the
  monster escaped; death), or, with no fight, how to start one (:class:`StartFightDialog`).

Keyboard (scoped to the panel): A attack with the main weapon, E escape, Space/Enter
continue, F spend Fate on every die of the roll.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QKeySequence, QPainter, QPalette, QPen, QShortcut
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.combat.monster import (
    TYPE_NAMES,
    CombatState,
    Monster,
    MonsterAbility,
    parse_abilities,
    parse_hp,
    typed_monster,
)
from d100gui.engine.combat.odds import FightOdds, combat_odds
from d100gui.engine.combat.round import (
    COMBAT_COMMANDS,
    TEST_SPECS,
    TEST_TEXTS,
    WAIT_TEXT,
    CombatAttack,
    CombatBlockEscape,
    CombatCastSpell,
    CombatChangeWeapon,
    CombatChooseLoot,
    CombatContinue,
    CombatEscape,
    CombatFate,
    CombatOffset,
    CombatPass,
    CombatPerfectAim,
    CombatUseBelt,
    StartCombat,
    available_actions,
    weapon_in,
    weapon_stats,
)
from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.game import Campaign, Command, LogEntry
from d100gui.engine.hero.character import (
    Character,
    ExperienceChoice,
    OutcomeChoice,
    PendingTest,
    TargetChoice,
    derive,
)
from d100gui.engine.hero.skill_test import (
    AssignExperience,
    ChooseOutcome,
    ChooseTarget,
    DismissDecision,
    preview_test,
)
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import parse_loot
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dice_faces import PIPS, DiceFacesView, die_shape

# --------------------------------------------------------------------------- the fight's log

COMBAT_KINDS = frozenset(c.model_fields["kind"].default for c in COMBAT_COMMANDS)
#: Commands that may come between a fight's commands and still belong to it (Fate on its
#: test, its experience pips and milestone choices).
FOLLOW_UP_KINDS = frozenset(
    {"use_fate", "accept_test", "assign_experience", "choose_target", "choose_outcome", "dismiss_decision"}
)
FIGHT_KINDS = COMBAT_KINDS | FOLLOW_UP_KINDS
#: Commands whose first message starts a new step of the round (the player's choice).
ACTION_KINDS = frozenset(
    {
        "start_combat",
        "combat_attack",
        "combat_change_weapon",
        "combat_cast_spell",
        "combat_use_belt",
        "combat_escape",
        "combat_block_escape",
        "combat_pass",
        "combat_perfect_aim",
        "combat_offset",
        "combat_choose_loot",
        *FOLLOW_UP_KINDS,
    }
)
_ROUND = re.compile(r"^Round (\d+) against ")
#: The engine's "what now" prompts: the panel's buttons say the same, so the step list skips them.
_PROMPTS = (
    re.compile(r"accept the roll or spend Fate to re-roll dice\.$"),
    re.compile(r": accept the roll or use Fate\.$"),
    re.compile(r"^Round \d+: choose your action"),
)
_DEFEATED = re.compile(r" is defeated!$")
_OUTCOMES = (
    ("died", re.compile(r"joins the hall of the fallen")),
    ("won", re.compile(r"^The fight with .+ is over: you won")),
    ("hero_escaped", re.compile(r"^You escape from ")),
    ("monster_escaped", re.compile(r"escapes: it is removed from play")),
)


@dataclass
class Step:
    """One line of the round: a title, what followed, and the rolls (drawn as dice)."""

    title: str
    lines: list[str] = field(default_factory=list)
    rolls: list[RollRecord] = field(default_factory=list)
    kind: str = "note"  # "round", "action", "roll", "fate", "note"


@dataclass
class Section:
    """The steps before the first round (``round`` 0) or of one round."""

    round: int
    steps: list[Step] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"Round {self.round}" if self.round else "Before the fight"


@dataclass
class FightRecord:
    """The fight as its log tells it: sections, every message, and how it ended ("" = not over)."""

    start: int  # log index of the start_combat entry
    end: int  # log index after the fight's last entry if only its follow-ups came after it, else -1
    sections: list[Section]
    messages: list[str]
    outcome: str = ""
    ending: list[str] = field(default_factory=list)  # the messages that tell how it ended


def fight_entries(log: list[LogEntry]) -> tuple[int, list[int], int]:
    """The latest fight in the log: the index of its start_combat, the indexes of its commands
    (other commands made during the fight, such as a sheet correction, are left out), and the
    index after its last command *if* nothing but its follow-ups (experience, choices) came
    after it, else -1 (the game has moved on)."""
    start = next((i for i in range(len(log) - 1, -1, -1) if log[i].command.get("kind") == "start_combat"), -1)
    if start < 0:
        return -1, [], -1
    included, over = [start], _ended(log[start].messages)
    for i in range(start + 1, len(log)):
        kind = log[i].command.get("kind")
        if over and kind not in FOLLOW_UP_KINDS:
            return start, included, -1
        if kind in FIGHT_KINDS:
            included.append(i)
            over = over or _ended(log[i].messages)
    return start, included, len(log)


def _ended(messages: list[str]) -> bool:
    return any(pattern.search(t) for t in messages for _name, pattern in _OUTCOMES)


def attach_rolls(
    messages: list[str], rolls: list[RollRecord], titles: list[str]
) -> tuple[dict[int, list[RollRecord]], list[RollRecord]]:
    """Which message each roll of a command belongs to: the roll's own line (``purpose: ...``),
    a Fate line for a re-roll, or a table result line (``Table P – Parts: 45 -> ...``). Rolls
    are made in message order, so the search only goes forward. Returns the rolls per message
    index and the rolls no line names (shown on their own)."""
    owned: dict[int, list[RollRecord]] = {}
    orphans: list[RollRecord] = []
    pointer = 0

    def own_line(text: str, roll: RollRecord) -> bool:
        if roll.rerolled and text.startswith("Fate spent"):
            return text.rstrip(".").split(" re-rolled to ")[-1].split(" ")[0] == str(roll.natural)
        purpose = roll.purpose.replace(" (sample re-roll)", "")
        return bool(purpose) and text.startswith(purpose + ":")

    def table_line(text: str, roll: RollRecord) -> bool:
        return any(re.match(rf"{re.escape(t)}: {roll.natural}\b", text) for t in titles)

    for roll in rolls:
        found = next((q for q in range(pointer, len(messages)) if own_line(messages[q], roll)), None)
        if found is None:
            found = next((q for q in range(pointer, len(messages)) if q not in owned and table_line(messages[q], roll)), None)
        if found is None:
            orphans.append(roll)
            continue
        owned.setdefault(found, []).append(roll)
        pointer = found
    return owned, orphans


def _is_prompt(text: str) -> bool:
    return any(p.search(text) for p in _PROMPTS)


def _roll_title(text: str, roll: RollRecord) -> tuple[str, str]:
    """A roll line split into a title and what it adds (a bare dice description adds nothing)."""
    if text.startswith("Fate spent"):
        return "Fate", text
    if text == roll.describe():
        return roll.purpose or roll.expression, ""
    purpose = roll.purpose.replace(" (sample re-roll)", "")
    if purpose and text.startswith(purpose + ":"):
        return purpose, text[len(purpose) + 1 :].strip()
    head, sep, rest = text.partition(": ")
    return (head, rest) if sep else (text, "")


def read_fight(log: list[LogEntry], titles: list[str]) -> FightRecord | None:
    """The latest fight in ``log`` as sections of steps, or None if there was none."""
    start, included, end = fight_entries(log)
    if start < 0:
        return None
    sections = [Section(round=0)]
    messages: list[str] = []
    outcome, ending = "", []
    for entry in (log[i] for i in included):
        kind = entry.command.get("kind", "")
        owned, orphans = attach_rolls(entry.messages, entry.rolls, titles)
        first = True
        for index, text in enumerate(entry.messages):
            messages.append(text)
            for name, pattern in _OUTCOMES:
                if not outcome and pattern.search(text):
                    outcome = name
            rolls = owned.get(index, [])
            if _is_prompt(text) and not rolls:
                continue
            section = sections[-1]
            m = _ROUND.match(text)
            if m:
                sections.append(Section(round=int(m.group(1)), steps=[Step(title=text, kind="round")]))
            elif rolls:
                title, rest = _roll_title(text, rolls[0])
                section.steps.append(
                    Step(title=title, lines=[rest] if rest else [], rolls=rolls, kind="fate" if title == "Fate" else "roll")
                )
            elif (first and kind in ACTION_KINDS) or not section.steps:
                section.steps.append(Step(title=text, kind="action" if first and kind != "start_combat" else "note"))
            else:
                section.steps[-1].lines.append(text)
            first = False
        for roll in orphans:
            sections[-1].steps.append(
                Step(title=roll.purpose or roll.expression, lines=[roll.describe()], rolls=[roll], kind="roll")
            )
    if outcome:
        over = next(i for i, t in enumerate(messages) if dict(_OUTCOMES)[outcome].search(t))
        at = next((i for i in range(over, -1, -1) if _DEFEATED.search(messages[i])), over) if outcome == "won" else over
        ending = [t for t in messages[at : over + 1] if not _is_prompt(t)]
    if len(sections) > 1 and not sections[0].steps:
        sections.pop(0)
    return FightRecord(start=start, end=end, sections=sections, messages=messages, outcome=outcome, ending=ending)


# --------------------------------------------------------------------------- small widgets


class CompactDice(DiceFacesView):
    """Dice of a past step, drawn small; read-only (Fate is offered on the waiting roll only)."""

    SIZE = 30

    def __init__(self, roll: RollRecord, parent: QWidget | None = None, selectable: bool = False) -> None:
        super().__init__(parent)
        self._selectable = selectable
        self.roll = roll
        self.setMinimumHeight(self.SIZE + 6)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.set_faces(roll.dice, roll.rerolled)
        self.setFixedSize(self.sizeHint())
        self.setToolTip(roll.describe())

    def sizeHint(self) -> QSize:
        return QSize(6 + (self.SIZE + 6) * max(1, len(self.faces())), self.SIZE + 6)

    def _rect(self, index: int) -> QRectF:
        return QRectF(3 + index * (self.SIZE + 6), 3, self.SIZE, self.SIZE)

    def mousePressEvent(self, event) -> None:
        if self._selectable:
            super().mousePressEvent(event)
        else:
            event.ignore()

    def paintEvent(self, event) -> None:
        """The dice as :class:`DiceFacesView` draws them, with pips and numbers scaled to the size."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        selected = set(self.selected())
        for i, face in enumerate(self.faces()):
            rect = self._rect(i)
            fill = QColor("#f4ecd8") if face.role != "tens" else QColor("#d9e6f2")
            if face.sides == 6:
                fill = QColor("#f6f1e7")
            if i in selected:
                fill = QColor("#ffd479")
            rerolled = i in self._rerolled
            painter.setPen(QPen(QColor("#e0a000") if rerolled else QColor("#3a3a3a"), 2.5 if rerolled else 1.5))
            painter.setBrush(fill)
            painter.drawPath(die_shape(face, rect))
            painter.setPen(QColor("#1b1b1b"))
            if face.sides == 6 and 1 <= face.face <= 6:
                painter.setBrush(QColor("#1b1b1b"))
                inner = rect.adjusted(rect.width() * 0.13, rect.width() * 0.13, -rect.width() * 0.13, -rect.width() * 0.13)
                radius = rect.width() * 0.075
                for px, py in PIPS[face.face]:
                    painter.drawEllipse(
                        QPointF(inner.left() + px * inner.width(), inner.top() + py * inner.height()), radius, radius
                    )
            else:
                font = QFont(self.font())
                font.setBold(True)
                font.setPixelSize(max(8, int(rect.height() * (0.34 if len(face.shown) < 3 else 0.28))))
                painter.setFont(font)
                text_rect = rect.adjusted(0, rect.height() * 0.08, 0, 0) if face.sides == 10 else rect
                painter.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, face.shown)
        painter.end()


class BigDice(CompactDice):
    """The roll the fight waits on, drawn large; click dice to choose them for Fate."""

    SIZE = 46


class PackHpView(QWidget):
    """HP of each individual as pips (a bar above 24 HP); a dead one is struck through."""

    PIP = 13
    GAP = 18

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._current: list[int] = []
        self._maximum: list[int] = []
        self.setMinimumHeight(self.PIP + 16)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Monster HP")

    def set_members(self, current: list[int], maximum: list[int]) -> None:
        self._current, self._maximum = list(current), list(maximum)
        tips = [
            f"#{i + 1}: {max(0, c)} of {m} HP" + (" (dead)" if c <= 0 else "")
            for i, (c, m) in enumerate(zip(current, maximum, strict=False))
        ]
        self.setToolTip("\n".join(tips))
        self.update()

    def members(self) -> list[tuple[int, int, bool]]:
        """(current, maximum, dead) of each individual, in printed order."""
        return [(max(0, c), m, c <= 0) for c, m in zip(self._current, self._maximum, strict=False)]

    def sizeHint(self) -> QSize:
        return QSize(sum(self._width(m) for m in self._maximum) + self.GAP * len(self._maximum), self.PIP + 16)

    def _width(self, maximum: int) -> int:
        return maximum * (self.PIP + 3) if maximum <= 24 else 180

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        ink = pal.color(QPalette.ColorRole.WindowText)
        dim = pal.color(QPalette.ColorRole.PlaceholderText)
        blood = QColor("#c0392b")
        x = 2.0
        y = 4.0
        small = QFont(self.font())
        small.setPointSizeF(max(6.5, small.pointSizeF() * 0.75))
        for i, (current, maximum) in enumerate(zip(self._current, self._maximum, strict=False)):
            width = self._width(maximum)
            if x + width > self.width() and x > 2:
                break
            dead = current <= 0
            painter.setPen(QPen(dim if dead else ink, 1.2))
            if maximum <= 24:
                for k in range(maximum):
                    rect = QRectF(x + k * (self.PIP + 3), y, self.PIP, self.PIP)
                    painter.setBrush(blood if k < current else Qt.BrushStyle.NoBrush)
                    painter.drawEllipse(rect)
            else:
                rect = QRectF(x, y, width, self.PIP)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect)
                painter.fillRect(QRectF(x, y, width * max(0, current) / maximum, self.PIP), blood)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{max(0, current)}/{maximum}")
            if dead:
                painter.setPen(QPen(ink, 2))
                painter.drawLine(int(x - 2), int(y + self.PIP / 2), int(x + width + 1), int(y + self.PIP / 2))
            if len(self._maximum) > 1:
                painter.setPen(dim)
                painter.setFont(small)
                painter.drawText(QRectF(x, y + self.PIP + 1, width, 11), Qt.AlignmentFlag.AlignLeft, f"#{i + 1}")
            x += width + self.GAP
        painter.end()


def _badge(text: str, tip: str = "", strong: bool = False) -> QLabel:
    label = QLabel(text)
    label.setObjectName("badge")
    label.setToolTip(tip)
    border = "palette(highlight)" if strong else "palette(mid)"
    label.setStyleSheet(
        f"QLabel#badge {{ border: 1px solid {border}; border-radius: 9px; padding: 1px 7px;"
        " background: palette(alternate-base); color: palette(window-text); }"
    )
    return label


def _dim(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setStyleSheet("color: palette(placeholder-text);")
    return label


def _clear(layout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget()
        if widget is not None:
            widget.hide()  # deleteLater waits for the event loop; hide it now
            widget.deleteLater()
        elif item.layout() is not None:
            _clear(item.layout())


class FlowRow(QWidget):
    """Badges laid out left to right, wrapping onto new lines."""

    def __init__(self, parent: QWidget | None = None, per_line: int = 5) -> None:
        super().__init__(parent)
        self.per_line = per_line
        self.grid = QVBoxLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(3)
        self.widgets: list[QWidget] = []

    def set_widgets(self, widgets: list[QWidget]) -> None:
        _clear(self.grid)
        self.widgets = list(widgets)
        row: QHBoxLayout | None = None
        for i, w in enumerate(widgets):
            if i % self.per_line == 0:
                row = QHBoxLayout()
                row.setSpacing(4)
                self.grid.addLayout(row)
            assert row is not None
            row.addWidget(w)
        if row is not None:
            row.addStretch(1)
        self.setVisible(bool(widgets))


# --------------------------------------------------------------------------- what things mean in this fight

LOCATION_SHORT = {"main_weapon": "Main", "off_weapon": "Off"}
CONDITION_NAMES = {
    "you are caught in the web": "Webbed",
    "you are dazed": "Dazed",
    "you failed the FEAR test": "Afraid",
}


def _test_target(ch: Character | None, rules: Rules, kind: str) -> str:
    if ch is None:
        return ""
    return f" Your target: {preview_test(ch, rules, TEST_SPECS[kind]).target}."


def ability_tip(ability: MonsterAbility, c: CombatState, ch: Character | None, rules: Rules) -> str:
    """What a Monster Ability does in this fight, with the numbers of this hero and this round."""
    m = c.monster
    track = lambda name, length: f" (your {name} track: {getattr(ch, name)} of {length})" if ch is not None else ""
    tips = {
        "attacks": f"It attacks {m.attacks} times a round against the same AV; the damage dice of the hits are added for one total.",
        "dark_magic": "Every round it rolls d10 for a spell: 1-2 Dark Strike (+20 AV), 3-4 Shadowy Cloak (+4 DEF), "
        "5-6 Evil Touch (+2 DMG), 7-8 Drain Life (the HP you lose heal it), 9-10 Death Bolt (you lose 2 HP)."
        + (f" This round: {c.dark_spell}." if c.dark_spell else ""),
        "death_touch": "Its hits ignore 2 of your DEF at the location hit (never below 0).",
        "disease": "A natural 1 on its damage die shades a disease pip" + track("disease", rules.sheet.disease_track) + ".",
        "ethereal": "Only a legendary weapon or a spell (book or scroll) hurts it: other weapons pass straight through.",
        "fear": f"Every round before your action: {TEST_TEXTS['fear']}." + _test_target(ch, rules, "fear"),
        "fire": f"Each natural 1 on its damage die: {TEST_TEXTS['fire']}." + _test_target(ch, rules, "fire"),
        "fly": "Attacking it with STR (a hand weapon) costs -10; a ranged attack (DEX) is not affected.",
        "freeze": f"Each natural 1 on its damage die: {TEST_TEXTS['freeze']}." + _test_target(ch, rules, "freeze"),
        "large": "Its damage dice re-roll every 1 and 2 until they show 3 or more.",
        "pack": "Every individual alive beyond the first adds +5 AV at the start of the round"
        + (f": +{c.pack_bonus} this round ({c.living} alive)." if c.round else ".")
        + " Your damage carries over from one individual to the next.",
        "phase": "It phases in and out of reality: -10 to your STR and DEX attacks against it.",
        "poison": "A natural 1 on its damage die shades a poison pip" + track("poison", rules.sheet.poison_track) + ".",
        "resurrection": "When killed, before the loot, it rolls d10: on a 1 it rises again at full HP."
        + (f" It has risen {c.resurrections} time(s)." if c.resurrections else ""),
        "regenerate": "A natural 1 on its damage die deals no damage and heals it 1 HP.",
        "stunned": f"Whenever it damages you: {TEST_TEXTS['dazed']}." + _test_target(ch, rules, "dazed"),
        "surprise": f"When it appears: {TEST_TEXTS['surprise']}." + _test_target(ch, rules, "surprise"),
        "tough": "Every HP it loses takes 2 damage (damage is halved, rounding down), spells included.",
        "web": f"At the end of every round it is alive: {TEST_TEXTS['web']}." + _test_target(ch, rules, "web"),
    }
    return f"{ability.name}: {tips.get(ability.id, ability.text)}"


def die_names(record: RollRecord) -> list[str]:
    """What each die of a roll is called on a Fate button: tens, units, d6, location."""
    sixes = sum(1 for d in record.dice if d.sides == 6)
    names, n6 = [], 0
    for d in record.dice:
        if d.role in ("tens", "units"):
            names.append(d.role)
        elif d.sides == 6:
            n6 += 1
            names.append("d6" if sixes == 1 else f"d6 #{n6}")
        elif d.sides == 10 and sixes:
            names.append("location")
        else:
            names.append(f"d{d.sides}")
    return names


def roll_value(record: RollRecord, where: str = "") -> str:
    """What a roll came to: its total, or for damage and location the damage dice and the location
    (``where`` names it: the big dice say "damage 2 · location 3 Torso", a step "2 · loc 3")."""
    names = die_names(record)
    if "location" in names:
        damage = "+".join(str(d.face) for d in record.dice if d.sides == 6)
        location = record.dice[names.index("location")].face or 10
        return f"damage {damage} · location {location} {where}".rstrip() if where else f"{damage} · loc {location}"
    return f"{record.natural}" + (f" → {record.final}" if record.final != record.natural else "")


OUTCOME_TITLES = {
    "won": "Victory",
    "hero_escaped": "You escaped",
    "monster_escaped": "The monster escaped",
    "died": "Fallen",
    "over": "The fight is over",
}


# --------------------------------------------------------------------------- the panel


class CombatPanel(QWidget):
    """The fight in progress, driven by the engine's combat commands through the bridge."""

    #: True when a fight is in progress, False when there is none (emitted on change only).
    fight_active_changed = Signal(bool)
    #: A fight just ended: "won", "hero_escaped", "monster_escaped", "died" (or "over").
    fight_ended = Signal(str)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.rules = bridge.rules
        self.odds: FightOdds | None = None
        self.odds_error = ""
        self.record: FightRecord | None = None
        self.last_error = ""
        self._sending = False
        self._odds_key: tuple | None = None
        self._steps_key: tuple | None = None
        self._view_round: int | None = None  # None: follow the latest round
        self._dismissed = -1  # start index of a finished fight the player closed
        self._active: bool | None = None
        self._announced_end = -1
        self.step_rows: list[QWidget] = []
        self.shown_steps: list[Step] = []
        self.fate_buttons: list[QPushButton] = []
        self.decision_buttons: dict[str, list[QPushButton]] = {}
        self.start_dialog: StartFightDialog | None = None
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self.render)
        self.setObjectName("combatPanel")
        self.setMinimumWidth(420)
        self._build()
        self._build_shortcuts()
        bridge.command_done.connect(self.render)
        bridge.campaign_changed.connect(self.render)
        bridge.character_changed.connect(self._render_later)
        bridge.error.connect(self._remember_error)
        self.render()

    # ------------------------------------------------------------------ model
    @property
    def campaign(self) -> Campaign:
        return self.bridge.game.campaign

    @property
    def combat(self) -> CombatState | None:
        return self.campaign.combat

    def _titles(self) -> list[str]:
        return [t.title for t in self.bridge.game.library]

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        self.pages = QStackedWidget()
        outer.addWidget(self.pages)

        # --- no fight
        self.idle_page = QWidget()
        idle = QVBoxLayout(self.idle_page)
        idle.addStretch(1)
        self.idle_label = QLabel()
        self.idle_label.setWordWrap(True)
        self.idle_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.idle_label.setStyleSheet("color: palette(placeholder-text); font-size: 14px; padding: 12px;")
        idle.addWidget(self.idle_label)
        self.start_button = QPushButton("Start a fight...")
        self.start_button.setToolTip("Roll Table E, meet the Giant Snake, or type a monster in from your rulebook")
        self.start_button.clicked.connect(lambda _=False: self.open_start_dialog())
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.start_button)
        row.addStretch(1)
        idle.addLayout(row)
        idle.addStretch(2)
        self.pages.addWidget(self.idle_page)

        # --- the fight (and its end)
        self.fight_page = QWidget()
        col = QVBoxLayout(self.fight_page)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(6)
        col.addWidget(self._build_end_banner())
        col.addWidget(self._build_monster_card())
        col.addWidget(self._build_hero_box())
        col.addWidget(self._build_steps(), 1)
        col.addWidget(self._build_decision_box())
        col.addWidget(self._build_odds())
        col.addWidget(self._build_actions())
        self.error_label = QLabel()
        self.error_label.setObjectName("combatError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("font-weight: bold;")
        col.addWidget(self.error_label)
        self.pages.addWidget(self.fight_page)

    def _frame(self, title: str = "") -> tuple[QFrame, QVBoxLayout]:
        frame = QFrame()
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        frame.setObjectName("combatFrame")
        frame.setStyleSheet(
            "QFrame#combatFrame { border: 1px solid palette(mid); border-radius: 6px; background: palette(base); }"
        )
        layout = QVBoxLayout(frame)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(3)
        if title:
            head = QLabel(title)
            head.setStyleSheet("color: palette(placeholder-text); font-size: 10px; letter-spacing: 1px;")
            layout.addWidget(head)
        return frame, layout

    def _build_end_banner(self) -> QWidget:
        self.end_banner, layout = self._frame()
        top = QHBoxLayout()
        self.end_title = QLabel()
        self.end_title.setObjectName("endTitle")
        self.end_title.setStyleSheet("font-size: 20px; font-weight: bold;")
        top.addWidget(self.end_title, 1)
        self.done_button = QPushButton("Done")
        self.done_button.setToolTip("Close this fight's summary")
        self.done_button.clicked.connect(lambda _=False: self.dismiss_end())
        top.addWidget(self.done_button)
        layout.addLayout(top)
        self.end_text = QLabel()
        self.end_text.setWordWrap(True)
        self.end_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.end_text)
        return self.end_banner

    def _build_monster_card(self) -> QWidget:
        self.monster_card, layout = self._frame()
        top = QHBoxLayout()
        self.monster_name = QLabel()
        self.monster_name.setObjectName("monsterName")
        self.monster_name.setStyleSheet("font-size: 17px; font-weight: bold;")
        top.addWidget(self.monster_name, 1)
        self.round_label = QLabel()
        self.round_label.setStyleSheet("font-weight: bold;")
        top.addWidget(self.round_label)
        layout.addLayout(top)
        self.monster_stats = QLabel()
        self.monster_stats.setObjectName("monsterStats")
        self.monster_stats.setStyleSheet("font-size: 14px;")
        self.monster_stats.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.monster_stats)
        hp = QHBoxLayout()
        self.hp_view = PackHpView()
        hp.addWidget(self.hp_view, 1)
        self.hp_text = QLabel()
        self.hp_text.setObjectName("monsterHp")
        hp.addWidget(self.hp_text)
        layout.addLayout(hp)
        self.ability_row = FlowRow(per_line=6)
        layout.addWidget(self.ability_row)
        self.monster_notes = _dim()
        layout.addWidget(self.monster_notes)
        self.reaction_label = QLabel()
        self.reaction_label.setWordWrap(True)
        layout.addWidget(self.reaction_label)
        return self.monster_card

    def _build_hero_box(self) -> QWidget:
        self.hero_box, layout = self._frame()
        top = QHBoxLayout()
        self.hero_name = QLabel()
        self.hero_name.setStyleSheet("font-weight: bold;")
        top.addWidget(self.hero_name)
        self.hero_hp = QProgressBar()
        self.hero_hp.setObjectName("heroHp")
        self.hero_hp.setTextVisible(True)
        self.hero_hp.setMaximumHeight(18)
        top.addWidget(self.hero_hp, 1)
        layout.addLayout(top)
        self.hero_numbers = QLabel()
        self.hero_numbers.setObjectName("heroNumbers")
        layout.addWidget(self.hero_numbers)
        self.def_grid = QGridLayout()
        self.def_grid.setHorizontalSpacing(2)
        self.def_grid.setVerticalSpacing(0)
        self.def_cells: dict[str, tuple[QLabel, QLabel]] = {}
        slots = [s for s in self.rules.slots if s.hit_location is not None]
        for i, slot in enumerate(sorted(slots, key=lambda s: s.hit_location or 0)):
            name = QLabel(f"{slot.hit_location} {LOCATION_SHORT.get(slot.id, slot.name)}")
            name.setAlignment(Qt.AlignmentFlag.AlignCenter)
            name.setStyleSheet("color: palette(placeholder-text); font-size: 10px;")
            value = QLabel()
            value.setAlignment(Qt.AlignmentFlag.AlignCenter)
            value.setObjectName("defCell")
            self.def_grid.addWidget(name, 0, i)
            self.def_grid.addWidget(value, 1, i)
            self.def_cells[slot.id] = (name, value)
        layout.addLayout(self.def_grid)
        self.condition_row = FlowRow(per_line=4)
        layout.addWidget(self.condition_row)
        return self.hero_box

    def _build_steps(self) -> QWidget:
        box = QWidget()
        col = QVBoxLayout(box)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        head = QHBoxLayout()
        label = QLabel("Steps")
        label.setStyleSheet("font-weight: bold;")
        head.addWidget(label)
        head.addStretch(1)
        self.round_picker = QComboBox()
        self.round_picker.setToolTip("Look back at an earlier round")
        self.round_picker.activated.connect(self._pick_round)
        head.addWidget(self.round_picker)
        col.addLayout(head)
        self.steps_scroll = QScrollArea()
        self.steps_scroll.setWidgetResizable(True)
        self.steps_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.steps_body = QWidget()
        self.steps_layout = QVBoxLayout(self.steps_body)
        self.steps_layout.setContentsMargins(4, 4, 4, 4)
        self.steps_layout.setSpacing(4)
        self.steps_layout.addStretch(1)
        self.steps_scroll.setWidget(self.steps_body)
        self.steps_scroll.setMinimumHeight(140)
        self._follow = True
        bar = self.steps_scroll.verticalScrollBar()
        bar.rangeChanged.connect(self._scroll_range)
        bar.sliderPressed.connect(lambda: setattr(self, "_follow", False))
        col.addWidget(self.steps_scroll, 1)
        return box

    def _build_decision_box(self) -> QWidget:
        self.decision_box, layout = self._frame()
        self.decision_box.setObjectName("combatFrame")
        self.prompt_label = QLabel()
        self.prompt_label.setObjectName("prompt")
        self.prompt_label.setWordWrap(True)
        self.prompt_label.setStyleSheet("font-weight: bold;")
        layout.addWidget(self.prompt_label)
        self.choice_area = QVBoxLayout()
        self.choice_area.setSpacing(4)
        layout.addLayout(self.choice_area)
        self.xp_area = QVBoxLayout()
        layout.addLayout(self.xp_area)
        return self.decision_box

    def _build_odds(self) -> QWidget:
        self.odds_box = QWidget()
        column = QVBoxLayout(self.odds_box)
        column.setContentsMargins(2, 0, 2, 0)
        column.setSpacing(0)
        row = QHBoxLayout()
        column.addLayout(row)
        self.hit_odds = QLabel()
        self.hit_odds.setObjectName("hitOdds")
        self.monster_odds = QLabel()
        self.monster_odds.setObjectName("monsterOdds")
        self.win_odds = QLabel()
        self.win_odds.setObjectName("winOdds")
        for label in (self.hit_odds, self.monster_odds, self.win_odds):
            label.setStyleSheet("font-weight: bold;")
        row.addWidget(self.hit_odds)
        row.addWidget(_dim("·"))
        row.addWidget(self.monster_odds)
        row.addStretch(1)
        column.addWidget(self.win_odds)  # its own line: it must never be cut off in a narrow dock
        return self.odds_box

    def _build_actions(self) -> QWidget:
        self.actions_box = QWidget()
        col = QVBoxLayout(self.actions_box)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(4)
        self.buttons: dict[str, QPushButton] = {}
        rows = [QHBoxLayout() for _ in range(3)]
        for row in rows:
            row.setSpacing(4)
            col.addLayout(row)

        def button(name: str, text: str, row: int) -> QPushButton:
            b = QPushButton(text)
            b.setObjectName(name)
            b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self.buttons[name] = b
            rows[row].addWidget(b, 1)
            return b

        button("attack_main", "Attack (A)", 0).clicked.connect(lambda _=False: self.attack("main_weapon"))
        self.main_stat = QComboBox()
        self.main_stat.addItems(["STR", "DEX"])
        self.main_stat.setToolTip("(H,R) weapon: attack as a hand weapon (STR) or a ranged weapon (DEX)")
        rows[0].addWidget(self.main_stat)
        button("attack_off", "Attack with off weapon", 0).clicked.connect(lambda _=False: self.attack("off_weapon"))
        self.off_stat = QComboBox()
        self.off_stat.addItems(["STR", "DEX"])
        self.off_stat.setToolTip(self.main_stat.toolTip())
        rows[0].addWidget(self.off_stat)
        self.change_menu = QMenu(self)
        button("change_weapon", "Change weapon", 1).setMenu(self.change_menu)
        self.cast_menu = QMenu(self)
        button("cast_spell", "Cast spell", 1).setMenu(self.cast_menu)
        self.belt_menu = QMenu(self)
        button("use_belt", "Use belt item", 1).setMenu(self.belt_menu)
        button("escape", "Escape (E)", 2).clicked.connect(lambda _=False: self.send(CombatEscape()))
        button("block_escape", "Block escape", 2).clicked.connect(lambda _=False: self.block_escape())
        button("pass", "Pass", 2).clicked.connect(lambda _=False: self.send(CombatPass()))
        self.bonus_label = QLabel("Spell bonus for casting:")
        self.spell_bonus = QSpinBox()
        self.spell_bonus.setRange(-50, 50)
        self.spell_bonus.setSingleStep(5)
        self.spell_bonus.setToolTip("CAST SPELL – Test: INT (+/- Spell Bonus): the bonus your spell or scroll gives")
        bonus = QHBoxLayout()
        bonus.addStretch(1)
        bonus.addWidget(self.bonus_label)
        bonus.addWidget(self.spell_bonus)
        col.addLayout(bonus)
        return self.actions_box

    def _build_shortcuts(self) -> None:
        def shortcut(key, slot) -> QShortcut:
            s = QShortcut(QKeySequence(key), self)
            s.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            s.activated.connect(slot)
            return s

        self.attack_shortcut = shortcut(Qt.Key.Key_A, lambda: self.attack("main_weapon"))
        self.escape_shortcut = shortcut(Qt.Key.Key_E, lambda: self.send(CombatEscape()))
        self.continue_shortcuts = [
            shortcut(key, self.continue_or_apply) for key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ]
        self.fate_shortcut = shortcut(Qt.Key.Key_F, self.fate_all)

    # ------------------------------------------------------------------ commands
    def _remember_error(self, text: str) -> None:
        if self._sending:
            self.last_error = text

    def send(self, command: Command) -> bool:
        """Send one command; show the engine's reason when it is refused."""
        self.last_error = ""
        self._sending = True
        try:
            ok = self.bridge.send(command)
        finally:
            self._sending = False
        self.error_label.setText("" if ok else self.last_error)
        if not ok:
            self.render()
        return ok

    def _stat_for(self, slot: str) -> str:
        ch = self.campaign.character
        item = weapon_in(ch, slot) if ch is not None else None
        if item is None or len(weapon_stats(item)) < 2:
            return ""
        return (self.main_stat if slot == "main_weapon" else self.off_stat).currentText()

    def attack(self, slot: str) -> bool:
        """Step 2: attack with the weapon in ``slot``."""
        return self.send(CombatAttack(slot=slot, stat=self._stat_for(slot)))  # type: ignore[arg-type]

    def block_escape(self) -> bool:
        ch = self.campaign.character
        slot = "main_weapon" if ch is None or weapon_in(ch, "main_weapon") is not None else "off_weapon"
        return self.send(CombatBlockEscape(slot=slot, stat=self._stat_for(slot)))  # type: ignore[arg-type]

    def continue_fight(self) -> bool:
        return self.send(CombatContinue())

    def continue_or_apply(self) -> bool:
        """Space/Enter: accept the roll, or apply the offsets as set."""
        c = self.combat
        if c is not None and c.waiting == "offset":
            return self.apply_offset()
        return self.continue_fight()

    def fate(self, dice: list[int]) -> bool:
        return self.send(CombatFate(dice=dice))

    def fate_all(self) -> bool:
        """F: spend Fate on every die of the waiting roll (both dice of a d100)."""
        record = self.waiting_roll()
        return self.fate(list(range(len(record.dice))) if record is not None else [0, 1])

    def apply_offset(self) -> bool:
        return self.send(CombatOffset(item=self.offset_item.value(), shield=self.offset_shield.value()))

    def dismiss_end(self) -> None:
        if self.record is not None:
            self._dismissed = self.record.start
        self.render()

    def waiting_roll(self) -> RollRecord | None:
        """The roll the fight waits on: a held roll or its pending test's d100."""
        c = self.combat
        if c is None:
            return None
        if c.waiting == "roll" and c.held is not None:
            return c.held.record
        test = self.waiting_test()
        return test.roll if test is not None else None

    def waiting_test(self) -> PendingTest | None:
        c = self.combat
        if c is None or c.waiting != "test" or c.test is None:
            return None
        return next((d for d in self.campaign.pending if d.id == c.test.decision and isinstance(d, PendingTest)), None)

    def open_start_dialog(self) -> StartFightDialog:
        """The small dialog that starts a fight (Table E, the Giant Snake, a typed monster)."""
        self.start_dialog = StartFightDialog(self, self)
        self.start_dialog.show()
        return self.start_dialog

    # ------------------------------------------------------------------ render
    def changeEvent(self, event) -> None:
        """A new theme: draw again with its colours."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._render_later()

    def _render_later(self) -> None:
        if not self._sending:
            self._later.start()

    def render(self) -> None:
        """Re-read the campaign and show it."""
        self._later.stop()
        campaign, c = self.campaign, self.combat
        ch = campaign.character
        self.record = read_fight(campaign.log, self._titles()) if campaign.log else None
        ended = (
            c is None
            and self.record is not None
            and self.record.end == len(campaign.log)
            and self.record.start != self._dismissed
            and bool(self.record.outcome or self.record.messages)
        )
        active = c is not None and ch is not None
        if self._active is not None and active != self._active:
            self.fight_active_changed.emit(active)
        self._active = active
        if not active and not ended:
            self._render_idle(ch)
            return
        self.pages.setCurrentWidget(self.fight_page)
        self._render_end(ended)
        self.monster_card.setVisible(active)
        self.hero_box.setVisible(ch is not None)
        self.odds_box.setVisible(active)
        self.actions_box.setVisible(active)
        if active:
            assert c is not None and ch is not None
            self._render_monster(c, ch)
            self._compute_odds()
            self._render_odds()
            self._render_actions(c, ch)
        if ch is not None:
            self._render_hero(ch, c)
        self._render_steps()
        self._render_decision(c, ch)

    def _render_idle(self, ch: Character | None) -> None:
        self.pages.setCurrentWidget(self.idle_page)
        if ch is None or ch.dead:
            self.idle_label.setText("No fight.\nCreate a character first: a fight needs a hero.")
        else:
            self.idle_label.setText(
                'No fight in progress.\n\nTo start one, roll Table E in the dice panel and press "Fight", '
                'or use "Start a fight..." below: roll Table E here, meet the Giant Snake of Table G, '
                "or type a monster in from your rulebook."
            )
        self.start_button.setEnabled(ch is not None and not ch.dead and ch.creation is None)
        self.odds = None
        self._odds_key = None

    def _render_end(self, ended: bool) -> None:
        self.end_banner.setVisible(ended)
        if not ended or self.record is None:
            return
        outcome = self.record.outcome or "over"
        if self._announced_end != self.record.start:
            self._announced_end = self.record.start
            self.fight_ended.emit(outcome)
        self.end_title.setText(OUTCOME_TITLES[outcome])
        colour = {"won": "#2e8b57", "died": "#c0392b", "hero_escaped": "#d08a00", "monster_escaped": "#d08a00"}.get(
            outcome, "palette(mid)"
        )
        self.end_banner.setStyleSheet(
            f"QFrame#combatFrame {{ border: 3px solid {colour}; border-radius: 6px; background: palette(base); }}"
        )
        lines = list(self.record.ending)
        rounds = self.record.sections[-1].round
        ch = self.campaign.character
        if ch is not None and not ch.dead:
            maximum = derive(ch, self.rules).max_hp
            lines.append(f"After {rounds} round{'s' if rounds != 1 else ''}: HP {ch.hp} of {maximum}.")
        if outcome == "monster_escaped":
            lines.append("It is marked on the map as escaped.")
        if outcome == "died":
            lines.append("The hero has fallen: create a new character to play on.")
        self.end_text.setText("\n".join(f"• {t}" for t in lines))

    def _render_monster(self, c: CombatState, ch: Character) -> None:
        m: Monster = c.monster
        kind = f"  [{m.type}] {TYPE_NAMES.get(m.type, '')}" if m.type else ""
        self.monster_name.setText(f"{m.name}{kind}")
        self.round_label.setText(f"Round {c.round}" if c.round else "Before the first round")

        def extra(parts: list[tuple[int, str]]) -> str:
            shown = [f"{v:+d} {why}" for v, why in parts if v]
            dim = self.palette().color(QPalette.ColorRole.PlaceholderText).name()  # rich text knows no palette()
            return f" <span style='color: {dim}'>({', '.join(shown)})</span>" if shown else ""

        av = extra([(c.pack_bonus, "Pack"), (c.av_bonus, "reaction"), (c.dark_av, c.dark_spell)])
        dfn = extra([(c.dark_def, c.dark_spell)])
        dmg = extra([(c.dark_dmg, c.dark_spell)])
        loot = f" &nbsp; <b>Loot</b> {m.loot.text}" if m.loot is not None and m.loot.text else ""
        self.monster_stats.setText(
            f"<b>AV</b> {m.av}{av} &nbsp; <b>DEF</b> {m.defence}{dfn} &nbsp; <b>DMG</b> {m.dmg:+d}{dmg}{loot}"
        )
        self.hp_view.set_members(c.hp, m.hp)
        self.hp_view.setMinimumWidth(min(360, self.hp_view.sizeHint().width()))
        self.hp_text.setText(f"HP {m.hp_label([max(0, v) for v in c.hp])} of {m.hp_label()}")
        self.ability_row.set_widgets([_badge(a.name, ability_tip(a, c, ch, self.rules)) for a in m.abilities])
        self.monster_notes.setText("\n".join(m.notes))
        self.monster_notes.setVisible(bool(m.notes))
        bits = []
        if c.reaction is not None:
            bits.append(f"Reaction {c.reaction}: {c.reaction_text}.")
        elif c.reaction_text:
            bits.append(c.reaction_text + ".")
        if c.monster_escaping:
            bits.append("<b>It is trying to escape!</b>")
        if c.frozen:
            bits.append("<b>Frozen</b>: it cannot act this round.")
        if c.queued_spell is not None:
            bits.append(f"{c.queued_spell.name} strikes it at the start of the next round.")
        self.reaction_label.setText(" ".join(bits))
        self.reaction_label.setVisible(bool(bits))

    def _render_hero(self, ch: Character, c: CombatState | None) -> None:
        d = derive(ch, self.rules)
        self.hero_name.setText(ch.name or "Your hero")
        self.hero_hp.setRange(0, max(1, d.max_hp))
        self.hero_hp.setValue(max(0, min(ch.hp, d.max_hp)))
        self.hero_hp.setFormat(f"HP {ch.hp} / {d.max_hp}")
        lives = f"{ch.lives}" + (" + RES" if ch.res else "")
        weapon = weapon_in(ch, "main_weapon") or weapon_in(ch, "off_weapon")
        dmg = d.weapon_dmg.get("main_weapon" if weapon_in(ch, "main_weapon") else "off_weapon", d.dmg)
        weapon_text = f"{weapon.name} ({weapon.weapon_type or 'H'})" if weapon is not None else "no weapon"
        self.hero_numbers.setText(
            f"<b>DMG</b> {dmg:+d} with {weapon_text} &nbsp; <b>DB</b> {d.defence_bonus} &nbsp; "
            f"<b>Fate</b> {ch.fate} &nbsp; <b>Lives</b> {lives}"
        )
        hit = c.monster_hit.slot if c is not None and c.monster_hit is not None and c.monster_hit.slot else ""
        for slot_id, (name, value) in self.def_cells.items():
            value.setText(str(d.defence.get(slot_id, 0)))
            held = ch.equipment.get(slot_id)
            tip = f"{name.text()}: DEF {d.defence.get(slot_id, 0)}" + (f" ({held.name})" if held else " (nothing worn)")
            name.setToolTip(tip)
            value.setToolTip(tip)
            value.setStyleSheet(
                "font-weight: bold; border: 2px solid palette(highlight); border-radius: 4px;"
                if slot_id == hit
                else "font-weight: bold;"
            )
        self.condition_row.set_widgets(self._conditions(ch, c))

    def _conditions(self, ch: Character, c: CombatState | None) -> list[QWidget]:
        out: list[QWidget] = []
        if c is not None:
            for reason, when in ((c.forfeit_attack, "this round"), (c.next_forfeit_attack, "next round")):
                if reason:
                    name = CONDITION_NAMES.get(reason, "Forfeit attack")
                    out.append(_badge(f"{name}: no attack {when}", f"You forfeit your attack {when}: {reason}.", True))
            for reason, when in ((c.no_escape, "this round"), (c.next_no_escape, "next round")):
                if reason:
                    out.append(_badge(f"No escape {when}", f"You cannot escape {when}: {reason}.", True))
            for reason, when in ((c.no_belt, "this round"), (c.next_no_belt, "next round")):
                if reason:
                    out.append(_badge(f"No belt {when}", f"You cannot use your belt {when}: {reason}.", True))
            if c.def_penalty:
                out.append(_badge(f"Frozen: DEF -{c.def_penalty} this round", "AVOID FREEZE failed last round.", True))
            if c.next_def_penalty:
                out.append(_badge(f"Frozen: DEF -{c.next_def_penalty} next round", "AVOID FREEZE failed.", True))
            for boost in c.boosts:
                out.append(_badge(f"{boost.source or 'Brew'}: +{boost.amount} {boost.stat}", "Lasts until used in this fight."))
        if ch.disease:
            out.append(_badge(f"Disease {ch.disease}", "Pips on the disease track: checked when the time track refreshes."))
        if ch.poison:
            out.append(_badge(f"Poison {ch.poison}", "Pips on the poison track: checked when the time track refreshes."))
        return out

    # ------------------------------------------------------------------ odds
    def _compute_odds(self) -> None:
        """Recompute the odds once per change of the game (never on paint)."""
        c = self.combat
        log = self.campaign.log
        key = (
            id(self.campaign),
            len(log),
            log[-1].at if log else "",
            c.round if c else 0,
            c.step if c else "",
            c.waiting if c else "",
        )
        if key == self._odds_key:
            return
        self._odds_key = key
        try:
            self.odds = combat_odds(self.campaign, self.rules)
            self.odds_error = ""
        except ValueError as exc:
            self.odds, self.odds_error = None, str(exc)

    def _render_odds(self) -> None:
        o = self.odds
        if o is None:
            for label in (self.hit_odds, self.monster_odds, self.win_odds):
                label.setText("")
            self.odds_box.setToolTip(self.odds_error)
            return
        weapon = f" ({o.weapon}, {o.stat})" if o.weapon else ""
        self.hit_odds.setText(f"Chance to hit: {round(o.hero_hit_chance * 100)}%")
        self.hit_odds.setToolTip(f"Your attack this round{weapon}.")
        self.monster_odds.setText(f"Monster hits: {round(o.monster_hit_chance * 100)}%")
        self.win_odds.setText(f"Win: {round(o.win * 100)}% · Expected HP lost: {o.expected_hp_lost:.1f}")
        tip = (
            f"From {o.start}, over {o.fights:,} simulated fights:\n"
            f"win {o.win:.0%} · you die {o.lose:.0%} · it escapes {o.monster_escapes:.0%} · a Life or RES used {o.life_used:.0%}\n"
            f"expected HP lost {o.expected_hp_lost:.1f}\n\nThe odds assume:\n" + "\n".join(f"• {a}" for a in o.assumptions)
        )
        for label in (self.hit_odds, self.monster_odds, self.win_odds):
            label.setToolTip((label.toolTip() + "\n\n" if label is self.hit_odds else "") + tip)
        self.odds_box.setToolTip(tip)

    # ------------------------------------------------------------------ actions
    def _render_actions(self, c: CombatState, ch: Character) -> None:
        allowed = available_actions(self.campaign, self.rules)
        main, off = weapon_in(ch, "main_weapon"), weapon_in(ch, "off_weapon")
        self.buttons["attack_main"].setText(f"Attack with {main.name} (A)" if main else "Attack (A)")
        self.buttons["attack_off"].setText(f"Attack with {off.name}" if off else "Attack with off weapon")
        self.main_stat.setVisible(main is not None and len(weapon_stats(main)) > 1)
        self.off_stat.setVisible(off is not None and len(weapon_stats(off)) > 1)
        odds = self.odds
        for name, button in self.buttons.items():
            why = allowed.get(name, "")
            button.setEnabled(not why)
            tip = why
            if not why and name.startswith("attack") and odds is not None and odds.weapon:
                tip = f"Best odds: {odds.weapon} ({odds.stat}), {round(odds.hero_hit_chance * 100)}% to hit."
            button.setToolTip(tip)
        self._fill_change_menu(ch)
        self._fill_cast_menu(ch)
        self._fill_belt_menu(ch)
        scrolls = any(i is not None and i.kind == "scroll" for i in ch.belt)
        spells = any(e is not None for e in ch.spell_book)
        self.bonus_label.setVisible(spells or scrolls)
        self.spell_bonus.setVisible(spells or scrolls)

    def _fill_change_menu(self, ch: Character) -> None:
        menu = self.change_menu
        menu.clear()
        main, off = ch.equipment.get("main_weapon"), ch.equipment.get("off_weapon")
        if main is not None or off is not None:
            menu.addAction("Swap main and off weapons", lambda: self.send(CombatChangeWeapon(swap=True)))
        for index, item in enumerate(ch.backpack):
            if item.kind == "weapon":
                menu.addAction(
                    f"Take {item.name} in your main hand",
                    lambda i=index: self.send(CombatChangeWeapon(backpack_index=i, slot="main_weapon")),
                )
            if item.kind in ("weapon", "shield"):
                menu.addAction(
                    f"Take {item.name} in your off hand",
                    lambda i=index: self.send(CombatChangeWeapon(backpack_index=i, slot="off_weapon")),
                )
        for slot, held in (("main_weapon", main), ("off_weapon", off)):
            if held is not None:
                menu.addAction(f"Put {held.name} in the backpack", lambda s=slot: self.send(CombatChangeWeapon(slot=s)))

    def _fill_cast_menu(self, ch: Character) -> None:
        menu = self.cast_menu
        menu.clear()
        d = derive(ch, self.rules)
        for index, entry in enumerate(ch.spell_book):
            if entry is None:
                continue
            cost = f" ({entry.cost})" if entry.cost else ""
            action = menu.addAction(
                f"{entry.name}{cost}", lambda i=index: self.send(CombatCastSpell(index=i, bonus=self.spell_bonus.value()))
            )
            usable = index < len(d.usable_spells) and d.usable_spells[index]
            action.setEnabled(usable)
            if not usable:
                action.setText(f"{entry.name}{cost} - needs INT {d.spell_thresholds[index]}")
        if menu.isEmpty():
            menu.addAction("Your spell book is empty").setEnabled(False)

    def _fill_belt_menu(self, ch: Character) -> None:
        menu = self.belt_menu
        menu.clear()
        for n, item in enumerate(ch.belt, start=1):
            if item is not None:
                effect = f" - {item.effect}" if item.effect else ""
                menu.addAction(
                    f"{n}. {item.name}{effect}", lambda s=n: self.send(CombatUseBelt(belt_slot=s, bonus=self.spell_bonus.value()))
                )
        if menu.isEmpty():
            menu.addAction("Your belt is empty").setEnabled(False)

    # ------------------------------------------------------------------ steps
    def _pick_round(self, index: int) -> None:
        rounds = [s.round for s in self.record.sections] if self.record else []
        chosen = self.round_picker.itemData(index)
        self._view_round = None if not rounds or chosen == rounds[-1] else chosen
        self._steps_key = None
        self._render_steps()

    def _render_steps(self) -> None:
        record = self.record
        sections = record.sections if record is not None else []
        rounds = [s.round for s in sections]
        if self._view_round not in rounds:
            self._view_round = None
        view = rounds[-1] if self._view_round is None and rounds else self._view_round
        key = (record.start if record else -1, record.end if record else -1, len(record.messages) if record else 0, view)
        if key == self._steps_key:
            return
        self._steps_key = key
        self.round_picker.blockSignals(True)
        self.round_picker.clear()
        for s in sections:
            self.round_picker.addItem(s.title + (" (latest)" if s is sections[-1] else ""), s.round)
        if view is not None:
            self.round_picker.setCurrentIndex(rounds.index(view))
        self.round_picker.blockSignals(False)
        self.round_picker.setVisible(len(sections) > 1)
        steps: list[Step] = []
        for s in sections:
            if s.round == view or (view == 1 and s.round == 0):
                steps += s.steps
        self.shown_steps = steps
        layout = self.steps_layout
        while layout.count() > 1:
            item = layout.takeAt(0)
            w = item.widget()
            if w is not None:
                w.hide()
                w.deleteLater()
        self.step_rows = []
        for step in steps:
            row = self._step_row(step)
            layout.insertWidget(layout.count() - 1, row)
            row.show()
            self.step_rows.append(row)
        self._follow = True  # keep the newest step in view once the list has been laid out

    def _scroll_range(self, _low: int, high: int) -> None:
        if self._follow:
            self.steps_scroll.verticalScrollBar().setValue(high)

    def _step_row(self, step: Step) -> QWidget:
        row = QFrame()
        row.setObjectName("stepRow")
        row.step = step  # type: ignore[attr-defined]
        row.dice_views = []  # type: ignore[attr-defined]
        layout = QHBoxLayout(row)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(8)
        text = QLabel()
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        text.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        row.text_label = text  # type: ignore[attr-defined]
        body = "".join(f"<br>{_html(t)}" for t in step.lines)
        if step.kind == "round":
            row.setStyleSheet("QFrame#stepRow { border-bottom: 1px solid palette(mid); margin-top: 4px; }")
            text.setText(f"<span style='font-size: 13px'><b>{_html(step.title)}</b></span>{body}")
            layout.addWidget(text, 1)
            return row
        if step.rolls:
            dice_col = QVBoxLayout()
            dice_col.setContentsMargins(0, 0, 0, 0)
            dice_col.setSpacing(2)
            for roll in step.rolls:
                view = CompactDice(roll)
                row.dice_views.append(view)  # type: ignore[attr-defined]
                line = QHBoxLayout()
                line.setSpacing(4)
                line.addWidget(view)
                value = QLabel(roll_value(roll))
                value.setStyleSheet("font-weight: bold; font-size: 13px;")
                line.addWidget(value)
                line.addStretch(1)
                dice_col.addLayout(line)
            holder = QWidget()
            holder.setLayout(dice_col)
            holder.setFixedWidth(150)
            layout.addWidget(holder, 0, Qt.AlignmentFlag.AlignTop)
        else:
            spacer = QWidget()
            spacer.setFixedWidth(150 if step.kind != "action" else 0)
            layout.addWidget(spacer)
        title = _html(step.title)
        if step.kind in ("roll", "fate", "action"):
            title = f"<b>{title}</b>"
        if step.kind == "action":
            title = f"▶ {title}"
        text.setText(title + body)
        layout.addWidget(text, 1, Qt.AlignmentFlag.AlignTop)
        return row

    # ------------------------------------------------------------------ decisions
    def _render_decision(self, c: CombatState | None, ch: Character | None) -> None:
        _clear(self.choice_area)
        self.fate_buttons = []
        self.continue_button: QPushButton | None = None
        self.big_dice: BigDice | None = None
        self.aim_buttons: list[QPushButton] = []
        self.loot_buttons: list[QPushButton] = []
        self.offset_item = QSpinBox()
        self.offset_shield = QSpinBox()
        prompt = ""
        if c is not None and ch is not None:
            prompt = self._render_waiting(c, ch)
        self.prompt_label.setText(prompt)
        self.prompt_label.setVisible(bool(prompt))
        self._render_experience()
        self.decision_box.setVisible(bool(prompt) or bool(self.decision_buttons))

    def _row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(4)
        self.choice_area.addLayout(row)
        return row

    def _button(self, row: QHBoxLayout, text: str, slot, tip: str = "") -> QPushButton:
        b = QPushButton(text)
        b.setToolTip(tip)
        b.clicked.connect(lambda _=False: slot())
        row.addWidget(b)
        return b

    def _render_waiting(self, c: CombatState, ch: Character) -> str:
        waiting = c.waiting
        if waiting in ("roll", "test"):
            record = self.waiting_roll()
            test = self.waiting_test()
            if record is None:
                return f"Waiting for {WAIT_TEXT[waiting]}."
            row = self._row()
            self.big_dice = BigDice(record, selectable=True)
            row.addWidget(self.big_dice)
            if test is not None:
                verdict = "SUCCESS" if test.success else "FAILURE"
                what = QLabel(f"<b>{record.natural}</b> against {test.target}: <b>{verdict}</b>")
            else:
                names = die_names(record)
                location = record.dice[names.index("location")].face or 10 if "location" in names else 0
                what = QLabel(f"<b>{roll_value(record, self._where(location) if location else '')}</b>")
            what.setStyleSheet("font-size: 16px;")
            row.addWidget(what)
            row.addStretch(1)
            self.continue_button = self._button(row, "Continue (Space)", self.continue_fight, "Accept the roll and carry on")
            self.continue_button.setDefault(True)
            fate_row = self._row()
            cost = self.rules.fate_cost
            can = ch.fate >= cost
            fate_row.addWidget(QLabel(f"Fate ({ch.fate} left):"))
            names = die_names(record)
            for i, name in enumerate(names):
                self.fate_buttons.append(
                    self._button(
                        fate_row, f"Re-roll {name}", lambda i=i: self.fate([i]), f"Spend {cost} Fate to re-roll the {name} die"
                    )
                )
            if len(names) > 1:
                both = "both" if len(names) == 2 else "all"
                self.fate_buttons.append(
                    self._button(fate_row, f"Re-roll {both} (F)", self.fate_all, f"Spend {cost} Fate to re-roll every die")
                )
                picked = self._button(
                    fate_row,
                    "Re-roll picked",
                    lambda: self.fate(self.big_dice.selected() if self.big_dice else []),
                    "Click dice above to pick them, then re-roll those",
                )
                picked.setEnabled(False)
                self.big_dice.selection_changed.connect(lambda sel, b=picked: b.setEnabled(bool(sel) and can))
                self.fate_buttons.append(picked)
            fate_row.addStretch(1)
            for b in self.fate_buttons[: len(names) + (1 if len(names) > 1 else 0)]:
                b.setEnabled(can)
            purpose = (test.spec.name or test.spec.label()) if test is not None else record.purpose
            return f"{purpose}: accept the roll, or spend Fate to re-roll dice."
        if waiting == "action":
            return f"Round {c.round}: choose your action."
        if waiting in ("aim", "aim_pick") and c.hero_hit is not None:
            hit = c.hero_hit
            row = self._row()
            if waiting == "aim":
                self.aim_buttons = [
                    self._button(
                        row,
                        f"Keep location {hit.location} ({self._where(hit.location)})",
                        lambda: self.send(CombatPerfectAim(choice="keep")),
                    ),
                    self._button(row, "Re-roll the location once", lambda: self.send(CombatPerfectAim(choice="reroll"))),
                ]
                row.addStretch(1)
                return "Perfect Aim: keep the hit location, or re-roll it once and pick either result."
            first, second = hit.first_location or 0, hit.second_location or 0
            self.aim_buttons = [
                self._button(row, f"First: {first} ({self._where(first)})", lambda: self.send(CombatPerfectAim(choice="first"))),
                self._button(
                    row, f"Second: {second} ({self._where(second)})", lambda: self.send(CombatPerfectAim(choice="second"))
                ),
            ]
            row.addStretch(1)
            return "Perfect Aim: pick the hit location."
        if waiting == "offset" and c.monster_hit is not None:
            mh = c.monster_hit
            form = QFormLayout()
            self.choice_area.addLayout(form)
            if mh.item_max:
                self.offset_item.setRange(0, mh.item_max)
                self.offset_item.setValue(mh.item_max)
                self.offset_item.setSuffix(" damage")
                form.addRow(f"Onto {mh.item_name} (1 repair pip each)", self.offset_item)
            if mh.shield_max:
                self.offset_shield.setRange(0, mh.shield_max)
                self.offset_shield.setValue(max(0, min(mh.shield_max, mh.damage - self.offset_item.value())))
                self.offset_shield.setSuffix(" damage")
                form.addRow(f"Onto {mh.shield_name} (half a pip each)", self.offset_shield)
            row = self._row()
            self.offset_apply = self._button(
                row, "Offset (Space)", self.apply_offset, "Shade the repair pips and take the rest as HP"
            )
            self._button(row, "Take it all as HP", lambda: self.send(CombatOffset()), "Offset nothing")
            row.addStretch(1)
            return f"{mh.damage} damage to your {self._where(mh.location)}: offset some onto your items?"
        if waiting == "loot" and c.monster.loot is not None:
            row = self._row()
            for i, option in enumerate(c.monster.loot.options):
                self.loot_buttons.append(
                    self._button(row, f"Roll {option.text}", lambda i=i: self.send(CombatChooseLoot(option=i)))
                )
            row.addStretch(1)
            return f"Loot {c.monster.loot.text}: choose the table to roll on."
        return f"Waiting for {WAIT_TEXT.get(waiting, waiting)}." if waiting else ""

    def _where(self, location: int) -> str:
        slot = self.rules.slot_at_location(location)
        return slot.name if slot else "?"

    def fight_decisions(self) -> list:
        """Experience pips and choices the fight left (their prompts are in the fight's messages)."""
        if self.record is None:
            return []
        said = set(self.record.messages)
        return [
            d
            for d in self.campaign.pending
            if isinstance(d, ExperienceChoice | TargetChoice | OutcomeChoice) and d.prompt in said
        ]

    def _render_experience(self) -> None:
        _clear(self.xp_area)
        self.decision_buttons = {}
        for decision in self.fight_decisions():
            box = QGroupBox()
            col = QVBoxLayout(box)
            col.setContentsMargins(6, 2, 6, 2)
            prompt = QLabel(decision.prompt)
            prompt.setWordWrap(True)
            col.addWidget(prompt)
            row = QHBoxLayout()
            buttons: list[QPushButton] = []

            def add(text: str, command: Command, into: QHBoxLayout = row, keep: list = buttons) -> None:
                b = QPushButton(text)
                b.clicked.connect(lambda _=False, cmd=command: self.send(cmd))
                into.addWidget(b)
                keep.append(b)

            if isinstance(decision, ExperienceChoice):
                box.setTitle("Experience")
                add(f"1 pip on {decision.characteristic}", AssignExperience(decision=decision.id, choice="characteristic"))
                if decision.skills:
                    first, second = QComboBox(), QComboBox()
                    for combo in (first, second):
                        combo.addItems(decision.skills)
                    second.setCurrentIndex(1 if len(decision.skills) > 1 else 0)
                    row.addWidget(first)
                    row.addWidget(second)
                    b = QPushButton("2 skill pips")
                    b.clicked.connect(
                        lambda _=False, d=decision, a=first, s=second: self.send(
                            AssignExperience(decision=d.id, choice="skills", skills=[a.currentText(), s.currentText()])
                        )
                    )
                    row.addWidget(b)
                    buttons.append(b)
                add("Don't take it", DismissDecision(decision=decision.id))
            elif isinstance(decision, OutcomeChoice):
                box.setTitle("Choose one")
                for i, option in enumerate(decision.outcome.options):
                    add(option.describe(), ChooseOutcome(decision=decision.id, option=i))
            else:
                box.setTitle("Choose which")
                for choice in decision.choices:
                    add(choice, ChooseTarget(decision=decision.id, target=choice))
            row.addStretch(1)
            col.addLayout(row)
            self.xp_area.addWidget(box)
            box.show()
            self.decision_buttons[decision.id] = buttons


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --------------------------------------------------------------------------- starting a fight


class StartFightDialog(QDialog):
    """Start a fight: roll Table E (or give the roll), the Giant Snake, or a monster typed in.

    Every field is checked before anything is sent, with a message that says what to type;
    a refusal from the engine (a Table E row missing from your tables) is shown the same way.
    """

    def __init__(self, panel: CombatPanel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panel = panel
        self.setWindowTitle("Start a fight")
        self.setMinimumWidth(420)
        outer = QVBoxLayout(self)
        self.group = QButtonGroup(self)
        ch = panel.campaign.character
        modifier = ch.quest_encounter_modifier if ch is not None else 0
        self.table_e = QRadioButton(f"Roll Table E (encounter modifier {modifier:+d})")
        self.table_e.setChecked(True)
        self.snake = QRadioButton("The Giant Snake (Table G's snake pit)")
        self.typed = QRadioButton("Type a monster in from your rulebook")
        for i, radio in enumerate((self.table_e, self.snake, self.typed)):
            self.group.addButton(radio, i)
        outer.addWidget(self.table_e)
        rolled = QHBoxLayout()
        rolled.setContentsMargins(24, 0, 0, 0)
        self.use_value = QCheckBox("I rolled it myself:")
        self.table_value = QLineEdit()
        self.table_value.setPlaceholderText("1-100, modifier included")
        self.table_value.setMaximumWidth(160)
        rolled.addWidget(self.use_value)
        rolled.addWidget(self.table_value)
        rolled.addStretch(1)
        outer.addLayout(rolled)
        outer.addWidget(self.snake)
        outer.addWidget(self.typed)
        self.form_box = QWidget()
        form = QFormLayout(self.form_box)
        form.setContentsMargins(24, 0, 0, 0)
        self.name = QLineEdit()
        self.name.setPlaceholderText("Giant Rats")
        self.type = QComboBox()
        self.type.addItem("(none)", "")
        for code, name in TYPE_NAMES.items():
            self.type.addItem(f"[{code}] {name}", code)
        self.av = QLineEdit()
        self.av.setPlaceholderText("25")
        self.defence = QLineEdit()
        self.defence.setPlaceholderText("0")
        self.dmg = QLineEdit()
        self.dmg.setPlaceholderText("-2")
        self.hp = QLineEdit()
        self.hp.setPlaceholderText("3/2/2 (one number per individual)")
        self.loot = QLineEdit()
        self.loot.setPlaceholderText("[K:Table P]")
        self.special = QLineEdit()
        self.special.setPlaceholderText("Disease, Pack")
        for label, widget in (
            ("Name", self.name),
            ("Type", self.type),
            ("AV", self.av),
            ("DEF", self.defence),
            ("DMG", self.dmg),
            ("HP", self.hp),
            ("Loot", self.loot),
            ("Special", self.special),
        ):
            form.addRow(label, widget)
        outer.addWidget(self.form_box)
        self.surprise = QCheckBox("It has SURPRISE (Table F says so): test SURPRISE first")
        outer.addWidget(self.surprise)
        self.fate_windows = QCheckBox("Stop after each roll while I have Fate to spend")
        self.fate_windows.setChecked(True)
        outer.addWidget(self.fate_windows)
        self.message = QLabel()
        self.message.setObjectName("startError")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("font-weight: bold;")
        outer.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.fight_button = self.buttons.addButton("Fight!", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.try_start)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)
        self.group.idToggled.connect(lambda _id, _on: self._sync())
        self.use_value.toggled.connect(lambda _on: self._sync())
        self._sync()

    def _sync(self) -> None:
        self.form_box.setEnabled(self.typed.isChecked())
        self.use_value.setEnabled(self.table_e.isChecked())
        self.table_value.setEnabled(self.table_e.isChecked() and self.use_value.isChecked())

    @staticmethod
    def _number(text: str, what: str, default: int | None = None, lo: int = -100, hi: int = 100) -> int:
        text = text.strip().replace("−", "-").replace("–", "-")
        if not text and default is not None:
            return default
        if not re.fullmatch(r"[+-]?\d+", text):
            example = "25" if what == "AV" else "-2 or +1"
            raise ValueError(
                f"{what} must be a whole number, like {example}" + (" (it is required)." if not text else f", not {text!r}.")
            )
        value = int(text)
        if not lo <= value <= hi:
            raise ValueError(f"{what} must be between {lo} and {hi}.")
        return value

    def command(self) -> StartCombat:
        """The StartCombat the form describes; ValueError with a message for the player if it cannot."""
        common = {"surprise": self.surprise.isChecked(), "fate_windows": self.fate_windows.isChecked()}
        if self.snake.isChecked():
            return StartCombat(source="snake", **common)
        if self.table_e.isChecked():
            value = None
            if self.use_value.isChecked():
                value = self._number(self.table_value.text(), "The Table E roll", None, 1, 100)
            return StartCombat(source="table_e", table_value=value, **common)
        name = self.name.text().strip()
        if not name:
            raise ValueError("Give the monster a name.")
        av = self._number(self.av.text(), "AV", None, 1, 100)
        defence = self._number(self.defence.text(), "DEF", 0, 0, 50)
        dmg = self._number(self.dmg.text(), "DMG", 0, -20, 20)
        try:
            parse_hp(self.hp.text().strip())
        except ValueError as exc:
            raise ValueError(str(exc)[0].upper() + str(exc)[1:] + ".") from None
        loot = self.loot.text().strip()
        if loot and parse_loot(loot) is None:
            raise ValueError(f"Loot reads like [K:Table P] or [K:Table P +10 / Table I]; {loot!r} names no table.")
        _abilities, unknown = parse_abilities(self.special.text())
        if unknown:
            raise ValueError(
                f"Special: {', '.join(unknown)} is not a Monster Ability. The abilities are: Attacks N, Dark Magic, "
                "Death Touch, Disease, Ethereal, Fear, Fire, Fly, Freeze, Large, Pack, Phase, Poison, Resurrection, "
                "Regenerate, Stunned, Surprise, Tough, Web."
            )
        monster = typed_monster(
            name, av, self.hp.text().strip(), defence, dmg, loot, self.special.text(), self.type.currentData()
        )
        return StartCombat(source="monster", monster=monster, **common)

    def try_start(self) -> bool:
        """Check the form, send start_combat, close on success; otherwise say why and stay open."""
        try:
            command = self.command()
        except ValueError as exc:
            self.message.setText(str(exc))
            return False
        if not self.panel.send(command):
            self.message.setText(self.panel.last_error)
            return False
        self.message.setText("")
        self.accept()
        return True
