"""Quiz buzzer: the box's own mode for bars, clubs and classrooms."""

from games.quiz.bots import new_bots, new_host
from games.quiz.buttons import map_press
from games.quiz.engine import QuizEngine
from games.registry import GameSpec

SPEC = GameSpec(
    name="quiz",
    title="Quiz buzzer",
    min_players=2,
    max_players=16,
    new_engine=QuizEngine,
    button_map=map_press,
    new_bots=new_bots,
    new_host=new_host,
    scene="games.quiz.scene:QuizScene",
    default_options={},
    demo_options={"buzz_window_us": 8_000_000, "answer_time_us": 6_000_000, "questions": 12},
)
