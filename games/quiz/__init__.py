"""Quiz buzzer: the box's own mode for bars, clubs and classrooms."""

from games.base import GameSpec, Option
from games.i18n import N_
from games.quiz.bots import new_bots, new_host
from games.quiz.buttons import BUTTONS
from games.quiz.engine import QuizEngine

SPEC = GameSpec(
    name="quiz",
    title=N_("Quiz buzzer"),
    min_players=2,
    max_players=16,
    new_engine=QuizEngine,
    buttons=BUTTONS,
    new_bots=new_bots,
    new_host=new_host,
    scene="games.quiz.scene:QuizScene",
    # defaults None: the engine's own (QuizOptions) apply; listed for the menu and the checks
    options={
        "answer_time_us": Option(None, int, low=0, label=N_("Answer timer"),
                                 choices=((None, N_("off")), (10_000_000, N_("10 s")), (20_000_000, N_("20 s")), (30_000_000, N_("30 s")))),
        "questions": Option(None, int, low=0, label=N_("Questions"), choices=((None, N_("until stopped")), (10, "10"), (20, "20"))),
        "teams": Option(None, object, label=N_("Teams"), choices=((None, N_("off")), (2, N_("pairs")))),
    },
    demo_options={"buzz_window_us": 8_000_000, "answer_time_us": 6_000_000, "questions": 12},
    host_keys={"p": "pick"},
    status_labels={"queued": N_("IN LINE")},
    summary=N_("The host asks, the first bell answers: the box decides who pressed first, to the microsecond, "
                "and keeps the others in line. A wrong answer passes the question to the next in line."),
)
