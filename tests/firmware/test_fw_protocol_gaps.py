"""No press lost in the protocol's gaps, none mis-stamped (issue 21 points 2, 6,
8, 10, 11 and the IRQ/PIO order of point 1), through firmware -> pty -> driver.

A press is *mis-stamped* when its box time is further from the truth than the
precision it declares; *lost* when the board accepted it and no driver ever
delivered it."""

from __future__ import annotations

import logging
import os
import random
import select
import threading
import time

import pytest

from controller.box.press import Press
from controller.box.sources.board import BoardSource
from controller.box.sources.board_sim import BoardSim
from games.arbitration import rank_by_time, tie_threshold_us
from tests.firmware.conftest import CHANNELS, Sink, caught_up, start_driver, wait_until

LOG = "controller.box.sources.board"
WIDE = {**CHANNELS, 19: (3, "bell")}  # channel 19 is GP27


def driver(sim: BoardSim, sink: Sink, channels: dict = CHANNELS, **kw: object) -> BoardSource:
    return start_driver(sim, sink, channels, **kw)


def pump_until(sim: BoardSim, cond, what: str, step_us: int = 20_000, timeout: float = 120.0) -> None:
    """Advance the board until ``cond``, a step at a time, each once the driver has caught
    up with the last (``caught_up``: readiness, never a sleep); the timeout only ends a hang
    (a loaded machine is slow, never wrong), it bounds nothing the test asserts."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sim.advance(step_us)
        caught_up(sim)
        if cond():
            return
    raise AssertionError(f"never saw {what}")


def walk(sim: BoardSim, us: int, step_us: int = 2_000) -> None:
    """Let ``us`` of the board's time pass in steps the driver follows (``caught_up`` after each)."""
    end = sim.now_us + us
    while sim.now_us < end:
        sim.advance(min(step_us, end - sim.now_us))
        caught_up(sim)


def idle(sim: BoardSim, us: int, source: BoardSource, step_us: int = 20_000) -> None:
    """Let time pass in steps the driver's thread follows: after each step, wait
    until its clock requests are answered (readiness, however long a loaded
    machine takes), so no round trip ever spans a virtual 20 ms step."""
    end = sim.now_us + us
    while sim.now_us < end:
        sim.advance(min(step_us, end - sim.now_us))
        give_up = time.monotonic() + 30
        while source.session._requests:
            assert time.monotonic() < give_up, "the driver never read the board's clock replies"
            sim.step()
            time.sleep(0.001)


def judge(truth: dict[tuple[int, str, int], int], presses: list[Press]) -> tuple[int, int, list[str]]:
    """(lost, mis-stamped, details): truth maps (station, input, n-th press) -> true box µs.
    A delivered press near no real press of its input (within its precision, at most
    1 s: a press "worth ±400 s" is no stamp) is a phantom: a press nobody made."""
    got: dict[tuple[int, str], list[Press]] = {}
    for p in sorted(set(presses), key=lambda p: p.t_us):
        got.setdefault((p.station, p.input), []).append(p)
    lost = bad = 0
    details = []
    for (station, name, _), t in sorted(truth.items(), key=lambda kv: kv[1]):
        near = sorted((p for p in got.get((station, name), []) if abs(p.t_us - t) <= max(5_000, p.precision_us)),
                      key=lambda p: abs(p.t_us - t))
        if not near:
            lost += 1
            details.append(f"lost {station}/{name} at {t}")
        elif abs(near[0].t_us - t) > near[0].precision_us:
            bad += 1
            details.append(f"mis-stamped {station}/{name}: {near[0].t_us - t:+d} µs, declared {near[0].precision_us}")
    real: dict[tuple[int, str], list[int]] = {}
    for (station, name, _), t in truth.items():
        real.setdefault((station, name), []).append(t)
    for key, ps in got.items():
        for p in ps:
            off = min((abs(p.t_us - t) for t in real.get(key, [])), default=None)
            if off is None or off > max(5_000, min(p.precision_us, 1_000_000)):
                bad += 1
                details.append(f"phantom {key[0]}/{key[1]} at {p.t_us} ({p.source_event}): "
                               f"{'no press' if off is None else f'{off / 1e6:.3f} s from any press'}")
    return lost, bad, details


