"""Both themes pass a contrast check: text against its background at least 4.5:1 (WCAG AA).

Measured on every palette role pair a widget draws text with, on the sheet's own colours (its
dim text, lit badges, section titles and error messages, derived from the palette) and on the
map's inks and papers. A disabled control's text has the documented lower bar
(:data:`~d100gui.ui.common.theme.DISABLED_READABLE`, 3:1). The lowest ratio found is printed
(``pytest -s``) for the report.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette

from d100gui.ui.common.contrast import READABLE, contrast
from d100gui.ui.common.contrast import error_style as dialog_error_style
from d100gui.ui.common.theme import DISABLED_READABLE, palette_for
from d100gui.ui.hero.sheet_parts import error_style, sheet_palette
from d100gui.ui.map.style import MapStyle

R = QPalette.ColorRole
G = QPalette.ColorGroup
THEMES = ("light", "dark")

#: (text role, background role) a widget draws text with
ROLE_PAIRS = [
    (R.WindowText, R.Window),
    (R.Text, R.Base),
    (R.Text, R.AlternateBase),
    (R.ButtonText, R.Button),
    (R.HighlightedText, R.Highlight),
    (R.PlaceholderText, R.Base),
    (R.ToolTipText, R.ToolTipBase),
    (R.Link, R.Base),
    (R.LinkVisited, R.Base),
]
DISABLED_PAIRS = [(R.WindowText, R.Window), (R.Text, R.Base), (R.ButtonText, R.Button)]

found: dict[str, tuple[float, str]] = {}


def measure(what: str, ink: QColor, ground: QColor, bar: float) -> float:
    ratio = contrast(ink, ground)
    kind = "disabled" if bar < READABLE else "text"
    if kind not in found or ratio < found[kind][0]:
        found[kind] = (ratio, what)
    assert ratio >= bar, f"{what}: {ink.name()} on {ground.name()} is {ratio:.2f}:1 (needs {bar}:1)"
    return ratio


@pytest.mark.parametrize("theme", THEMES)
def test_every_palette_role_pair_reads(theme):
    pal = palette_for(theme)
    for group in (G.Active, G.Inactive):
        for ink, ground in ROLE_PAIRS:
            measure(f"{theme} {group.name} {ink.name}/{ground.name}", pal.color(group, ink), pal.color(group, ground), READABLE)


@pytest.mark.parametrize("theme", THEMES)
def test_disabled_text_reads_at_the_lower_bar_and_still_looks_greyed(theme):
    pal = palette_for(theme)
    for ink, ground in DISABLED_PAIRS:
        disabled = pal.color(G.Disabled, ink)
        measure(f"{theme} Disabled {ink.name}/{ground.name}", disabled, pal.color(G.Disabled, ground), DISABLED_READABLE)
        assert disabled != pal.color(G.Active, ink), f"{theme}: disabled {ink.name} looks enabled"


@pytest.mark.parametrize("theme", THEMES)
def test_the_sheets_own_colours_read(theme):
    """The sheet's dim text, lit badges, inverted section titles and error line, as it derives them."""
    pal = palette_for(theme)
    own = sheet_palette(pal)
    window, base = pal.color(R.Window), pal.color(R.Base)
    dim = own.color(G.Active, R.PlaceholderText)
    measure(f"{theme} sheet dim text on window", dim, window, READABLE)
    measure(f"{theme} sheet dim text on base", dim, base, READABLE)
    measure(f"{theme} sheet lit badge", pal.color(R.HighlightedText), own.color(G.Active, R.Highlight), READABLE)
    measure(f"{theme} sheet section title", window, pal.color(R.WindowText), READABLE)
    red = QColor(error_style(pal).split(":")[1].strip(" ;"))
    measure(f"{theme} sheet error message on window", red, window, READABLE)
    measure(f"{theme} sheet error message on base", red, base, READABLE)


def map_looks():
    for dark in (False, True):
        for colour in (True, False):
            yield f"{'dark' if dark else 'light'} {'colour' if colour else 'mono'} screen", MapStyle(colour=colour, dark=dark)
    yield "paper colour", MapStyle().for_paper()
    yield "paper black and white", MapStyle().for_paper(colour=False)


@pytest.mark.parametrize(("look", "style"), list(map_looks()), ids=lambda v: v if isinstance(v, str) else "")
def test_the_maps_words_read_on_its_papers(look, style):
    """Words on the map (ink, door labels, notes) on the paper and every area tint; each colour code on
    the paper and its own area's tint; the ENTRANCE word on the desk."""
    pal = style.palette
    grounds = {"paper": pal.paper, **{f"tint {k}": t for k, t in pal.tints.items()}}
    for name, ink in (("ink", pal.ink), ("label", pal.label), ("note", pal.note)):
        for ground_name, ground in grounds.items():
            measure(f"map {look}: {name} on {ground_name}", ink, ground, READABLE)
    for key, code in pal.codes.items():
        measure(f"map {look}: code {key} on paper", code, pal.paper, READABLE)
        measure(f"map {look}: code {key} on its tint", code, pal.tints.get(key, pal.paper), READABLE)
    measure(f"map {look}: ink on the desk", pal.ink, pal.desk, READABLE)


@pytest.mark.parametrize("theme", THEMES)
def test_the_dialogs_error_red_reads(theme):
    """The red of a refused entry (the dice, missing-row and preferences dialogs), fitted to the theme."""
    pal = palette_for(theme)
    red = QColor(dialog_error_style(pal).split(":")[1].strip(" ;"))
    for ground in (R.Window, R.Base):
        measure(f"{theme} dialog error message on {ground.name}", red, pal.color(ground), READABLE)


def test_zz_report_the_minimum(capsys):
    """Print the lowest ratios measured (measured here too when this test runs alone)."""
    for theme in THEMES:
        test_every_palette_role_pair_reads(theme)
        test_disabled_text_reads_at_the_lower_bar_and_still_looks_greyed(theme)
        test_the_sheets_own_colours_read(theme)
        test_the_dialogs_error_red_reads(theme)
    for look, style in map_looks():
        test_the_maps_words_read_on_its_papers(look, style)
    with capsys.disabled():
        for kind, (ratio, what) in sorted(found.items()):
            print(f"\ncontrast minimum ({kind}): {ratio:.2f}:1 — {what}")
    assert found["text"][0] >= READABLE
