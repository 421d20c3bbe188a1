"""The toolbox: the procedures of the classic rule texts as small tools (no Qt, no files).

Each tool is a set of pure functions over pydantic state models (:mod:`.scars` for the d20
scars combat system, :mod:`.exploration` for the exploration and travel procedure) plus thin
commands in :mod:`.commands`. Every roll goes through the injectable
:class:`~d100gui.engine.dice.dice.Dice`; table data comes from a
:class:`~d100gui.engine.dice.tables.TableLibrary` handed in. Results are typed models with a
one-line ``describe()`` for the log, never sentences to parse.
"""
