"""``benchmarks/resume.py`` times what the players wait when the deciding
process dies: from the kill to the next one's first view, through ``play``
as it runs by default. Here on a short evening; no figure is asserted (wall
time on a shared machine), only that the measure ran the worst case."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import resume
from controller.box.runtime import Box


def test_the_restart_is_timed_from_the_kill_to_the_next_ones_first_view(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Box, "checkpoint_every", 150)  # a short evening with checkpoints in it
    evening, worst = tmp_path / "evening.jsonl", tmp_path / "worst.jsonl"
    resume.evening(evening, 500, "quiz")
    resume.worst_cut(evening, worst)
    assert worst.read_bytes().count(b'"type":"checkpoint"') >= 1  # records after its newest: replayed
    took, cpu, worst_case, screen = resume.restart_wait(worst, tmp_path, "quiz")
    assert took > 0 and cpu > 0 and worst_case and screen > 0  # the one killed and the next wrote no checkpoint before it showed the game
    resume.worst_cut(evening, worst, every=40)  # a shorter interval's worst case, from the same evening
    lines = worst.read_bytes().splitlines()
    newest = max(k for k, line in enumerate(lines) if b'"type":"checkpoint"' in line)
    assert len(lines) - 1 - newest == 40  # what a resume replays
