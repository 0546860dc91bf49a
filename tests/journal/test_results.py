"""``buzzerbox results``: a quiz night's record read back from its journal,
and the same record written beside the journal when a quiz ends."""

from __future__ import annotations

import csv
import io
import json
import os
import random
from pathlib import Path

import pytest

from controller.apps import results as results_app
from controller.box.journal import JournalWriter
from controller.box.results.quiz import QuizNight, to_csv, to_json
from controller.box.results.quiz_record import Results
from controller.box.runtime import Box
from controller.box.simulate import Session
from games import registry
from games.base import EventKind, GameEvent
from games.quiz.engine import QuizEvent

from .conftest import lines_of, run

FUZZ_S = float(os.environ.get("JOURNAL_FUZZ_SECONDS", "1.5"))


@pytest.fixture(scope="module")
def named_quiz(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A 3-player simulated quiz whose stations have people's names, journaled."""
    spec = registry.get("quiz")
    settings = spec.settings(3, 5, **{**spec.demo_options, "questions": 8})
    path = tmp_path_factory.mktemp("night") / "night.jsonl"
    box = Box(spec, settings, station_names=["Anna", "Ben", "Cleo"])
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), settings.seed)
    session.run_virtual()
    box._write({"type": "end", "t_us": session.now_us})
    box.journal.close()
    return path, box.summary()


def results_json(capsys, path: Path) -> tuple[dict, str]:
    code, out, err = run(capsys, "results", str(path), "--json")
    assert code == 0, err
    return json.loads(out), err


def test_every_question_is_on_record_with_the_game_s_judgements_and_scores(named_quiz, capsys) -> None:
    path, summary = named_quiz
    shown, err = results_json(capsys, path)
    assert err == ""
    assert [p["name"] for p in shown["players"]] == ["Anna", "Ben", "Cleo"]  # the journal keeps the names
    # numbered from next/armed (no question events in this journal), one record per question the game judged
    assert [q["number"] for q in shown["questions"]] == [r["question"] for r in summary["results"]]
    assert [q["result"] for q in shown["questions"]] == [r["result"] for r in summary["results"]]
    assert shown["scores"] == summary["scores"] == shown["questions"][-1]["scores"]
    names = ["Anna", "Ben", "Cleo"]
    for q, r in zip(shown["questions"], summary["results"], strict=True):
        assert q["winner"] == (None if r["winner"] is None else names[r["winner"]])
        for arming in {b["arming"] for b in q["buzzes"]}:
            buzzes = [b for b in q["buzzes"] if b["arming"] == arming]
            assert [b["t_us"] for b in buzzes] == sorted(b["t_us"] for b in buzzes)  # in the order they pressed
            assert buzzes[0]["behind_first_us"] == 0
            assert all(b["behind_first_us"] == b["t_us"] - buzzes[0]["t_us"] for b in buzzes)
            assert all(b["after_arming_us"] > 0 for b in buzzes)  # a press before arming is early, not a buzz
        correct = [j for j in q["judgements"] if j["verdict"] == "correct"]
        assert len(correct) == (1 if r["result"] == "correct" else 0)
    running = [q["scores"] for q in shown["questions"]]
    assert all(sum(b) - sum(a) in (0, 1) for a, b in zip(running, running[1:], strict=False))  # one point a question


