"""Board channel numbering: what a ``source = "board"`` profile's numbers mean.

The numbering belongs to the firmware board's pin map, wiring/board-pinmap.toml
(the firmware is generated from it). This module reads that file, so the
diagrams, the multimeter table and ``wiring check`` name exactly the pins the
firmware reads:

* **Direct input channels** (``[direct]``: channel -> Pico GP pin; 0..19 on the
  stock board, 0..15 being GP0..GP15): internal pull-ups, hard IRQ stamps.
* **Shift-register input channels** ``32 + 8*N + B``: SN74HCS165 chip N, bit B
  (input D``B``: D0 = A, pin 11 ... D7 = H, pin 6). Chip 0's QH goes to the
  Pico's SPI MISO. The SN74HCS165 has no pull-ups: 3.3 kΩ to 3.3 V at the connector on each
  input (wiring/README.md).
* **Light channels** ``8*N + B``: 74HC595 chip N output Q``B``, into
  ULN2803 #N input B+1. Chip 0 is the one on the Pico's SPI MOSI.

Everything else (the channels between, GP pins used by the buses) is no input,
and ``problems`` says so with the channels to use instead.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from controller.box.profile import Profile, wiring_dir
from games.i18n import _

PINMAP = "board-pinmap.toml"
SR_FIRST_CHANNEL = 32
SR_BITS = 8

#: Physical Pico pin of each GP number, and its ground pins.
GP_TO_PICO_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
    26: 31, 27: 32, 28: 34,
}
PICO_GROUND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)
#: SN74HCS165 parallel input pin of each bit (bit 0 = D0/A ... bit 7 = D7/H).
HC165_BIT_PIN = {0: 11, 1: 12, 2: 13, 3: 14, 4: 3, 5: 4, 6: 5, 7: 6}
#: 74HC595 output pin of each bit (QB).
HC595_BIT_PIN = {0: 15, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}


@dataclass(frozen=True)
class PinMap:
    """The board's pin map, as the firmware uses it."""

    direct: dict[int, int]  # input channel -> GP pin
    sr_chips: int
    light_chips: int
    bus: dict[int, str]  # GP pin -> what it carries

    @property
    def sr_channels(self) -> range:
        return range(SR_FIRST_CHANNEL, SR_FIRST_CHANNEL + SR_BITS * self.sr_chips)

    @property
    def light_channels(self) -> range:
        return range(0, SR_BITS * self.light_chips)

    def describe_inputs(self) -> str:
        """'0..19 (direct GP pins) or 32..95 (SN74HCS165 chain)'."""
        d = sorted(self.direct)
        direct = f"{d[0]}..{d[-1]}" if d == list(range(d[0], d[-1] + 1)) else ", ".join(map(str, d))
        sr = self.sr_channels
        if not len(sr):
            return _("{direct} (direct GP pins)").format(direct=direct)
        return _("{direct} (direct GP pins) or {first}..{last} (SN74HCS165 chain)").format(
            direct=direct, first=sr.start, last=sr.stop - 1)


