"""A game's option rows in the start menu, through the whole ``buzzerbox menu``
loop (keys pressed on what the screen shows, tests/display/kiosk.py), up to
the settings Start hands the evening's deciding process (``people_game``,
the one way a game with people starts: here it records them and the game
never begins, so no phones' server nor game process is needed):

- Pictomania's word list is a row of its own (``words``): stepping it never
  changes the box's language nor ends the menu (its key was ``language``, the
  menu's own Language row: each Right changed the box's language and the
  fourth ended the menu, "no language None", exit 1), and the game deals from
  the list chosen (it got the box's language whatever the row said);
- every row starts on the game's default as ``buzzerbox play`` plays it (they
  started on their first choice: Piepmatz without crows or squirrels, 3 points
  a pair; Fiki Miki rang at 8 pictures; the reaction duel played 10 rounds);
- every option value a Czech or Polish host reads on the big screen is in
  their language ("unpaired", "rising", "cs" were English or codes).

And, without the loop: the host page's rows say the same values, and choosing
the word list there starts the game with that list."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame
import pytest

from controller.box import session
from controller.cli import main
from controller.protocol import NOT_BEGUN
from controller.screen import viewer
from controller.screen.menu import Menu, _listed
from games.base import GameSettings, Option, menu_row_clash
from games.i18n import _, _load, current_language, set_language
from games.registry import available, get
from tests.display.kiosk import Frame, Kiosk, Script, Steps, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import until
from tests.display.test_menu_panel import panel_of

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

#: the games the menu lists (those with a scene), in its order
GAMES = [name for name in available() if get(name).scene]
PLAYERS = 3


def started(monkeypatch: pytest.MonkeyPatch) -> list[GameSettings]:
    """The settings of every game Start hands its deciding process from now on; none begins."""
    handed: list[GameSettings] = []

    def people_game(game: viewer.SplitGame, *_args: Any, **_kwargs: Any) -> Any:
        handed.append(game.settings)
        return SimpleNamespace(reason=NOT_BEGUN)

    monkeypatch.setattr(viewer, "people_game", people_game)
    return handed


def game_shown(frame: Frame, game: str) -> bool:
    """The highlighted game row shows ``game``, as the menu lists it now."""
    spec = get(game)
    return any(wanted == f"‹ {_listed(game, _(spec.title))} ›" for wanted, *_rest in frame)


def row_is(frame: Frame, label: str) -> bool:
    """The panel speaks of the highlighted row ``label`` (its value follows)."""
    return panel_of(frame).startswith(f"{_(label)}: ")


def to_game(frame: Frame, game: str) -> Steps:
    """From the menu's first look, right on the game row until it shows ``game``: that frame."""
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    while not game_shown(frame, game):
        frame = yield [pygame.K_RIGHT]
    return frame


def quit_menu(frame: Frame) -> Script:
    """Back at the menu after Start: Esc twice quits it."""
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def run_menu(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, language: str, script: Script) -> Kiosk:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # no names, packs or journals of the machine's
    kiosk = Kiosk(monkeypatch, script)
    assert main(["--lang", language, *menu_args(tmp_path, "--players", str(PLAYERS))]) == 0, \
        "the menu ended otherwise than by the host's Esc"
    assert kiosk.stuck is None, kiosk.stuck
    return kiosk


# -- Pictomania's word list --------------------------------------------------------------


def words_row(seen: dict[str, Any]) -> Script:
    """On a Czech box: Pictomania, down to its Words row, Right four times (each look noted),
    then on to English words and Start."""
    frame = yield []
    frame = yield from to_game(frame, "pictomania")
    while not row_is(frame, "Words"):
        frame = yield [pygame.K_DOWN]
    seen["steps"] = []
    for _step in range(4):
        frame = yield [pygame.K_RIGHT]
        seen["steps"].append((current_language(), asked(frame, MENU_HINT), panel_of(frame)))
    while not panel_of(frame).startswith(f"{_('Words')}: {_('English')}"):
        frame = yield [pygame.K_RIGHT]
    seen["chosen"] = panel_of(frame)
    frame = yield [pygame.K_RETURN]  # Start, from any row
    seen["language after start"] = current_language()
    yield from quit_menu(frame)


def test_the_words_row_chooses_the_word_list_and_leaves_the_box_s_language_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    handed = started(monkeypatch)
    seen: dict[str, Any] = {}
    run_menu(monkeypatch, tmp_path, "cs", words_row(seen))
    # the box spoke Czech at every step, the menu's hint in Czech; the row said each list by name
    assert [(lang, hint) for lang, hint, _panel in seen["steps"]] == [("cs", True)] * 4, seen
    set_language("cs")
    names = ("Czech", "English", "Polish", "the box's language")  # the row's values, each once
    assert all(panel.startswith(f"{_('Words')}: {_(name)} ") for (*_l, panel), name in zip(seen["steps"], names,
                                                                                          strict=True)), seen
    assert seen["language after start"] == "cs"
    # the game deals from the list chosen, not the box's language
    assert len(handed) == 1 and handed[0].options["words"] == "en", handed
    assert "language" not in handed[0].options


def test_the_host_page_s_words_row_reaches_the_game() -> None:
    """The host page's way (``Menu.set_option``): English words on a Czech box."""
    set_language("cs")
    games = [(name, get(name).title, get(name).min_players, get(name).max_players) for name in GAMES]
    menu = Menu(games, players=PLAYERS)
    while menu.games[menu.item("game").value][0] != "pictomania":
        menu.key("right")
    assert menu.set_option("words", "en")
    assert not menu.set_option("language", "en")  # the box's language is not a game option
    assert current_language() == "cs"
    choice = menu.choice()
    spec = get("pictomania")
    assert spec.settings(choice.players, 1, **choice.options).options["words"] == "en"


