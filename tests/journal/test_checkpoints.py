"""Checkpoints: a restart restores the newest one and replays only what follows,
and gets the very game a full replay gets (every game, bots, virtual time)."""

from __future__ import annotations

import contextlib
import json
import logging
import random
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from controller.box import checkpoint, session
from controller.box.journal import CheckpointRecord, JournalWriter, load
from controller.box.runtime import Box, box_from_journal
from controller.box.simulate import Session
from games import registry
from games.base import GameEvent

from .conftest import run


def journaled_session(tmp_path: Path, game: str, records: int = 400, every: int = 40) -> tuple[Path, Box]:
    """A bot game journaled with a checkpoint every ``every`` records, cut (no end
    record) after about ``records`` records, as a power cut would leave it."""
    spec = registry.get(game)
    settings = spec.settings(3, 7, **spec.demo_options)
    box = Box(spec, settings)
    path = tmp_path / f"{game}-{every}.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    box.checkpoint_every = every
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 7)
    while not box.engine.finished and box.journal.next_seq < records:
        due = session.next_time_us()
        if due is None:
            break
        session.step(max(due, session.now_us))
    box.journal.close()
    return path, box


def continued(box: Box, seconds: int = 90) -> list[GameEvent]:
    """The same bots' further play (seeded), and every event it makes."""
    spec, settings = box.spec, box.settings
    events: list[GameEvent] = []
    box.on_events.append(events.extend)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 11)
    session.run_virtual(box.now_us + seconds * 1_000_000)
    return events


@pytest.mark.parametrize("game", registry.available())
def test_resuming_from_the_newest_checkpoint_is_the_game_a_full_replay_gets(tmp_path: Path, game: str, caplog) -> None:
    path, live_box = journaled_session(tmp_path, game)
    if not live_box.checkpoint_seq and live_box.engine.finished:  # a short game (a toy's): one every few records
        path, live_box = journaled_session(tmp_path, game, records=10**6, every=2)
    assert live_box.checkpoint_refused is None
    full = box_from_journal(load(path))
    since = load(path, since_checkpoint=True)
    assert isinstance(since.records[0], CheckpointRecord) and since.dropped > 0  # the records before it are not held
    with caplog.at_level(logging.WARNING):
        restored = box_from_journal(since, from_checkpoint=True)
    assert "does not restore" not in caplog.text
    assert restored.checkpoint_seq == live_box.checkpoint_seq > 0
    assert restored.engine.public_view() == full.engine.public_view() == live_box.engine.public_view()
    assert restored.summary() == full.summary()
    assert restored.strip() == full.strip()
    assert restored.station_names == full.station_names
    assert (restored.now_us, restored.presses_total, restored.decided_at_us) == \
        (full.now_us, full.presses_total, full.decided_at_us)
    assert continued(restored) == continued(full)
    assert restored.engine.public_view() == full.engine.public_view()


def test_the_live_resume_takes_the_checkpoint_and_goes_on_with_the_chain(tmp_path: Path, capsys) -> None:
    path, live_box = journaled_session(tmp_path, "quiz")
    whole = tmp_path / "whole.jsonl"
    shutil.copy(path, whole)
    box, journal = session.resumed_box(path)
    try:
        assert journal.dropped > 0 and box.checkpoint_seq == live_box.checkpoint_seq
        assert box.engine.public_view() == box_from_journal(load(whole)).engine.public_view()
        box.host("next", box.now_us + 2_000_000)
    finally:
        assert box.journal is not None
        box.journal.close()
    code, out, err = run(capsys, "journal", "check", str(path))
    assert code == 0, err
    assert out.startswith("OK ")


def checkpoint_line(path: Path) -> int:
    """The 0-based index of the newest checkpoint's line."""
    lines = path.read_bytes().splitlines()
    return max(i for i, line in enumerate(lines) if b'"type":"checkpoint"' in line)


