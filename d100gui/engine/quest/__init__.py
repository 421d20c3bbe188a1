"""The quest's state and the time track: what the adventure keeps between commands, below the turn that drives it.

* :mod:`.model` — :class:`~.model.AdventureRules` (the procedure's numbers), the quest models
  and :class:`~.model.AdventureState` (``Campaign.adventure``).
* :mod:`.time` — ``+N`` on the time track, each clock's triggers fired in order.
* :mod:`.events` — every event kind the adventure emits, with its typed payload.
* :mod:`.access` — what every adventure command starts from: the adventure state, the fight guard, the time track.

The effects interpreter and magic read and change this state; the guided turn and the quest's
commands (:mod:`d100gui.engine.adventure`) sit above them.
"""
