"""The menu's phones' server is one process of its own for the whole
evening (docs/processes.md, "The phones' pages"): ``buzzerbox menu --web 0``
as the kiosk runs it (keys on what its screen shows, tests/display/kiosk.py),
in Czech, a phone and the host page in headless Chromium. The phone joins a
seat of Fiki Miki and plays a card on its page (in the box's language); the
host ends the game; the host page starts the next game; the same phone, on
the same page (never scanned again), is dealt the new game's hand and plays
in it. The menu's process never imports aiohttp and never listens on the
pages' port: another process does. Killed with -9 between games, that
process is said in one line beside the menu's rows and started again on
the same port by the menu. Before, the menu served the phones in its own
process (a dead menu took the phones' server with it)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from controller.cli import main
from controller.web.process import PHONES_RESTARTED
from games.i18n import _, current_language
from tests.display.kiosk import Frame, Kiosk, Reached, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import until
from tests.display.test_menu_panel import panel_of
from tests.display.test_menu_refusal import said
from tests.processes import HANG_S
from tests.web.test_split_language import host_logged_in, seated
from tests.web.test_split_phones import port_in

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

#: what the menu's process must never load: the phones' server's web stack
WEB_STACK = ("aiohttp", "controller.web.server")


#: a fresh process imports the commands and the menu, then says which of the web stack it loaded
IMPORTED = f"""
import sys
import controller.cli, controller.apps.menu
print(sorted(m for m in sys.modules if m.split(".")[0] == "aiohttp" or m in {WEB_STACK!r}))
"""


def web_stack_at_import() -> str:
    """What of the web stack importing ``buzzerbox``'s commands loads, in a process of its own (this one
    has them cached: what their import loaded is not loaded again here, so only a fresh one can tell)."""
    done = subprocess.run([sys.executable, "-c", IMPORTED], capture_output=True, text=True, timeout=HANG_S,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_commands_and_the_menu_import_no_web_stack() -> None:
    """Every ``buzzerbox`` command (the menu's too) starts without aiohttp: only the phones' server loads it."""
    assert web_stack_at_import() == "[]"


def listeners(port: int) -> set[int]:
    """The processes (this user's) holding a socket that listens on TCP ``port``."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="ascii") as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":  # 0A: LISTEN
                    inodes.add(f"socket:[{fields[9]}]")
    pids = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") in inodes for fd in fds):
                pids.add(int(pid))
        except OSError:  # gone, or not this user's
            continue
    return pids


def playing(player: Any) -> None:
    """The seat's turn on its page (in the box's language): a card played, the turn passes on."""
    expect(player.locator(".w-note").first).to_contain_text(_("Your turn: play a card"))
    player.locator(".w-hand .card.legal").first.click()
    expect(player.locator(".w-hand .card.legal")).to_have_count(0)  # taken: the other seat's turn now


def fiki_miki_chosen(frame: Frame) -> bool:
    return "Fiki Miki" in panel_of(frame, rows=True)


def evening(seen: dict[str, Any], player: Any, host: Any, capsys: pytest.CaptureFixture[str]) -> Script:
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    while not fiki_miki_chosen(frame):  # the game row (the first) to Fiki Miki
        frame = yield [pygame.K_RIGHT]
    frame = yield [pygame.K_RETURN]  # Start: phones needed, the Phones row turns them on
    frame = yield from until(frame, lambda f: not asked(f, MENU_HINT))
    [line] = [x for x in capsys.readouterr().err.splitlines() if "PIN" in x]  # the phones' server's line
    port = seen["port"] = port_in(line)
    seen["listeners"] = listeners(port)
    seated(player, port)
    playing(player)  # game 1: the seat's first card
    seen["game 1"] = True
    frame = yield [Reached("a card played from the phone in game 1")]
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]  # meant: the game ends, the menu is back
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    host_logged_in(host, port, line)
    expect(host.locator("#next-start")).to_have_text(_("Start it now"))
    expect(player.locator(".w-hand .card.legal")).to_have_count(0)  # between games: no move offered
    host.click("#next-start")
    frame = yield from until(frame, lambda f: not asked(f, MENU_HINT))  # the menu started the next game
    frame = yield [Reached("the host page started game 2")]
    playing(player)  # the same page, never scanned again: the seat plays on in game 2
    seen["game 2"] = True
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    capsys.readouterr()
    (server,) = listeners(port)
    os.kill(server, signal.SIGKILL)  # the phones' server dies between games
    frame = yield from until(frame, lambda f: _(PHONES_RESTARTED).format(code=-9) in said(f))
    frame = yield [Reached("the phones' server started again")]
    [again] = [x for x in capsys.readouterr().err.splitlines() if "PIN" in x]
    seen["again"] = (port_in(again), listeners(port), server)
    assert re.search(r"PIN (\d{6})\)", again).group(1) == re.search(r"PIN (\d{6})\)", line).group(1)  # type: ignore[union-attr]
    host.goto(f"http://localhost:{port}/host")  # the same address and PIN (the seats kept): logged in by itself
    host.wait_for_selector("#remote:not(.hidden)")
    expect(host.locator("#next-start")).to_have_text(_("Start it now"))
    seen["host again"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("language", ["cs"])
def test_the_menus_phones_server_is_one_process_for_the_evening(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        phone: Any) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in [m for m in sys.modules if m.split(".")[0] == "aiohttp" or m in WEB_STACK]:
        monkeypatch.delitem(sys.modules, name)  # loaded by other tests of this worker: put back after
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, evening(seen, phone(), phone(), capsys))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "2", "--web", "0")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen.get("game 1") and seen.get("game 2") and seen.get("host again"), seen
    # the menu's process serves no page: nothing it ran loaded the web stack (taken out above), nor did
    # importing it (cached before this test: told by a fresh process)
    assert [m for m in WEB_STACK if m in sys.modules] == [] and web_stack_at_import() == "[]"
    assert seen["listeners"] and os.getpid() not in seen["listeners"], seen  # another process listens
    port, listening, killed = seen["again"]
    assert port == seen["port"] and listening and killed not in listening and os.getpid() not in listening
    assert listeners(port) == set()  # the menu ended: so did its phones' server
    assert re.fullmatch(r"\d+", str(port))


