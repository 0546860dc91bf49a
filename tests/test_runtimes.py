"""A missing optional runtime: skipped loudly on a developer's machine, a
failure in CI (BUZZERBOX_REQUIRE_RUNTIMES=1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

NEEDS_ABSENT = '''
import pytest
from tests import runtimes

runtimes.CHECKS["absent"] = lambda: "absent-tool is not installed (apt-get install absent-tool)"

@pytest.mark.runtime("absent")
def test_needs_it():
    pass

def test_plain():
    pass
'''


def run_suite(tmp_path: Path, require: str | None, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_absent.py").write_text(NEEDS_ABSENT)
    (tmp_path / "conftest.py").write_text("from tests.conftest import *  # noqa: F403\n")
    env = {k: v for k, v in os.environ.items() if k != "BUZZERBOX_REQUIRE_RUNTIMES"}
    env["PYTHONPATH"] = str(ROOT)
    if require is not None:
        env["BUZZERBOX_REQUIRE_RUNTIMES"] = require
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), *options, str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)  # a hang guard: a loaded machine took over 60 s


def test_developer_run_skips_and_says_so_at_the_end(tmp_path: Path) -> None:
    proc = run_suite(tmp_path, None)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed, 1 skipped" in proc.stdout
    assert "SKIPPED FOR A MISSING RUNTIME" in proc.stdout
    assert "1 test(s) need absent: absent-tool is not installed (apt-get install absent-tool)" in proc.stdout


def test_ci_run_fails_on_a_missing_runtime(tmp_path: Path) -> None:
    proc = run_suite(tmp_path, "1")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "1 passed, 1 error" in proc.stdout  # setup fails: the test never ran
    assert "test runtime 'absent' missing: absent-tool is not installed" in proc.stdout


def test_the_loud_list_also_comes_from_xdist_workers(tmp_path: Path) -> None:
    """`make test` runs the tests in worker processes: the list is built from their reports."""
    proc = run_suite(tmp_path, None, "-n", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed, 1 skipped" in proc.stdout
    assert "1 test(s) need absent: absent-tool is not installed (apt-get install absent-tool)" in proc.stdout