def test_a_damaged_checkpoint_is_damage_like_any_line(tmp_path: Path) -> None:
    path, _box = journaled_session(tmp_path, "reaction")
    lines = path.read_bytes().splitlines(keepends=True)
    at = checkpoint_line(path)
    lines[at] = lines[at].replace(b'"presses_total"', b'"presses_totaL"', 1)
    path.write_bytes(b"".join(lines))
    for journal in (load(path), load(path, since_checkpoint=True)):
        assert journal.damage is not None and journal.damage.line == at + 1
        assert "checksum" in journal.damage.problem


def test_a_checkpoint_that_does_not_decode_falls_back_to_a_full_replay_said_once(tmp_path: Path, caplog) -> None:
    path, box = journaled_session(tmp_path, "piepmatz", every=10**9)  # no checkpoint of its own
    full = box_from_journal(load(path))
    journal, writer = session.journal_mod.resume(path, fsync=False)
    # chained like any record, but what it holds names a class no checkpoint may make
    writer.write(CheckpointRecord(full.now_us, {"codec": checkpoint.CODEC_VERSION, "root": [0],
                                                "nodes": [["obj", "os", "system", []]]}))
    writer.close()
    with caplog.at_level(logging.WARNING):
        resumed, _journal = session.resumed_box(path)
    assert resumed.journal is not None
    resumed.journal.close()
    said = [r for r in caplog.records if "does not restore" in r.getMessage()]
    assert len(said) == 1 and "replaying the whole journal" in said[0].getMessage()
    assert resumed.engine.public_view() == full.engine.public_view()
    assert resumed.summary() == full.summary()


def test_a_game_whose_state_holds_a_function_gets_no_checkpoint_and_says_so(tmp_path: Path, caplog) -> None:
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(2, 1))
    box.journal = JournalWriter.create(tmp_path / "r.jsonl", box.header(mode="simulate"), fsync=False)
    box.checkpoint_every = 0
    box.engine.hook = print  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING):
        assert not box.checkpoint_if_due()
        assert not box.checkpoint_if_due()
    box.journal.close()
    assert sum("no checkpoints for this reaction game" in r.getMessage() for r in caplog.records) == 1
    assert b'"checkpoint"' not in (tmp_path / "r.jsonl").read_bytes()


# -- the decoder never runs code -----------------------------------------------------------
class _Probe:
    """A class in a games module whose every hook says it ran."""

    ran: list[str] = []

    def __init__(self) -> None:
        _Probe.ran.append("__init__")

    def __setattr__(self, name: str, value: Any) -> None:
        _Probe.ran.append("__setattr__")

    def __setstate__(self, state: Any) -> None:
        _Probe.ran.append("__setstate__")

    def __hash__(self) -> int:
        _Probe.ran.append("__hash__")
        return 0

    def __eq__(self, other: object) -> bool:
        _Probe.ran.append("__eq__")
        return False


