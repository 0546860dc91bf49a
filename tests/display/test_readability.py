"""Readable from across a room: text measured as rendered, the letters of
the languages the box will speak, and the words the screens say."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from games.registry import get
from games.scenes import scene_for
from games.toolkit.help import HelpOverlay, help_rows
from games.toolkit.results import ResultsScene
from games.toolkit.results_words import results_drawn
from games.toolkit.scene import TitleScene, freeze
from games.toolkit.theme import TEXT, Layout
from tests.display.conftest import play_until, session

CZECH_POLISH = "ěščřžýáíéůúďťňąćęłńóśźżĚŠČŘŽÝÁÍÉŮÚĎŤŇĄĆĘŁŃÓŚŹŻ"


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the scenes render, in order."""
    texts: list[str] = []
    real = TEXT.render

    def render(text: str, size: int, color: Any) -> pygame.Surface:
        texts.append(text)
        return real(text, size, color)

    monkeypatch.setattr(TEXT, "render", render)
    yield texts


def draw(game: str, s: Any, size: tuple[int, int] = (1920, 1080)) -> pygame.Surface:
    surface = pygame.Surface(size)
    scene = ResultsScene(game_title="x") if results_drawn(s.box.engine.finished, scene_for(game).own_results) \
        else scene_for(game)
    scene.draw(surface, freeze(s.box.engine.public_view()), s.box.strip(), s.now_us)
    return surface


def test_every_czech_and_polish_letter_has_a_glyph() -> None:
    """Each letter is drawn as itself: not the missing-glyph box, and not its
    base letter without the accent."""
    font = TEXT.font(60)

    def ink(text: str) -> bytes:  # on a black ground, so the pixels (not just the alpha) differ
        return pygame.image.tobytes(font.render(text, True, (255, 255, 255), (0, 0, 0)), "RGB")

    missing = {ink(ch) for ch in ("\ue123", "\u4e00")}  # a private-use character and a CJK one: the box
    for ch in CZECH_POLISH:
        base = {"ł": "l", "Ł": "L"}.get(ch) or unicodedata.normalize("NFD", ch)[0]  # ł has no decomposition
        assert ink(ch) not in missing, f"{ch!r} renders as the missing-glyph box"
        assert ink(ch) != ink(base), f"{ch!r} renders without its accent"


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_smallest_text_is_measured_at_one_24th_of_the_height(size: tuple[int, int]) -> None:
    """Measured as rendered: the line's height and the capitals' ink, not the size asked for."""
    lay = Layout(*size)
    line = TEXT.render("Hg", lay.min_text, (255, 255, 255))
    assert line.get_height() >= size[1] / 24
    caps = TEXT.render("H", lay.min_text, (255, 255, 255)).get_bounding_rect()
    assert caps.height >= 0.6 * size[1] / 24  # capitals ≈ 2.6 % of the screen: ≈ 1.8 cm on a 55" TV


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_title_card_podium_and_help_never_draw_smaller_text(size: tuple[int, int]) -> None:
    TEXT.sizes_used.clear()
    s = session("quiz", players=16)
    surface = pygame.Surface(size)
    TitleScene("Quiz buzzer").draw(surface, freeze(s.box.engine.public_view()), s.box.strip(), 0)
    HelpOverlay("Quiz buzzer", help_rows(get("quiz"), [(str(i + 1), i, "bell") for i in range(9)],
                                         {"space": "arm", "c": "correct", "p": "pick"})).draw(surface)
    r = session("reaction", players=8, rounds=3)
    play_until(r, lambda v: v["finished"])
    draw("reaction", r, size)
    assert TEXT.sizes_used and min(TEXT.sizes_used) >= size[1] / 24


def test_help_lists_the_game_s_own_meaning_of_each_host_key() -> None:
    rows = dict(help_rows(get("reaction"), [("1", 0, "bell"), ("2", 1, "bell")], {"space": "arm", "r": "reset"}))
    assert rows["space"] == "start the round"  # the duel's own action for the arm button, from its spec
    rows = dict(help_rows(get("quiz"), [("1", 0, "bell"), ("2", 1, "bell")], {"space": "arm", "p": "pick"}))
    assert rows["space"] == "arm the buzzers" and "fair draw" in rows["p"]
    assert rows["1 2"] == "bell of player 1 … 2: 1 is player 1's, 2 player 2's"


def test_quiz_main_card_says_the_margin_to_the_next_press(said: list[str]) -> None:
    s = session("quiz", players=8)
    view = play_until(s, lambda v: v["phase"] == "answering" and len(v["queue"]) >= 1)
    draw("quiz", s)
    nxt = view["queue"][0]
    lead = view["margins_us"][str(nxt)] - view["margins_us"][str(view["winner"])]
    assert f"answers · {lead / 1000:.3f} ms ahead of Player {nxt + 1}" in said


