"""Deploy tooling: the pin map stays one truth; install explains a missing mpremote."""

from __future__ import annotations

import argparse

import pytest

from controller.apps import firmware_tools
from controller.apps.firmware_tools import FirmwareError, render_pinmap


def test_firmware_pinmap_is_generated_from_the_wiring_toml() -> None:
    assert firmware_tools.PINMAP_PY.read_text() == render_pinmap(), (
        "firmware/buzzer/pinmap.py is stale: run `buzzerbox firmware pinmap`")


def test_the_lockout_box_pin_map_ships_generated_from_its_toml() -> None:
    """The shipped lockout box map is the stock map plus [standalone] and [pio_lockout]:
    its inputs are the stock ones less the GPIOs the PIO lockout drives (lamps, LOCKs),
    and the LED is PIO1's LOCK, not the heartbeat's."""
    from firmware.buzzer import pinmap, pinmap_lockout

    assert firmware_tools.LOCKOUT_PY.read_text() == render_pinmap(firmware_tools.LOCKOUT_TOML), (
        "firmware/buzzer/pinmap_lockout.py is stale: run `buzzerbox firmware pinmap`")
    stock, lockout = firmware_tools.PINMAP_PY.read_text(), firmware_tools.LOCKOUT_PY.read_text()
    assert "STANDALONE" not in stock and "STANDALONE = " in lockout and "PIO_LOCKOUT = " in lockout
    own = ("STANDALONE", "PIO_LOCKOUT", "DIRECT", "STATUS_LED")
    assert [ln for ln in stock.splitlines()[2:] if not ln.startswith(own)] == [
        ln for ln in lockout.splitlines()[2:] if not ln.startswith(own)]
    pio = pinmap_lockout.PIO_LOCKOUT
    driven = {*pio["lamps"].values(), *pio["locks"]}
    assert {ch: gp for ch, gp in pinmap.DIRECT.items() if gp not in driven} == pinmap_lockout.DIRECT
    assert sorted(pio["lamps"]) == sorted(pinmap_lockout.STANDALONE["bells"])  # every bell in PIO
    assert pio["lights"] == pinmap_lockout.STANDALONE["bells"]  # each PIO lamp shares the bell's light
    assert pinmap_lockout.STATUS_LED is None and 25 in pio["locks"]


@pytest.mark.parametrize(("section", "fix"), [
    ("bells = { 0 = 8 }\nlocks = [27, 25]", "wants bells = { <input channel> = [<lamp GP>, <light channel>] }"),
    ("bells = { 0 = [8, 56] }\nlocks = [27]", "1..8 bells (a state machine each) and 2 locks"),
    ("bells = { 40 = [8, 56] }\nlocks = [27, 26]", "bells [40] are not direct channels"),
    ("bells = { 0 = [8, 56], 1 = [9, 56] }\nlocks = [27, 26]", "each bell's lamp shares its own light channel"),
    ("bells = { 0 = [1, 56] }\nlocks = [27, 26]", "GP1 is both direct channel 1 and pio_lockout lamp of bell 0"),
    ("bells = { 0 = [8, 56] }\nlocks = [27, 24]", "pio_lockout LOCK of PIO1 is on GP24, which the Pico's header"),
])
def test_a_bad_pio_lockout_section_is_one_line_naming_the_fix(tmp_path, section: str, fix: str) -> None:
    """[pio_lockout] over the stock map (GP8 is direct channel 8 there: the map drops it)."""
    stock = firmware_tools.PINMAP_TOML.read_text()
    (tmp_path / "board-pinmap.toml").write_text(stock)
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "board-pinmap.toml"\nstatus_led = false\n[direct]\n0 = 0\n1 = 1\n'
                    f"[pio_lockout]\n{section}\n")
    with pytest.raises(FirmwareError) as err:
        render_pinmap(mine)
    assert fix in str(err.value) and "\n" not in str(err.value)


def test_the_led_is_a_lock_only_without_the_heartbeat(tmp_path) -> None:
    (tmp_path / "board-pinmap.toml").write_text(firmware_tools.PINMAP_TOML.read_text())
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "board-pinmap.toml"\n[direct]\n0 = 0\n[pio_lockout]\n'
                    "bells = { 0 = [8, 56] }\nlocks = [27, 25]\n")
    with pytest.raises(FirmwareError, match="GP25 is the status LED and a LOCK; set status_led = false"):
        render_pinmap(mine)


def test_pinmap_command_writes_every_shipped_map(monkeypatch, tmp_path, capsys) -> None:
    from controller.cli import main

    maps = {toml: tmp_path / py.name for toml, py in firmware_tools.PINMAPS.items()}
    monkeypatch.setattr(firmware_tools, "PINMAPS", maps)
    assert main(["firmware", "pinmap"]) == 0
    for toml, py in maps.items():
        assert py.read_text() == render_pinmap(toml)
    assert capsys.readouterr().out.count("wrote ") == 2


