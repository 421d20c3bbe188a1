"""Combat: monsters, the combat round as pure step functions plus thin commands, the odds.

``monster`` (models and the fight's state) · ``abilities`` (the Monster Abilities as rules,
shared by the round and the odds) · ``printed`` (the combat tests as printed) · ``flow``
(the Fight context, held rolls, tests, the step loop) · ``steps`` · ``attack`` · ``defence``
· ``spells`` · ``rewards`` · ``actions`` · ``commands`` · ``events`` (every kind the fight
emits) · ``odds`` (the simulator) with ``odds_tables`` (its probability tables) · ``offers`` · ``round`` (the names others import).
"""
