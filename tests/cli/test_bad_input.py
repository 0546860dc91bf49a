"""Issue 14: every command in the README's table, given bad input, ends with
one line saying what went wrong and what to do (prefix ``buzzerbox COMMAND:``,
exit 2 for usage, 1 for a failure) and never a traceback."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = next(iter(sorted(ROOT.glob("tests/*/scenarios/*.json"))))


def readme_commands() -> list[str]:
    """The first words of every command in the README's table ("wiring check", "firmware install")."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = []
    for row in re.findall(r"^\| `buzzerbox ([^`|]+)`", text, flags=re.M):
        words = row.split()
        if words[0] in ("wiring", "firmware"):
            found += [f"{words[0]} {w}" for w in row.replace("/", " ").split()[1:] if w.isalpha()][:1] \
                if words[0] == "wiring" else [f"firmware {w}" for w in ("install", "pinmap", "sim")]
        else:
            found.append(words[0])
    return found


def files(tmp: Path) -> dict[str, str]:
    binary = tmp / "noise.json"
    binary.write_bytes(bytes(range(256)) * 4)
    journal = tmp / "game.jsonl"
    main(["simulate", "quiz", "--players", "2", "--journal", str(journal)])
    other = tmp / "reaction.jsonl"
    main(["simulate", "reaction", "--players", "2", "--journal", str(other)])
    pack = tmp / "friday.csv"
    pack.write_text("question,answer\nRed planet?,Mars\n", encoding="utf-8")
    return {"other_game": str(other), "pack": str(pack), "dir": str(tmp), "binary": str(binary), "missing": str(tmp / "missing.jsonl"),
            "scenario": str(SCENARIO), "journal": str(journal)}


#: bad command lines for each command of the README's table ({dir}, {binary} ... are files made above)
BAD: dict[str, list[list[str]]] = {
    "demo": [["demo", "nosuch"], ["demo", "--profile", "nosuch", "--headless"], ["demo", "quiz", "--players", "0", "--headless"],
             ["demo", "quiz", "--headless", "--seconds", "-5"], ["demo", "quiz", "--headless", "--volume", "7"],
             ["demo", "quiz", "--headless", "--seconds", "nan"], ["demo", "quiz", "--lang", "de"]],
    "play": [["play", "nosuch"], ["play", "quiz", "--profile", "nosuch"], ["play", "quiz", "--option", "rounds"],
             ["play", "quiz", "--profile", "header-4", "--headless", "--seconds", "0.1"],
             ["play", "quiz", "--resume", "{dir}"], ["play", "quiz", "--resume", "{scenario}"]],
    "menu": [["menu", "--profile", "nosuch"]],
    "simulate": [["simulate", "nosuch", "--players", "2"], ["simulate", "quiz", "--players", "1"],
                 ["simulate", "quiz", "--players", "2", "--option", "nope"],
                 ["simulate", "quiz", "--players", "2", "--option", "rules=all-play"]],
    "replay": [["replay", "{dir}"], ["replay", "{binary}"], ["replay", "{scenario}"], ["replay", "{missing}"]],
    "journal": [["journal", "check", "{dir}"], ["journal", "check", "{binary}"], ["journal", "salvage", "{missing}"]],
    "resume": [["resume", "{dir}"], ["resume", "{binary}"], ["resume", "{scenario}"], ["resume", "{missing}"]],
    "pack": [["pack", "check", "{binary}"], ["pack", "check", "{missing}"], ["pack", "check", "{dir}"],
             ["pack", "check", "{journal}"]],
    "results": [["results", "{pack}"], ["results", "{dir}"], ["results", "{binary}"], ["results", "{missing}"], ["results", "{scenario}"],
                ["results", "{journal}", "--csv", "--json"], ["results", "{other_game}"]],
    "scenario": [["scenario", "{dir}"], ["scenario", "{binary}"], ["scenario", "{journal}"], ["scenario", "{missing}"]],
    "diag": [["diag", "--profile", "nosuch"], ["diag", "--players", "x"]],
    "doctor": [["doctor", "--no-such-option"]],
    "bench": [["bench", "--profile", "nosuch"], ["bench", "--contests", "x"], ["bench", "--profile", "board-7-schicki"],
              ["bench", "--profile", "header-4-full"]],
    "wiring check": [["wiring", "check", "{binary}"]],
    "wiring draw": [["wiring", "draw", "nosuch"], ["wiring", "draw", "header-4", "-o", "{dir}/x.png"]],
    "wiring table": [["wiring", "table", "{dir}"]],
    "wiring test": [["wiring", "test", "nosuch"], ["wiring", "test", "header-4"],
                    ["wiring", "test", "board-7-schicki", "--mock"]],
    "firmware install": [["firmware", "install", "--port", "/dev/nonexistent"]],
    "firmware pinmap": [["firmware", "pinmap", "extra"]],
    "firmware sim": [["firmware", "sim", "--seconds", "soon"]],
    "kiosk": [["kiosk", "install", "--root", "{missing}"], ["kiosk", "status", "--user", "Root!"],
              ["kiosk", "uninstall", "--root", "{missing}"], ["kiosk", "status", "--mode", "tv"]],
}


def test_the_table_of_bad_inputs_covers_every_command_in_the_readme() -> None:
    commands = readme_commands()
    assert len(commands) >= 14
    assert [c for c in commands if c not in BAD] == []


