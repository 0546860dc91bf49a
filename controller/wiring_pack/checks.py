"""``buzzerbox wiring check``: the profile's verdict, its timing figures, and
warnings about a box that works but may not keep working.

Errors (a profile the box refuses) live in ``controller.profile``; here are
the things a builder should know before soldering: pins shared with an
interface a HAT or an overlay would switch on, the GPIOs with fixed pull-ups,
contacts that need gold plating, a series resistor too small to save a pin.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller import profile as profile_mod
from controller.profile import (
    FIXED_PULL_UP_GPIOS,
    WETTING_CURRENT_MA,
    FrontEnd,
    Profile,
    front_end_timing,
)
from controller.sound import is_wav, wav_problem

#: Header GPIOs that belong to an interface, and what must stay off to use them
#: as plain pins (config.txt on Raspberry Pi OS: /boot/firmware/config.txt).
PIN_FUNCTIONS: list[tuple[str, tuple[int, ...], str]] = [
    ("I2C1", (2, 3), "keep dtparam=i2c_arm off and fit no I2C HAT (an RTC, a sensor)"),
    ("1-Wire", (4,), "keep dtoverlay=w1-gpio off"),
    ("SPI0", (7, 8, 9, 10, 11), "keep dtparam=spi off and fit no SPI HAT or display on SPI0"),
    ("PCM/I2S audio", (18, 19, 20, 21), "keep dtparam=i2s and I2S sound-card overlays (hifiberry-*, iqaudio-*, "
     "googlevoicehat-*) off: this box cannot take an I2S audio HAT; use HDMI or USB audio"),
]
#: A 12 V fault (a crushed cable) may push at most this much into a pin's clamp diode.
FAULT_VOLTS = 12.0
MAX_CLAMP_MA = 10.0


@dataclass(frozen=True)
class Timing:
    """What a front end does to the stamps, in µs."""

    shortest_us: float
    longest_us: float
    spread_us: float
    extra_us: int


def timing(profile: Profile, station: int, input_name: str) -> Timing:
    fe = profile.front_end(station, input_name)
    shortest, longest, spread = front_end_timing(fe)
    return Timing(shortest, longest, spread, profile.precision_extra_us(station, input_name))


def timing_line(t: Timing, source: str) -> str:
    """The front end's figures in one line (check and table)."""
    added = f"{t.extra_us} µs is added to every stamp's precision (closer presses are a tie)"
    return (
        f"a press reaches the pin {t.shortest_us:.2f}-{t.longest_us:.2f} µs after the contact closes (by the "
        f"pin's threshold); worst-case spread between two stations {t.spread_us:.2f} µs: {added}"
    )


def _who(profile: Profile, station: int, name: str) -> str:
    return f"{'Host' if station == Profile.HOST_STATION else profile.stations[station].name} {name}"


def warnings(profile: Profile) -> list[str]:
    """One line per thing to know, each saying what to do about it."""
    out: list[str] = []
    if profile.source == "gpio":
        users: dict[int, str] = {pin: _who(profile, st, name) for pin, (st, name) in profile.input_pins().items()}
        users |= {pin: _who(profile, st, name) + " light" for (st, name), pin in profile.light_pins().items()}
        for function, pins, what in PIN_FUNCTIONS:
            taken = [f"GPIO {pin} ({users[pin]})" for pin in pins if pin in users]
            if taken:
                out.append(f"{', '.join(taken)} on the {function} pins: {what}")
        for pin in sorted(FIXED_PULL_UP_GPIOS):
            if pin not in users:
                continue
            if users[pin].endswith(" light"):
                out.append(
                    f"GPIO {pin} ({users[pin]}) has a fixed 1.8 kΩ pull-up on the Pi's board: its lamp glows "
                    f"while the Pi boots, until the box starts"
                )
            else:
                volts = profile.front_end(*profile.input_pins()[pin]).pressed_volts()
                out.append(
                    f"GPIO {pin} ({users[pin]}) has a fixed 1.8 kΩ pull-up, not the internal one: pressed it "
                    f"reads {volts:.2f} V (0.8 V is the limit), and it is stamped earlier than a normal input; "
                    f"keep it for a button that never races"
                )
    seen: set[FrontEnd] = set()
    for (station, name), fe in profile.front_ends.items():
        if fe in seen:
            continue
        seen.add(fe)
        who = _who(profile, station, name)
        clamp_ma = (FAULT_VOLTS - 3.6) / fe.series_ohms * 1000
        if clamp_ma > MAX_CLAMP_MA:
            out.append(
                f"{who}: a {fe.series_ohms:g} Ω series resistor lets {clamp_ma:.0f} mA into the pin if 12 V reaches "
                f"the cable (a crushed cable, a lamp wire on a switch tab); use 1 kΩ on every input leaving the box"
            )
        if fe.contacts != "gold" and fe.wetting_ma() < WETTING_CURRENT_MA:
            out.append(
                f"{who}: the pull-up passes {fe.wetting_ma():.2f} mA through a closed contact, below the ~1 mA "
                f"{fe.contacts} contacts need to stay reliable; use gold-contact switches, or 3.3 kΩ pull-ups "
                f"(1 mA) identical on every station"
            )
    for station, choice in enumerate(profile.station_sounds()):
        problem = wav_problem(choice) if choice is not None and is_wav(choice) else None
        if problem is not None:
            out.append(f"{profile.stations[station].name}: sound {choice}: {problem} (until then it plays the bell)")
    return out


def report(profile: Profile) -> list[str]:
    """The lines ``wiring check`` prints after OK: timing, offsets, warnings."""
    inputs = sum(len(s.inputs) for s in profile.stations) + len(profile.host)
    lights = sum(len(s.lights) for s in profile.stations)
    lines = [f"OK {profile.name}: {len(profile.stations)} stations, {inputs} inputs, {lights} lights on {profile.source}"]
    first = profile.stations[0]
    fe = profile.front_end(first.index, "bell")
    t = timing(profile, first.index, "bell")
    lines.append(f"front end of every station input: {fe.describe()}")
    lines.append("  " + timing_line(t, profile.source))
    host_fes = {profile.front_end(Profile.HOST_STATION, a) for a in profile.host}
    for host_fe in sorted(host_fes - {fe}, key=lambda f: f.describe()):
        lines.append(f"front end of host buttons: {host_fe.describe()}")
    lines.append(offsets_line(profile))
    lines += [f"WARN {w}" for w in warnings(profile)]
    return lines


def offsets_line(profile: Profile) -> str:
    """'station offsets (drop jig): ...' as the check and the table show it."""
    if not any(st.offset_us for st in profile.stations):
        return "station offsets (drop jig): none recorded (every station 0 µs; see wiring/README.md, section 6)"
    return "station offsets (drop jig, taken off each stamp): " + ", ".join(
        f"{st.name} {st.offset_us} µs" for st in profile.stations
    )


def check_pinmap(name_or_path: str) -> list[str]:
    """``wiring check board-pinmap``: the board's pin map is checked as what it is."""
    from controller import board_channels as bc

    _data, path = profile_mod.read(name_or_path)
    try:
        pm = bc.load_pinmap(path)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise profile_mod.ProfileError(
            f"{path}: the board's pin map is incomplete ({exc}); compare it with the shipped wiring/board-pinmap.toml"
        ) from exc
    boards = [n for n in profile_mod.shipped_names() if n.startswith("board-")]
    return [
        f"OK {path.stem}: the firmware board's pin map, not a wiring profile: input channels "
        f"{pm.describe_inputs()}, {len(pm.light_channels)} light channels; board profiles "
        f"({', '.join(boards)}) name these channels"
    ]
