"""Deploying the board firmware, and the simulator, from the command line.

``buzzerbox firmware install`` copies firmware/buzzer and main.py onto a Pico
running MicroPython with ``mpremote`` (``--lockout-box``: with the lockout box's
pin map); ``buzzerbox firmware pinmap`` writes firmware/buzzer/pinmap.py from
wiring/board-pinmap.toml and pinmap_lockout.py from board-pinmap-lockout.toml;
``buzzerbox firmware
sim`` runs a simulated board on a pty and prints its device path, so a driver
(or a person with ``screen``) can talk to it; ``buzzerbox firmware repl``
reboots the board into one maintenance boot with the REPL free.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from controller.box.sources.board_channels import (  # the Pico's header GPIOs
    GP_TO_PICO_PIN,
    read_pinmap_toml,
)
from controller.system.resources import shipped
from firmware.buzzer.app import SR_BASE  # direct channels are the ones below it
from games.base import BuzzerBoxError
from games.i18n import _

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
PINMAP_TOML = shipped("wiring") / "board-pinmap.toml"
PINMAP_PY = FIRMWARE / "buzzer" / "pinmap.py"
#: lockout box mode's stock map: the stock one with [standalone] (wiring/README.md section 5)
LOCKOUT_TOML = shipped("wiring") / "board-pinmap-lockout.toml"
LOCKOUT_PY = FIRMWARE / "buzzer" / "pinmap_lockout.py"
#: every shipped pin map: its TOML -> the module generated from it
PINMAPS = {PINMAP_TOML: PINMAP_PY, LOCKOUT_TOML: LOCKOUT_PY}


class FirmwareError(BuzzerBoxError, RuntimeError):
    """Something the user must fix; the message says what."""


def _load(toml_path: Path) -> dict[str, Any]:
    """A pin map's TOML, its ``extends`` resolved (``board_channels.read_pinmap_toml``)."""
    try:
        return read_pinmap_toml(toml_path)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise FirmwareError(f"{toml_path}: {exc}") from exc
    except ValueError as exc:  # a bad ``extends``: the message names the file and the fix
        raise FirmwareError(str(exc)) from exc


def render_pinmap(toml_path: Path = PINMAP_TOML) -> str:
    """A pin map's TOML (wiring/board-pinmap*.toml) -> the text of its firmware module."""
    data = _load(toml_path)
    try:
        direct = {int(ch): int(gp) for ch, gp in data["direct"].items()}
        bad = [ch for ch in direct if not 0 <= ch < SR_BASE]
        if bad:
            raise FirmwareError(f"{toml_path}: direct channels {bad} out of range; use 0..{SR_BASE - 1} "
                                f"({SR_BASE} and up are the SN74HCS165 chain)")
        spi, sr, lights, db = data["spi"], data["shift_in"], data["lights"], data["debounce"]
        led = data.get("status_led")
        led = None if led is False else led
        pio_line, pio_jobs = "", list[tuple[str, int]]()
        if "pio_lockout" in data:
            pio_line, pio_jobs = _pio_lockout(toml_path, data["pio_lockout"], direct, int(lights["chips"]), led)
        _check_pins_once(toml_path, direct, spi, sr, lights, pio_jobs)
        lines = [
            f'"""The board\'s pin map (generated from wiring/{toml_path.name}; a test keeps',
            "the two equal: edit the TOML, then run `buzzerbox firmware pinmap`).\"\"\"",
            "",
            "# input channel -> GP pin of the Pico, read by a hard IRQ on both edges",
            f"DIRECT = {dict(sorted(direct.items()))!r}",
            "# chained SN74HCS165 (inputs) and 74HC595 (lights) on SPI0",
            f"SPI = {{\"id\": {spi['id']}, \"sck\": {spi['sck']}, \"mosi\": {spi['mosi']}, "
            f"\"miso\": {spi['miso']}, \"baudrate\": {spi['baudrate']}}}",
            f"SR_LOAD = {sr['load']}  # SN74HCS165 /PL: low loads the parallel inputs (the stamp instant)",
            f"SR_CHIPS = {sr['chips']}  # input channels 32 + 8*chip + bit (chip 0 nearest the Pico)",
            f"LIGHT_LATCH = {lights['latch']}  # 74HC595 RCLK",
            f"LIGHT_OE = {lights.get('oe')}  # 74HC595 /OE (pulled up): driven low only after the first all-off write",
            f"LIGHT_CHIPS = {lights['chips']}  # light channel 8*chip + bit (chip 0 nearest the Pico)",
            f"STATUS_LED = {led}  # the Pico's own LED: blinks with the heartbeat"
            + ("" if led is not None else " (None: no blink, GP25 has another job)"),
            f"ACTIVE_LEVEL = {data['active_level']}  # switches to ground with pull-ups: 0 is pressed",
            f"DEBOUNCE = {{\"bounce_us\": {db['bounce_us']}, \"glitch_us\": {db['glitch_us']}, "
            f"\"stuck_us\": {db['stuck_us']}}}",
        ]
        if "standalone" in data:
            lines.append(_standalone_line(toml_path, data["standalone"], set(direct), int(lights["chips"])))
        if pio_line:
            lines.append(pio_line)
    except KeyError as exc:
        raise FirmwareError(f"{toml_path}: missing key {exc}; see the comments at its top") from exc
    if not 0 <= int(sr["chips"]) <= 8 or not 0 <= int(lights["chips"]) <= 8:
        raise FirmwareError(f"{toml_path}: at most 8 chips per chain (channels end at 95)")
    return "\n".join(lines) + "\n"


