"""What a live game's close does with the inputs it took (virtual time, seeded):
every press the box accepted is in the journal before its ``end``, even one
the latency guard still held; a press stamped before this game began (an
input board replaying an earlier boot's buffer) is refused and counted,
never played."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from controller.box import journal as journal_mod
from controller.box import session
from controller.box.press import FUTURE_PRESS, UNTIMED_PRESS, Edge, InputNotice, Press
from controller.box.runtime import Box, box_from_journal
from games.base import Action
from games.registry import get


def started_box(path: Path, players: int = 4) -> Box:
    spec = get("reaction")
    box = session.new_box(spec, spec.settings(players, 3), None, path)
    box.time_offset_us = 0  # virtual time: the game's clock is the stamps given here
    box.session_start_us = 0
    box.latency_guard_us = 50_000  # a raised guard: decisions wait 50 ms for late reports
    return box


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def close(box: Box, now_us: int) -> None:
    """A live game's one close at ``now_us`` (``DecidingGame.close``): its journal's end."""
    box.end(max(now_us, box.now_us))


def test_presses_the_guard_still_held_are_journaled_before_the_end(tmp_path: Path) -> None:
    rng = random.Random(32)
    path = tmp_path / "g.jsonl"
    box = started_box(path)
    t = 1_000_000
    stamps = []
    for _ in range(40):
        t += rng.randrange(2_000, 30_000)
        stamps.append(t)
        box.apply_press(Press(rng.randrange(4), "bell", t))
    box.step(t)  # the newest presses are within the 50 ms guard: taken, not yet decided
    held = sum(1 for s in stamps if s > t - box.latency_guard_us)
    assert held > 0
    journaled_before = sum(r["type"] == "press" for r in records(path) if "type" in r) if path.exists() else 0
    close(box, t + 1)
    written = records(path)
    assert written[-1]["type"] == "end"
    presses = [r for r in written if r["type"] == "press"]
    assert [p["t_us"] for p in presses] == stamps  # every one, in order, before the end
    assert journaled_before <= len(stamps) - held
    # and the game of record (its replay) is the game as it closed
    assert box_from_journal(journal_mod.read(path)).summary()["scores"] == box.summary()["scores"]


def test_a_press_from_before_the_game_began_is_refused_and_counted(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "g.jsonl"
    box = started_box(path)
    box.debouncer.start_all({}, 0)
    # a board's buffer replayed on connect: presses made 5 minutes and 2 s before this game began
    for t_us in (-300_000_000, -2_000_000):
        box.press(Press(1, "bell", t_us, source_event=f"boot1#{t_us}"))
    box.press(Press(2, "bell", 1_000))  # this game's own press
    with caplog.at_level(logging.WARNING, logger="buzzerbox"):
        box.step(200_000)
        close(box, 300_000)
    assert box.stale_presses == 2
    assert box.presses_total == 1
    written = [r for r in records(path) if r["type"] == "press"]
    assert [(p["station"], p["t_us"]) for p in written] == [(2, 1_000)]
    stale = [(r["station"], r["t_us"]) for r in records(path) if r["type"] == "notice" and r["kind"] == "stale"]
    assert stale == [(1, -300_000_000), (1, -2_000_000)]  # the journal keeps them, as refused
    assert box_from_journal(journal_mod.read(path)).summary()["scores"] == box.summary()["scores"]
    said = [r.getMessage() for r in caplog.records]
    assert any("before this game began was refused" in m for m in said), said
    assert any(m.startswith("2 presses stamped before this game began were refused") for m in said), said


def test_board_events_refused_as_from_the_future_or_untimed_are_counted_and_said_at_the_close(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """An input board's driver refuses a press stamped in the box's future, and one of a boot that
    rebooted before its clock was mapped, as notices (it logs the first of a burst): the box counts
    them, journals them, never plays them, and the close says how many, as for stale presses."""
    path = tmp_path / "g.jsonl"
    box = started_box(path)
    box.debouncer.start_all({}, 0)
    for station in (0, 1):
        box.notice(InputNotice(station, "bell", FUTURE_PRESS, 5_000))
    box.notice(InputNotice(3, "bell", UNTIMED_PRESS, 6_000))
    box.press(Press(2, "bell", 1_000))  # this game's own press
    with caplog.at_level(logging.WARNING, logger="buzzerbox"):
        box.step(200_000)
        close(box, 300_000)
    assert (box.future_presses, box.untimed_presses, box.presses_total) == (2, 1, 1)
    refused = [(r["station"], r["kind"]) for r in records(path) if r["type"] == "notice"]
    assert refused == [(0, "future"), (1, "future"), (3, "untimed")]  # the journal keeps them, as refused
    said = [r.getMessage() for r in caplog.records]
    assert any(m.startswith("2 input(s) stamped in the box's future were refused") for m in said), said
    assert any(m.startswith("1 board event(s) of a boot that rebooted") for m in said), said


def test_a_live_box_refuses_an_input_stamped_in_its_future_from_any_source(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A press, an edge or a phone's move stamped seconds past the box's now (a source whose clock is
    wrong, a forwarding peer's bug) cannot have happened yet: the live box refuses each as a ``future``
    notice (journaled, counted, the first logged) and never plays it, so it cannot win a contest later
    with nobody pressing. An input stamped now is played as ever."""
    path = tmp_path / "g.jsonl"
    box = started_box(path)
    box.debouncer.start_all({}, 0)
    clock = [100_000]
    box.measure_report_delay(lambda: clock[0])  # live: the sources' clock is known
    box.press(Press(1, "bell", 5_100_000))  # 5 s ahead
    box.edge(Edge(2, "bell", 0, 5_100_000), 1)
    box.deliver_action(Action("buzz", 5_100_000, 3))
    with caplog.at_level(logging.WARNING, logger="buzzerbox"):
        box.step(100_000)
    assert (box.future_presses, box.presses_total) == (3, 0)
    assert any("stamped in the box's future was refused" in r.getMessage() for r in caplog.records)
    clock[0] = 5_200_000  # the moment they claimed comes and goes: nobody pressed, nobody wins
    box.step(5_200_000)
    assert box.presses_total == 0
    box.press(Press(0, "bell", 5_190_000))  # a real press, on time
    clock[0] = 5_300_000
    box.step(5_300_000)
    assert box.presses_total == 1
    close(box, 5_400_000)
    refused = [(r["station"], r["kind"]) for r in records(path) if r["type"] == "notice"]
    assert refused == [(1, "future"), (2, "future"), (3, "future")]  # the journal keeps them, as refused