class HeldPort:
    """A port on a pipe (the fake port seam), read as pyserial reads one: up to its timeout for the
    first byte. Armed with a line (``arriving``), the next read that begins on the empty port gets
    that line as it waits, then holds the reader's thread (``taken`` set, until ``release``): the
    driver has read the line and not handled it yet."""

    def __init__(self, port: str, baudrate: int, timeout: float, write_timeout: float) -> None:
        self.timeout = timeout
        self.r, self.w = os.pipe()
        self.arriving: bytes | None = None
        self.taken, self.release = threading.Event(), threading.Event()

    @property
    def in_waiting(self) -> int:
        import array
        import fcntl
        import termios

        count = array.array("i", [0])
        fcntl.ioctl(self.r, termios.FIONREAD, count)
        return count[0]

    def fileno(self) -> int:
        return self.r

    def read(self, size: int = 1) -> bytes:
        line = self.arriving
        if line is not None and not self.in_waiting:
            self.arriving = None
            os.write(self.w, line)  # the board's line comes while the read waits on the empty port
            data = os.read(self.r, len(line))
            self.taken.set()
            assert self.release.wait(60), "the test never let the reader go on"
            return data
        if not select.select([self.r], [], [], self.timeout)[0]:
            return b""
        return os.read(self.r, size)

    def write(self, data: bytes) -> int:
        return len(data)

    def close(self) -> None:
        if self.r >= 0:
            os.close(self.r)
            os.close(self.w)
            self.r = self.w = -1


def test_the_driver_is_not_quiet_while_a_line_it_read_is_not_handled() -> None:
    """``quiet`` (what ``caught_up`` waits for) says the driver handled everything it read: a line
    that comes as its read waits on an empty port, read and not yet handled (its thread held just
    after the read, through the fake port), is not quiet; handled, it is. The reader used to say
    it was idle before that read, and went on saying so until the read returned."""
    ports: list[HeldPort] = []

    def opened(*args: object, **kw: object) -> HeldPort:
        ports.append(HeldPort(*args, **kw))  # type: ignore[arg-type]
        return ports[-1]

    source = BoardSource(CHANNELS, {}, port="held", clock=lambda: 1_000_000, reconnect_delay_s=0.02,
                         serial_factory=opened)  # the board's time stands still: no timer asks anything
    source.start(Sink())
    try:
        wait_until(lambda: bool(ports) and source.quiet(), "the driver waiting on the empty port")
        port, dropped = ports[0], source.session.dropped_lines
        port.arriving = b"not a board line\n"
        wait_until(port.taken.is_set, "the read that took the line")
        assert not source.quiet(), "quiet with a line read and not handled"
        port.release.set()
        wait_until(source.quiet, "the driver handling the line")
        assert source.session.dropped_lines == dropped + 1  # quiet again once it was handled
    finally:
        for port in ports:
            port.release.set()
        source.stop()  # closes the port


def test_the_pump_moves_the_boards_time_on_only_once_the_driver_has_caught_up() -> None:
    """The driver's thread does not run for a while just after it read a line (a loaded
    machine: stood in for by holding its read). The pump waits for it before it moves the
    board's time on: the old one slept 3 ms and moved on, so the lines came to the driver
    stamped later than the board sent them, however slow the machine (its clock round
    trips measured long, a press's watermark late)."""
    import serial

    sim = BoardSim()
    hold = threading.Event()
    moved: list[int] = []  # board µs that passed while the driver's thread was away

    class SlowPort(serial.Serial):
        def read(self, size: int = 1) -> bytes:
            data = super().read(size)
            if data and hold.is_set():
                hold.clear()
                at = sim.now_us
                time.sleep(0.1)  # the thread does not run meanwhile: load, not a wait for anything
                moved.append(sim.now_us - at)
            return data

    source = driver(sim, Sink(), serial_factory=SlowPort)
    try:
        pump_until(sim, lambda: source.connected, "the connection", step_us=2_000)
        for _ in range(3):
            hold.set()
            pump_until(sim, lambda: not hold.is_set(), "a line read", step_us=2_000)
        assert moved == [0, 0, 0]
    finally:
        source.stop()
        sim.close()


