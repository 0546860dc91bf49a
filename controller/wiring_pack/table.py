"""``buzzerbox wiring table``: a plain-text table to check a box with a multimeter.

Put the meter (continuity or ohms) between the "pin" and the "ground" of a
row and press that button: it must read about 1 kΩ (the series resistor).
Nothing else on the station may change the reading.
"""

from __future__ import annotations

from controller.box.profile import FIXED_PULL_UP_GPIOS, Profile
from controller.box.sources import board_channels as bc
from controller.wiring_pack.checks import describe, offsets_line, timing, timing_line
from controller.wiring_pack.pins import rows
from games.i18n import _


def render(profile: Profile) -> str:
    """The table, deterministic (same profile and language, same bytes)."""
    board = profile.source == "board"
    head = [_("station"), _("input"), _("channel") if board else "GPIO", _("pin"), _("ground nearby"),
            _("light ch") if board else _("light GPIO"), _("light pin")]
    body = [
        [
            r.station,
            r.input,
            str(r.number),
            r.place,
            r.ground,
            "-" if r.light is None else str(r.light),
            r.light_place or "-",
        ]
        for r in rows(profile)
    ]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]

    def fmt(line: list[str]) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()

    out = [_("Wiring table for {profile} ({source}): {description}").format(
        profile=profile.name, source=profile.source, description=profile.description).rstrip(": ")]
    if board:
        n165, n595 = bc.chips_needed(profile)
        out.append(_(
            "Board: Pico + {n165} x SN74HCS165 (inputs) + {n595} x 74HC595 and {n595} x ULN2803 (lights). "
            "Input channels {inputs}: SN74HCS165 chip N bit B = {first} + 8N + B; light channel 8N + B = 74HC595 "
            "chip N bit B.").format(n165=n165, n595=n595, inputs=bc.pinmap().describe_inputs(),
                                    first=bc.SR_FIRST_CHANNEL))
    else:
        out.append(_("Each input: switch between the pin and the ground; the Pi's internal pull-up holds it at 3.3 V."))
        fixed = [f"GPIO {pin}" for pin in sorted(FIXED_PULL_UP_GPIOS) if pin in profile.input_pins()]
        if fixed:
            out.append(_("Except {gpios}: a fixed 1.8 kΩ pull-up on the Pi's board holds it (100-220 Ω in series "
                         "there).").format(gpios=_(" and ").join(fixed)))
    first = profile.stations[0].index
    out.append(_("Front end of every station input, at the box end of its cable: {parts};").format(
        parts=describe(profile.front_end(first, "bell"))))
    out.append(timing_line(timing(profile, first, "bell"), profile.source) + ".")
    out.append(offsets_line(profile) + ".")
    out.append(_("Meter on ohms between '{pin}' and '{ground}': about 1 kΩ (the series resistor) only while that "
                 "button is pressed.").format(pin=head[3], ground=head[4]))
    out.append("")
    out.append(fmt(head))
    out.append(fmt(["-" * w for w in widths]))
    last = None
    for r, line in zip(rows(profile), body, strict=True):
        if last is not None and r.station != last:
            out.append("")
        last = r.station
        out.append(fmt(line))
    return "\n".join(out) + "\n"
