"""The deciding process's outbox to a viewer (controller/channel.py): it
never waits for a slow viewer, the newest view wins, and the phones'
snapshot a dropped view carried rides on the view that replaces it."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

from controller import channel
from controller import protocol as p
from controller.channel import Outbox
from tests.processes import HANG_S

#: bounds a failure only
DEADLINE_S = HANG_S


class StuckViewer:
    """A viewer's socket whose first write waits until the test lets it go."""

    def __init__(self) -> None:
        self.writing = threading.Event()
        self.go = threading.Event()
        self.sent: list[p.Message] = []

    def sendall(self, data: bytes) -> None:
        self.writing.set()
        assert self.go.wait(DEADLINE_S)
        self.sent.append(channel.decode(data[4:]))


def view(version: int, **more: Any) -> p.View:
    return dataclasses.replace(p.NO_VIEW, version=version, **more)


def test_a_stuck_viewer_gets_the_newest_view_with_the_newest_phones_snapshot() -> None:
    viewer = StuckViewer()
    outbox = Outbox(viewer, "test")  # type: ignore[arg-type]
    outbox.publish(view(1, companion={"version": 1}), [])
    assert viewer.writing.wait(DEADLINE_S)  # view 1 is being written: the viewer holds it
    outbox.publish(view(2, companion={"version": 2}), [])  # never waits
    outbox.publish(view(3), [])  # a strip flash: no snapshot of its own
    viewer.go.set()
    outbox.close(DEADLINE_S)
    sent = [m for m in viewer.sent if isinstance(m, p.View)]
    assert [m.version for m in sent] == [1, 3]
    assert sent[1].companion == {"version": 2} and outbox.dropped_views == 1


def test_a_stuck_viewer_gets_the_newest_pages_encoded_once_as_they_are_sent() -> None:
    """The deciding process hands the phones' pages unencoded: those of a
    dropped view ride on the view that replaces it, and only what is sent is encoded."""
    viewer = StuckViewer()
    outbox = Outbox(viewer, "test")  # type: ignore[arg-type]
    encoded: list[int] = []

    def pages(version: int) -> Any:
        return lambda: encoded.append(version) or {"version": version}

    outbox.publish(view(1), [], pages(1))
    assert viewer.writing.wait(DEADLINE_S)  # view 1 is being written: the viewer holds it
    outbox.publish(view(2), [], pages(2))  # never waits
    outbox.publish(view(3), [])  # a strip flash: no pages of its own
    viewer.go.set()
    outbox.close(DEADLINE_S)
    sent = [m for m in viewer.sent if isinstance(m, p.View)]
    assert [(m.version, m.companion) for m in sent] == [(1, {"version": 1}), (3, {"version": 2})]
    assert encoded == [1, 2]


def test_every_input_a_viewer_forwards_crosses_the_channel_whole() -> None:
    """A keyboard press, a phone's move and a notice arrive as they were sent,
    stamps included (a class the channel did not allow, the shared stamp,
    once turned every phone move into "not plain data: refused")."""
    from controller.box.press import Edge, InputNotice, Press
    from games.base import Action, GameEvent

    sent = [p.PressInput(Press(1, "bell", 1_234, precision_us=250, clock="board-1", clock_precision_us=3)),
            p.ActionInput(Action("play", 5_678, player=0, args={"card": 3}, precision_us=2_000)),
            p.EdgeInput(Edge(2, "bell", 0, 9_000), 3), p.NoticeInput(InputNotice(2, "bell", "stuck", 9_500)),
            view(4, events=(GameEvent("winner", 1_300, player=1, data={"margins": {"1": 0}}),))]
    assert [channel.decode(channel.encode(m)[4:]) for m in sent] == sent
