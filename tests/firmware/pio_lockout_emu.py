"""The PIO lockout (firmware/buzzer/pio_lockout.py) run cycle by cycle in a PIO emulator.

The very ``program`` factory of the firmware runs here under a stand-in for
MicroPython's ``rp2`` whose assembler names write pioasm text; ``adafruit_pioasm``
assembles it and ``pioemu`` (rp2040-pio-emulator) executes it against scripted
bell levels. Shared by the tests and ``benchmarks/board_lockout.py``.

Emulated pins: bells on GPIO 0..n-1 (the emulator reads IN from pin 0),
direct lamps from ``LAMP_BASE``, the chain's SCK/MOSI/RCLK on 18/19/20 as on
the stock pin map.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import adafruit_pioasm
import pioemu

ROOT = Path(__file__).resolve().parents[2]
LAMP_BASE = 8
SCK, MOSI, RCLK = 18, 19, 20


class _Op:
    def __init__(self, lines: list[str], text: str) -> None:
        self.lines, self.index = lines, len(lines)
        lines.append(text)
        self.side_v: int | None = None
        self.delay = 0

    def side(self, v: int) -> _Op:
        self.side_v = v
        return self

    def __getitem__(self, d: int) -> _Op:
        self.delay = d
        return self


class _Assembler:
    """The names ``rp2.asm_pio`` gives a program body, writing pioasm."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ops: list[_Op] = []
        self.wrap_target: int | None = None
        self.wrap: int | None = None

    def names(self) -> dict[str, object]:
        def op(name: str) -> Callable[..., _Op]:
            def emit(*args: object) -> _Op:
                o = _Op(self.lines, f"{name} {', '.join(str(a) for a in args)}".strip())
                self.ops.append(o)
                return o
            return emit

        def label(name: str) -> None:
            self.lines.append(f"{name}:")

        def wrap_target() -> None:
            self.lines.append(".wrap_target")

        def wrap() -> None:
            self.lines.append(".wrap")

        return {"mov": op("mov"), "in_": op("in"), "jmp": op("jmp"), "push": op("push"), "wait": op("wait"),
                "pull": op("pull"), "out": op("out"), "set": op("set"), "label": label,
                "wrap_target": wrap_target, "wrap": wrap, "invert": lambda r: f"~{r}",
                "isr": "isr", "osr": "osr", "null": "null", "pins": "pins", "x": "x", "y": "y",
                "not_x": "!x", "x_dec": "x--", "y_dec": "y--", "x_not_y": "x!=y", "noblock": "noblock",
                "block": "block", "pin": "pin", "gpio": "gpio"}

    def text(self, sideset: bool) -> str:
        out = [".side_set 1"] if sideset else []
        for line in self.lines:
            o = next((o for o in self.ops if self.lines[o.index] is line), None)
            if o is None:
                out.append(line)
                continue
            side = f" side {o.side_v or 0}" if sideset else ""
            out.append(f"{line}{side}" + (f" [{o.delay}]" if o.delay else ""))
        return "\n".join(out)


@dataclass
class Program:
    text: str
    kwargs: dict[str, object]


def _fake_rp2() -> types.ModuleType:
    rp2 = types.ModuleType("rp2")

    class PIO:
        OUT_LOW, OUT_HIGH, SHIFT_LEFT, SHIFT_RIGHT = 2, 3, 0, 1

    def asm_pio(**kw: object) -> Callable[[Callable[[], None]], Program]:
        def deco(fn: Callable[[], None]) -> Program:
            asm = _Assembler()
            g = fn.__globals__
            saved = {k: g[k] for k in asm.names() if k in g}
            g.update(asm.names())
            try:
                fn()
            finally:
                for k in asm.names():
                    g.pop(k, None)
                g.update(saved)
            return Program(asm.text("sideset_init" in kw), dict(kw))
        return deco

    rp2.PIO = PIO  # type: ignore[attr-defined]
    rp2.asm_pio = asm_pio  # type: ignore[attr-defined]
    return rp2


