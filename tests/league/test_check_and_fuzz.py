"""``buzzerbox league check``, and seeded, bounded fuzzing of everything the
hub reads off the wire and of the tournament file: a bad input is one line
naming it (a MessageError, or a problem line), never a traceback."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.league import messages
from controller.league.commands import room_folder
from controller.league.hub import Hub
from controller.league.simulated import play_next
from controller.league.tournament import load, problems, round_robin
from tests.processes import HANG_S

ROOT = Path(__file__).resolve().parents[2]


def check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", "league", "check", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG_S)


def test_check_says_ok_and_sums_up_a_good_file(league_file: Callable[..., Path]) -> None:
    proc = check(league_file())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("OK: Spring Cup (cup): 3 rooms, 6 teams, 15 matches of quiz")


def test_check_names_each_problem_on_its_own_line(tmp_path: Path, league_file: Callable[..., Path]) -> None:
    text = league_file().read_text()
    bad = (text.replace("players_per_team = 1", "players_per_tem = 1").replace('id = "c"', 'id = "Hall C"')
           .replace('kind = "round-robin"', 'kind = "round-robin"\nrounds = 9').replace('game = "quiz"', 'game = "quizz"'))
    path = tmp_path / "bad.toml"
    path.write_text(bad)
    proc = check(path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    lines = proc.stdout.splitlines()
    assert any("tournament.players_per_tem: not a setting here (did you mean players_per_team?)" in ln for ln in lines)
    assert any("rooms[3].id: 'Hall C' is not an id" in ln for ln in lines)
    assert any("schedule.rounds: must be a whole number from 1 to 4" in ln for ln in lines)
    assert any("'quizz' is not a game" in ln and "did you mean quiz?" in ln for ln in lines)
    assert all(ln.startswith(f"{path}: ") for ln in lines)


@pytest.mark.parametrize("content, said", [
    (None, "no such file; check the path of the tournament file"), ("[tournament\n", "not TOML"),
    ("\xff", "not UTF-8 text"),
])
def test_check_of_a_file_that_is_no_tournament(tmp_path: Path, content: str | None, said: str) -> None:
    path = tmp_path / "t.toml"
    if content is not None:
        path.write_text(content, encoding="latin-1")
    proc = check(path)
    assert proc.returncode == 1 and said in proc.stdout and len(proc.stdout.splitlines()) == 1


def test_check_refuses_a_pipe_a_device_and_a_huge_file_up_front(tmp_path: Path) -> None:
    """A FIFO must not hang `league check`, nor /dev/zero be read whole: one line each."""
    import os

    fifo = tmp_path / "cup.toml"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    for path, said in ((fifo, "is a named pipe, not a file"), (Path("/dev/zero"), "is a device, not a file"),
                       (huge, "is larger than 1 MB")):
        proc = check(path)
        assert proc.returncode == 1 and said in proc.stdout and len(proc.stdout.splitlines()) == 1, proc.stdout


def test_a_list_schedule_checks_rooms_teams_and_options(tmp_path: Path, league_file: Callable[..., Path]) -> None:
    text = league_file().read_text().replace('[schedule]\nkind = "round-robin"\nslot_minutes = 30', """
[[schedule.matches]]
id = "final"
room = "a"
teams = ["owls", "foxes"]
start = "16:00"
[schedule.matches.options]
questions = "many"
[[schedule.matches]]
room = "z"
teams = ["owls", "owls", "ghosts"]
start = "25:00"
""")
    path = tmp_path / "list.toml"
    path.write_text(text)
    t, found = problems(path)
    assert t is None
    assert any(line.startswith("schedule.matches[1].options: ") for line in found)
    assert any("schedule.matches[2].room: no room 'z'" in line for line in found)
    assert any("no team 'ghosts'" in line for line in found)
    assert any("two or more different teams" in line for line in found)
    assert any("schedule.matches[2].start: must be a time of day" in line for line in found)


def test_round_robin_meets_every_pair_once_and_no_team_twice_in_a_slot() -> None:
    for n in range(2, 10):
        teams = [f"t{k}" for k in range(n)]
        games = round_robin(teams, ["a", "b"])
        pairs = [frozenset(pair) for _room, pair, _slot in games]
        assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
        for slot in {s for _r, _p, s in games}:
            playing = [team for _r, pair, s in games if s == slot for team in pair]
            rooms = [room for room, _p, s in games if s == slot]
            assert len(playing) == len(set(playing)) and len(rooms) == len(set(rooms))


def mutate(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        what = rng.random()
        pos = rng.randrange(len(out) + 1)
        if what < 0.3 and out:
            del out[pos % len(out): pos % len(out) + rng.randint(1, 20)]
        elif what < 0.6:
            out[pos:pos] = rng.choice([b"{", b"}", b"[", b'"', b"1e999", b"-", b"null", b"\xff", b"9" * 30,
                                       b'"v":2', b'"seq":0', b"NaN", b"[" * 50, b",", b'"scores":[1]'])
        elif out:
            out[pos % len(out)] = rng.randrange(256)
    return bytes(out)


def test_fuzz_every_message_the_hub_reads(league_file: Callable[..., Path], tmp_path: Path) -> None:
    t = load(league_file())
    folder = room_folder(t, "a", tmp_path / "journals")
    play_next(folder, 1)
    (result,) = folder.results()
    good = {
        messages.result_topic("cup", "a", result.match): messages.encode(result.to_json()),
        messages.room_topic("cup", "a", "status"): messages.status_payload("a", True, "m1", 5),
        messages.room_topic("cup", "a", "live"): messages.live_payload("a", "m1", 5, json.dumps(
            {"players": [{"name": "Owls", "score": 3}], "phase": "armed"})),
        messages.schedule_topic("cup"): messages.schedule_payload(messages.signed_body(
            1, [messages.Move("m1", "b", 2)], "cup"), "c2ln"),
    }
    hub = Hub(t, tmp_path / "hub.jsonl", lambda: 0)
    rng = random.Random(36)
    outcomes: dict[str, int] = {}
    for k in range(3000):
        topic, payload = rng.choice(list(good.items()))
        if k % 50 == 0:
            topic = mutate(rng, topic.encode()).decode("utf-8", "replace")
        said = hub.take(topic, mutate(rng, payload))
        outcomes[said] = outcomes.get(said, 0) + 1
    hub.close()
    assert outcomes.get("refused", 0) > 2000  # most mutations are refused, each in one logged line
    assert set(outcomes) <= {"refused", "taken", "duplicate", "live", "status", "schedule", "empty"}
    assert all(r.match == result.match for r in hub.results.values())  # nothing made up a match


def test_fuzz_the_tournament_file(league_file: Callable[..., Path], tmp_path: Path) -> None:
    good = league_file().read_bytes()
    rng = random.Random(3636)
    path = tmp_path / "fuzz.toml"
    for _ in range(300):
        path.write_bytes(mutate(rng, good))
        t, found = problems(path)
        assert (t is None) == bool(found)
        assert all(isinstance(line, str) and "\n" not in line and line for line in found)

