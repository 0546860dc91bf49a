"""Board channel numbering: what a ``source = "board"`` profile's numbers mean.

The firmware board is a Raspberry Pi Pico (RP2040). Its input channels are
numbered so that a builder can find every one with a multimeter:

* **Direct channels 0..19 are GP0..GP19**, the channel number *is* the GP
  number (channel 5 is GP5, Pico pin 7). Internal pull-ups, edge-stamped by
  the firmware.
* **Channels 20..25 do not exist as inputs**: GP20, GP21, GP22 carry the
  74HC165 input bus, GP23..GP25 are inside the Pico (power-save, VBUS
  sense, the on-board LED) and are not on its pins.
* **Shift-register channels 26..95**: channel ``26 + 8*N + B`` is 74HC165
  chip N bit B. Chip 0 is the one whose QH output goes to the Pico; bit 0 is
  input A (pin 11) ... bit 7 is input H (pin 6). The 74HC165 has no pull-ups:
  each input needs a 10 kΩ resistor to 3.3 V.

Light channels 0..95: channel ``8*N + B`` is 74HC595 chip N output QB, which
drives the same-numbered ULN2803 (chip N) input B+1. GP26, GP27, GP28 carry
the 74HC595 bus. Kept small on purpose: the firmware's pin map
(wiring/board-pinmap.toml) follows these numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.profile import BOARD_INPUT_CHANNELS, BOARD_LIGHT_CHANNELS, Profile

DIRECT_CHANNELS = range(0, 20)
SR_FIRST_CHANNEL = 26
SR_BITS = 8
#: Pico GP pins the firmware keeps for its buses (signal name per GP).
SR_IN_BUS = {20: "74HC165 SH/LD (pin 1)", 21: "74HC165 CLK (pin 2)", 22: "74HC165 QH (pin 9) of chip 0"}
SR_OUT_BUS = {26: "74HC595 SER/DS (pin 14) of chip 0", 27: "74HC595 SRCLK (pin 11)", 28: "74HC595 RCLK latch (pin 12)"}
NOT_ON_PINS = {23: "SMPS power-save", 24: "VBUS sense", 25: "on-board LED"}

#: Physical Pico pin of each GP number, and where its ground pins are.
GP_TO_PICO_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
    26: 31, 27: 32, 28: 34,
}
PICO_GROUND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)
#: 74HC165 parallel input pin of each bit (bit 0 = A ... bit 7 = H).
HC165_BIT_PIN = {0: 11, 1: 12, 2: 13, 3: 14, 4: 3, 5: 4, 6: 5, 7: 6}
#: 74HC595 output pin of each bit (QB).
HC595_BIT_PIN = {0: 15, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}


@dataclass(frozen=True)
class InputPlace:
    """Where a board input channel is soldered."""

    channel: int
    gp: int | None = None  # direct channel: the Pico GP pin
    chip: int | None = None  # shift-register channel: the 74HC165 in the chain
    bit: int | None = None

    def describe(self) -> str:
        if self.gp is not None:
            return f"GP{self.gp} (Pico pin {GP_TO_PICO_PIN[self.gp]})"
        return f"SR chip {self.chip} bit {self.bit} (74HC165 #{self.chip} pin {HC165_BIT_PIN[self.bit or 0]})"


@dataclass(frozen=True)
class LightPlace:
    """Where a board light channel comes out: a 74HC595 bit into a ULN2803."""

    channel: int
    chip: int
    bit: int

    def describe(self) -> str:
        return (
            f"595 chip {self.chip} Q{self.bit} (pin {HC595_BIT_PIN[self.bit]}) "
            f"-> ULN2803 #{self.chip} OUT{self.bit + 1} (pin {18 - self.bit})"
        )


def input_place(channel: int) -> InputPlace:
    """Where input ``channel`` is; ValueError (saying what to use) if it is not an input."""
    if channel in DIRECT_CHANNELS:
        return InputPlace(channel, gp=channel)
    if SR_FIRST_CHANNEL <= channel < BOARD_INPUT_CHANNELS:
        chip, bit = divmod(channel - SR_FIRST_CHANNEL, SR_BITS)
        return InputPlace(channel, chip=chip, bit=bit)
    if channel in SR_IN_BUS:
        why = f"GP{channel} carries the {SR_IN_BUS[channel]}"
    elif channel in NOT_ON_PINS:
        why = f"GP{channel} is the Pico's {NOT_ON_PINS[channel]}, not on its pins"
    else:
        why = "there is no such channel"
    raise ValueError(
        f"board input channel {channel} is not an input ({why}); use 0..19 (GP0..GP19) "
        f"or {SR_FIRST_CHANNEL}..{BOARD_INPUT_CHANNELS - 1} (74HC165 chain)"
    )


def light_place(channel: int) -> LightPlace:
    if not 0 <= channel < BOARD_LIGHT_CHANNELS:
        raise ValueError(f"board light channel {channel} does not exist; use 0..{BOARD_LIGHT_CHANNELS - 1}")
    chip, bit = divmod(channel, SR_BITS)
    return LightPlace(channel, chip, bit)


def problems(profile: Profile) -> list[str]:
    """Board channels a profile uses that the board cannot read (empty for gpio profiles)."""
    if profile.source != "board":
        return []
    out = []
    for channel, (station, name) in sorted(profile.input_pins().items()):
        try:
            input_place(channel)
        except ValueError as exc:
            who = "host button" if station == profile.HOST_STATION else f"station {profile.stations[station].name!r}"
            out.append(f"{who} input {name!r}: {exc}")
    return out


def chips_needed(profile: Profile) -> tuple[int, int]:
    """(74HC165 chips, 74HC595 chips) a board profile needs, counting gaps in the chain."""
    sr_in = [input_place(c).chip for c in profile.input_pins() if c >= SR_FIRST_CHANNEL]
    sr_out = [light_place(c).chip for c in profile.light_pins().values()]
    return (max(sr_in) + 1 if sr_in else 0, max(sr_out) + 1 if sr_out else 0)
