"""Opening the display: fullscreen at native resolution on the Pi (KMS/DRM or
X), a resizable window on a desktop, an off-screen surface when headless."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pygame

from controller.box.timeline import box_now_us
from controller.system import signals

HEADLESS_SIZE = (1920, 1080)
WINDOW_SIZE = (1280, 720)


def set_mode(size: tuple[int, int], flags: int = 0) -> pygame.Surface:
    """``pygame.display.set_mode`` with Ctrl+C held over it: pygame loads the
    window's icon through Python inside it and drops whatever that raised, so
    a KeyboardInterrupt raised there would be lost and the game run on; held,
    it is raised as soon as the window is made (tests/display/test_screen_signals.py)."""
    with signals.held():
        return pygame.display.set_mode(size, flags)


def has_display() -> bool:
    """A desktop session (X or Wayland), or the Pi's console with a DRM device."""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return True
    return on_console()


def on_console() -> bool:
    """No desktop but a DRM card: the Pi booted to the console (OS Lite, kiosk)."""
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and any(Path("/dev/dri").glob("card*"))


def window_manager() -> bool | None:
    """Whether the X display has a window manager (one ever set the EWMH
    ``_NET_SUPPORTING_WM_CHECK`` atom there); None: no X, or libX11 not found.
    Xvfb or ``startx`` with only the box in ``.xinitrc`` has none: the box
    then fills the screen as on the console."""
    if not os.environ.get("DISPLAY"):
        return None
    try:
        import ctypes
        import ctypes.util

        name = ctypes.util.find_library("X11")
        if name is None:
            return None
        x11 = ctypes.CDLL(name)
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XInternAtom.restype = ctypes.c_ulong
        x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        display = x11.XOpenDisplay(None)
        if not display:
            return None
        try:
            return bool(x11.XInternAtom(display, b"_NET_SUPPORTING_WM_CHECK", 1))
        finally:
            x11.XCloseDisplay(display)
    except OSError:
        return None


@dataclass
class Screen:
    """The surface scenes draw on, and the flip that puts it on the glass."""

    surface: pygame.Surface
    headless: bool
    driver: str

    @classmethod
    def open(cls, headless: bool = False, fullscreen: bool | None = None, size: tuple[int, int] | None = None,
             caption: str = "buzzer box") -> Screen:
        """``headless`` uses SDL's dummy driver (tests, ``demo --headless``).
        ``fullscreen`` defaults to True on the console and False in a desktop."""
        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        elif on_console() and "SDL_VIDEODRIVER" not in os.environ:
            os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
        pygame.display.init()
        pygame.font.init()
        driver = pygame.display.get_driver()
        if headless or driver in ("dummy", "offscreen"):
            surface = set_mode(size or HEADLESS_SIZE)
            return cls(surface, True, driver)
        if fullscreen is None:  # a kiosk's X without a window manager: a window would sit unmoved in a corner
            fullscreen = driver in ("kmsdrm", "fbcon", "directfb") or on_console() or (
                driver == "x11" and window_manager() is False)
        pygame.display.set_caption(caption)
        if fullscreen:
            surface = set_mode((0, 0), pygame.FULLSCREEN)  # native resolution
            pygame.mouse.set_visible(False)
        else:
            surface = set_mode(size or WINDOW_SIZE, pygame.RESIZABLE)
        return cls(surface, False, driver)

    def flip(self) -> int:
        """Show the frame; returns the box time just after the flip (``t_show``)."""
        pygame.display.flip()
        return box_now_us()

    def resized(self, size: tuple[int, int]) -> None:
        """A desktop window was resized: scenes lay out from the new size."""
        if not self.headless:
            self.surface = set_mode(size, pygame.RESIZABLE)

    def save(self, path: str | Path) -> None:
        """Save what is on screen as PNG (the size of the surface)."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(path))

    def close(self) -> None:
        pygame.display.quit()
