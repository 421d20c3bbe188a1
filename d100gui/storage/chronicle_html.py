"""A quest's chronicle as one self-contained HTML document, from the templates in ``resources/templates/``.

The engine builds the chronicle's data (:mod:`d100gui.engine.chronicle`); this module only lays it
out, with Jinja2 (autoescaped: hero, quest and monster names are the player's text). The page is
self-contained: its CSS is inlined in a ``<style>`` element and each map comes in as a ``data:``
URI, so the file opens anywhere, offline, and links only to its own anchors (the contents page of
the whole campaign). The map images are drawn by whoever calls (the window, with Qt); this module
needs no Qt, so the same HTML serves the window, the exported file, the PDF and the printer.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import jinja2
from markupsafe import Markup

from d100gui.engine.chronicle import (
    FIGHT_OUTCOMES,
    ITEM_CHANGES,
    SPELL_WAYS,
    ChronicleCurse,
    ChronicleItem,
    ChronicleSpell,
    ChronicleTest,
    ChronicleTrigger,
    QuestChronicle,
)
from d100gui.engine.dungeon.tiles import COLOUR_NAMES
from d100gui.storage.resources import resource_dir

#: the widest a map is shown on the page, in CSS pixels (a bigger map is scaled down; the file keeps every pixel)
MAP_WIDTH = 640
#: what an area's resolution was (``area_resolved.outcome``), in a chronicle's words
AREA_OUTCOMES = {
    "proceed": "quiet",
    "mapped": "mapped before",
    "encounter": "encounter",
    "geographic": "geographic feature",
    "objective": "objective",
}
#: how a find was made
FIND_SOURCES = {"search": "searched", "table": "rolled", "stowed": "stowed"}


@dataclass(frozen=True)
class MapImage:
    """A quest's map as an image file's bytes (PNG unless ``mime`` says otherwise) and its size in pixels."""

    data: bytes
    width: int
    height: int
    mime: str = "image/png"

    @property
    def uri(self) -> str:
        """The image inline, as a ``data:`` URI (the page needs no file beside it)."""
        return f"data:{self.mime};base64,{base64.b64encode(self.data).decode('ascii')}"

    @property
    def shown_width(self) -> int:
        return min(self.width, MAP_WIDTH)

    @property
    def shown_height(self) -> int:
        return round(self.height * self.shown_width / self.width) if self.width else self.height


@functools.lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource_dir() / "templates"),
        autoescape=True,  # every name in a chronicle is the player's text
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["trigger_text"] = trigger_text
    env.globals["test_text"] = test_text
    env.globals["spell_text"] = spell_text
    env.globals["curse_text"] = curse_text
    env.globals["item_text"] = item_text
    return env


def _css() -> str:
    return (resource_dir() / "templates" / "chronicle.css").read_text(encoding="utf-8")


def trigger_text(trigger: ChronicleTrigger) -> str:
    """What a time-track trigger did, in words, from its payload's figures."""
    d = trigger.detail
    if trigger.kind == "oil":
        if d.get("spent"):
            return f"Oil: a flask burned ({d.get('oil', '?')} left)."
        return "Oil: none left - in darkness, every characteristic -20 until oil is spent again."
    if trigger.kind == "food":
        if d.get("spent"):
            return f"Food: a ration eaten ({d.get('food', '?')} left)."
        return f"Food: none left - {d.get('hp_lost', 0)} HP lost."
    if trigger.kind == "wandering":
        seen = "a wandering monster appears" if d.get("appeared") else "no wandering monster"
        return f"Wandering monster check (d10 <= {d.get('number', '?')}): {seen}."
    if trigger.kind == "refresh":
        return f"The time track refreshed ({d.get('bonuses_cleared', 0)} bonus(es) ended)."
    name = trigger.kind.capitalize()
    if d.get("hit"):
        return f"{name} check ({d.get('pips', '?')} pips): {d.get('hp_lost', 0)} HP lost, {d.get('pips_after', '?')} pips left."
    return f"{name} check ({d.get('pips', '?')} pips): no harm."


def test_text(test: ChronicleTest) -> str:
    """A test in a few words: its name, the natural roll against the target, and whether it passed."""
    roll = f" {test.natural if test.natural is not None else '?'} vs {test.target}" if test.target is not None else ""
    return f"{test.name}{roll}, {'passed' if test.success else 'failed'}"


