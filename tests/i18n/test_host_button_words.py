"""Every host button of every game is named in the box's language: a Czech
or Polish host page showed the quiz's "reveal" and "leaderboard" as the
English "Reveal" and "Leaderboard" (the action's id, capitalised), as no
word was given for them."""

from __future__ import annotations

import pytest

from controller.box.views import ACTION_WORDS, BOX_SENT, HOST_BUTTONS, action_words
from games.base import GameSpec
from games.i18n import set_language
from games.registry import available, get
from tests.toy import GAMES as TOY_GAMES


def button_kinds(spec: GameSpec) -> list[str]:
    """Every action a host button of ``spec`` can stand for (``host_buttons``:
    the generic buttons and the game's host keys, through its aliases)."""
    names = (*HOST_BUTTONS, *spec.host_keys.values())
    return sorted({kind for name in names for kind in spec.host_kinds(name)} - BOX_SENT)


GAMES = available()
#: the games that ship in every language: a toy game (tests/toy, ``--toy-games``) is written in English only
TRANSLATED = [game for game in GAMES if game not in TOY_GAMES]
#: words the language writes as English does, chosen so by its translator (a race's "Start" is Czech
#: and Polish too; the menu's and the league's "Start" share the entry): the only ones the test lets by
SAME_AS_ENGLISH = {"cs": {"Start"}, "pl": {"Start"}}


@pytest.mark.parametrize("game", GAMES)
def test_every_host_button_has_a_word_of_its_own(game: str) -> None:
    spec = get(game)
    bare = [kind for kind in button_kinds(spec) if kind not in spec.host_labels and kind not in ACTION_WORDS]
    assert not bare, f"{game}: host actions named only by their id: {bare}"


@pytest.mark.parametrize("language", ["cs", "pl"])
@pytest.mark.parametrize("game", TRANSLATED)
def test_no_host_button_is_left_in_english(game: str, language: str) -> None:
    spec = get(game)
    english = {kind: action_words(spec, kind) for kind in button_kinds(spec)}
    set_language(language)
    try:
        words = {kind: action_words(spec, kind) for kind in button_kinds(spec)}
    finally:
        set_language("en")
    same = {kind: word for kind, word in words.items()  if word == english[kind] and word not in SAME_AS_ENGLISH[language]}
    assert not same, f"{game} in {language}: host buttons in English: {same}"
