"""``play --web``'s phones' server dying mid-game (docs/processes.md, "The
phones' pages"): ``play`` notices at once, says so in one line, starts it
again on the same port, and the deciding process hands it back the seats'
codes and the PIN it kept, so a phone's page reconnects by itself to the
seat it held (Chromium). Its start-up speaks the channel's typed messages
over its pipes: an answer that is none is one line, never a traceback.
Every wait is for what the processes or the page say, never for time."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from controller.web.process import GARBLED, PHONES_RESTARTED
from games.i18n import _
from tests import processes
from tests.web.conftest import READY_MS, START_LINE, Served
from tests.web.test_phones_process import PhonesServer
from tests.web.test_split_phones import LAUNCH, ROOT
from tests.web.test_split_phones_restart import ENV

#: counts the welcomes the page's sockets get (``window.welcomes``): a welcome is a seat's hello taken
COUNT_WELCOMES = """
window.welcomes = 0;
const Seen = window.WebSocket;
window.WebSocket = class extends Seen {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => { if (JSON.parse(e.data).type === "welcome") window.welcomes += 1; });
  }
};
"""


def test_a_phone_keeps_its_seat_when_the_phones_server_is_killed_mid_game(
        served: Callable[..., Served], phone: Any) -> None:
    """Seat 1's phone joined; the phones' server is killed with -9 mid-game. ``play`` says it in
    one line and starts it again on the same port with the same PIN; the phone's page, never
    scanned again, reconnects by itself, is welcomed to seat 1 with the code it held and plays its card."""
    s = served("hands", 2)
    page = phone()
    page.add_init_script(COUNT_WELCOMES)
    s.take_seat(page, 0)
    status, hand = page.locator("#status"), page.locator("#private .chip")
    page.wait_for_function("() => window.welcomes === 1", timeout=READY_MS)
    expect(hand).not_to_have_count(0)
    cards = hand.count()
    server = PhonesServer(s.proc)
    try:
        signal.pidfd_send_signal(server.pidfd, signal.SIGKILL)
        server.wait_gone()
    finally:
        server.close()
    said, _line = s.err.wait_for(lambda x: _(PHONES_RESTARTED).format(code=-9) in x)
    _at, again = s.err.wait_for(lambda x: START_LINE.search(x) is not None, after=said)
    found = START_LINE.search(again)
    assert found is not None and (int(found.group(1)), found.group(2)) == (s.server.port, s.server.pin)
    page.wait_for_function("() => window.welcomes === 2", timeout=READY_MS)  # the page reconnected by itself and was welcomed back
    expect(status).to_have_text(f"{_('Seat')} 1")  # to its seat, with the code it held: never "choose again"
    page.locator("#moves button").first.click()
    expect(hand).to_have_count(cards - 1)  # the move reached the deciding process through the new server


SITECUSTOMIZE = """\
import sys
with open("/proc/self/cmdline", "rb") as own:
    if b"controller.web.process" in own.read().split(b"\\0"):
        sys.stdout.write("garbled, not an answer\\n")
        sys.stdout.flush()
"""


def test_a_phones_server_answer_that_is_none_is_one_line(tmp_path: Path) -> None:
    """The phones' server's stdout carries something else before its answer (here a site hook
    writes on it): ``play --web`` says so in one translated line, begins no game, no traceback."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = {**ENV, "PYTHONPATH": str(hook)}
    with processes.running([sys.executable, "-c", LAUNCH, "play", "hands", "--players", "2", "--headless",
                            "--journal", str(tmp_path / "hands.jsonl"), "--web", "0"], env, ROOT) as (proc, err):
        assert proc.wait(processes.HANG_S) == 1
    lines = "\n".join(err.lines)
    # before: "unexpected JSONDecodeError ...: this is a bug" (json.loads of whatever came first)
    assert [x for x in err.lines if x.startswith("buzzerbox")] == [f"buzzerbox play: {_(GARBLED)}"], lines
    assert "Traceback" not in lines, lines
    assert not (tmp_path / "hands.jsonl").exists()
