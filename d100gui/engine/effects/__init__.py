"""The effects interpreter: what an outcome's effects do to the campaign, above the features it drives.

* :mod:`.interpreter` — :func:`~.interpreter.apply_outcome`, :func:`~.interpreter.apply_option`,
  :func:`~.interpreter.apply_effect` through ``EFFECT_HANDLERS`` (one small function per effect kind).
* :mod:`.rows` — what a rolled row of each table does when an effect rolls it (``ROW_HANDLERS``: loot,
  a boost, a curse, a feature, a find, a monster offered to combat); the interpreter passes itself in.
* :mod:`.follow_ups` — the notes a row leaves for later and the follow-up rolls they name.
* :mod:`.repairs` — repair pips shaded on a random equipped item.

The adventure's turn, the hero's tests and the town call it; it calls the hero, the dungeon, magic and combat.
"""
