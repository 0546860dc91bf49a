"""Wiring profiles: mistakes are caught before a pin is opened, with the fix named."""

from __future__ import annotations

import pytest

from controller.box.profile import ProfileError, parse
from controller.cli import main


def profile(**overrides):
    data = {
        "name": "t",
        "source": "gpio",
        "stations": [
            {"name": "A", "inputs": {"bell": 17, "a": 27}, "lights": {"bell": 23}},
            {"name": "B", "inputs": {"bell": 5}},
        ],
    }
    data.update(overrides)
    return data


def test_good_profile_maps_pins_to_stations():
    p = parse(profile())
    assert p.input_pins() == {17: (0, "bell"), 27: (0, "a"), 5: (1, "bell")}
    assert p.light_pins() == {(0, "bell"): 23}


@pytest.mark.parametrize(
    ("change", "problem", "fix"),
    [
        ({"stations": [{"inputs": {"bell": 17}}, {"inputs": {"bell": 17}}]}, "already used by station 0", "its own pin"),
        ({"stations": [{"inputs": {"bell": 40}}]}, "does not exist", "from 2 to 27"),
        ({"stations": [{"inputs": {"bell": 14}}]}, "serial console", "raspi-config"),
        ({"stations": [{"inputs": {"bell": 0}}]}, "EEPROM", "EEPROM"),
        ({"stations": [{"inputs": {"bell": 2}, "colour": "red"}]}, "unknown key 'colour'", "spelling"),
        ({"stations": [{"inputs": {"a": 2}}]}, "needs a 'bell'", "bell"),
        ({"stations": [{"inputs": {"bell": 2}, "lights": {"bell": 2}}]}, "already used", "own pin"),
        ({"stations": [{"inputs": {"bell": 2}, "lights": {"x": 3}}]}, "no input of that name", "name the light"),
        ({"debounce": {"glitch_us": 20000, "bounce_us": 1000}}, "glitch_us", "bounce_us"),
        ({"source": "usb"}, "source 'usb'", "gpio"),
        ({"stations": []}, "no [[stations]]", "add one"),
    ],
)
def test_mistakes_name_the_problem_and_the_fix(change, problem, fix):
    with pytest.raises(ProfileError) as err:
        parse(profile(**change))
    assert problem in str(err.value)
    assert fix in str(err.value)


def test_board_profiles_use_channels():
    p = parse({"source": "board", "stations": [{"inputs": {"bell": 40}, "lights": {"bell": 40}}]})
    assert p.input_pins() == {40: (0, "bell")}
    with pytest.raises(ProfileError, match="channels run"):
        parse({"source": "board", "stations": [{"inputs": {"bell": 500}}]})


def test_wiring_check_command(tmp_path, capsys):
    assert main(["wiring", "check", "header-4"]) == 0
    assert "OK header-4: 4 stations" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text('[[stations]]\ninputs = { bell = 17, a = 17 }\n')
    assert main(["wiring", "check", str(bad)]) == 1
    assert "already used" in capsys.readouterr().err
    assert main(["wiring", "check", str(tmp_path / "missing")]) == 1
    assert "header-4" in capsys.readouterr().err  # lists the shipped profiles


def test_every_command_has_help(capsys):
    for command in (["--help"], ["simulate", "--help"], ["scenario", "--help"], ["replay", "--help"],
                    ["resume", "--help"], ["play", "--help"], ["wiring", "check", "--help"], ["demo", "--help"]):
        with pytest.raises(SystemExit) as done:
            main(command)
        assert done.value.code == 0
    assert "simulate" in capsys.readouterr().out


def test_roll_call_asks_every_station_for_its_bell_once():
    p = parse(profile())
    assert p.roll_call() == [(0, "bell", "A"), (1, "bell", "B")]
    assert {(st, name) for st, name, _ in p.roll_call()} <= set(p.input_pins().values())


def test_front_end_and_offsets_reach_the_profile():
    p = parse(profile(front_end={"capacitor_nf": 10.0, "capacitor_tolerance": 0.2, "series_tolerance": 0.1},
                      stations=[{"name": "A", "inputs": {"bell": 17}, "offset_us": 120}, {"name": "B", "inputs": {"bell": 5}}]))
    assert p.front_end(0, "bell").capacitor_nf == 10.0 and p.front_end(1, "bell") == p.front_end(0, "bell")
    assert p.precision_extra_us(0, "bell") == 10  # the old 10 nF guide: 9.2 µs worst-case spread
    assert (p.offset_us(0), p.offset_us(1), p.offset_us(-1)) == (120, 0, 0)
