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
