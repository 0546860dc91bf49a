"""Wiring profiles: which pin is which station's bell, button and light.

A profile is a TOML file in wiring/. It is checked before anything is opened,
against one schema (``SCHEMA``: types, ranges, required and unknown keys), and
every mistake is reported in one line with what is wrong and how to fix it, so
a builder never has to debug a box that silently ignores a button.

A profile also records the analogue front end of every input (series
resistor, capacitor, pull-up, with their tolerances) and a per-station offset
measured with a drop jig: the front end's worst-case spread between stations
is added to the precision the box uses for ties, and the offset is taken off
each stamp, so "who was first" stays honest on a box built from real parts.
"""

from __future__ import annotations

import difflib
import functools
import math
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.base import BuzzerBoxError
from games.files import FileRefused, read_limited
from games.glyphs import name_refusal
from games.i18n import LANGUAGES, N_, _, ngettext
from games.toolkit.colors import DEFAULT_COLORS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from controller.box.debounce import DebounceConfig
from controller.system.resources import shipped

#: BCM GPIOs on the 40-pin header of every Pi from the B+ to the Pi 5.
HEADER_GPIOS = range(0, 28)
#: GPIOs a box must not use, and why.
RESERVED_GPIOS = {
    0: N_("ID_SD, reserved for the HAT ID EEPROM"),
    1: N_("ID_SC, reserved for the HAT ID EEPROM"),
    14: N_("TXD, the serial console (disable it with raspi-config first, or choose another pin)"),
    15: N_("RXD, the serial console (disable it with raspi-config first, or choose another pin)"),
}
#: GPIO 2 and 3 (I2C1) carry fixed 1.8 kΩ pull-ups to 3.3 V on the Pi's board.
FIXED_PULL_UP_GPIOS = {2: 1800.0, 3: 1800.0}
#: Physical header pin of each BCM GPIO (for diagrams and multimeter tables).
GPIO_TO_HEADER_PIN = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}
SOURCES = ("gpio", "board")
STATION_KINDS = ("full", "compact", "bell")
HOST_ACTIONS = ("arm", "correct", "wrong", "next", "reset", "undo", "pick", "menu")
#: what a key of ``[keys]`` may do: a host button, a clicker's next step, the pause card
KEY_ACTIONS = (*HOST_ACTIONS, "step", "blank")
#: the key names ``[keys]`` takes (pygame's names): a letter, digit or sign, F1-F12, and these
NAMED_KEYS = ("page up", "page down", "left", "right", "up", "down", "home", "end", "insert", "delete",
              "return", "space", "tab", "escape", "backspace", *(f"f{n}" for n in range(1, 13)))
MAX_BUTTONS = 8
MAX_STATIONS = 16  # the screens have colours and room for 16
MAX_NAME = 24  # a station name must fit on its tile
MAX_PROFILE_BYTES = 1_000_000  # a profile is a few kB; anything bigger is not one
BOARD_INPUT_CHANNELS = 96  # 32 + up to 8 chained 74HCS165 (see firmware/PROTOCOL.md)
BOARD_LIGHT_CHANNELS = 64  # up to 8 chained 74HC595
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,23}$")
_UNPRINTABLE = ("Cc", "Cs", "Co", "Cn")  # control, surrogate, private, unassigned
_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")

#: The input threshold range the timing model covers: 0.8 V (guaranteed low)
#: to 2.0 V (guaranteed high) on the Pi, the Pico and a 74HCS165 at 3.3 V.
SUPPLY_V = 3.3
THRESHOLD_LOW_V = 0.8
THRESHOLD_HIGH_V = 2.0
#: The chip's own pull-up: ~50 kΩ nominal, 30–70 kΩ across parts and temperature.
INTERNAL_PULL_UP_OHMS = 50_000.0
INTERNAL_PULL_UP_TOLERANCE = 0.4
FIXED_PULL_UP_TOLERANCE = 0.05
#: Contacts below this current need gold plating to stay reliable (wetting current).
WETTING_CURRENT_MA = 1.0
MAX_OFFSET_US = 5_000
#: The synthesised sounds a station may choose as its own buzz (``sound =`` in
#: ``[[stations]]``; ``controller/screen/sound.py`` makes each one), so the room hears
#: who pressed. Anything ending in ``.wav`` is a file instead.
STATION_SOUNDS = ("bell", "chime", "ding", "gong", "horn", "whistle", "blip", "cowbell", "buzz")
MAX_SOUND_PATH = 200


