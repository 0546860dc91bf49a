"""Quiz buzzer's engine: the shared core (``games/quiz/core.py``: the round
flow) playing each round in its mode (games/quiz/modes/: classic's buzzer
race, quiz bowl, all-play), chosen once per round as the quiz is made, so a
night may switch modes round by round. The names other modules import from
here stay here (the core's are re-exported).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from games.base import GameSettings, checked_options
from games.quiz.allplay_scoring import ALL_PLAY
from games.quiz.bowl_scoring import BOWL
from games.quiz.core import (  # noqa: F401 (re-exported: the spec, the apps and the tests import them from here)
    HOST_ACTIONS,
    PRESETS,
    ROUND_KEYS,
    ROUND_OPTIONS,
    ROUND_PRESETS,
    TEAM_MOVE,
    UNDO_DEPTH,
    VIEW_RESULTS,
    EndReason,
    ModeClass,
    Phase,
    QuizCore,
    QuizEvent,
    QuizOptions,
    check_rounds,
    most_choices,
    question_record,
)
from games.quiz.modes.allplay import AllPlayMode
from games.quiz.modes.bowl import BowlMode
from games.quiz.modes.classic import ClassicMode
from games.quiz.options import OPTIONS
from games.quiz.teams import MAX_TEAM_NAME  # noqa: F401 (re-exported)


class QuizEngine(QuizCore):
    """Sans-I/O quiz: the core, each round played in its mode (``QuizCore.modes``)."""

    mode_classes: ClassVar[Mapping[str, ModeClass]] = {"classic": ClassicMode, ALL_PLAY: AllPlayMode, BOWL: BowlMode}
    #: the classes the quiz is made of beside its bases: a checkpoint is restored
    #: only by the code that wrote it (``controller.box.runtime.engine_code_mark``)
    code_parts: ClassVar[tuple[type, ...]] = (ClassicMode, AllPlayMode, BowlMode)


class QuizWithPhones(QuizEngine):
    """A quiz with an all-play round: the players' phones may answer it too
    (``legal_moves`` makes the quiz a game with phone seats; a buzzer-only
    quiz stays without, so its host page keeps the cue and the screen no join code)."""

    #: the host's page still reads the question and its answer ahead (``private_view(None)``)
    host_cue_with_seats = True

    def phones_wanted(self) -> bool:
        """Whether a phone still has something to do here, so the big screen
        keeps its join code: an all-play round is played, or the teams are
        still signing up. A team quiz on the buzzers drops the code (and its
        room on the screen) once its first question is armed."""
        return any(r.rules == ALL_PLAY for r in self.round_options) or self.can_change_team()

    def legal_moves(self, seat: int) -> list[dict[str, Any]]:
        """In a team quiz's lobby, the other teams to join; during an open
        all-play question, each choice until the seat's player has locked in
        (the stations come first: a phone is stamped on arrival)."""
        question = self.allplay
        if question is None or self.round.phase != Phase.ALL_PLAY or seat in question.locked:
            return self.team_moves(seat)
        choices = self._question().get("choices") or ()
        return [{"kind": "answer", "args": {"choice": k},
                 "preview": {chr(ord("A") + k): str(choices[k]) if k < len(choices) else ""}}
                for k in range(question.choices)]


def new_quiz_engine(settings: GameSettings) -> QuizEngine:
    """The quiz's engine: with phone seats when a round (or the quiz) plays all-play."""
    checked_options(OPTIONS, settings.options, "quiz")  # before the rules are read here
    rounds = settings.options.get("rounds")
    presets = {settings.options.get("rules")} | {r.get("rules") for r in rounds or () if isinstance(r, dict)}
    if ALL_PLAY in presets:
        return QuizWithPhones(settings)
    engine = QuizEngine(settings)
    return QuizWithPhones(settings) if engine.team_quiz() else engine  # teams sign up on phones
