"""The deciding side: the one process that owns inputs, lamps, the journal and
the game; it knows no screen and serves no page (docs/processes.md), so the
other processes import parts of it as a library (docs/architecture.md)."""
