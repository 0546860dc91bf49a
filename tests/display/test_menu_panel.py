"""The kiosk menu's panel beside the rows says something of its own about
the highlighted row, never what is said elsewhere: the game's blurb with the
game row (and Start), else the option's value in full and its other choices
(it showed the game's blurb whatever row was highlighted while a long value
was cut in its row). Both sizes, every game, en/cs/pl."""

from __future__ import annotations

import pygame
import pytest

from controller.screen.menu import Menu, MenuScene
from games.i18n import _, set_language
from games.registry import available, get
from games.toolkit import theme
from games.toolkit.scene import freeze, player_name

SIZES = [(1920, 1080), (1280, 720)]
GAMES = [(game, get(game).title, get(game).min_players, get(game).max_players) for game in available()]

pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


def panel_said(m: Menu, size: tuple[int, int]) -> str:
    """Every text drawn right of the rows (the panel), read across its lines."""
    theme.DRAWN = []
    try:
        MenuScene().draw(pygame.Surface(size), freeze(m.view()), [], 0)
        drawn = list(theme.DRAWN)
    finally:
        theme.DRAWN = None
    return panel_of(drawn)


def panel_of(drawn: list[tuple[str, str, pygame.Rect, pygame.Rect, pygame.Rect]], rows: bool = False) -> str:
    """The menu's panel beside the rows in a frame's draw record (``theme.DRAWN``),
    read across its lines; ``rows``: the rows instead (left of the panel)."""
    said = []
    for _asked, shown, ink, _given, screen in drawn:
        body = theme.Layout(screen.width, screen.height, 1).body
        if ink.bottom < body.bottom and ink.top >= body.top \
                and (ink.left > body.left + body.width * 60 // 100) != rows:
            said.append(shown)
    return " ".join(said)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", [game for game, *_rest in GAMES])
def test_the_panel_says_the_highlighted_row_in_full_and_the_blurb_once(
        game: str, language: str, size: tuple[int, int]) -> None:
    set_language(language)
    k = [name for name, *_rest in GAMES].index(game)  # the game row's place: that many steps right
    m = Menu(GAMES)
    for _step in range(k):
        m.key("right")
    blurb = _(get(game).summary)
    assert blurb, f"{game}: no summary for the menu (controller/apps/game_check.py says so too)"
    said_before = None
    for row, item in enumerate(m.items):
        m.selected = row
        said = panel_said(m, size)
        first_words = " ".join(blurb.split()[:4])
        if item.key in ("game", "start"):
            assert first_words in said, f"{language} {game} {item.key}: no blurb beside the game: {said!r}"
            continue
        assert first_words not in said, f"{language} {game} {item.key}: the blurb again: {said!r}"
        if item.key == "names":  # the names the game starts with
            assert all(player_name(n) in said for n in range(m.item("players").value)), said
            continue
        assert "…" not in said and f"{_(item.label)}: {item.shown(item.index) if item.key != 'language' else item.names[item.index]}" in said, \
            f"{language} {game} {item.key}: the value is not said in full: {said!r}"
        others = [item.names[j] if item.key == "language" else item.shown(j)
                  for j in range(len(item.values)) if j != item.index]
        assert all(o in said for o in others), f"{language} {game} {item.key}: choices missing: {said!r}"
        assert said != said_before, f"{language} {game} {item.key}: the panel says what it said for the last row"
        said_before = said
