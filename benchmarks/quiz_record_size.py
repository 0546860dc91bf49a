"""What a live quiz's record keeps per question: the deciding process folds
every question (``controller.box.results.quiz.Recorder``) and keeps it
until the close writes the results (the last few as objects, the others
frozen: ``quiz_record.freeze``), so an evening of a question a second
(``benchmarks/live_memory.py``: armed each second) grows by this much an
hour. Synthetic questions (armed, ``--buzzes`` presses, a right answer)
folded by ``QuizNight``; Python's own allocations counted (``tracemalloc``,
after a full collection), not the resident memory. ``--live`` keeps every
question an object (as before the freezing), for the comparison.

    .venv/bin/python benchmarks/quiz_record_size.py [--buzzes 5] [--questions 3600] [--live]

Last line: ``RESULT buzzes=... bytes_per_question=... mib_per_hour_at_one_a_second=...``.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.box.results.quiz import QuizNight  # noqa: E402
from games.base import GameEvent  # noqa: E402


def question(n: int, buzzes: int) -> list[GameEvent]:
    """Question ``n`` asked, armed, pressed ``buzzes`` times by four stations, answered right."""
    t = 10**12 + n * 1_000_000  # stamps as big as a live game's (their ints are kept too)
    out = [GameEvent("question", t, None, {"number": n, "text": "", "category": "", "answer": ""}),
           GameEvent("armed", t + 1, None, {})]
    out += [GameEvent("buzz", t + 1000 + 37 * b + n, b % 4, {}) for b in range(buzzes)]
    return out + [GameEvent("correct", t + 5000 + n, 0, {"points": 10}),
                  GameEvent("round_over", t + 5000 + n, 0, {"result": "correct"}),
                  GameEvent("next", t + 6000 + n, None, {"question": n + 1})]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--buzzes", type=int, default=5, help="presses on record per question")
    parser.add_argument("--questions", type=int, default=3600)
    parser.add_argument("--live", action="store_true", help="keep every question an object (nothing frozen)")
    args = parser.parse_args()
    night = QuizNight(4, None)
    if args.live:
        night.live_questions = args.questions + 2
    night.take(question(1, args.buzzes))
    gc.collect()
    tracemalloc.start()
    for n in range(2, args.questions + 2):
        night.take(question(n, args.buzzes))
    gc.collect()
    kept, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per = kept / args.questions
    print(f"RESULT buzzes={args.buzzes} bytes_per_question={per:.0f} "
          f"mib_per_hour_at_one_a_second={per * 3600 / 2**20:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
