"""Journals to damage: a simulated game written in format 2, and what it replays to."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """A CLI command's exit code, stdout and stderr (SystemExit turned into code 1)."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
        out = capsys.readouterr()
        return code, out.out, out.err + (str(exc.code) if not isinstance(exc.code, int) else "")
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="session")
def quiz_journal(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, dict]:
    """A whole 3-player quiz in format 2, and its replayed summary."""
    path = tmp_path_factory.mktemp("quiz") / "q.jsonl"
    assert main(["simulate", "quiz", "--players", "3", "--seed", "2", "--journal", str(path)]) == 0
    from controller.box.journal import load
    from controller.box.runtime import box_from_journal

    return path.read_bytes(), box_from_journal(load(path)).summary()


def lines_of(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def summary_json(out: str) -> dict:
    return json.loads(out)
