"""Start refused by the game (all-play on bell-only stations): the kiosk
menu stays and says why beside its rows, in the host's language, until the
next key. It used to log the reason only, so Start seemed to do nothing.

Played through the whole ``buzzerbox menu`` loop on a bell-only wiring
(header-7-bells, mock pins), keys pressed on what the screen shows
(tests/display/kiosk.py): the host sets Rules to all-play and starts, reads
the refusal, finds every row as they left it, presses a key (the refusal
goes), sets Rules back to classic and starts: the roll call of a game that
starts. Esc there, then Esc twice, leaves the menu; nothing was journaled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box import profile as profile_mod
from controller.box import session
from controller.cli import main
from games.base import OptionError
from games.i18n import _, set_language
from games.registry import get
from tests.display.kiosk import Frame, Kiosk, Script, Steps, menu_args
from tests.display.test_menu_panel import panel_of

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

PROFILE = "header-7-bells"


def said(frame: Frame) -> str:
    """Every text of the frame, read across its lines."""
    return " ".join(shown for _asked, shown, _ink, _given, _screen in frame)


def row_is(frame: Frame, label: str, value: str | None = None) -> bool:
    """The panel speaks of row ``label`` (the highlighted one), at ``value`` if given."""
    return panel_of(frame).startswith(f"{_(label)}: " + (_(value) if value is not None else ""))


def rules_to(frame: Frame, value: str) -> Steps:
    """Down to the Rules row, then left until it says ``value``: the frame after."""
    while not row_is(frame, "Rules"):
        frame = yield [pygame.K_DOWN]
    while not row_is(frame, "Rules", value):
        frame = yield [pygame.K_LEFT]
    return frame


def host(journals: Path, seen: dict[str, Any]) -> Script:
    """What the host does and sees, noted in ``seen`` for the test to judge."""
    frame = yield []
    frame = yield from rules_to(frame, "all play: everyone answers")
    seen["rows before"] = panel_of(frame, rows=True)
    frame = yield [pygame.K_RETURN]  # Start (Enter starts from any row)
    seen["refused"] = panel_of(frame)
    seen["rows refused"] = panel_of(frame, rows=True)
    seen["journaled"] = sorted(journals.iterdir())
    frame = yield [pygame.K_UP]  # any key: the refusal goes
    seen["after a key"] = panel_of(frame)
    frame = yield from rules_to(frame, "classic")
    frame = yield [pygame.K_RETURN]
    seen["roll call"] = _("Every station: press your button once") in said(frame)  # the game starts
    frame = yield [pygame.K_ESCAPE]  # not now: back to the menu
    seen["menu again"] = row_is(frame, "Rules", "classic")
    frame = yield [pygame.K_ESCAPE]
    seen["asked"] = _("Quit? Esc again to quit, any other key to stay") in said(frame)
    yield [pygame.K_ESCAPE]


def all_play_refusal(language: str) -> str:
    """What the game says of all-play on these stations, in ``language``."""
    set_language(language)
    with pytest.raises(OptionError) as refused:
        session.game_settings(get("quiz"), 7, 1, {"rules": "all-play", "pack": "en-general"},
                          profile_mod.load(PROFILE))
    return str(refused.value)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_all_play_on_bell_only_stations_is_refused_on_the_menu_screen(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # no names, packs or journals of the machine's
    journals = tmp_path / "journals"
    journals.mkdir()
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(journals, seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--profile", PROFILE)]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert "refused" in seen, f"the menu was left at the refused Start: {seen}"
    reason = all_play_refusal(language)
    # one line naming the problem and the fix, under the heading, in the host's language
    assert seen["refused"] == _("Start refused; change an option and start again:") + " " + reason, seen["refused"]
    assert ("these stations have 0" in reason) == (language == "en") and "0" in reason
    assert "Traceback" not in seen["refused"]
    # the menu stayed, every row as the host left it; no game began
    assert seen["rows refused"] == seen["rows before"] and _("all play: everyone answers") in seen["rows before"]
    assert seen["journaled"] == []
    assert _("Start refused; change an option and start again:") not in seen["after a key"]
    assert seen["roll call"] and seen["menu again"] and seen["asked"], seen
    assert sorted(journals.iterdir()) == []  # Esc in the roll call: the game never began