def _random_value(rng: random.Random, nodes: int, depth: int = 0) -> Any:
    pick = rng.randrange(12 if depth < 3 else 7)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False, 0, -1, 2**70, 1.5, "x", "nan"])
    if pick == 2:
        return [rng.randrange(-2, nodes + 3)]
    if pick == 3:
        return {rng.choice(["i", "f", "r"]): rng.choice(["12", "nan", "x", 5, None])}
    if pick in (4, 5, 6):
        return rng.choice(["obj", "list", "dict", "set", "tuple", "random", "enum", "path", "deque", "ntuple"])
    if pick in (7, 8, 9):
        return [_random_value(rng, nodes, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice(["codec", "root", "nodes", "a"]): _random_value(rng, nodes, depth + 1) for _ in range(2)}


_MODULES = ["games._checkpoint_probe", "os", "builtins", "games.base", "controller.box.press", "subprocess", ""]
_NAMES = ["Probe", "system", "GameEvent", "Action", "Press", "Popen", "eval", "HOST_SHOWN", ""]


def _random_shape(rng: random.Random) -> Any:
    names = [rng.choice(["a", "ran", "__class__", "__dict__", "kind", "t_us"]) for _ in range(rng.randrange(3))]
    return [rng.choice(_MODULES), rng.choice(_NAMES), names] if rng.random() < 0.9 else _random_value(rng, 3)


def _random_node(rng: random.Random, nodes: int) -> Any:
    kind = rng.choice(["obj", "sdict", "list", "dict", "set", "frozenset", "tuple", "random", "enum", "path",
                       "deque", "ntuple", "counter", "code"])
    if kind in ("obj", "sdict") and rng.random() < 0.7:
        return [kind, rng.randrange(-1, 4), [_random_value(rng, nodes) for _ in range(rng.randrange(3))]]
    tail = [_random_value(rng, nodes) for _ in range(rng.randrange(4))]
    if rng.random() < 0.5:
        return [kind, rng.choice(_MODULES), rng.choice(_NAMES), *tail]
    return [kind, *tail]


def test_the_decoder_takes_any_json_without_a_traceback_or_running_code(monkeypatch) -> None:
    probe = types.ModuleType("games._checkpoint_probe")
    _Probe.__module__, _Probe.__qualname__ = probe.__name__, "Probe"
    probe.Probe = _Probe  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, probe.__name__, probe)
    rng = random.Random(47)
    decoded = 0
    for _ in range(3000):
        count = rng.randrange(1, 8)
        data: Any = {"codec": 1, "root": [rng.randrange(count)], "nodes": [_random_node(rng, count) for _ in range(count)],
                     "shapes": [_random_shape(rng) for _ in range(rng.randrange(4))]}
        if rng.random() < 0.2:
            data = _random_value(rng, count)
        text = json.dumps(data)
        try:
            checkpoint.decode(json.loads(text))
            decoded += 1
        except checkpoint.CheckpointError:
            pass
    assert _Probe.ran == []
    assert decoded > 10  # the fuzz reaches past the first checks


def test_shared_references_cycles_and_odd_values_come_back() -> None:
    rng = random.Random(3)
    rng.random()
    shared = [1, 2]
    cyclic: list[Any] = [shared]
    cyclic.append(cyclic)
    event = GameEvent("winner", 5, 1, {"n": float("inf")})
    state = {"a": shared, "b": cyclic, "rng": rng, "event": event, (1, "x"): frozenset({2, 3}), "big": 2**80,
             "nan": float("nan")}
    back = checkpoint.decode(json.loads(json.dumps(checkpoint.encode(state))))
    assert back["a"] is back["b"][0] and back["b"][1] is back["b"]
    assert back["rng"].random() == rng.random()
    assert back["event"] == event and back[(1, "x")] == frozenset({2, 3}) and back["big"] == 2**80
    assert back["nan"] != back["nan"]


def test_a_resume_still_finds_a_changed_line_before_the_newest_checkpoint(tmp_path: Path) -> None:
    path, _box = journaled_session(tmp_path, "viva-topo")
    lines = path.read_bytes().splitlines(keepends=True)
    early = next(i for i, line in enumerate(lines) if i > 2 and b'"type":"press"' in line)
    assert early < checkpoint_line(path)
    lines[early] = lines[early].replace(b'"t_us":', b'"t_us":1', 1)
    path.write_bytes(b"".join(lines))
    journal = load(path, since_checkpoint=True)
    assert journal.damage is not None and journal.damage.line == early + 1
    with pytest.raises(session.journal_mod.JournalError, match=f"line {early + 1}"):
        session.resumed_box(path)


def notices_journal(path: Path, lines: int) -> Path:
    """A reaction journal of ``lines`` short notice records (a board that keeps saying it is connected)."""
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(2, 1))
    writer = JournalWriter.create(path, box.header(mode="play"), fsync=False, threaded=False)
    for t in range(lines):
        writer.write({"type": "notice", "station": 0, "input": "a", "kind": "connected", "t_us": t})
    writer.close()
    return path


