"""The roster of heroes and the hall of the fallen: the list, the read-only guard, the fallen banner."""