def test_presses_before_the_first_hello_reach_the_host() -> None:
    sim = BoardSim()
    try:
        ats = [sim.press(ch, at_us=sim.now_us + 1000 + 40_000 * i) for i, ch in enumerate((0, 1, 2))]
        sim.advance(300_000)  # the board sent them into a port nobody read yet
        sink = Sink()
        source = driver(sim, sink)
        try:
            sink.wait_kinds(["connected"])  # synced with virtual time standing still: exact stamps
            pump_until(sim, lambda: len(sink.presses()) >= 3, "the early presses")
            assert [p.t_us for p in sink.presses()] == [sim.box_time(a) for a in ats]
        finally:
            source.stop()
    finally:
        sim.close()


def test_a_press_made_after_the_host_died_reaches_the_restarted_host() -> None:
    sim = BoardSim()
    first, second = Sink(), Sink()
    try:
        source = driver(sim, first)
        first.wait_kinds(["connected"])
        a = sim.press(0)
        pump_until(sim, lambda: len(first.presses()) == 1 and sim.board.events.first > 1, "the first press, acked")
        source.stop()  # the host process dies
        b = sim.press(1)  # just after
        sim.advance(2_000_000)
        source = driver(sim, second)
        try:
            second.wait_kinds(["connected"])
            pump_until(sim, lambda: len(second.presses()) >= 1, "the press made meanwhile")
            assert [p.t_us for p in first.presses()] == [sim.box_time(a)]
            assert [p.t_us for p in second.presses()] == [sim.box_time(b)]
        finally:
            source.stop()
    finally:
        sim.close()


def test_corrupted_commands_lose_no_press_and_blame_no_full_buffer(make_rig, caplog) -> None:
    caplog.set_level(logging.WARNING, LOG)
    rig = make_rig()
    sim = rig.sim
    sim.drop_lines(1)  # a gap: the driver asks R ...
    sim.corrupt_commands(6)  # ... and its R (and acks) arrive damaged
    ats = [sim.press(i % 3, at_us=sim.now_us + 1000 + 30_000 * i, hold_us=20_000) for i in range(12)]
    pump_until(sim, lambda: len(rig.sink.presses()) >= 12, "all 12 presses")
    assert [p.t_us for p in rig.sink.presses()] == [sim.box_time(a) for a in ats]
    assert "buffer was full" not in caplog.text


def test_a_reboot_whose_hello_is_lost_never_stamps_on_the_old_clock(make_rig) -> None:
    rig = make_rig(start_ticks=400_000_000)
    sim = rig.sim
    sim.press(0)
    pump_until(sim, lambda: len(rig.sink.presses()) == 1, "a press before the reboot")
    sim.reboot(start_ticks=0)
    sim.drop_lines(3, kinds=b"H")  # the new boot's hellos are lost on the wire
    b = sim.press(1, at_us=sim.now_us + 500)
    pump_until(sim, lambda: len(rig.sink.presses()) >= 2, "the press after the reboot")
    p = rig.sink.presses()[1]
    # the new clock is synced while virtual time runs: exact within what the press declares
    assert abs(p.t_us - sim.box_time(b)) <= p.precision_us < 50_000


def test_a_600_s_hold_while_unplugged_comes_back_at_the_right_time(make_rig) -> None:
    rig = make_rig(start_ticks=(1 << 30) - 100_000_000)  # the 30-bit ticks wrap during the hold
    sim = rig.sim
    sim.unplug()
    rig.sink.wait_kinds(["connected", "disconnected"])
    a = sim.press(0)
    sim.advance(600_000_000, step_us=50_000)  # ten minutes on the board alone: > half a wrap
    b = sim.press(1)
    sim.advance(200_000)
    sim.replug()
    pump_until(sim, lambda: len(rig.sink.presses()) >= 2, "both presses")
    # right within the precision each declares (the press made 600 s before adds the drift allowance of
    # the hold: 70 ms, far from a wrap's 1073 s): the clock mapping after the replug is exact only when
    # no clock reply was read a virtual step after its request, which a loaded machine's driver thread
    # does not promise (it once was 9 ms off, declared)
    got = [(p.t_us - sim.box_time(at), p.precision_us) for p, at in zip(rig.sink.presses(), (a, b), strict=True)]
    assert all(abs(off) <= precision <= 1_000_000 for off, precision in got), got


