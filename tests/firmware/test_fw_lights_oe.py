"""The lamps stay dark from power-up until the firmware has written all-off to
the 74HC595 chain: /OE (10 kΩ pull-up) is pulled low only after that write.

The firmware runs under CPython on a model of the chain: a 595 powers up with
random bits in its output register, shows them only while /OE is low, and
latches its shift register on RCLK's rising edge (the same order runs under
MicroPython in test_fw_micropython.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from controller.apps.firmware_tools import PINMAP_TOML, FirmwareError, render_pinmap
from firmware.buzzer import app
from firmware.buzzer import pinmap as stock

POWER_UP_GARBAGE = 0xA5  # what a 595's output register may hold before any write


class ChainModel:
    """The 595 chain and the Pico pins the firmware touches, logging every change."""

    def __init__(self, pinmap: Any) -> None:
        self.pinmap = pinmap
        self.shift = bytes(pinmap.LIGHT_CHIPS)
        self.outputs = bytes([POWER_UP_GARBAGE] * pinmap.LIGHT_CHIPS)
        self.oe_driven: int | None = None  # None: the pin floats, the pull-up holds /OE high
        self.rclk = 0
        self.log: list[str] = []
        self.lit: list[list[int]] = []  # the lamps on after each logged change
        model = self

        class Pin:
            IN, OUT, PULL_UP = 0, 1, 1
            IRQ_FALLING, IRQ_RISING = 4, 8

            def __init__(self, pid: int, mode: int = -1, pull: Any = -1, value: int | None = None) -> None:
                self.pid, self.level = pid, 1
                if pid == pinmap.LIGHT_OE:
                    model.oe_driven = value if mode == Pin.OUT else None
                    model.changed(f"oe out {value}" if mode == Pin.OUT else f"oe input pull={pull}")
                elif value is not None:
                    self.value(value)

            def value(self, v: int | None = None) -> int:
                if v is None:
                    return self.level
                if self.pid == pinmap.LIGHT_LATCH and v == 1 and model.rclk == 0:
                    model.outputs = model.shift
                    model.changed("rclk")
                if self.pid == pinmap.LIGHT_LATCH:
                    model.rclk = v
                if self.pid == pinmap.LIGHT_OE:
                    model.oe_driven = v
                    model.changed(f"oe {v}")
                self.level = v
                return v

            def irq(self, handler: Any = None, trigger: int = 0, hard: bool = False) -> Any:
                return SimpleNamespace(flags=lambda: 0)

        class SPI:
            def __init__(self, *a: Any, **kw: Any) -> None:
                pass

            def readinto(self, buf: bytearray) -> None:
                buf[:] = bytes([0xFF] * len(buf))

            def write(self, data: bytes) -> None:
                model.shift = bytes(data)
                model.changed(f"spi {bytes(data).hex()}")

        self.hw = SimpleNamespace(Pin=Pin, SPI=SPI)

    def changed(self, what: str) -> None:
        self.log.append(what)
        self.lit.append(self.lamps_lit())

    def lamps_lit(self) -> list[int]:
        """Light channels whose lamp is on now (none while /OE is high: outputs off)."""
        if self.oe_driven != 0:
            return []
        n = len(self.outputs)
        return [8 * chip + bit for chip in range(n) for bit in range(8)
                if self.outputs[n - 1 - chip] >> bit & 1]


class Link:
    def __init__(self) -> None:
        self.inbox = b""

    def read(self) -> bytes:
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> int:
        return len(data)


def boot(pinmap: Any = stock) -> tuple[ChainModel, app.Board, Link]:
    chain, link = ChainModel(pinmap), Link()
    board = app.Board(chain.hw, link, pinmap, lambda: 1000, "0e0e0e0e")
    return chain, board, link


def test_the_stock_pin_map_has_an_oe_pin_the_generator_keeps() -> None:
    assert stock.LIGHT_OE == 28  # GP28 (Pico pin 34); direct channel 20 gave it up
    assert "LIGHT_OE = 28" in render_pinmap()
    assert 20 not in stock.DIRECT and sorted(stock.DIRECT) == list(range(20))


def test_oe_stays_high_until_all_off_is_latched_then_goes_low() -> None:
    chain, board, _ = boot()
    off = "00" * stock.LIGHT_CHIPS
    # /OE: released to the pull-up (no pull of the Pico's own), chain written all-off,
    # latched, and only then driven low; never driven high (a leftover jumper to ground
    # from the old guide shorts nothing)
    assert chain.log == ["oe input pull=None", f"spi {off}", "rclk", "oe out 0"]
    assert chain.outputs == bytes(stock.LIGHT_CHIPS) and chain.lamps_lit() == []


def test_no_lamp_lights_from_power_up_until_the_host_asks_and_then_it_does() -> None:
    chain = ChainModel(stock)
    assert chain.lamps_lit() == []  # garbage in the 595s, but /OE high: dark
    link = Link()
    board = app.Board(chain.hw, link, stock, lambda: 1000, "0e0e0e0e")
    board.step()
    assert chain.lit and all(lit == [] for lit in chain.lit)  # dark after every change on the way
    link.inbox = b"L 5 on\n"
    board.step()
    assert chain.lamps_lit() == [5]  # /OE really released: the lamp the host asked for is on


def test_a_pin_map_without_oe_leaves_oe_to_the_wiring() -> None:
    no_oe = SimpleNamespace(**{k: getattr(stock, k) for k in dir(stock) if k.isupper()})
    no_oe.LIGHT_OE = None
    chain, _, _ = boot(no_oe)
    assert chain.log == [f"spi {'00' * stock.LIGHT_CHIPS}", "rclk"]


def test_a_pin_map_putting_oe_on_a_direct_input_is_refused(tmp_path) -> None:
    bad = tmp_path / "board-pinmap.toml"
    bad.write_text(PINMAP_TOML.read_text(encoding="utf-8").replace("oe = 28", "oe = 22"), encoding="utf-8")
    with pytest.raises(FirmwareError, match="GP22 is both direct channel 17 and lights.oe; give each its own pin"):
        render_pinmap(bad)
    bad.write_text(PINMAP_TOML.read_text(encoding="utf-8").replace("oe = 28", "oe = 25"), encoding="utf-8")
    with pytest.raises(FirmwareError, match="lights.oe is on GP25, which the Pico's header does not have"):
        render_pinmap(bad)
