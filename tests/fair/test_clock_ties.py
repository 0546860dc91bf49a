"""Presses stamped by one clock are compared at that clock's precision; the
error of mapping a board's clock onto the box timeline counts only between
clocks (issue 21). Through the board protocol session, the quiz's arbiter, the
journal and its replay."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from controller.box import journal
from controller.box.journal import JournalWriter
from controller.box.press import Press
from controller.box.runtime import Box, box_from_journal
from controller.box.sources.board import BoardSession
from firmware.buzzer.proto import frame
from games import registry
from games.arbitration import Buzz, rank_by_stamp

BOOT = "0000000b"
RTT_US = 1_000  # a slow USB round trip: the board read its clock somewhere inside it


def synced_session() -> BoardSession:
    """A board session whose clock mapping is worth about ±500 µs (1 ms round trips)."""
    s = BoardSession({0: (0, "bell"), 1: (1, "bell")})
    s.opened(0)
    s.receive(frame(f"H v=2 fw=x boot={BOOT} w=0 t=0 s=0 a=0 in=0-19 sr=- lights=- hb=250000 cap=256 "
                    "db=1/1/2 cap_kind=pio pd=2 held=-"), 0)
    s.receive(frame("K from=1 lost=0"), 0)
    for rid in range(1, 5):  # the sync burst: each reply 1 ms after its request
        s.receive(frame(f"C r={rid} b={BOOT} w=0 t={RTT_US // 2}"), RTT_US)
    assert s.connected
    return s


def board_press(s: BoardSession, seq: int, channel: int, ticks: int) -> Press:
    [press] = s.receive(frame(f"P {seq} b={BOOT} c={channel} w=0 t={ticks} n=1 p=2"), 200_000)
    assert isinstance(press, Press)
    return press


@pytest.fixture
def quiz_box(tmp_path) -> Iterator[Box]:
    """An armed quiz journaling to q.jsonl; its journal (and writer threads) closed after the test."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2), latency_guard_us=2_000)
    box.journal = JournalWriter.create(tmp_path / "q.jsonl", box.header(mode="play"))
    box.host("arm", 0)
    yield box
    box.journal.close()


def outcome(box: Box, *presses: Press) -> tuple[str, object]:
    for p in presses:
        box.press(p)
    events = []
    for now in range(150_000, 300_000, 1_000):
        events += box.step(now)
    decided = [e for e in events if e.kind in ("winner", "tie")]
    assert decided, [e.kind for e in events]
    e = decided[0]
    return e.kind, e.player if e.kind == "winner" else e.data["stations"]


def test_two_presses_5_us_apart_on_one_board_are_ordered_despite_a_500_us_mapping_error(tmp_path, quiz_box):
    s = synced_session()
    a, b = board_press(s, 1, 1, 100_000), board_press(s, 2, 0, 100_005)  # station 1 first, by 5 µs
    assert b.t_us - a.t_us == 5
    assert min(a.precision_us, b.precision_us) >= RTT_US // 2  # against another clock: the mapping error
    assert a.clock == b.clock and a.clock.startswith(f"board:{BOOT}/") and a.clock_precision_us == 2
    box = quiz_box
    assert outcome(box, b, a) == ("winner", 1)  # delivered in either order: the stamp decides
    box.journal.close()
    replayed = box_from_journal(journal.read(tmp_path / "q.jsonl"))
    assert replayed.summary() == box.summary()
    assert [(e.kind, e.player) for e in replayed.event_log if e.kind in ("winner", "tie")] == [("winner", 1)]


def test_a_board_press_and_a_gpio_press_5_us_apart_tie(quiz_box):
    s = synced_session()
    board = board_press(s, 1, 1, 100_000)
    gpio = Press(0, "bell", board.t_us + 5, 1)  # a kernel stamp on the box timeline itself
    assert outcome(quiz_box, board, gpio) == ("tie", [0, 1])


def test_presses_mapped_by_two_clock_fits_are_compared_with_the_mapping_error():
    """The fit moves with every clock reply: the two stamps then differ by how it moved
    too, so only the mapping error bounds their order."""
    s = synced_session()
    a = board_press(s, 1, 1, 100_000)
    s._request_clock(150_000)
    s.receive(frame(f"C r=5 b={BOOT} w=0 t={150_000 - 500 + 40}"), 151_000)  # the fit moves by ~40 µs
    b = board_press(s, 2, 0, 100_005)
    assert a.clock != b.clock
    groups = rank_by_stamp([Buzz(1, a.stamp), Buzz(0, b.stamp)])
    assert len(groups) == 1  # a tie: honest


def test_a_journal_without_clock_fields_still_replays_and_ties_as_it_did(tmp_path, quiz_box):
    """Journals written before presses carried their clock: read, replayed, and the
    board presses compared at the precision they recorded (a tie at 5 µs)."""
    s = synced_session()
    a, b = board_press(s, 1, 1, 100_000), board_press(s, 2, 0, 100_005)
    box = quiz_box
    # what a box before this change journaled: the same presses without their clock
    assert outcome(box, *(dataclasses.replace(p, clock="", clock_precision_us=0) for p in (a, b)))[0] == "tie"
    box.journal.close()
    text = (tmp_path / "q.jsonl").read_text()
    assert '"clock' not in text
    replayed = box_from_journal(journal.read(tmp_path / "q.jsonl"))
    assert [e.kind for e in replayed.event_log if e.kind in ("winner", "tie")] == ["tie"]