@pytest.mark.parametrize("ppm", [100.0, -100.0])
def test_a_drifting_board_clock_keeps_presses_in_the_right_order(ppm: float) -> None:
    """±100 ppm: a board press and a GPIO press (stamped on the box clock itself)
    300 µs apart stay in order, or are declared a tie; never the wrong way round."""
    sim = BoardSim(drift_ppm=ppm)
    sim.STEP_US = 200  # the board loop every 200 µs: clock replies within it, however loaded this machine
    sink = Sink()
    source = driver(sim, sink, sync_interval_us=500_000, clock_slack_us=200)
    try:
        sink.wait_kinds(["connected"])
        gpio_margin = 300
        results = []
        for i in range(8):
            # the driver syncs meanwhile, as on a box; in steps of one board loop, so that a clock request
            # the driver sends mid-step is answered and read before time moves on (in 20 ms steps a driver
            # thread the machine ran late read its reply 20 ms on: all 8 presses became ties)
            idle(sim, 900_000 + 137_000 * i, source, step_us=sim.STEP_US)
            at = sim.press(i % 3)
            pump_until(sim, lambda i=i: len(sink.presses()) > i, f"press {i}", step_us=sim.STEP_US)
            p = sink.presses()[i]
            gpio_t = sim.box_time(at) + (gpio_margin if i % 2 else -gpio_margin)  # the truth: GPIO after/before
            threshold = tie_threshold_us(p.precision_us, 1)
            if abs(p.t_us - gpio_t) < threshold:
                results.append("tie")
            else:
                results.append("board first" if p.t_us < gpio_t else "gpio first")
            assert abs(p.t_us - sim.box_time(at)) <= p.precision_us, (i, p, sim.box_time(at))
        want = ["gpio first" if i % 2 == 0 else "board first" for i in range(8)]
        assert all(r in (w, "tie") for r, w in zip(results, want, strict=True)), results  # never wrong
        assert results.count("tie") < len(results), results  # and 300 µs is told apart, not all ties
    finally:
        source.stop()
        sim.close()


def test_asymmetric_usb_delay_is_declared_not_hidden() -> None:
    """1 ms one way, 0 back: the midpoint is 500 µs off. Presses in the first
    second after connect must declare at least that much."""
    sim = BoardSim(up_delay_us=1_000)
    sink = Sink()
    source = driver(sim, sink)
    try:
        pump_until(sim, lambda: source.connected, "the connection", step_us=500)
        ats = [sim.press(i, at_us=sim.now_us + 2_000 + 100_000 * i) for i in range(3)]
        pump_until(sim, lambda: len(sink.presses()) >= 3, "three presses", step_us=1_000)
        for a, p in zip(ats, sink.presses(), strict=True):
            err = abs(p.t_us - sim.box_time(a))
            assert err <= p.precision_us, (err, p.precision_us)
            assert p.precision_us >= 500
    finally:
        source.stop()
        sim.close()


@pytest.mark.parametrize("capture", ["irq", "pio"])
def test_simultaneous_presses_on_gp2_and_gp27_are_a_tie_not_a_pin_order(capture: str) -> None:
    sim = BoardSim(capture=capture, irq_service_us=15, pio_period_us=2)
    sink = Sink()
    source = driver(sim, sink, channels=WIDE, sync_interval_us=200_000)
    try:
        sink.wait_kinds(["connected"])
        at = sim.now_us + 1_000
        sim.press(19, at_us=at, bounce=())  # GP27 ...
        sim.press(2, at_us=at, bounce=())  # ... and GP2, at the same instant
        pump_until(sim, lambda: len(sink.presses()) >= 2, "both presses")
        p2 = next(p for p in sink.presses() if p.station == 2)
        p27 = next(p for p in sink.presses() if p.station == 3)
        gap = abs(p27.t_us - p2.t_us)
        assert gap < tie_threshold_us(p2.precision_us, p27.precision_us)  # a tie, as it was
        declared = source.session.info.direct_precision_us
        if capture == "irq":
            assert p27.t_us - p2.t_us == 15  # served after GP2: pin order, not press order
            assert declared >= 20 and p2.precision_us >= declared  # the spread of one IRQ service
        else:
            assert gap == 0  # one sample, one stamp
            assert declared == 2 and p2.precision_us >= 2  # the sampling period
    finally:
        source.stop()
        sim.close()


def test_an_input_closed_at_rest_is_reported_by_the_board(make_rig) -> None:
    rig = make_rig()
    sim = rig.sim
    assert rig.source.levels()[(1, "bell")] == 1  # open at rest: pulled up
    sim.edges(1, [(0, 0)])  # a normally-closed contact: at the active level with nobody pressing
    sim.advance(50_000)
    levels = rig.source.query_levels(timeout_s=2.0)
    assert levels[(1, "bell")] == 0
    assert levels[(0, "bell")] == 1


