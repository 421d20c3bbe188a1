"""combat."""
