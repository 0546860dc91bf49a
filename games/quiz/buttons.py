"""Quiz stations: any input of a station buzzes (the bell is the one players reach for).

The numbered buttons (``a``, ``b`` ... as the wiring profiles name them) also
carry their choice (A, B ...): an all-play round reads it, a buzzer round
ignores it. A 2-button station (``a``, ``b``) answers the first two choices.
"""

from __future__ import annotations

from games.base import ANY, Binding, ButtonMap
from games.quiz.allplay_scoring import CHOICE_INPUTS

_BINDINGS: dict[tuple[str, str], Binding | None] = {(ANY, ANY): ("buzz", {})}
_BINDINGS.update({(ANY, name): ("buzz", {"choice": k}) for k, name in enumerate(CHOICE_INPUTS)})
BUTTONS = ButtonMap(_BINDINGS)
