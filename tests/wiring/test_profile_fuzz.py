"""Seeded, time-bounded fuzz: no mutated profile may crash or hang the box.

Every outcome is either a usable profile whose values are in range or one
``ProfileError`` line. Two kinds of mutation: values in the parsed tables
(wrong types, out-of-range numbers, NUL and huge names, unknown keys, missing
keys) and bytes in the file (flips, truncation, non-UTF-8).
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.box import profile as profile_mod
from controller.box.profile import MAX_NAME, ProfileError, parse
from controller.wiring_pack import checks, table
from games.toolkit.theme import hex_color

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SHIPPED = [profile_mod.wiring_dir() / f"{n}.toml" for n in profile_mod.shipped_names()]
BUDGET_S = 4.0  # per test: the suite stays fast whatever the seed finds
WEIRD: list[Any] = [
    "abc", "", "\x00", "Red\x00\x1b[2J", "x" * 100_000, 5, -1, 0, 2**63, 2**200, 1e18,
    float("inf"), float("nan"), -0.5, True, [], [1, 2], {}, {"x": 1}, [{}], "#zzzzzz", "#fff",
]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in a parsed TOML document."""
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        paths = _paths(data)
        if not paths:
            break
        path = rng.choice(paths)
        parent: Any = data
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        action = rng.random()
        if action < 0.7:
            parent[last] = rng.choice(WEIRD)
        elif action < 0.85 and isinstance(parent, dict):
            del parent[last]
        elif isinstance(parent, dict):
            parent[rng.choice(["colour", "inptus", "bounce", "stations2", "front-end"])] = rng.choice(WEIRD)
    return data


def _assert_usable(prof: profile_mod.Profile) -> None:
    """What the screens, the sources and the debounce rely on."""
    for st in prof.stations:
        assert st.name and len(st.name) <= MAX_NAME and st.name.isprintable(), st.name
        hex_color(st.color)
        assert 0 <= st.offset_us <= profile_mod.MAX_OFFSET_US
    deb = prof.debounce
    assert 0 < deb.glitch_us <= min(deb.bounce_us, 100_000)
    assert deb.bounce_us <= 1_000_000 and deb.bounce_us < deb.stuck_us <= 3_600_000_000
    for station, name in prof.front_ends:
        assert 0 <= prof.precision_extra_us(station, name) < 10_000
    checks.report(prof)
    table.render(prof)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_mutated_profile_values_never_traceback(path: Path):
    base = tomllib.loads(path.read_text(encoding="utf-8"))
    rng = random.Random(f"values-{path.stem}")
    tried = accepted = 0
    while tried < 120:  # a fixed number of seeded cases
        data = _mutate(base, rng)
        tried += 1
        try:
            prof = parse(data, path)
        except ProfileError as exc:
            message = str(exc)
            assert "\n" not in message and len(message) < 600, message
            continue
        accepted += 1
        _assert_usable(prof)
    assert accepted < tried  # the mutations do reach the checks


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_mutated_profile_bytes_never_traceback(path: Path, tmp_path: Path):
    base = path.read_bytes()
    rng = random.Random(f"bytes-{path.stem}")
    target = tmp_path / "p.toml"
    tried = 0
    while tried < 80:  # a fixed number of seeded cases
        data = bytearray(base)
        kind = rng.random()
        if kind < 0.5:
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif kind < 0.8:
            del data[rng.randrange(len(data)):]
        else:
            at = rng.randrange(len(data))
            data[at:at] = rng.choice([b"\xff\xfe", b"\x00", b"[[stations]]\n", b"[" * 50, b"inf"])
        target.write_bytes(bytes(data))
        tried += 1
        try:
            prof = profile_mod.load(str(target))
        except ProfileError as exc:
            assert "\n" not in str(exc)
            continue
        _assert_usable(prof)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('stations = "abc"', "stations must be [[stations]] tables, not 'abc'"),
        ('[[stations]]\ninputs = 5', "inputs must be a table"),
        ('debounce = 5\n[[stations]]\ninputs = { bell = 17 }', "debounce must be a table"),
        ('[debounce]\nbounce_us = inf\n[[stations]]\ninputs = { bell = 17 }', "bounce_us must be a whole number, not inf"),
        ('[debounce]\nglitch_us = 1000000000000000000\n[[stations]]\ninputs = { bell = 17 }', "glitch_us 1000000000000000000 is out of range; use 10 to 100000"),
        ('[[stations]]\nname = "x"\ncolor = "notacolor"\ninputs = { bell = 17 }', "color 'notacolor' is not a colour"),
        ('[[stations]]\nname = "' + "n" * 100 + '"\ninputs = { bell = 17 }', "name is 100 characters long; at most 24 fit"),
        ('[[stations]]\ninputs = { bell = 17 }\noffset_us = -3', "offset_us -3 is out of range; use 0 to 5000"),
        ('[front_end]\ncapacitor_nf = "1n"\n[[stations]]\ninputs = { bell = 17 }', "capacitor_nf must be a number"),
        ('sorce = "gpio"\n[[stations]]\ninputs = { bell = 17 }', "unknown key 'sorce' (did you mean source?)"),
        ('name = "x"', "no 'stations'; add [[stations]] tables"),
    ],
    ids=["stations-text", "inputs-number", "debounce-number", "bounce-inf", "glitch-huge", "bad-colour", "long-name",
         "negative-offset", "capacitor-text", "misspelt-key", "no-stations"],
)
def test_the_issues_tracebacks_are_one_line_errors(tmp_path, capsys, text, problem):
    from controller.cli import main

    path = tmp_path / "p.toml"
    path.write_text(text + "\n", encoding="utf-8")
    assert main(["wiring", "check", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("FAIL ") and err.count("\n") == 1 and problem in err, err


def test_unreadable_files_are_one_line_errors(tmp_path, capsys):
    from controller.cli import main

    (tmp_path / "latin1.toml").write_bytes(b'name = "Gr\xfcn"\n')
    (tmp_path / "dir.toml").mkdir()
    for name, problem in (("latin1.toml", "not UTF-8 text"), ("dir.toml", "is a folder")):
        assert main(["wiring", "check", str(tmp_path / name)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("FAIL ") and problem in err and err.count("\n") == 1


def test_a_nul_in_a_name_is_dropped_and_the_name_kept(tmp_path):
    prof = parse({"stations": [{"name": "Re\x00d\t Team", "inputs": {"bell": 17}, "color": "#F00"}]})
    assert prof.stations[0].name == "Red Team"
    assert prof.stations[0].color == "#ff0000"