FAULTS = ("drop", "corrupt", "commands", "garbage", "deaf", "unplug", "restart")


def fuzz_trial(rng: random.Random, faults: tuple[str, ...] = FAULTS) -> tuple[int, list[str]]:
    """One seeded trial: 25 presses on direct and shift-register inputs, each
    followed by a random wire fault (a driver restart among them; a board reboot
    too if ``faults`` has it). Returns (presses the board accepted, what went
    wrong): each lost, mis-stamped or phantom press named with its board sequence
    number and the faults it went through, and any press one driver delivered
    twice. A press made before a reboot may be lost (the board had not sent it:
    its RAM is gone), never mis-stamped."""
    sim = BoardSim(up_delay_us=rng.choice((0, 300, 1_000)), down_delay_us=rng.choice((0, 700)))
    sinks = [Sink()]
    source = driver(sim, sinks[0])
    truth: dict[tuple[int, str, int], int] = {}
    history: list[tuple[int, int, str]] = []  # (press index, its board seq, the fault after it)
    rebooted = -1  # the press before the last reboot

    def delivered() -> list[Press]:
        return [p for s in sinks for p in s.presses()]

    try:
        pump_until(sim, lambda: source.connected, "connect", step_us=2_000)
        for i in range(25):
            ch = rng.choice((0, 1, 2, 33, 34))
            hold = rng.randint(15_000, 60_000)
            at = sim.press(ch, at_us=sim.now_us + rng.randint(500, 30_000), hold_us=hold)
            truth[(*CHANNELS[ch], i)] = sim.box_time(at)
            walk(sim, at - sim.now_us + hold + 15_000)  # released: the next press counts
            fault = rng.choice(faults + ("none",) * 3)
            history.append((i, sim.board.events.next - 1, fault))
            if fault == "drop":
                sim.drop_lines(rng.randint(1, 3), kinds=rng.choice((b"PN", b"PNBCK")))
            elif fault == "corrupt":
                sim.corrupt_lines(rng.randint(1, 3), kinds=rng.choice((b"PN", b"PNBCKH")))
            elif fault == "commands":
                sim.corrupt_commands(rng.randint(1, 4))
            elif fault == "garbage":
                sim.inject(bytes(rng.randrange(256) for _ in range(rng.randint(1, 80))) + b"\n")
            elif fault == "deaf":
                sim.stop_reading()
                sim.advance(rng.randint(100_000, 1_500_000), step_us=5_000)
                sim.resume_reading()
            elif fault == "unplug":
                sim.unplug()
                sim.advance(rng.randint(50_000, 1_500_000), step_us=5_000)
                sim.replug()
            elif fault == "restart":
                source.stop()
                sim.advance(rng.randint(10_000, 500_000), step_us=5_000)
                sinks.append(Sink())
                source = driver(sim, sinks[-1])
            elif fault == "reboot":  # at a random moment soon, its first hellos lost on the wire
                walk(sim, rng.randint(0, 300_000))
                sim.reboot(start_ticks=rng.randrange(1 << 30))
                sim.drop_lines(rng.randint(0, 3), kinds=b"H")
                rebooted = i
            walk(sim, rng.randint(40_000, 120_000))
        # done when every press is matched; not when as many presses came: a restarted
        # driver re-delivers what the dying one had not acked, mapped by its own clock
        # fit (another stamp), and counting those stopped the pump before the last came
        when = {t: i for (_, _, i), t in truth.items()}

        def missing() -> int:  # presses lost that the board had not lost in a reboot
            return sum(d.startswith("lost") and when[int(d.rsplit(" ", 1)[-1])] > rebooted
                       for d in judge(truth, delivered())[2])

        pump_until(sim, lambda: missing() == 0, f"all {len(truth)} presses", step_us=20_000)
    except AssertionError:
        pass  # judged below: what never came is counted as lost
    finally:
        source.stop()
        sim.close()
    _, _, details = judge(truth, delivered())
    for n, s in enumerate(sinks):
        stamps = [(p.station, p.input, p.t_us) for p in s.presses()]
        if len(stamps) != len(set(stamps)):
            details.append(f"driver {n} delivered a press twice: {sorted(stamps)}")
    details = [d for d in details if not (d.startswith("lost") and when.get(int(d.rsplit(" ", 1)[-1]), 99) <= rebooted)]
    for k, d in enumerate(details):
        at = d.rsplit(" ", 1)[-1]
        if d.startswith("lost") and at.isdigit() and int(at) in when:
            i = when[int(at)]
            details[k] = f"{d} (press {i}, board seq {history[i][1]}; faults after it: " \
                         f"{[f for _, _, f in history[i:] if f != 'none']})"
    return len(truth), details


