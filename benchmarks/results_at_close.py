"""What writing a quiz's results beside its journal costs at the game's close:
from the record its deciding process folded as it decided the game
(``controller.box.results.quiz.Recorder``: what a close does now, a stop's
too) against the journal replayed whole (what ``play`` and the menu did
after the game, and skipped at a stop because it was slow).

    .venv/bin/python benchmarks/results_at_close.py [--questions 400] [--players 8]

The quiz is played by its bots in virtual time with a live box's bounded
logs. The fold's cost grows with the questions and presses on record, the
replay's with every record of the journal (a real evening has many more
records per question than the bots make). Last line:
``RESULT questions=... journal_lines=... fold_write_ms=... replay_write_ms=...``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.box.journal import JournalWriter  # noqa: E402
from controller.box.results.quiz import Recorder, write_replayed  # noqa: E402
from controller.box.runtime import LIVE_LOG_LIMIT, Box  # noqa: E402
from controller.box.simulate import Session  # noqa: E402
from games import registry  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=400)
    parser.add_argument("--players", type=int, default=8)
    args = parser.parse_args()
    spec = registry.get("quiz")
    settings = spec.settings(args.players, 5, **{**spec.demo_options, "questions": args.questions})
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.jsonl"
        box = Box(spec, settings)
        box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
        recorder = Recorder.of(box, whole=True)
        assert recorder is not None
        box.bound_logs(LIVE_LOG_LIMIT)  # as a live box keeps them
        session = Session(box, spec.new_bots(settings), spec.new_host(settings), settings.seed)
        session.run_virtual()
        box.end(session.now_us)
        with path.open(encoding="utf-8") as f:
            lines = sum(1 for _line in f)
        started = time.perf_counter()
        recorder.write(box, path)
        fold_s = time.perf_counter() - started
        started = time.perf_counter()
        write_replayed(path)
        replay_s = time.perf_counter() - started
    print(f"RESULT questions={args.questions} journal_lines={lines} fold_write_ms={fold_s * 1000:.0f} "
          f"replay_write_ms={replay_s * 1000:.0f}")


if __name__ == "__main__":
    main()
