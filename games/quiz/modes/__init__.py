"""The quiz's modes over its shared core (``games/quiz/core.py``): each adds
its own steps to the round flow; ``games/quiz/engine.py`` puts them together.
A night of rounds changes mode between rounds, so one engine holds them all."""
