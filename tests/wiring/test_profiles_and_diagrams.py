"""Shipped profiles check, bad profiles explain themselves, diagrams regenerate."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controller.box import profile as profile_mod
from controller.box.profile import ProfileError, parse
from controller.cli import main
from controller.wiring_pack import diagram, table
from controller.wiring_pack.commands import shipped_profiles

DIAGRAMS = profile_mod.wiring_dir() / "diagrams"
SHIPPED = shipped_profiles()
SVG = "{http://www.w3.org/2000/svg}"
REGENERATE = "python -m controller.wiring_pack.commands"


def test_the_profiles_the_issue_asks_for_are_shipped():
    names = {p.stem for p in SHIPPED}
    assert {"header-4", "header-4-full", "header-7-bells", "board-7-schicki"} <= names
    full = profile_mod.load("header-4-full")
    assert [len(s.buttons) for s in full.stations] == [4, 4, 4, 4]
    bells = profile_mod.load("header-7-bells")
    assert len(bells.stations) == 7 and all(s.inputs.keys() == {"bell"} and s.lights for s in bells.stations)
    schicki = profile_mod.load("board-7-schicki")
    assert schicki.source == "board" and len(schicki.stations) == 7
    from games.schicki_micki.buttons import FULL_INPUTS

    for st in schicki.stations:
        assert st.kind == "full"
        assert tuple(st.inputs) == FULL_INPUTS  # every button the game maps, none it ignores
        assert set(st.lights) == set(st.inputs)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_profile_passes_check(path: Path, capsys):
    assert main(["wiring", "check", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"OK {path.stem}:")


GOOD = {
    "name": "t",
    "stations": [{"name": "Red", "inputs": {"bell": 17, "a": 27}, "lights": {"bell": 23}}],
}


def _with(**station_changes) -> dict:
    st = {**GOOD["stations"][0], **station_changes}
    return {**GOOD, "stations": [st]}


@pytest.mark.parametrize(
    "data, problem, fix",
    [
        (_with(inputs={"bell": 17, "a": 17}), "uses GPIO 17, already used by station 0 ('Red') input 'bell'", "give each one its own pin"),
        (_with(lights={"bell": 17}), "light 'bell' uses GPIO 17, already used by", "give each one its own pin"),
        (_with(inputs={"bell": 40}), "uses GPIO 40, which does not exist on the header", "use a BCM number from 2 to 27"),
        (_with(inputs={"bell": 14}), "uses GPIO 14: TXD, the serial console", "choose another pin"),
        (_with(inputs={"bell": 0}), "uses GPIO 0: ID_SD, reserved for the HAT ID EEPROM", "ID_SD"),
        ({**GOOD, "stations": [{**GOOD["stations"][0], "inptus": {}}]}, "unknown key 'inptus'", "check the spelling"),
        ({**GOOD, "debounce": {"glitch": 5}}, "unknown key 'glitch'", "allowed: active_level, bounce_us, glitch_us, stuck_us"),
    ],
    ids=["pin-twice", "light-on-input-pin", "no-such-pin", "reserved-serial", "reserved-eeprom", "unknown-station-key", "unknown-debounce-key"],
)
def test_bad_profiles_name_the_problem_and_the_fix(data, problem, fix):
    with pytest.raises(ProfileError) as err:
        parse(data)
    assert problem in str(err.value)
    assert fix in str(err.value)


def test_wiring_check_reports_a_bad_profile_file(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[stations]]\nname = "Red"\ninputs = { bell = 17, a = 17 }\n', encoding="utf-8")
    assert main(["wiring", "check", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("FAIL") and "already used by" in err and "give each one its own pin" in err


def test_board_channel_on_the_shift_register_bus_fails_check(tmp_path, capsys):
    bad = tmp_path / "bus.toml"
    bad.write_text('source = "board"\n[[stations]]\nname = "Red"\ninputs = { bell = 21 }\n', encoding="utf-8")
    assert main(["wiring", "check", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "board input channel 21 is not an input the board reads (see wiring/board-pinmap.toml)" in err
    assert "use 0..19 (direct GP pins) or 32..95 (SN74HCS165 chain)" in err
    with pytest.raises(SystemExit, match="not an input"):
        main(["wiring", "draw", str(bad), "-o", str(tmp_path / "x.svg")])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_committed_diagrams_regenerate_byte_for_byte(path: Path, tmp_path, capsys):
    prof = profile_mod.load(str(path))
    out = tmp_path / "d.svg"
    assert main(["wiring", "draw", str(path), "-o", str(out)]) == 0
    committed_svg = DIAGRAMS / f"{path.stem}.svg"
    committed_txt = DIAGRAMS / f"{path.stem}.txt"
    assert committed_svg.exists(), f"no {committed_svg}: run {REGENERATE}"
    assert out.read_bytes() == committed_svg.read_bytes(), f"{committed_svg} is stale: run {REGENERATE}"
    capsys.readouterr()
    assert main(["wiring", "table", str(path)]) == 0
    assert capsys.readouterr().out == committed_txt.read_text(encoding="utf-8"), f"stale table: run {REGENERATE}"
    assert diagram.render(prof) == diagram.render(profile_mod.load(str(path)))  # deterministic


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_svg_parses_and_names_every_station_and_input(path: Path):
    prof = profile_mod.load(str(path))
    root = ET.parse(DIAGRAMS / f"{path.stem}.svg").getroot()
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox", "").startswith("0 0 ")
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    joined = "\n".join(texts)
    for st in prof.stations:
        for name in st.inputs:
            assert any(t.startswith(f"{st.name} {name} ") or f": {st.name} {name}" in t for t in texts), (st.name, name)
        for name in st.lights:
            assert f"{st.name} {name} light" in joined
    for action in prof.host:
        assert f"Host {action}" in joined


def test_header_diagram_labels_each_pin_with_its_gpio():
    root = ET.parse(DIAGRAMS / "header-4-full.svg").getroot()
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "Red bell  (GPIO4, input)" in texts
    assert "Yellow bell light  (GPIO25, out to ULN2803)" in texts
    assert "GPIO14 (TXD)  free" in texts  # the reserved pins are shown unused


def test_table_rows_give_pin_ground_and_light_for_a_meter():
    text = table.render(profile_mod.load("header-4-full"))
    red_bell = next(line for line in text.splitlines() if re.match(r"Red\s+bell\s", line))
    assert re.search(r"\b4\s+header pin 7\s+header pin 9\s+2\s+header pin 3 -> ULN2803 #0 IN1", red_bell)
    board = table.render(profile_mod.load("board-7-schicki"))
    cyan_red = next(line for line in board.splitlines() if re.match(r"Cyan\s+red\s", line))
    assert "87" in cyan_red and "SR chip 6 bit 7 (SN74HCS165 #6 D7, pin 6)" in cyan_red
    assert "595 chip 6 Q7 (pin 7) -> ULN2803 #6 OUT8 (pin 11)" in cyan_red


def test_wiring_test_command_saves_its_result_beside_the_profile(tmp_path, capsys):
    prof = tmp_path / "mine.toml"
    prof.write_text('[[stations]]\nname = "Red"\ninputs = { bell = 17 }\n', encoding="utf-8")
    code = main(["wiring", "test", str(prof), "--mock", "--timeout", "2", "--no-lights"])
    assert code == 0  # --mock plays the builder: it pressed the bell when asked
    saved = (tmp_path / "mine.mock.test-result.txt").read_text(encoding="utf-8")  # a try-out: beside a real one
    assert "Red bell" in saved and saved.rstrip().endswith("RESULT: MOCK PASS")
    assert "saved to" in capsys.readouterr().out


def test_board_diagram_shows_the_bus_pins_not_shift_register_channels_on_them():
    root = ET.parse(DIAGRAMS / "board-7-schicki.svg").getroot()
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "Red bell  (ch 0, GP0)" in texts
    assert "GP17: SN74HCS165 SH/LD (pin 1)" in texts and "GP19: SPI MOSI: 74HC595 #0 SER (pin 14)" in texts
    # the pin map's direct channels 16..19 are GP21, GP22, GP26, GP27: labelled by channel, not GP
    assert "GP21  free (ch 16)" in texts and "GP27  free (ch 19)" in texts
    # GP28 is the 595s' /OE (the firmware releases it after its first write), not an input
    assert "GP28: 74HC595 /OE (pin 13), 10k to 3V3" in texts
    # channel 32 is SN74HCS165 chip 0 bit 0, never a Pico pin
    assert not any("(ch 32," in t for t in texts)
    assert "bit 0 (D0, pin 11)  ch 32: Red umbrella" in texts


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_diagrams_draw_the_safety_parts_on_every_input_and_lamp(path: Path):
    root = ET.parse(DIAGRAMS / f"{path.stem}.svg").getroot()
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "1 kΩ 1 % series" in texts and "every input, always" in texts
    assert "1 nF C0G" in texts and "ESD ≤ 1 µA" in texts
    assert "PTC 250 mA (one per station)" in texts and "COM to +12 V: always" in texts
    assert not any("long cables only" in t for t in texts)
    assert not any("+12 V" in t for t in texts if t.startswith("  pin") and "lamp" not in t and "PTC" not in t)
    if path.stem.startswith("header"):
        assert "signals: RJ45 jack #1, labelled BUZZER - NOT ETHERNET" in texts
        assert "  pin 1: bell (white/orange)" in texts and "  pin 2: ground of bell (orange)" in texts
    else:
        assert "SN74HCS165 inputs, Schmitt (chip 0 QH -> SPI MISO)" in texts
        assert "595 /OE (pin 13): 10 kΩ to 3.3 V;" in texts
        assert "  pin 14: ground of bell" in texts


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_a_mock_try_out_says_mock_and_never_overwrites_a_real_result(tmp_path, capsys, language):
    """A checkout's real result stays; the try-out is saved beside it, MOCK on its first and last lines."""
    from games.i18n import set_language

    prof = tmp_path / "mine.toml"
    prof.write_text('[[stations]]\nname = "Red"\ninputs = { bell = 17 }\n', encoding="utf-8")
    real = tmp_path / "mine.test-result.txt"
    real.write_text("Wiring test of mine: PASS (0 problems, 0 warnings)\n\nRESULT: PASS\n", encoding="utf-8")
    try:
        assert main(["--lang", language, "wiring", "test", str(prof), "--mock", "--timeout", "2", "--no-lights"]) == 0
        tried = (tmp_path / "mine.mock.test-result.txt").read_text(encoding="utf-8").splitlines()
        assert "MOCK PASS" in tried[0] and tried[-1].endswith("MOCK PASS"), tried
        assert real.read_text(encoding="utf-8").endswith("RESULT: PASS\n")  # untouched
        capsys.readouterr()
        with pytest.raises(SystemExit) as refused:  # nor when pointed at it with --report
            main(["--lang", language, "wiring", "test", str(prof), "--mock", "--report", str(real), "--no-lights"])
        assert str(real) in str(refused.value) and "--mock" in str(refused.value) and "\n" not in str(refused.value)
        assert real.read_text(encoding="utf-8").endswith("RESULT: PASS\n")
    finally:
        set_language("en")


