"""``buzzerbox wiring draw``: an SVG wiring diagram generated from a profile.

Drawn by our own code (no plotting library) so the output is byte-for-byte
deterministic: the committed diagrams in wiring/diagrams/ are regenerated in
the tests and can never disagree with what the software reads.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from controller.box.profile import FIXED_PULL_UP_GPIOS, GPIO_TO_HEADER_PIN, Profile, Station
from controller.box.sources import board_channels as bc
from controller.wiring_pack.checks import CONTACTS, figure, who
from controller.wiring_pack.connectors import lamp_connector, signal_connectors
from controller.wiring_pack.pins import (
    HEADER_GROUND,
    HEADER_PIN_TO_GPIO,
    HEADER_POWER,
    header_ground_near,
    header_pin_name,
    pico_ground_near,
    uln_for_header_light,
)
from games.i18n import _, word

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
GROUND_FILL = "#212121"
POWER_FILL = {"3V3": "#ff9800", "5V": "#d32f2f"}
FREE_FILL = "#e0e0e0"
BUS_FILL = "#6d4c41"
PICO_PINS = {
    **{pin: f"GP{gp}" for gp, pin in bc.GP_TO_PICO_PIN.items()},
    **dict.fromkeys(bc.PICO_GROUND_PINS, "GND"),
    30: "RUN", 35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 39: "VSYS", 40: "VBUS",
}


class Svg:
    """A tiny SVG writer: integer coordinates, attributes in a fixed order."""

    def __init__(self, width: int, height: int, title: str) -> None:
        self.width, self.height, self.title = width, height, title
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attrs: object) -> None:
        attr = "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items())
        self.parts.append(f"<{tag}{attr}/>" if text is None else f"<{tag}{attr}>{escape(text)}</{tag}>")

    def text(self, x: int, y: int, s: str, size: int = 12, anchor: str = "start", weight: str = "normal", fill: str = "#000") -> None:
        self.add("text", s, x=x, y=y, font_size=size, text_anchor=anchor, font_weight=weight, fill=fill)

    def line(self, x1: int, y1: int, x2: int, y2: int, stroke: str = "#000", width: int = 2, dash: str = "") -> None:
        if dash:
            self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=width, stroke_dasharray=dash)
        else:
            self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=width)

    def rect(self, x: int, y: int, w: int, h: int, fill: str = "none", stroke: str = "#000", rx: int = 0) -> None:
        self.add("rect", x=x, y=y, width=w, height=h, rx=rx, fill=fill, stroke=stroke, stroke_width=2)

    def circle(self, x: int, y: int, r: int, fill: str, stroke: str = "#000") -> None:
        self.add("circle", cx=x, cy=y, r=r, fill=fill, stroke=stroke, stroke_width=1)

    # -- schematic symbols ------------------------------------------------------------
    def resistor_v(self, x: int, y1: int, y2: int, label: str) -> None:
        """A vertical resistor between y1 and y2 (zig-zag in the middle)."""
        mid = (y1 + y2) // 2
        top, bottom = mid - 20, mid + 20
        self.line(x, y1, x, top)
        pts = [(x, top)] + [(x + (8 if i % 2 else -8), top + 5 * i) for i in range(1, 8)] + [(x, bottom)]
        self.add("polyline", points=" ".join(f"{a},{b}" for a, b in pts), fill="none", stroke="#000", stroke_width=2)
        self.line(x, bottom, x, y2)
        self.text(x + 14, mid + 4, label, 11)

    def resistor_h(self, x1: int, x2: int, y: int, label: str) -> None:
        mid = (x1 + x2) // 2
        left, right = mid - 20, mid + 20
        self.line(x1, y, left, y)
        pts = [(left, y)] + [(left + 5 * i, y + (8 if i % 2 else -8)) for i in range(1, 8)] + [(right, y)]
        self.add("polyline", points=" ".join(f"{a},{b}" for a, b in pts), fill="none", stroke="#000", stroke_width=2)
        self.line(right, y, x2, y)
        self.text(mid, y - 14, label, 11, "middle")

    def ground(self, x: int, y: int) -> None:
        for i, half in enumerate((12, 8, 4)):
            self.line(x - half, y + 4 * i, x + half, y + 4 * i)

    def switch(self, x1: int, x2: int, y: int, label: str) -> None:
        """A normally-open push switch between x1 and x2."""
        self.line(x1, y, x1 + 10, y)
        self.circle(x1 + 12, y, 3, "#fff")
        self.circle(x2 - 12, y, 3, "#fff")
        self.line(x1 + 14, y - 2, x2 - 12, y - 14)
        self.line(x2 - 10, y, x2, y)
        self.text((x1 + x2) // 2, y - 20, label, 11, "middle")

    def lamp(self, x: int, y: int, label: str) -> None:
        self.circle(x, y, 12, "#fff59d")
        self.line(x - 8, y - 8, x + 8, y + 8, width=1)
        self.line(x - 8, y + 8, x + 8, y - 8, width=1)
        self.text(x + 18, y + 4, label, 11)

    def capacitor_v(self, x: int, y1: int, y2: int, label: str) -> None:
        mid = (y1 + y2) // 2
        self.line(x, y1, x, mid - 4)
        self.line(x - 12, mid - 4, x + 12, mid - 4)
        self.line(x - 12, mid + 4, x + 12, mid + 4)
        self.line(x, mid + 4, x, y2)
        self.text(x + 16, mid + 4, label, 11)

    def diode_v(self, x: int, y1: int, y2: int, label: str) -> None:
        """A diode from the line above (cathode) down to y2 (anode): an ESD clamp."""
        mid = (y1 + y2) // 2
        self.line(x, y1, x, mid - 6)
        self.line(x - 8, mid - 6, x + 8, mid - 6)
        self.add("polygon", points=f"{x - 8},{mid + 6} {x + 8},{mid + 6} {x},{mid - 6}", fill="#000", stroke="#000")
        self.line(x, mid + 6, x, y2)
        if label:
            self.text(x + 14, mid + 4, label, 11)

    def render(self) -> str:
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family={quoteattr(FONT)}>\n'
            f"<title>{escape(self.title)}</title>\n"
            f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="#ffffff"/>\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"


def _labels(profile: Profile) -> dict[int, tuple[str, str]]:
    """pin or input channel -> (label, colour) for every input."""
    colors = {st.index: st.color for st in profile.stations}
    out = {}
    for pin, (index, name) in profile.input_pins().items():
        out[pin] = (who(profile, index, name), colors.get(index, "#9e9e9e"))
    return out


def _light_labels(profile: Profile) -> dict[int, tuple[str, str]]:
    return {
        pin: (_("{input} light").format(input=who(profile, index, name)), profile.stations[index].color)
        for (index, name), pin in profile.light_pins().items()
    }


# -- the Pi's header ----------------------------------------------------------------------
def _draw_header(svg: Svg, profile: Profile, top: int) -> int:
    inputs, lights = _labels(profile), _light_labels(profile)
    cx = svg.width // 2
    svg.text(cx, top, _("Raspberry Pi 40-pin header (pin 1 = square pad, by the board's corner)"), 14, "middle", "bold")
    y0 = top + 30
    svg.rect(cx - 40, y0 - 16, 80, 20 * 24 + 12, fill="#263238", rx=6)
    for pin in range(1, 41):
        row, col = (pin - 1) // 2, (pin - 1) % 2
        x, y = cx - 16 + 32 * col, y0 + 24 * row
        gpio = HEADER_PIN_TO_GPIO.get(pin)
        if pin in HEADER_GROUND:
            fill, label, bold = GROUND_FILL, "GND", False
        elif pin in HEADER_POWER:
            fill, label, bold = POWER_FILL[HEADER_POWER[pin]], HEADER_POWER[pin], False
        elif gpio in inputs:
            user, fill = inputs[gpio]
            label, bold = (_("{input}  (GPIO{gpio}, input; fixed 1.8 kΩ pull-up)") if gpio in FIXED_PULL_UP_GPIOS
                           else _("{input}  (GPIO{gpio}, input)")).format(input=user, gpio=gpio), True
        elif gpio in lights:
            user, fill = lights[gpio]
            label, bold = (_("{light}  (GPIO{gpio}, out to ULN2803; fixed 1.8 kΩ pull-up)")
                           if gpio in FIXED_PULL_UP_GPIOS
                           else _("{light}  (GPIO{gpio}, out to ULN2803)")).format(light=user, gpio=gpio), True
        else:
            fill, label, bold = FREE_FILL, _("{pin}  free").format(pin=header_pin_name(pin)), False
        if pin == 1:
            svg.rect(x - 9, y - 9, 18, 18, fill=fill, stroke="#fff")
        else:
            svg.circle(x, y, 9, fill, "#fff")
        svg.text(x, y + 4, str(pin), 8, "middle", fill="#fff" if fill in (GROUND_FILL,) else "#000")
        weight = "bold" if bold else "normal"
        color = "#000" if bold or pin in HEADER_GROUND or pin in HEADER_POWER else "#757575"
        if col == 0:
            svg.text(x - 34, y + 4, label, 12, "end", weight, color)
        else:
            svg.text(x + 34, y + 4, label, 12, "start", weight, color)
    return y0 + 20 * 24 + 10


# -- the firmware board -----------------------------------------------------------------
def _draw_board(svg: Svg, profile: Profile, top: int) -> int:
    inputs, lights = _labels(profile), _light_labels(profile)
    x0 = 360
    svg.text(x0, top, _("Raspberry Pi Pico (RP2040), USB to the Pi"), 14, "middle", "bold")
    y0 = top + 30
    svg.rect(x0 - 40, y0 - 16, 80, 20 * 24 + 12, fill="#1b5e20", rx=6)
    pm = bc.pinmap()
    bus = pm.bus
    gp_channel = {gp: ch for ch, gp in pm.direct.items()}
    for pin in range(1, 41):
        row, col = (pin - 1, 0) if pin <= 20 else (40 - pin, 1)
        x, y = x0 - 16 + 32 * col, y0 + 24 * row
        name = PICO_PINS.get(pin, "?")
        gp = int(name[2:]) if name.startswith("GP") else None
        bold = False
        if name == "GND":
            fill, label = GROUND_FILL, "GND"
        elif gp is not None and gp in bus:
            fill, label, bold = BUS_FILL, f"{name}: {bus[gp]}", True
        elif gp is not None and gp_channel.get(gp) in inputs:
            user, fill = inputs[gp_channel[gp]]
            label, bold = _("{input}  (ch {channel}, {pin})").format(input=user, channel=gp_channel[gp], pin=name), True
        elif gp is not None and gp in gp_channel:
            fill, label = FREE_FILL, _("{pin}  free (ch {channel})").format(pin=name, channel=gp_channel[gp])
        elif name in ("3V3(OUT)", "VSYS", "VBUS"):
            fill, label = POWER_FILL["3V3" if name == "3V3(OUT)" else "5V"], name
        else:
            fill, label = FREE_FILL, _("{pin}  free").format(pin=name) if gp is not None else name
        svg.circle(x, y, 9, fill, "#fff")
        svg.text(x, y + 4, str(pin), 8, "middle", fill="#fff" if fill in (GROUND_FILL, BUS_FILL) else "#000")
        color = "#000" if bold or name == "GND" else "#757575"
        if col == 0:
            svg.text(x - 34, y + 4, label, 12, "end", "bold" if bold else "normal", color)
        else:
            svg.text(x + 34, y + 4, label, 12, "start", "bold" if bold else "normal", color)
    bottom = y0 + 20 * 24 + 10

    # shift registers: one box per chip, 8 labelled bits
    n165, n595 = bc.chips_needed(profile)
    light_by_channel = {pin: lights[pin] for pin in lights}
    col_x = {"in": 760, "out": 1180}
    svg.text(col_x["in"], top, _("SN74HCS165 inputs, Schmitt (chip 0 QH -> SPI MISO)"), 14, "start", "bold")
    svg.text(col_x["out"], top, _("74HC595 -> ULN2803 lights (SPI MOSI -> chip 0 SER)"), 14, "start", "bold")
    free = _("free")
    box_h = 8 * 16 + 30
    for chip in range(n165):
        y = y0 + chip * (box_h + 12)
        svg.rect(col_x["in"], y - 14, 380, box_h, fill="#eceff1", rx=4)
        svg.text(col_x["in"] + 8, y + 2, _("SN74HCS165 chip {chip}  (front end on every input)").format(chip=chip), 12,
                 weight="bold")
        for bit in range(8):
            channel = bc.SR_FIRST_CHANNEL + 8 * chip + bit
            user, fill = inputs.get(channel, (free, FREE_FILL))
            yy = y + 20 + 16 * bit
            svg.circle(col_x["in"] + 16, yy - 4, 5, fill)
            svg.text(col_x["in"] + 28, yy, _("bit {bit} (D{bit}, pin {pin})  ch {channel}: {input}").format(
                bit=bit, pin=bc.HC165_BIT_PIN[bit], channel=channel, input=user), 11)
        bottom = max(bottom, y + box_h)
    for chip in range(n595):
        y = y0 + chip * (box_h + 12)
        svg.rect(col_x["out"], y - 14, 400, box_h, fill="#fff8e1", rx=4)
        svg.text(col_x["out"] + 8, y + 2, _("74HC595 chip {chip} -> ULN2803 #{chip}  (/OE: 10 kΩ up)").format(chip=chip),
                 12, weight="bold")
        for bit in range(8):
            channel = 8 * chip + bit
            user, fill = light_by_channel.get(channel, (free, FREE_FILL))
            yy = y + 20 + 16 * bit
            svg.circle(col_x["out"] + 16, yy - 4, 5, fill)
            svg.text(col_x["out"] + 28, yy, _("Q{bit} (pin {pin}) -> OUT{out} (pin {out_pin})  ch {channel}: {light}").format(
                bit=bit, pin=bc.HC595_BIT_PIN[bit], out=bit + 1, out_pin=18 - bit, channel=channel, light=user), 11)
        bottom = max(bottom, y + box_h)
    return bottom


# -- one station, in detail ---------------------------------------------------------------
def _draw_input(svg: Svg, profile: Profile, station: Station, name: str, number: int, y: int) -> None:
    """One input from the pin to the switch: pull-up, 1 nF to ground, 1 kΩ in
    series, the ESD array at the connector, the station's own twisted pair."""
    board = profile.source == "board"
    fe = profile.front_end(station.index, name)
    if board:
        place = bc.input_place(number)
        if place.gp is not None:
            where = "Pico: " + _("GP{gp} (pin {pin})").format(gp=place.gp, pin=bc.GP_TO_PICO_PIN[place.gp])
            gnd = "GND: " + _("Pico pin {pin}").format(pin=pico_ground_near(bc.GP_TO_PICO_PIN[place.gp]))
        else:
            where = _("SN74HCS165 #{chip} D{bit} (pin {pin})").format(
                chip=place.chip, bit=place.bit, pin=bc.HC165_BIT_PIN[place.bit or 0])
            gnd = "GND: " + _("board ground")
    else:
        header = GPIO_TO_HEADER_PIN[number]
        where = "Pi: " + _("GPIO{gpio} (header pin {pin})").format(gpio=number, pin=header)
        gnd = "GND: " + _("header pin {pin}").format(pin=header_ground_near(header))
    svg.rect(40, y - 10, 220, 150, fill="#f5f5f5", rx=6)
    svg.text(50, y + 6, where, 12, weight="bold")
    pin_x, pin_y = 260, y + 90
    if fe.pull_up == "internal":
        svg.text(110, y + 24, _("3.3 V"), 11, "middle")
        svg.line(110, y + 28, 110, y + 34)
        svg.resistor_v(110, y + 34, pin_y, _("internal ~50 kΩ"))
        svg.line(110, pin_y, pin_x, pin_y)
    else:
        svg.line(60, pin_y, pin_x, pin_y)
        note = _("Pico's own ~50 kΩ pull-up on too") if where.startswith("Pico: ") else _("no pull-up at the pin")
        svg.text(70, pin_y - 8, note, 11)
    svg.circle(pin_x, pin_y, 4, "#000")
    svg.text(560, y + 6, _("the same on every input of every station (the box end of the cable)"), 11, "middle",
             fill="#757575")
    svg.line(pin_x, pin_y, 300, pin_y)
    cap = _("{nf} nF C0G").format(nf=figure(fe.capacitor_nf)) if fe.capacitor_nf else _("no capacitor")
    if fe.capacitor_nf:
        svg.capacitor_v(300, pin_y, pin_y + 30, "")
        svg.ground(300, pin_y + 30)
    svg.text(300, pin_y + 56, cap, 11, "middle")
    svg.resistor_h(300, 440, pin_y, _("{kohms} kΩ {tolerance} % series").format(
        kohms=figure(fe.series_ohms / 1000), tolerance=figure(fe.series_tolerance * 100)))
    svg.text(370, pin_y + 30, _("every input, always"), 10, "middle", fill="#c62828")
    svg.line(440, pin_y, 600, pin_y)
    svg.diode_v(470, pin_y, pin_y + 40, "")
    svg.ground(470, pin_y + 40)
    svg.text(470, pin_y + 60, f"ESD ≤ {figure(fe.esd_leakage_ua)} µA", 11, "middle")
    if fe.pull_up != "internal":
        svg.text(530, y + 24, _("3.3 V"), 11, "middle")
        svg.line(530, y + 28, 530, y + 34)
        svg.resistor_v(530, y + 34, pin_y, "")
        svg.text(538, y + 44, f"{figure(fe.pull_up_ohms / 1000)} kΩ", 11)
        svg.circle(530, pin_y, 3, "#000")
    svg.rect(600, pin_y - 22, 26, 80, fill="#b0bec5", rx=3)
    svg.text(613, pin_y + 76, "DB25" if board else "RJ45", 10, "middle", "bold")
    svg.line(626, pin_y, 760, pin_y, "#37474f", 3)
    svg.line(626, pin_y + 44, 760, pin_y + 44, "#37474f", 3)
    for x in range(650, 750, 24):  # the twist
        svg.line(x, pin_y, x + 12, pin_y + 44, "#90a4ae", 1)
        svg.line(x, pin_y + 44, x + 12, pin_y, "#90a4ae", 1)
    svg.text(693, pin_y - 10, _("its own twisted pair"), 11, "middle")
    svg.text(693, pin_y + 62, gnd, 11, "middle")
    svg.line(560, pin_y + 44, 600, pin_y + 44)
    svg.ground(560, pin_y + 44)
    svg.rect(760, y - 10, 240, 150, fill="#fafafa", rx=6)
    svg.text(770, y + 6, _("station {station}: {input}").format(station=station.name, input=word(name)), 12,
             weight="bold")
    svg.switch(780, 880, pin_y, _("{contacts}, NO").format(contacts=_(CONTACTS.get(fe.contacts, fe.contacts))))
    svg.line(880, pin_y, 910, pin_y)
    svg.line(910, pin_y, 910, pin_y + 44)
    svg.line(760, pin_y + 44, 910, pin_y + 44)
    svg.text(918, pin_y + 18, _("to ground:"), 11)
    svg.text(918, pin_y + 32, _("pressed = 0"), 11)


