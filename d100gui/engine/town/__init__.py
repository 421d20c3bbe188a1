"""Between quests: the rulebook's "Before Your Next Quest" phase and Empire Building.

* :mod:`.model` — :class:`~.model.TownState`, the wizard's step and running totals (``Campaign.town``).
* :mod:`.prices` — every price and limit, from the rules and the tables.
* :mod:`.steps` — refresh tracks, the healer, repair, sell, required items, training (pure functions).
* :mod:`.markets` — searching the markets and buying the one item.
* :mod:`.investments` — Table J, pips and shares (the Wilma example), buying and selling shares.
* :mod:`.queries` — what the wizard shows before anything is paid (:func:`~.queries.town_view`).
* :mod:`.events` — every event kind the phase emits; :mod:`.commands` — ``TOWN_COMMANDS``.
"""
