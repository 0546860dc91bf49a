"""Default names, scores and menu values are drawn whole, in every language
at both sizes: "Player 1" cut to "Play…" on the podium named nobody, "1 pts"
read wrong, "5 right win, 3 wrong o…" hid the rules, the Czech quit dialog was
cut. Measured with the toolkit's own record of what draw_text drew (an
ellipsis it added), not pixel goldens."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest

from controller.screen.menu import Menu, MenuScene
from games.i18n import set_language
from games.registry import available, get
from games.toolkit import theme
from games.toolkit.results import ResultsScene
from games.toolkit.scene import freeze, player_name
from tests.phases import phase_frames

SIZES = [(1920, 1080), (1280, 720)]
LANGUAGES = ["en", "cs", "pl"]


#: fonts up, and after each test the draw record off and English back (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


def cut(draw: Callable[[pygame.Surface], None], size: tuple[int, int], stations: int = 0) -> tuple[list[str], list[str]]:
    """(texts cut with an ellipsis, every text drawn), leaving out the strip of
    ``stations`` cells (its status labels are another screen's matter)."""
    strip = theme.Layout(*size, stations).strip
    theme.DRAWN = []
    try:
        draw(pygame.Surface(size))
        drawn = [d for d in theme.DRAWN if not (stations and strip.contains(d[3]))]
    finally:
        theme.DRAWN = None
    return [asked for asked, shown, *_r in drawn if shown != asked], [shown for _a, shown, *_r in drawn]


def results(scores: list[int]) -> Callable[[pygame.Surface], None]:
    strip = [{"status": "idle", "pressed": False, "name": player_name(i)} for i in range(len(scores))]

    def draw(surface: pygame.Surface) -> None:  # once the podium has risen
        scene = ResultsScene(game_title="Quiz buzzer")
        view = freeze({"phase": "over", "scores": scores})
        scene.draw(surface, view, strip, 0)
        if theme.DRAWN is not None:
            theme.DRAWN.clear()
        scene.draw(surface, view, strip, 10_000_000)
    return draw


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scores", [[3, 2, 2, 1, 1, 1, 0, 0], [1, 1, 1, 1, 0, 0, 0, 0], [2, 1, 0, 0]], ids=str)
def test_default_names_are_whole_on_the_podium_and_in_the_list(language: str, size: tuple[int, int], scores: list[int]) -> None:
    set_language(language)
    was_cut, drawn = cut(results(scores), size, len(scores))
    assert not was_cut, f"{language} {size}: cut: {was_cut}"
    names = [player_name(i) for i in range(len(scores))]
    for name in names:  # every name on screen whole: on one line, or its words on two
        assert name in drawn or all(word in " ".join(drawn).split() for word in name.split()), f"{name!r} missing: {drawn}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_quiz_podium_names_and_points_are_whole(language: str, size: tuple[int, int]) -> None:
    frame = phase_frames("quiz", 8, (), language)[-1]
    set_language(language)
    was_cut, _drawn = cut(frame.draw, size, len(frame.strip))
    assert not was_cut, f"{language} {size}: cut: {was_cut}"


@pytest.mark.parametrize("language", ["en", "cs"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [6, 8])
def test_a_player_listed_beside_the_quiz_podium_stands_on_one_line_when_there_is_room(
        language: str, size: tuple[int, int], players: int) -> None:
    """Beside the quiz's table the stage is narrow and its list was a third of it:
    "2. Hráč 4" broke after "Hráč" (English too, after "2.") with room to spare.
    The list widens for a row when the names on the blocks keep their lines (in
    Polish they would not: there the row still takes two)."""
    frame = phase_frames("quiz", players, (), language)[-1]
    set_language(language)
    _cut, drawn = cut(frame.draw, size, len(frame.strip))
    listed = [text for text in drawn if text[:1].isdigit() and ". " in text[:4]]
    names = {player_name(i) for i in range(players)}
    assert listed and all(text.split(". ", 1)[1] in names for text in listed), f"{language} {size}: {listed}"


def test_one_point_is_singular_and_two_are_plural() -> None:
    _cut, drawn = cut(results([2, 1, 0]), (1920, 1080))
    assert "1 point" in drawn and "2 points" in drawn and not any("pts" in t for t in drawn)
    set_language("cs")
    _cut, drawn = cut(results([2, 1, 5]), (1920, 1080))
    assert {"1 bod", "2 body", "5 bodů"} <= set(drawn), drawn


GAMES = [(g, get(g).title, get(g).min_players, get(g).max_players) for g in available()]


def menu_for(game: int) -> Menu:
    m = Menu(GAMES)
    while m.item("game").value != game:
        m.key("right")
    return m


def draw_menu(m: Menu) -> Callable[[pygame.Surface], None]:
    return lambda surface: MenuScene().draw(surface, freeze(m.view()), [], 0)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", [game for game, *_rest in GAMES])
def test_every_menu_value_and_the_quit_dialog_are_whole(game: str, language: str, size: tuple[int, int]) -> None:
    """Each game's every option at each of its values, chosen (‹ value ›) as the host steps through it."""
    set_language(language)
    m = menu_for([name for name, *_rest in GAMES].index(game))
    was_cut, _drawn = cut(draw_menu(m), size)
    assert not was_cut, f"{language} {size} {game}: cut: {was_cut}"
    for row, item in enumerate(m.items):
        if item.key in ("game", "language", "start", "names"):
            continue
        m.selected = row
        for _value in item.values:
            m.key("right")
            was_cut, _drawn = cut(draw_menu(m), size)
            assert not was_cut, f"{language} {size} {game} {item.key}={item.value!r}: cut: {was_cut}"
    m.escape()
    was_cut, _drawn = cut(draw_menu(m), size)
    assert not was_cut, f"{language} {size} {game} quit dialog: cut: {was_cut}"
