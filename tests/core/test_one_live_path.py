"""One live path (issue 47): the product keeps none of the one-process
baseline's seams. Its deciding thread hands what it decided on only through
``after`` (the deciding process publishes there), the frame loop draws
simulated players' games with no hook but ``advance``, and the screen's side
runs no live game of its own (``LiveGame``, a box beside the frames, is the
baseline's: benchmarks/one_process.py).
"""

from __future__ import annotations

import dataclasses

from benchmarks.one_process import LiveGame, OneProcessDecider, OneProcessGame
from controller.box.deciding import Decider
from controller.box.press import Press
from controller.box.runtime import Box
from controller.screen import live
from controller.screen.loop import FrameRun
from games import registry

#: what only the one-process baseline used, by where it was
BASELINE_ONLY = {
    Decider: {"take", "wait_past", "keep_events", "events", "stepped_at"},
    FrameRun: {"before_draw", "after_flip", "closing"},
}


def test_the_product_keeps_no_seam_of_the_one_process_baseline() -> None:
    spec = registry.get("quiz")
    decider = Decider(Box(spec, spec.settings(2)), lambda: 0, lambda: None)
    found = {
        Decider: set(dir(Decider)) | set(vars(decider)),
        FrameRun: {f.name for f in dataclasses.fields(FrameRun)},
    }
    left = {cls.__name__: sorted(BASELINE_ONLY[cls] & names) for cls, names in found.items()}
    assert left == {"Decider": [], "FrameRun": []}, left
    assert issubclass(OneProcessGame, LiveGame)
    assert not hasattr(live, "LiveGame"), "the screen's process runs no live game: the deciding process does"


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
