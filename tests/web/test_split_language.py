"""A Czech or Polish box speaks its language on the phones and the host page
in the default (split) design too: the deciding process builds the pages'
texts, so it must be started in the box's language. Real pages in Chromium
on ``play --web --lang``; every wait is for what the processes say, never
for time."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games.i18n import _, current_language, set_language
from tests.web.test_split_phones import DEADLINE_S, ROOT, free_port
from tests.web.test_split_phones_restart import ENV, running


def said(language: str, text: str) -> str:
    """``text`` as a box in ``language`` says it (this process's language left as it was)."""
    before = current_language()
    set_language(language)
    try:
        return _(text)
    finally:
        set_language(before)


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_the_phone_and_the_host_page_speak_the_boxs_language(language: str, tmp_path: Path, phone: Any) -> None:
    port, journal = free_port(), tmp_path / "fiki-miki.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "controller", "play", "fiki-miki", "--players", "2", "--seed", "7",
                             "--headless", "--journal", str(journal), "--web", str(port), "--lang", language],
                            stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT)
    assert proc.stderr is not None
    hung = threading.Timer(DEADLINE_S, proc.kill)  # bounds a failure only: a play that never serves
    hung.start()
    try:
        for line in proc.stderr:  # waiting for the server's line (in the box's language), not for time
            if (pin := re.search(r"PIN (\d{6})\)", line)) is not None:
                break
        else:
            raise AssertionError("play ended before it served the pages")
        hung.cancel()
        hung.join()
        player, host = phone(), phone()
        player.goto(f"http://localhost:{port}/play")
        player.locator(".pick button[data-seat='0']").click()
        expect(player.locator(".w-note").first).to_contain_text(said(language, "Your turn: play a card"))
        host.goto(f"http://localhost:{port}/host")
        host.fill("#pin", pin.group(1))
        host.click("#enter")
        host.wait_for_selector("#remote:not(.hidden)")
        expect(host.locator("#phase")).to_have_text(said(language, "Playing a card"))
    finally:
        hung.cancel()
        hung.join()
        proc.send_signal(signal.SIGTERM)
        rest = proc.stderr.read()
        code = proc.wait(DEADLINE_S)
    assert code == 0, rest


def test_a_screen_started_again_serves_the_pages_in_the_boxs_language(tmp_path: Path, phone: Any) -> None:
    """The screen process killed with -9: the one the deciding process starts
    again serves the host page in Czech, its own texts and the game's; the
    joined phone's page, reconnected, still speaks Czech."""
    port, journal = free_port(), tmp_path / "fiki-miki.jsonl"
    with running([sys.executable, "-m", "controller", "play", "fiki-miki", "--players", "2", "--seed", "7",
                  "--headless", "--journal", str(journal), "--web", str(port), "--lang", "cs"]) as (proc, err):
        err.wait_for(lambda x: "PIN" in x)
        player = phone()  # a phone joined: the screen has told the deciding process its seats' codes
        player.goto(f"http://localhost:{port}/play")
        player.locator(".pick button[data-seat='0']").click()
        expect(player.locator(".w-note").first).to_contain_text(said("cs", "Your turn: play a card"))
        proc.send_signal(signal.SIGKILL)  # the screen process, and its server, die
        proc.wait()
        at, _line = err.wait_for(lambda x: "the screen process went away" in x)
        serving = said("cs", "companion pages: {url} (host page {host}, PIN {pin})").split("{")[0]
        _at, line = err.wait_for(lambda x: x.startswith(serving), after=at)  # the new screen serves, in Czech
        pin = re.search(r"PIN (\d{6})\)", line)
        assert pin is not None
        host = phone()
        host.goto(f"http://localhost:{port}/host")
        assert host.locator("html").get_attribute("lang") == "cs"
        host.fill("#pin", pin.group(1))
        host.click("#enter")
        host.wait_for_selector("#remote:not(.hidden)")
        expect(host.locator("#phase")).to_have_text(said("cs", "Playing a card"))
        expect(player.locator(".w-note").first).to_contain_text(said("cs", "Your turn: play a card"))
