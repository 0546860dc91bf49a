"""The quiz's modes, one class each over the shared core (``games/quiz/core.py``):
``ClassicMode`` (classic.py: the buzzer race, and classic's presets), ``BowlMode``
(bowl.py) and ``AllPlayMode`` (allplay.py). Each round plays one mode, made
once as the quiz is made (``games/quiz/engine.py`` names them): the core calls
its hooks (``core.RoundMode``) where the modes differ."""