@pytest.mark.parametrize("lockout_box", [False, True])
def test_install_lockout_box_puts_the_lockout_map_on_as_the_pin_map(monkeypatch, lockout_box: bool) -> None:
    from controller.cli import main

    calls = []
    monkeypatch.setattr(firmware_tools.shutil, "which", lambda name: "/usr/bin/mpremote")
    monkeypatch.setattr(firmware_tools.subprocess, "run",
                        lambda cmd: calls.append(cmd) or argparse.Namespace(returncode=0))
    assert main(["firmware", "install", *(["--lockout-box"] if lockout_box else [])]) == 0
    cmd = calls[0]
    source = cmd[cmd.index(":buzzer/pinmap.py") - 1]
    assert source == str(firmware_tools.LOCKOUT_PY if lockout_box else firmware_tools.PINMAP_PY)
    assert ":buzzer/pinmap_lockout.py" not in cmd  # one pin map on the board, under the name it imports


def test_a_pin_map_that_extends_a_missing_or_extending_map_names_the_fix(tmp_path) -> None:
    bad = tmp_path / "mine.toml"
    bad.write_text('extends = "nowhere.toml"\n')
    with pytest.raises(FirmwareError, match="is not another pin map beside it"):
        render_pinmap(bad)
    bad.write_text('extends = "mine.toml"\n')
    with pytest.raises(FirmwareError, match="is not another pin map beside it"):
        render_pinmap(bad)
    (tmp_path / "middle.toml").write_text('extends = "base.toml"\n')
    (tmp_path / "base.toml").write_text(firmware_tools.PINMAP_TOML.read_text())
    bad.write_text('extends = "middle.toml"\n')
    with pytest.raises(FirmwareError, match="middle.toml extends another map itself"):
        render_pinmap(bad)
    (tmp_path / "ok.toml").write_text('extends = "base.toml"\n[debounce]\nbounce_us = 5000\nglitch_us = 500\n'
                                      'stuck_us = 1000000\n')
    assert '"glitch_us": 500' in render_pinmap(tmp_path / "ok.toml")


def test_install_without_mpremote_names_the_fix(monkeypatch) -> None:
    monkeypatch.setattr(firmware_tools.shutil, "which", lambda name: None)
    with pytest.raises(FirmwareError, match="pip install mpremote"):
        firmware_tools.install()


def test_install_runs_mpremote_copying_every_module(monkeypatch) -> None:
    calls = []
    monkeypatch.setattr(firmware_tools.shutil, "which", lambda name: "/usr/bin/mpremote")
    monkeypatch.setattr(firmware_tools.subprocess, "run",
                        lambda cmd: calls.append(cmd) or argparse.Namespace(returncode=0))
    firmware_tools.install("/dev/ttyACM3")
    cmd = calls[0]
    assert cmd[1:3] == ["connect", "/dev/ttyACM3"]
    assert ":buzzer/app.py" in cmd and ":buzzer/debounce.py" in cmd and ":main.py" in cmd


def test_bad_pinmap_toml_names_the_problem(tmp_path) -> None:
    bad = tmp_path / "board.toml"
    bad.write_text("[direct]\n40 = 3\n")
    with pytest.raises(FirmwareError, match="direct channels \\[40\\] out of range; use 0..31"):
        render_pinmap(bad)


def test_cli_registers_firmware_commands() -> None:
    parser = argparse.ArgumentParser(prog="buzzerbox")
    firmware_tools.add_firmware_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["firmware", "install", "--port", "/dev/ttyACM0"])
    assert args.port == "/dev/ttyACM0" and callable(args.func)
    assert parser.parse_args(["firmware", "sim"]).firmware_command == "sim"


def test_repl_asks_the_board_for_a_maintenance_boot_and_the_firmware_takes_it() -> None:
    """`buzzerbox firmware repl` writes `M repl`; the firmware (simulated) calls its
    maintenance hook, the documented way back to the REPL with Ctrl-C disabled."""
    from controller.box.sources.board_sim import BoardSim

    sim = BoardSim()
    called = []
    sim.board._maintenance = lambda: called.append(True)
    try:
        class Port:
            def __init__(self, port: str, baud: int, timeout: float) -> None:
                self.f = open(port, "wb", buffering=0)  # noqa: SIM115

            def __enter__(self) -> Port:
                return self

            def __exit__(self, *exc: object) -> None:
                self.f.close()

            def write(self, data: bytes) -> None:
                self.f.write(data)

            def flush(self) -> None:
                pass

        assert firmware_tools.repl(sim.port, serial_factory=Port) == sim.port
        for _ in range(50):
            sim.advance(1_000)
            if called:
                break
        assert called == [True]
    finally:
        sim.close()


