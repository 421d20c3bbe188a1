"""The adventure: quests and the time track's procedure, as pure functions over models plus thin commands.

* :mod:`.quests` — Dungeon Training in order, Table Q by REP, completing and failing a quest.
* :mod:`.turn`, :mod:`.areas`, :mod:`.turn_view` — the guided turn; :mod:`.doors` — Table D.
* :mod:`.commands` — the commands (``ADVENTURE_COMMANDS``); :mod:`.row_commands`, :mod:`.corrections`.

The state these change (``AdventureState``), the time track and the events live one floor
down, in :mod:`d100gui.engine.quest`, so the effects interpreter and magic can reach them.
"""