def read_pinmap_toml(path: Path, extended_by: Path | None = None) -> dict:  # type: ignore[type-arg]
    """A pin map's TOML; ``extends = "other.toml"`` (beside it) takes every section this
    one does not give from that one, so a variant (wiring/board-pinmap-lockout.toml)
    repeats nothing of the stock map. A bad ``extends`` is a ValueError naming the fix."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    base = data.pop("extends", None)
    if base is None:
        return data
    if extended_by is not None:
        raise ValueError(f"{extended_by}: {path.name} extends another map itself; extend the stock map")
    base_path = path.parent / str(base)
    if not isinstance(base, str) or base_path.resolve() == path.resolve() or not base_path.is_file():
        raise ValueError(f"{path}: extends = {base!r} is not another pin map beside it; "
                         f"name one, e.g. extends = \"{PINMAP}\"")
    merged = read_pinmap_toml(base_path, path)
    merged.update(data)
    return merged


def load_pinmap(path: Path | None = None) -> PinMap:
    """Read wiring/board-pinmap.toml (the firmware's pin map)."""
    data = read_pinmap_toml(path or wiring_dir() / PINMAP)
    spi, sr, lights = data["spi"], data["shift_in"], data["lights"]
    bus = {
        int(spi["sck"]): "SPI SCK: 165 CLK (2), 595 SRCLK (11)",
        int(spi["mosi"]): "SPI MOSI: 74HC595 #0 SER (pin 14)",
        int(spi["miso"]): "SPI MISO: SN74HCS165 #0 QH (pin 9)",
        int(sr["load"]): "SN74HCS165 SH/LD (pin 1)",
        int(lights["latch"]): "74HC595 RCLK latch (pin 12)",
    }
    if "oe" in lights:  # 10 kΩ to 3.3 V keeps the lamps dark until the firmware's first write
        bus[int(lights["oe"])] = "74HC595 /OE (pin 13), 10k to 3V3"
    return PinMap(
        direct={int(ch): int(gp) for ch, gp in data["direct"].items()},
        sr_chips=int(sr["chips"]),
        light_chips=int(lights["chips"]),
        bus=bus,
    )


@lru_cache(maxsize=1)
def pinmap() -> PinMap:
    return load_pinmap()


@dataclass(frozen=True)
class InputPlace:
    """Where a board input channel is soldered."""

    channel: int
    gp: int | None = None  # direct channel: the Pico GP pin
    chip: int | None = None  # shift-register channel: the SN74HCS165 in the chain
    bit: int | None = None

    def describe(self) -> str:
        """'GP5 (Pico pin 7)' or 'SR chip 1 bit 3 (SN74HCS165 #1 D3, pin 14)', in the reader's language."""
        if self.gp is not None:
            return _("GP{gp} (Pico pin {pin})").format(gp=self.gp, pin=GP_TO_PICO_PIN[self.gp])
        bit = self.bit or 0
        return _("SR chip {chip} bit {bit} (SN74HCS165 #{chip} D{bit}, pin {pin})").format(
            chip=self.chip, bit=bit, pin=HC165_BIT_PIN[bit])


@dataclass(frozen=True)
class LightPlace:
    """Where a board light channel comes out: a 74HC595 bit into a ULN2803."""

    channel: int
    chip: int
    bit: int

    def describe(self) -> str:
        """'595 chip 0 Q1 (pin 1) -> ULN2803 #0 OUT2 (pin 17)', in the reader's language."""
        return _("595 chip {chip} Q{bit} (pin {pin}) -> ULN2803 #{chip} OUT{out} (pin {out_pin})").format(
            chip=self.chip, bit=self.bit, pin=HC595_BIT_PIN[self.bit], out=self.bit + 1, out_pin=18 - self.bit)


def input_place(channel: int, pm: PinMap | None = None) -> InputPlace:
    """Where input ``channel`` is; ValueError (saying what to use) if the board does not read it."""
    pm = pm or pinmap()
    if channel in pm.direct:
        return InputPlace(channel, gp=pm.direct[channel])
    if channel in pm.sr_channels:
        chip, bit = divmod(channel - SR_FIRST_CHANNEL, SR_BITS)
        return InputPlace(channel, chip=chip, bit=bit)
    raise ValueError(
        f"board input channel {channel} is not an input the board reads (see wiring/{PINMAP}); "
        f"use {pm.describe_inputs()}"
    )


def light_place(channel: int, pm: PinMap | None = None) -> LightPlace:
    pm = pm or pinmap()
    if channel not in pm.light_channels:
        raise ValueError(
            f"board light channel {channel} is not a light the board drives (see wiring/{PINMAP}); "
            f"use 0..{pm.light_channels.stop - 1}"
        )
    chip, bit = divmod(channel, SR_BITS)
    return LightPlace(channel, chip, bit)


def problems(profile: Profile, pm: PinMap | None = None) -> list[str]:
    """Board channels a profile uses that the board cannot read or drive (empty for gpio profiles)."""
    if profile.source != "board":
        return []
    out = []
    for channel, (station, name) in sorted(profile.input_pins().items()):
        try:
            input_place(channel, pm)
        except ValueError as exc:
            who = "host button" if station == profile.HOST_STATION else f"station {profile.stations[station].name!r}"
            out.append(f"{who} input {name!r}: {exc}")
    for (station, name), channel in sorted(profile.light_pins().items()):
        try:
            light_place(channel, pm)
        except ValueError as exc:
            out.append(f"station {profile.stations[station].name!r} light {name!r}: {exc}")
    return out


def chips_needed(profile: Profile) -> tuple[int, int]:
    """(SN74HCS165 chips, 74HC595 chips) a board profile needs, counting gaps in the chain."""
    sr_in = [input_place(c).chip or 0 for c in profile.input_pins() if c >= SR_FIRST_CHANNEL]
    sr_out = [light_place(c).chip for c in profile.light_pins().values()]
    return (max(sr_in) + 1 if sr_in else 0, max(sr_out) + 1 if sr_out else 0)
