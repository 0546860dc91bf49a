"""The box's first start walks a person through setting it up on the TV,
keyboard only: the language (Czech, and every next screen speaks it), the
wiring (a shipped profile), the players' names, a test press per station
(each one ticked off when pressed), the phones' address; then the menu, on
that profile's stations with the typed name. It is shown once; the next
start goes straight to the menu in the chosen language; ``--first-run``
shows it again.

Through the whole ``buzzerbox menu`` as the kiosk starts it (no option
skips the walk-through; tests/display/kiosk.py presses the keys on what
each frame shows)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main
from games.i18n import _, current_language
from tests.display.kiosk import Frame, Kiosk, Script, Steps, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_panel import panel_of
from tests.display.test_menu_refusal import said

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

LANGUAGE_QUESTION = "Which language should the box speak?"
WIRING_QUESTION = "How are the buttons connected?"


def step(n: int) -> str:
    """The walk-through's header: which step of the five."""
    return _("Setting up · step {n} of {total}").format(n=n, total=5)


def shows(frame: Frame, text: str) -> bool:
    """``text`` (already in the reader's language) was drawn in this frame."""
    return any(wanted == text for wanted, _shown, _ink, _given, _screen in frame)


def until(test: Any) -> Steps:
    frame = yield []
    while not test(frame):
        frame = yield []
    return frame


def up(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode="", scancode=0)


def setting_up(seen: dict[str, Any]) -> Script:
    # 1: the language, asked in English (no profile says one); Czech chosen, the question turns Czech
    frame = yield from until(lambda f: asked(f, LANGUAGE_QUESTION))
    seen["step 1"] = step(1)
    while current_language() != "cs":
        frame = yield [pygame.K_DOWN]
    frame = yield from until(lambda f: asked(f, LANGUAGE_QUESTION))
    seen["question in Czech"] = _(LANGUAGE_QUESTION)
    frame = yield [pygame.K_RETURN]
    # 2: the wiring, among the shipped profiles: header-4
    frame = yield from until(lambda f: asked(f, WIRING_QUESTION))
    seen["wiring rows"] = said(frame)
    while "wiring/header-4.toml" not in said(frame):  # the note under the rows is the chosen row's
        frame = yield [pygame.K_DOWN]
    frame = yield [pygame.K_RETURN]
    # 3: the names: the first station is Ada
    frame = yield from until(lambda f: shows(f, step(3)))
    frame = yield [pygame.event.Event(pygame.TEXTINPUT, text="Ada")]
    frame = yield [pygame.K_RETURN]
    # 4: each station presses (its number key); each is ticked off, then every station works
    frame = yield from until(lambda f: shows(f, step(4)))
    for k, code in enumerate((pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4)):
        frame = yield [code]
        frame = yield [up(code)]
        frame = yield from until(lambda f, k=k: said(f).count(_("HERE")) == k + 1)
    frame = yield from until(lambda f: _("Every station works! Enter: next step.") in said(f))
    seen["test press"] = said(frame)
    frame = yield [pygame.K_RETURN]
    # 5: the phones' address, then the menu
    frame = yield from until(lambda f: asked(f, "Phones join here"))
    seen["phones"] = said(frame)
    frame = yield [pygame.K_RETURN]
    frame = yield from until(lambda f: asked(f, MENU_HINT))
    seen["menu"] = said(frame)
    seen["menu language"] = current_language()
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def first_look(seen: dict[str, Any]) -> Script:
    """Whatever the start shows first, then Esc twice (out of the walk-through, out of the menu)."""
    frame = yield []
    seen["first"] = said(frame)
    seen["menu first"] = asked(frame, MENU_HINT)
    seen["setup first"] = shows(frame, step(1))
    if seen["setup first"]:  # Esc on its first step: set up later, the menu opens
        frame = yield [pygame.K_ESCAPE]
        frame = yield from until(lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def test_the_first_start_walks_through_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BUZZERBOX_FIRST_RUN", raising=False)  # as a box starts: nothing skips the walk-through
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, setting_up(seen))
    assert main(menu_args(tmp_path)) == 0
    assert kiosk.stuck is None, (kiosk.stuck[-300:] if kiosk.stuck else None, sorted(seen))
    assert seen["question in Czech"] != LANGUAGE_QUESTION  # the walk-through spoke Czech from the moment it was chosen
    assert seen["menu language"] == "cs"
    assert "Ada" in seen["menu"] and "Blue" in seen["menu"], seen["menu"]  # header-4's stations, the typed name
    assert "http://" in seen["phones"] and "/play" in seen["phones"], seen["phones"]
    saved = json.loads((tmp_path / "data" / "buzzerbox" / "first-run.json").read_text(encoding="utf-8"))
    assert saved["language"] == "cs" and saved["profile"] == "header-4"

    # the next start: straight to the menu, in Czech, on header-4's stations
    pygame.display.quit()
    pygame.display.init()
    again: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, first_look(again))
    assert main(menu_args(tmp_path)) == 0
    assert kiosk.stuck is None, (kiosk.stuck, again)
    assert again["menu first"] and not again["setup first"], again["first"]
    assert "Ada" in again["first"] and "Blue" in again["first"], again["first"]

    # asked for: shown again
    pygame.display.quit()
    pygame.display.init()
    asked_again: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, first_look(asked_again))
    assert main(menu_args(tmp_path, "--first-run")) == 0
    assert kiosk.stuck is None, (kiosk.stuck, asked_again)
    assert asked_again["setup first"] and not asked_again["menu first"], asked_again["first"]


