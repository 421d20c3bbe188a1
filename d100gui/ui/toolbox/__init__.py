"""The Toolbox dock: the classic rule texts' procedures as small tools (forms, clocks, results)."""
