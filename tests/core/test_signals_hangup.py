"""SIGHUP (an ssh link that dropped) and SIGQUIT at any moment of ``play``:
the same checks as tests/core/test_signals.py, in a file of their own so the
suite's workers share the slow runs."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.core.test_signals import signalled_at_every_moment


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGQUIT], ids=lambda s: signal.Signals(s).name)
def test_a_hangup_or_quit_at_any_moment_ends_play_cleanly(tmp_path: Path, sig: int) -> None:
    signalled_at_every_moment(tmp_path, sig)
