"""dungeon."""
