"""The chronicle window: a quest's chronicle, or the whole campaign's, to read, export and print (issue 24)."""