def test_fuzz_every_fault_loses_and_misstamps_nothing() -> None:
    """Seeded, time-bounded: 0 lost and 0 mis-stamped across every trial.
    BUZZERBOX_FUZZ_TRIALS / _SECONDS / _SEED run it longer by hand (the report's
    figure: 40 trials under load)."""
    seed = int(os.environ.get("BUZZERBOX_FUZZ_SEED", "2121"))
    want_trials = int(os.environ.get("BUZZERBOX_FUZZ_TRIALS", "6"))
    trials = accepted = 0
    notes: list[str] = []
    while trials < want_trials:  # a fixed number of seeded trials
        n, details = fuzz_trial(random.Random(seed + trials))
        notes += [f"trial {trials} (seed {seed + trials}): {d}" for d in details]
        trials += 1
        accepted += n
    assert trials >= min(3, want_trials)
    assert not notes, f"{accepted} presses in {trials} trials, {len(notes)} wrong: {notes[:20]}"


def test_fuzz_with_board_reboots_plays_no_press_nobody_made() -> None:
    """The wire faults and board reboots whose hellos are lost (issue 46: 3 of 270 such
    trials delivered presses of an old boot mapped seconds to minutes late, one of which
    won a question 17.9 minutes later; seed 261 gave 14 presses 6-632 ms off on the old
    driver). The driver runs on its own thread, so a seed is not a replay: what a seed
    makes likely, the BoardSession tests of test_fw_no_future.py and test_fw_stale_lines.py
    pin down (under load: an ack or a replay request for the old boot read by the new one
    lost its first presses; presses held for a clock mapped ±1 s were played 1.06 s off)."""
    seed = int(os.environ.get("BUZZERBOX_FUZZ_SEED", "261"))
    want_trials = int(os.environ.get("BUZZERBOX_FUZZ_TRIALS", "4"))
    notes: list[str] = []
    for trial in range(want_trials):  # a fixed number of seeded trials
        _, details = fuzz_trial(random.Random(seed + trial), FAULTS + ("reboot",))
        notes += [f"seed {seed + trial}: {d}" for d in details]
    assert not notes, notes[:20]


def test_two_presses_5_us_apart_on_one_board_are_ordered_across_a_slow_usb() -> None:
    """1 ms one way: the mapping is worth ±500 µs against other clocks, but both
    presses carry this board's clock, so the arbiter orders them by the board's
    2 µs PIO stamps; against a GPIO stamp 5 µs away it is a tie."""
    sim = BoardSim(up_delay_us=1_000, capture="pio", pio_period_us=2)
    sink = Sink()
    source = driver(sim, sink, channels=WIDE)
    try:
        pump_until(sim, lambda: source.connected, "the connection", step_us=500)
        at = sim.now_us + 2_000
        sim.press(19, at_us=at + 5, bounce=())  # GP27, 5 µs after ...
        sim.press(2, at_us=at, bounce=())  # ... GP2
        pump_until(sim, lambda: len(sink.presses()) >= 2, "both presses", step_us=1_000)
        presses = sink.presses()
        assert min(p.precision_us for p in presses) >= 500  # what they are worth against another clock
        assert len({p.clock for p in presses}) == 1
        groups = rank_by_time(presses, lambda p: p.t_us, lambda p: p.precision_us,
                              clock=lambda p: (p.clock, p.clock_precision_us))
        assert [[p.station for p in g] for g in groups] == [[2], [3]]  # GP2 first, by 5 µs
        gpio = Press(0, "bell", presses[0].t_us + 5)
        assert len(rank_by_time([presses[0], gpio], lambda p: p.t_us, lambda p: p.precision_us,
                                clock=lambda p: (p.clock, p.clock_precision_us))) == 1
    finally:
        source.stop()
        sim.close()
