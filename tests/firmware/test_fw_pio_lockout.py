"""The PIO lockout (firmware/buzzer/pio_lockout.py), cycle-exact in a PIO emulator: every
pressed set of four bells lights exactly its lamps, a tie all of them, within 2 µs (250
cycles at 125 MHz) of the glitch filter's confirmation, on direct lamps and on the
74HC595 chain; a glitch shorter than the filter lights nothing; bounces count from the
last one."""

from __future__ import annotations

import pytest

from tests.firmware.pio_lockout_emu import FW, run

N = 4
GLITCH = 1250  # 10 µs at 125 MHz: the filter's logic is the same at 1 ms, the emulation 100 times shorter
BUDGET = 250  # 2 µs at 125 MHz
AT = 100


@pytest.mark.parametrize("mode", ["direct", "chain"])
def test_every_pressed_set_lights_its_lamps_within_2_us_of_confirmation(mode: str) -> None:
    worst = 0
    for pattern in range(1, 1 << N):
        for phase in range(FW.SAMPLE):  # the press lands at every phase of the sampling loop
            at = AT + phase
            r = run(N, GLITCH, [(0, 0), (at, pattern)], at + GLITCH + 400, mode)
            assert r.lamps == pattern, (mode, bin(pattern), phase)
            assert r.pushed == [pattern]
            assert r.lamp_at is not None
            late = r.lamp_at - (at + GLITCH)
            assert late >= -FW.SAMPLE, "lit before the contacts had been stable for the glitch time"
            worst = max(worst, late)
    assert worst <= BUDGET, f"{mode}: {worst} cycles after confirmation"


@pytest.mark.parametrize("mode", ["direct", "chain"])
def test_a_glitch_shorter_than_the_filter_lights_nothing(mode: str) -> None:
    r = run(N, GLITCH, [(0, 0), (AT, 0b0100), (AT + GLITCH - 60, 0)], AT + 2 * GLITCH, mode)
    assert r.lamp_at is None and r.pushed == []


def test_a_bouncing_press_is_confirmed_from_its_last_bounce() -> None:
    bounces = [(0, 0)] + [(AT + 200 * i, 0b0001 if i % 2 == 0 else 0) for i in range(7)]
    settled = bounces[-1][0]
    r = run(N, GLITCH, bounces, settled + GLITCH + 400)
    assert r.lamps == 0b0001 and r.lamp_at is not None
    assert 0 <= r.lamp_at - (settled + GLITCH) <= BUDGET


def test_the_winner_holds_until_the_cpu_re_arms() -> None:
    """After a win the state machine stalls: a later bell lights nothing more."""
    r = run(N, GLITCH, [(0, 0), (AT, 0b0001), (AT + 2 * GLITCH, 0b0011)], AT + 5 * GLITCH)
    assert r.lamps == 0b0001 and r.pushed == [0b0001]


def test_a_glitch_too_long_for_the_counter_is_refused_with_the_limit() -> None:
    with pytest.raises(ValueError, match="too long for the PIO lockout"):
        FW.program(N, 10 * FW.FREQ, "direct")


def test_the_program_fits_a_pio_block() -> None:
    import adafruit_pioasm

    for mode in ("direct", "chain"):
        assert len(adafruit_pioasm.Program(FW.program(8, 125_000, mode).text).assembled) <= 32


# -- one state machine per bell (bell_program): the first confirmed press, not the first set --

from tests.firmware.pio_lockout_emu import run_bells  # noqa: E402


def test_per_bell_machines_light_every_set_pressed_together_within_2_us() -> None:
    """Eight bells over both PIO blocks (LOCK pins crossed): each set pressed in one instant
    lights exactly its lamps (a tie), within 2 µs of the glitch filter's confirmation."""
    worst = 0
    for pattern in (0b1, 0b10, 0b1000, 0b10000, 0b10000000, 0b11, 0b10001, 0b10000001, 0b1111, 0b11110000,
                    0b11111111):
        at = AT + pattern % 5  # every phase of the 5-cycle step
        r = run_bells(8, GLITCH, [(0, 0), (at, pattern)], at + GLITCH + 200)
        assert r.lamps == pattern, bin(pattern)
        assert r.lamp_at is not None and sorted(r.pushed) == [i for i in range(8) if pattern >> i & 1]
        late = r.lamp_at - (at + GLITCH)
        assert late >= -5
        worst = max(worst, late)
    assert worst <= BUDGET


def test_per_bell_machines_give_the_lamp_to_the_first_press_when_another_joins_in_the_glitch_time() -> None:
    """Bell 0 pressed, bell 1 (same block) and bell 5 (the other block) 3 µs later, all
    held: only bell 0 lights (``program``'s pressed-set filter would call it a tie)."""
    later = AT + 375  # 3 µs at 125 MHz, well inside the 10 µs glitch time
    r = run_bells(8, GLITCH, [(0, 0), (AT, 0b1), (later, 0b100011)], later + GLITCH + 200)
    assert r.lamps == 0b1 and r.pushed == [0]
    s = run(4, GLITCH, [(0, 0), (AT, 0b1), (later, 0b11)], later + GLITCH + 400)
    assert s.lamps == 0b11  # the single machine's rule, documented in firmware/README.md


