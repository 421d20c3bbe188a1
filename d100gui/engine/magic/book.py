"""The spell book: positions with INT thresholds, filled in order, never swapped.

Rulebook (Spell Caster): spells are added at the first free position and can never swap
positions; a spell the player no longer wants is removed (its position becomes free for the
next spell). A position above the current INT keeps its spell but cannot be cast until INT
reaches it again (the INT 67 -> 55 -> 65 example). Spell Caster is needed to cast from the
book, never to add spells to it.

The spells themselves are Table S (``d100.S``), read through
:mod:`d100gui.engine.combat.spells` (one reader of Table S): :func:`spell_from_table` turns
a Table S name or row into a :class:`~d100gui.engine.hero.model.SpellEntry`.
"""

from __future__ import annotations

from d100gui.engine.combat.spells import SPELL_TABLE, printed_spell, spell_id, table_s
from d100gui.engine.dice.tables import Row, TableLibrary
from d100gui.engine.hero.derive import SPELL_BOOK_STAT, SPELL_CASTER, derive
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character, SpellEntry
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules


class BookPosition(Model):
    """One position of the book as the sheet shows it: its threshold, its spell, whether it can be cast now."""

    index: int  # from 0
    threshold: int  # the INT the position needs
    spell: SpellEntry | None
    in_reach: bool  # the current INT reaches the position (greyed when False)
    castable: bool  # a spell is there, it is in reach and Spell Caster is unlocked
    why_not: str = ""  # why the spell there cannot be cast now ("" when it can, or when empty)


def _book(character: Character, rules: Rules) -> list[SpellEntry | None]:
    size = len(rules.spell_thresholds())
    book = list(character.spell_book)
    return book + [None] * max(0, size - len(book))


def positions(character: Character, rules: Rules) -> list[BookPosition]:
    """Every position of the book with its threshold and whether its spell can be cast now."""
    d = derive(character, rules)
    intel = d.characteristics[SPELL_BOOK_STAT]
    caster = d.abilities.get(SPELL_CASTER, True)
    out: list[BookPosition] = []
    for i, (entry, threshold) in enumerate(zip(_book(character, rules), d.spell_thresholds, strict=False)):
        in_reach = intel >= threshold
        why = ""
        if entry is not None and not caster:
            ability = rules.ability(SPELL_CASTER) if any(a.id == SPELL_CASTER for a in rules.abilities) else None
            need = ability.threshold if ability else threshold
            why = f"Spell Caster is locked until {SPELL_BOOK_STAT} reaches {need}: only scrolls work."
        elif entry is not None and not in_reach:
            why = (
                f"Position {i + 1} needs {SPELL_BOOK_STAT} {threshold} (yours is {intel}): the spell is kept but cannot be cast."
            )
        out.append(
            BookPosition(
                index=i, threshold=threshold, spell=entry, in_reach=in_reach, castable=entry is not None and not why, why_not=why
            )
        )
    return out


def usable(character: Character, rules: Rules) -> list[bool]:
    """Per position: a spell is there and it can be cast now."""
    return [p.castable for p in positions(character, rules)]


def first_free(character: Character, rules: Rules) -> int | None:
    """The first free position (from 0), or None when the book is full."""
    return next((i for i, e in enumerate(_book(character, rules)) if e is None), None)


def learn(character: Character, rules: Rules, entry: SpellEntry) -> int:
    """Write ``entry`` in the first free position (Spell Caster not needed). Returns the position; refused if full."""
    book = _book(character, rules)
    index = first_free(character, rules)
    if index is None:
        refuse(f"The spell book is full ({len(book)} spells): remove a spell to make room for {entry.name}.")
    book[index] = entry
    character.spell_book = book
    return index


def remove(character: Character, rules: Rules, index: int) -> SpellEntry:
    """Remove the spell at ``index`` (from 0); the others keep their positions."""
    book = _book(character, rules)
    if not 0 <= index < len(book) or book[index] is None:
        refuse(f"Spell book position {index + 1} is empty.")
    entry = book[index]
    assert entry is not None
    book[index] = None
    character.spell_book = book
    return entry


def spell_from_table(library: TableLibrary, name: str) -> SpellEntry:
    """The Table S spell called ``name`` (``"Fire Ball"``, ``"FIRE BALL"``) as a book entry; refused if Table S lacks it."""
    sid = spell_id(name)
    if sid:
        printed, effect, cost = printed_spell(library, sid)
        if printed:
            return SpellEntry(name=printed.title(), cost=cost, effect=effect)
    key = "".join(ch for ch in name.upper() if ch.isalpha())
    for printed, effect, cost in table_s(library):
        if "".join(ch for ch in printed.upper() if ch.isalpha()) == key:
            return SpellEntry(name=printed.title(), cost=cost, effect=effect)
    refuse(f"{name!r} is not a spell of {SPELL_TABLE} in your tables.")


def spell_from_row(row: Row) -> SpellEntry:
    """A Table S row as a book entry (a cut-short row keeps what it prints: nothing is invented)."""
    name = row.fields.get("spell", "").strip()
    if not name:
        refuse("That Table S row names no spell.")
    return SpellEntry(name=name.title(), cost=row.fields.get("cost", ""), effect=row.fields.get("effect", ""))
