"""``doctor`` ends with a verdict: can a game run on this machine, and with what stations."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.box.sources import linefd
from controller.cli import main
from controller.screen import doctor
from games.i18n import _, set_language


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


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
def test_doctor_says_whether_the_kernels_line_events_can_be_read(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lang: str) -> None:
    """The fast way to read the stations (the kernel's line events) needs the header's
    GPIO chip: ``doctor`` names it, or says why not and what it costs, in the reader's language."""
    set_language(lang)
    real = linefd.header_chip
    monkeypatch.setattr(linefd, "header_chip", lambda: real(tmp_path))  # no gpiochip here
    said = doctor.line_events()
    assert said == _("GPIO line events: not available ({why}); the stations' inputs go through the pin factory "
                     "(on lgpio's pins every decision waits up to 2 ms more)").format(
                         why=_("no header GPIO chip in {dev} ({seen})").format(dev=tmp_path, seen=_("no /dev/gpiochip*")))
    assert (lang == "en") == ("not available" in said) and "2 ms" in said
    monkeypatch.setattr(linefd, "header_chip", lambda: (Path("/dev/gpiochip0"), "pinctrl-rp1"))
    said = doctor.line_events()
    assert "/dev/gpiochip0 (pinctrl-rp1)" in said and (lang == "en") == ("kernel's edge events" in said)