def _standalone_line(toml_path: Path, sa: dict[str, Any], direct: set[int], light_chips: int) -> str:
    """``[standalone]`` (lockout box mode, firmware/buzzer/standalone.py) -> ``STANDALONE``:
    the bells' input channels and lamps, the reset input, the buzzer's light channel."""
    lamps = range(8 * light_chips)
    inputs = set(direct) | set(range(SR_BASE, SR_BASE + 64))
    bells = {int(ch): int(lamp) for ch, lamp in sa["bells"].items()}
    reset, buzzer = int(sa["reset"]), int(sa["buzzer"])
    bad = [f"input channel {ch}" for ch in [*bells, reset] if ch not in inputs]
    bad += [f"light channel {lamp}" for lamp in [*bells.values(), buzzer] if lamp not in lamps]
    if bad:
        raise FirmwareError(f"{toml_path}: [standalone] names {', '.join(bad)}, which this board does not have")
    if reset in bells or buzzer in bells.values() or len(set(bells.values())) != len(bells):
        raise FirmwareError(f"{toml_path}: [standalone] gives one channel two jobs; the reset is no bell, "
                            f"the buzzer no bell's lamp, and each bell has its own lamp")
    return (f"STANDALONE = {{\"bells\": {dict(sorted(bells.items()))!r}, \"reset\": {reset}, \"buzzer\": {buzzer}, "
            f"\"buzz_ms\": {int(sa.get('buzz_ms', 500))}, \"tie_us\": {int(sa.get('tie_us', 20))}, "
            f"\"hold_s\": {int(sa.get('hold_s', 60))}}}  # lockout box mode: no host, the board's own lockout")


#: the Pico's own LED: no header pin, but a PIO LOCK pin needs no wire (status_led = false)
LED_GP = 25


