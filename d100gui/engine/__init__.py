"""The rules engine: pure Python, no Qt. Commands in, events out."""
