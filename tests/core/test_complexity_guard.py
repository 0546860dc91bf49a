"""The box and its games stay simple (#47: every function under cyclomatic
complexity 15, the commands a newcomer reads first among them): the
project's ruff settings (pyproject.toml, C901 at 14 in controller/ and
games/) refuse a function of 15 there, naming it. Checked through ruff
itself on a text given as that file, so the test follows the settings
``ruff check .`` uses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def branching(name: str, complexity: int) -> str:
    """A function of that cyclomatic complexity (one ``if`` and ``elif``s), clean of every other rule."""
    branches = "".join(f"    {'if' if k == 0 else 'elif'} x > {k}:\n        out.append({k})\n"
                       for k in range(complexity - 1))
    return f"def {name}(x: int) -> list[int]:\n    out: list[int] = []\n{branches}    return out\n"


def too_complex(path: str, text: str) -> list[str]:
    """Ruff's C901 lines for ``text`` checked as the file ``path`` with the project's settings."""
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
                           "--stdin-filename", str(ROOT / path), "-"],
                          input=text, capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode in (0, 1), done.stderr
    return [line.split(": ", 1)[1] for line in done.stdout.splitlines() if "C901" in line]


@pytest.mark.parametrize("path", ["controller/apps/menu.py", "controller/apps/play.py", "controller/box/checkpoint.py",
                                  "controller/box/sources/board/session.py", "games/quiz/core.py",
                                  "games/viva_topo/bots.py"])
def test_a_function_of_complexity_15_in_the_box_or_a_game_is_refused_by_name(path: str) -> None:
    assert too_complex(path, branching("cmd_fine", 14)) == []
    assert too_complex(path, branching("cmd_tangled", 15)) == ["C901 `cmd_tangled` is too complex (15 > 14)"]