def _pio_lockout(toml_path: Path, pl: dict[str, Any], direct: dict[int, int], light_chips: int,
                 led: int | None) -> tuple[str, list[tuple[str, int]]]:
    """``[pio_lockout]`` (firmware/buzzer/pio_lockout.py ``PioBells``) -> ``PIO_LOCKOUT``
    and the GP pins it takes: each bell's lamp GPIO (with the light channel it shares)
    and the two LOCK pins."""
    where = f"{toml_path}: [pio_lockout]"
    try:
        bells = {int(ch): (int(v[0]), int(v[1])) for ch, v in pl["bells"].items()}
        locks = [int(gp) for gp in pl["locks"]]
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
        raise FirmwareError(f"{where} wants bells = {{ <input channel> = [<lamp GP>, <light channel>] }} "
                            f"and locks = [<GP>, <GP>] ({exc})") from exc
    if not 1 <= len(bells) <= 8 or len(locks) != 2:
        raise FirmwareError(f"{where}: 1..8 bells (a state machine each) and 2 locks (one per PIO block), "
                            f"not {len(bells)} and {len(locks)}")
    bad = [ch for ch in bells if ch not in direct]
    if bad:
        raise FirmwareError(f"{where}: bells {bad} are not direct channels; a state machine watches a GP pin")
    shared = [light for _gp, light in bells.values()]
    if len(set(shared)) != len(shared) or not all(0 <= light < 8 * light_chips for light in shared):
        raise FirmwareError(f"{where}: each bell's lamp shares its own light channel, 0..{8 * light_chips - 1}")
    jobs = [(f"pio_lockout lamp of bell {ch}", gp) for ch, (gp, _light) in sorted(bells.items())]
    jobs += [(f"pio_lockout LOCK of PIO{i}", gp) for i, gp in enumerate(locks)]
    if LED_GP in locks and led == LED_GP:
        raise FirmwareError(f"{where}: GP{LED_GP} is the status LED and a LOCK; set status_led = false")
    line = (f"PIO_LOCKOUT = {{\"lamps\": {dict((ch, gp) for ch, (gp, _l) in sorted(bells.items()))!r}, "
            f"\"lights\": {dict((ch, light) for ch, (_g, light) in sorted(bells.items()))!r}, "
            f"\"locks\": ({locks[0]}, {locks[1]})}}  # the lockout in PIO: bell -> lamp GP, its light; LOCKs")
    return line, jobs


def _check_pins_once(toml_path: Path, direct: dict[int, int], spi: dict[str, Any], sr: dict[str, Any],
                     lights: dict[str, Any], more: list[tuple[str, int]] | None = None) -> None:
    """Every GP pin is a Pico header GPIO and has one job: a direct input on a
    bus pin (say /OE) would read the bus, and the bus would lose its pin.
    ``more``: the PIO lockout's pins (a LOCK may be the LED's GP25)."""
    jobs = [(f"direct channel {ch}", gp) for ch, gp in sorted(direct.items())]
    jobs += [(f"spi.{k}", int(spi[k])) for k in ("sck", "mosi", "miso")]
    jobs += [("shift_in.load", int(sr["load"])), ("lights.latch", int(lights["latch"]))]
    if "oe" in lights:
        jobs.append(("lights.oe", int(lights["oe"])))
    jobs += more or []
    owner: dict[int, str] = {}
    for job, gp in jobs:
        if gp not in GP_TO_PICO_PIN and not (gp == LED_GP and "LOCK" in job):
            raise FirmwareError(f"{toml_path}: {job} is on GP{gp}, which the Pico's header does not have; "
                                f"use GP0..GP22 or GP26..GP28")
        if gp in owner:
            raise FirmwareError(f"{toml_path}: GP{gp} is both {owner[gp]} and {job}; give each its own pin "
                                f"(every header GPIO is taken on the stock board: drop a direct channel)")
        owner[gp] = job


def write_pinmaps() -> list[Path]:
    """Every shipped pin map's module from its TOML (``PINMAPS``)."""
    for toml_path, py in PINMAPS.items():
        py.write_text(render_pinmap(toml_path))
    return list(PINMAPS.values())


def install(port: str | None = None, lockout_box: bool = False) -> None:
    """Copy the firmware onto a Pico running MicroPython, then reset it. ``lockout_box``:
    the lockout box's pin map (pinmap_lockout.py) goes on as the board's pinmap.py."""
    mpremote = shutil.which("mpremote")
    if mpremote is None:
        raise FirmwareError(_("mpremote is not installed: `pip install mpremote` (or `pip install buzzerbox[pi]`), "
                              "then run this again"))
    for toml_path, py in PINMAPS.items():
        if py.read_text() != render_pinmap(toml_path):
            raise FirmwareError(f"firmware/buzzer/{py.name} differs from wiring/{toml_path.name}: "
                                "run `buzzerbox firmware pinmap` first")
    connect = ["connect", port] if port else []
    files = sorted(p for p in (FIRMWARE / "buzzer").glob("*.py") if p != LOCKOUT_PY)
    cmd = [mpremote, *connect, "exec", "import os\ntry:\n os.mkdir('buzzer')\nexcept OSError:\n pass"]
    for f in files:
        src = LOCKOUT_PY if lockout_box and f == PINMAP_PY else f
        cmd += ["+", "cp", str(src), f":buzzer/{f.name}"]
    cmd += ["+", "cp", str(FIRMWARE / "main.py"), ":main.py", "+", "reset"]
    proc = subprocess.run(cmd)
    if proc.returncode != 0:
        raise FirmwareError(f"mpremote failed (exit {proc.returncode}): is the Pico plugged in and "
                            f"running MicroPython? Name its port with --port /dev/ttyACM0")


