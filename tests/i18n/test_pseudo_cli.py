"""No line the CLI says escapes the catalogue (issue 31): every
bad command line of ``tests/cli/test_bad_input.py`` (unknown option, bad
option value, bad pack, missing file, a file that is no journal, bad
``--lang``, ...) plus a pack with one of each kind of problem, and what the
commands print when they succeed (``wiring check`` and ``wiring table`` of
every shipped profile, ``simulate --journal``, ``replay --disputes``, ...), run in the
pseudo-locale, where every catalogue text comes back accented: a plain
English word left in what it prints did not go through ``_()``.

Allowed as they are: what the person typed or named (paths, quoted values,
``--flags``, `commands`), the names of games, commands, options and the
pack format's own keys and columns, units, and the words of libraries the
box quotes (an OS error, Python's JSON parser).
"""

from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.box import profile as profile_mod
from controller.box.sources import board_channels as bc
from controller.cli import build_parser, main
from controller.wiring_pack import diagram
from games import registry
from games.i18n import set_language
from games.quiz import PRESETS
from games.quiz.packs import COLUMNS
from tests.cli.test_bad_input import BAD, SCENARIO, files
from tests.i18n.test_pseudo_sweep import english_words
from tests.journal.test_rules_as_played import old_journal

#: names a line may carry as they are: commands, the box's own name, game names, the pack
#: format's keys and values, units, the names Python, the OS and SDL give their errors
NAMES = {
    "buzzerbox", "csv", "json", "jsonl", "toml", "png", "jpg", "jpeg", "gif", "bmp", "docs", "OK", "FAIL", "UTF",
    "Open", "Trivia", "DB", "API", "results", "response_code", "incorrect_answers", "difficulty", "type", "easy",
    "medium", "hard", "multiple", "boolean", "title", "language", "questions", "null", "true", "false",
    "Schicki", "Micki", "Fiki", "Miki", "Viva", "Topo", "Piepmatz", "Pictomania", "JSON", "CSV", "GPIO", "SDL",
    "demo", "play", "menu", "simulate", "replay", "journal", "resume", "pack", "scenario", "diag", "doctor", "bench",
    "wiring", "firmware", "int", "float", "English", "Polski", "gpio", "serial", "header", "board", "mpremote", "pip",
    "pi", "SVG", "svg", "PNG", "Inkscape", "check", "salvage", "draw", "table", "install", "pinmap", "sim", "kB", "MB",
    *COLUMNS, *(w for name in registry.available() for w in name.split("-")),
    # the options' names (as --option takes them) and the quiz's rule presets
    *(w for name in registry.available() for option in registry.get(name).options for w in option.split("_")),
    *(w for preset in PRESETS for w in preset.split("-")),
    # a wiring profile's own keys, and the verdicts `journal check` gives (scripts read them as written)
    *(w for table in profile_mod.SCHEMA.values() for key in table for w in key.split("_")), "DAMAGED", "INCOMPLETE",
    # the verdicts `wiring check` puts before a warning and `wiring test` gives (as OK and FAIL: scripts read them)
    "WARN", "PASS", "MOCK",  # (MOCK: a --mock try-out of `wiring test`, as scripts read it)
    # the parts a wiring diagram draws, by their names (SN74HCS165, ULN2803, the Pico, an ESD array, a COM pin)
    "HCS", "ULN", "Pico", "ESD", "COM",
}
#: what a line quotes as the person wrote it, or a library's own words inside a parenthesis after a colon
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`|“[^”]*”|„[^“”]*[“”]|--?[\w-]+(=\S*)?|\S*/\S*|\b\w+\.\w+\b|U\+[0-9A-F]+")
#: Python's own error texts the box quotes in brackets: "(Expecting value at column 1)"
LIBRARY = re.compile(r"\((Expecting|No such|Is a|Errno|Permission|invalid start)[^)]*\)|\bExpecting [^(]*|"
                     r"\[Errno [^\]]*\][^:;]*|Unable to load any default pin factory!")


#: bad option values and packs beside the table's command lines: each game's option checks speak too
OPTIONS: list[list[str]] = [
    ["simulate", "quiz", "--players", "2", "--option", "rules=nope"],
    ["simulate", "quiz", "--players", "2", "--option", "questions=many"],
    ["simulate", "quiz", "--players", "2", "--option", "categories=[\"Nope\"]", "--pack", "{pack}"],
    ["simulate", "quiz", "--players", "3", "--option", "team_size=2"],
    ["simulate", "quiz", "--players", "3", "--option", 'rounds=[{{"questions": 2, "teams": 2}}]'],
    ["simulate", "quiz", "--players", "3", "--option", "after_wrong=never"],
    ["simulate", "quiz", "--players", "3", "--option", "rules=all-play", "--option", "choices=9"],
    ["simulate", "reaction", "--players", "2", "--option", "min_delay_us=9000000"],
    ["simulate", "schicki-micki", "--players", "3", "--option", "interval_shrink=2"],
    ["simulate", "piepmatz", "--players", "3", "--option", "nope=1"],
    ["simulate", "piepmatz", "--players", "3", "--option", "majority=most"],
    ["simulate", "piepmatz", "--players", "3", "--option", "seed_cards=[1,2]"],
    ["simulate", "pictomania", "--players", "3", "--option", "nope=1"],
    ["simulate", "fiki-miki", "--players", "3", "--option", "nope=1"],
    ["simulate", "quiz", "--players", "2", "--pack", "{binary}"],
    ["simulate", "quiz", "--players", "99"],
    ["play", "quiz", "--option", "questions"],
    ["demo", "--lang", "de", "quiz"],
]


#: damaged journals, bad wiring profiles and bad scenarios, each through every command that reads it
DAMAGED: list[list[str]] = [
    *([*command, "{" + journal + "}"] for command in (["journal", "check"], ["replay"], ["results"],
                                                        ["play", "quiz", "--headless", "--seconds", "0.1", "--resume"],
                                                        ["journal", "salvage"])
      for journal in ("cut", "altered", "newer", "empty", "unheaded")),
    *([*command, "{" + wiring + "}"] for command in (["wiring", "check"], ["play", "quiz", "--headless", "--profile"])
      for wiring in ("unknown_key", "duplicate_pin", "bad_value", "wrong_type", "out_of_range", "reserved_gpio",
                     "bad_debounce", "too_long")),
    *(["scenario", "{" + scenario + "}"] for scenario in ("no_game", "bad_step", "back_in_time", "bad_json",
                                                          "unknown_timing", "bad_timing")),
]


def damaged_files(tmp: Path, journal: Path) -> dict[str, str]:
    """A journal cut mid-line, one with a line altered under its checksum, one of a newer format,
    an empty one, one without its header; wiring profiles and scenarios with one problem each."""
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    made: dict[str, str] = {}

    def write(name: str, text: str) -> None:
        path = tmp / name
        path.write_text(text, encoding="utf-8")
        made[name.split(".")[0]] = str(path)

    write("cut.jsonl", "".join(lines[:5]) + lines[5][: len(lines[5]) // 2])
    write("altered.jsonl", "".join(lines[:3]) + lines[3].replace('"t_us":', '"t_us":1', 1) + "".join(lines[4:]))
    write("newer.jsonl", lines[0].replace('"version":2', '"version":9') + "".join(lines[1:]))
    write("empty.jsonl", "")
    write("unheaded.jsonl", "".join(lines[1:]))
    station = '[[stations]]\nname = "Red"\ninputs = {{ bell = {bell} }}\nlights = {{ bell = {light} }}\n'
    write("unknown_key.toml", station.format(bell=17, light=27) + "colour_of_the_box = 3\n")
    write("duplicate_pin.toml", station.format(bell=17, light=27) + station.format(bell=17, light=22))
    write("bad_value.toml", station.format(bell='"seventeen"', light=27))
    write("wrong_type.toml", 'name = 5\n' + station.format(bell=17, light=27))
    write("out_of_range.toml", '[debounce]\nbounce_us = -4\n' + station.format(bell=17, light=27))
    write("reserved_gpio.toml", station.format(bell=14, light=27))
    write("bad_debounce.toml", '[debounce]\nbounce_us = 5000\nglitch_us = 9000\n' + station.format(bell=17, light=27))
    write("too_long.toml", station.format(bell=17, light=27).replace('"Red"', '"' + "R" * 200 + '"'))
    write("no_game.json", '{"players": 2, "steps": []}')
    write("bad_step.json", '{"game": "quiz", "players": 2, "steps": [3]}')
    write("back_in_time.json", '{"game": "quiz", "players": 2, "steps": [{"t_us": 500, "press": {"station": 0}},'
                               ' {"t_us": 100, "press": {"station": 1}}]}')
    write("unknown_timing.json", '{"game": "quiz", "players": 2, "debounce": {"bounse_us": 5000}, "steps": []}')
    write("bad_timing.json", '{"game": "quiz", "players": 2, "debounce": {"bounce_us": 500, "glitch_us": 900},'
                             ' "steps": []}')
    write("bad_json.json", '{"game": "quiz", "players": 2,')
    return made


def foreign(text: str, extra: set[str]) -> list[str]:
    """The plain English words of a line the CLI printed, quoted material and names left out."""
    text = LIBRARY.sub(" ", QUOTED.sub(" ", text))
    return [w for w in english_words(text, "") if w not in NAMES and w not in extra]


def test_the_check_finds_an_english_word_and_lets_names_through() -> None:
    assert foreign("buzzerbox demo: unknown game 'nosuch'; try --players", set()) == ["unknown", "game", "try"]
    assert foreign("buzzerbox démó: ńěžńáměá hřá 'nosuch' (Expecting value)", set()) == []


def said_in_pseudo(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What ``buzzerbox ARGV`` prints (stdout and stderr, its last line too) in the pseudo-locale."""
    set_language("xx")  # the parser's own words too (main builds it in the language of the moment)
    try:
        main(argv)
    except SystemExit as stop:
        if isinstance(stop.code, str):  # said by Python on the way out
            print(stop.code, file=sys.stderr)
    finally:
        set_language("en")
    said = capsys.readouterr()
    return (said.out + said.err).splitlines()


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command starts in the pseudo-locale (which ``--lang`` does not offer: it is no language)."""
    monkeypatch.setattr(profile_mod, "start_language", lambda asked, profile: "xx")


def bad_pack(tmp: Path) -> Path:
    """A pack with a problem of most kinds the checker finds, one per row."""
    pack = tmp / "broken.csv"
    pack.write_text(
        "question,answer,alternatives,category,points,image,choices\n"
        ",Paris\n"
        "Capital?,\n"
        "Q1?,A,,,lots\n"
        "Q2?,A,,,,pic.txt\n"
        "Q3?,A,,,,../x.png\n"
        "Q4?,A,,,,,B|C\n"
        "Q5?,A,B||C\n"
        "Q6?,A,,,,,A|a\n"
        "Q7?,A,,,,,A\n"
        "Q1?,A\n"
        "Q8?,A,,,,,,extra\n", encoding="utf-8")
    return pack


@pytest.mark.parametrize("command", [*sorted(BAD), "options", "damaged"])
def test_bad_input_is_said_in_the_reader_s_language(command: str, tmp_path: Path, capsys, monkeypatch,
                                                    pseudo: None) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    made = files(tmp_path)
    made |= damaged_files(tmp_path, Path(made["journal"]))
    capsys.readouterr()
    left: dict[str, list[str]] = {}
    for argv in BAD.get(command, DAMAGED if command == "damaged" else OPTIONS):
        argv = [a.format(**made) for a in argv]
        for line in said_in_pseudo(argv, capsys):
            typed = set(re.findall(r"\w+", " ".join(argv)))  # what the person wrote comes back as written
            if words := foreign(line.replace(str(tmp_path), "").replace(tmp_path.name, ""), typed):
                left[line] = words
    assert not left, f"{command}: English in the pseudo-locale (not through _()): {list(left.items())[:6]}"


def test_every_pack_problem_is_said_in_the_reader_s_language(tmp_path: Path, capsys, pseudo: None) -> None:
    pack = bad_pack(tmp_path)
    json_pack = tmp_path / "broken.json"
    json_pack.write_text('{"title": "T", "colour": 1, "questions": [{"question": 5, "answer": "A"}, 3,'
                         ' {"question": "Q", "answer": "A", "hint": "x"}]}', encoding="utf-8")
    opentdb = tmp_path / "trivia.json"
    opentdb.write_text('{"response_code": 0, "results": [{"question": "Q", "correct_answer": "A",'
                       ' "difficulty": "extreme", "type": "multiple", "incorrect_answers": []}, 4]}', encoding="utf-8")
    left: dict[str, list[str]] = {}
    for path in (pack, json_pack, opentdb, tmp_path / "pack.txt"):
        path.touch()
        lines = said_in_pseudo(["pack", "check", str(path)], capsys)
        assert len(lines) >= 2, lines  # the problems and the verdict
        for line in lines:
            if words := foreign(line.replace(str(tmp_path), ""), set()):
                left[line] = words
    assert not left, f"English in the pseudo-locale (not through _()): {list(left.items())[:8]}"


#: what a scenario's outcome is made of, printed as its file writes the keys (the scenario format's own words)
SCENARIO_KEYS = {w for key in ("winner", "queue", "margins_us", "ties", "early", "scores") for w in key.split("_")}


def profile_words() -> set[str]:
    """What the shipped profiles' authors named: stations, inputs, host buttons, descriptions (shown as written);
    the pins' own names (GND, RUN, VSYS) and what the board's pin map file says each bus pin carries."""
    words = set(re.findall(r"[A-Za-z]+", " ".join([*diagram.PICO_PINS.values(), *bc.pinmap().bus.values(),
                                                    *profile_mod.RESERVED_GPIOS.values()])))
    for name in profile_mod.shipped_names():
        prof = profile_mod.load(name)
        named = [prof.description, *prof.host, *(f"{st.name} {' '.join(st.inputs)}" for st in prof.stations)]
        words |= set(re.findall(r"\w+", " ".join(named)))
    return words


def succeeding(tmp: Path, made: dict[str, str]) -> list[list[str]]:
    """Command lines that succeed: every shipped profile's check and table, the guided test on mock pins
    (its prompts and report), a simulated game with its journal,
    the disputes of a quiz and a reaction duel, a cut journal resumed, a scenario, results and the journal's own."""
    journal = Path(made["journal"])
    cut = tmp / "cut.jsonl"  # a simulated game stopped before its end record: `resume` carries it on
    cut.write_text("".join(journal.read_text(encoding="utf-8").splitlines(keepends=True)[:-1]), encoding="utf-8")
    warned = tmp / "warned.toml"  # a box that works but is warned about: silver contacts, a small resistor, GPIO 3, offsets
    warned.write_text('[front_end]\ncontacts = "silver"\nseries_ohms = 330\n[[stations]]\nname = "Red"\n'
                      'inputs = { bell = 17 }\noffset_us = 90\n[[stations]]\nname = "Blue"\ninputs = { bell = 27 }\n'
                      '[host]\narm = 3\n[host_front_end]\nseries_ohms = 220\n', encoding="utf-8")
    old_journal(tmp / "old-rules.jsonl", "fiki-miki", 4, 5, 1)  # replayed under the rules it was played with: a note
    return [
        ["wiring", "check", str(warned)], ["wiring", "table", str(warned)],
        ["replay", str(tmp / "old-rules.jsonl")],
        *(["wiring", action, name] for name in profile_mod.shipped_names() for action in ("check", "table")),
        ["wiring", "check", "board-pinmap"],
        *(["wiring", "draw", name, "-o", str(tmp / f"{name}.svg")] for name in ("header-4-full", "board-7-schicki")),
        ["wiring", "test", "header-4", "--mock", "--report", str(tmp / "header-4.test-result.txt")],
        ["simulate", "quiz", "--players", "3", "--seed", "1", "--journal", str(tmp / "new.jsonl")],
        ["replay", str(journal), "--disputes"], ["replay", made["other_game"], "--disputes"],
        ["resume", str(cut)],
        ["scenario", str(SCENARIO)],
        ["results", str(journal)], ["results", str(journal), "--csv"],
        ["journal", "check", str(journal)], ["journal", "salvage", str(journal), "--out", str(tmp / "salvaged.jsonl")],
    ]


def test_what_a_command_prints_on_success_is_said_in_the_reader_s_language(tmp_path: Path, capsys, monkeypatch,
                                                                          mock_pins: None, pseudo: None) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    made = files(tmp_path)
    capsys.readouterr()
    names = profile_words() | SCENARIO_KEYS
    left: dict[str, list[str]] = {}
    for argv in succeeding(tmp_path, made):
        lines = said_in_pseudo(argv, capsys)
        assert lines, argv  # each says something: what it did, or what it found
        typed = set(re.findall(r"\w+", " ".join(argv)))
        for line in lines:
            if words := foreign(line.replace(str(tmp_path), "").replace(tmp_path.name, ""), typed | names):
                left[line] = words
    for drawn in tmp_path.glob("*.svg"):  # `wiring draw`: the diagram's own words, the board's and the header's
        for text in ET.parse(drawn).getroot().iter("{http://www.w3.org/2000/svg}text"):
            if words := foreign(text.text or "", names):
                left[f"{drawn.name}: {text.text}"] = words
    assert not left, f"English in the pseudo-locale (not through _()): {list(left.items())[:8]}"


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command and subcommand of the CLI, with its parser."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


def test_every_command_s_help_is_said_in_the_reader_s_language(capsys, pseudo: None) -> None:
    every = list(commands(build_parser()))
    # argparse's names as the help prints them: commands, positionals, metavars (an option's name in capitals), choices
    names = {w for path, parser in every for action in parser._actions for w in re.findall(
        r"[A-Za-z]+", " ".join([*path, *(action.choices or ()), str(action.metavar or ""), action.dest,
                                action.dest.upper()]))}
    left: dict[str, list[str]] = {}
    for path, _parser in every:
        for line in said_in_pseudo([*path, "--help"], capsys):
            if words := foreign(line, names):
                left[f"{' '.join(path)}: {line.strip()}"] = words
    assert not left, f"English in the pseudo-locale (not through _()): {list(left.items())[:8]}"
