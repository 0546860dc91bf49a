"""The host page during ``play --web 0``'s roll call on real stations, as
``play`` starts by default (the deciding process runs the roll call): it says
that a game is about to start and who the roll call still waits for, in the
box's language, never "No game running: choose the next one in the menu"
(``play`` has no menu).

``play`` runs in this process (its screen drawn by SDL's dummy driver); the
host page in headless Chromium logs in with the PIN the server printed while
the roll call is on screen, then the host leaves the roll call (Esc)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from controller.box import profile as profile_mod
from games.i18n import _
from tests.core.test_roll_call_split import roll_calls, screen_opens_no_input  # noqa: F401 (a fixture)
from tests.web.test_split_language import host_logged_in
from tests.web.test_split_phones import port_in

SHOTS = Path(os.environ.get("BUZZERBOX_SHOTS", "/tmp/buzzerbox-shots"))

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "screen_opens_no_input")


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_host_page_says_the_roll_call_not_no_game_running(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        phone: Any) -> None:
    from controller.cli import CommandFailed, main

    host = phone()
    names = [st.name for st in profile_mod.load("header-4").stations]
    seen: dict[str, str] = {}

    def on_the_host_page(frames: list[list[str]]) -> None:
        if len(frames) != 1:
            return
        # the roll call is on the big screen: the server's line (port, PIN) was said before it
        [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
        host_logged_in(host, port_in(line), line)
        note = host.locator("#note")
        expect(note).to_have_text(_("Roll call: every station presses its button once. Not heard from yet: {missing}")
                                  .format(missing=", ".join(names)))
        seen["note"] = note.inner_text()
        SHOTS.mkdir(parents=True, exist_ok=True)
        host.screenshot(path=str(SHOTS / f"host-roll-call-{language}.png"), full_page=True)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))

    roll_calls(monkeypatch, on_the_host_page)
    with pytest.raises(CommandFailed):  # the host left the roll call: no game, as at Ctrl+C
        main(["--lang", language, "play", "reaction", "--profile", "header-4", "--web", "0",
              "--journal", str(tmp_path / "r.jsonl")])
    assert seen["note"] != _("No game running: choose the next one in the menu on the big screen.")