def test_quiz_keeps_the_order_and_margins_after_the_judgement(said: list[str]) -> None:
    s = session("quiz", players=8)
    view = play_until(s, lambda v: v["phase"] == "round_over" and len(v["margins_us"]) >= 3)
    draw("quiz", s)
    order = sorted(view["margins_us"].items(), key=lambda kv: kv[1])
    second, margin = order[1]
    assert f"2. Player {int(second) + 1}" in said and f"+{margin / 1000:.3f} ms" in said
    times = [t for t in said if t.endswith(" ms")]
    assert times and all(len(t.split(" ")[0].split(".")[-1]) == 3 for t in times)  # one precision on one screen
    assert not any("armed" in t.lower() for t in said)


def _reaction_result(false_starts: list[int], players: int = 4) -> dict[str, Any]:
    return {"game": "reaction", "phase": "result", "round": 1, "rounds": 3, "false_starts": false_starts, "pressed": [],
            "last": {"winner": None, "order": [], "reaction_us": {}, "margins_us": [], "false_starts": false_starts},
            "leaderboard": [{"player": p, "wins": 0, "best_us": None} for p in range(players)], "scores": [0] * players,
            "status": ["idle"] * players, "finished": False}


def test_everyone_jumped_only_when_everyone_did(said: list[str]) -> None:
    strip = [{"name": f"P{i + 1}", "status": "idle"} for i in range(4)]
    surface = pygame.Surface((1920, 1080))
    scene_for("reaction").draw(surface, freeze(_reaction_result([2])), strip, 0)
    assert "everyone jumped" not in said and "nobody pressed in time" in said
    said.clear()
    scene_for("reaction").draw(surface, freeze(_reaction_result([0, 1, 2, 3])), strip, 0)
    assert "everyone jumped" in said


def test_player_numbers_start_at_one_in_every_text(said: list[str]) -> None:
    for game in ("quiz", "reaction"):
        s = session(game, players=4)
        play_until(s, lambda v: v["finished"], limit_us=900_000_000)
        draw(game, s)
    assert not any("Player 0" in t for t in said)
    assert any("Player 4" in t for t in said)


def test_h_shows_every_key_the_keyboard_binds_over_the_game() -> None:
    from controller.screen.keyboard import KeyboardSource
    from controller.screen.loop import Presenter, draw_box, is_help_key, keyboard_help
    from controller.screen.screen import Screen

    s = session("quiz", players=4)
    keyboard = KeyboardSource(4)
    keyboard.add_host_keys(get("quiz").host_keys)
    overlay = keyboard_help(s.box.spec, keyboard, s.box.engine.public_view())
    keys = dict(overlay.rows)
    assert {"space", "c", "w", "n", "u  page up  left arrow", "r", "p", "Esc", "h  ?"} <= set(keys)
    assert keys["1 2 3 4"] == "bell of player 1 … 4: 1 is player 1's, 4 player 4's"
    screen = Screen.open(headless=True, size=(1280, 720))
    presenter = Presenter(screen, scene_for("quiz"))
    presenter.help = overlay
    plain, shown = pygame.Surface((1280, 720)), pygame.Surface((1280, 720))
    draw_box(presenter, s.box, 0, plain)
    presenter.show_help = True
    draw_box(presenter, s.box, 0, shown)
    assert pygame.image.tobytes(plain, "RGB") != pygame.image.tobytes(shown, "RGB")
    assert is_help_key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0))
    assert is_help_key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=pygame.KMOD_LSHIFT))
    assert not is_help_key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_c, mod=0))


def test_a_player_s_refused_press_is_said_with_their_name() -> None:
    """A keyboard player knocking in Schicki Micki before any card sees what their press did."""
    from controller.screen.loop import Presenter, react_box
    from controller.screen.screen import Screen
    from games.base import Action

    s = session("schicki-micki", players=3)
    events = s.box.apply_action(Action("knock", 10, 1)) + s.box.step(10_000)
    assert any(e.kind == "rejected" for e in events)
    presenter = Presenter(Screen.open(headless=True), scene_for("schicki-micki"))
    react_box(presenter, s.box, events, 10)
    name = s.box.strip()[1]["name"]
    assert presenter.scene.message and presenter.scene.message.startswith(f"{name}: not now")


def test_the_names_from_the_menu_are_what_every_screen_says(said: list[str]) -> None:
    names = ["Anna", "Bořek", "Łucja", "Dan"]
    for game in ("quiz", "reaction", "schicki-micki", "viva-topo"):
        s = session(game, players=4)
        play_until(s, lambda v: v.get("finished") or v.get("phase") == "over", limit_us=900_000_000)
        strip = [{**c, "name": names[i]} for i, c in enumerate(s.box.strip())]
        scene = scene_for(game)
        if not scene.own_results:
            scene = ResultsScene(game_title=scene.title)
        scene.draw(pygame.Surface((1920, 1080)), freeze(s.box.engine.public_view()), strip, s.now_us)
    assert not any("Player" in t for t in said)
    assert {"Anna", "Bořek", "Łucja", "Dan"} <= set(said)
