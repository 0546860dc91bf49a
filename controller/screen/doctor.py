"""``buzzerbox doctor``: which SDL video and audio drivers this pygame has and
which open here, whether KMS/DRM (the Pi console without a desktop) works,
which gpiozero pin factory would load, and whether the header's inputs can be
read from the kernel's GPIO line events (the fast way)."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import warnings
from pathlib import Path

from games.i18n import _

VIDEO_DRIVERS = ("kmsdrm", "x11", "wayland", "offscreen", "dummy")
AUDIO_DRIVERS = ("pipewire", "pulseaudio", "alsa", "jack", "disk", "dummy")

_VIDEO_PROBE = "import os,pygame;pygame.display.init();pygame.display.set_mode((64,64));print(pygame.display.get_driver())"
_AUDIO_PROBE = (
    "import os,pygame;pygame.mixer.init();print(pygame.mixer.get_init())"
)


def sdl_library() -> Path | None:
    """The SDL2 library pygame actually loaded (pip wheel or the distribution's)."""
    import pygame  # noqa: F401  (loads SDL)

    try:
        for line in Path("/proc/self/maps").read_text().splitlines():
            if "libSDL2-2" in line:
                return Path(line.split()[-1])
    except OSError:
        pass
    return None


def compiled_drivers(lib: Path | None, kind: str, names: tuple[str, ...]) -> list[str] | None:
    """Which of ``names`` the SDL library ``lib`` was built with, as SDL itself
    lists them (SDL_GetVideoDriver / SDL_GetAudioDriver: its table of drivers,
    readable before any init and without a screen, so a box with no GPU or a
    chroot answers too). Compared without case: SDL 2.26 calls kmsdrm "KMSDRM",
    and SDL_VIDEODRIVER takes either. None when the library cannot be asked."""
    if lib is None:
        return None
    which = "Video" if kind == "video" else "Audio"
    try:
        sdl = ctypes.CDLL(str(lib))  # the library pygame loaded: the same handle, nothing loaded twice
        count, name = getattr(sdl, f"SDL_GetNum{which}Drivers"), getattr(sdl, f"SDL_Get{which}Driver")
    except (OSError, AttributeError):
        return None
    name.restype, name.argtypes = ctypes.c_char_p, [ctypes.c_int]
    built = {(name(i) or b"").decode(errors="replace").lower() for i in range(count())}
    return [n for n in names if n in built]


def probe(kind: str, driver: str, timeout: float = 8.0) -> tuple[bool, str]:
    """Try to open ``driver`` in a child process (a failed SDL init leaves a
    process in a state not worth trusting)."""
    env = dict(os.environ)
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    if kind == "video":
        env["SDL_VIDEODRIVER"] = driver
        code = _VIDEO_PROBE
    else:
        env["SDL_AUDIODRIVER"] = driver
        env.setdefault("SDL_DISKAUDIOFILE", "/dev/null")
        code = _AUDIO_PROBE
    try:
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, _("timed out")
    if out.returncode == 0:
        return True, out.stdout.strip().splitlines()[-1] if out.stdout.strip() else "ok"
    err = (out.stderr.strip().splitlines() or ["failed"])[-1]
    return False, err.split("error: ")[-1]


def pin_factory() -> tuple[str | None, str]:
    """The gpiozero pin factory that would load here (None: none), and a line
    saying which and why the others did not."""
    chosen = os.environ.get("GPIOZERO_PIN_FACTORY")
    try:
        from gpiozero import Device
    except ImportError as exc:
        return None, _("gpiozero not installed ({error}); on a Pi: pip install -e '.[pi]'").format(error=exc)
    name: str | None = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            factory = Device._default_pin_factory()
            name = type(factory).__name__
            factory.close()
            result = f"{name}" + (f" (GPIOZERO_PIN_FACTORY={chosen})" if chosen else "")
        except Exception as exc:  # gpiozero raises BadPinFactory off a Pi
            result = _("none ({kind}: {error})").format(kind=exc.__class__.__name__, error=exc)
    tried = "; ".join(str(w.message) for w in caught)
    return name, result + ("\n    " + _("tried: {tried}").format(tried=tried) if tried else "")


def line_events() -> str:
    """Whether the stations' header inputs can be read from the kernel's line events
    (``controller/box/sources/linefd.py``), from which chip, or why not."""
    from controller.box.sources.linefd import LineError, header_chip

    try:
        chip, label = header_chip()
    except LineError as exc:
        return _("GPIO line events: not available ({why}); the stations' inputs go through the pin factory "
                 "(on lgpio's pins every decision waits up to 2 ms more)").format(why=exc.strerror)
    return _("GPIO line events: {chip} ({label}); the stations' inputs are read from the kernel's edge events").format(
        chip=chip, label=label)


#: drivers that draw nowhere a person sees: a box with only these cannot show a game
UNSEEN_DRIVERS = ("offscreen", "dummy")


def verdict(screens: list[str] | None, gpio: str | None) -> tuple[str, bool]:
    """The last line of ``doctor`` and whether this machine can run a game.

    ``screens``: the video drivers that opened and show something (None: not
    tried, ``--quick``); ``gpio``: the pin factory that loads, or None. A game
    needs a screen; stations can be the keyboard (or the input board) without GPIO."""
    if screens == []:
        return _("verdict: NOT READY: no video driver opens a screen here, so no game can be shown; "
                 "run it on the box's screen, set DISPLAY, or see docs/display.md (demo --headless still works)"), False
    drivers = _("not tried: --quick") if screens is None else ", ".join(screens)
    if gpio is None:
        return _("verdict: ready for games on a screen ({drivers}) with keyboard stations or the input board; no GPIO "
                 "here: stations on the Pi's header need a Pi with lgpio (pip install -e '.[pi]')").format(
                     drivers=drivers), True
    return _("verdict: ready: a screen ({drivers}) and GPIO stations ({gpio})").format(drivers=drivers, gpio=gpio), True


def report(probe_drivers: bool = True) -> tuple[str, bool]:
    """What ``doctor`` prints, ending with its verdict; and whether a game can run here."""
    import pygame

    lines = [f"pygame {pygame.version.ver}, SDL {'.'.join(map(str, pygame.get_sdl_version()))}, Python {sys.version.split()[0]}"]
    lib = sdl_library()
    lines.append(_("SDL library: {library}").format(library=lib or _("unknown")))
    screens: list[str] = []
    for kind, names in (("video", VIDEO_DRIVERS), ("audio", AUDIO_DRIVERS)):
        built = compiled_drivers(lib, kind, names)
        listed = ", ".join(built) if built is not None else _("could not read the library")
        lines.append((_("video drivers built in: {drivers}") if kind == "video" else
                      _("audio drivers built in: {drivers}")).format(drivers=listed))
        if probe_drivers:
            for name in built if built is not None else names:
                ok, why = probe(kind, name)
                lines.append(f"  {name:10s} " + (_("opens: {why}") if ok else _("does not open: {why}")).format(why=why))
                if kind == "video" and ok and name not in UNSEEN_DRIVERS:
                    screens.append(name)
    video = compiled_drivers(lib, "video", ("kmsdrm",))
    if video == []:
        lines.append(_(
            "kmsdrm: NOT built into this pygame. On Raspberry Pi OS Lite use Debian's python3-pygame "
            "(apt install python3-pygame; venv with --system-site-packages) or run under the cage kiosk "
            "compositor - see docs/display.md"
        ))
    elif video:
        drm = sorted(str(p) for p in Path("/dev/dri").glob("card*")) if Path("/dev/dri").exists() else []
        lines.append(_("kmsdrm: built in; DRM devices: {devices}").format(
            devices=", ".join(drm) or _("none (no GPU driver loaded?)")))
    for var in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        lines.append(f"{var}={os.environ.get(var, '')}")
    gpio, said = pin_factory()
    lines.append(_("gpiozero pin factory: {factory}").format(factory=said))
    lines.append(line_events())
    line, ready = verdict(screens if probe_drivers else None, gpio)
    lines.append(line)
    return "\n".join(lines), ready