def test_journal_check_memory_stays_flat_as_the_file_grows_tenfold(tmp_path: Path, capsys) -> None:
    import tracemalloc

    peaks = []
    for lines in (5_000, 50_000):
        path = notices_journal(tmp_path / f"n{lines}.jsonl", lines)
        tracemalloc.start()
        code, out, err = run(capsys, "journal", "check", str(path))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert code == 0, err
        assert f"{lines} good records" in out
    assert peaks[1] < 1.5 * peaks[0], peaks  # a whole-file read holds ten times the bytes and records


def test_a_checkpoint_from_other_code_of_the_game_is_not_restored(tmp_path: Path, caplog, monkeypatch) -> None:
    path, _box = journaled_session(tmp_path, "pictomania")
    full = box_from_journal(load(path))
    monkeypatch.setattr("controller.box.runtime._CODE_MARKS", {type(full.engine): "games.pictomania.engine.X:updated"})
    with caplog.at_level(logging.WARNING):
        resumed, journal = session.resumed_box(path)
    assert resumed.journal is not None
    resumed.journal.close()
    assert "other code of the game" in caplog.text
    assert resumed.engine.public_view() == full.engine.public_view()


def test_a_resume_read_finds_every_changed_byte_the_full_reader_finds(tmp_path: Path) -> None:
    path, _box = journaled_session(tmp_path, "quiz")
    data = path.read_bytes()
    rng = random.Random(4711)
    for _ in range(60):
        at = rng.randrange(len(data))
        flipped = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
        path.write_bytes(flipped)
        try:
            full = load(path)
        except session.journal_mod.JournalError:
            with pytest.raises(session.journal_mod.JournalError):
                load(path, since_checkpoint=True)
            continue
        since = load(path, since_checkpoint=True)
        assert (since.damage, since.torn_tail, since.count, since.last_sum) == \
            (full.damage, full.torn_tail, full.count, full.last_sum), at


def test_the_deciding_thread_writes_a_checkpoint_only_after_the_lamp_at_a_quiet_step(tmp_path: Path,
                                                                                    monkeypatch) -> None:
    """... and hands the allocator's free pages back right after it (a checkpoint's
    temporaries grew the deciding process's memory in steps: issue 46)."""
    from controller.box import snapshot
    from controller.box.deciding import Decider
    from controller.box.press import Edge

    trimmed: list[int] = []
    monkeypatch.setattr(snapshot, "trim_heap", lambda: trimmed.append(checkpoints()))

    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3, 1, **spec.demo_options))
    path = tmp_path / "q.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="play"), fsync=False, threaded=False)
    box.checkpoint_every = 1
    clock = [0]
    lamps: list[int] = []
    decider = Decider(box, lambda: clock[0], lambda: lamps.append(clock[0]), after=lambda events, t, stirred=True: None)

    def checkpoints() -> int:
        return path.read_bytes().count(b'"type":"checkpoint"')

    box.host("arm", 1_000)
    box.edge(Edge(0, "bell", 0, 2_000_000), 1)  # pressed, not yet settled: a decision is under way
    clock[0] = 2_000_100
    decider.decide(clock[0], None)
    assert checkpoints() == 0
    clock[0] = 3_000_000  # it settled and was decided: the lamp is lit in that step, no checkpoint in it
    decider.decide(clock[0], None)
    assert lamps and checkpoints() == 0
    while checkpoints() == 0 and clock[0] < 120_000_000:  # the steps after it, until one is quiet
        clock[0] += 250_000
        decider.decide(clock[0], None)
    assert checkpoints() == 1 and trimmed == [1]  # trimmed once, after the checkpoint was written
    deadline = box.engine.next_deadline_us()
    assert deadline is None or deadline > clock[0] + 1_000_000


def test_a_full_read_holds_only_the_newest_checkpoints_state(tmp_path: Path) -> None:
    path, _box = journaled_session(tmp_path, "schicki-micki", every=20)
    journal = load(path)
    states = [r.state for r in journal.records if isinstance(r, CheckpointRecord)]
    assert len(states) >= 2
    assert all(state == {} for state in states[:-1]) and states[-1]["codec"] == checkpoint.CODEC_VERSION
    assert box_from_journal(journal, from_checkpoint=True).engine.public_view() == \
        box_from_journal(journal).engine.public_view()


