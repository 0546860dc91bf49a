"""The host page's asks of the menu while one of its games runs (``buzzerbox
menu --web 0`` as the kiosk runs it, tests/display/kiosk.py; its evening's
deciding process and phones' server processes of their own): an option of
the next game chosen meanwhile is kept and the menu's next game has it once
this one ended; a "start" is answered on the host page at once (a game runs:
the next starts after it). Before, both were only logged by the deciding
process: the option was lost, the start met silence."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import aiohttp
import pygame
import pytest

from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Kiosk, Reached, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import (
    PACK,
    first_question_won_by,
    played_to_the_end,
    until,
)
from tests.display.test_menu_refusal import row_is
from tests.processes import HANG_S
from tests.web.test_split_phones import port_in

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

#: the option the host chooses while the second game runs: the answer timer at 20 s (the menu's is off)
TIMER = {"type": "option", "key": "answer_time_us", "value": 20_000_000, "seq": 1}


async def host_asks(port: int, pin: str, asks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The host page's socket: logged in with the PIN, each ask sent and its answer (ok or refused) read."""
    answers = []
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws/host")
        await ws.send_json({"type": "hello", "pin": pin})
        for ask in asks:
            await ws.send_json(ask)
            while True:
                reply = json.loads((await asyncio.wait_for(ws.receive(), HANG_S)).data)
                if reply["type"] in ("ok", "refused"):
                    answers.append(reply)
                    break
        await ws.close()
    return answers


def evening(seen: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> Script:
    """A quiz to its end (the menu's phones' server starts with it); a second one, in which the host page
    chooses the next game's answer timer and asks to start the next; the menu after it."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield from first_question_won_by(1, frame)
    frame = yield from played_to_the_end(frame)
    frame = yield [Reached("the first game played to its end")]
    [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
    pin = re.search(r"PIN (\d{6})\)", line)
    assert pin is not None, line
    frame = yield from first_question_won_by(2, frame)  # the second game runs
    seen["answers"] = asyncio.run(host_asks(port_in(line), pin.group(1), [TIMER, {"type": "start", "seq": 2}]))
    frame = yield [Reached("the host page asked during the game")]
    frame = yield from played_to_the_end(frame)
    while not row_is(frame, "Answer timer"):
        frame = yield [pygame.K_DOWN]
        frame = yield []  # the panel of that row drawn
    yield from until(frame, lambda f: row_is(f, "Answer timer", "20 s"))
    seen["kept"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def test_an_option_chosen_during_a_game_is_kept_for_the_next_and_a_start_is_answered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "two.csv").write_text(PACK, encoding="utf-8")
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, evening(seen, capsys))
    assert main(["--lang", "en", *menu_args(tmp_path, "--players", "3", "--web", "0")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen["answers"] == [{"type": "ok", "seq": 1},
                               {"type": "refused", "why": _("a game is running: the next one starts after it")}]
    assert seen.get("kept"), seen
