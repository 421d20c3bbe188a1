"""The adventure's widgets: the turn strip above the map, the adventure log dock, and the move router."""
