"""A Czech or Polish box speaks its language on the phones and the host page
in the default (split) design too: the deciding process builds the pages'
texts, so it must be started in the box's language. Real pages in Chromium
on ``play --web --lang``; every wait is for what the processes say, never
for time."""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games.i18n import _, current_language, set_language
from tests.web.test_split_phones import DEADLINE_S, port_in
from tests.web.test_split_phones_restart import running


def said(language: str, text: str) -> str:
    """``text`` as a box in ``language`` says it (this process's language left as it was)."""
    before = current_language()
    set_language(language)
    try:
        return _(text)
    finally:
        set_language(before)


def play_fiki_miki(port: int, journal: Path, language: str) -> list[str]:
    """``play fiki-miki --web`` in ``language``, in a process of its own."""
    return [sys.executable, "-m", "controller", "play", "fiki-miki", "--players", "2", "--seed", "7", "--headless",
            "--journal", str(journal), "--web", str(port), "--lang", language]


def host_logged_in(host: Any, port: int, line: str) -> None:
    """The host page logged in with the PIN the server's start line says."""
    pin = re.search(r"PIN (\d{6})\)", line)
    assert pin is not None, line
    host.goto(f"http://localhost:{port}/host")
    host.fill("#pin", pin.group(1))
    host.click("#enter")
    host.wait_for_selector("#remote:not(.hidden)")


def seated(player: Any, port: int) -> None:
    player.goto(f"http://localhost:{port}/play")
    player.locator(".pick button[data-seat='0']").click()


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_the_phone_and_the_host_page_speak_the_boxs_language(language: str, tmp_path: Path, phone: Any) -> None:
    with running(play_fiki_miki(0, tmp_path / "fiki-miki.jsonl", language)) as (proc, err):
        _at, line = err.wait_for(lambda x: "PIN" in x)  # the server's line, in the box's language
        port = port_in(line)  # the port it bound
        player, host = phone(), phone()
        seated(player, port)
        expect(player.locator(".w-note").first).to_contain_text(said(language, "Your turn: play a card"))
        host_logged_in(host, port, line)
        expect(host.locator("#phase")).to_have_text(said(language, "Playing a card"))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(DEADLINE_S) == 0, "\n".join(err.lines)


def test_a_screen_started_again_serves_the_pages_in_the_boxs_language(tmp_path: Path, phone: Any) -> None:
    """The screen process killed with -9 while the phones' server (a process of
    its own) serves on: the host page speaks Czech, its own texts and the
    game's; the joined phone's page still speaks Czech."""
    with running(play_fiki_miki(0, tmp_path / "fiki-miki.jsonl", "cs")) as (proc, err):
        _at, line = err.wait_for(lambda x: "PIN" in x)  # the server's line, in the box's language
        port = port_in(line)
        player = phone()
        seated(player, port)
        expect(player.locator(".w-note").first).to_contain_text(said("cs", "Your turn: play a card"))
        proc.send_signal(signal.SIGKILL)  # the screen process dies; the phones' server does not
        proc.wait()
        at, _went = err.wait_for(lambda x: "the screen process went away" in x)
        err.wait_for(lambda x: "a new screen process" in x, after=at)  # the deciding process started a new screen
        host = phone()
        host.goto(f"http://localhost:{port}/host")
        assert host.locator("html").get_attribute("lang") == "cs"
        host_logged_in(host, port, line)
        expect(host.locator("#phase")).to_have_text(said("cs", "Playing a card"))
        expect(player.locator(".w-note").first).to_contain_text(said("cs", "Your turn: play a card"))