@contextmanager
def _firmware() -> Iterator[types.ModuleType]:
    saved = sys.modules.get("rp2")
    sys.modules["rp2"] = _fake_rp2()
    sys.path.insert(0, str(ROOT / "firmware"))
    try:
        sys.modules.pop("buzzer.pio_lockout", None)
        yield importlib.import_module("buzzer.pio_lockout")
    finally:
        sys.path.remove(str(ROOT / "firmware"))
        sys.modules.pop("buzzer.pio_lockout", None)
        if saved is None:
            sys.modules.pop("rp2", None)
        else:
            sys.modules["rp2"] = saved


with _firmware() as _fw:
    FW = _fw


@dataclass
class Result:
    """What one contest did, in cycles of the state machine's clock."""

    lamp_at: int | None  # the lamps latched (direct: the pins set; chain: RCLK rose)
    lamps: int  # the lamp bits shown after it (bit i: bell i's lamp)
    pushed: list[int]  # the winning sets pushed to the CPU
    chain_bits: list[int]  # MOSI at each SCK rise (chain mode)


def run(n: int, glitch_cycles: int, levels: Sequence[tuple[int, int]], cycles: int,
        mode: str = "direct") -> Result:
    """Arm, then run ``cycles`` clocks with the pressed set ``levels`` (clock, set) from each
    clock on (bit i: bell i pressed, i.e. its pin low)."""
    prog = FW.program(n, glitch_cycles, mode)
    asm = adafruit_pioasm.Program(prog.text)
    kw = asm.pio_kwargs
    chain = mode == "chain"
    rest = (1 << n) - 1
    schedule = sorted(levels)

    def pins(clock: int) -> int:
        pressed = 0
        for at, lv in schedule:
            if clock >= at:
                pressed = lv
        return rest & ~pressed

    pins.__annotations__ = {"clock": int, "return": int}
    outs = (1 << SCK | 1 << MOSI | 1 << RCLK) if chain else (rest << LAMP_BASE)
    state = pioemu.State(pin_directions=outs, transmit_fifo=__import__("collections").deque([0]))
    extra: dict[str, int] = ({"out_base": MOSI, "out_count": 1, "set_base": RCLK, "set_count": 1,
                              "side_set_base": SCK, "side_set_count": 1} if chain
                             else {"out_base": LAMP_BASE, "out_count": n})
    lamp_at: int | None = None
    seen = 0
    pushed: list[int] = []
    bits: list[int] = []
    shown = 0
    prev = 0
    for _before, after in pioemu.emulate(
            list(asm.assembled), input_source=pins, initial_state=state,
            shift_isr_right=False, shift_osr_right=not chain,
            stop_when=lambda _op, s: s.clock >= cycles,
            wrap_target=kw.get("wrap_target", 0), wrap_top=kw.get("wrap", len(asm.assembled) - 1),
            **extra):
        v = after.pin_values
        if chain:
            if v >> SCK & 1 and not prev >> SCK & 1:
                bits.append(v >> MOSI & 1)
            if v >> RCLK & 1 and not prev >> RCLK & 1:
                lamp_at = lamp_at if lamp_at is not None else after.clock
                last8 = bits[-8:]
                shown = sum(b << (7 - i) for i, b in enumerate(last8))  # first bit in ends at Q7
        else:
            lamps = v >> LAMP_BASE & rest
            if lamps and lamp_at is None:
                lamp_at, shown = after.clock, lamps
        prev = v
        while len(after.receive_fifo) > seen:
            pushed.append(after.receive_fifo[seen])
            seen += 1
    return Result(lamp_at, shown, pushed, bits)


def confirmation(levels: Sequence[tuple[int, int]], glitch_cycles: int) -> int:
    """When a glitch filter on the contacts confirms: the clock from which the final
    pressed set has stood unchanged for the glitch time."""
    last_change = max(at for at, lv in levels if lv or at)
    return last_change + glitch_cycles


# -- one state machine per bell (bell_program), several run in lockstep --------------------

BELL_BASE = 0  # bells on GPIO 0..n-1
BELL_LAMP_BASE = 8  # bell i's lamp on GPIO 8+i
LOCKS = (20, 21)  # PIO0's and PIO1's LOCK pins; bells 0..3 in PIO0, 4..7 in PIO1


def _rot(v: int, k: int) -> int:
    """The pins as a state machine whose IN base is GPIO ``k`` reads them (the emulator reads from 0)."""
    k %= 32
    return ((v >> k) | (v << (32 - k))) & 0xFFFFFFFF