def test_testing_a_shipped_profile_saves_in_the_data_folder_not_in_the_read_only_package(
        tmp_path, capsys, monkeypatch):
    """An installed wheel's profiles are in controller/_shipped/, replaced by an update
    and not writable by the kiosk's user: the result goes to $XDG_DATA_HOME, is read
    from there (a try-out refuses to overwrite it), and an older one beside the
    profile is named, not moved."""
    import shutil

    from controller.system import resources

    installed = tmp_path / "site" / "_shipped"
    shutil.copytree(resources.CHECKOUT / "wiring", installed / "wiring",
                    ignore=shutil.ignore_patterns("*.test-result.txt", "diagrams"))
    monkeypatch.setattr(resources, "INSTALLED", installed)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    wiring = installed / "wiring"
    old = wiring / "header-4.mock.test-result.txt"
    old.write_text("RESULT: MOCK PASS\n", encoding="utf-8")
    before = sorted(p.name for p in wiring.iterdir())
    for path in wiring.iterdir():
        path.chmod(0o444)
    wiring.chmod(0o555)  # read-only, as for a user who is not root (root could still write: checked below)
    try:
        assert main(["wiring", "test", "header-4", "--mock", "--timeout", "2", "--no-lights"]) == 0
    finally:
        wiring.chmod(0o755)
    saved = tmp_path / "data" / "buzzerbox" / "wiring-tests" / "header-4.mock.test-result.txt"
    assert saved.read_text(encoding="utf-8").rstrip().endswith("RESULT: MOCK PASS")
    assert sorted(p.name for p in wiring.iterdir()) == before  # nothing written in the package
    assert old.read_text(encoding="utf-8") == "RESULT: MOCK PASS\n"  # nor moved
    out = capsys.readouterr().out
    assert f"saved to {saved}" in out and str(old) in out

    real = saved.with_name("header-4.test-result.txt")  # a real result, in the data folder
    real.write_text("Wiring test of header-4: PASS\n\nRESULT: PASS\n", encoding="utf-8")
    with pytest.raises(SystemExit) as refused:
        main(["wiring", "test", "header-4", "--mock", "--report", str(real), "--no-lights"])
    assert str(real) in str(refused.value) and "\n" not in str(refused.value)


def test_a_result_that_cannot_be_saved_says_so_in_one_line(tmp_path, capsys):
    prof = tmp_path / "mine.toml"
    prof.write_text('[[stations]]\nname = "Red"\ninputs = { bell = 17 }\n', encoding="utf-8")
    with pytest.raises(SystemExit) as failed:
        main(["wiring", "test", str(prof), "--mock", "--timeout", "2", "--no-lights",
              "--report", str(tmp_path / "mine.toml" / "result.txt")])
    assert "--report" in str(failed.value) and "\n" not in str(failed.value)