def spell_text(spell: ChronicleSpell) -> str:
    """A spell cast or learned, in words."""
    words = f"{spell.spell or 'A spell'} {SPELL_WAYS.get(spell.how, spell.how)}"
    if spell.how in ("book", "scroll", "fight"):
        words += {True: ": it worked", False: ": it failed"}.get(spell.success, "") if spell.success is not None else ""
    return words + "."


def curse_text(curse: ChronicleCurse) -> str:
    """A curse in words: its row (and roll), and what it destroyed."""
    roll = f" (Table C: {curse.roll})" if curse.roll is not None else ""
    lost = f"; destroyed: {', '.join(curse.destroyed)}" if curse.destroyed else ""
    return f"Curse: {curse.curse or 'a curse'}{roll}{lost}."


def item_text(item: ChronicleItem) -> str:
    """An item gained, lost or used, in words."""
    what = item.item or "an item"
    where = f" ({item.where.replace('_', ' ')})" if item.where else ""
    return f"{what[:1].upper()}{what[1:]}{where}: {ITEM_CHANGES.get(item.how, item.how)}."


def turn_notes(chronicle: QuestChronicle) -> dict[int, list[str]]:
    """What happened in each turn (finds, tests, triggers, spells, curses, items, fights), one short line each in log
    order, by turn number."""
    lines: list[tuple[int, int, str]] = []  # (turn, log entry, line)
    # within one action: a search's find, then a test, then the time it took and its triggers, then the fight they start
    for find in chronicle.finds:
        lines.append((find.turn, find.entry, f"Find: {find.what}"))
    for test in chronicle.tests:
        lines.append((test.turn, test.entry, f"Test: {test.name} ({'passed' if test.success else 'failed'})"))
    for trigger in chronicle.triggers:
        lines.append((trigger.turn, trigger.entry, trigger_text(trigger)))
    for spell in chronicle.spells:
        lines.append((spell.turn, spell.entry, f"Spell: {spell_text(spell)}"))
    for curse in chronicle.curses:
        lines.append((curse.turn, curse.entry, curse_text(curse)))
    for item in chronicle.items:
        if item.how != "curse":  # a curse's items are named with the curse
            lines.append((item.turn, item.entry, f"Item: {item_text(item)}"))
    for fight in chronicle.fights:
        lines.append((fight.turn, fight.entry, f"Fight: {fight.monster} ({FIGHT_OUTCOMES.get(fight.outcome, fight.outcome)})"))
    notes: dict[int, list[str]] = {}
    for turn, _entry, line in sorted(lines, key=lambda t: (t[0], t[1])):  # stable: an entry's own order kept
        notes.setdefault(turn, []).append(line)
    return notes


def render(
    quests: Sequence[QuestChronicle],
    title: str,
    maps: Mapping[int, MapImage] | None = None,
    contents: bool = False,
    subtitle: str = "",
) -> str:
    """The chronicles of ``quests`` as one HTML page; ``maps`` by quest index; ``contents`` adds a linked contents list."""
    template = _environment().get_template("chronicle.html")
    return template.render(
        title=title,
        subtitle=subtitle,
        css=Markup(_css()),  # our own file: not escaped
        quests=list(quests),
        maps=dict(maps or {}),
        contents=contents,
        notes={q.index: turn_notes(q) for q in quests},
        colours=COLOUR_NAMES,
        area_outcomes=AREA_OUTCOMES,
        fight_outcomes=FIGHT_OUTCOMES,
        find_sources=FIND_SOURCES,
    )


def render_quest(chronicle: QuestChronicle, hero: str, image: MapImage | None = None) -> str:
    """One quest's chronicle as a page titled after the hero and the quest."""
    title = f"{hero or 'The hero'}: {chronicle.name}"
    return render([chronicle], title, {chronicle.index: image} if image is not None else None)


def render_campaign(chronicles: Sequence[QuestChronicle], hero: str, maps: Mapping[int, MapImage] | None = None) -> str:
    """The whole campaign: a contents page (each quest linked), then every quest's chronicle, each a section."""
    return render(
        chronicles, f"The chronicle of {hero or 'the hero'}", maps, contents=True, subtitle=f"{len(chronicles)} quest(s)"
    )
