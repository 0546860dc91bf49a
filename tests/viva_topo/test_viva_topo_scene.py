"""Screenshots of the Viva Topo! board under the dummy video driver, checked
where a player looks: the turn panel in the current player's colour, the ring
on the highlighted mouse, the blue flash when the cat eats, the tumbling die."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from typing import Any  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from games.base import Action  # noqa: E402
from games.scenes import scene_for  # noqa: E402
from games.toolkit.scene import freeze  # noqa: E402
from games.toolkit.theme import TEXT, Layout  # noqa: E402
from games.viva_topo import SPEC  # noqa: E402
from games.viva_topo.engine import VivaTopoEngine  # noqa: E402
from games.viva_topo.scene import (  # noqa: E402
    COLOURS,
    EAT_US,
    EATEN,
    HIGHLIGHT,
    ROLL_US,
    BoardGeometry,
    VivaTopoScene,
    mouse_places,
)
from tests.display.conftest import dominant, play_until, session  # noqa: E402

SIZE = (1920, 1080)


@pytest.fixture(autouse=True)
def _pygame() -> Any:
    pygame.display.init()
    pygame.font.init()
    yield


def engine(players: int = 2, **start: Any) -> VivaTopoEngine:
    return VivaTopoEngine(SPEC.settings(players, 0, auto_move_single=False, start=start or None))


def strip(players: int) -> list[dict[str, Any]]:
    return [{"name": f"Player {i + 1}", "status": "idle"} for i in range(players)]


def draw(view: dict[str, Any], now_us: int, size: tuple[int, int] = SIZE) -> pygame.Surface:
    surface = pygame.Surface(size)
    VivaTopoScene("Viva Topo!").draw(surface, freeze(view), strip(len(view["players"])), now_us)
    return surface


def regions(view: dict[str, Any], size: tuple[int, int] = SIZE) -> tuple[BoardGeometry, pygame.Rect]:
    """The board (as the scene lays it out) and the turn panel above the die."""
    body = Layout(size[0], size[1], len(view["players"])).body
    board = VivaTopoScene.board_rect(body)
    right = pygame.Rect(board.right + 20, body.top, body.right - board.right - 20, body.height * 30 // 100)
    return BoardGeometry(board, view["board"]["spaces"]), right


def ring_pixels(surface: pygame.Surface, centre: tuple[int, int], size: int) -> int:
    """White pixels in the annulus where the highlight ring is drawn."""
    count = 0
    cx, cy = centre
    for x in range(cx - 2 * size, cx + 2 * size):
        for y in range(cy - 2 * size, cy + 2 * size):
            if 1.4 * size <= ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 <= 2.0 * size:
                count += tuple(surface.get_at((x, y)))[:3] == HIGHLIGHT
    return count


def test_start_red_to_roll_with_every_mouse_in_the_start_house() -> None:
    view = engine(3).public_view()
    surface = draw(view, 0)
    geo, turn = regions(view)
    assert dominant(surface, turn) == COLOURS["red"]
    places = mouse_places(freeze(view), geo)
    assert len(places) == 12 and all(geo.start_rect.collidepoint(p) for p in places.values())
    for m in view["mice"]:
        assert tuple(surface.get_at(places[m["id"]]))[:3] == COLOURS[m["colour"]]


def test_mid_game_the_highlighted_move_has_the_ring_and_the_next_player_the_panel() -> None:
    e = engine(mice={"red-1": 3, "blue-1": 7}, turn=1)
    e.handle(Action("roll", 1_000_000, player=1, args={"value": 2}))
    view = e.public_view()
    assert view["highlighted"]["mouse"] == "blue-1"
    surface = draw(view, 2_000_000)
    geo, turn = regions(view)
    assert dominant(surface, turn) == COLOURS["blue"]
    places = mouse_places(freeze(view), geo)
    size = geo.mouse_size()
    assert ring_pixels(surface, places["blue-1"], size) > 30
    assert ring_pixels(surface, places["red-1"], size) == 0
    target = geo.space_rect(9)  # blue-1 goes 7 -> 9: its frame is white
    assert tuple(surface.get_at((target.centerx, target.top + 2)))[:3] == HIGHLIGHT
    # next moves the highlight to a blue mouse in the start: the ring follows it
    e.handle(Action("select", 2_100_000, player=1, args={"step": 1}))
    view = e.public_view()
    chosen = view["highlighted"]["mouse"]
    surface = draw(view, 2_200_000)
    places = mouse_places(freeze(view), geo)
    assert chosen != "blue-1" and ring_pixels(surface, places[chosen], size) > 30
    assert ring_pixels(surface, places["blue-1"], size) == 0


def test_the_cat_eating_flashes_blue_for_a_moment() -> None:
    e = engine(cat={"lap": 1, "space": 12}, mice={"red-1": 15, "blue-1": 13, "blue-2": 5})
    e.handle(Action("roll", 5_000_000, player=0, args={"value": "cat"}))
    e.handle(Action("move", 5_500_000, player=0, args={"mouse": "red-1"}))
    view = e.public_view()
    assert "blue-1" in view["last_events"][-1]["mice"]
    geo, _ = regions(view)
    band = pygame.Rect(geo.rect.left + geo.rect.width // 4, geo.rect.centery - 10, geo.rect.width // 2, 20)
    flash = draw(view, 5_500_000 + 300_000)
    assert dominant(flash, band) == EATEN
    assert tuple(flash.get_at((geo.rect.centerx, geo.rect.top + 3)))[:3] == EATEN  # the board's blue frame
    later = draw(view, 5_500_000 + EAT_US + 1)
    assert dominant(later, band) != EATEN


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_no_board_label_shows_through_the_banner(size: tuple[int, int]) -> None:
    """While the cat's banner lists the eaten mice, "EMMENTALIA" and "START" under it are not
    drawn between its lines; once the banner is gone they are back."""
    from games.toolkit import theme

    e = engine(cat={"lap": 1, "space": 12}, mice={"red-1": 15, "blue-1": 13, "blue-2": 5})
    e.handle(Action("roll", 5_000_000, player=0, args={"value": "cat"}))
    e.handle(Action("move", 5_500_000, player=0, args={"mouse": "red-1"}))
    view = e.public_view()

    def texts(now: int) -> list[tuple[str, pygame.Rect]]:
        theme.DRAWN = []
        try:
            draw(view, now, size)
            return [(d[0], d[2]) for d in theme.DRAWN]
        finally:
            theme.DRAWN = None

    during = texts(5_500_000 + 300_000)
    mice = next(ink for text, ink in during if ": 1 mouse" in text)  # whose mouse, never its id ("blue-1")
    assert not [text for text, _ink in during if "blue-1" in text]
    assert not [text for text, ink in during if ": 1 mouse" not in text and ink.colliderect(mice)]
    after = {text for text, _ink in texts(5_500_000 + EAT_US + 1)}
    assert "EMMENTALIA" in after and "EMMENTALIA" not in {text for text, _ink in during}


def test_the_die_tumbles_after_a_roll_then_rests() -> None:
    e = engine()
    e.handle(Action("roll", 1_000_000, player=0, args={"value": 3}))
    view = e.public_view()
    body = Layout(*SIZE, 2).body
    board = VivaTopoScene.board_rect(body)
    lay = Layout(*SIZE, 2)
    side = pygame.Rect(board.right + 2 * lay.pad, body.top, body.right - board.right - 2 * lay.pad, body.height)
    die = VivaTopoScene.panel_parts(side, lay.pad)[1]

    def pixels(now: int) -> bytes:
        return pygame.image.tobytes(draw(view, now).subsurface(die), "RGB")

    assert pixels(1_100_000) != pixels(1_300_000)  # tumbling
    assert pixels(1_000_000 + ROLL_US + 10) == pixels(1_000_000 + ROLL_US + 500_000)  # at rest


def test_game_over_shows_the_winner_in_their_colour() -> None:
    s = session("viva-topo", players=3, seed=4)
    view = play_until(s, lambda v: v["phase"] == "over")
    surface = pygame.Surface(SIZE)
    scene_for("viva-topo").draw(surface, freeze(view), s.box.strip(), s.now_us + 5_000_000)
    _, turn = regions(view)
    assert dominant(surface, turn) == COLOURS[view["players"][view["winners"][0]]]


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_no_text_below_the_minimum(size: tuple[int, int]) -> None:
    TEXT.sizes_used.clear()
    s = session("viva-topo", players=4, seed=3)
    for want in (
        lambda v: v["phase"] == "move",
        lambda v: any(e["kind"] == "eaten" for e in v["last_events"]),
        lambda v: v["phase"] == "over",
    ):
        view = play_until(s, want)
        surface = pygame.Surface(size)
        scene_for("viva-topo").draw(surface, freeze(view), s.box.strip(), s.now_us + 200_000)
    assert TEXT.sizes_used and min(TEXT.sizes_used) >= Layout(*size).min_text
