"""Toy games written in English only, as a contributor would write a new game:
the worked example of docs/architecture.md, and the proof that such a game
passes the suite (``pytest --toy-games``, tests/conftest.py)."""

#: the toy games by name -> their package, as ``games/registry.py`` would list them
GAMES = {"hot-potato": "tests.toy.hot_potato", "tally": "tests.toy.tally"}