def repl(port: str | None = None, serial_factory: Any = None) -> str:
    """The way back to the REPL: the firmware ignores Ctrl-C (a stray 0x03 must
    not stop a game), so ask it to reboot into one maintenance boot with the
    REPL free (``M repl``; main.py sees the flag file). Returns the port."""
    from controller.box.sources.board import find_board_port
    from firmware.buzzer.proto import frame

    port = port or find_board_port()
    if port is None:
        raise FirmwareError("no input board found (USB 2E8A): plug it in, or name its port with --port")
    if serial_factory is None:
        try:
            import serial
        except ImportError as exc:
            raise FirmwareError("pyserial is not installed: `pip install pyserial`") from exc
        serial_factory = serial.Serial
    try:
        with serial_factory(port, 115200, timeout=1) as ser:
            ser.write(frame("M repl"))
            ser.flush()
    except OSError as exc:
        raise FirmwareError(f"{port}: {exc}: is another program (the box?) using the board?") from exc
    return port


def simulate(seconds: float | None = None) -> None:
    """Run a simulated board on a pty until interrupted (or ``seconds``)."""
    from controller.box.sources.board_sim import BoardSim

    sim = BoardSim(realtime=True)
    print(_("simulated board on {port} (firmware/buzzer under CPython); Ctrl-C to stop").format(port=sim.port),
          flush=True)
    try:
        end = None if seconds is None else time.monotonic() + seconds
        while end is None or time.monotonic() < end:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()


def add_firmware_commands(subparsers: argparse._SubParsersAction) -> None:
    """Registers ``firmware install|pinmap|sim`` on the buzzerbox CLI."""
    fw = subparsers.add_parser("firmware", help=_("the RP2040 input board's firmware"))
    sub = fw.add_subparsers(dest="firmware_command", required=True)
    inst = sub.add_parser("install", help=_("copy the firmware onto a Pico with mpremote"))
    inst.add_argument("--port", help=_("serial port of the Pico (default: mpremote's auto-detect)"))
    inst.add_argument("--lockout-box", action="store_true",
                      help=_("with the lockout box's pin map (wiring/board-pinmap-lockout.toml): with no host "
                             "the board runs its own contests"))
    inst.set_defaults(func=lambda args: _run(lambda: install(args.port, args.lockout_box)))
    pm = sub.add_parser("pinmap", help=_("regenerate firmware/buzzer/pinmap*.py from wiring/board-pinmap*.toml"))
    pm.set_defaults(func=lambda args: _run(lambda: print("\n".join(
        _("wrote {path}").format(path=path) for path in write_pinmaps()))))
    rp = sub.add_parser("repl", help=_("reboot the board into one maintenance boot with its REPL free"))
    rp.add_argument("--port", help=_("serial port of the Pico (default: found by USB id)"))
    rp.set_defaults(func=lambda args: _run(lambda: print(
        _("board on {port} reboots into its REPL: connect with `mpremote connect <port>` "
          "(the next reset runs the firmware again)").format(port=repl(args.port)))))
    sim = sub.add_parser("sim", help=_("run a simulated board on a pseudo-terminal"))
    sim.add_argument("--seconds", type=float, help=_("stop after this long (default: until Ctrl-C)"))
    sim.set_defaults(func=lambda args: _run(lambda: simulate(args.seconds)))


def _run(action) -> int:  # type: ignore[no-untyped-def]
    try:
        action()
    except FirmwareError as exc:
        print(f"buzzerbox firmware: {exc}", file=sys.stderr)
        return 1
    return 0
