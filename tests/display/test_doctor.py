"""``doctor`` ends with a verdict: can a game run on this machine, and with what stations."""

from __future__ import annotations

import pytest

from controller.cli import main
from controller.screen import doctor


def test_no_screen_is_not_ready_whatever_the_gpio() -> None:
    for gpio in (None, "LGPIOFactory"):
        line, ready = doctor.verdict([], gpio)
        assert not ready and line.startswith("verdict: NOT READY") and "DISPLAY" in line


def test_a_screen_without_gpio_plays_with_keyboard_stations() -> None:
    line, ready = doctor.verdict(["x11"], None)
    assert ready and "keyboard stations" in line and "x11" in line and "lgpio" in line


def test_a_screen_and_gpio_is_ready() -> None:
    line, ready = doctor.verdict(["kmsdrm"], "LGPIOFactory")
    assert ready and line == "verdict: ready: a screen (kmsdrm) and GPIO stations (LGPIOFactory)"


@pytest.mark.parametrize(("opens", "code"), [((), 1), (("dummy", "offscreen"), 1), (("x11", "dummy"), 0)])
def test_doctor_exits_1_when_no_driver_shows_a_screen(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                                       opens: tuple[str, ...], code: int) -> None:
    monkeypatch.setattr(doctor, "probe", lambda kind, name, timeout=8.0: (kind == "audio" or name in opens, "probed"))
    assert main(["doctor"]) == code
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("verdict: ") and ("NOT READY" in last) == (code == 1)