def _draw_light(svg: Svg, profile: Profile, station: Station, light_name: str, y: int) -> int:
    board = profile.source == "board"
    number = station.lights[light_name]
    if board:
        lp = bc.light_place(number)
        src = _("74HC595 #{chip} Q{bit} (pin {pin})").format(chip=lp.chip, bit=lp.bit, pin=bc.HC595_BIT_PIN[lp.bit])
        chip, channel = lp.chip, lp.bit + 1
    else:
        src = _("GPIO{gpio} (header pin {pin})").format(gpio=number, pin=GPIO_TO_HEADER_PIN[number])
        chip, channel = uln_for_header_light(profile, (station.index, light_name))
    svg.rect(40, y - 10, 960, 230, fill="#fffde7", rx=6)
    svg.text(50, y + 6, _("{light} light: {source} -> ULN2803 #{chip} IN{channel} (pin {channel}); OUT{channel} "
                          "(pin {out_pin}) sinks the lamp's minus").format(
        light=word(light_name), source=src, chip=chip, channel=channel, out_pin=19 - channel), 12, weight="bold")
    yl = y + 110
    svg.text(60, yl + 4, src, 11)
    if board:
        for i, line in enumerate(_("595 /OE (pin 13): 10 kΩ to 3.3 V;\nthe firmware pulls it low after\n"
                                   "its first write (no random lamps)").splitlines()):
            svg.text(60, yl + 40 + 14 * i, line, 11)
    svg.line(300, yl, 420, yl)
    svg.rect(420, yl - 30, 160, 100, fill="#cfd8dc", rx=4)
    svg.text(500, yl - 12, f"ULN2803 #{chip}", 12, "middle", "bold")
    svg.text(430, yl + 4, f"IN{channel} ({channel})", 11)
    svg.text(570, yl + 4, f"OUT{channel} ({19 - channel})", 11, "end")
    svg.text(430, yl + 40, "GND (9)", 11)
    svg.text(570, yl + 40, "COM (10)", 11, "end")
    svg.line(450, yl + 70, 450, yl + 86)
    svg.ground(450, yl + 86)
    svg.text(470, yl + 92, _("the box's one ground point"), 11)
    svg.line(580, yl, 700, yl)
    svg.text(640, yl - 6, _("own cable"), 10, "middle")
    svg.lamp(712, yl, _("12 V LED lamp"))
    svg.line(712, yl - 12, 712, yl - 30)
    svg.rect(700, yl - 62, 24, 32, fill="#ffccbc", rx=3)
    svg.text(730, yl - 42, _("PTC 250 mA (one per station)"), 11)
    svg.line(712, yl - 62, 712, yl - 74)
    svg.text(712, yl - 78, _("+12 V lamp supply (fused; never the Pi's 5 V pins)"), 11, "middle")
    svg.line(580, yl + 36, 860, yl + 36)
    svg.line(860, yl + 36, 860, yl - 68)
    svg.line(860, yl - 68, 712, yl - 68)
    svg.circle(712, yl - 68, 3, "#000")
    svg.text(600, yl + 50, _("COM to +12 V: always"), 10)
    return y + 250


