"""One live path (issue 47): the product keeps none of the one-process
baseline's seams. Its deciding thread hands what it decided on only through
``after`` (the deciding process publishes there); the screen's side runs no
live game of its own and draws only views: no real-time frame loop on a box
(``FrameRun``, ``frames_loop``: benchmarks/one_process.py), no lamps lit
from the screen, no ``Presenter.draw`` of a box; the phones' server serves
only what the deciding process publishes (a server on a box of this process
is benchmarks/companion_box.py's), and pygame is no part of it.
"""

from __future__ import annotations

import importlib.util
import inspect

from benchmarks.one_process import FrameRun, LiveGame, OneProcessDecider, OneProcessGame
from controller.box.deciding import Decider
from controller.box.press import Press
from controller.box.runtime import Box
from controller.box.views import Publisher
from controller.screen import live, loop
from controller.web import server
from games import registry

#: what only the one-process baseline used, by where it was
BASELINE_ONLY = {
    Decider: {"take", "wait_past", "keep_events", "events", "stepped_at"},
    loop: {"FrameRun", "frame_run", "Pace", "frames_loop", "host_key", "run", "LightDirector"},
    loop.Presenter: {"draw", "light", "react", "lights", "close"},
    live: {"LiveGame", "answer_box_keys"},
    server: {"end_by_escape", "_decided_here", "_events_of"},
    server.CompanionServer: {"rebind"},
    Publisher: {"rebind"},
}


def test_the_product_keeps_no_seam_of_the_one_process_baseline() -> None:
    spec = registry.get("quiz")
    decider = Decider(Box(spec, spec.settings(2)), lambda: 0, lambda: None)
    found = {where: set(dir(where)) for where in BASELINE_ONLY}
    found[Decider] |= set(vars(decider))
    left = {getattr(where, "__name__", str(where)): sorted(names & found[where])
            for where, names in BASELINE_ONLY.items()}
    assert not any(left.values()), left
    assert "lights" not in inspect.signature(loop.Presenter).parameters
    assert "lights" not in inspect.signature(live.presenter_for).parameters
    assert importlib.util.find_spec("controller.web.attach") is None, "the in-process phones' server is a harness's"
    assert importlib.util.find_spec("controller.web.overlay") is None, "the phones' panel is drawn by the screen"
    assert importlib.util.find_spec("controller.screen.phones_panel") is not None
    assert issubclass(OneProcessGame, LiveGame) and hasattr(FrameRun, "answer_shows")


def test_the_phones_server_serves_only_what_it_is_given_to_publish() -> None:
    """No snapshots built from a box of its own, no pygame event posted for the
    host page's "end": the publisher and the end come from whoever starts it."""
    parameters = inspect.signature(server.CompanionServer).parameters
    assert parameters["publisher"].default is inspect.Parameter.empty
    assert parameters["end_game"].default is inspect.Parameter.empty
    assert "next_game" not in parameters
    assert "pygame" not in inspect.getsource(server)


def test_the_baseline_s_deciding_thread_keeps_what_it_decided_for_its_frames() -> None:
    """The baseline's own seam, on the product's thread: a decided press waits
    for the frame thread's ``take``, once."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2))
    decider = OneProcessDecider(box, lambda: 500_000, lambda: None)
    box.host("arm", 0)
    box.press(Press(1, "bell", 10_000))
    decider.decide(500_000, None)
    decider.wait_past(500_000, 0.0)  # stepped already: no wait
    with box.lock:
        decided = [e.kind for e in decider.take()]
        again = decider.take()
    decider.stop()
    assert "winner" in decided and again == []
    assert decider.stepped_at == 500_000