class ProfileError(BuzzerBoxError, ValueError):
    """A wiring profile that cannot be used; the message says how to fix it."""


# -- the schema: one table of every key, its type and its range ---------------------------
@dataclass(frozen=True)
class Key:
    """One key of a profile table: its type, whether it must be there, its range."""

    kind: str  # "int", "number" (int or float), "str", "table", "list"
    required: bool = False
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    max_len: int = 0  # for strings (after sanitising)


#: Every table a profile may hold. Free-form tables (a station's inputs and
#: lights, the host's buttons) map names to pin numbers and are checked by name.
SCHEMA: dict[str, dict[str, Key]] = {
    "profile": {
        "name": Key("str", max_len=40),
        "description": Key("str", max_len=200),
        "source": Key("str", choices=SOURCES),
        "debounce": Key("table"),
        "front_end": Key("table"),
        "host_front_end": Key("table"),
        "host": Key("table"),
        # a presenter clicker's (or any keyboard's) keys for the host: key name -> host action
        "keys": Key("table"),
        "stations": Key("list", required=True, low=1, high=MAX_STATIONS),
        # what the screens speak when this profile's box starts (--lang and the menu change it)
        "language": Key("str", choices=LANGUAGES),
    },
    "debounce": {
        "bounce_us": Key("int", low=1_000, high=1_000_000),
        "glitch_us": Key("int", low=10, high=100_000),
        "stuck_us": Key("int", low=10_000, high=3_600_000_000),
        "active_level": Key("int", choices=(0, 1)),
    },
    "front_end": {
        "series_ohms": Key("number", low=100, high=10_000),
        "series_tolerance": Key("number", low=0, high=0.5),
        "capacitor_nf": Key("number", low=0, high=100),
        "capacitor_tolerance": Key("number", low=0, high=0.8),
        "pull_up": Key("str", choices=("internal", "external")),
        "pull_up_ohms": Key("number", low=1_000, high=100_000),
        "pull_up_tolerance": Key("number", low=0, high=0.5),
        "contacts": Key("str", choices=("gold", "silver", "unknown")),
        "esd_leakage_ua": Key("number", low=0, high=10_000),
    },
    "station": {
        "name": Key("str", max_len=MAX_NAME),
        "kind": Key("str", choices=STATION_KINDS),
        "color": Key("str"),
        "inputs": Key("table", required=True),
        "lights": Key("table"),
        "front_end": Key("table"),
        "offset_us": Key("int", low=0, high=MAX_OFFSET_US),
        "sound": Key("str", max_len=MAX_SOUND_PATH),
    },
}


def did_you_mean(word: str, options: list[str] | tuple[str, ...] | set[str]) -> str:
    """' (did you mean header-4?)' for a near miss, else ''."""
    close = difflib.get_close_matches(word, sorted(options), n=1, cutoff=0.6)
    return " " + _("(did you mean {name}?)").format(name=close[0]) if close else ""


def clean_text(text: str) -> str:
    """Drop control characters (NUL, escapes, line breaks) and collapse spaces:
    a name is drawn on a screen and written to logs, one line each."""
    kept = (" " if ch.isspace() else ch for ch in text if ch.isspace() or unicodedata.category(ch) not in _UNPRINTABLE)
    return " ".join("".join(kept).split())


