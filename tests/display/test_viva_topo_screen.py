"""Viva Topo! read from across a room: a board that fills the screen, pieces
that stay where they belong, words a player can follow, and sounds."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from games.registry import get
from games.toolkit.scene import freeze
from games.toolkit.theme import TEXT, Layout
from games.viva_topo.scene import BoardGeometry, VivaTopoScene, mouse_layout
from tests.display.conftest import play_until, session

SIZES = [(1280, 720), (1920, 1080)]


def geometry(view: Any, size: tuple[int, int]) -> BoardGeometry:
    body = Layout(size[0], size[1], len(view["players"])).body
    return BoardGeometry(VivaTopoScene.board_rect(body), int(view["board"]["spaces"]))


@pytest.mark.parametrize("size", SIZES)
def test_the_board_takes_most_of_the_width(size: tuple[int, int]) -> None:
    view = play_until(session("viva-topo", players=4), lambda v: v["phase"] == "move")
    geo = geometry(view, size)
    assert geo.rect.width >= 0.6 * size[0]
    assert geo.mouse_size() >= size[1] / 60  # a mouse at least ~1/30 of the height across


@pytest.mark.parametrize("size", SIZES)
def test_no_track_space_overlaps_the_start_or_emmentalia(size: tuple[int, int]) -> None:
    view = play_until(session("viva-topo", players=4), lambda v: v["phase"] == "move")
    geo = geometry(view, size)
    for space in range(1, int(view["board"]["spaces"]) + 1):
        r = geo.space_rect(space)  # the cat is drawn inside its space
        assert not r.colliderect(geo.start_rect) and not r.colliderect(geo.emmentalia_rect)


@pytest.mark.parametrize("size", SIZES)
def test_mice_stay_inside_their_house_and_off_its_cheese(size: tuple[int, int]) -> None:
    s = session("viva-topo", players=4, seed=4)
    view = play_until(s, lambda v: v["phase"] == "over")
    geo = geometry(view, size)
    arrows = {h["name"]: h["arrow_space"] for h in view["board"]["houses"]}
    # every mouse of every colour crammed into one house: still inside it, clear of the cheese
    crowd = {**view, "mice": [{**m, "where": "house-1" if "house-1" in arrows else next(iter(arrows))} for m in view["mice"]]}
    name = crowd["mice"][0]["where"]
    house = geo.house_rect(int(arrows[name]))
    _value, cheese, _mice = geo.house_parts(house)
    for (x, y), size_px in mouse_layout(freeze(crowd), geo).values():
        marker = pygame.Rect(x - round(size_px * 1.15), y - round(size_px * 1.15), 2 * round(size_px * 1.15), 2 * round(size_px * 1.15))
        assert house.contains(marker)
        assert not marker.colliderect(cheese)


def test_no_text_names_a_space_number_and_last_turn_s_roll_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    real = TEXT.render
    monkeypatch.setattr(TEXT, "render", lambda text, size, color: (said.append(text), real(text, size, color))[1])
    s = session("viva-topo", players=4)
    surface = pygame.Surface((1920, 1080))
    for _k in range(30):
        view = play_until(s, lambda v: v["phase"] in ("move", "roll"))
        VivaTopoScene().draw(surface, freeze(view), s.box.strip(), s.now_us + 1_000_000)
        if view["phase"] == "roll":
            said.clear()
            VivaTopoScene().draw(surface, freeze(view), s.box.strip(), s.now_us + 1_000_000)
            assert not any(t.startswith("rolled") for t in said)  # the new player starts with a clean die
        s.step(max(s.next_time_us() or s.now_us + 1, s.now_us))
    assert said and not any("space " in t for t in said)


def test_its_events_make_sounds() -> None:
    spec = get("viva-topo")
    assert {spec.sound_for(k) for k in ("roll", "eaten", "cheese", "trapped")} >= {"tick", "buzz", "bell"}
    assert all(spec.sound_for(k) for k in ("roll", "eaten", "cheese", "trapped"))
