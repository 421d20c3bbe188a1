"""Qt widgets. They show engine state and send commands; no rules live here."""