def _check_table(section: str, data: Any, where: str) -> dict[str, Any]:
    """Check one table against ``SCHEMA[section]``; returns it with strings cleaned."""
    if not isinstance(data, dict):
        raise ProfileError(f"{where}: " + _("must be a table of keys, not {value}").format(value=_show(data)))
    schema = SCHEMA[section]
    extra = sorted(set(data) - set(schema))
    if extra:
        hint = did_you_mean(extra[0], set(schema))
        raise ProfileError(
            f"{where}: " + ngettext("unknown key {keys}{hint}; allowed: {allowed} (check the spelling)",
                                    "unknown keys {keys}{hint}; allowed: {allowed} (check the spelling)", len(extra))
            .format(keys=", ".join(map(repr, extra)), hint=hint, allowed=", ".join(sorted(schema)))
        )
    out = dict(data)
    for name, key in schema.items():
        if name not in data:
            if key.required:
                missing = (_("no {name}; add [[stations]] tables, one per player station (see wiring/README.md)")
                           if name == "stations" else _("no {name}; add it (see wiring/README.md)"))
                raise ProfileError(f"{where}: " + missing.format(name=repr(name)))
            continue
        out[name] = _check_value(key, data[name], where, name)
    return out


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_value(key: Key, value: Any, where: str, name: str) -> Any:
    """One value against its key; ``where: name ...`` in the message."""
    if key.kind in ("int", "number"):
        whole = isinstance(value, int) and not isinstance(value, bool)
        if key.kind == "int" and not whole:
            raise ProfileError(f"{where}: " + _("{name} must be a whole number, not {value}").format(name=name, value=_show(value)))
        if not whole and not (isinstance(value, float) and math.isfinite(value)):
            raise ProfileError(f"{where}: " + _("{name} must be a number, not {value}").format(name=name, value=_show(value)))
    elif key.kind == "str":
        if not isinstance(value, str):
            raise ProfileError(f"{where}: " + _("{name} must be text in quotes, not {value}").format(name=name, value=_show(value)))
        value = clean_text(value)
        if key.max_len and len(value) > key.max_len:
            raise ProfileError(f"{where}: " + _("{name} is {length} characters long; at most {most} fit, shorten it")
                                   .format(name=name, length=len(value), most=key.max_len))
    elif key.kind == "table" and not isinstance(value, dict):
        raise ProfileError(f"{where}: " + _("{name} must be a table ({name} = {{ ... }}), not {value}").format(name=name, value=_show(value)))
    elif key.kind == "list":
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise ProfileError(f"{where}: " + _("{name} must be [[{name}]] tables, not {value}").format(name=name, value=_show(value)))
        if not value:
            raise ProfileError(f"{where}: " + _("no [[{name}]]; add one [[{name}]] table per player station").format(name=name))
    if key.choices and value not in key.choices:
        hint = did_you_mean(value, [str(c) for c in key.choices]) if isinstance(value, str) else ""
        raise ProfileError(f"{where}: " + _("{name} {value} is not one of {choices}")
                           .format(name=name, value=_show(value), choices=", ".join(map(str, key.choices))) + hint)
    size = len(value) if key.kind == "list" else value
    ranged = key.kind in ("int", "number", "list")
    if ranged and (key.low is not None and size < key.low or key.high is not None and size > key.high):
        what = ngettext("{count} entry", "{count} entries", size).format(count=size) if key.kind == "list" else _show(size)
        raise ProfileError(f"{where}: " + _("{name} {value} is out of range; use {low} to {high}")
                           .format(name=name, value=what, low=f"{key.low:g}", high=f"{key.high:g}"))
    return value


