"""The keyboard as stations and host buttons: for demos, rehearsals and a box
whose buttons are not wired yet.

A key waits in SDL's queue until the loop reads it, up to a frame later, and
is stamped then, so the keyboard is a coarse source: ``precision_us = 25_000``.
The arbiter calls two presses closer than 25 ms a tie when one of them came
from the keyboard, instead of inventing an order.

Keys are read by the display loop (pygame events belong to the main thread):
``handle(event, now_us)`` turns a key event into an edge for the box, or into
a host action name.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import pygame

from controller.box.press import Edge
from controller.box.sources.base import KEY_PRECISION_US, InputSink, Source
from games.i18n import _, ngettext

#: station bells on the digit row, then F1..F6 (16 stations)
BELL_KEYS = [pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6, pygame.K_7, pygame.K_8,
             pygame.K_9, pygame.K_0, pygame.K_F1, pygame.K_F2, pygame.K_F3, pygame.K_F4, pygame.K_F5, pygame.K_F6]
#: a second button for stations 0..7 on the numeric keypad ("a"), for games with buttons
BUTTON_KEYS = [pygame.K_KP1, pygame.K_KP2, pygame.K_KP3, pygame.K_KP4, pygame.K_KP5, pygame.K_KP6, pygame.K_KP7, pygame.K_KP8]

#: the generic host buttons; a game adds keys for its own (``GameSpec.host_keys``)
HOST_KEYS: dict[int, str] = {
    pygame.K_SPACE: "arm",
    pygame.K_c: "correct",
    pygame.K_w: "wrong",
    pygame.K_n: "next",
    pygame.K_u: "undo",
    pygame.K_r: "reset",
    pygame.K_ESCAPE: "menu",
    # a presenter clicker (a USB remote types these keys): the next step, back, the pause card
    pygame.K_PAGEDOWN: "step",
    pygame.K_RIGHT: "step",
    pygame.K_PAGEUP: "undo",
    pygame.K_LEFT: "undo",
    pygame.K_b: "blank",
    pygame.K_PERIOD: "blank",
}

#: the box's own host keys, by pygame key name, bound only while the box
#: answers them (``Presenter.box_actions``): k puts the host PIN on the big
#: screen for a minute with ``--web`` (a co-host logs in); F5 (and a clicker's
#: Shift+F5) plays an audio question's clip again from its start
BOX_KEYS: dict[str, str] = {"k": "show_pin", "f5": "replay"}



def default_keymap(stations: int, buttons: tuple[str, ...] = ("a",)) -> dict[int, tuple[int, str]]:
    """key -> (station, input): '1' is station 0's bell, '2' station 1's, ...;
    keypad 1..8 are stations 0..7's first button."""
    keymap = {BELL_KEYS[i]: (i, "bell") for i in range(min(stations, len(BELL_KEYS)))}
    if buttons:
        keymap.update({BUTTON_KEYS[i]: (i, buttons[0]) for i in range(min(stations, len(BUTTON_KEYS)))})
    return keymap


def key_code(name: str) -> int:
    """A key's code by its pygame name. ``play`` maps the profile's ``[keys]``
    before the window opens: pygame then warns on stderr that it was not
    initialised, but a name's code is SDL's fixed table, right either way."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="pygame.init", category=Warning)
        return pygame.key.key_code(name)


class KeyboardSource(Source):
    name = "keyboard"
    precision_us = KEY_PRECISION_US  # a key waits in SDL's queue for up to a frame before the loop stamps it

    def __init__(self, stations: int, keymap: Mapping[int, tuple[int, str]] | None = None,
                 host_keys: Mapping[int, str] | None = None, active_level: int = 0,
                 sends_watermarks: bool = False, keys: Mapping[str, str] | None = None) -> None:
        """``sends_watermarks``: the keys are the game's only stations, so the loop
        that reads them says after each read how far it has delivered them; ``keys``:
        the wiring profile's ``[keys]`` (``remap``)."""
        self.sends_watermarks = sends_watermarks
        self.keymap = dict(keymap if keymap is not None else default_keymap(stations))
        self.host_keys = dict(host_keys if host_keys is not None else HOST_KEYS)
        self.remap(keys or {})
        self.active_level = active_level
        self.sink: InputSink | None = None

    def remap(self, keys: Mapping[str, str]) -> None:
        """The wiring profile's ``[keys]``: key names (pygame's, as ``"page down"``)
        to host actions, over the generic keys (a clicker that types other keys)."""
        for name, action in keys.items():
            self.host_keys[key_code(name)] = action

    def add_host_keys(self, game_keys: Mapping[str, str]) -> None:
        """A game's own host keys, by pygame key name (``{"p": "pick"}``); they
        never take a generic key's place."""
        for name, action in game_keys.items():
            self.host_keys.setdefault(key_code(name), action)

    def start(self, sink: InputSink) -> None:
        self.sink = sink

    def stop(self) -> None:
        self.sink = None

    def handle(self, event: pygame.event.Event, now_us: int) -> str | None:
        """A station key becomes an edge (down: pressed, up: released); a host key
        (on key down) is returned as the host action's name."""
        if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return None
        target = self.keymap.get(event.key)
        if target is not None:
            if self.sink is not None:
                level = self.active_level if event.type == pygame.KEYDOWN else 1 - self.active_level
                self.sink.edge(Edge(target[0], target[1], level, now_us), self.precision_us)
            return None
        if event.type == pygame.KEYDOWN:
            return self.host_keys.get(event.key)
        return None

    def describe(self) -> str:
        keys = len(self.keymap)
        return _("keyboard: {keys} (stamps to {us} µs: a key is stamped when the loop reads it, up to a frame late)").format(
            keys=ngettext("{n} key", "{n} keys", keys).format(n=keys), us=self.precision_us)
