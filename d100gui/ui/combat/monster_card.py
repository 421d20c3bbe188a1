"""The monster card: name and type, AV/DEF/DMG with this round's bonuses, HP pips, abilities, reaction.

The abilities' names and summaries come from the rules (``Rules.monster_abilities``); the card
adds only what this fight's state says (this round's Pack bonus, the Dark Magic spell, the
hero's test target from :func:`~d100gui.engine.hero.skill_test.preview_test`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from d100gui.engine.combat.abilities import TRACKS
from d100gui.engine.combat.monster import TYPE_NAMES, CombatState, MonsterAbility
from d100gui.engine.combat.printed import TEST_SPECS
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.skill_test import preview_test
from d100gui.engine.rules.model import Rules
from d100gui.ui.combat.widgets import Box, FlowRow, PackHpView, WrapLabel, dim_label
from d100gui.ui.common.theme import scaled_font

#: Abilities that call for a test of the hero: the test's kind in ``TEST_SPECS``.
ABILITY_TESTS = {"fear": "fear", "fire": "fire", "freeze": "freeze", "stunned": "dazed", "surprise": "surprise", "web": "web"}


def _this_fight(ability: MonsterAbility, c: CombatState, ch: Character | None, rules: Rules) -> str:
    """What the state of this fight adds to an ability's summary."""
    aid = ability.id
    if aid in ABILITY_TESTS and ch is not None:
        return f" Your target: {preview_test(ch, rules, TEST_SPECS[ABILITY_TESTS[aid]]).target}."
    track = dict(TRACKS).get(aid)
    if track is not None and ch is not None:
        return f" Your {aid} track: {getattr(ch, aid)} of {getattr(rules.sheet, track)}."
    if aid == "pack" and c.round:
        return f" {c.pack_bonus:+d} this round ({c.living} alive)."
    if aid == "dark_magic" and c.dark_spell:
        return f" This round: {c.dark_spell}."
    if aid == "resurrection" and c.resurrections:
        return f" It has risen {c.resurrections} time(s)."
    if aid == "attacks" and c.monster.attacks > 1:
        return f" {c.monster.attacks} attacks a round."
    return ""


def ability_tip(ability: MonsterAbility, c: CombatState, ch: Character | None, rules: Rules) -> str:
    """What a Monster Ability does (the rules' summary), with the numbers of this hero and this round."""
    known = rules.monster_abilities.get(ability.id)
    summary = known.summary if known is not None and known.summary else ability.text
    return f"{ability.name}: {summary}{_this_fight(ability, c, ch, rules)}"


class MonsterCard(Box):
    """The monster of the fight in progress, re-shown from ``CombatState`` on every change."""

    def __init__(self, rules: Rules, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rules = rules
        top = QHBoxLayout()
        self.monster_name = WrapLabel()  # a long name with its type: two lines in a narrow dock
        self.monster_name.setObjectName("monsterName")
        scaled_font(self.monster_name, 1.3, bold=True)
        top.addWidget(self.monster_name, 1)
        self.round_label = QLabel()
        self.round_label.setStyleSheet("font-weight: bold;")
        top.addWidget(self.round_label)
        self.column.addLayout(top)
        self.monster_stats = WrapLabel()
        self.monster_stats.setObjectName("monsterStats")
        scaled_font(self.monster_stats, 1.05)
        self.monster_stats.setTextFormat(Qt.TextFormat.RichText)
        self.column.addWidget(self.monster_stats)
        hp = QHBoxLayout()
        self.hp_view = PackHpView()
        hp.addWidget(self.hp_view, 1)
        self.hp_text = QLabel()
        self.hp_text.setObjectName("monsterHp")
        hp.addWidget(self.hp_text)
        self.column.addLayout(hp)
        self.ability_row = FlowRow(per_line=6)
        self.column.addWidget(self.ability_row)
        self.monster_notes = dim_label()
        self.column.addWidget(self.monster_notes)
        self.reaction_label = QLabel()
        self.reaction_label.setWordWrap(True)
        self.column.addWidget(self.reaction_label)

    def _extra(self, parts: list[tuple[int, str]]) -> str:
        shown = [f"{v:+d} {why}" for v, why in parts if v]
        dim = self.palette().color(QPalette.ColorRole.PlaceholderText).name()  # rich text knows no palette()
        return f" <span style='color: {dim}'>({', '.join(shown)})</span>" if shown else ""

    def refresh(self, c: CombatState, ch: Character) -> None:
        """Show the monster of ``c`` against hero ``ch``."""
        m = c.monster
        kind = f"  [{m.type}] {TYPE_NAMES.get(m.type, '')}" if m.type else ""
        self.monster_name.setText(f"{m.name}{kind}")
        self.round_label.setText(f"Round {c.round}" if c.round else "Before the first round")
        av = self._extra([(c.pack_bonus, "Pack"), (c.av_bonus, "reaction"), (c.dark_av, c.dark_spell)])
        dfn = self._extra([(c.dark_def, c.dark_spell)])
        dmg = self._extra([(c.dark_dmg, c.dark_spell)])
        loot = f" &nbsp; <b>Loot</b> {m.loot.text}" if m.loot is not None and m.loot.text else ""
        self.monster_stats.setText(
            f"<b>AV</b> {m.av}{av} &nbsp; <b>DEF</b> {m.defence}{dfn} &nbsp; <b>DMG</b> {m.dmg:+d}{dmg}{loot}"
        )
        self.hp_view.set_members(c.hp, m.hp)
        self.hp_view.setMinimumWidth(min(360, self.hp_view.sizeHint().width()))
        self.hp_text.setText(f"HP {m.hp_label([max(0, v) for v in c.hp])} of {m.hp_label()}")
        self.ability_row.set_badges([(a.name, ability_tip(a, c, ch, self.rules), False) for a in m.abilities])
        self.monster_notes.setText("\n".join(m.notes))
        self.monster_notes.setVisible(bool(m.notes))
        self._render_reaction(c)

    def _render_reaction(self, c: CombatState) -> None:
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