# -- the front end: the parts between the connector and the pin ----------------------------
@dataclass(frozen=True)
class FrontEnd:
    """One input's front end (README section 6): connector -> ESD array ->
    series resistor -> pin, a capacitor from the pin to ground, a pull-up."""

    series_ohms: float = 1000.0
    series_tolerance: float = 0.01
    capacitor_nf: float = 1.0
    capacitor_tolerance: float = 0.05  # C0G / NP0
    pull_up: str = "internal"  # the chip's own, at the pin; "external": at the connector
    pull_up_ohms: float = 10_000.0  # external only
    pull_up_tolerance: float = 0.01
    contacts: str = "gold"
    esd_leakage_ua: float = 1.0
    fixed_pull_up_ohms: float | None = None  # a pull-up the board puts on the pin (GPIO 2/3)

    def pull_up_range(self) -> tuple[float, float]:
        """(lowest, highest) pull-up resistance across tolerance."""
        if self.pull_up == "internal":
            nominal, tol = INTERNAL_PULL_UP_OHMS, INTERNAL_PULL_UP_TOLERANCE
        else:
            nominal, tol = self.pull_up_ohms, self.pull_up_tolerance
        low, high = nominal * (1 - tol), nominal * (1 + tol)
        if self.fixed_pull_up_ohms is not None:
            f = self.fixed_pull_up_ohms
            low = _parallel(low, f * (1 - FIXED_PULL_UP_TOLERANCE))
            high = _parallel(high, f * (1 + FIXED_PULL_UP_TOLERANCE))
        return low, high

    def wetting_ma(self) -> float:
        """Current through a closed contact (mA), with the nominal pull-up."""
        low, high = self.pull_up_range()
        return SUPPLY_V / ((low + high) / 2) * 1000

    def _at_pin_pull_up(self, scale: float) -> float | None:
        """The pull-up that sits at the pin (an external one sits at the
        connector, where it does not slow the pin's edge)."""
        parts = []
        if self.pull_up == "internal":
            parts.append(INTERNAL_PULL_UP_OHMS * (1 + scale * INTERNAL_PULL_UP_TOLERANCE))
        if self.fixed_pull_up_ohms is not None:
            parts.append(self.fixed_pull_up_ohms * (1 + scale * FIXED_PULL_UP_TOLERANCE))
        if not parts:
            return None
        out = parts[0]
        for p in parts[1:]:
            out = _parallel(out, p)
        return out

    def pressed_volts(self) -> float:
        """The pin's voltage with the switch closed, worst case (lowest pull-up)."""
        rp = self._at_pin_pull_up(-1)
        rs = self.series_ohms * (1 + self.series_tolerance)
        return 0.0 if rp is None else SUPPLY_V * rs / (rs + rp)

    def delay_us(self, threshold_v: float, r_scale: float = 0, c_scale: float = 0, p_scale: float = 0) -> float:
        """µs from contact to the pin crossing ``threshold_v``, with each part
        moved by ``scale`` × its tolerance (-1 low, 0 nominal, +1 high)."""
        rs = self.series_ohms * (1 + r_scale * self.series_tolerance)
        c = self.capacitor_nf * 1e-9 * (1 + c_scale * self.capacitor_tolerance)
        rp = self._at_pin_pull_up(p_scale)
        if rp is None:
            tau, v_end = rs * c, 0.0
        else:
            tau, v_end = _parallel(rs, rp) * c, SUPPLY_V * rs / (rs + rp)
        if threshold_v <= v_end:
            return math.inf
        return tau * math.log((SUPPLY_V - v_end) / (threshold_v - v_end)) * 1e6

    def timing(self) -> tuple[float, float, float]:
        """(shortest nominal delay µs, longest nominal delay µs, worst-case
        spread µs between two stations built from these parts). The spread is
        taken at each threshold from 0.8 to 2.0 V (both stations' pins on one
        kind of chip) over every corner of the parts' tolerances."""
        corners = [(r, c, p) for r in (-1, 1) for c in (-1, 1) for p in (-1, 1)]
        spread = 0.0
        nominal = []
        steps = 24
        for i in range(steps + 1):
            v = THRESHOLD_LOW_V + (THRESHOLD_HIGH_V - THRESHOLD_LOW_V) * i / steps
            delays = [self.delay_us(v, *corner) for corner in corners]
            spread = max(spread, max(delays) - min(delays))
            nominal.append(self.delay_us(v))
        return min(nominal), max(nominal), spread

    def describe(self) -> str:
        """'1000 Ω 1 % series, 1 nF 5 %, internal pull-up, gold contacts'."""
        pull = "internal pull-up" if self.pull_up == "internal" else f"{self.pull_up_ohms:g} Ω pull-up at the connector"
        if self.fixed_pull_up_ohms is not None:
            pull += f" + the board's fixed {self.fixed_pull_up_ohms:g} Ω"
        cap = f"{self.capacitor_nf:g} nF {self.capacitor_tolerance * 100:g} %" if self.capacitor_nf else "no capacitor"
        return (f"{self.series_ohms:g} Ω {self.series_tolerance * 100:g} % series, {cap}, {pull}, "
                f"{self.contacts} contacts")


@functools.lru_cache(maxsize=64)
def front_end_timing(front_end: FrontEnd) -> tuple[float, float, float]:
    """``front_end.timing()``, worked out once per distinct set of parts."""
    return front_end.timing()


def _parallel(a: float, b: float) -> float:
    return a * b / (a + b)


#: What the guide prescribes (README section 6), per source: the header uses
#: the Pi's internal pull-ups with gold-contact switches; the board has
#: 3.3 kΩ pull-ups at the connector (1 mA through every contact).
DEFAULT_FRONT_END = {
    "gpio": FrontEnd(),
    "board": FrontEnd(pull_up="external", pull_up_ohms=3300.0, pull_up_tolerance=0.01),
}


def _front_end(base: FrontEnd, raw: dict[str, Any]) -> FrontEnd:
    values = {k: (float(v) if isinstance(v, int | float) else v) for k, v in raw.items()}
    return FrontEnd(**{**base.__dict__, **values})