def test_repl_without_a_board_names_the_fix(monkeypatch) -> None:
    monkeypatch.setattr("controller.box.sources.board.find_board_port", lambda: None)
    with pytest.raises(FirmwareError, match="no input board found"):
        firmware_tools.repl()


def test_lockout_box_mode_is_written_into_the_pin_map_and_a_wrong_channel_named(tmp_path) -> None:
    stock = firmware_tools.PINMAP_TOML.read_text()
    toml = tmp_path / "board.toml"
    toml.write_text(stock + "\n[standalone]\nbells = { 0 = 56, 1 = 57 }\nreset = 7\nbuzzer = 63\n")
    text = render_pinmap(toml)
    assert ('STANDALONE = {"bells": {0: 56, 1: 57}, "reset": 7, "buzzer": 63, "buzz_ms": 500, '
            '"tie_us": 20, "hold_s": 60}') in text
    toml.write_text(stock + "\n[standalone]\nbells = { 0 = 56 }\nreset = 7\nbuzzer = 64\n")
    with pytest.raises(FirmwareError, match=r"\[standalone\] names light channel 64, which this board does not have"):
        render_pinmap(toml)
    toml.write_text(stock + "\n[standalone]\nbells = { 0 = 56 }\nreset = 0\nbuzzer = 63\n")
    with pytest.raises(FirmwareError, match="one channel two jobs"):
        render_pinmap(toml)


def test_any_extends_value_is_a_one_line_error_or_a_pin_map(tmp_path) -> None:
    """Fuzz of the new ``extends`` key: whatever it names (a path out of wiring/, itself, a
    number, a list, NUL, a very long name), the generator answers with a pin map or a
    FirmwareError naming the file, never a traceback."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    (tmp_path / "board-pinmap.toml").write_text(firmware_tools.PINMAP_TOML.read_text())
    mine = tmp_path / "mine.toml"
    names = st.one_of(st.text(max_size=300), st.sampled_from(["board-pinmap.toml", "mine.toml", "../etc/passwd",
                                                               "/", ".", "", "board-pinmap.toml\x00"]))

    @settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.one_of(names.map(lambda n: '"' + n.replace("\\", "\\\\").replace('"', '\\"') + '"'),
                     st.integers().map(str), st.just("[1, 2]"), st.just("{ a = 1 }")))
    def fuzz(value: str) -> None:
        mine.write_text(f"extends = {value}\n")
        try:
            text = render_pinmap(mine)
        except FirmwareError as exc:
            assert "\n" not in str(exc) and str(mine) in str(exc)
        else:
            assert text.startswith('"""The board') and "DIRECT = " in text

    fuzz()
    mine.write_text('extends = "board-pinmap.toml"\n')  # the one good value: the stock map, under its own name
    assert render_pinmap(mine).splitlines()[2:] == firmware_tools.PINMAP_PY.read_text().splitlines()[2:]


def test_any_pio_lockout_value_is_a_one_line_error_or_a_pin_map(tmp_path) -> None:
    """Fuzz of the new ``[pio_lockout]`` section: whatever its bells and locks hold (numbers,
    strings, lists, tables, GPIOs the header lacks or another job has), the generator answers
    with a pin map or a FirmwareError naming the file, never a traceback."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    (tmp_path / "board-pinmap.toml").write_text(firmware_tools.PINMAP_TOML.read_text())
    mine = tmp_path / "mine.toml"
    ints = st.integers(-3, 100).map(str) | st.just(str(1 << 70))
    scalars = ints | st.sampled_from(['"8"', '"x"', "true", "1.5", "[]", "{}"])
    lists = st.lists(scalars, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")
    values = scalars | lists | st.dictionaries(st.sampled_from(["0", "1", "4", "9", "x"]), scalars | lists,
                                               max_size=3).map(
        lambda d: "{ " + ", ".join(f'"{k}" = {v}' for k, v in d.items()) + " }")

    @settings(max_examples=200, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(values, values)
    def fuzz(bells: str, locks: str) -> None:
        mine.write_text('extends = "board-pinmap.toml"\nstatus_led = false\n[direct]\n0 = 0\n1 = 1\n4 = 4\n'
                        f"[pio_lockout]\nbells = {bells}\nlocks = {locks}\n")
        try:
            text = render_pinmap(mine)
        except FirmwareError as exc:
            assert "\n" not in str(exc) and str(mine) in str(exc)
        else:
            assert "PIO_LOCKOUT = " in text

    fuzz()
