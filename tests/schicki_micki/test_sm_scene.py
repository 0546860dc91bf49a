"""The Schicki Micki scene, screenshot-tested under the dummy driver: the
regions a player looks at have the colours the public view says.

Set ``SM_SCREENS=DIR`` to keep the screenshots as PNGs.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Mapping  # noqa: E402
from typing import Any  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from games.base import Action, GameSettings  # noqa: E402
from games.schicki_micki import art  # noqa: E402
from games.schicki_micki.deck import new_deck  # noqa: E402
from games.schicki_micki.engine import SchickiMickiEngine  # noqa: E402
from games.schicki_micki.scene import SchickiMickiScene, fmt_ahead, table_grid  # noqa: E402
from games.toolkit import theme  # noqa: E402
from games.toolkit.scene import freeze  # noqa: E402
from games.toolkit.theme import TEXT, Layout  # noqa: E402
from tests.display.conftest import dominant, session  # noqa: E402

SIZE = (1920, 1080)
NAMES = ["Anna", "Ben", "Cleo", "Dan"]
RED_HAT = {"umbrella": "blue", "hat": "red", "scarf": "yellow", "beak": "green", "tail": "pink", "worm": "purple", "worms": 1}
RED_HAT_2 = {"umbrella": "orange", "hat": "red", "scarf": "pink", "beak": "yellow", "tail": "blue", "worm": "green", "worms": 1}
TWO_WORMS = {"umbrella": "purple", "hat": "orange", "scarf": "pink", "beak": "red", "tail": "yellow", "worm": "blue", "worms": 2}
CLOSEUP = {"closeup": "umbrella", "color": "green"}


@pytest.fixture(autouse=True)
def _pygame() -> Any:
    pygame.display.init()
    pygame.font.init()
    yield


def engine(deck: list[Mapping[str, Any]], players: int = 4) -> SchickiMickiEngine:
    return SchickiMickiEngine(GameSettings(players=players, seed=3, options={"deck": deck, "turn_interval_us": None}))


def strip(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"name": NAMES[i], "status": st, "pressed": False, "stuck": [], "presses": 0, "lockout_us": None}
            for i, st in enumerate(view["status"])]


def draw(e: SchickiMickiEngine, now_us: int, size: tuple[int, int] = SIZE, name: str | None = None,
         scene: SchickiMickiScene | None = None) -> tuple[pygame.Surface, SchickiMickiScene]:
    scene = scene or SchickiMickiScene()
    surface = pygame.Surface(size)
    view = freeze(e.public_view())
    scene.draw(surface, view, strip(view), now_us)
    if name and os.environ.get("SM_SCREENS"):
        pygame.image.save(surface, os.path.join(os.environ["SM_SCREENS"], f"{name}-{size[1]}.png"))
    return surface, scene


def colours_in(surface: pygame.Surface, rect: pygame.Rect, step: int = 2) -> set[tuple[int, int, int]]:
    return {tuple(surface.get_at((x, y)))[:3] for x in range(rect.left, rect.right, step) for y in range(rect.top, rect.bottom, step)}


def test_a_shown_hen_wears_her_colours_where_players_look() -> None:
    e = engine([RED_HAT, RED_HAT_2, CLOSEUP, TWO_WORMS])
    e.handle(Action("turn", 0))
    surface, scene = draw(e, 10_000, name="shown")
    (card,) = scene.card_rects
    hat = colours_in(surface, art.part_rect(card, "hat"))
    assert art.COLORS["red"] in hat
    assert art.COLORS["blue"] not in hat
    assert art.COLORS["blue"] in colours_in(surface, art.part_rect(card, "umbrella"))
    assert art.COLORS["purple"] in colours_in(surface, art.part_rect(card, "worm"))
    assert art.COLORS["purple"] not in colours_in(surface, art.part_rect(card, "worm", second=True))  # one worm only
    # the newest card is framed: it is the one to react to
    assert tuple(surface.get_at((card.centerx, card.top - 2)))[:3] == (255, 179, 0)


def test_patterns_tell_colours_apart_without_colour() -> None:
    """Blue is striped across, green along, yellow dotted, red plain: readable in grey."""
    def ink_runs(colour: str) -> tuple[int, int]:
        face = art.draw_card({"closeup": "hat", "color": colour}, 400)
        mid = pygame.Rect(face.get_width() * 35 // 100, face.get_height() * 35 // 100, face.get_width() * 3 // 10, face.get_height() // 5)
        def is_base(x: int, y: int) -> bool:
            return tuple(face.get_at((x, y)))[:3] == art.COLORS[colour]
        down = sum(is_base(mid.centerx, y) != is_base(mid.centerx, y + 1) for y in range(mid.top, mid.bottom))
        across = sum(is_base(x, mid.centery) != is_base(x + 1, mid.centery) for x in range(mid.left, mid.right))
        return down, across

    assert ink_runs("red") == (0, 0)
    down, across = ink_runs("blue")
    assert down >= 4 and across == 0
    down, across = ink_runs("green")
    assert across >= 4 and down == 0
    assert len(set(art.PATTERNS.values())) == len(art.COLORS)


def test_window_countdown_and_pawns_in_the_takers_colour() -> None:
    e = engine([RED_HAT, RED_HAT_2, CLOSEUP, TWO_WORMS])
    e.handle(Action("turn", 0))
    e.handle(Action("turn", 1_000_000))
    e.handle(Action("blue", 1_400_000, 2))
    assert e.public_view()["phase"] == "window"
    surface, scene = draw(e, 1_500_000, name="window")
    assert dominant(surface, scene.status_rect) == (255, 179, 0)
    taken, free, _free2 = scene.pawn_rects["blue"]
    cleo = theme.PALETTE[2]
    assert tuple(surface.get_at(taken.center))[:3] == cleo
    assert tuple(surface.get_at(free.center))[:3] == art.PAWN_BLUE
    (red,) = scene.pawn_rects["red"]
    assert tuple(surface.get_at(red.center))[:3] == art.PAWN_RED


def test_the_resolution_names_the_first_in_their_colour_then_gives_way() -> None:
    e = engine([RED_HAT, RED_HAT_2, CLOSEUP, TWO_WORMS, RED_HAT])
    e.handle(Action("turn", 0))
    e.handle(Action("turn", 1_000_000))
    e.handle(Action("call", 1_400_000, 1, {"accessory": "hat"}))
    e.handle(Action("knock", 1_400_412, 3))
    e.tick(4_000_000)
    view = e.public_view()
    res = view["last_resolution"]
    assert res["first"] == 1 and res["ahead_us"] == 412
    surface, scene = draw(e, 4_500_000, name="resolution")
    # the cards it talks about stay in view, smaller, beside the explanation
    assert scene.resolution_rect is not None and len(scene.card_rects) == len(res["cards"]) == 2
    assert all(not r.colliderect(scene.resolution_rect) for r in scene.card_rects)
    assert all(r.height < Layout(*SIZE, 4).body.height * 0.6 for r in scene.card_rects)
    head = pygame.Rect(scene.resolution_rect.left, scene.resolution_rect.top, scene.resolution_rect.width, scene.resolution_rect.height // 4)
    assert dominant(surface, head) == theme.PALETTE[1]
    assert fmt_ahead(res["ahead_us"]) == "0.412 ms ahead"
    assert scene.headline(res, strip(view), view) == "Ben called hat first, 0.412 ms ahead"
    # the next card takes the stage back
    e.handle(Action("turn", 5_000_000))
    _surface, scene = draw(e, 5_100_000)
    assert scene.resolution_rect is None and len(scene.card_rects) == 1


def test_many_cards_fit_in_rows_with_close_ups_and_two_worm_hens() -> None:
    deck = [RED_HAT, CLOSEUP, TWO_WORMS] + [c.to_json() for c in new_deck(5)[:19]]
    e = engine(deck)
    for k in range(len(deck)):
        e.handle(Action("turn", k * 10_000))
    assert len(e.public_view()["table"]) == 22
    surface, scene = draw(e, 300_000, name="many")
    body = Layout(*SIZE, 4).body
    rects = scene.card_rects
    assert len(rects) == 22 and all(body.contains(r) for r in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert rects[0].width >= body.width // 14  # still a card, not a stamp
    closeup, two_worms = rects[1], rects[2]
    assert art.COLORS["green"] in colours_in(surface, closeup.inflate(-closeup.width // 3, -closeup.height // 3), 1)
    for second in (False, True):
        assert art.COLORS["blue"] in colours_in(surface, art.part_rect(two_worms, "worm", second), 1)


def test_table_grid_shrinks_and_wraps_without_overflow() -> None:
    area = pygame.Rect(0, 0, 1900, 500)
    for n in (1, 3, 6, 12, 30, 64):
        rects = table_grid(n, area, 10)
        assert len(rects) == n and all(area.contains(r) for r in rects)
    assert table_grid(3, area, 10)[0].width > table_grid(12, area, 10)[0].width > table_grid(40, area, 10)[0].width


def test_game_over_shows_the_winner_in_their_colour_and_the_loop_keeps_this_scene() -> None:
    e = SchickiMickiEngine(GameSettings(players=3, seed=3, options={"deck": [RED_HAT, RED_HAT_2], "turn_interval_us": None}))
    e.handle(Action("turn", 0))
    e.handle(Action("turn", 1_000_000))
    e.handle(Action("call", 1_300_000, 2, {"accessory": "hat"}))
    e.tick(5_000_000)
    assert e.finished and e.public_view()["result"]["winners"] == [2]
    surface, scene = draw(e, 5_000_000, name="over")
    assert dominant(surface, scene.resolution_rect) == theme.PALETTE[2]
    assert SchickiMickiScene.own_results


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_no_text_below_the_minimum(size: tuple[int, int]) -> None:
    TEXT.sizes_used.clear()
    e = engine([RED_HAT, RED_HAT_2, CLOSEUP, TWO_WORMS, RED_HAT])
    e.handle(Action("turn", 0))
    draw(e, 0, size)
    e.handle(Action("turn", 1_000_000))
    e.handle(Action("blue", 1_200_000, 0))
    e.handle(Action("red", 1_250_000, 1))
    draw(e, 1_300_000, size)
    e.handle(Action("knock", 1_400_000, 2))
    e.tick(4_000_000)
    draw(e, 4_100_000, size)
    s = session("schicki-micki", players=7)
    while not s.box.engine.finished:
        s.step(max(s.next_time_us() or s.now_us + 1000, s.now_us))
    surface = pygame.Surface(size)
    SchickiMickiScene().draw(surface, freeze(s.box.engine.public_view()), s.box.strip(), s.now_us)
    assert min(TEXT.sizes_used) >= Layout(*size).min_text


def test_menu_offers_the_pace_and_hands_it_to_the_game() -> None:
    from controller.screen.menu import Menu
    from games.registry import get

    menu = Menu([("quiz", "Quiz buzzer", 2, 16), ("schicki-micki", "Schicki Micki", 2, 7)])
    menu.key("right")  # game: Schicki Micki
    assert [i.key for i in menu.items][2:4] == ["turn_interval_us", "interval_shrink"]
    menu.selected = 2
    menu.key("left")  # next card: host turns
    menu.selected = 3
    menu.key("right")  # getting faster: no
    choice = menu.choice()
    assert choice.options == {"turn_interval_us": None, "interval_shrink": 1.0}
    settings = get("schicki-micki").settings(choice.players, 1, **choice.options)
    e = SchickiMickiEngine(settings)
    assert e.public_view()["next_turn_us"] is None  # the host turns every card


def test_auto_pace_counts_down_to_the_next_card_and_speeds_up() -> None:
    e = SchickiMickiEngine(GameSettings(players=3, seed=3, options={
        "turn_interval_us": 3_000_000, "interval_shrink": 0.9, "min_turn_interval_us": 2_000_000, "start_us": 0}))
    assert SchickiMickiScene.next_card_text(e.public_view(), 1_000_000) == "next card 2.0 s"
    e.tick(3_000_000)
    e.tick(6_000_000)
    view = e.public_view()
    assert view["cards_turned"] == 2
    assert SchickiMickiScene.next_card_text(view, 6_000_000) == "next card 2.7 s"  # 3 s x 0.9: faster


def test_a_press_after_a_final_reaction_shows_already_acted() -> None:
    e = engine([RED_HAT, RED_HAT_2, CLOSEUP])
    e.handle(Action("turn", 0))
    e.handle(Action("turn", 100_000))
    e.handle(Action("knock", 500_000, 1))
    e.handle(Action("call", 600_000, 1, {"accessory": "hat"}))  # ignored: a knock is final
    e.handle(Action("call", 650_000, 2, {"accessory": "hat"}))
    view = freeze(e.public_view())
    labels = [cell["label"] for cell in SchickiMickiScene().adjust_strip(view, strip(view))]
    assert labels[1] == "knock · again"  # short: "already acted" was cut on four cells
    assert labels[2] == "hat!"  # the strip's short word for a call
