"""The before-next-quest wizard: one small panel per step of the town phase (``engine/town``)."""
