"""The keyboard stations' keys line has space of its own below the strip: in
every phase of every registered game, at both screen sizes, with 8 and 16
stations (and teams where a game has them), it is drawn whole, and no text of
the game is drawn where it is (drawn over the body it hid "Listen to the
question…", the answer timer and Team 3)."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from controller.screen.live import key_runs
from games import registry
from games.toolkit import theme
from tests.phases import phase_frames

SIZES = [(1920, 1080), (1280, 720)]
KEYS = "keys {keys}: one per station, left to right · h shows every key"


def configurations() -> list[tuple[str, int, tuple[tuple[str, Any], ...]]]:
    out = []
    for game in registry.available():
        spec = registry.get(game)
        for wanted in (8, 16):
            players = max(spec.min_players, min(wanted, spec.max_players))
            out.append((game, players, ()))
            if "team_size" in spec.options:  # teams of two: the quiz's team panel
                out.append((game, players, (("team_size", 2),)))
    return sorted(set(out))


def test_key_names_are_written_as_runs() -> None:
    assert key_runs(["1", "2", "3"]) == "1–3"
    assert key_runs(["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "f1", "f2"]) == "1–9, 0, f1–f2"
    assert key_runs(["7"]) == "7"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("game", "players", "options"), configurations(),
                         ids=lambda v: "-".join(map(str, v)) if isinstance(v, tuple) else str(v))
def test_the_keys_line_is_whole_and_nothing_is_drawn_under_it(game: str, players: int, options: Any,
                                                              size: tuple[int, int]) -> None:
    text = KEYS.format(keys=key_runs([str(k) for k in (*range(1, 10), 0)] + [f"f{k}" for k in range(1, 7)]))
    for frame in phase_frames(game, players, options):
        scene = frame.scene()
        scene.footer, scene.footer_until_us = text, None
        surface = pygame.Surface(size)
        theme.DRAWN = []
        scene.draw(surface, frame.view, list(frame.strip), frame.now_us)
        drawn, theme.DRAWN = theme.DRAWN, None
        lines = []  # the footer is drawn last (no overlays here): the trailing texts that are part of it
        while drawn and drawn[-1][1] and drawn[-1][1] in text and " ".join(d[1] for d in [drawn[-1], *lines]) in text:
            lines.insert(0, drawn.pop())
        assert " ".join(d[1] for d in lines) == text, f"{frame.name}: the keys line is cut: {[d[1] for d in lines]}"
        band = pygame.Rect(0, min(d[3].top for d in lines), size[0], size[1])
        assert all(surface.get_rect().contains(d[2]) for d in lines), f"{frame.name}: the keys line is off the screen"
        under = [d[1] for d in drawn if d[2].width and d[2].colliderect(band)]
        assert not under, f"{frame.name}: drawn under the keys line: {under}"
