"""The screen's side of a live game: the window, the sound, the keyboard
stations' hint and the presenter that draws the views of the game. Every
live game (people's and simulated players') is decided in a process of its
own (``controller/screen/viewer.py``), and its phones' server, with
``--web``, is another (``controller/web/process.py``). The
session's plumbing that the deciding process needs too (journal paths,
names, the box and its inputs) is ``controller/box/session.py``: this
module is never imported there.
"""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from controller.box.profile import Profile
from controller.box.session import KEYS_HINT_US
from games.base import BuzzerBoxError, GameSpec
from games.i18n import _
from games.scenes import scene_for

if TYPE_CHECKING:
    from controller.screen.loop import Presenter
    from controller.screen.screen import Screen
    from controller.screen.sound import Sound
    from games.toolkit.theme import Color

log = logging.getLogger("buzzerbox")



# -- the pieces a live game is made of ---------------------------------------------------


def names_colors(profile: Profile | None, players: int,
                 chosen: Sequence[str] = ()) -> tuple[list[str] | None, list[Color] | None]:
    """Station names and colours (None: the defaults). A name entered in the
    menu (``chosen``) wins over the profile's station name and "Player N"."""
    from games.toolkit.theme import PALETTE, hex_color

    colors = None if profile is None else [
        hex_color(profile.stations[i].color) if i < len(profile.stations) else PALETTE[i % len(PALETTE)]
        for i in range(players)]
    if profile is None and not any(chosen):
        return None, colors
    names = []
    for i in range(players):
        if i < len(chosen) and chosen[i].strip():
            names.append(chosen[i].strip())
        elif profile is not None and i < len(profile.stations):
            names.append(profile.stations[i].name)
        else:
            names.append(_("Player {n}").format(n=i + 1))
    return names, colors


def driver_chosen() -> bool:
    """SDL_VIDEODRIVER set by whoever started the box (tests and CI choose
    the dummy driver on purpose): then a window without a display is wanted."""
    return bool(os.environ.get("SDL_VIDEODRIVER"))


class NoDisplayError(BuzzerBoxError):
    """A window was wanted but no display can be reached."""


def no_display_found() -> str:
    """Why nothing can be shown here (no desktop and no console screen): the
    menu refuses with it, the demo says it before it plays headless."""
    return _("no display found (no DISPLAY, WAYLAND_DISPLAY or /dev/dri card): run it on the box's screen, or "
             "see docs/display.md for the kiosk set-up")


def open_screen(args: argparse.Namespace, headless: bool) -> Screen:
    """The screen; a window that cannot be shown (no reachable display, or SDL
    left with its dummy driver) is a ``NoDisplayError``, never a game played
    in real time into nothing."""
    from controller.screen.screen import Screen

    try:
        screen = Screen.open(headless=headless, fullscreen=getattr(args, "fullscreen", None))
    except Exception as exc:  # pygame.error: the X/Wayland server or the DRM device would not open
        raise NoDisplayError(_("no display could be opened ({exc}): run it on the box's screen, "
                               "set DISPLAY, or use --headless").format(exc=exc)) from exc
    if screen.headless and not headless and not driver_chosen():
        screen.close()
        raise NoDisplayError(_("no display could be opened (SDL video driver {driver!r}): run it on the box's "
                               "screen, set DISPLAY, or use --headless").format(driver=screen.driver))
    return screen


def open_sound(args: argparse.Namespace, headless: bool, profile: Profile | None = None) -> Sound:
    """The mixer, with each station's own buzz from the profile (a bad WAV: one line, the bell)."""
    from controller.screen.sound import Sound, SoundSettings

    if headless and "SDL_AUDIODRIVER" not in os.environ:
        os.environ["SDL_AUDIODRIVER"] = "dummy"  # headless: count sounds, play none
    sound = Sound.open(SoundSettings(volume=args.volume, mute=args.mute))
    if profile is not None:
        sound.use_station_sounds(profile.station_sounds(), [st.name for st in profile.stations])
    return sound


def is_headless(args: argparse.Namespace) -> bool:
    from controller.screen.screen import has_display

    return bool(args.headless) or not has_display()


def keyboard_keys_line(players: int) -> str:
    """Which key is which station, for people playing on a laptop."""
    import pygame

    from controller.screen.keyboard import BELL_KEYS

    keys = ", ".join(_("{key} = Player {n}").format(key=pygame.key.name(k), n=i + 1)
                     for i, k in enumerate(BELL_KEYS[:players]))
    # the host's keys mean what each game makes of them: the help overlay (h) says it per game
    return _("keyboard stations ({keys}; h lists the host's keys for this game)").format(keys=keys)


def presenter_for(spec: GameSpec, screen: Screen, *, sound: Sound | None,
                  colors: Sequence[Color] | None) -> Presenter:
    """What draws ``spec``'s game on ``screen`` (its scene in the stations' ``colors``)."""
    from controller.screen.loop import Presenter

    return Presenter(screen, scene_for(spec.name, colors), sound=sound)


def show_keys(presenter: Presenter, players: int) -> None:
    """Keyboard stations: which key is whose, below the station strip for the
    game's first half minute, in space of its own (drawn over the picture it
    hid the question and the timer); the help overlay lists every key, any time.
    The keys go left to right as the strip's cells do, so the line names the
    keys, not the players (eight names did not fit a 1280-wide screen)."""
    import pygame

    from controller.screen.keyboard import BELL_KEYS

    keys = [pygame.key.name(k) for k in BELL_KEYS[:players]]
    scene = presenter.scene
    scene.footer = _("keys {keys}: one per station, left to right · h shows every key").format(keys=key_runs(keys))
    scene.footer_until_us = KEYS_HINT_US


def key_runs(keys: Sequence[str]) -> str:
    """'1–9, 0, f1–f6': runs of keys whose names count up (1, 2, 3 / f1, f2) written as ranges."""
    runs: list[list[str]] = []
    for key in keys:
        prev = runs[-1][-1] if runs else None
        if prev is not None and _next_key(prev) == key:
            runs[-1].append(key)
        else:
            runs.append([key])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)


def _next_key(name: str) -> str | None:
    """The key name after ``name`` when it ends in a number ('f1' -> 'f2', '8' -> '9')."""
    stem = name.rstrip("0123456789")
    digits = name[len(stem):]
    return f"{stem}{int(digits) + 1}" if digits else None