def test_per_bell_machines_ignore_a_glitch_and_count_a_bounce_from_its_last_edge() -> None:
    r = run_bells(4, GLITCH, [(0, 0), (AT, 0b0100), (AT + GLITCH - 60, 0)], AT + 2 * GLITCH)
    assert r.lamp_at is None and r.pushed == []
    bounces = [(0, 0)] + [(AT + 200 * i, 0b0010 if i % 2 == 0 else 0) for i in range(5)]
    settled = bounces[-1][0]
    r = run_bells(4, GLITCH, bounces, settled + GLITCH + 200)
    assert r.lamps == 0b0010 and r.lamp_at is not None and 0 <= r.lamp_at - (settled + GLITCH) <= BUDGET


# -- the CPU's side of bell_program (PioBells), under an rp2 shim that runs the real program --

from tests.firmware.pio_lockout_emu import Machine, run_machines  # noqa: E402


class _Pin:
    IN, OUT, PULL_UP = 0, 1, 2

    def __init__(self, gp: int, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        self.gp = gp


class _StateMachine:
    """``rp2.StateMachine`` as the CPU sees it: ``init`` (program, pins), ``put``, the RX FIFO."""

    def __init__(self, i: int) -> None:
        self.i, self.prog, self.kw, self.tx, self.rx, self.inits = i, None, {}, [], [], 0

    def init(self, prog: object, **kw: object) -> None:
        self.prog, self.kw, self.tx, self.rx = prog, kw, [], []  # init clears the FIFOs, starts at the top
        self.inits += 1

    def active(self, on: int) -> None:
        self.on = on

    def put(self, word: int) -> None:
        self.tx.append(word)

    def rx_fifo(self) -> int:
        return len(self.rx)

    def get(self) -> int:
        return self.rx.pop(0)


def _contest(pio, levels: list[tuple[int, int]], cycles: int) -> tuple[int | None, int]:
    """Run the machines exactly as ``PioBells`` set them up (program, pins, words put) in the
    emulator; their pushes go to the shim's RX FIFOs. Returns (first lamp's clock, lamp GPIOs lit)."""
    machines = []
    for sm in pio.sms:
        assert sm.kw["jmp_pin"] is sm.kw["set_base"] and sm.on == 1
        machines.append(Machine(sm.prog.text, sm.kw["in_base"].gp, sm.kw["set_base"].gp,
                                sm.kw["sideset_base"].gp, list(sm.tx)))
    bells = sum(1 << m.bell for m in machines)
    lamp_at, lit, pushes = run_machines(machines, bells, levels, cycles)
    for sm, words in zip(pio.sms, pushes, strict=True):
        sm.rx.extend(words)
    return lamp_at, lit


def test_pio_bells_arms_reads_and_re_arms_the_real_program(monkeypatch: pytest.MonkeyPatch) -> None:
    """Six bells on scattered GPIOs over both blocks: the first confirmed press wins alone
    (a bell of the other block 3 µs later stays dark), ``winners`` reads it from the RX
    FIFO; the re-arm starts every machine afresh and a same-instant pair ties."""
    import types

    monkeypatch.setitem(__import__("sys").modules, "machine", types.SimpleNamespace(Pin=_Pin))
    monkeypatch.setattr(FW.rp2, "StateMachine", _StateMachine, raising=False)
    pairs = [(2, 10), (3, 11), (7, 12), (9, 13), (14, 16), (15, 17)]  # (bell GPIO, lamp GPIO)
    pio = FW.PioBells(pairs, (26, 27), glitch_us=GLITCH // 125)
    pio.arm()
    assert len({id(sm.prog) for sm in pio.sms[:4]}) == 1 and pio.sms[4].prog is not pio.sms[0].prog
    assert [sm.tx for sm in pio.sms] == [[FW.bell_count(GLITCH)]] * 6
    later = AT + 375
    lamp_at, lit = _contest(pio, [(0, 0), (AT, 1 << 2), (later, 1 << 2 | 1 << 15)], later + GLITCH + 200)
    assert lit == 1 << 10 and pio.winners() == 0b1 and pio.winners() == 0
    assert lamp_at is not None and 0 <= lamp_at - (AT + GLITCH) <= BUDGET
    pio.arm()
    assert all(sm.inits == 2 and sm.tx == [FW.bell_count(GLITCH)] for sm in pio.sms)
    _lamp_at, lit = _contest(pio, [(0, 0), (AT, 1 << 3 | 1 << 14)], AT + GLITCH + 200)
    assert lit == 1 << 11 | 1 << 16 and pio.winners() == 0b10010


def test_pio_bells_arms_only_the_contests_bells_and_disarm_leaves_every_machine_dark(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``arm(mask)`` (what ``app.Board`` does for a contest of some of the bells): only those
    machines get the count, so a bell outside the contest (of the other block, pressed first)
    lights nothing and the contest's bell wins; ``disarm`` (every end of a contest) starts
    every machine again without a count: a press then lights nothing."""
    import types

    monkeypatch.setitem(__import__("sys").modules, "machine", types.SimpleNamespace(Pin=_Pin))
    monkeypatch.setattr(FW.rp2, "StateMachine", _StateMachine, raising=False)
    pairs = [(2, 10), (3, 11), (7, 12), (9, 13), (14, 16), (15, 17)]
    pio = FW.PioBells(pairs, (26, 27), glitch_us=GLITCH // 125)
    pio.arm(0b000011, GLITCH // 125)
    assert [sm.tx for sm in pio.sms] == [[FW.bell_count(GLITCH)]] * 2 + [[]] * 4
    later = AT + 375
    lamp_at, lit = _contest(pio, [(0, 0), (AT, 1 << 14), (later, 1 << 14 | 1 << 3)], later + GLITCH + 200)
    assert lit == 1 << 11 and pio.winners() == 0b10  # bell 4 (GP14) was first but is not in the contest
    assert lamp_at is not None and 0 <= lamp_at - (later + GLITCH) <= BUDGET
    pio.disarm()
    assert all(sm.inits == 2 and sm.tx == [] for sm in pio.sms)
    _lamp_at, lit = _contest(pio, [(0, 0), (AT, 1 << 2 | 1 << 15)], AT + GLITCH + 200)
    assert lit == 0 and pio.winners() == 0


def test_pio_bells_refuses_more_bells_than_state_machines(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    monkeypatch.setitem(__import__("sys").modules, "machine", types.SimpleNamespace(Pin=_Pin))
    with pytest.raises(ValueError, match="9 bells: the PIO lockout takes 1..8"):
        FW.PioBells([(i, 10 + i) for i in range(9)], (26, 27), glitch_us=1000)


# -- firmware/rp2_model.py (the simulator's and the board tests' machines) against the program --


class _ModelPin:
    IN, OUT, PULL_UP = 0, 1, 2

    def __init__(self, gp: int, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        self.id, self.level = gp, 1 if value is None else value

    def value(self, v: int | None = None) -> int:
        if v is not None:
            self.level = v
        return self.level


def _model_contest(levels: list[tuple[int, int]], until_us: int) -> tuple[int | None, int]:
    """``levels`` (µs, pressed mask of bells 0..7) through ``PioBells`` over the model, with
    the emulator's wiring (bells on GPIO 0..7, lamps 8+i, LOCKs 20/21): (the µs the first
    lamp shows, the bells lit)."""
    from types import SimpleNamespace

    from controller.box.sources.board_sim import pio_lockout, rp2_model

    now = [0]
    bells = rp2_model.Bells(lambda: now[0], pio_lockout.BELL_LEAD, pio_lockout.BELL_STEP)
    pm = SimpleNamespace(DIRECT={i: i for i in range(8)}, DEBOUNCE={"glitch_us": GLITCH // 125},
                         PIO_LOCKOUT={"lamps": {i: 8 + i for i in range(8)}, "locks": (20, 21)})
    pio = pio_lockout.PioBells.from_pinmap(pm, _ModelPin, bells.StateMachine)
    pio.arm()
    pressed, first = 0, None
    for t in range(until_us):
        now[0] = t
        for at, lv in levels:
            if at == t:
                for i in range(8):
                    if (lv ^ pressed) >> i & 1:
                        bells.level(i, 0 if lv >> i & 1 else 1)
                pressed = lv
        if first is None and bells.lit():
            first = t
    return first, sum(1 << (gp - 8) for gp in bells.lit())


@pytest.mark.parametrize("levels", [
    [(2, 1 << 5)],  # one bell
    [(2, 1), (5, 1 | 1 << 5)],  # another (the other block) joins 3 µs later: the first alone
    [(2, 1 << 1 | 1 << 6)],  # both blocks in the same instant: a tie
    [(2, 1 << 2), (11, 0)],  # released before the filter's end: nothing
    [(2, 1 << 3), (4, 0), (6, 1 << 3)],  # a bounce: confirmed from its last edge
], ids=["one", "joiner", "tie", "glitch", "bounce"])
def test_the_simulators_model_lights_what_the_program_lights_within_its_microsecond(
        levels: list[tuple[int, int]]) -> None:
    """The model of ``bell_program`` that the simulator and the board tests run lights the
    same lamps as the program in the cycle-exact emulator, in the same µs (the model shows a
    lamp at the first µs at or after the program's, which is 10.03 µs after the last edge)."""
    end_us = levels[-1][0] + 3 * GLITCH // 125
    emu = run_bells(8, GLITCH, [(0, 0)] + [(at * 125, lv) for at, lv in levels], end_us * 125)
    lamp_us, lit = _model_contest(levels, end_us)
    assert lit == emu.lamps
    if emu.lamp_at is None:
        assert lamp_us is None
    else:
        assert lamp_us is not None and lamp_us - 1 < emu.lamp_at / 125 <= lamp_us