def one_line_ending(run: Callable[[], object], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        status = run()
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 1
        if isinstance(stop.code, str):  # said by Python on the way out
            print(stop.code, file=sys.stderr)
    err = capsys.readouterr().err
    return int(status or 0), err


@pytest.mark.parametrize("command", sorted(BAD))
def test_bad_input_ends_in_one_line_not_a_traceback(command: str, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    made = files(tmp_path)
    capsys.readouterr()
    for argv in BAD[command]:
        argv = [a.format(**made) for a in argv]
        status, err = one_line_ending(lambda argv=argv: main(argv), capsys)
        last = err.strip().splitlines()[-1] if err.strip() else ""
        assert "Traceback" not in err, (argv, err)
        assert status in (1, 2), (argv, status, err)
        # the checkers (`wiring check`, `journal check`) give a verdict: "OK ..." or "FAIL <the problem>"
        checker = command == "wiring check" or argv[:2] in (["journal", "check"], ["pack", "check"])
        assert last.startswith("FAIL " if checker else "buzzerbox "), (argv, err)
        assert "unexpected" not in last, (argv, last)  # a bug would say so; none of these is one
    assert not list(tmp_path.glob("data/buzzerbox/journals/*.jsonl")), "a failed start left a journal"
    assert not list(Path.cwd().glob("journal-*.jsonl"))
    assert not (tmp_path / "x.png").exists(), "an SVG was written into a .png"


def test_a_file_that_is_no_journal_is_named_so_not_damaged(tmp_path: Path, capsys) -> None:
    pack = tmp_path / "friday.csv"
    pack.write_text("question,answer\nRed planet?,Mars\n", encoding="utf-8")
    for command in (["results"], ["replay"]):
        status, err = one_line_ending(lambda command=command: main([*command, str(pack)]), capsys)
        assert status == 1 and "damaged" not in err
        assert "is not a buzzerbox journal" in err and f"buzzerbox pack check {pack}" in err


def test_a_usage_error_exits_2_and_a_failure_1(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "quiz", "--players", "1"])
    assert stop.value.code == 2 and "pass --players between 2 and 16" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["replay", str(tmp_path / "nothing.jsonl")])
    assert stop.value.code == 1


def test_play_without_gpio_says_the_one_real_thing(tmp_path: Path, capfd, monkeypatch) -> None:
    """No eight lines of gpiozero fallback warnings before it (not from the
    deciding process either, which opens the inputs: its stderr is the
    terminal's too), no journal left."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    with pytest.raises(SystemExit) as stop:
        main(["play", "quiz", "--profile", "header-4", "--headless"])
    err = capfd.readouterr().err
    assert stop.value.code == 1
    assert err.count("\n") == 1, err
    assert "no GPIO on this machine" in err and "leave out --profile" in err
    assert not list(tmp_path.rglob("*.jsonl"))


def test_wiring_test_with_stdin_closed_is_one_line(tmp_path: Path, capsys, monkeypatch, mock_pins) -> None:
    prof = tmp_path / "lamp.toml"
    prof.write_text('[[stations]]\nname = "Red"\ninputs = { bell = 17 }\nlights = { bell = 27 }\n', encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as stop:
        main(["wiring", "test", str(prof), "--timeout", "0.05", "--report", str(tmp_path / "r.txt")])
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 1
    assert err[-1].startswith("buzzerbox wiring test: no answer, stdin is closed")


def test_version_and_help_for_every_option(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    assert re.match(r"buzzerbox \d", capsys.readouterr().out)
    from controller.cli import build_parser

    parser = build_parser()
    missing = []

    def walk(p, path):  # type: ignore[no-untyped-def]
        for action in p._actions:
            if action.help is None and action.option_strings:
                missing.append(f"{path} {action.option_strings[0]}")
            if hasattr(action, "choices") and isinstance(action.choices, dict):
                for name, child in action.choices.items():
                    walk(child, f"{path} {name}")

    walk(parser, "buzzerbox")
    assert missing == []


def test_demo_help_lists_the_games_as_they_are(capsys) -> None:
    from games.registry import available

    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(game in out for game in available())


def test_the_option_example_in_play_help_is_one_the_game_takes(capsys) -> None:
    """Issue 33: ``play --help``'s own example (``--option rounds=5``) was refused by the quiz."""
    from controller.cli import build_parser

    play = build_parser()._subparsers._group_actions[0].choices["play"]  # type: ignore[union-attr]
    said = next(a.help for a in play._actions if "--option" in a.option_strings)
    example = re.search(r"--option (\S+=\S+) for the (\w+)", said or "")
    assert example, said
    assert main(["simulate", example.group(2), "--players", "2", "--option", example.group(1)]) == 0


def test_one_process_is_refused_in_one_line(tmp_path: Path, capsys, monkeypatch) -> None:
    """The older one-process design left the product: ``play`` and ``menu``
    refuse it in one line (exit 2), before any game, journal or window."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    capsys.readouterr()
    for argv in (["play", "reaction", "--one-process", "--headless", "--seconds", "0.1",
                  "--journal", str(tmp_path / "j.jsonl")],
                 ["menu", "--one-process", "--headless", "--journal-dir", str(tmp_path)]):
        status, err = one_line_ending(lambda argv=argv: main(argv), capsys)
        assert status == 2, (argv, err)
        assert len(err.strip().splitlines()) == 1 and "--one-process is no more" in err, (argv, err)
        assert "Traceback" not in err
    assert not (tmp_path / "j.jsonl").exists()
