"""``wiring check``: every warning and every refusal, each on a profile that triggers it."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.box import profile as profile_mod
from controller.box.profile import FrontEnd, ProfileError, parse
from controller.box.sources.gpio import GpioSource, mock_factory
from controller.cli import main
from controller.wiring_pack import checks, table


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def check(tmp_path: Path, capsys, text: str) -> tuple[int, str, str]:
    code = main(["wiring", "check", write(tmp_path, text)])
    out = capsys.readouterr()
    return code, out.out, out.err


QUIET = '[[stations]]\nname = "Red"\ninputs = { bell = 17 }\n[[stations]]\nname = "Blue"\ninputs = { bell = 27 }\n'


def test_a_quiet_profile_has_no_warnings_and_prints_its_timing(tmp_path, capsys):
    code, out, _ = check(tmp_path, capsys, QUIET)
    assert code == 0
    assert "WARN" not in out
    assert "front end of every station input: 1000 Ω 1 % series, 1 nF 5 %, internal pull-up, gold contacts" in out
    assert "worst-case spread between two stations 0.21 µs: 1 µs is added to every stamp's precision" in out


@pytest.mark.parametrize(
    ("pins", "warning"),
    [
        ("bell = 4", "GPIO 4 (Red bell) on the 1-Wire pins: keep dtoverlay=w1-gpio off"),
        ("bell = 8", "GPIO 8 (Red bell) on the SPI0 pins: keep dtparam=spi off"),
        ("bell = 19", "GPIO 19 (Red bell) on the PCM/I2S audio pins: keep dtparam=i2s"),
    ],
    ids=["one-wire", "spi0", "pcm"],
)
def test_pins_of_an_interface_are_warned(tmp_path, capsys, pins, warning):
    code, out, _ = check(tmp_path, capsys, f'[[stations]]\nname = "Red"\ninputs = {{ {pins} }}\n')
    assert code == 0
    assert f"WARN {warning}" in out


def test_a_light_on_gpio_2_warns_of_i2c_and_its_boot_glow(tmp_path, capsys):
    code, out, _ = check(tmp_path, capsys, '[[stations]]\nname = "Red"\ninputs = { bell = 17 }\nlights = { bell = 2 }\n')
    assert code == 0
    assert "WARN GPIO 2 (Red bell light) on the I2C1 pins: keep dtparam=i2c_arm off" in out
    assert "WARN GPIO 2 (Red bell light) has a fixed 1.8 kΩ pull-up on the Pi's board: its lamp glows while the Pi boots" in out


def test_a_host_button_on_gpio_3_needs_a_small_series_resistor(tmp_path, capsys):
    base = '[[stations]]\nname = "Red"\ninputs = { bell = 17 }\n[host]\narm = 3\n'
    code, _, err = check(tmp_path, capsys, base)
    assert code == 1
    assert "Host arm: pressed, the pin sits at 1.27 V" in err and "use 100–220 Ω in series there" in err
    code, out, _ = check(tmp_path, capsys, base + "[host_front_end]\nseries_ohms = 220\n")
    assert code == 0
    assert "WARN GPIO 3 (Host arm) has a fixed 1.8 kΩ pull-up, not the internal one: pressed it reads 0.40 V" in out
    assert "WARN Host arm: a 220 Ω series resistor lets 38 mA into the pin if 12 V reaches the cable" in out
    assert "front end of host buttons: 220 Ω 1 % series" in out


def test_a_station_input_on_gpio_2_is_refused(tmp_path, capsys):
    code, _, err = check(tmp_path, capsys, QUIET.replace("bell = 27", "bell = 2"))
    assert code == 1
    assert "Blue bell's front end" in err and "the board's fixed 1800 Ω" in err
    assert "GPIO 2 and 3 have fixed 1.8 kΩ pull-ups: move the input to another GPIO" in err


def test_competing_inputs_with_different_parts_are_refused(tmp_path, capsys):
    # the long-cable station got its RC filter, the short one did not
    text = QUIET.replace('name = "Blue"\n', 'name = "Blue"\nfront_end = { capacitor_nf = 10.0, capacitor_tolerance = 0.2 }\n')
    code, _, err = check(tmp_path, capsys, text)
    assert code == 1
    assert "Blue bell's front end (1000 Ω 1 % series, 10 nF 20 %" in err
    assert "every station input must have identical parts, or the different one is stamped later every time" in err


def test_the_old_guides_front_end_costs_microseconds_of_precision(tmp_path, capsys):
    text = "[front_end]\nseries_tolerance = 0.1\ncapacitor_nf = 10.0\ncapacitor_tolerance = 0.2\n" + QUIET
    code, out, _ = check(tmp_path, capsys, text)
    assert code == 0
    assert "a press reaches the pin 5.04-14.53 µs after the contact closes" in out
    assert "spread between two stations 9.23 µs: 10 µs is added" in out
    assert profile_mod.load(write(tmp_path, text)).precision_extra_us(0, "bell") == 10


def test_silver_contacts_on_weak_pull_ups_are_warned(tmp_path, capsys):
    code, out, _ = check(tmp_path, capsys, '[front_end]\ncontacts = "silver"\n' + QUIET)
    assert code == 0
    assert "WARN Red bell: the pull-up passes 0.07 mA through a closed contact, below the ~1 mA silver contacts need" in out
    code, out, _ = check(tmp_path, capsys, '[front_end]\ncontacts = "silver"\npull_up = "external"\npull_up_ohms = 3300\n' + QUIET)
    assert "WARN" not in out


def test_a_leaky_tvs_is_refused(tmp_path, capsys):
    code, _, err = check(tmp_path, capsys, "[front_end]\nesd_leakage_ua = 800\n" + QUIET)
    assert code == 1
    assert "leakage pulls the idle line down to" in err and "use a low-leakage ESD array (≤ 1 µA)" in err


def test_small_series_resistor_is_warned(tmp_path, capsys):
    code, out, _ = check(tmp_path, capsys, "[front_end]\nseries_ohms = 330\n" + QUIET)
    assert code == 0
    assert "WARN Red bell: a 330 Ω series resistor lets 25 mA into the pin" in out


def test_offsets_are_shown_by_check_and_table_and_taken_off_gpio_stamps(tmp_path, capsys):
    text = QUIET.replace('name = "Blue"\n', 'name = "Blue"\noffset_us = 350\n')
    code, out, _ = check(tmp_path, capsys, text)
    assert code == 0 and "station offsets (drop jig, taken off each stamp): Red 0 µs, Blue 350 µs" in out
    prof = profile_mod.load(write(tmp_path, text))
    assert "Red 0 µs, Blue 350 µs" in table.render(prof)

    class Sink:
        edges: list[tuple[int, int, int]] = []

        def edge(self, edge, precision_us):
            self.edges.append((edge.station, edge.t_us, precision_us))

    factory = mock_factory()
    source = GpioSource(prof, factory)
    sink = Sink()
    source.start(sink)
    factory.pin(17).drive(0, 1_000_000)
    factory.pin(27).drive(0, 1_000_200)  # Blue's switch is 350 µs slower: Blue really pressed first
    source.stop()
    assert sink.edges == [(0, 1_000_000, 2), (1, 999_850, 2)]


def test_board_pinmap_beside_the_profiles_is_recognised(capsys):
    assert main(["wiring", "check", "board-pinmap"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK board-pinmap: the firmware board's pin map, not a wiring profile")
    with pytest.raises(ProfileError, match="is the firmware board's pin map, not a wiring profile"):
        profile_mod.load("board-pinmap")


def test_a_typo_gets_the_closest_name_and_every_profile_is_listed(capsys):
    assert main(["wiring", "check", "header-4-ful"]) == 1
    err = capsys.readouterr().err
    assert "(did you mean header-4-full?)" in err
    assert "board-7-schicki, header-4, header-4-full, header-7-bells" in err
    for impossible in ("x" * 5000, "a\x00b"):
        assert main(["wiring", "check", impossible]) == 1
        assert capsys.readouterr().err.startswith("FAIL no wiring profile")
    with pytest.raises(ProfileError, match=r"'colour' \(did you mean color\?\)"):
        parse({"stations": [{"inputs": {"bell": 17}, "colour": "#fff"}]})


def test_shipped_profiles_keep_gpio_2_and_3_off_their_inputs():
    for name in ("header-4", "header-4-full", "header-7-bells"):
        prof = profile_mod.load(name)
        assert not {2, 3} & set(prof.input_pins()), name
        assert all(fe == FrontEnd() for fe in prof.front_ends.values()), name


def test_checks_name_every_interface_pin_once():
    pins = [pin for _function, group, _what in checks.PIN_FUNCTIONS for pin in group]
    assert sorted(pins) == [2, 3, 4, 7, 8, 9, 10, 11, 18, 19, 20, 21]


def test_board_presses_carry_the_front_end_spread_and_lose_the_station_offset(tmp_path, capsys):
    """The board source applies the profile like the GPIO source: the drop-jig
    offset comes off the stamp and the front end's spread widens its precision."""
    from controller.box.press import Press
    from controller.box.sources.board import BoardSource
    from firmware.buzzer.proto import frame
    from tests.firmware.test_fw_driver_hardening import HELLO

    text = 'source = "board"\n[[stations]]\nname = "Red"\noffset_us = 90\ninputs = { bell = 0 }\n'
    code, out, _ = check(tmp_path, capsys, text)
    assert code == 0
    assert "station offsets (drop jig, taken off each stamp): Red 90 µs" in out
    path = tmp_path / "red.toml"
    path.write_text(text)
    prof = profile_mod.load(str(path))
    extra = prof.precision_extra_us(0, "bell")
    assert extra >= 1

    def stamped(source: BoardSource) -> Press:
        s = source.session
        s.sync_burst = 1  # one clock reply maps the board's clock (as the driver tests do)
        s.opened(0)
        s.receive(frame(HELLO), 0)
        s.receive(frame("K from=1 lost=0"), 0)
        s.receive(frame("C r=1 b=0badcafe w=0 t=1000"), 10)
        got = s.receive(frame("P 1 b=0badcafe c=0 w=0 t=5000 n=1 p=1"), 10_000)
        assert [type(o) for o in got] == [Press]
        return got[0]

    plain = stamped(BoardSource(prof.input_pins(), prof.light_pins()))
    adjusted = stamped(BoardSource.from_profile(prof))
    assert adjusted.t_us == plain.t_us - 90
    assert adjusted.precision_us == plain.precision_us + extra


def test_the_lockout_box_pin_map_beside_the_profiles_is_recognised(capsys):
    """wiring/board-pinmap-lockout.toml (the stock map + [standalone], by ``extends``) is a
    pin map: checked as one, never offered or loaded as a wiring profile."""
    assert main(["wiring", "check", "board-pinmap-lockout"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK board-pinmap-lockout: the firmware board's pin map, not a wiring profile")
    assert "board-pinmap-lockout" not in profile_mod.shipped_names()
    with pytest.raises(ProfileError, match="is the firmware board's pin map, not a wiring profile"):
        profile_mod.load("board-pinmap-lockout")