def test_the_quizs_code_mark_covers_its_core_and_modes_not_only_the_engines_module(
        tmp_path: Path, monkeypatch) -> None:
    """The quiz's engine is its core (games/quiz/core.py) and modes
    (games/quiz/modes/) put together in engine.py: a box updated in any of
    them must not restore a checkpoint the old code wrote."""
    from controller.box import runtime

    spec = registry.get("quiz")
    engine = Box(spec, spec.settings(3, 1)).engine
    before = runtime.engine_code_mark(engine)
    for module in ("games.quiz.core", "games.quiz.modes.classic", "games.quiz.modes.bowl", "games.quiz.modes.allplay"):
        changed = tmp_path / f"{module}.py"
        changed.write_bytes(Path(sys.modules[module].__file__).read_bytes() + b"# updated\n")
        with monkeypatch.context() as patch:
            patch.setattr(sys.modules[module], "__file__", str(changed))
            patch.setattr(runtime, "_CODE_MARKS", {})
            assert runtime.engine_code_mark(engine) != before, module
    monkeypatch.setattr(runtime, "_CODE_MARKS", {})
    assert runtime.engine_code_mark(engine) == before


def test_a_checkpoint_made_by_a_child_holds_the_state_at_its_place_while_presses_go_on(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    """The deciding thread only forks (a long game's encoding held it 0.15-0.5 s, and
    a press that came meanwhile waited for its decision): the child encodes the state
    it was born with, while the live box goes on deciding and journaling presses,
    which follow the checkpoint's line in the file. A checkpoint holding the state
    after them (or before a record that precedes it) would restore another game."""
    import os
    import select

    from controller.box import snapshot
    from tests.processes import HANG_S

    release_r, release_w = os.pipe()

    def wait_for_the_test() -> None:  # in the child, after the fork: the test plays on first
        os.close(release_w)
        select.select([release_r], [], [], HANG_S)

    monkeypatch.setattr(snapshot, "before_encoding", wait_for_the_test)
    spec = registry.get("quiz")
    settings = spec.settings(3, 7, **{**spec.demo_options, "questions": 1000})
    box = Box(spec, settings)
    path = tmp_path / "quiz.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="play"), fsync=False, threaded=True)
    box.checkpoint_every = 10**9  # only the one taken below
    play = Session(box, spec.new_bots(settings), spec.new_host(settings), 7)
    while box.journal.next_seq < 200 or not box.quiet():
        due = play.next_time_us()
        assert due is not None and box.journal.next_seq < 5000
        play.step(max(due, play.now_us))
    at_the_snapshot = box.engine.public_view()
    try:
        assert box.checkpoint()
        seq = box.checkpoint_seq
        play.run_virtual(box.now_us + 120_000_000)  # decided and journaled while the child waits
        assert box.journal.next_seq > seq + 20 and box.engine.public_view() != at_the_snapshot
    finally:
        os.close(release_w)  # the child encodes now
        box.journal.close()
        os.close(release_r)
    lines = path.read_bytes().splitlines()
    assert [i for i, line in enumerate(lines) if b'"type":"checkpoint"' in line] == [seq]
    journal = load(path)
    assert not journal.damage and journal.count == box.journal.next_seq - 1
    state = next(r.state for r in journal.records if isinstance(r, CheckpointRecord))
    assert checkpoint.decode(state)["engine"].public_view() == at_the_snapshot
    restored = box_from_journal(load(path, since_checkpoint=True), from_checkpoint=True)
    assert restored.checkpoint_seq == seq
    full = box_from_journal(journal)
    assert restored.engine.public_view() == full.engine.public_view()
    assert restored.summary() == full.summary() == box.summary()
    assert continued(restored) == continued(full)


def live_reaction_box(tmp_path: Path) -> tuple[Box, Path]:
    """A reaction duel journaled as a live box journals (the writer's thread), and its journal's path."""
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(2, 1))
    path = tmp_path / "r.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="play"), fsync=False, threaded=True)
    return box, path


