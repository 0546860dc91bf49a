"""Simulated players as an input source of the deciding process
(controller/box/bots.py): they say at once how far they have delivered, so
the box never decides past a bot's press whose moment came but that their
thread has not handed over yet (a late wake-up on a loaded machine), and
what they hand over is stamped on the box clock as a station's edge is."""

from __future__ import annotations

from controller.box.bots import BotsSource
from controller.box.runtime import Box
from games.registry import get


def test_the_bots_say_they_delivered_only_up_to_their_first_press_not_handed_over() -> None:
    spec = get("reaction")
    box = Box(spec, spec.settings(3, 4))
    box.time_offset_us = -1_000_000  # the box clock runs 1 s ahead of the game's
    now = [0]
    bots = BotsSource(box, clock=lambda: now[0])
    session = bots.session
    session.observe([], 0)
    first = session.next_input_us()
    assert first is not None, "the bots planned nothing: the test proves nothing"
    at_box = first - box.time_offset_us
    now[0] = at_box + 50_000  # its moment came and went: the thread has not woken yet
    assert bots.delivered_until_us(now[0]) == at_box - 1
    assert bots.delivered_until_us(at_box - 10) == at_box - 10  # asked about before it: all delivered
    session.deliver(now[0] + box.time_offset_us)  # its thread's turn (in game time)
    _kind, handed, _precision, _slack = box.inbox.get_nowait()
    assert handed.t_us == at_box  # stamped on the box clock, as a station's edge is
    later = session.next_input_us()
    assert bots.delivered_until_us(now[0]) == (now[0] if later is None or later - box.time_offset_us > now[0]
                                                else later - box.time_offset_us - 1)
    bots.stop()
    assert bots.delivered_until_us(now[0]) == now[0]  # stopped: nothing more will come