def _draw_cables(svg: Svg, profile: Profile, station: Station, y: int) -> int:
    """The station's connectors, pin by pin: signals and lamps never share one."""
    connectors = [*signal_connectors(profile, station)]
    lamp = lamp_connector(profile, station)
    if lamp is not None:
        connectors.append(lamp)
    svg.text(40, y, _("Station {station}'s cables at the box (every station the same; no supply on a signal "
                      "connector)").format(station=station.name), 14, weight="bold")
    top = y + 24
    x = 40
    bottom = top
    for conn in connectors:
        lines = conn.lines()
        width = max(250, 7 * max(len(line) for line in lines))
        if x + width > svg.width - 20:
            x, top = 40, bottom + 16
        svg.rect(x, top - 4, width - 10, 16 * len(lines) + 10, fill="#f1f8e9", rx=4)
        for i, line in enumerate(lines):
            svg.text(x + 8, top + 10 + 16 * i, line, 11, weight="bold" if i == 0 else "normal")
        bottom = max(bottom, top + 16 * len(lines) + 10)
        x += width
    return bottom + 20


def _draw_station(svg: Svg, profile: Profile, station: Station, top: int) -> int:
    """The front end of this station's bell (and, on the board, its first
    shift-register button), its light, and its cables."""
    svg.text(40, top, _("One station in detail: {station} (every station is wired the same way)").format(
        station=station.name), 16, weight="bold")
    y = top + 40
    examples: list[tuple[str, int]] = [("bell", station.inputs["bell"])]
    if profile.source == "board":
        examples += [(n, c) for n, c in station.inputs.items() if c >= bc.SR_FIRST_CHANNEL][:1]
    for name, number in examples:
        _draw_input(svg, profile, station, name, number, y)
        y += 180
    light_name = "bell" if "bell" in station.lights else next(iter(station.lights), None)
    if light_name is not None:
        y = _draw_light(svg, profile, station, light_name, y)
    return _draw_cables(svg, profile, station, y)


def render(profile: Profile) -> str:
    """The whole diagram as an SVG document (deterministic)."""
    board = profile.source == "board"
    width = 1620 if board else 1100
    parts: list[tuple[str, str]] = [(st.name, st.color) for st in profile.stations]
    svg = Svg(width, 10, _("Wiring: {profile}").format(profile=profile.name))
    svg.text(40, 36, _("Wiring diagram: {profile}").format(profile=profile.name), 22, weight="bold")
    svg.text(40, 58, profile.description, 13)
    svg.text(40, 78, _("Generated by 'buzzerbox wiring draw' from the profile; do not edit by hand."), 11, fill="#757575")
    x = 40
    for name, color in parts:
        svg.rect(x, 90, 16, 16, fill=color)
        svg.text(x + 22, 103, name, 12)
        x += 30 + 8 * len(name)
    y = _draw_board(svg, profile, 140) if board else _draw_header(svg, profile, 140)
    y = _draw_station(svg, profile, profile.stations[0], y + 40)
    svg.height = y + 20
    return svg.render()
