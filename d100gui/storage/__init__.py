"""Files: where they live, how they are read and written."""