def language_changed(seen: dict[str, Any], player: Any, other: Any, capsys: pytest.CaptureFixture[str]) -> Script:
    """A game with phones in English; the Language row to Čeština; the next game with phones, on the
    same phone's page (never scanned again); another phone opens the seat picker."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    while not fiki_miki_chosen(frame):  # the game row (the first) to Fiki Miki
        frame = yield [pygame.K_RIGHT]
    frame = yield [pygame.K_RETURN]  # Start: phones needed, the Phones row turns them on
    frame = yield from until(frame, lambda f: not asked(f, MENU_HINT))
    [line] = [x for x in capsys.readouterr().err.splitlines() if "PIN" in x]  # the phones' server's line
    port = seen["port"] = port_in(line)
    seen["listeners"] = listeners(port)
    seated(player, port)
    expect(player.locator("html")).to_have_attribute("lang", "en")
    playing(player)  # game 1, in English
    seen["game 1"] = True
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]  # meant: the game ends, the menu is back
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    down = 0
    while not panel_of(frame).startswith(_("Language") + ":"):
        frame = yield [pygame.K_DOWN]
        down += 1
    while current_language() != "cs":
        frame = yield [pygame.K_RIGHT]
    for _row in range(down):  # back to the game row
        frame = yield [pygame.K_UP]
    frame = yield [pygame.K_RETURN]  # game 2, with phones
    frame = yield from until(frame, lambda f: not asked(f, MENU_HINT))
    frame = yield [Reached("game 2 started")]
    seen["lines"] = [x for x in capsys.readouterr().err.splitlines() if "PIN" in x]
    playing(player)  # the same page, its seat kept: its turn said in Czech (the deciding process's words)
    seen["game 2"] = True
    seen["listeners 2"] = listeners(port)
    other.goto(f"http://localhost:{port}/play")
    seen["lang"] = other.locator("html").get_attribute("lang")  # the server's own words
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    yield [pygame.K_ESCAPE]


def test_the_phones_pages_follow_the_menus_language_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], phone: Any) -> None:
    """The host switches the Language row between two games with phones: the phones' pages of the
    second speak Czech, the phone on the page it had (its seat kept), served by the same process (the
    evening's deciding process, told the language, tells it), decided by the same deciding process.
    Both used to be started again in Czech: the phones lost their seats and scanned the QR code again."""
    from tests.display.test_menu_one_decider import starts

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    seen: dict[str, Any] = {}
    started = starts(monkeypatch)
    kiosk = Kiosk(monkeypatch, language_changed(seen, phone(), phone(), capsys))
    assert main(["--lang", "en", *menu_args(tmp_path, "--players", "2", "--web", "0")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen.get("game 1") and seen.get("game 2"), seen
    assert seen["lang"] == "cs" and seen["lines"] == [], seen  # no new server: no new address or PIN said
    assert seen["listeners"] and seen["listeners 2"] == seen["listeners"], seen  # the same process serves
    assert len(started) == 1, started  # one deciding process for the evening
    assert listeners(seen["port"]) == set()  # the menu ended: so did its phones' server
