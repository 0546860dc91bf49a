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


def between(n: int) -> p.Between:
    """The stations' n-th strip between games, with one press of its own."""
    from controller.box.press import Press

    return p.Between([{"name": "Red", "label": str(n)}], (Press(n % 4, "bell", n, n),))


def test_a_menu_that_does_not_read_between_games_gets_the_newest_strip_and_presses() -> None:
    """Between games the menu does not read while a bots game or a results
    screen runs: the stations' updates wait as one (the newest strip, the
    presses made meanwhile: the newest ``EVENTS_KEPT``, the older counted;
    the menu takes none made before it is shown again), not a pile whose
    oldest (the newest strip's predecessors, or a game's ``Ended``) were
    dropped uncounted."""
    from controller.box.process import Link

    viewer = StuckViewer()
    link = Link.__new__(Link)  # its outbox and its merge, without a channel's reader
    link.outbox, link.dropped_presses = Outbox(viewer, "the menu"), 0  # type: ignore[arg-type]
    link.send(between(0))
    assert viewer.writing.wait(DEADLINE_S)  # the first is being written: the menu holds it
    for n in range(1, 2_000):
        link.send(between(n))
    viewer.go.set()
    link.outbox.close(DEADLINE_S)
    sent = [m for m in viewer.sent if isinstance(m, p.Between)]
    assert len(sent) == 2 and sent[-1].strip == between(1_999).strip  # the newest strip
    got = [x.t_us for x in sent[-1].presses]
    assert got == list(range(2_000 - channel.EVENTS_KEPT, 2_000))  # the newest presses, in order ...
    assert link.dropped_presses == 1_999 - channel.EVENTS_KEPT  # ... the older ones counted
    assert link.outbox.dropped_messages == 0


def test_messages_a_viewer_is_too_far_behind_on_are_counted_and_said(caplog: Any) -> None:
    """Past ``EVENTS_KEPT`` waiting, the oldest are dropped: counted, and the log says how many."""
    import logging

    viewer = StuckViewer()
    outbox = Outbox(viewer, "the menu")  # type: ignore[arg-type]
    outbox.put(p.Stop("menu"))
    assert viewer.writing.wait(DEADLINE_S)
    for n in range(channel.EVENTS_KEPT + 10):
        outbox.put(p.Shown(n))
    with caplog.at_level(logging.WARNING, logger="buzzerbox.channel"):
        viewer.go.set()
        outbox.close(DEADLINE_S)
    shown = [m.t_us for m in viewer.sent if isinstance(m, p.Shown)]
    assert shown == list(range(10, channel.EVENTS_KEPT + 10)) and outbox.dropped_messages == 10
    assert any("10 messages" in r.getMessage() for r in caplog.records), caplog.records


def test_a_view_that_cannot_be_encoded_is_dropped_alone_and_the_games_end_behind_it_still_goes(caplog: Any) -> None:
    """The game's last view holds what JSON cannot say, and the game's ``Ended`` waits behind it in
    the same write: the view alone is dropped (said in the log), the ``Ended`` is written. The
    outbox used to take the view's failure for the viewer going away (said at INFO only) and drop
    everything queued behind it: ``play`` never heard the records the disk refused and exited 0."""
    import logging

    viewer = StuckViewer()
    outbox = Outbox(viewer, "screen")  # type: ignore[arg-type]
    outbox.put(p.Stop("menu"))
    assert viewer.writing.wait(DEADLINE_S)  # what follows waits, then goes in one write
    outbox.publish(view(1, public={"clock": object()}), [])
    outbox.put(p.Ended(p.EndReason.STOPPED, unsaved=4))
    with caplog.at_level(logging.WARNING, logger="buzzerbox.channel"):
        viewer.go.set()
        assert outbox.close(DEADLINE_S)
    assert [type(m) for m in viewer.sent] == [p.Stop, p.Ended] and viewer.sent[-1].unsaved == 4  # type: ignore[attr-defined]
    assert outbox.unsendable == 1 and not outbox.dropped_messages
    assert any("view message could not be encoded" in r.getMessage() for r in caplog.records), caplog.records


def test_a_message_whose_encoding_breaks_does_not_end_the_outbox(monkeypatch: Any) -> None:
    """Encoding a view on the outbox's thread, outside the box's lock, can break in a way no
    codec foresaw (a mapping changed under it: a RuntimeError): that view is dropped and the
    outbox goes on. Its thread used to die of it, the ``Ended`` behind it unsent."""
    encode = channel.encode

    def breaking(message: p.Message) -> bytes:
        if isinstance(message, p.View) and message.version == 1:
            raise RuntimeError("dictionary changed size during iteration")
        return encode(message)

    monkeypatch.setattr(channel, "encode", breaking)
    viewer = StuckViewer()
    outbox = Outbox(viewer, "screen")  # type: ignore[arg-type]
    outbox.put(p.Stop("menu"))
    assert viewer.writing.wait(DEADLINE_S)  # the view and the Ended wait, then go in one write
    outbox.publish(view(1), [])
    outbox.put(p.Ended(p.EndReason.STOPPED, unsaved=2))
    viewer.go.set()
    assert outbox.close(DEADLINE_S)
    assert [type(m) for m in viewer.sent] == [p.Stop, p.Ended] and outbox.unsendable == 1


def test_a_close_says_whether_what_was_queued_was_written() -> None:
    """The deciding process's last words (its ``Ended``) go before it exits, or it says they did not:
    ``close`` answers False while the viewer still holds the write, True once it is done."""
    viewer = StuckViewer()
    outbox = Outbox(viewer, "screen")  # type: ignore[arg-type]
    outbox.put(p.Ended(p.EndReason.STOPPED))
    assert viewer.writing.wait(DEADLINE_S)
    assert outbox.close(0) is False
    viewer.go.set()
    assert outbox.close(DEADLINE_S) is True
    assert [type(m) for m in viewer.sent] == [p.Ended]
