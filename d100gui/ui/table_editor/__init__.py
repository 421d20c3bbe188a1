"""Tables > Table editor and the choice of how to handle rows the tables lack."""