def _reader(k: int, world: list[int]) -> Callable[[pioemu.State], int]:
    def pins(state: pioemu.State) -> int:
        return _rot(world[0], k)

    pins.__annotations__ = {"state": pioemu.State, "return": int}
    return pins


@dataclass
class Machine:
    """One ``bell_program`` state machine as the CPU set it up: its program's pioasm text
    (``wait gpio`` naming an absolute GPIO), its pins (absolute GPIOs) and the words put."""

    text: str
    bell: int  # in_base
    lock: int  # set_base and jmp_pin
    lamp: int  # sideset_base
    tx: list[int]


def run_machines(machines: Sequence[Machine], bells: int, levels: Sequence[tuple[int, int]],
                 cycles: int) -> tuple[int | None, int, list[list[int]]]:
    """``machines`` stepped one cycle at a time together; pins one cycle late between machines
    (the hardware's synchroniser: 2). ``bells``: the GPIO mask of every bell (pulled up);
    ``levels``: (clock, GPIO mask pressed). Returns (the first lamp's clock, the lamp GPIOs lit
    in the 8 cycles after it, what each machine pushed)."""
    import collections
    import re

    schedule = sorted(levels)
    gens = []
    for m in machines:
        k = m.bell  # the emulator reads pins from GPIO 0: every machine sees them rotated by its in_base
        text = re.sub(r"wait (\d), gpio, (\d+)", lambda g, k=k: f"wait {g[1]}, gpio, {(int(g[2]) - k) % 32}", m.text)
        asm = adafruit_pioasm.Program(text)
        world = [0]
        pins = _reader(k, world)
        gen = pioemu.emulate(list(asm.assembled), input_source=pins, shift_isr_right=False,
                             # LOCK is read back from the pad (shared by every machine): only the lamp is
                             # this machine's alone, so only the lamp is kept from its own writes
                             initial_state=pioemu.State(pin_directions=_rot(1 << m.lamp, k),
                                                        transmit_fifo=collections.deque(m.tx)),
                             stop_when=lambda _op, s: s.clock >= cycles, jmp_pin=(m.lock - k) % 32,
                             set_base=(m.lock - k) % 32, set_count=1, side_set_base=(m.lamp - k) % 32,
                             side_set_count=1, wrap_target=0, wrap_top=len(asm.assembled) - 1)
        gens.append((gen, k, _rot(1 << m.lock | 1 << m.lamp, k), world))
    lamps_mask = 0
    for m in machines:
        lamps_mask |= 1 << m.lamp
    driven = [0] * len(machines)
    lamp_at: int | None = None
    shown = 0
    pushed: list[list[int]] = [[] for _ in machines]
    for clock in range(cycles):
        pressed = 0
        for at, lv in schedule:
            if clock >= at:
                pressed = lv
        lock = 0
        for v in driven:
            lock |= v
        world_pins = (bells & ~pressed) | lock
        for i, (gen, k, outs, world) in enumerate(gens):
            world[0] = world_pins
            try:
                _before, after = next(gen)
            except StopIteration:
                continue
            driven[i] = _rot(after.pin_values & outs, -k)
            while len(after.receive_fifo) > len(pushed[i]):
                pushed[i].append(after.receive_fifo[len(pushed[i])])
        lamps = 0
        for v in driven:
            lamps |= v & lamps_mask
        if lamps and lamp_at is None:
            lamp_at = clock
        if lamps and lamp_at is not None and clock - lamp_at < 8:
            shown = lamps
    return lamp_at, shown, pushed


def run_bells(n: int, glitch_cycles: int, levels: Sequence[tuple[int, int]], cycles: int) -> Result:
    """``bell_program`` for ``n`` bells (GPIO 0..n-1, lamps on 8+i, LOCKs 20/21, bells 0..3 in
    PIO0), each its own state machine, stepped one cycle at a time together."""
    machines = []
    for i in range(n):
        block = i // 4
        machines.append(Machine(FW.bell_program(LOCKS[1 - block]).text, BELL_BASE + i, LOCKS[block],
                                BELL_LAMP_BASE + i, [FW.bell_count(glitch_cycles)]))
    lamp_at, shown, pushes = run_machines(machines, ((1 << n) - 1) << BELL_BASE, levels, cycles)
    return Result(lamp_at, shown >> BELL_LAMP_BASE, [i for i, p in enumerate(pushes) if p], [])
