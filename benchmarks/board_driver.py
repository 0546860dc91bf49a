"""Board driver figures: decode rate, press -> sink latency through a pty,
bytes per event and what a bounce storm on 63 inputs costs on USB.

Run: PYTHONPATH=. python benchmarks/board_driver.py
"""

from __future__ import annotations

import statistics
import threading
import time

from controller.box.press import InputNotice, Press, Watermark
from controller.box.sources.board import BoardSession
from controller.box.sources.board_sim import start_simulated_board
from firmware.buzzer.proto import frame

CHANNELS = {ch: (ch % 7, f"in{ch}") for ch in list(range(20)) + list(range(32, 96))}


def decode_rate(n: int = 100_000, version: int = 2) -> tuple[float, float]:
    """Events/s the sans-I/O session decodes (CRC check, parse, range checks, unwrap,
    map, clock error); ``version=1``: the v1 lines (no b=/w=) as a baseline."""
    s = BoardSession(CHANNELS)
    s.opened(0)
    extra = " a=0 cap_kind=irq pd=20 held=-" if version == 2 else ""
    s.receive(frame(f"H v={version} fw=x boot=0000000b w=0 t=0 s=0 in=0-19 sr=32-95 lights=0-63 hb=250000 "
                    f"cap=256 db=1/1/2{extra}"), 0)
    s.receive(frame("K from=1 lost=0"), 0)
    boot = "b=0000000b " if version == 2 else ""  # v1 replies name no boot
    for r in range(1, 5):
        s.receive(frame(f"C r={r} {boot}w=0 t=10"), 20)
    s.receive(frame("B b=0000000b w=0 t=10 s=0 q=0 d=0 e=0 g=0 x=0 o=0 f=0 pd=20"), 20)
    assert s.connected
    tag = "b=0000000b " if version == 2 else ""
    wraps = "w=0 " if version == 2 else ""
    lines = [frame(f"P {i} {tag}c={32 + i % 64} {wraps}t={(1000 + 37 * i) & ((1 << 30) - 1)} n=3 p=180")
             for i in range(1, n + 1)]
    t0 = time.perf_counter()
    delivered = 0
    for line in lines:
        delivered += len(s.receive(line, 10_000_000))  # after every stamp: none is from the future
    dt = time.perf_counter() - t0
    assert delivered == n
    return n / dt, sum(len(x) for x in lines) / n


class LatencySink:
    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.cv = threading.Condition()

    def edge(self, *a: object) -> None: ...

    def press(self, p: Press) -> None:
        with self.cv:
            self.arrived[p.t_us] = time.monotonic_ns() / 1000
            self.cv.notify_all()

    def notice(self, n: InputNotice) -> None:
        with self.cv:
            self.cv.notify_all()

    def watermark(self, mark: Watermark) -> None: ...


def latency(presses: int = 200) -> list[float]:
    """Real time from the debounce accepting a press (the firmware loop emits
    it) to the sink's ``press`` call, through the pty, in µs."""
    sim, src = start_simulated_board({0: (0, "bell")}, realtime=False, host_offset_us=0)
    src.clock = sim.host_clock  # type: ignore[assignment]
    src.session.clock.slack_us = 0
    sink = LatencySink()
    src.start(sink)
    with sink.cv:
        sink.cv.wait_for(lambda: src.connected, 10)
    out = []
    for _ in range(presses):
        at = sim.press(0, hold_us=5_000, bounce=(100, 200))
        sim.advance(at - sim.now_us + 1_100)  # one step short of acceptance
        key = sim.box_time(at)
        t_emit = time.monotonic_ns() / 1000
        sim.advance(100)  # the glitch time is over: the loop emits the press
        with sink.cv:
            sink.cv.wait_for(lambda key=key: key in sink.arrived, 5)
        out.append(sink.arrived[key] - t_emit)
        sim.advance(30_000)
    src.stop()
    sim.close()
    return out


def main() -> None:
    rates, rates_v1 = [], []
    for _ in range(3):  # repeated, v1 baseline interleaved: the spread is printed
        rate, bytes_per = decode_rate()
        rates.append(rate)
        rates_v1.append(decode_rate(version=1)[0])
    rate = statistics.median(rates)
    lat = sorted(latency())
    p99 = lat[int(0.99 * (len(lat) - 1))]
    # USB full speed is 12 Mbit/s; CDC bulk realistically moves ~ 1 MB/s on a Pico
    # (64-byte packets, 19 per 1 ms frame at most; MicroPython's stdout path is slower still).
    cdc_bytes_s = 1_000_000
    press_lines = 63  # every input of a 7-station box pressed in the same instant
    raw_edges = 63 * 20  # a storm: all 63 inputs bouncing 20 edges each within ~1 ms
    print(f"decode (v2 lines, every field range-checked): median {rate:,.0f} events/s, "
          f"spread {min(rates):,.0f}-{max(rates):,.0f} over {len(rates)} runs ({bytes_per:.1f} bytes per press line)")
    print(f"  baseline, v1 lines through the same session: median {statistics.median(rates_v1):,.0f} events/s, "
          f"spread {min(rates_v1):,.0f}-{max(rates_v1):,.0f}")
    print(f"press -> sink through the pty: median {statistics.median(lat):.0f} µs, p99 {p99:.0f} µs "
          f"({len(lat)} presses)")
    print(f"63 simultaneous presses: {press_lines * bytes_per:,.0f} bytes, "
          f"{press_lines * bytes_per / cdc_bytes_s * 1000:.2f} ms at ~1 MB/s CDC")
    print(f"bounce storm (63 inputs x 20 edges in ~1 ms): debounced on the board it is 63 press "
          f"lines; streamed as raw edges it would be {raw_edges * bytes_per:,.0f} bytes = "
          f"{raw_edges * bytes_per / cdc_bytes_s * 1000:.0f} ms of CDC time per storm, "
          f"{raw_edges * bytes_per / cdc_bytes_s * 1000:.0f}x longer than the storm itself")


if __name__ == "__main__":
    main()
