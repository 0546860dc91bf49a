"""Station connector pinouts: every signal beside its own ground, and no
supply voltage on a signal connector at all.

The lamps travel in their own cable on a connector of another type, so
neither a mis-mated plug nor a crushed cable can put +12 V on a GPIO through
anything but the 1 kΩ series resistor. RJ45 jacks carry the label
"BUZZER - NOT ETHERNET": a network cable or switch must never go in.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.box.profile import Profile, Station
from games.i18n import N_, _

#: T568B pairs of an RJ45 jack: (signal pin, its ground pin, wire colours, translated where written)
RJ45_PAIRS = [(1, 2, N_("orange")), (3, 6, N_("green")), (4, 5, N_("blue")), (7, 8, N_("brown"))]
DB25_SIGNALS = 12  # signal k on pin k+1, its ground on pin k+14 (the pin beside it, other row)
GX12_PINS = 7


@dataclass(frozen=True)
class Connector:
    """One connector of a station cable: what each pin carries."""

    title: str  # "signals: RJ45 jack #1, labelled BUZZER - NOT ETHERNET"
    pins: list[tuple[int, str]]  # (pin, what)

    def lines(self) -> list[str]:
        return [self.title] + ["  " + _("pin {pin}: {what}").format(pin=pin, what=what) for pin, what in self.pins]


def signal_connectors(profile: Profile, station: Station) -> list[Connector]:
    """The signal connector(s) of one station, at the box."""
    names = list(station.inputs)
    if profile.source == "board":
        out = []
        for n, start in enumerate(range(0, len(names), DB25_SIGNALS)):
            chunk = names[start:start + DB25_SIGNALS]
            pins = [(k + 1, _("{input} (twisted with pin {pin})").format(input=name, pin=k + 14))
                    for k, name in enumerate(chunk)]
            pins += [(k + 14, _("ground of {input}").format(input=name)) for k, name in enumerate(chunk)]
            out.append(Connector(_("signals: DB25 female at the box #{n} (twisted-pair cable, no supply on it)").format(
                n=n + 1), sorted(pins)))
        return out
    out = []
    for n, start in enumerate(range(0, len(names), len(RJ45_PAIRS))):
        chunk = names[start:start + len(RJ45_PAIRS)]
        pins = []
        for name, (sig, gnd, colour) in zip(chunk, RJ45_PAIRS, strict=False):
            pins += [(sig, _("{input} (white/{colour})").format(input=name, colour=_(colour))),
                     (gnd, _("ground of {input} ({colour})").format(input=name, colour=_(colour)))]
        out.append(Connector(_("signals: RJ45 jack #{n}, labelled BUZZER - NOT ETHERNET").format(n=n + 1), sorted(pins)))
    return out


def lamp_connector(profile: Profile, station: Station) -> Connector | None:
    """The lamp cable's connector: another type than the signals', so the two cannot be swapped."""
    lamps = list(station.lights)
    if not lamps:
        return None
    if len(lamps) + 1 <= GX12_PINS:
        title, supply = _("lamps: GX12 {pins}-pin (its own cable)").format(pins=len(lamps) + 1), len(lamps) + 1
    else:
        title, supply = _("lamps: DA15 male at the box (its own cable)"), 15
    pins = [(k + 1, _("{light} lamp minus (ULN2803 OUT)").format(light=name)) for k, name in enumerate(lamps)]
    pins.append((supply, _("+12 V through this station's 250 mA PTC")))
    return Connector(title, pins)
