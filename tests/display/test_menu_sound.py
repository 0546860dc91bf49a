"""``buzzerbox menu --mute --volume 0.5``: the menu's rows start there and the
games it starts play at that (they used to show "Sound: on" and start at the
menu's own 80 %).

Through the whole ``buzzerbox menu`` loop on a bell-only wiring (mock pins),
keys pressed on what the screen shows (tests/display/kiosk.py): the host
reads the Sound and Volume rows, starts a quiz, ends it (Esc, Esc) and quits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

import controller.screen.viewer
from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked, end_game_and_quit
from tests.display.test_menu_panel import panel_of

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def host(seen: dict[str, Any]) -> Script:
    frame = yield []
    while not asked(frame, MENU_HINT):
        frame = yield []
    while not panel_of(frame).startswith(_("Sound") + ":"):
        frame = yield [pygame.K_DOWN]
    seen["sound"] = panel_of(frame)
    frame = yield [pygame.K_DOWN]
    seen["volume"] = panel_of(frame)
    frame = yield [pygame.K_RETURN]  # Start
    while not asked(frame, "Every station: press your button once"):
        frame = yield []
    frame = yield [pygame.K_RETURN]  # the roll call skipped
    while not asked(frame, "Quiz buzzer") or asked(frame, "Every station: press your button once"):
        frame = yield []
    yield from end_game_and_quit(frame)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_menu_mute_and_volume_reach_the_game(language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    played: list[tuple[bool, float, list[str]]] = []
    run_split = controller.screen.viewer.run_split

    def spied(game: Any, presenter: Any, *args: Any, **kwargs: Any) -> Any:
        """What the game's screen plays at, and what a screen started again would be told."""
        played.append((presenter.sound.settings.mute, presenter.sound.settings.volume, game.screen_args))
        return run_split(game, presenter, *args, **kwargs)

    monkeypatch.setattr(controller.screen.viewer, "run_split", spied)
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(seen))
    assert main(["--lang", language,
                 *menu_args(tmp_path, "--profile", "header-7-bells", "--mute", "--volume", "0.5")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen["sound"].startswith(f"{_('Sound')}: {_('off')} "), seen
    assert seen["volume"].startswith(f"{_('Volume')}: 50% "), seen
    [(mute, volume, args)] = played
    assert mute and volume == 0.5
    assert "--mute" in args and args[args.index("--volume") + 1] == "0.5"
