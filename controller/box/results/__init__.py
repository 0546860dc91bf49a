"""A game's record to take home, beside its journal (a quiz's results and
standings): folded by the deciding process as it decides the game and
written at its close; ``buzzerbox results`` reads the same from a journal."""