def test_a_game_whose_state_the_child_cannot_write_gets_no_checkpoint_and_loses_no_record(tmp_path: Path,
                                                                                        caplog) -> None:
    box, path = live_reaction_box(tmp_path)
    box.engine.hook = print  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING):
        assert box.checkpoint()  # the fork is made; the child refuses
        box.host("arm", 1_000)  # journaled behind the place it had
        box.journal.close()
    assert box.checkpoint_refused is not None and not box.checkpoint_if_due()
    assert sum("no checkpoints for this reaction game" in r.getMessage() for r in caplog.records) == 1
    journal = load(path)
    assert not journal.damage and b'"checkpoint"' not in path.read_bytes()
    assert [r.type for r in journal.records] == ["host"]


def test_a_press_while_a_checkpoint_is_encoded_is_decided_and_lit_at_once(tmp_path: Path, monkeypatch) -> None:
    """The deciding thread does not wait for a checkpoint's encoding (a long
    game's held it 0.15-0.5 s, and a press then waited for its lamp): with the
    child still encoding (held by a test hook), the next press is decided and
    its lamp lit, and its record follows the checkpoint's line in the file."""
    import os
    import select

    from controller.box import snapshot
    from controller.box.deciding import Decider
    from controller.box.press import Edge
    from tests.processes import HANG_S

    release_r, release_w = os.pipe()

    def wait_for_the_test() -> None:  # in the child, after the fork
        os.close(release_w)
        select.select([release_r], [], [], HANG_S)

    monkeypatch.setattr(snapshot, "before_encoding", wait_for_the_test)
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3, 1, **spec.demo_options))
    path = tmp_path / "q.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="play"), fsync=False, threaded=True)
    box.checkpoint_every = 10**9
    clock = [0]
    lamps: list[int] = []
    decider = Decider(box, lambda: clock[0], lambda: lamps.append(clock[0]), after=lambda events, t, stirred=True: None)
    try:
        box.host("arm", 1_000)
        box.edge(Edge(0, "bell", 0, 2_000_000), 1)
        clock[0] = 3_000_000
        decider.decide(clock[0], None)
        box.host("correct", 3_500_000)
        box.host("next", 4_000_000)
        box.checkpoint_every = 1
        while box.checkpoint_seq == 0 and clock[0] < 60_000_000:  # the next quiet step forks
            clock[0] += 250_000
            decider.decide(clock[0], None)
        seq = box.checkpoint_seq
        assert seq > 0
        box.checkpoint_every = 10**9
        box.host("arm", clock[0] + 1_000)
        box.edge(Edge(1, "bell", 0, clock[0] + 1_000_000), 1)
        clock[0] += 2_000_000
        decider.decide(clock[0], None)
        assert lamps == [3_000_000, clock[0]] and box.engine.public_view()["answering"] == 1
        assert b'"type":"checkpoint"' not in path.read_bytes()  # the child has not encoded yet
    finally:
        os.close(release_w)
        box.journal.close()
        os.close(release_r)
    records = [json.loads(line) for line in path.read_bytes().splitlines()]
    assert [i for i, r in enumerate(records) if r["type"] == "checkpoint"] == [seq]
    presses = [i for i, r in enumerate(records) if r["type"] == "press"]
    assert len(presses) == 2 and presses[0] < seq < presses[1] and records[presses[1]]["station"] == 1
    journal = load(path)
    assert not journal.damage
    restored = box_from_journal(load(path, since_checkpoint=True), from_checkpoint=True)
    assert restored.engine.public_view() == box_from_journal(journal).engine.public_view()


