"""The start menu: choose the game, players, options and start — from the
keyboard or from the stations themselves (no keyboard at the bar).

Keys: up/down choose a line, left/right change it, Enter or space starts.
Stations: station 1's bell moves down, station 2's bell changes the value,
the host's ``arm`` button (or any station's second button) starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from controller.sound import SoundSettings
from games.i18n import _
from games.registry import get as get_game
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Layout, draw_text, panel


@dataclass
class Item:
    key: str
    label: str
    values: list[Any]
    names: list[str]
    index: int = 0

    @property
    def value(self) -> Any:
        return self.values[self.index]


@dataclass
class Choice:
    """What the menu hands the loop when Start is chosen."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    bots: bool = False
    sound: SoundSettings = field(default_factory=SoundSettings)


def _listed(game: str, title: str) -> str:
    """A game's name in the list: games played with hidden hands say they need phones."""
    spec = get_game(game)
    if not spec.needs_phones:
        return title
    return f"{title} ({_('phones') if not spec.no_phones_with else _('phones or open hands')})"


class Menu:
    def __init__(self, games: list[tuple[str, str, int, int]], players: int = 4, sound: SoundSettings | None = None) -> None:
        """``games``: (name, title, min_players, max_players) of each game with a scene."""
        if not games:
            raise ValueError("no game with a scene is installed")
        self.games = games
        self.sound = sound or SoundSettings()
        self.selected = 0
        self.started = False
        self.default_players = players
        self._build(0, players)

    def _build(self, game_index: int, players: int) -> None:
        name, _title, lo, hi = self.games[game_index]
        counts = list(range(lo, hi + 1))
        self.items = [
            Item("game", "Game", list(range(len(self.games))), [_listed(g[0], g[1]) for g in self.games], game_index),
            Item("players", "Players", counts, [str(c) for c in counts], counts.index(min(max(players, lo), hi))),
        ]
        for key, option in get_game(name).options.items():  # each game says what the menu offers
            if option.choices:
                self.items.append(Item(key, option.label or key, [v for v, _ in option.choices],
                                       [n for _, n in option.choices]))
        self.items += [
            Item("bots", "Who plays", [False, True], ["people", "demo bots"]),
            Item("sound", "Sound", [True, False], ["on", "off"], 0 if not self.sound.mute else 1),
            Item("volume", "Volume", [0.2, 0.4, 0.6, 0.8, 1.0], ["20%", "40%", "60%", "80%", "100%"],
                 min(4, max(0, round(self.sound.volume * 5) - 1))),
            Item("start", "Start", [None], ["start"]),
        ]
        self.selected = min(self.selected, len(self.items) - 1)

    def item(self, key: str) -> Item:
        return next(i for i in self.items if i.key == key)

    # -- input --------------------------------------------------------------------
    def key(self, action: str) -> Choice | None:
        """up, down, left, right, select: returns the choice when Start is chosen."""
        if action == "up":
            self.selected = (self.selected - 1) % len(self.items)
        elif action == "down":
            self.selected = (self.selected + 1) % len(self.items)
        elif action in ("left", "right"):
            it = self.items[self.selected]
            if it.key == "start":
                return None
            it.index = (it.index + (1 if action == "right" else -1)) % len(it.values)
            if it.key == "game":
                self._build(it.index, self.item("players").value)
        elif action == "select":
            self.started = True
            return self.choice()
        return None

    def press(self, station: int, input: str) -> Choice | None:
        """A station button in the menu (see the module docstring)."""
        if station < 0:
            return self.key("select") if input in ("arm", "next") else self.key({"reset": "up", "wrong": "down"}.get(input, ""))
        if input != "bell":
            return self.key("select")
        if station == 0:
            return self.key("down")
        if station == 1:
            return self.key("select") if self.items[self.selected].key == "start" else self.key("right")
        return None

    def choice(self) -> Choice:
        game = self.games[self.item("game").value][0]
        declared = get_game(game).options
        options = {}
        for it in self.items:
            option = declared.get(it.key)
            # None is "off" unless the option says None means something ("host turns")
            if option is not None and it.key != "teams" and (it.value is not None or option.nullable):
                options[it.key] = it.value
        players = self.item("players").value
        if self._has("teams") and self.item("teams").value:
            size = self.item("teams").value
            options["teams"] = [s // size for s in range(players)]
        sound = SoundSettings(volume=self.item("volume").value, mute=not self.item("sound").value)
        return Choice(game, players, options, bool(self.item("bots").value), sound)

    def _has(self, key: str) -> bool:
        return any(i.key == key for i in self.items)

    def view(self) -> dict[str, Any]:
        return {
            "phase": "menu",
            "items": [{"label": it.label, "value": it.names[it.index], "selected": k == self.selected}
                      for k, it in enumerate(self.items)],
        }


class MenuScene(Scene):
    title = "Buzzer box"

    def header(self, view: View) -> tuple[str, str]:
        return self.title, "up/down: choose · left/right: change · Enter: start"

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        items = list(view.get("items", ()))
        row_h = min(lay.size(1.5), max(lay.min_text, (area.height - lay.pad * len(items)) // max(1, len(items))))
        width = min(area.width, round(lay.width * 0.7))
        x = area.centerx - width // 2
        y = area.top + max(0, (area.height - len(items) * (row_h + lay.pad)) // 2)
        for it in items:
            r = pygame.Rect(x, y, width, row_h)
            sel = it["selected"]
            fill = theme.STATUS_COLORS["first"] if sel else theme.PANEL
            panel(surface, r, fill)
            ink = theme.text_on(fill)
            inner = r.inflate(-4 * lay.pad, 0)
            if it["label"] == "Start":
                draw_text(surface, "START", lay.size(1.2), ink, inner)
            else:
                draw_text(surface, it["label"], lay.size(1.1), ink, pygame.Rect(inner.left, r.top, inner.width // 2, r.height), align="left", min_size=lay.min_text)
                value = f"‹ {it['value']} ›" if sel else str(it["value"])
                draw_text(surface, value, lay.size(1.1), ink, pygame.Rect(inner.centerx, r.top, inner.width // 2, r.height), align="right", min_size=lay.min_text)
            y += row_h + lay.pad
