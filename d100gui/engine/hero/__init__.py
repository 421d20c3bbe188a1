"""The hero: the character sheet, its rules, and the commands that change it.

* :mod:`.model` — the sheet as data (:class:`~.model.Character`, :class:`~.model.Item`, ...).
* :mod:`.derive` — every derived value; :mod:`.invariants` — the rules a sheet must keep.
* :mod:`.experience`, :mod:`.time_track`, :mod:`.equipment` — experience tracks, the time
  track, equipping and Belt Checks, as pure functions over the models.
* :mod:`.item_rows` — items read from printed table rows.
* :mod:`.decisions` — the pending decisions left to the player.
* :mod:`.events` — every event kind the hero emits, with its typed payload.
* :mod:`.guards` — :func:`~.guards.refuse` and :func:`~.guards.living_character`.
* Commands: :mod:`.creation`, :mod:`.sheet_edits` (hand corrections). :mod:`.skill_test` holds a
  test's target and its roll settled; the skill tests' commands (:mod:`d100gui.engine.skill_test_commands`,
  over the effects interpreter) and the item commands (:mod:`d100gui.engine.item_commands`, which name the
  adventure's turn; ``CHARACTER_COMMANDS``) stand on floors above.
* :mod:`.queries` — the small questions the hero widgets ask.
* :mod:`.health` — HP at 0 or less anywhere: RES, then a Life, else the hall of the fallen.
* :mod:`.fallen` — whether the campaign's hero has died, and how and when (the read-only mark).
"""
