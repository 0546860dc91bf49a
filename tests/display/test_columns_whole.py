"""The round tables and strip labels the exploratory tester found cut on the
1920x1080 screen in Czech and Polish though there was room: "předčasný start"
as "předčas…" in the reaction duel's round table, "nie miał(a) czego oddać"
and "pukaj · już zareagowałeś" in Schicki Micki's, the quiz's "ZABLOKOWANY
0,2 s" losing its seconds (and its lockout bar drawn over the word). Every
screen in en/cs/pl at 720p and 1080p, measured with tests/fits.py (the text
asked for is the text drawn, inside its rect, clear of the others), the strip
included. Set ``COLUMN_SCREENS=DIR`` to keep the frames as PNGs."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from games.i18n import set_language
from games.quiz.scene import QuizScene
from games.reaction.scene import ReactionScene
from games.schicki_micki.scene import SchickiMickiScene
from games.toolkit.scene import Scene, freeze, player_name, strip_cells
from tests.fits import measured, unfit_texts

SIZES = [(1920, 1080), (1280, 720)]
LANGUAGES = ["en", "cs", "pl"]

#: fonts up, and after each test the draw record off and English back (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


def cells(statuses: list[str], **extra: Any) -> list[dict[str, Any]]:
    return [{"name": player_name(i), "status": s, "pressed": False, "stuck": [], "presses": 0, **extra}
            for i, s in enumerate(statuses)]


def drawing(scene: Scene, view: dict[str, Any], strip: list[dict[str, Any]], now_us: int = 0) -> Callable[[pygame.Surface], None]:
    def draw(surface: pygame.Surface) -> None:
        scene.draw(surface, freeze(view), strip, now_us)
    return draw


def whole(name: str, draw: Callable[[pygame.Surface], None], size: tuple[int, int], language: str) -> list[str]:
    """What is cut, spilt or overlapping on the frame, the strip's labels included (kept as a PNG when asked)."""
    set_language(language)
    drawn, smallest = measured(draw, size)
    if os.environ.get("COLUMN_SCREENS"):
        surface = pygame.Surface(size)
        draw(surface)
        pygame.image.save(surface, os.path.join(os.environ["COLUMN_SCREENS"], f"{name}-{language}-{size[1]}.png"))
    return unfit_texts(drawn, smallest, size)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_reaction_round_table_says_false_start_whole(language: str, size: tuple[int, int]) -> None:
    set_language(language)
    jumped = [1, 2, 0]
    view = {"phase": "result", "round": 3, "rounds": 10, "false_starts": jumped,
            "last": {"winner": None, "order": [], "reaction_us": {}, "margins_us": [], "false_starts": jumped},
            "leaderboard": [{"player": p, "wins": 0, "best_us": None} for p in range(3)]}
    assert not whole("reaction", drawing(ReactionScene(), view, cells(["idle"] * 3)), size, language)


RED_HAT = {"umbrella": "blue", "hat": "red", "scarf": "yellow", "beak": "green", "tail": "pink", "worm": "purple", "worms": 1}


def schicki(outcomes: list[dict[str, Any]], status: list[str], first: int | None,
            reactions: tuple[dict[str, Any], ...] = (), phase: str = "waiting") -> dict[str, Any]:
    """A Schicki Micki frame of four players a moment after a window was resolved (or, ``phase`` "window", while one is open)."""
    return {"phase": phase, "scores": [0, 3, 0, 0], "won": [0, 3, 0, 0], "owed": [0] * 4, "status": status,
            "table": [RED_HAT], "deck": 60, "pawns": {"blue": [None, None, None], "red": None}, "reactions": list(reactions),
            "t_show_us": 10_000_000, "window_closes_us": 11_500_000 if phase == "window" else None, "next_turn_us": 14_000_000,
            "cards_turned": 4, "result": None,
            "last_resolution": None if phase == "window" else {
                "t_us": 12_000_000, "situation": "nothing", "table": "no pair", "cards": [RED_HAT], "first": first,
                "tied": [], "ahead_us": 39_235 if first is not None else None, "outcomes": outcomes}}


