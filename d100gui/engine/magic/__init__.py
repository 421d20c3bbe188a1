"""Magic outside the fight's round: the spell book, casting, Table C curses and Table B boosts.

* :mod:`.book` — positions, thresholds, learning and removing spells (spells from Table S).
* :mod:`.casting` — the cost, the CAST SPELL test and what a spell does outside a fight.
* :mod:`.curses`, :mod:`.boosts` — Table C and Table B applied in full, for every package to call.
* :mod:`.sheet_effects` — the few sheet changes those tables print.
* :mod:`.events` — every event kind; :mod:`.commands` — ``MAGIC_COMMANDS``.
"""
