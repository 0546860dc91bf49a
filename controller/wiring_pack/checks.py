"""``buzzerbox wiring check``: the profile's verdict, its timing figures, and
warnings about a box that works but may not keep working.

Errors (a profile the box refuses) live in ``controller.box.profile``; here are
the things a builder should know before soldering: pins shared with an
interface a HAT or an overlay would switch on, the GPIOs with fixed pull-ups,
contacts that need gold plating, a series resistor too small to save a pin.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.box import profile as profile_mod
from controller.box.profile import (
    FIXED_PULL_UP_GPIOS,
    WETTING_CURRENT_MA,
    FrontEnd,
    Profile,
    front_end_timing,
)
from controller.screen.sound import is_wav, wav_problem
from games.i18n import N_, _, decimal_separator, format_number, ngettext, word

#: Header GPIOs that belong to an interface, and what must stay off to use them
#: as plain pins (config.txt on Raspberry Pi OS: /boot/firmware/config.txt).
PIN_FUNCTIONS: list[tuple[str, tuple[int, ...], str]] = [  # the interface's name and the advice are translated
    (N_("I2C1"), (2, 3), N_("keep dtparam=i2c_arm off and fit no I2C HAT (an RTC, a sensor)")),
    (N_("1-Wire"), (4,), N_("keep dtoverlay=w1-gpio off")),
    (N_("SPI0"), (7, 8, 9, 10, 11), N_("keep dtparam=spi off and fit no SPI HAT or display on SPI0")),
    (N_("PCM/I2S audio"), (18, 19, 20, 21), N_("keep dtparam=i2s and I2S sound-card overlays (hifiberry-*, iqaudio-*, "
     "googlevoicehat-*) off: this box cannot take an I2S audio HAT; use HDMI or USB audio")),
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
    return _("a press reaches the pin {shortest}-{longest} µs after the contact closes (by the pin's threshold); "
             "worst-case spread between two stations {spread} µs: {extra} µs is added to every stamp's precision "
             "(closer presses are a tie)").format(
        shortest=format_number(t.shortest_us, 2), longest=format_number(t.longest_us, 2),
        spread=format_number(t.spread_us, 2), extra=t.extra_us)


def who(profile: Profile, station: int, name: str) -> str:
    """'Red bell', 'Host arm': a station's (or the host's) input as the builder's texts name it (a host
    button's name is the profile's key, as the table prints it)."""
    if station == Profile.HOST_STATION:
        return _("Host {button}").format(button=name)
    return _("{station} {input}").format(station=profile.stations[station].name, input=word(name))


def warnings(profile: Profile) -> list[str]:
    """One line per thing to know, each saying what to do about it."""
    out: list[str] = []
    if profile.source == "gpio":
        inputs = {pin: who(profile, st, name) for pin, (st, name) in profile.input_pins().items()}
        lights = {pin: _("{input} light").format(input=who(profile, st, name))
                  for (st, name), pin in profile.light_pins().items()}
        users = inputs | lights
        for function, pins, what in PIN_FUNCTIONS:
            taken = [_("GPIO {pin} ({user})").format(pin=pin, user=users[pin]) for pin in pins if pin in users]
            if taken:
                out.append(_("{pins} on the {function} pins: {what}").format(
                    pins=", ".join(taken), function=_(function), what=_(what)))
        for pin in sorted(FIXED_PULL_UP_GPIOS):
            if pin not in users:
                continue
            if pin in lights:
                out.append(_("GPIO {pin} ({user}) has a fixed 1.8 kΩ pull-up on the Pi's board: its lamp glows "
                             "while the Pi boots, until the box starts").format(pin=pin, user=users[pin]))
            else:
                volts = profile.front_end(*profile.input_pins()[pin]).pressed_volts()
                out.append(_("GPIO {pin} ({user}) has a fixed 1.8 kΩ pull-up, not the internal one: pressed it "
                             "reads {volts} V (0.8 V is the limit), and it is stamped earlier than a normal input; "
                             "keep it for a button that never races").format(
                    pin=pin, user=users[pin], volts=format_number(volts, 2)))
    seen: set[FrontEnd] = set()
    for (station, name), fe in profile.front_ends.items():
        if fe in seen:
            continue
        seen.add(fe)
        whose = who(profile, station, name)
        clamp_ma = (FAULT_VOLTS - 3.6) / fe.series_ohms * 1000
        if clamp_ma > MAX_CLAMP_MA:
            out.append(_("{who}: a {ohms} Ω series resistor lets {ma} mA into the pin if 12 V reaches the cable "
                         "(a crushed cable, a lamp wire on a switch tab); use 1 kΩ on every input leaving the box")
                       .format(who=whose, ohms=figure(fe.series_ohms), ma=format_number(clamp_ma, 0)))
        if fe.contacts != "gold" and fe.wetting_ma() < WETTING_CURRENT_MA:
            out.append(_("{who}: the pull-up passes {ma} mA through a closed contact, below the ~1 mA {contacts} "
                         "need to stay reliable; use gold-contact switches, or 3.3 kΩ pull-ups (1 mA) identical on "
                         "every station").format(who=whose, ma=format_number(fe.wetting_ma(), 2),
                                                 contacts=_(CONTACTS[fe.contacts])))
    for station, choice in enumerate(profile.station_sounds()):
        problem = wav_problem(choice) if choice is not None and is_wav(choice) else None
        if problem is not None:
            out.append(_("{station}: sound {file}: {problem} (until then it plays the bell)").format(
                station=profile.stations[station].name, file=choice, problem=problem))
    return out


def report(profile: Profile) -> list[str]:
    """The lines ``wiring check`` prints after OK: timing, offsets, warnings."""
    inputs = sum(len(s.inputs) for s in profile.stations) + len(profile.host)
    lights = sum(len(s.lights) for s in profile.stations)
    stations = len(profile.stations)
    lines = ["OK " + _("{profile}: {stations}, {inputs}, {lights} on {source}").format(
        profile=profile.name, source=profile.source,
        stations=ngettext("{n} station", "{n} stations", stations).format(n=stations),
        inputs=ngettext("{n} input", "{n} inputs", inputs).format(n=inputs),
        lights=ngettext("{n} light", "{n} lights", lights).format(n=lights))]
    first = profile.stations[0]
    fe = profile.front_end(first.index, "bell")
    t = timing(profile, first.index, "bell")
    lines.append(_("front end of every station input: {parts}").format(parts=describe(fe)))
    lines.append("  " + timing_line(t, profile.source))
    host_fes = {profile.front_end(Profile.HOST_STATION, a) for a in profile.host}
    for host_fe in sorted(host_fes - {fe}, key=lambda f: f.describe()):
        lines.append(_("front end of host buttons: {parts}").format(parts=describe(host_fe)))
    lines.append(offsets_line(profile))
    lines += [f"WARN {w}" for w in warnings(profile)]
    return lines


#: a front end's contacts as its description names them (a profile's ``contacts`` value)
CONTACTS = {"gold": N_("gold contacts"), "silver": N_("silver contacts"), "unknown": N_("contacts of unknown plating")}


def figure(value: float) -> str:
    """A part's value as its label prints it (1000, 1.8, 4.7) with the language's decimal sign."""
    return f"{value:g}".replace(".", decimal_separator())


def describe(fe: FrontEnd) -> str:
    """'1000 Ω 1 % series, 1 nF 5 %, internal pull-up, gold contacts' in the reader's language
    (``FrontEnd.describe`` is the English one, for logs and refusals)."""
    pull = (_("internal pull-up") if fe.pull_up == "internal"
            else _("{ohms} Ω pull-up at the connector").format(ohms=figure(fe.pull_up_ohms)))
    if fe.fixed_pull_up_ohms is not None:
        pull = _("{pull_up} + the board's fixed {ohms} Ω").format(pull_up=pull, ohms=figure(fe.fixed_pull_up_ohms))
    cap = (_("{nf} nF {tolerance} %").format(nf=figure(fe.capacitor_nf), tolerance=figure(fe.capacitor_tolerance * 100))
           if fe.capacitor_nf else _("no capacitor"))
    return _("{ohms} Ω {tolerance} % series, {capacitor}, {pull_up}, {contacts}").format(
        ohms=figure(fe.series_ohms), tolerance=figure(fe.series_tolerance * 100), capacitor=cap, pull_up=pull,
        contacts=_(CONTACTS.get(fe.contacts, fe.contacts)))


def offsets_line(profile: Profile) -> str:
    """'station offsets (drop jig): ...' as the check and the table show it."""
    if not any(st.offset_us for st in profile.stations):
        return _("station offsets (drop jig): none recorded (every station 0 µs; see wiring/README.md, section 6)")
    return _("station offsets (drop jig, taken off each stamp): {offsets}").format(offsets=", ".join(
        _("{station} {us} µs").format(station=st.name, us=st.offset_us) for st in profile.stations))


def check_pinmap(name_or_path: str) -> list[str]:
    """``wiring check board-pinmap``: the board's pin map is checked as what it is."""
    from controller.box.sources import board_channels as bc

    _data, path = profile_mod.read(name_or_path)
    try:
        pm = bc.load_pinmap(path)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise profile_mod.ProfileError(
            f"{path}: the board's pin map is incomplete ({exc}); compare it with the shipped wiring/board-pinmap.toml"
        ) from exc
    boards = [n for n in profile_mod.shipped_names() if n.startswith("board-")]
    return ["OK " + _("{name}: the firmware board's pin map, not a wiring profile: input channels {inputs}, "
                      "{lights} light channels; board profiles ({boards}) name these channels").format(
        name=path.stem, inputs=pm.describe_inputs(), lights=len(pm.light_channels), boards=", ".join(boards))]