def test_a_stop_that_reaches_a_checkpoints_child_as_it_is_born_ends_it(tmp_path: Path, monkeypatch,
                                                                         caplog) -> None:
    """A stop sent to the process group (systemd, a test's group kill) that reached the
    checkpoint's child before it set its own handlers ran the deciding process's handler
    there (which records a stop, never raises), and the child went on encoding, deaf
    to it. The stop now ends the child: no checkpoint, every record kept, in order."""
    import os
    import signal

    real_fork = os.fork

    def fork_and_stop() -> int:
        pid = real_fork()
        if pid == 0:  # the group's SIGTERM, in the child's first moment
            os.kill(os.getpid(), signal.SIGTERM)
        return pid

    heard_r, heard_w = os.pipe()

    def deciding_process_handler(signum: int, frame: object) -> None:  # records the stop, as signals.py does
        os.write(heard_w, b"stop recorded\n")

    box, path = live_reaction_box(tmp_path)
    box.host("arm", 1_000)
    monkeypatch.setattr(os, "fork", fork_and_stop)
    before = signal.signal(signal.SIGTERM, deciding_process_handler)
    try:
        with caplog.at_level(logging.WARNING):
            assert box.checkpoint()  # the fork is made; the stop reaches its child
            box.host("arm", 2_000)  # journaled behind the place it had
            box.journal.close()
    finally:
        signal.signal(signal.SIGTERM, before)
        os.close(heard_w)
    with os.fdopen(heard_r, "rb") as heard:
        assert heard.read() == b""  # the deciding process's handler never ran in the child
    assert any("was not made" in r.getMessage() and str(-signal.SIGTERM) in r.getMessage() for r in caplog.records)
    journal = load(path)
    assert not journal.damage and b'"checkpoint"' not in path.read_bytes()
    assert [(r.type, r.t_us) for r in journal.records] == [("host", 1_000), ("host", 2_000)]


def test_a_close_does_not_wait_long_for_a_checkpoints_child(tmp_path: Path, monkeypatch, caplog) -> None:
    """A stop while a checkpoint's child is stuck: the close waited for it as long as
    the child's own limit (120 s, past systemd's 90 s stop timeout, whose kill then lost
    every record held behind the line, the end too). It now gives the child
    ``CLOSE_LATER_S``, then kills it: no checkpoint, every record and the end written."""
    import os
    import select

    from controller.box import journal_writer, snapshot
    from tests.processes import HANG_S

    release_r, release_w = os.pipe()

    def stuck() -> None:  # in the child: stuck until the test ends
        os.close(release_w)
        select.select([release_r], [], [], HANG_S)

    monkeypatch.setattr(snapshot, "before_encoding", stuck)
    monkeypatch.setattr(journal_writer, "CLOSE_LATER_S", 0.0)
    box, path = live_reaction_box(tmp_path)
    box.host("arm", 1_000)
    try:
        with caplog.at_level(logging.WARNING):
            assert box.checkpoint()
            box.host("arm", 2_000)  # held behind the line
            box.end(3_000)  # a stop: the end record, the close
        assert box.journal.closed
        assert b'"checkpoint"' not in path.read_bytes()
    finally:
        os.close(release_w)
        os.close(release_r)
    journal = load(path)
    assert not journal.damage
    assert [(r.type, r.t_us) for r in journal.records] == [("host", 1_000), ("host", 2_000), ("end", 3_000)]
    assert any("was not made" in r.getMessage() for r in caplog.records)


def test_a_checkpoints_child_is_heard_on_a_pipe_past_file_1023(tmp_path: Path, monkeypatch) -> None:
    """The unit lets the deciding process hold 8192 files (phones' and pages' sockets):
    a checkpoint's pipe past 1023 was out of ``select``'s range, and no checkpoint was
    ever made (a restart replayed the whole journal)."""
    import fcntl
    import os

    real_pipe = os.pipe

    def high_pipe() -> tuple[int, int]:
        ends = real_pipe()
        high = tuple(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 1500) for fd in ends)
        for fd in ends:
            os.close(fd)
        return high[0], high[1]

    box, path = live_reaction_box(tmp_path)
    box.host("arm", 1_000)
    monkeypatch.setattr(os, "pipe", high_pipe)
    assert box.checkpoint()
    monkeypatch.undo()
    box.host("arm", 2_000)
    box.journal.close()
    journal = load(path)
    assert not journal.damage
    assert [r.type for r in journal.records] == ["host", "checkpoint", "host"]