# -- the profile ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Station:
    index: int
    name: str
    kind: str
    color: str
    inputs: dict[str, int]  # input name -> BCM GPIO (gpio) or board channel (board)
    lights: dict[str, int] = field(default_factory=dict)
    offset_us: int = 0  # this station's switches actuate this much later (drop jig)
    #: this station's own buzz: a name from STATION_SOUNDS, or a WAV file's path
    #: (resolved beside the profile); None: the game's bell
    sound: str | None = None

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
    front_ends: dict[tuple[int, str], FrontEnd] = field(default_factory=dict)
    #: the language the box starts in with this profile (None: English, or --lang)
    language: str | None = None
    #: ``[keys]``: key names (pygame's) -> host actions, over the keyboard's own (a presenter clicker)
    keys: dict[str, str] = field(default_factory=dict)

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

    def front_end(self, station: int, input_name: str) -> FrontEnd:
        """The parts in front of this input (the profile's default when not recorded)."""
        return self.front_ends.get((station, input_name), DEFAULT_FRONT_END[self.source])

    def precision_extra_us(self, station: int, input_name: str) -> int:
        """µs to add to this input's stamp precision: its front end's worst-case
        spread between stations, rounded up (the arbiter calls closer presses a tie)."""
        return math.ceil(front_end_timing(self.front_end(station, input_name))[2] - 1e-9)

    def roll_call(self) -> list[tuple[int, str, str]]:
        """(station, input, station name) each station presses once before a
        game: on normally-open wiring a cut cable is otherwise a silent dead
        station. The bell is the one input every station has."""
        return [(st.index, "bell", st.name) for st in self.stations]

    def offset_us(self, station: int) -> int:
        """µs to take off this station's stamps (measured with the drop jig)."""
        return self.stations[station].offset_us if 0 <= station < len(self.stations) else 0

    def station_sounds(self) -> list[str | None]:
        """Each station's own buzz (None: the game's bell), in station order."""
        return [st.sound for st in self.stations]


#: wiring/*.toml that are not wiring profiles
NOT_PROFILES = ("board-pinmap", "board-pinmap-lockout")


def wiring_dir() -> Path:
    """wiring/ of the checkout, or its copy in an installed wheel (controller.system.resources)."""
    return shipped("wiring")


def shipped_names() -> list[str]:
    """Names of the profiles in wiring/ (the board's pin map is not one)."""
    return sorted(p.stem for p in wiring_dir().glob("*.toml") if p.stem not in NOT_PROFILES)


def resolve(name_or_path: str) -> Path:
    """Accept a path, or the name of a shipped profile (``header-4``)."""
    path = Path(name_or_path)
    shipped = wiring_dir() / f"{name_or_path}.toml"
    try:
        if path.exists():
            return path
        if "/" not in name_or_path and shipped.exists():
            return shipped
    except (OSError, ValueError):  # a name too long for the file system, a NUL in it
        pass
    names = shipped_names()
    raise ProfileError(
        _("no wiring profile {name}{hint}: give a path to a .toml file or one of: {names}").format(
            name=_show(name_or_path), hint=did_you_mean(name_or_path[:100], names), names=", ".join(names))
    )


def _keys(table: dict[str, Any], where: str) -> dict[str, str]:
    """``[keys]``: each key a name the keyboard knows, each value a host action (one line otherwise)."""
    out: dict[str, str] = {}
    for name, action in table.items():
        key = str(name).strip().lower()
        if not (len(key) == 1 and key.isprintable() and not key.isspace()) and key not in NAMED_KEYS:
            raise ProfileError(f"{where}: " + _("{name} is not a key name; use a letter, digit or sign, F1-F12 or one "
                                                "of: {names}").format(name=_show(name), names=", ".join(NAMED_KEYS[:15])))
        if action not in KEY_ACTIONS:
            raise ProfileError(f"{where}: " + _("key {name}: {value} is not a host action{hint} ({actions})").format(
                name=_show(name), value=_show(action), hint=did_you_mean(str(action), KEY_ACTIONS),
                actions=", ".join(KEY_ACTIONS)))
        out[key] = str(action)
    return out


def is_pinmap(data: dict[str, Any]) -> bool:
    """The firmware board's pin map (wiring/board-pinmap*.toml), not a profile: the stock
    one, or a variant that ``extends`` it (wiring/board-pinmap-lockout.toml)."""
    return "stations" not in data and ({"shift_in", "spi"} <= set(data) or "extends" in data)


