"""The screen's main thread takes what the deciding process sends from its
reader's queue (``viewer.taken``) while a stopping signal may raise
KeyboardInterrupt at any bytecode. Raised as the queue's ``with`` block
ends, before its lock is released, it left the lock held: the reader's next
put and the stop's read of the ``Ended`` waited for ever. Raised after the
message was taken, it lost the message (the ``Ended`` the stop waits for).
Each test delivers the signal at that moment on purpose: the lock is free
after, and the message is there for the next look."""

from __future__ import annotations

import queue
import signal
import threading
from typing import Any

import pytest

from controller.screen import viewer
from controller.system import signals


class SignalOnExit(threading.Condition):
    """A queue's condition that gets a SIGTERM as the ``with`` block holding it ends, before it lets go."""

    def __exit__(self, *exc: object) -> None:
        signal.raise_signal(signal.SIGTERM)
        super().__exit__(*exc)


@pytest.fixture
def handled(monkeypatch: pytest.MonkeyPatch) -> Any:
    """This process's stopping signals raise KeyboardInterrupt, as in ``play`` and the menu (restored after)."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers run on the main thread only")
    for name in ("raising", "received", "raised", "held"):
        monkeypatch.setattr(signals._state, name, getattr(signals._state, name))
    with signals.handled():
        yield


@pytest.mark.parametrize("timeout_s", [None, 1.0])
def test_a_signal_as_the_queue_lets_go_leaves_it_free_and_keeps_the_message(handled: Any, timeout_s: float | None) -> None:
    inbox: viewer.Inbox = queue.Queue()
    ended: Any = "the deciding process's Ended"
    inbox.put(ended)
    inbox.not_empty = SignalOnExit(inbox.mutex)
    with pytest.raises(KeyboardInterrupt):
        viewer.taken(inbox, timeout_s)
    assert signals.received() == signal.SIGTERM
    assert not inbox.mutex.locked(), "the queue's lock was left held: every later put or get hangs"
    inbox.not_empty = threading.Condition(inbox.mutex)
    assert viewer.taken(inbox, timeout_s) == ended  # the stop reads it (a later signal is only remembered)
    assert viewer.taken(inbox) is viewer.NOTHING
