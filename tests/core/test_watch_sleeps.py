"""Between an evening's games on real inputs the deciding process watches
the stations with no game. It sleeps until something can change (a source's
delivery wakes it through the link, a debounce decision, a press's flash
ending, the once-a-second refresh, a message, a signal); it used to step every
10 ms, 100 wakes a second all evening with nobody pressing. Run in virtual
time: the link's waits advance a clock the watch reads instead of sleeping."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from controller import channel
from controller import protocol as p
from controller.box import process
from controller.box import profile as profile_mod
from controller.box.monitor import InputMonitor
from controller.box.press import Edge

IDLE_S = 60
PRESS_AT_US = 30_000_000


def test_between_games_the_watch_sleeps_until_something_can_change_and_a_press_still_reaches_the_menu(
        monkeypatch: pytest.MonkeyPatch) -> None:
    profile = profile_mod.load("header-4")
    active = profile.debounce.active_level
    clock = [1_000_000]
    end_us = clock[0] + IDLE_S * 1_000_000
    # a GPIO station's press, each edge delivered (through the relay, as its source's thread does) as it is made
    edges = [Edge(2, "bell", active, PRESS_AT_US), Edge(2, "bell", 1 - active, PRESS_AT_US + 80_000)]
    steps: list[int] = []
    sent: list[p.Message] = []
    look, send, step = process.Link.next, process.Link.send, InputMonitor.step

    def counted(monitor: InputMonitor, now_us: int) -> Any:
        steps.append(now_us)
        return step(monitor, now_us)

    def told(link: process.Link, message: p.Message) -> None:
        sent.append(message)
        send(link, message)

    def virtual(link: process.Link, timeout_s: float | None) -> Any:
        """What waits in the inbox at once; else the wait passes in virtual time, ended
        early by a source's delivery; the menu's next game once the evening idled IDLE_S."""
        if not link.inbox.empty():
            return look(link, 0)
        assert timeout_s is not None, "a watch on real inputs waits for a moment"
        clock[0] += round(timeout_s * 1e6)
        if edges and clock[0] >= edges[0].t_us:
            clock[0] = edges[0].t_us
            link.relay.edge(edges.pop(0), 1)
            return look(link, 0)  # the wake the delivery queued
        if clock[0] >= end_us:
            link.inbox.put(play)
        return False

    monkeypatch.setattr(process, "box_now_us", lambda: clock[0])
    monkeypatch.setattr(process.Link, "next", virtual)
    monkeypatch.setattr(process.Link, "send", told)
    monkeypatch.setattr(InputMonitor, "step", counted)
    play = p.Play("/tmp/game.jsonl", None, "quiz=games.quiz")
    mine, theirs = socket.socketpair()
    link = process.Link(theirs)
    try:
        assert process.between(link, process.Inputs(profile, None, None)) == play
        link.close()
        theirs.close()
        said = list(channel_messages(mine))
    finally:
        link.close()
        mine.close()
        theirs.close()
    assert [(x.station, x.input, x.t_us) for m in said if isinstance(m, p.Between) for x in m.presses] == [
        (2, "bell", PRESS_AT_US)], "the press reached the menu"
    assert len(steps) <= IDLE_S + 10, f"{len(steps)} steps in {IDLE_S} s idle"  # every 10 ms: 6000
    assert steps == sorted(set(steps)), "no step at a moment already stepped"
    assert IDLE_S <= len(sent) <= IDLE_S + 5  # the once-a-second refresh, and the press's strip


def channel_messages(sock: socket.socket) -> Any:
    """What the watch sent the menu, until its end of the channel closed."""
    sock.settimeout(30)
    while (message := channel.receive(sock)) is not None:
        yield message
