"""An all-play answer locked in is the seat's, kept by the box: the quiz's all-play mode puts the
choice in that seat's own view (``private_view(seat)``), whose panel says it, and which goes to
that seat's sockets alone: never on the scoreboard, the host page or another seat's page, where
the others could copy it. (Its pages in Chromium, a reload and a second tab of the seat:
tests/web/test_player_page_small_phone.py.)"""

from __future__ import annotations

import json

from controller.box.runtime import Box
from controller.box.views import Publisher
from games import registry
from games.base import Action
from games.quiz import PACKS_DIR

PACK = str(PACKS_DIR / "en-general.csv")


def test_the_locked_answer_is_on_its_seat_s_page_alone() -> None:
    """Seat 0 locked in C: its page says it, seat 1's, the scoreboard's and the host's do not."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3, 1, pack=PACK, rules="all-play", questions=2))
    box.step(1_000_000)
    box.host("arm", 1_000_000)
    box.apply_action(Action("answer", 1_500_000, 0, {"choice": 2}))
    box.step(1_600_000)
    with box.lock:
        pages = Publisher(box).pages()
    assert box.engine.public_view()["phase"] == "all_play"
    label = json.dumps(pages.seats[0]["panel"]["widgets"])
    [locked] = [w for w in pages.seats[0]["panel"]["widgets"] if w["type"] == "locked"]
    assert pages.seats[0]["private"] == {"locked": 2} and locked["choice"].startswith("C"), label
    for page in (pages.seats[1], pages.seats[2], pages.board, pages.host):
        text = json.dumps(page)
        assert '"locked"' not in text, text
    assert pages.seats[1]["moves"] and pages.seats[1]["private"] == {}
