"""The classic texts' treasure and magic procedures as tools (no Qt, no files).

Pure functions over typed result models, every roll through the injectable
:class:`~d100gui.engine.dice.roller.TableRoller` (and its :class:`~d100gui.engine.dice.dice.Dice`),
every table read from the library handed in:

* :mod:`.swords`: a complete sword (alignment, intelligence, powers, languages, egoism) and
  the ego contest between sword and wielder;
* :mod:`.magic`: the magic item generator (magic or map, class, item; maps, scrolls, potions);
* :mod:`.treasure`: gems with their step-up, jewelry, and the treasure hoard by dungeon level;
* :mod:`.monsters`: the wandering monster by dungeon level.
"""