def test_a_key_or_a_phones_move_stamped_50_ms_ahead_is_refused_a_boards_press_is_left_to_its_session(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The screen's keyboard and the phones stamp on the box's own clock before they deliver:
    a key or a move 50 ms past now is a wrong clock (or a peer's bug). Each is refused as a
    ``future`` notice (journaled, counted, logged) and never played, even once its moment has
    come. An input board's press is stamped on its own clock, mapped: its session refuses one
    past its mapping's error (sources/board/session.py); 50 ms ahead reaches the game."""
    path = tmp_path / "g.jsonl"
    box = started_box(path)
    box.debouncer.start_all({}, 0)
    clock = [100_000]
    box.measure_report_delay(lambda: clock[0])  # live: the sources' clock is known
    ahead = clock[0] + 50_000
    box.edge(Edge(2, "bell", 0, ahead), 25_000, measured=False)  # a key the screen forwarded
    box.deliver_action(Action("buzz", ahead, 3))  # a phone's move
    box.press(Press(1, "bell", ahead))  # the input board's
    with caplog.at_level(logging.WARNING, logger="buzzerbox"):
        box.step(clock[0])
    assert box.future_presses == 2
    assert any("stamped in the box's future was refused" in r.getMessage() for r in caplog.records)
    clock[0] = 400_000  # their moment came and went
    box.step(clock[0])
    close(box, 500_000)
    written = records(path)
    assert [(r["station"], r["kind"]) for r in written if r["type"] == "notice"] == [(2, "future"), (3, "future")]
    assert [r["station"] for r in written if r["type"] == "press"] == [1]  # only the board's was played
    assert not [r for r in written if r["type"] == "action" and r.get("kind") == "buzz"]


def test_a_resumed_game_refuses_a_press_made_while_it_was_down(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    box = started_box(path)
    box.apply_press(Press(0, "bell", 500_000))
    box.step(600_000)
    assert box.journal is not None
    box.journal.close()  # the power went: no end record
    resumed, journal = session.resumed_box(path)
    assert resumed.session_start_us == journal.last_t_us + session.RESUME_GAP_US
    resumed.press(Press(3, "bell", resumed.session_start_us - 10_000))  # pressed while no game ran
    resumed.step(resumed.session_start_us + 100_000)
    assert resumed.stale_presses == 1
    assert resumed.journal is not None
    resumed.journal.close()


def test_box_end_is_the_one_close_held_presses_first_then_one_end_and_the_file_closed(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    box = started_box(path)
    box.apply_press(Press(1, "bell", 1_000_000))
    box.step(1_010_000)  # within the 50 ms guard: taken, not yet decided
    box.end(1_020_000)
    written = records(path)
    assert [r["type"] for r in written[-2:]] == ["press", "end"] and written[-1]["t_us"] == 1_020_000
    assert box.journal is not None and box.journal.closed
    # no other code writes the end record by hand: every close (play, the menu, the demo, simulate,
    # resume, the league's simulated rooms) goes through Box.end
    root = Path(__file__).resolve().parents[2] / "controller"
    by_hand = [str(p) for p in root.rglob("*.py") if '"type": "end"' in p.read_text(encoding="utf-8")
               and p.name != "runtime.py"]
    assert by_hand == []