def test_no_collection_runs_in_a_checkpoints_child(tmp_path: Path) -> None:
    """A collection in the child (its first allocations, before it turned collecting
    off) ran the finalizers of the deciding process's garbage there: code the child
    must not run, which may take a lock another thread held at the fork and leave the
    child stuck (its line, and every press behind it, waited for its time limit)."""
    import gc
    import os

    parent = os.getpid()
    heard_r, heard_w = os.pipe()

    def collected(phase: str, info: dict[str, int]) -> None:
        if os.getpid() != parent:
            with contextlib.suppress(OSError):
                os.write(heard_w, b"collected in the child\n")

    box, path = live_reaction_box(tmp_path)
    box.host("arm", 1_000)
    was_enabled, threshold = gc.isenabled(), gc.get_threshold()
    gc.callbacks.append(collected)
    gc.enable()
    gc.set_threshold(1, 1, 1)  # any allocation collects
    try:
        assert box.checkpoint()
        assert gc.isenabled()  # the parent collects again
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(collected)
        if not was_enabled:
            gc.disable()
        box.journal.close()
        os.close(heard_w)
    with os.fdopen(heard_r, "rb") as heard:
        assert heard.read() == b""
    assert [r.type for r in load(path).records] == ["host", "checkpoint"]


def test_the_kernel_short_of_memory_ends_a_checkpoints_child_first(tmp_path: Path, monkeypatch) -> None:
    """The child's pages are mostly the deciding process's, so it looked as big to the
    OOM killer, which could end the game instead (a Pi has 1 GB): the child asks to be first."""
    import os
    import select

    from controller.box import snapshot
    from tests.processes import HANG_S

    release_r, release_w = os.pipe()
    ready_r, ready_w = os.pipe()

    def wait_for_the_test() -> None:  # in the child, after it became quiet
        os.close(release_w)
        os.write(ready_w, b"ready")
        select.select([release_r], [], [], HANG_S)

    children: list[snapshot.Child] = []
    real_fork = snapshot.fork

    def fork(make):  # noqa: ANN001, ANN202 (the child, noted)
        children.append(real_fork(make))
        return children[-1]

    monkeypatch.setattr(snapshot, "before_encoding", wait_for_the_test)
    monkeypatch.setattr(snapshot, "fork", fork)
    box, path = live_reaction_box(tmp_path)
    try:
        assert box.checkpoint() and len(children) == 1
        assert select.select([ready_r], [], [], HANG_S)[0] and os.read(ready_r, 5) == b"ready"
        adj = Path(f"/proc/{children[0].pid}/oom_score_adj").read_text().strip()
        assert adj == "1000"
    finally:
        os.close(release_w)
        box.journal.close()
        for fd in (release_r, ready_r, ready_w):
            os.close(fd)


def test_a_live_box_checkpoints_once_five_thousand_records_followed_the_last(tmp_path: Path) -> None:
    """What a restart replays is what followed the newest checkpoint: a box
    journals one when 5,000 records followed the last (at a quiet moment), so
    a 400,000-record evening's worst resume replays about 5,000, not 10,000
    (1.4-1.5 s of CPU here instead of 2.1, docs/journal.md)."""
    from datetime import datetime, timezone

    from controller.box.journal import WallClockRecord

    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3, 7, **spec.demo_options))
    box.journal = JournalWriter.create(tmp_path / "q.jsonl", box.header(mode="simulate"), fsync=False)
    try:
        at = datetime.now(timezone.utc)
        while box.journal.next_seq - box.checkpoint_seq < 5_000:
            box.journal.write(WallClockRecord(0, at))  # a record replay skips: only the count matters
        assert box.quiet() and not box.checkpoint_if_due()
        box.journal.write(WallClockRecord(0, at))
        assert box.checkpoint_if_due()
    finally:
        box.journal.close()
    assert load(tmp_path / "q.jsonl", since_checkpoint=True).records[0].type == "checkpoint"
