"""Wiring profiles: which pin is which station's bell, button and light.

A profile is a TOML file in wiring/. It is checked before anything is opened,
and every mistake is reported with what is wrong and how to fix it, so a
builder never has to debug a box that silently ignores a button.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.base import BuzzerBoxError
from games.toolkit.colors import DEFAULT_COLORS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from controller.debounce import DebounceConfig

#: BCM GPIOs on the 40-pin header of every Pi from the B+ to the Pi 5.
HEADER_GPIOS = range(0, 28)
#: GPIOs a box must not use, and why.
RESERVED_GPIOS = {
    0: "ID_SD, reserved for the HAT ID EEPROM",
    1: "ID_SC, reserved for the HAT ID EEPROM",
    14: "TXD, the serial console (disable it with raspi-config first, or choose another pin)",
    15: "RXD, the serial console (disable it with raspi-config first, or choose another pin)",
}
#: Physical header pin of each BCM GPIO (for diagrams and multimeter tables).
GPIO_TO_HEADER_PIN = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}
SOURCES = ("gpio", "board")
STATION_KINDS = ("full", "compact", "bell")
HOST_ACTIONS = ("arm", "correct", "wrong", "next", "reset", "undo", "pick", "menu")
MAX_BUTTONS = 8
BOARD_INPUT_CHANNELS = 96  # 26 direct + up to 9 chained 74HC165 (see firmware/PROTOCOL.md)
BOARD_LIGHT_CHANNELS = 96
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")

_TOP_KEYS = {"name", "description", "source", "debounce", "stations", "host"}
_STATION_KEYS = {"name", "kind", "color", "inputs", "lights"}
_DEBOUNCE_KEYS = {"bounce_us", "glitch_us", "stuck_us", "active_level"}


class ProfileError(BuzzerBoxError, ValueError):
    """A wiring profile that cannot be used; the message says how to fix it."""


@dataclass(frozen=True)
class Station:
    index: int
    name: str
    kind: str
    color: str
    inputs: dict[str, int]  # input name -> BCM GPIO (gpio) or board channel (board)
    lights: dict[str, int] = field(default_factory=dict)

    @property
    def buttons(self) -> list[str]:
        return [name for name in self.inputs if name != "bell"]


@dataclass(frozen=True)
class Profile:
    name: str
    source: str
    stations: list[Station]
    debounce: DebounceConfig
    host: dict[str, int] = field(default_factory=dict)  # host action -> pin / channel
    description: str = ""
    path: Path | None = None

    HOST_STATION = -1  # station index used for the host's own buttons

    def input_pins(self) -> dict[int, tuple[int, str]]:
        """pin (or board channel) -> (station, input); the host is station -1."""
        pins = {pin: (st.index, name) for st in self.stations for name, pin in st.inputs.items()}
        pins.update({pin: (self.HOST_STATION, action) for action, pin in self.host.items()})
        return pins

    def light_pins(self) -> dict[tuple[int, str], int]:
        return {(st.index, name): pin for st in self.stations for name, pin in st.lights.items()}

    def station_kinds(self) -> list[str]:
        return [st.kind for st in self.stations]


def wiring_dir() -> Path:
    """wiring/ of the source tree (profiles ship there, beside the docs)."""
    return Path(__file__).resolve().parent.parent / "wiring"


def resolve(name_or_path: str) -> Path:
    """Accept a path, or the name of a shipped profile (``header-4``)."""
    path = Path(name_or_path)
    if path.exists():
        return path
    shipped = wiring_dir() / f"{name_or_path}.toml"
    if shipped.exists():
        return shipped
    names = sorted(p.stem for p in wiring_dir().glob("*.toml") if not p.stem.startswith("board-"))
    raise ProfileError(
        f"no wiring profile {name_or_path!r}: give a path to a .toml file or one of: {', '.join(names)}"
    )


def load(name_or_path: str) -> Profile:
    path = resolve(name_or_path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: not valid TOML ({exc}); fix the syntax at that line") from exc
    return parse(data, path)


def _unknown(where: str, keys: set[str], allowed: set[str]) -> None:
    extra = sorted(keys - allowed)
    if extra:
        raise ProfileError(
            f"{where}: unknown key{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}; "
            f"allowed: {', '.join(sorted(allowed))} (check the spelling)"
        )


def parse(data: dict[str, Any], path: Path | None = None) -> Profile:
    where = str(path) if path else "profile"
    _unknown(where, set(data), _TOP_KEYS)
    source = data.get("source", "gpio")
    if source not in SOURCES:
        raise ProfileError(f"{where}: source {source!r} is not one of {', '.join(SOURCES)}")
    deb = data.get("debounce", {})
    _unknown(f"{where} [debounce]", set(deb), _DEBOUNCE_KEYS)
    try:
        debounce = DebounceConfig(**{k: int(v) for k, v in deb.items()})
    except ValueError as exc:
        raise ProfileError(f"{where} [debounce]: {exc}") from exc

    used: dict[tuple[str, int], str] = {}

    def claim(kind: str, pin: Any, owner: str) -> int:
        if isinstance(pin, bool) or not isinstance(pin, int):
            raise ProfileError(f"{where}: {owner} must be a whole number (a pin), not {pin!r}")
        if source == "gpio":
            if pin not in HEADER_GPIOS:
                raise ProfileError(
                    f"{where}: {owner} uses GPIO {pin}, which does not exist on the header; "
                    f"use a BCM number from 2 to 27"
                )
            if pin in RESERVED_GPIOS:
                raise ProfileError(f"{where}: {owner} uses GPIO {pin}: {RESERVED_GPIOS[pin]}")
            space = "gpio"  # inputs and lights share the header
        else:
            limit = BOARD_INPUT_CHANNELS if kind == "input" else BOARD_LIGHT_CHANNELS
            if not 0 <= pin < limit:
                raise ProfileError(
                    f"{where}: {owner} uses board {kind} channel {pin}; channels run 0..{limit - 1}"
                )
            space = kind
        if (space, pin) in used:
            label = "GPIO" if source == "gpio" else f"board {kind} channel"
            raise ProfileError(
                f"{where}: {owner} uses {label} {pin}, already used by {used[(space, pin)]}; "
                f"give each one its own pin"
            )
        used[(space, pin)] = owner
        return pin

    raw_stations = data.get("stations")
    if not raw_stations:
        raise ProfileError(f"{where}: no [[stations]]; add one [[stations]] table per player station")
    stations = []
    for index, raw in enumerate(raw_stations):
        label = f"station {index} ({raw.get('name', 'unnamed')!r})"
        _unknown(f"{where} {label}", set(raw), _STATION_KEYS)
        kind = raw.get("kind", "full")
        if kind not in STATION_KINDS:
            raise ProfileError(f"{where} {label}: kind {kind!r} is not one of {', '.join(STATION_KINDS)}")
        inputs_raw = raw.get("inputs", {})
        if "bell" not in inputs_raw:
            raise ProfileError(f"{where} {label}: every station needs a 'bell' input in [stations.inputs]")
        buttons = [n for n in inputs_raw if n != "bell"]
        if len(buttons) > MAX_BUTTONS:
            raise ProfileError(
                f"{where} {label}: {len(buttons)} buttons; a station has at most {MAX_BUTTONS} besides its bell"
            )
        inputs = {}
        for name, pin in inputs_raw.items():
            if not _NAME.match(name):
                raise ProfileError(f"{where} {label}: input name {name!r} must be lower-case letters, digits, _")
            inputs[name] = claim("input", pin, f"{label} input {name!r}")
        lights = {}
        for name, pin in raw.get("lights", {}).items():
            if name not in inputs:
                raise ProfileError(
                    f"{where} {label}: light {name!r} has no input of that name; name the light after "
                    f"the button it sits in ({', '.join(inputs)})"
                )
            lights[name] = claim("light", pin, f"{label} light {name!r}")
        stations.append(
            Station(
                index=index,
                name=str(raw.get("name", f"Station {index + 1}")),
                kind=kind,
                color=str(raw.get("color", DEFAULT_COLORS[index % len(DEFAULT_COLORS)])),
                inputs=inputs,
                lights=lights,
            )
        )
    host = {}
    for action, pin in data.get("host", {}).items():
        if action not in HOST_ACTIONS:
            raise ProfileError(f"{where} [host]: {action!r} is not a host action ({', '.join(HOST_ACTIONS)})")
        host[action] = claim("input", pin, f"host button {action!r}")
    profile = Profile(
        name=str(data.get("name", path.stem if path else "profile")),
        source=source,
        stations=stations,
        debounce=debounce,
        host=host,
        description=str(data.get("description", "")),
        path=path,
    )
    if source == "board":  # which channels exist is the board's pin map's to say
        from controller.board_channels import problems

        wrong = problems(profile)
        if wrong:
            raise ProfileError(f"{where}: " + "; ".join(wrong))
    return profile
