"""The PIO sampler (firmware/buzzer/pio.py), assembled and run in a PIO emulator.

The very function the Pico assembles with ``rp2.asm_pio`` is executed here
with its DSL names (mov, in_, jmp, ...) emitting pioasm text, which
``adafruit_pioasm`` assembles and ``pioemu`` (rp2040-pio-emulator) runs
cycle by cycle against scripted pin levels. What it checks: a sample is
pushed exactly when the pins change, with the new levels; pins changing
together are one push; the loop's cycle count is the sampling period the
firmware declares."""

from __future__ import annotations

import ast
import types
from pathlib import Path

import adafruit_pioasm  # dev extra (pyproject.toml): installed by `make setup`, never skipped
import pioemu

PIO_PY = Path(__file__).resolve().parents[2] / "firmware" / "buzzer" / "pio.py"


def pioasm_text() -> str:
    """Run firmware/buzzer/pio.py's ``change_sampler`` body with DSL names that write pioasm."""
    tree = ast.parse(PIO_PY.read_text())
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "change_sampler")
    fn.decorator_list = []
    lines: list[str] = []

    def op(name: str):  # noqa: ANN202
        def emit(*args: object) -> None:
            lines.append(f"{name} {', '.join(str(a) for a in args)}".strip())
        return emit

    dsl = {"mov": op("mov"), "in_": op("in"), "jmp": op("jmp"), "push": op("push"),
           "label": lambda name: lines.append(f"{name}:"), "wrap_target": lambda: lines.append(".wrap_target"),
           "wrap": lambda: lines.append(".wrap"), "isr": "isr", "null": "null", "pins": "pins",
           "x": "x", "y": "y", "x_not_y": "x!=y", "noblock": "noblock"}
    code = compile(ast.Module([fn], type_ignores=[]), str(PIO_PY), "exec")
    scope: dict[str, object] = dict(dsl)
    exec(code, scope)  # noqa: S102 - our own firmware source, to read its PIO program
    types.FunctionType(scope["change_sampler"].__code__, scope)()  # type: ignore[attr-defined]
    return "\n".join(lines)


def run(levels_at: list[tuple[int, int]], cycles: int) -> list[tuple[int, int]]:
    """Emulate ``cycles`` clocks with pins set to ``levels`` from each clock on; returns
    (clock, word) of every push."""
    program = adafruit_pioasm.Program(pioasm_text())
    kw = program.pio_kwargs

    def pins(clock: int) -> int:
        level = levels_at[0][1]
        for at, lv in levels_at:
            if clock >= at:
                level = lv
        return level

    pins.__annotations__ = {"clock": int, "return": int}  # pioemu reads the real types

    pushes: list[tuple[int, int]] = []
    seen = 0
    for _before, after in pioemu.emulate(list(program.assembled), input_source=pins, shift_isr_right=False,
                                         stop_when=lambda _op, s: s.clock >= cycles,
                                         wrap_target=kw.get("wrap_target", 0),
                                         wrap_top=kw.get("wrap", len(program.assembled) - 1)):
        while len(after.receive_fifo) > seen:
            pushes.append((after.clock, after.receive_fifo[seen] & 0xFFFF))
            seen += 1
    return pushes


REST = 0xFFFF  # pulled up


def test_nothing_is_pushed_while_no_pin_changes() -> None:
    assert run([(0, REST)], 2_000) == []


def test_a_change_is_pushed_once_with_the_new_levels_and_the_release_too() -> None:
    pressed = REST & ~(1 << 2)
    pushes = run([(0, REST), (100, pressed), (600, REST)], 1_000)
    assert [w for _, w in pushes] == [pressed, REST]
    assert 100 <= pushes[0][0] <= 100 + 10  # seen within two sampling loops


def test_pins_changing_together_are_one_push_whatever_their_numbers() -> None:
    both = REST & ~(1 << 2) & ~(1 << 15)
    pushes = run([(0, REST), (200, both)], 1_000)
    assert [w for _, w in pushes] == [both]


def test_the_sampling_loop_is_as_fast_as_the_firmware_declares() -> None:
    """A change is pushed within one 5-cycle sampling loop plus the fixed path to the
    push (0.5 µs of jitter at the firmware's 10 MHz), inside the declared 2 µs."""
    delays = []
    for at in range(300, 340):  # the change lands at every phase of the loop
        pushes = run([(0, REST), (at, REST & ~1)], at + 40)
        delays.append(pushes[0][0] - at)
    assert max(delays) - min(delays) == 4  # the stamp's jitter: one 5-cycle sampling loop
    assert max(delays) / 10 < 2  # worst change -> push, µs at FREQ = 10 MHz, vs period_us = 2