def setting_up_again(seen: dict[str, Any]) -> Script:
    """From the menu: the "Set up again" row, Enter; the walk-through's first step; Esc back to the menu."""
    frame = yield from until(lambda f: asked(f, MENU_HINT))
    seen["menu first"] = True
    while not panel_of(frame).startswith(_("Set up again") + ":"):
        frame = yield [pygame.K_DOWN]
    frame = yield [pygame.K_RETURN]
    frame = yield from until(lambda f: shows(f, step(1)))
    seen["walk-through"] = said(frame)
    frame = yield [pygame.K_ESCAPE]  # set up later: back to the menu, on the same stations
    frame = yield from until(lambda f: asked(f, MENU_HINT))
    seen["menu after"] = said(frame)
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def test_the_menu_row_set_up_again_shows_the_walk_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BUZZERBOX_FIRST_RUN", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "data" / "buzzerbox").mkdir(parents=True)
    (tmp_path / "data" / "buzzerbox" / "first-run.json").write_text('{"done": true}', encoding="utf-8")  # set up before
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, setting_up_again(seen))
    assert main(["--lang", "en", *menu_args(tmp_path, "--profile", "header-4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert _(LANGUAGE_QUESTION) in seen["walk-through"], seen["walk-through"]
    assert "Blue" in seen["menu after"], seen["menu after"]  # the stations opened again for the menu


def test_a_chosen_wiring_that_will_not_open_leaves_keyboard_stations_not_a_dead_kiosk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The walk-through chose header-4 and the pins will not open here: the
    menu still opens (keyboard stations) and says why in one line."""
    monkeypatch.delenv("BUZZERBOX_FIRST_RUN", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    (tmp_path / "data" / "buzzerbox").mkdir(parents=True)
    (tmp_path / "data" / "buzzerbox" / "first-run.json").write_text(
        '{"done": true, "language": "en", "profile": "header-4"}', encoding="utf-8")
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, first_look(seen))
    assert main(menu_args(tmp_path)) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen["menu first"] and _("Player {n}").format(n=1) in seen["first"], seen["first"]
    err = capsys.readouterr().err
    assert "header-4" in err and "keyboard stations for now" in err, err


def test_a_wiring_whose_inputs_will_not_open_skips_the_test_press_in_one_line_and_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    """The walk-through chose header-4 and its pins will not open here: the
    test press, read through the evening's deciding process (the menu's
    process opens no input, tests/display/test_menu_one_decider.py), is
    skipped with one line naming the problem, and the walk-through goes on
    to the phones and the menu (keyboard stations)."""
    from tests.display.test_menu_one_decider import no_input_here

    no_input_here(monkeypatch)
    monkeypatch.delenv("BUZZERBOX_FIRST_RUN", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    seen: dict[str, Any] = {}

    def script() -> Script:
        frame = yield from until(lambda f: asked(f, LANGUAGE_QUESTION))
        frame = yield [pygame.K_RETURN]
        frame = yield from until(lambda f: asked(f, WIRING_QUESTION))
        while "wiring/header-4.toml" not in said(frame):
            frame = yield [pygame.K_DOWN]
        frame = yield [pygame.K_RETURN]
        frame = yield from until(lambda f: shows(f, step(3)))
        frame = yield [pygame.K_RETURN]
        frame = yield from until(lambda f: asked(f, "Phones join here"))  # no test press: its inputs will not open
        frame = yield [pygame.K_RETURN]
        frame = yield from until(lambda f: asked(f, MENU_HINT))
        seen["menu"] = said(frame)
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    kiosk = Kiosk(monkeypatch, script())
    assert main(menu_args(tmp_path)) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert _("Player {n}").format(n=1) in seen["menu"], seen["menu"]  # keyboard stations for now
    skipped = [r.getMessage() for r in caplog.records if "test press skipped" in r.getMessage()]
    assert len(skipped) == 1 and "no-such-factory" in skipped[0], skipped
    err = capfd.readouterr().err
    assert "Traceback" not in err and "keyboard stations for now" in err, err