def test_the_csv_is_one_row_per_press_with_running_scores(named_quiz, capsys) -> None:
    path, summary = named_quiz
    code, out, _err = run(capsys, "results", str(path), "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    shown, _ = results_json(capsys, path)
    presses = sum(max(1, len(q["buzzes"]) + len(q["early"])) for q in shown["questions"])
    assert len(rows) == presses
    last = rows[-1]
    assert [int(last[f"score {n}"]) for n in ("Anna", "Ben", "Cleo")] == summary["scores"]
    firsts = [r for r in rows if r["order"] == "1" and r["arming"] == "1"]
    assert all(r["behind the first (ms)"] == "0.000" for r in firsts)
    assert {r["judgement"] for r in rows} <= {"", "correct", "wrong", "time up", "early"}


def test_the_csv_and_text_speak_the_box_s_language_and_the_json_stays_neutral(named_quiz, capsys) -> None:
    path, summary = named_quiz
    english, _ = results_json(capsys, path)
    code, out, _err = run(capsys, "--lang", "cs", "results", str(path), "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out), delimiter=";"))  # as a Czech spreadsheet reads it
    assert [int(rows[-1][f"skóre {n}"]) for n in ("Anna", "Ben", "Cleo")] == summary["scores"]
    firsts = [r for r in rows if r["pořadí"] == "1" and r["aktivace"] == "1"]
    assert firsts and all(r["za prvním (ms)"] == "0,000" for r in firsts)
    behind = [r["za prvním (ms)"] for r in rows if r["za prvním (ms)"] not in ("", "0,000")]
    assert behind and all("," in v and "." not in v for v in behind)
    assert {r["hodnocení"] for r in rows} <= {"", "správně", "špatně", "čas vypršel", "předčasně"}
    assert "správně" in {r["hodnocení"] for r in rows}
    code, text, _err = run(capsys, "--lang", "pl", "results", str(path))
    assert text.startswith("Pytanie 1") and ": dobrze +" in text
    code, out, _err = run(capsys, "--lang", "pl", "results", str(path), "--json")
    assert json.loads(out) == english  # the machine-readable record is the same in every language


def test_the_text_names_the_players_in_press_order(named_quiz, capsys) -> None:
    path, _summary = named_quiz
    code, out, _err = run(capsys, "results", str(path))
    assert code == 0
    assert out.startswith("Question 1") and "final scores: Anna" in out


@pytest.mark.parametrize("finished", [True, False])
def test_the_text_calls_the_scores_final_only_when_the_game_was(finished: bool) -> None:
    """A game the host stopped (Esc, Esc) has no final scores: its text says when they were taken
    (it said "final scores" over "Not finished; leading: ...")."""
    record = Results("j.jsonl", ["Anna", "Ben"], [0, 1], 1, [], [2, 0], finished, {}, [])
    text = results_app.to_text(record)
    assert ("final scores: Anna 2, Ben 0" in text) == finished
    assert ("scores when the game was stopped: Anna 2, Ben 0" in text) == (not finished)


def test_a_journaled_simulated_quiz_leaves_its_results_beside_the_journal(tmp_path: Path, capsys) -> None:
    path = tmp_path / "q.jsonl"
    code, _out, err = run(capsys, "simulate", "quiz", "--players", "4", "--seed", "3", "--journal", str(path))
    assert code == 0
    beside_json, beside_csv = Path(f"{path}.results.json"), Path(f"{path}.results.csv")
    assert f"results: {beside_csv}" in err and f"results: {beside_json}" in err
    shown, _ = results_json(capsys, path)
    assert json.loads(beside_json.read_text(encoding="utf-8")) == shown
    assert beside_csv.read_bytes().startswith(b"\xef\xbb\xbf")  # spreadsheets read the names right
    assert beside_csv.read_text(encoding="utf-8-sig") == run(capsys, "results", str(path), "--csv")[1]


def test_no_results_beside_another_game_s_journal(tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.jsonl"
    assert run(capsys, "simulate", "reaction", "--players", "2", "--journal", str(path))[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl"]
    code, out, err = run(capsys, "results", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "is a Reaction duel game; results are kept for quiz games" in err


@pytest.mark.parametrize(("game", "language"), [("piepmatz", "pl"), ("reaction", "cs")])
def test_another_game_s_journal_is_named_by_the_game_s_name_not_its_id(game: str, language: str, tmp_path: Path,
                                                                        capsys) -> None:
    """`buzzerbox results` on a Piepmatz journal said "to gra piepmatz" (the id): it names the game as the menu does."""
    from games.i18n import _, set_language

    path = tmp_path / "g.jsonl"
    assert run(capsys, "simulate", game, "--players", "2", "--journal", str(path))[0] == 0
    try:
        code, _out, err = run(capsys, "--lang", language, "results", str(path))
        title = _(registry.get(game).title)
    finally:
        set_language("en")
    assert code == 2 and err.count("\n") == 1
    assert f" {title}" in err and f" {game}" not in err, err  # (case matters: "Piepmatz" is the name, "piepmatz" the id)


def test_a_damaged_journal_gives_the_questions_before_the_damage_and_says_where(named_quiz, tmp_path, capsys) -> None:
    path, _summary = named_quiz
    lines = lines_of(path.read_bytes())
    cut = len(lines) // 2
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join(lines[:cut] + [lines[cut].replace(b'"t_us":', b'"t_us":1')] + lines[cut + 1:]))
    whole, _ = results_json(capsys, path)
    shown, err = results_json(capsys, damaged)
    assert err.count("\n") == 1 and f"DAMAGED from line {cut + 1}" in err
    assert shown["damaged"]["line"] == cut + 1
    assert 0 < len(shown["questions"]) < len(whole["questions"])
    done = [q for q in shown["questions"] if q["result"]]
    assert done == whole["questions"][: len(done)]  # what was read is what the whole journal says


def test_question_events_give_the_text_and_an_undone_judgement_counts_nothing() -> None:
    """The quiz's ``question`` event (with a pack) and the host's undo, folded as the reader does."""
    night = QuizNight(2, None)
    night.take([
        GameEvent("question", 0, None, {"number": 1, "text": "Red planet?", "category": "Science",
                                        "points": 2, "answer": "Mars"}),
        GameEvent("armed", 1_000_000),
        GameEvent("buzz", 1_300_000, 1), GameEvent("buzz", 1_300_412, 0),
        GameEvent("winner", 1_302_000, 1, {"queue": [1, 0], "margins_us": [0, 412], "ties": []}),
        GameEvent("correct", 2_000_000, 1, {"points": 2}),
        GameEvent("round_over", 2_000_000, 1, {"result": "correct"}),
        GameEvent("undo", 2_500_000, None, {"phase": "answering"}),
        GameEvent("wrong", 2_600_000, 1, {"points": 0}),
        GameEvent("next_in_line", 2_600_000, 0, {"queue": [1, 0], "margins_us": [0, 412], "ties": []}),
        GameEvent("correct", 3_000_000, 0, {"points": 2}),
        GameEvent("round_over", 3_000_000, 0, {"result": "correct"}),
        GameEvent("question", 3_500_000, None, {"number": 2, "text": "Largest ocean?", "category": "Geography",
                                                "points": 1, "answer": "Pacific"}),
        GameEvent("armed", 4_000_000),
        GameEvent("round_over", 12_000_000, None, {"result": "nobody buzzed"}),
    ])
    record = Results("j.jsonl", ["Anna", "Ben"], [0, 1], 1, night.finish(), [2, 0], False, {}, [])
    shown = to_json(record)
    first, second = shown["questions"]
    assert (first["text"], first["category"], first["points"], first["answer"]) == ("Red planet?", "Science", 2, "Mars")
    assert [(b["name"], b["behind_first_us"], b["after_arming_us"]) for b in first["buzzes"]] == [
        ("Ben", 0, 300_000), ("Anna", 412, 300_412)]
    assert [(j["name"], j["verdict"], j.get("undone", False)) for j in first["judgements"]] == [
        ("Ben", "correct", True), ("Ben", "wrong", False), ("Anna", "correct", False)]
    assert first["scores"] == [2, 0] and first["winner"] == "Anna"
    assert (second["text"], second["result"], second["buzzes"], second["scores"]) == (
        "Largest ocean?", "nobody buzzed", [], [2, 0])
    rows = list(csv.DictReader(io.StringIO(to_csv(record))))
    assert [(r["question"], r["player"], r["judgement"], r["points awarded"]) for r in rows] == [
        ("1", "Ben", "correct (undone)", "0"), ("1", "Anna", "correct", "2"), ("1", "Ben", "wrong", "0"),
        ("2", "", "", "")]


def test_results_never_crash_on_a_damaged_journal_fuzz(named_quiz, tmp_path, capsys) -> None:
    """Seeded, time-bounded: flips, cuts, duplicated and dropped lines; every run
    ends with results (exit 0) or one line (exit 1/2), never a traceback."""
    path, _summary = named_quiz
    data = path.read_bytes()
    rng = random.Random(20)
    target = tmp_path / "fuzzed.jsonl"
    trials = 0
    while trials < max(30, int(40 * FUZZ_S)):  # a fixed number of seeded trials
        lines = lines_of(data)
        how = rng.randrange(4)
        if how == 0:
            at = rng.randrange(len(data))
            mutated = data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
        elif how == 1:
            mutated = data[: rng.randrange(len(data))]
        elif how == 2:
            k = rng.randrange(len(lines))
            mutated = b"".join(lines[:k] + [lines[k]] + lines[k:])
        else:
            k = rng.randrange(1, len(lines))
            mutated = b"".join(lines[:k] + lines[k + 1:])
        target.write_bytes(mutated)
        code, out, err = run(capsys, "results", str(target), "--json")
        assert "Traceback" not in err and "unexpected" not in err, err
        if code == 0:
            assert "questions" in json.loads(out)
        else:
            assert code in (1, 2) and out == "" and err.strip().count("\n") == 0, err
        trials += 1


PACK = Path(__file__).resolve().parents[2] / "games" / "quiz" / "packs" / "en-general.csv"


@pytest.mark.skipif("pack" not in registry.get("quiz").options,
                    reason="the quiz's pack option lands with the quiz side of issue 20 (branch quiz20)")
def test_a_whole_quiz_night_from_a_pack_is_simulated_and_its_results_read(tmp_path: Path, capsys) -> None:
    from games.quiz.packs import load_pack

    path, pack = tmp_path / "night.jsonl", tmp_path / "tonight.csv"
    pack.write_bytes(PACK.read_bytes())
    code, out, err = run(capsys, "simulate", "quiz", "--pack", str(pack), "--players", "8", "--json",
                         "--journal", str(path))
    assert code == 0, err
    summary = json.loads(out)
    pack.unlink()  # the journal keeps the questions: it replays without the pack
    shown, _err = results_json(capsys, path)
    asked = {q.text: q for q in load_pack(PACK).questions}
    assert len(shown["questions"]) >= 8 and len(shown["players"]) == 8
    for q in shown["questions"]:
        assert q["text"] in asked and q["answer"] == asked[q["text"]].answer
        assert q["category"] == asked[q["text"]].category and q["points"] == asked[q["text"]].points
    assert shown["scores"] == summary["scores"]


def test_simulate_refuses_a_bad_pack_in_one_line_before_playing(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("question,answer\nWhat?,\n", encoding="utf-8")
    code, out, err = run(capsys, "simulate", "quiz", "--pack", str(bad), "--players", "3",
                         "--journal", str(tmp_path / "j.jsonl"))
    assert code in (1, 2) and out == "" and err.count("\n") == 1 and err.startswith("buzzerbox simulate: ")
    assert not (tmp_path / "j.jsonl").exists()
    code, _out, err = run(capsys, "simulate", "reaction", "--pack", str(PACK), "--players", "2")
    assert code == 2 and "--pack is for a quiz" in err


def test_a_played_quiz_leaves_its_results_beside_its_journal(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = tmp_path / "played.jsonl"
    code, _out, err = run(capsys, "play", "quiz", "--headless", "--seconds", "0.3", "--journal", str(path))
    assert code == 0, err
    beside = Path(f"{path}.results.json")
    assert f"results: {beside}" in err
    assert json.loads(beside.read_text(encoding="utf-8")) == results_json(capsys, path)[0]


def test_teams_and_an_undo_through_the_real_quiz_engine(tmp_path: Path, capsys) -> None:
    """A host's slip taken back, a team's points shared by its members, a
    question skipped: the record agrees with what the game itself replays to."""
    from controller.box.press import Press

    spec = registry.get("quiz")
    settings = spec.settings(3, 1, teams=[0, 0, 1])
    path = tmp_path / "teams.jsonl"
    box = Box(spec, settings, station_names=["Anna", "Ben", "Cleo"])
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    s = 1_000_000
    box.host("arm", 1 * s)
    box.apply_press(Press(0, "bell", 1_300_000))
    box.apply_press(Press(2, "bell", 1_310_000))
    box.step(int(1.5 * s))
    box.host("correct", 2 * s)        # the host's slip ...
    box.host("undo", int(2.5 * s))    # ... taken back
    box.host("wrong", int(2.6 * s))   # Anna's team is out; Cleo is next in line
    box.host("correct", 3 * s)
    box.host("arm", 4 * s)            # question 2: nobody presses
    box.host("next", 6 * s)           # skipped; question 3
    box.host("arm", 7 * s)
    box.apply_press(Press(1, "bell", 7_200_000))
    box.step(int(7.5 * s))
    box.host("correct", 8 * s)
    box._write({"type": "end", "t_us": 9 * s})
    box.journal.close()
    summary = box.summary()

    shown, _err = results_json(capsys, path)
    q1, q2, q3 = shown["questions"]
    assert [(j["name"], j["verdict"], j["points"], j.get("undone", False)) for j in q1["judgements"]] == [
        ("Anna", "correct", 1, True), ("Anna", "wrong", 0, False), ("Cleo", "correct", 1, False)]
    assert [b["name"] for b in q1["buzzes"]] == ["Anna", "Cleo"] and q1["buzzes"][1]["behind_first_us"] == 10_000
    assert (q1["winner"], q1["scores"]) == ("Cleo", [0, 0, 1])
    assert (q2["number"], q2["result"], q2["buzzes"]) == (2, "skipped", [])
    assert (q3["number"], q3["winner"], q3["scores"]) == (3, "Ben", [1, 1, 1])  # Ben's point is Anna's too
    assert shown["scores"] == summary["scores"] == [1, 1, 1]
    assert [p["team"] for p in shown["players"]] == [0, 0, 1]


@pytest.mark.parametrize("content", [b"[" * 100_000 + b"\n", b"\xff\xfe\n", b'{"game": "quiz"}\n', b""])
def test_writing_results_beside_a_broken_journal_never_raises(tmp_path: Path, content: bytes, caplog) -> None:
    from controller.box.results.quiz import write_replayed

    path = tmp_path / "broken.jsonl"
    path.write_bytes(content)
    assert write_replayed(path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.jsonl"]


@pytest.mark.skipif("rules" not in registry.get("quiz").options,
                    reason="the quiz's rule presets land with the quiz side of issue 20 (branch quiz20)")
@pytest.mark.parametrize("rules", ["teams", "penalty", "second-chance"])
def test_a_preset_s_scores_are_the_record_s_running_scores(tmp_path: Path, capsys, rules: str) -> None:
    """Teams a preset forms, points taken for a wrong answer, fewer points for
    the next in line: the running scores add up to what the game says."""
    path = tmp_path / f"{rules}.jsonl"
    code, out, err = run(capsys, "simulate", "quiz", "--pack", str(PACK), "--players", "4", "--option",
                         f"rules={rules}", "--json", "--journal", str(path))
    assert code == 0, err
    shown, err = results_json(capsys, path)
    assert "note:" not in err  # the judgements' points add up to the game's own scores
    assert shown["scores"] == json.loads(out)["scores"] == shown["questions"][-1]["scores"]


def test_a_question_that_looks_like_a_formula_stays_text_in_the_csv(tmp_path: Path, capsys) -> None:
    """A pack is someone else's file: a question or name starting with = + - @
    must not run as a spreadsheet formula when the host opens the results."""
    pack, path = tmp_path / "evil.csv", tmp_path / "evil.jsonl"
    pack.write_text('question,answer\n"=HYPERLINK(""http://x"",""win"")",yes\n@SUM(A1),no\n+1,two\n',
                    encoding="utf-8")
    code, _out, err = run(capsys, "simulate", "quiz", "--pack", str(pack), "--players", "2", "--journal", str(path))
    assert code == 0, err
    import csv as csv_mod

    rows = list(csv_mod.DictReader(Path(f"{path}.results.csv").read_text(encoding="utf-8-sig").splitlines()))
    texts = {row["text"] for row in rows}
    assert texts == {"'=HYPERLINK(\"http://x\",\"win\")", "'@SUM(A1)", "'+1"}
    assert not any(str(v).startswith(("=", "+", "@")) for row in rows for v in row.values())


# -- standings: places, rounds, teams, reactions, the winner --------------------------------------
def _night_of_two_rounds() -> Results:
    """Four players, two rounds of two questions; Ben and Cleo end level; a
    host's correction and an undone judgement count as the game counts them."""
    def question(n: int, t: int, presses: list[tuple[int, int]], verdicts: list[tuple[int, str, int]]) -> list[GameEvent]:
        events = [GameEvent("question", t, None, {"number": n, "text": f"Q{n}", "points": 1}),
                  GameEvent("armed", t + 1_000_000)]
        events += [GameEvent("buzz", t + 1_000_000 + dt, s) for s, dt in presses]
        for s, verdict, points in verdicts:
            events.append(GameEvent(verdict, t + 3_000_000, s, {"points": points}))
        winner = next((s for s, v, _p in verdicts if v == "correct"), None)
        events.append(GameEvent("round_over", t + 3_000_000, winner, {"result": "correct" if winner is not None else "nobody buzzed"}))
        return events

    night = QuizNight(4, None, round_questions=2)
    night.take([
        *question(1, 0, [(0, 300_000), (1, 450_000)], [(0, "correct", 1)]),
        *question(2, 10_000_000, [(1, 200_000), (0, 260_000)], [(1, "wrong", -1), (0, "correct", 1)]),
        *question(3, 20_000_000, [(2, 500_000)], [(2, "correct", 2)]),
        GameEvent("undo", 24_000_000, None, {}),                 # Cleo's 2 taken back ...
        GameEvent("correct", 24_500_000, 2, {"points": 1}),       # ... judged again for 1
        GameEvent("adjusted", 25_000_000, 1, {"points": 2, "score": 1}),  # the host gives Ben 2
        *question(4, 30_000_000, [(3, 700_000)], [(3, "wrong", -1)]),
    ])
    return Results("j.jsonl", ["Anna", "Ben", "Cleo", "Dan"], [0, 1, 2, 3], 1, night.finish(), [2, 1, 1, -1],
                   True, {}, [], reason="questions done")


def test_standings_share_places_count_rounds_and_name_the_winner() -> None:
    from controller.box.results.standings import standings_of, winner_line

    record = _night_of_two_rounds()
    s = standings_of(record)
    assert s.rounds == [[1, 2], [3, 4]]
    rows = [(p.place, p.name, p.points, p.rounds, p.correct, p.wrong) for p in s.players]
    assert rows == [(1, "Anna", 2, [2, 0], 2, 0),
                    (2, "Cleo", 1, [0, 1], 1, 0),   # more right answers: listed first, the place shared
                    (2, "Ben", 1, [-1, 2], 0, 1),
                    (4, "Dan", -1, [0, -1], 0, 1)]
    anna, ben = s.players[0], s.players[2]
    assert (anna.fastest_us, anna.median_us) == (260_000, 280_000)  # the median of two: their middle
    assert (ben.fastest_us, ben.median_us) == (200_000, 325_000)
    assert s.teams == []  # everyone plays alone: no team table
    assert winner_line(s, record) == "Winner: Anna with 2 points (most points after 4 questions)."
    assert record.questions[-1].scores == [2, 1, 1, -1]  # the running scores count the correction too


def test_standings_of_teams_add_up_their_members_and_a_level_top_is_a_shared_win() -> None:
    from controller.box.results.standings import standings_of, winner_line

    record = _night_of_two_rounds()
    record.teams = [0, 1, 1, 0]  # Anna with Dan, Ben with Cleo
    s = standings_of(record)
    assert [(t.place, t.name, [record.name(m) for m in t.members], t.points, t.rounds) for t in s.teams] == [
        (1, "Team 2", ["Ben", "Cleo"], 2, [-1, 3]), (2, "Team 1", ["Anna", "Dan"], 1, [2, -1])]
    assert [p.points for p in s.players] == [2, 1, 1, -1]  # each player their own points, not the team's
    record.teams = [0, 1, 1, 0]
    record.questions[-1].judgements[0].undone = True  # Dan's wrong answer taken back: 2 against 2
    s = standings_of(record)
    assert [t.place for t in s.teams] == [1, 1]
    assert winner_line(s, record) == "Shared win: Team 1, Team 2 with 2 points (most points after 4 questions)."
    record.finished = False
    assert winner_line(standings_of(record), record) == "Not finished; leading: Team 1, Team 2 with 2 points."


def test_the_json_carries_the_standings_the_game_itself_ends_with(named_quiz, capsys) -> None:
    path, summary = named_quiz
    shown, _err = results_json(capsys, path)
    table = shown["standings"]
    game = {row["stations"][0]: row for row in summary["standings"]}  # one station a team here
    assert [(p["place"], p["points"]) for p in table["players"]] == [
        (game[p["station"]]["place"], game[p["station"]]["score"]) for p in table["players"]]
    reactions = {row["player"]: row for row in summary["reactions"]}
    for p in table["players"]:
        assert p["fastest_us"] == reactions[p["station"]]["fastest_us"]  # the engine's own fastest, exact
        assert p["presses"] == reactions[p["station"]]["presses"]
    assert table["winner"]["names"] == [p["name"] for p in table["players"] if p["place"] == 1]
    assert table["winner"]["reason"] == shown["reason"] == "questions done"


def test_a_race_says_who_won_and_why_and_the_standings_sheet_lies_beside_the_journal(tmp_path: Path, capsys) -> None:
    path = tmp_path / "race.jsonl"
    code, out, err = run(capsys, "simulate", "quiz", "--pack", str(PACK), "--players", "4", "--seed", "3",
                         "--option", "rules=race", "--json", "--journal", str(path))
    assert code == 0, err
    summary = json.loads(out)
    code, text, _err = run(capsys, "results", str(path))
    winner = next(r["stations"][0] for r in summary["standings"] if r["place"] == 1)
    assert f"Winner: Player {winner + 1} with " in text and "(first to 5 right answers)." in text
    sheet = Path(f"{path}.standings.csv")
    assert sheet.read_text(encoding="utf-8-sig") == run(capsys, "results", str(path), "--csv", "standings")[1]
    rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8-sig"))))
    players = [r for r in rows if r["standing"] == "player"]
    assert [int(r["points"]) for r in players] == sorted(summary["scores"], reverse=True)
    assert rows[-1]["standing"] == "winner" and rows[-1]["place"] == "" and "first to 5" in rows[-1]["name"]
    # in Czech: ";" between cells, a decimal comma in the reaction times, the winner line in Czech
    code, cs_sheet, _err = run(capsys, "--lang", "cs", "results", str(path), "--csv", "standings")
    cs_rows = list(csv.DictReader(io.StringIO(cs_sheet), delimiter=";"))
    fastest = [r["nejrychlejší (ms)"] for r in cs_rows if r["položka"] == "hráč"]
    assert fastest and all("," in v and "." not in v for v in fastest)
    assert cs_rows[-1]["jméno"].startswith("Vítěz: ") and "správnými odpověďmi" in cs_rows[-1]["jméno"]
    code, pl_text, _err = run(capsys, "--lang", "pl", "results", str(path))
    assert "Zwycięzca: " in pl_text and "pierwszy do 5 poprawnych odpowiedzi" in pl_text


def test_a_teams_night_lists_team_standings_with_each_round(tmp_path: Path, capsys) -> None:
    path = tmp_path / "teams.jsonl"
    code, out, err = run(capsys, "simulate", "quiz", "--pack", str(PACK), "--players", "4", "--seed", "3",
                         "--option", "rules=teams", "--option", "round_questions=5", "--json", "--journal", str(path))
    assert code == 0, err
    summary = json.loads(out)
    shown, _err = results_json(capsys, path)
    table = shown["standings"]
    assert [r["questions"] for r in table["rounds"]] == [list(range(k, k + 5)) for k in range(1, 21, 5)]
    assert [(t["members"], t["points"], t["place"]) for t in table["teams"]] == [
        (row["stations"], row["score"], row["place"]) for row in summary["standings"]]
    for t in table["teams"]:
        assert sum(t["rounds"]) == t["points"] == sum(p["points"] for p in table["players"] if p["station"] in t["members"])
    code, text, _err = run(capsys, "results", str(path))
    assert "  1. Team " in text and "; round 1 " in text and "round 4 " in text


def test_teams_with_their_own_names_are_named_in_the_standings_and_the_winner_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "named.jsonl"
    code, out, err = run(capsys, "simulate", "quiz", "--pack", str(PACK), "--players", "4", "--seed", "3",
                         "--option", "rules=teams", "--option", 'team_names=["Owls", "Foxes"]', "--json",
                         "--journal", str(path))
    assert code == 0, err
    summary = json.loads(out)
    shown, _err = results_json(capsys, path)
    names = {t["name"]: t["members"] for t in shown["standings"]["teams"]}
    assert names == {"Owls": [0, 1], "Foxes": [2, 3]}
    best = next(r for r in summary["standings"] if r["place"] == 1)
    winner = "Owls" if best["stations"] == [0, 1] else "Foxes"
    code, text, _err = run(capsys, "results", str(path))
    assert f"Winner: {winner} with " in text and "Team 1" not in text
    code, _out, err = run(capsys, "simulate", "quiz", "--players", "4", "--option", "rules=teams",
                          "--option", 'team_names=["Owls"]')
    assert code != 0 and "team_names must name each of the 2 teams" in err and err.strip().count("\n") == 0


def test_a_team_quiz_s_standings_sheet_shares_a_level_first_place_with_each_round_and_colour(
        tmp_path: Path, capsys) -> None:
    """Two rounds of one question, each team winning one: a shared first
    place in the text, the standings sheet and the JSON, each team with its
    members, its colour and its points per round."""
    from controller.box.press import Press

    spec = registry.get("quiz")
    path = tmp_path / "level.jsonl"
    box = Box(spec, spec.settings(4, 1, rules="teams", questions=2, round_questions=1),
              station_names=["Anna", "Ben", "Cleo", "Dan"])
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    s = 1_000_000
    for k, station in enumerate((0, 3)):  # Anna's team takes round 1, Dan's round 2
        t = (1 + 3 * k) * s
        box.host("arm", t)
        box.apply_press(Press(station, "bell", t + 200_000))
        box.step(t + 500_000)
        box.host("correct", t + s)
    box._write({"type": "end", "t_us": 8 * s})
    box.journal.close()

    code, sheet, err = run(capsys, "results", str(path), "--csv", "standings")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(sheet.lstrip("\ufeff"))))
    teams = [(r["place"], r["name"], r["colour"], r["members"], r["points"], r["round 1"], r["round 2"])
             for r in rows if r["standing"] == "team"]
    assert teams == [("1", "Team 1", "orange", "Anna, Ben", "1", "1", "0"),
                     ("1", "Team 2", "sky blue", "Cleo, Dan", "1", "0", "1")]
    assert rows[-1]["name"] == "Shared win: Team 1, Team 2 with 1 point (most points after 2 questions)."
    shown, _err = results_json(capsys, path)
    assert [(t["place"], t["colour"], t["rounds"]) for t in shown["standings"]["teams"]] == [
        (1, "orange", [1, 0]), (1, "sky blue", [0, 1])]
    code, text, _err = run(capsys, "--lang", "cs", "results", str(path))
    assert "  1. Tým 1, oranžová (Anna, Ben): 1 bod; " in text and "  1. Tým 2, " in text


def test_teams_of_one_player_still_get_team_standings(tmp_path: Path, capsys) -> None:
    path = tmp_path / "solo-teams.jsonl"
    code, _out, err = run(capsys, "simulate", "quiz", "--players", "3", "--seed", "3", "--option", "teams=[0, 1, 2]",
                          "--journal", str(path))
    assert code == 0, err
    shown, _err = results_json(capsys, path)
    assert sorted(t["members"] for t in shown["standings"]["teams"]) == [[0], [1], [2]]
    assert shown["standings"]["winner"] is None or shown["standings"]["winner"]["teams"] is True



@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_standings_text_shows_reaction_times_in_the_screen_s_short_format(
        tmp_path: Path, capsys, language: str) -> None:
    """A person reads "median 1,534 ms" ("medián 1 534 ms"), as the screen's
    leaderboard shows it: whole milliseconds, grouped in the reader's way,
    never "1533,543 ms"."""
    from games.arbitration import format_ms
    from games.i18n import _, set_language

    path = tmp_path / "night.jsonl"
    code, _out, err = run(capsys, "simulate", "quiz", "--pack", str(PACK), "--players", "4", "--seed", "3",
                          "--json", "--journal", str(path))
    assert code == 0, err
    shown, _err = results_json(capsys, path)
    code, text, _err = run(capsys, "--lang", language, "results", str(path))
    assert code == 0
    timed = [p for p in shown["standings"]["players"] if p["fastest_us"] is not None]
    assert timed
    set_language(language)
    try:
        for p in timed:
            said = _("fastest {fastest}, median {median}").format(fastest=format_ms(p["fastest_us"]),
                                                                  median=format_ms(p["median_us"]))
            assert said in text, (said, text[-800:])
            assert f"{p['median_us'] / 1000:.3f}".replace(".", ",") not in text
            assert f"{p['median_us'] / 1000:.3f}" not in text
    finally:
        set_language("en")


def test_the_record_folded_as_the_game_goes_keeps_what_the_live_box_forgot(tmp_path: Path, capsys) -> None:
    """A live box keeps only its newest events (``bound_logs``); the record
    its deciding process writes at the close is folded as the events come
    (``Recorder``), so a night longer than that keeps its first questions:
    the files are what ``buzzerbox results`` reads from the whole journal."""
    from controller.box.results.quiz import CSV_SUFFIX, JSON_SUFFIX, STANDINGS_SUFFIX, Recorder

    spec = registry.get("quiz")
    settings = spec.settings(3, 5, **{**spec.demo_options, "questions": 12})
    path = tmp_path / "long.jsonl"
    box = Box(spec, settings, station_names=["Anna", "Ben", "Cleo"])
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    recorder = Recorder.of(box, whole=True)
    assert recorder is not None
    box.bound_logs(20)  # far fewer events than the night has, as a live box keeps LIVE_LOG_LIMIT
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), settings.seed)
    session.run_virtual()
    box.end(session.now_us)
    written = recorder.write(box, path)
    assert written == [Path(f"{path}{suffix}") for suffix in (CSV_SUFFIX, STANDINGS_SUFFIX, JSON_SUFFIX)]
    shown, _err = results_json(capsys, path)
    assert json.loads(written[2].read_text(encoding="utf-8")) == shown and len(shown["questions"]) >= 12
    assert shown["questions"][0]["buzzes"] and len(box.event_log) == 20  # the first question's presses were forgotten
    code, sheet, _err = run(capsys, "results", str(path), "--csv")
    assert code == 0 and written[0].read_text(encoding="utf-8-sig") == sheet


def _pressed_question(n: int, presses: int = 5) -> list[GameEvent]:
    """Question ``n`` as a live evening asks it (benchmarks/live_memory.py): armed, pressed by four
    stations, answered right; the engine's own kinds (``EventKind``s, not plain strings) and stamps as
    big as a live game's (their ints are kept too)."""
    t = 10**12 + n * 1_000_000
    return [GameEvent(QuizEvent.QUESTION, t, None, {"number": n, "text": f"Question {n}?", "category": "",
                                                    "answer": "42"}),
            GameEvent(QuizEvent.ARMED, t + 1),
            *(GameEvent(EventKind.BUZZ, t + 300_000 + 37 * k + n, k % 4) for k in range(presses)),
            GameEvent(EventKind.CORRECT, t + 500_000 + n, 0, {"points": 1}),
            GameEvent(EventKind.ROUND_OVER, t + 500_000 + n, 0, {"result": "correct"}),
            GameEvent(QuizEvent.NEXT, t + 600_000 + n, None, {"question": n + 1})]


def test_a_live_quiz_s_record_of_a_long_evening_stays_small() -> None:
    """The deciding process keeps every question's record until the close
    (``Recorder``): an evening of a question a second is 3,600 an hour
    (benchmarks/live_memory.py, under 5 MiB an hour in all). The questions
    before the last few are kept frozen (``freeze``): Python's own bytes
    the fold keeps per question with five presses, after a full collection
    (1,123 B as objects, ~260 B frozen), and the record they give is the
    same as that of a fold that froze none."""
    import gc
    import tracemalloc

    night = QuizNight(4, None)
    night.take(_pressed_question(1))
    events = [e for n in range(2, 1002) for e in _pressed_question(n)]
    gc.collect()
    tracemalloc.start()
    try:
        night.take(events)  # the events themselves were allocated before: only what the record keeps is counted
        gc.collect()
        kept, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kept / 1000 <= 400, f"{kept / 1000:.0f} bytes kept per question"
    whole = QuizNight(4, None)  # every question an object, as before: nothing frozen
    whole.live_questions = 10**9
    whole.take(_pressed_question(1))
    whole.take(events)
    assert len(night.questions) <= 5 and len(whole.questions) == 1002
    frozen, live = (Results("j.jsonl", ["A", "B", "C", "D"], [0, 1, 2, 3], 1, n.finish(), [1001, 0, 0, 0], False, {}, [])
                    for n in (night, whole))
    assert to_csv(frozen) == to_csv(live) and to_json(frozen) == to_json(live)
    assert [len(q.buzzes) for q in frozen.questions][1:1001] == [5] * 1000


def test_an_undo_reaching_a_frozen_question_reopens_it() -> None:
    """The engine's undo stays on the question on screen, but the fold takes
    any journal's events: an undo of a judgement whose question was frozen
    thaws it, marks the judgement undone and reopens it, as if nothing
    had been frozen."""
    events = [e for n in range(1, 9) for e in _pressed_question(n, presses=2)]
    t = events[-1].t_us
    undos = [GameEvent(QuizEvent.UNDO, t + 1, None, {}), GameEvent(QuizEvent.UNDO, t + 2, None, {}),  # 8's, 7's
             GameEvent(EventKind.WRONG, t + 3, 1, {"points": -1}),
             GameEvent(EventKind.ROUND_OVER, t + 3, 1, {"result": "everyone answered wrong"}),
             *_pressed_question(9, presses=1)]
    folds = []
    for live_questions in (1, 10**9):  # every question but the current frozen; none
        night = QuizNight(4, None)
        night.live_questions = live_questions
        night.take(events)
        assert sorted(night.frozen) == ([1, 2, 3, 4, 5, 6, 7, 8] if live_questions == 1 else [])
        night.take(undos)
        folds.append(to_json(Results("j.jsonl", ["A", "B", "C", "D"], [0, 1, 2, 3], 1, night.finish(), [6, -1, 0, 0],
                                     False, {}, [])))
    assert folds[0] == folds[1]
    seventh = folds[0]["questions"][6]
    assert [(j["verdict"], j.get("undone", False)) for j in seventh["judgements"]] == [("correct", True), ("wrong", False)]
    assert seventh["result"] == "everyone answered wrong" and folds[0]["questions"][7]["judgements"][0]["undone"]