def read(name_or_path: str) -> tuple[dict[str, Any], Path]:
    """The TOML of a profile file, or a one-line ProfileError (never a traceback)."""
    path = resolve(name_or_path)
    try:
        raw = read_limited(path, MAX_PROFILE_BYTES, N_("wiring profile (wiring/NAME.toml)"))
    except FileRefused as exc:
        raise ProfileError(str(exc)) from None
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark (Windows Notepad's UTF-8) is no statement
    except UnicodeDecodeError as exc:
        raise ProfileError(_("{path}: not UTF-8 text (byte {byte}); save it as UTF-8").format(path=path, byte=exc.start)) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(_("{path}: not valid TOML ({problem}); fix the syntax at that line").format(path=path, problem=exc)) from exc
    except RecursionError as exc:
        raise ProfileError(_("{path}: nested too deeply to be a wiring profile").format(path=path)) from exc
    return data, path


def load(name_or_path: str) -> Profile:
    data, path = read(name_or_path)
    if is_pinmap(data):
        raise ProfileError(
            _("{path} is the firmware board's pin map, not a wiring profile; give a profile ({names})")
            .format(path=path, names=", ".join(shipped_names()))
        )
    return parse(data, path)


class _Pins:
    """Hands out a profile's pins: one owner each, on the header or the board's channels,
    each with the front end it is wired through (GPIO 2 and 3 carry fixed pull-ups)."""

    def __init__(self, source: str, where: str) -> None:
        self.source = source
        self.where = where
        self.used: dict[tuple[str, int], str] = {}
        self.front_ends: dict[tuple[int, str], FrontEnd] = {}

    def claim(self, kind: str, pin: Any, owner: str) -> int:
        """``pin`` for ``owner`` (an ``input`` or a ``light``), or one line naming why not."""
        where, source = self.where, self.source
        if isinstance(pin, bool) or not isinstance(pin, int):
            raise ProfileError(f"{where}: " + _("{owner} must be a whole number (a pin), not {value}")
                               .format(owner=owner, value=_show(pin)))
        if source == "gpio":
            if pin not in HEADER_GPIOS:
                raise ProfileError(
                    f"{where}: " + _("{owner} uses GPIO {pin}, which does not exist on the header; "
                                     "use a BCM number from 2 to 27").format(owner=owner, pin=pin)
                )
            if pin in RESERVED_GPIOS:
                raise ProfileError(f"{where}: " + _("{owner} uses GPIO {pin}: {reason}").format(owner=owner, pin=pin, reason=_(RESERVED_GPIOS[pin])))
            space = "gpio"  # inputs and lights share the header
        else:
            limit = BOARD_INPUT_CHANNELS if kind == "input" else BOARD_LIGHT_CHANNELS
            if not 0 <= pin < limit:
                raise ProfileError(
                    f"{where}: " + (_("{owner} uses board input channel {pin}; channels run 0..{last}") if kind == "input"
                                    else _("{owner} uses board light channel {pin}; channels run 0..{last}"))
                    .format(owner=owner, pin=pin, last=limit - 1)
                )
            space = kind
        if (space, pin) in self.used:
            label = "GPIO" if source == "gpio" else _("board input channel") if kind == "input" else _("board light channel")
            raise ProfileError(
                f"{where}: " + _("{owner} uses {label} {pin}, already used by {other}; give each one its own pin")
                .format(owner=owner, label=label, pin=pin, other=self.used[(space, pin)])
            )
        self.used[(space, pin)] = owner
        return pin

    def wired(self, station: int, name: str, base: FrontEnd, pin: int) -> None:
        """The front end input ``name`` of ``station`` sees: ``base``, with a fixed pull-up where the header has one."""
        if self.source == "gpio" and pin in FIXED_PULL_UP_GPIOS:
            base = FrontEnd(**{**base.__dict__, "fixed_pull_up_ohms": FIXED_PULL_UP_GPIOS[pin]})
        self.front_ends[(station, name)] = base


def parse(data: dict[str, Any], path: Path | None = None) -> Profile:
    """A profile from its TOML, or one ProfileError line naming the problem and its fix."""
    where = str(path) if path else "profile"
    data = _check_table("profile", data, where)
    source = data.get("source", "gpio")
    deb = _check_table("debounce", data.get("debounce", {}), f"{where} [debounce]")
    try:
        debounce = DebounceConfig(**deb)
    except ValueError as exc:
        raise ProfileError(f"{where} [debounce]: {exc}") from exc

    default_fe = _front_end(DEFAULT_FRONT_END[source], _check_table("front_end", data.get("front_end", {}), f"{where} [front_end]"))
    host_fe = _front_end(default_fe, _check_table("front_end", data.get("host_front_end", {}), f"{where} [host_front_end]"))
    pins = _Pins(source, where)
    stations = [_station(index, raw, pins, default_fe, path, where) for index, raw in enumerate(data["stations"])]
    host = _host(data.get("host", {}), pins, host_fe, where)
    profile = Profile(
        name=data.get("name") or (path.stem if path else "profile"),
        source=source,
        stations=stations,
        debounce=debounce,
        host=host,
        description=data.get("description", ""),
        path=path,
        front_ends=pins.front_ends,
        language=data.get("language"),
        keys=_keys(data.get("keys", {}), f"{where} [keys]"),
    )
    if source == "board":  # which channels exist is the board's pin map's to say
        from controller.box.sources.board_channels import problems

        wrong = problems(profile)
        if wrong:
            raise ProfileError(f"{where}: " + "; ".join(wrong))
    for problem in front_end_problems(profile):
        raise ProfileError(f"{where}: {problem}")
    return profile


def _station(index: int, raw: Any, pins: _Pins, default_fe: FrontEnd, path: Path | None, where: str) -> Station:
    """One ``[[stations]]`` table: a valid name, a bell and at most ``MAX_BUTTONS`` more inputs,
    lights named after their inputs, a colour."""
    label = _("station {index} ({name})").format(
        index=index, name=_show(clean_text(str(raw.get("name", _("unnamed"))))[:MAX_NAME]))
    raw = _check_table("station", raw, f"{where} {label}")
    refusal = name_refusal(str(raw.get("name") or ""))  # the rule the names editor and the host page keep
    if refusal:
        raise ProfileError(f"{where} {label}: " + refusal)
    inputs = _station_inputs(index, raw, pins, default_fe, f"{where} {label}", label)
    lights = {}
    for name, pin in _check_value(Key("table"), raw.get("lights", {}), f"{where} {label}", "lights").items():
        if name not in inputs:
            raise ProfileError(
                f"{where} {label}: " + _("light {name} has no input of that name; name the light after "
                                         "the button it sits in ({inputs})").format(name=_show(name), inputs=", ".join(inputs))
            )
        lights[name] = pins.claim("light", pin, _("{station} light {name}").format(station=label, name=repr(name)))
    color = raw.get("color", DEFAULT_COLORS[index % len(DEFAULT_COLORS)])
    if not _COLOR.match(color):
        raise ProfileError(f"{where} {label}: " + _("color {value} is not a colour; write it as \"#e53935\" (#rrggbb)")
                           .format(value=_show(color)))
    if len(color) == 4:
        color = "#" + "".join(ch * 2 for ch in color[1:])
    return Station(
        sound=_station_sound(raw.get("sound"), path, f"{where} {label}"),
        index=index,
        name=raw.get("name") or f"Station {index + 1}",
        kind=raw.get("kind", "full"),
        color=color.lower(),
        inputs=inputs,
        lights=lights,
        offset_us=raw.get("offset_us", 0),
    )


def _station_inputs(index: int, raw: dict[str, Any], pins: _Pins, default_fe: FrontEnd, where: str,
                    label: str) -> dict[str, int]:
    """A station's ``[stations.inputs]``: a bell, at most ``MAX_BUTTONS`` buttons, each a named pin
    wired through the station's front end."""
    inputs_raw = raw["inputs"]
    if "bell" not in inputs_raw:
        raise ProfileError(f"{where}: " + _("every station needs a 'bell' input in [stations.inputs]"))
    buttons = [n for n in inputs_raw if n != "bell"]
    if len(buttons) > MAX_BUTTONS:
        raise ProfileError(
            f"{where}: " + ngettext("{count} button; a station has at most {most} besides its bell",
                                    "{count} buttons; a station has at most {most} besides its bell",
                                    len(buttons)).format(count=len(buttons), most=MAX_BUTTONS)
        )
    station_fe = _front_end(default_fe, _check_table("front_end", raw.get("front_end", {}), f"{where} front_end"))
    inputs = {}
    for name, pin in inputs_raw.items():
        if not isinstance(name, str) or not _NAME.match(name):
            raise ProfileError(
                f"{where}: " + _("input name {name} must be lower-case letters, digits, _ "
                                 "(at most 24, starting with a letter)").format(name=_show(name))
            )
        inputs[name] = pins.claim("input", pin, _("{station} input {name}").format(station=label, name=repr(name)))
        pins.wired(index, name, station_fe, pin)
    return inputs


def _host(table: dict[str, Any], pins: _Pins, host_fe: FrontEnd, where: str) -> dict[str, int]:
    """``[host]``: each key a host action, each value its button's pin."""
    host = {}
    for action, pin in table.items():
        if action not in HOST_ACTIONS:
            raise ProfileError(
                f"{where} [host]: " + _("{name} is not a host action{hint} ({actions})")
                .format(name=_show(action), hint=did_you_mean(str(action), HOST_ACTIONS), actions=", ".join(HOST_ACTIONS))
            )
        host[action] = pins.claim("input", pin, _("host button {name}").format(name=repr(action)))
        pins.wired(Profile.HOST_STATION, action, host_fe, pin)
    return host


def _station_sound(value: str | None, path: Path | None, where: str) -> str | None:
    """A synthesised sound's name, or a .wav path resolved beside the profile.
    Whether the file is there and plays is the sound's to find out, at start:
    a missing WAV must not stop a quiz night, it falls back to the bell."""
    if not value:
        return None
    if value.lower().endswith(".wav"):
        wav = Path(value).expanduser()
        if not wav.is_absolute() and path is not None:
            wav = path.parent / wav
        return str(wav)
    if value in STATION_SOUNDS:
        return value
    raise ProfileError(
        f"{where}: " + _("sound {name} is neither a synthesised sound{hint} ({sounds}) nor a .wav file; "
                         "name one of them, or a WAV file (a path beside the profile)")
        .format(name=_show(value), hint=did_you_mean(value, STATION_SOUNDS), sounds=", ".join(STATION_SOUNDS))
    )


def front_end_problems(profile: Profile) -> list[str]:
    """What makes the box unfair or deaf: competing inputs with different front
    ends, a press that cannot pull the pin low, an idle line the ESD part drags down."""
    out: list[str] = []
    station_inputs = [(st, name) for st in profile.stations for name in st.inputs]
    if station_inputs:
        first_st, first_name = station_inputs[0]
        reference = profile.front_end(first_st.index, first_name)
        for st, name in station_inputs[1:]:
            fe = profile.front_end(st.index, name)
            if fe != reference:
                why = ""
                if fe.fixed_pull_up_ohms != reference.fixed_pull_up_ohms:
                    why = " (GPIO 2 and 3 have fixed 1.8 kΩ pull-ups: move the input to another GPIO)"
                out.append(
                    f"{st.name} {name}'s front end ({fe.describe()}) differs from {first_st.name} "
                    f"{first_name}'s ({reference.describe()}){why}; every station input must have identical "
                    f"parts, or the different one is stamped later every time"
                )
                break
    for (index, name), fe in profile.front_ends.items():
        who = "Host" if index == Profile.HOST_STATION else profile.stations[index].name
        volts = fe.pressed_volts()
        if volts > THRESHOLD_LOW_V:
            out.append(
                f"{who} {name}: pressed, the pin sits at {volts:.2f} V (series {fe.series_ohms:g} Ω against "
                f"{'a fixed 1.8 kΩ pull-up' if fe.fixed_pull_up_ohms else 'its pull-up'}), above the 0.8 V "
                f"that reads low; use 100–220 Ω in series there, or another GPIO"
            )
        low = SUPPLY_V - fe.esd_leakage_ua * 1e-6 * fe.pull_up_range()[1]
        if low < THRESHOLD_HIGH_V + 0.3:
            out.append(
                f"{who} {name}: the ESD part's {fe.esd_leakage_ua:g} µA leakage pulls the idle line down to "
                f"{low:.2f} V (it must stay above 2.3 V); use a low-leakage ESD array (≤ 1 µA) or a stronger pull-up"
            )
    return out


def start_language(asked: str | None, profile: str | None) -> str:
    """The language a command starts in: ``--lang`` if given, else the wiring
    profile's ``language``, else English."""
    if asked:
        return asked
    return (load(profile).language if profile else None) or "en"