def knocked(player: int, result: str, change: int = 0, reaction_us: int = 300_000, reaction: str = "knock") -> dict[str, Any]:
    return {"player": player, "reaction": reaction, "reaction_us": reaction_us, "change": change, "result": result}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_schicki_round_table_and_strip_say_each_outcome_whole(language: str, size: tuple[int, int]) -> None:
    """Player 2 knocked first on no pair and had no card to return, the others too; player 1 knocked after the window."""
    set_language(language)
    outcomes = [knocked(2, "return", reaction_us=39_235), knocked(0, "return", reaction_us=80_000),
                knocked(1, "ignored", reaction_us=120_000), knocked(3, "return", 0, 150_000, "call") | {"accessory": "hat"}]
    view = schicki(outcomes, ["returned", "ignored", "returned", "returned"], 2)
    assert not whole("schicki-resolved", drawing(SchickiMickiScene(), view, cells(["idle"] * 4), 12_500_000), size, language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_schicki_strip_says_a_knock_again_whole(language: str, size: tuple[int, int]) -> None:
    """A knock is final: a player who knocks again is told so in their cell, whole."""
    set_language(language)
    reactions = [{"player": p, "reaction": "knock", "accessory": None, "t_us": 10_300_000 + p, "already_acted": True} for p in range(4)]
    view = schicki([], ["reacted"] * 4, None, tuple(reactions), phase="window")
    assert not whole("schicki-window", drawing(SchickiMickiScene(), view, cells(["idle"] * 4), 10_700_000), size, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_schicki_knock_before_the_card_is_told_too_early_not_nobody_reacted(language: str) -> None:
    """Player 2 knocked 8 ms before the card was on screen, the only reaction of its window
    (the journal: ``ignored, reaction_us -8133``): the rules drop it (README, Window); the screen
    says it came too early, and does not claim nobody reacted."""
    from games.i18n import _

    set_language(language)
    view = schicki([knocked(1, "ignored", reaction_us=-8133)], ["idle", "ignored", "idle", "idle"], None)
    drawn, _smallest = measured(drawing(SchickiMickiScene(), view, cells(["idle"] * 4), 12_500_000), (1920, 1080))
    texts = [shown for _a, shown, *_r in drawn]
    assert _("nobody reacted") not in texts
    headline = _("{names}: too early, before the card").format(names=player_name(1))
    assert headline in texts, texts
    assert texts.count(_("too early")) == 2, texts  # the round's row and the player's strip cell
    assert _("no effect") not in texts


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_locked_quiz_station_says_its_seconds_whole_above_its_bar(language: str, size: tuple[int, int]) -> None:
    """Player 4 pressed before the question was read: locked 0.2 s more. Their cell
    says "LOCKED 0.2 s" whole, and the lockout bar runs below the words, not over them."""
    from tests.phases import phase_frames

    frame = next(f for f in phase_frames("quiz", 4, (), language) if f.phase == "armed")
    view = {**frame.view, "lockouts_us": {"3": 200_000}}
    strip = [dict(c) for c in frame.strip]
    strip[3] = {**strip[3], "status": "locked"}
    draw = drawing(QuizScene(), view, strip, frame.now_us)
    assert not whole("quiz-locked", draw, size, language)
    set_language(language)
    drawn, _smallest = measured(draw, size)
    cell = strip_cells(pygame.Surface(size), 4)[3]
    label = next(d for d in drawn if cell.contains(d[3]) and d[0].endswith(" s"))
    bar_top = cell.bottom - max(4, cell.height // 10)
    assert label[2].bottom <= bar_top, f"{label[1]!r} ink {label[2]} runs into the lockout bar from y={bar_top}"
