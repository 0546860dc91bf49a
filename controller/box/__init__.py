"""The deciding side: the one process that owns inputs, lamps, the journal and
the game; it knows no screen and serves no page (docs/processes.md)."""
