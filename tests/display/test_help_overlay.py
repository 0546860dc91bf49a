"""The help overlay (h) as a tester read it: every row it builds drawn whole on
the screen (the quiz's 21 rows were cut after Esc), a game's own keys only (the
reaction duel listed "correct"), key names and inputs in the reader's words."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from controller.box.runtime import Box
from controller.screen.keyboard import BOX_KEYS, KeyboardSource
from controller.screen.loop import keyboard_help
from games.i18n import _, set_language
from games.registry import get
from games.toolkit import theme
from games.toolkit.help import ACTION_WORDS, HelpOverlay


@pytest.fixture(params=["en", "cs", "pl"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    set_language(request.param)
    yield request.param
    set_language("en")


def overlay(game: str, players: int = 4) -> HelpOverlay:
    """The help as ``play`` makes it: the game's keys and the box's (k, f5) bound."""
    spec = get(game)
    box = Box(spec, spec.settings(players))
    keyboard = KeyboardSource(players)
    keyboard.add_host_keys(spec.host_keys)
    keyboard.add_host_keys(BOX_KEYS)
    return keyboard_help(spec, keyboard, box.engine.public_view())


def drawn_texts(help_: HelpOverlay, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each text drawn, in order; every one whole (no ellipsis), inside the screen, never below 1/24 of its height."""
    monkeypatch.setattr(theme, "DRAWN", [])
    surface = pygame.Surface(size)
    help_.draw(surface)
    texts = []
    for asked, text, ink, _rect, screen in theme.DRAWN or []:
        assert text == asked, f"{asked!r} cut to {text!r}"
        assert screen.contains(ink), f"{asked!r} drawn outside the screen"
        assert theme.TEXT.font(theme.layout_for(surface).min_text).get_height() >= size[1] / 24
        texts.append(asked)
    return texts


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("game,players", [("quiz", 4), ("quiz", 16), ("reaction", 4)])
def test_every_row_built_is_drawn_whole_on_the_screen(language: str, size: tuple[int, int], game: str, players: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    help_ = overlay(game, players)
    said = " ".join(" ".join(t.split()) for t in drawn_texts(help_, size, monkeypatch))
    for key, meaning in help_.rows:
        assert " ".join(key.split()) in said, f"the key {key!r} is not on the screen"
        assert " ".join(meaning.split()) in said, f"{key!r}: {meaning!r} is not on the screen"
    assert len(help_.rows) >= (16 if game == "quiz" else 9)


def test_the_reaction_duel_s_help_lists_no_quiz_key(language: str) -> None:
    rows = overlay("reaction").rows
    meanings = " | ".join(m for _k, m in rows)
    for action in ("correct", "wrong", "next", "undo", "replay", "reveal"):
        assert _(ACTION_WORDS[action]) not in meanings, (action, rows)
    keys = {name for key, _m in rows for name in key.split("  ")}
    assert not keys & {"c", "w", "n", "u", "f5", "v"}, rows
    assert {_("space"), "r", "Esc", "k", "b"} <= keys, rows
    quiz = {name for key, _m in overlay("quiz").rows for name in key.split("  ")}
    assert {"c", "w", "n", "u", "f5", "p", "v"} <= quiz  # the quiz's help keeps them


def test_key_names_and_inputs_are_said_in_the_reader_s_words(language: str) -> None:
    rows = overlay("quiz").rows
    keys = " ".join(key for key, _m in rows)
    if language != "en":
        for english in ("page down", "page up", "right", "left", "keypad", "space"):
            assert english not in keys, (english, keys)
    assert "[" not in keys, keys  # pygame's "[1]" for the keypad's 1
    stations = dict(rows[:2])
    assert stations["1 2 3 4"] == _("{input} of player {first} … {last}: {first_key} is player {first}'s, "
                                    "{last_key} player {last}'s").format(input=_("bell"), first=1, last=4,
                                                                         first_key="1", last_key="4")
    pad = _("keypad {key}")
    assert stations[f"{pad.format(key=1)} … {pad.format(key=4)}"].startswith(_("button {letter}").format(letter="A"))
    assert not any(m.rstrip().endswith(": a") for _k, m in rows), rows


def test_sixteen_players_keys_say_which_player_each_row_of_keys_is() -> None:
    rows = dict(overlay("quiz", 16).rows)
    assert rows["1 … 0"].endswith("0 player 10's"), rows
    assert rows["f1 … f6"].startswith("bell of player 11 … 16: f1 is player 11's"), rows