# -- every row starts on play's default --------------------------------------------------


def start_game(game: str) -> Script:
    frame = yield []
    frame = yield from to_game(frame, game)
    frame = yield [pygame.K_RETURN]  # Start with every row as the menu offers it
    yield from quit_menu(frame)


@pytest.mark.parametrize("game", GAMES)
def test_the_menu_starts_a_game_with_the_options_play_starts_it_with(
        game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    handed = started(monkeypatch)
    run_menu(monkeypatch, tmp_path, "en", start_game(game))
    assert len(handed) == 1, f"{game}: Start handed {len(handed)} games"
    menu = handed[0]
    spec = get(game)
    play = session.game_settings(spec, menu.players, menu.seed, {}, None)  # `buzzerbox play GAME`, no --option
    # declared on purpose: a row a game starts otherwise in the menu (the quiz's pack in the box's
    # language), and the open hands the menu's Phones row (off at first) chooses for a game that has them
    expected = {**play.options, **spec.no_phones_with}
    rows = [key for key, option in spec.options.items() if option.choices and key not in spec.menu_starts()]
    differ = {key: (menu.options.get(key), expected.get(key)) for key in rows
              if menu.options.get(key) != expected.get(key)}
    assert differ == {}, f"{game}: the menu starts these (menu, play): {differ}"


# -- every value a person reads is in their language -------------------------------------


def every_option_row(seen: dict[str, dict[str, str]]) -> Script:
    """Each game in turn, down through its rows to Phones (the first of the menu's own after
    them), the panel beside each row noted by game and row; then up to the game row again."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    for game in GAMES:
        while not game_shown(frame, game):
            frame = yield [pygame.K_RIGHT]
        panels: dict[str, str] = {}
        downs = 0
        while not row_is(frame, "Phones"):
            frame = yield [pygame.K_DOWN]
            downs += 1
            panels[panel_of(frame).split(": ")[0]] = panel_of(frame)
        seen[game] = panels
        for _up in range(downs):
            frame = yield [pygame.K_UP]
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def translated(language: str) -> set[str]:
    """The catalogue texts ``language`` has a translation of."""
    return set(getattr(_load(language), "_catalog", {}))


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_every_option_value_is_said_in_the_host_s_language(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, dict[str, str]] = {}
    run_menu(monkeypatch, tmp_path, language, every_option_row(seen))
    set_language(language)
    known = translated(language)
    missing, unsaid = [], []
    for game in GAMES:
        spec = get(game)
        for key, option in spec.options.items():
            if not option.choices or key in spec.menu_starts():  # the packs are titled as they are written
                continue
            panel = seen[game].get(_(option.label), "")
            for _value, name in option.choices:
                if any(ch.isalpha() for ch in name) and name not in known:
                    missing.append(f"{game} {key}: {name!r}")
                elif _(name) not in panel:
                    unsaid.append(f"{game} {key}: {_(name)!r} not in {panel!r}")
    assert missing == [], f"option values without a {language} translation: {missing}"
    assert unsaid == [], unsaid


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_the_host_page_says_every_option_value_in_the_host_s_language(language: str) -> None:
    set_language(language)
    known = translated(language)
    games = [(name, get(name).title, get(name).min_players, get(name).max_players) for name in GAMES]
    menu = Menu(games, players=PLAYERS)
    for game in GAMES:
        while menu.games[menu.item("game").value][0] != game:
            menu.key("right")
        spec = get(game)
        for row in menu.next_game()["options"]:
            option = spec.options[row["key"]]
            names = dict((repr(value), name) for value, name in option.choices)
            for value, label in row["choices"]:
                name = names.get(repr(value))
                if name is None or row["key"] in spec.menu_starts():  # a pack's own title
                    continue
                assert not any(ch.isalpha() for ch in name) or (name in known and label == _(name)), \
                    f"{game} {row['key']}: {label!r} is not in {language}"


# -- a game's rows never stand for the menu's own ----------------------------------------


def menu_on(game: str) -> Menu:
    games = [(name, get(name).title, get(name).min_players, get(name).max_players) for name in GAMES]
    menu = Menu(games, players=PLAYERS, jobs=True)
    while menu.games[menu.item("game").value][0] != game:
        menu.key("right")
    return menu


@pytest.mark.parametrize("game", GAMES)
def test_each_row_of_the_menu_has_a_key_of_its_own(game: str) -> None:
    keys = [it.key for it in menu_on(game).items]
    assert sorted(k for k in set(keys) if keys.count(k) > 1) == [], f"{game}: rows of one key: {keys}"


@pytest.mark.parametrize("game", GAMES)
def test_the_menu_s_own_rows_are_the_ones_a_game_may_not_name_its_options(game: str) -> None:
    """``games.base.MENU_ROWS`` (which ``GameSpec`` refuses as a listed option's name) lists every
    row the menu adds of its own, and the menu reads the game's options from the game's rows only."""
    menu = menu_on(game)
    own = [it.key for it in menu.items if not it.option]
    assert menu_row_clash({key: Option(None, choices=((None, "x"),)) for key in own}) == sorted(own)
    assert all(it.key in get(game).options for it in menu.items if it.option)
