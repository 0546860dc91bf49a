"""The README tells a newcomer how long the whole suite takes on a 2-core
machine and how to run one test, with a test that exists (a renamed test
would leave the line pointing at nothing)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_says_the_suite_s_time_and_runs_one_test_that_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"\d+-\d+ minutes on an idle 2-core\s+machine", text), "the suite's time on 2 cores"
    node = re.search(r"(tests/\S+\.py)::(\w+)", text)
    assert node is not None, "no command for one test"
    path, name = ROOT / node.group(1), node.group(2)
    assert path.is_file() and f"def {name}(" in path.read_text(encoding="utf-8"), node.group(0)
