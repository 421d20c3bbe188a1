"""Help: the first-run tour of the panels, the searchable help panel and the keyboard shortcut sheet.

Every widget this package points at is found by its ``objectName`` in the window it is given
(:mod:`.lookup`), so it imports no other ui feature folder: the tour and the help topics are
data in ``resources/help/``.
"""
