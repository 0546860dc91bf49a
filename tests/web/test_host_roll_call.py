"""The host page during ``play --web 0``'s roll call on real stations, as
``play`` starts by default (the deciding process runs the roll call): it says
that a game is about to start and who the roll call still waits for, in the
box's language, never "No game running: choose the next one in the menu"
(``play`` has no menu).

``play`` runs in this process (its screen drawn by SDL's dummy driver); the
host page in headless Chromium logs in with the PIN the server printed while
the roll call is on screen, then the host leaves the roll call (Esc)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from controller import protocol as p
from controller.box import profile as profile_mod
from controller.box import session
from games.i18n import _
from tests.core.test_roll_call_split import roll_calls, screen_opens_no_input  # noqa: F401 (a fixture)
from tests.processes import HANG_S, written_elsewhere
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


def test_a_player_renamed_on_the_host_page_during_the_roll_call_is_named_so_in_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], phone: Any) -> None:
    """``play --web 0`` on real stations: while the roll call is on screen the host
    renames the first player on the host page, then starts without the stations
    (Enter). The deciding process ran the roll call and dropped the rename (the
    server did not even send it before the game's first snapshot): the game's
    screen and its journal kept the old name. Now the game takes it as it starts,
    stamped when the host typed it. The deciding process keeps the name for the
    next games in the names file, which it owns: the screen's process may not write
    it (before, the screen's process wrote it)."""
    from controller.cli import main
    from controller.screen import viewer

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the host page's names are kept for the next games
    path = tmp_path / "r.jsonl"
    host = phone()
    strips: list[list[str]] = []

    def on_the_host_page(frames: list[list[str]]) -> None:
        if len(frames) != 1:
            return
        [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
        host_logged_in(host, port_in(line), line)
        host.locator("#scores input.name[data-seat='0']").fill("Zuzana")
        host.locator("#scores button[data-rename='0']").click()
        expect(host.locator("#status")).to_have_text(_("Sent"))  # the server took it
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))

    update = viewer.DecidingLink.update

    def watched(self: viewer.DecidingLink, view: p.View) -> None:
        update(self, view)
        strips.append([str(cell.get("name")) for cell in view.strip])

    monkeypatch.setattr(viewer.DecidingLink, "update", watched)
    roll_calls(monkeypatch, on_the_host_page)
    with written_elsewhere(session.names_path(), session.names_path().with_suffix(".tmp")) as tried:
        assert main(["play", "reaction", "--profile", "header-4", "--web", "0", "--seconds", "0.5",
                     "--journal", str(path)]) == 0
    assert tried == []  # the screen's process never tried to write the names
    assert session.saved_names(profile_mod.load("header-4"))[0] == "Zuzana"  # kept for the next games
    assert strips and strips[-1][0] == "Zuzana", strips[-1:]  # the game's screen names the player so
    records = [json.loads(x) for x in path.read_text().splitlines()]
    [renamed] = [r for r in records if r.get("type") == "notice" and r.get("kind") == "renamed"]
    assert renamed["station"] == 0 and renamed["input"] == "Zuzana"
    assert renamed["t_us"] < 0  # stamped when the host typed it: before the game's first moment
    assert records[-1]["type"] == "end"


def test_a_player_renamed_on_the_host_page_during_the_roll_call_is_named_so_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], phone: Any) -> None:
    """``play --web 0`` on real stations: while the roll call is on screen the host
    renames the first player on the host page and saves. The roll call's screen lists
    the new name among those not heard from yet, and the host page keeps it in the
    name field and says it in its note. Before, the roll call kept the profile's names:
    the big screen still waited for the old name and the host page's field went back to
    it at the roll call's next update (the game took the new name only as it began)."""
    from controller.cli import CommandFailed, main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the host page's names are kept for the next games
    host = phone()
    names = [st.name for st in profile_mod.load("header-4").stations]
    field = host.locator("#scores input.name[data-seat='0']")
    seen: dict[str, Any] = {}

    def on_the_host_page(frames: list[list[str]]) -> None:
        if len(frames) == 1:
            [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
            host_logged_in(host, port_in(line), line)
            field.fill("Zuzana")
            host.locator("#scores button[data-rename='0']").click()
            expect(host.locator("#status")).to_have_text(_("Sent"))  # the server took it
            seen["renamed_at"] = time.monotonic()
            return
        waited = time.monotonic() - seen["renamed_at"]
        if "missing" in seen or ("Zuzana" not in frames[-1] and waited < HANG_S):  # a hang bound, not a race
            return
        seen["missing"] = frames[-1]  # the roll call's screen (HDMI)
        expect(host.locator("#note")).to_have_text(
            _("Roll call: every station presses its button once. Not heard from yet: {missing}")
            .format(missing=", ".join(["Zuzana", *names[1:]])))
        seen["field"] = field.input_value()
        SHOTS.mkdir(parents=True, exist_ok=True)
        host.screenshot(path=str(SHOTS / "host-roll-call-renamed.png"), full_page=True)
        pygame.image.save(pygame.display.get_surface(), str(SHOTS / "roll-call-renamed.png"))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))

    roll_calls(monkeypatch, on_the_host_page)
    with pytest.raises(CommandFailed):  # the host left the roll call
        main(["play", "reaction", "--profile", "header-4", "--web", "0", "--journal", str(tmp_path / "r.jsonl")])
    assert seen["missing"] == ["Zuzana", *names[1:]]
    assert seen["field"] == "Zuzana"
