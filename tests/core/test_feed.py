"""The benchmarks' synthetic feed (controller/box/feed.py): hours of edges on gpiozero's mock pins."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.box.feed import FORGET_EVERY, Feed, feed_factory


def test_a_fed_game_forgets_its_mock_lamps_levels_with_its_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lamp on mock pins remembers every level it had (a blinking one a few a second, which grew
    the deciding process of a benchmark by megabytes an hour): the feed forgets them too."""
    from gpiozero import LED, Device
    from gpiozero.pins.mock import MockFactory

    monkeypatch.setattr(Device, "pin_factory", MockFactory())  # the lamps' factory (GPIOZERO_PIN_FACTORY=mock)
    lamp = LED(18)
    try:
        for _ in range(300):
            lamp.on()
            lamp.off()
        assert len(lamp.pin.states) > 600
        path = tmp_path / "feed"
        path.write_text("".join(f"5 {i % 2} {1_000 + i}\n" for i in range(FORGET_EVERY)))
        feed = Feed(path, feed_factory())
        feed.run()  # on this thread: it reads to the end of the file
        assert feed.edges == FORGET_EVERY
        assert len(lamp.pin.states) == 1  # only the level it has now
    finally:
        lamp.close()
