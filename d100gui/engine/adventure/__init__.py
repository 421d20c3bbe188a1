"""The adventure: quests and the time track's procedure, as pure functions over models plus thin commands.

* :mod:`.model` — :class:`~.model.AdventureRules` (the procedure's numbers), the quest models
  and :class:`~.model.AdventureState` (what a campaign keeps between commands).
* :mod:`.time` — ``+N`` on the time track, each clock's triggers fired in order.
* :mod:`.quests` — Dungeon Training in order, Table Q by REP, completing and failing a quest.
* :mod:`.events` — every event kind the adventure emits, with its typed payload.
* :mod:`.commands` — the commands (``ADVENTURE_COMMANDS``).
"""
