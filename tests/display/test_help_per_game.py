"""The help overlay (h) of every shipped game lists the generic host keys its
engine takes and no other: Schicki Micki, Pictomania, Viva Topo!, Fiki Miki
and Piepmatz listed the quiz's "c: the answer is correct", "w", "u" and "r",
keys that only got "that key does nothing". Each game names them once
(``GameSpec.host_buttons``); a bot-played game checks the names against what
its engine takes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from controller.box.runtime import Box
from controller.box.simulate import Session
from controller.screen.keyboard import BOX_KEYS, KeyboardSource
from controller.screen.loop import keyboard_help
from games.i18n import _, set_language
from games.registry import get
from games.toolkit.help import ACTION_WORDS

#: each shipped game's generic host keys (space arms, c correct, w wrong, u undo, n next, r reset), by hand
#: from its engine and aliases: the duel starts and stops; Schicki Micki's arm and next turn a card;
#: Pictomania's start, move on (the players judge their own guesses); the rest are played on the bells alone
KEYS = {
    "quiz": {"space", "c", "w", "u", "n", "r"},
    "reaction": {"space", "r"},
    "schicki-micki": {"space", "n"},
    "pictomania": {"space", "n"},
    "viva-topo": set(),
    "fiki-miki": set(),
    "piepmatz": set(),
}
#: the keyboard key of each generic button, and of the clicker's step (it steps as the arm button does)
BUTTON_KEYS = {"arm": "space", "correct": "c", "wrong": "w", "undo": "u", "next": "n", "reset": "r"}
GENERIC_HOST_BUTTONS = tuple(BUTTON_KEYS)  # games.base's, written out: the help's keys are the test's own words
STEP_KEYS = {"page down", "right arrow"}


@pytest.fixture(params=["en", "cs", "pl"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    set_language(request.param)
    yield request.param
    set_language("en")


def help_rows(game: str, players: int = 4) -> list[tuple[str, str]]:
    """The help's rows as ``play`` makes them (the game's keys and the box's bound), for the game's first view."""
    spec = get(game)
    box = Box(spec, spec.settings(max(players, spec.min_players)))
    keyboard = KeyboardSource(max(players, spec.min_players))
    keyboard.add_host_keys(spec.host_keys)
    keyboard.add_host_keys(BOX_KEYS)
    return keyboard_help(spec, keyboard, box.engine.public_view()).rows


@pytest.mark.parametrize("game", sorted(KEYS))
def test_each_game_s_help_lists_only_the_generic_host_keys_its_engine_takes(game: str, language: str) -> None:
    rows = help_rows(game)
    keys = {name for key, _m in rows for name in key.split("  ")}
    generic = {BUTTON_KEYS[b] for b in GENERIC_HOST_BUTTONS}
    named = {_(key) if key == "space" else key for key in KEYS[game]}
    assert keys & {_(k) if k == "space" else k for k in generic} == named, rows
    meanings = " | ".join(m for _k, m in rows)
    for button in ("correct", "wrong", "undo"):
        if BUTTON_KEYS[button] not in KEYS[game]:
            assert _(ACTION_WORDS[button]) not in meanings, (button, rows)
    clicker = {_(k) for k in STEP_KEYS}
    assert (keys >= clicker) == ("space" in KEYS[game]), f"a presenter clicker's step: {rows}"
    assert {"Esc", "b", "h", "?"} <= keys, rows  # the box's own keys are every game's


def taken_in_a_game(game: str, seed: int = 3) -> set[str]:
    """The generic host buttons the engine took at some moment of a bot-played game
    (one of the button's kinds, ``host_aliases``, among its host actions then)."""
    spec = get(game)
    settings = spec.settings(max(4, spec.min_players) if spec.max_players >= 4 else spec.min_players, seed,
                             **spec.demo_options)
    session = Session(Box(spec, settings), spec.new_bots(settings), spec.new_host(settings), seed)
    kinds: set[str] = set()
    for _step in range(20_000):
        kinds.update(session.box.engine.legal_actions(None))
        due = session.next_time_us()
        if due is None or session.box.engine.finished:
            break
        session.step(max(due, session.now_us))
    return {button for button in GENERIC_HOST_BUTTONS if set(spec.host_kinds(button)) & kinds}


@pytest.mark.parametrize("game", sorted(KEYS))
def test_each_game_names_the_generic_buttons_its_engine_takes(game: str) -> None:
    """What a game declares is what its engine takes over a whole game: a button
    left out would hide a key that works, one named too many lists a dead key."""
    declared = set(get(game).host_buttons)
    assert declared == taken_in_a_game(game), f"{game}: declare host_buttons={sorted(taken_in_a_game(game))}"
    assert {BUTTON_KEYS[b] for b in declared} == KEYS[game]


def test_the_generic_buttons_are_the_box_s() -> None:
    from games.base import GENERIC_HOST_BUTTONS as BOX_S

    assert set(BOX_S) == set(GENERIC_HOST_BUTTONS)
