"""dice."""
