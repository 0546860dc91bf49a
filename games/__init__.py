"""One package per game: a pure rules engine, its button map, bots and scene."""
