"""d100gui: a desktop companion for the solo dungeon crawl D100 Dungeon."""

__version__ = "0.1.0"
