"""Where every profile entry is physically: shared by the table, the diagrams
and the guided test, so all three name a pin the same way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from controller.box.profile import GPIO_TO_HEADER_PIN, RESERVED_GPIOS, Profile
from controller.box.sources import board_channels as bc
from games.i18n import _

HEADER_PIN_TO_GPIO = {pin: gpio for gpio, pin in GPIO_TO_HEADER_PIN.items()}
HEADER_POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
HEADER_GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
ULN_CHANNELS = 8


def header_position(pin: int) -> tuple[int, int]:
    """(row, column) of a 40-pin header pin: pin 1 top left, odd pins left."""
    return (pin - 1) // 2, (pin - 1) % 2


def pico_position(pin: int) -> tuple[int, int]:
    """(row, column) of a Pico pin: 1..20 down the left, 21..40 up the right."""
    return (pin - 1, 0) if pin <= 20 else (40 - pin, 1)


def _nearest(pin: int, grounds: tuple[int, ...], position: Callable[[int], tuple[int, int]]) -> int:
    row, col = position(pin)

    def distance(g: int) -> tuple[float, int]:
        grow, gcol = position(g)
        return abs(grow - row) + 0.5 * abs(gcol - col), g

    return min(grounds, key=distance)


def header_ground_near(pin: int) -> int:
    """The ground pin a builder can reach most easily from ``pin``."""
    return _nearest(pin, HEADER_GROUND, header_position)


def pico_ground_near(pin: int) -> int:
    return _nearest(pin, bc.PICO_GROUND_PINS, pico_position)


def header_pin_name(pin: int) -> str:
    """'GPIO17', 'GND', '3V3', 'GPIO0 (ID_SD)' ..."""
    if pin in HEADER_POWER:
        return HEADER_POWER[pin]
    if pin in HEADER_GROUND:
        return "GND"
    gpio = HEADER_PIN_TO_GPIO[pin]
    if gpio in RESERVED_GPIOS:
        return f"GPIO{gpio} ({RESERVED_GPIOS[gpio].split(',')[0]})"
    return f"GPIO{gpio}"


@dataclass(frozen=True)
class Row:
    """One input of a profile with everything needed to find it with a meter."""

    station: str  # station name, or "Host" in the reader's language
    station_index: int  # -1 for the host
    input: str
    number: int  # BCM GPIO or board channel
    place: str  # "header pin 11", "GP5 (Pico pin 7)", "SR chip 1 bit 3 (...)"
    ground: str  # the ground to measure against
    light: int | None = None
    light_place: str = ""


def light_order(profile: Profile) -> list[tuple[int, str]]:
    """Lights in profile order: light k of a header box sits on ULN2803 #k//8."""
    return list(profile.light_pins())


def uln_for_header_light(profile: Profile, key: tuple[int, str]) -> tuple[int, int]:
    """(ULN2803 number, channel 1..8) a header light goes through."""
    chip, channel = divmod(light_order(profile).index(key), ULN_CHANNELS)
    return chip, channel + 1


def rows(profile: Profile) -> list[Row]:
    """Every input of the profile, stations first in order, then host buttons."""
    lights = profile.light_pins()
    out: list[Row] = []
    entries = [(st.index, st.name, name, pin) for st in profile.stations for name, pin in st.inputs.items()]
    entries += [(profile.HOST_STATION, _("Host"), action, pin) for action, pin in profile.host.items()]
    for index, station, name, number in entries:
        light = lights.get((index, name))
        if profile.source == "gpio":
            header = GPIO_TO_HEADER_PIN[number]
            place = _("header pin {pin}").format(pin=header)
            ground = _("header pin {pin}").format(pin=header_ground_near(header))
            light_place = ""
            if light is not None:
                chip, channel = uln_for_header_light(profile, (index, name))
                light_place = _("header pin {pin} -> ULN2803 #{chip} IN{channel} (pin {channel}), "
                                "OUT{channel} (pin {out_pin})").format(
                    pin=GPIO_TO_HEADER_PIN[light], chip=chip, channel=channel, out_pin=19 - channel)
        else:
            where = bc.input_place(number)
            place = where.describe()
            if where.gp is not None:
                ground = _("Pico pin {pin}").format(pin=pico_ground_near(bc.GP_TO_PICO_PIN[where.gp]))
            else:
                ground = _("board GND (SN74HCS165 pin 8)")
            light_place = bc.light_place(light).describe() if light is not None else ""
        out.append(Row(station, index, name, number, place, ground, light, light_place))
    return out
