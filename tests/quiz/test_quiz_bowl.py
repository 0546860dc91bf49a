"""Quiz bowl (``rules=bowl``): tossups with powers and negs, the negged team
locked out, a bonus only to the team that got the tossup, and the QBJ match
file that tournament software reads, validated by the QBJ schema."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from games import registry
from games.base import Action, GameEvent
from tests.fits import LONG_TEAMS
from tests.quiz.test_quiz_rounds import assert_drawn_whole_screen

SPEC = registry.get("quiz")
PACK = str(Path(__file__).parent / "packs" / "bowl-sample.csv")


def bowl(players: int = 4, **options: Any):  # noqa: ANN201 - the quiz engine
    """Four stations: team 0 is stations 0 and 1, team 1 is 2 and 3."""
    return SPEC.new_engine(SPEC.settings(players, 7, pack=PACK, rules="bowl", **options))


def act(engine: Any, kind: str, t: int, player: int | None = None) -> list[GameEvent]:
    return engine.handle(Action(kind, t, player))


def buzz(engine: Any, station: int, t: int) -> list[GameEvent]:
    """A press, announced once no later press could tie with it."""
    return act(engine, "buzz", t, station) + engine.tick(t + 1_000)


def bonus(engine: Any, t: int, *verdicts: str) -> list[GameEvent]:
    return [e for k, v in enumerate(verdicts) for e in act(engine, v, t + k)]


def test_a_buzz_before_the_power_mark_scores_15_and_after_it_10() -> None:
    e = bowl()
    act(e, "arm", 0)
    buzz(e, 2, 1_000_000)  # before the moderator read past the *
    events = act(e, "correct", 2_000_000)
    assert [ev.data for ev in events if ev.kind == "correct"] == [{"points": 15, "tossup": "power"}]
    bonus(e, 3_000_000, "wrong", "wrong", "wrong")
    assert e.public_view()["team_scores"] == [0, 15]
    act(e, "next", 4_000_000)
    act(e, "arm", 5_000_000)
    act(e, "power", 6_000_000)  # the reading passed the *
    buzz(e, 0, 6_500_000)
    events = act(e, "correct", 7_000_000)
    assert [ev.data for ev in events if ev.kind == "correct"] == [{"points": 10, "tossup": "ten"}]


def test_a_question_without_a_power_mark_is_worth_10_and_has_no_power_key() -> None:
    e = bowl()
    for k in range(2):  # to the third question, which has no *
        act(e, "next", k)
    act(e, "arm", 10)
    assert "power" not in e.legal_actions(None) and "read" in e.legal_actions(None)
    buzz(e, 1, 1_000_000)
    assert [ev.data["points"] for ev in act(e, "correct", 2_000_000) if ev.kind == "correct"] == [10]


def neg_first(e: Any) -> None:
    """Station 0 (team 0) interrupts at 1 s, before the power mark, and is wrong: a neg."""
    act(e, "arm", 0)
    buzz(e, 0, 1_000_000)
    buzz(e, 1, 1_100_000)  # a team-mate's press: the team answers once
    events = act(e, "wrong", 2_000_000)
    assert [ev.data for ev in events if ev.kind == "wrong"] == [{"points": -5, "tossup": "neg"}]


def test_after_a_neg_the_other_team_may_buzz_while_the_rest_is_read_and_before_the_mark_it_is_a_power() -> None:
    """NAQT (docs/quiz.md, Quiz bowl): the moderator reads on, the other team may buzz at any moment;
    a right answer before the power mark is still a power."""
    e = bowl()
    neg_first(e)
    view = e.public_view()
    assert view["team_scores"] == [-5, 0] and view["phase"] == "armed"
    assert view["status"][:2] == ["out", "out"] and view["bowl"]["locked_out"] == [0]
    assert {"power", "read"} <= set(e.legal_actions(None))  # the moderator's marks stay
    events = buzz(e, 2, 2_300_000)  # still before the *
    assert [ev.kind for ev in events] == ["buzz", "winner"] and events[-1].player == 2
    events = act(e, "correct", 3_000_000)
    assert [ev.data for ev in events if ev.kind == "correct"] == [{"points": 15, "tossup": "power"}]
    assert e.public_view()["team_scores"] == [-5, 15] and e.public_view()["phase"] == "bonus"


def test_a_rebound_after_the_mark_but_before_the_end_is_ten_and_a_wrong_one_is_a_neg_too() -> None:
    e = bowl()
    neg_first(e)
    act(e, "power", 2_500_000)  # the reading passes the *
    buzz(e, 3, 2_700_000)
    assert [ev.data for ev in act(e, "correct", 3_000_000) if ev.kind == "correct"] == [{"points": 10, "tossup": "ten"}]
    e = bowl()
    neg_first(e)
    buzz(e, 3, 2_700_000)
    events = act(e, "wrong", 3_000_000)  # still read: an interrupt of the other team's own
    assert [ev.data for ev in events if ev.kind == "wrong"] == [{"points": -5, "tossup": "neg"}]
    assert e.public_view()["phase"] == "round_over" and e.public_view()["team_scores"] == [-5, -5]


def test_a_player_who_buzzes_on_the_last_word_and_keeps_pressing_is_recognised() -> None:
    """The report: presses after a neg counted as false starts, each restarting a 250 ms lockout."""
    e = bowl()
    neg_first(e)
    act(e, "power", 2_300_000)  # the reading is near its end, past the *
    kinds = [ev.kind for t in range(2_400_000, 3_000_000, 100_000) for ev in act(e, "buzz", t, 3)]
    assert "early" not in kinds and kinds[0] == "buzz"
    e.tick(3_100_000)
    assert e.public_view()["answering"] == 3
    events = act(e, "correct", 3_500_000)
    assert [ev.data for ev in events if ev.kind == "correct"] == [{"points": 10, "tossup": "ten"}]


def test_after_the_end_the_other_team_may_buzz_until_the_moderator_calls_time() -> None:
    e = bowl()
    neg_first(e)
    assert [ev.kind for ev in act(e, "read", 3_000_000)] == ["read"]  # already open: no second arming
    assert e.public_view()["phase"] == "armed"
    buzz(e, 3, 7_900_000)
    assert e.public_view()["answering"] == 3
    events = act(e, "wrong", 9_000_000)  # wrong after the end: no penalty, and the tossup is dead
    assert [ev.data for ev in events if ev.kind == "wrong"] == [{"points": 0, "tossup": "no_penalty"}]
    assert e.public_view()["phase"] == "round_over"
    assert e.public_view()["team_scores"] == [-5, 0] and e.round.results[-1]["bowl"]["bonus_team"] is None
    e = bowl()
    neg_first(e)
    act(e, "read", 3_000_000)
    assert [ev.kind for ev in act(e, "next", 8_000_000)][:1] == ["next"]  # time: the moderator moves on
    assert e.round.results[-1]["result"] == "skipped"


def test_only_the_negged_team_s_presses_are_refused_and_each_says_why() -> None:
    e = bowl()
    neg_first(e)
    for t, station in ((2_200_000, 0), (2_300_000, 1), (2_400_000, 1)):
        assert [(ev.kind, ev.player, ev.data) for ev in act(e, "buzz", t, station)] == [
            ("locked_out", station, {"team": 0})]
    assert e.public_view()["phase"] == "armed" and not e.public_view()["lockouts_us"]  # no false start either
    buzz(e, 2, 2_500_000)
    assert e.public_view()["answering"] == 2


def test_a_journal_of_rules_2_replays_its_neg_with_the_buzzers_closed_until_the_end() -> None:
    """Rules 2 (before NAQT's rebound): the buzzers stayed closed until ``e``."""
    e = bowl(rules_version=2)
    neg_first(e)
    assert e.public_view()["phase"] == "idle"
    assert [ev.kind for ev in buzz(e, 3, 2_500_000)] == ["early"]
    assert [ev.kind for ev in act(e, "read", 3_000_000)] == ["read", "armed"]
    assert [ev.kind for ev in buzz(e, 1, 3_500_000)] == []  # the negged team stays locked out
    buzz(e, 3, 3_600_000)
    assert e.public_view()["answering"] == 3


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_buzzers_open_after_a_neg_say_who_cannot_buzz(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    from games.i18n import set_language

    set_language(lang)
    try:
        e = bowl(team_names=LONG_TEAMS[:2])
        neg_first(e)
        view = e.public_view()
        drawn = assert_drawn_whole_screen(view, 4, size, tmp_path / f"bowl-rebound-{lang}-{size[0]}.png")
        said = {"en": "answered wrong", "cs": "odpověděl", "pl": "odpowied"}[lang]
        assert any(said in text and LONG_TEAMS[0] in text for text, *_ in drawn)
    finally:
        set_language("en")


def test_the_bonus_goes_only_to_the_team_that_got_the_tossup_and_nobody_buzzes_during_it() -> None:
    e = bowl()
    act(e, "arm", 0)
    act(e, "read", 500_000)
    buzz(e, 3, 1_000_000)
    events = act(e, "correct", 2_000_000)
    assert [ev.kind for ev in events][-1] == "bonus" and events[-1].data == {"team": 1, "parts": 3}
    view = e.public_view()
    assert view["phase"] == "bonus" and e.legal_actions(None)[:2] == ["correct", "wrong"]
    assert act(e, "buzz", 2_100_000, 0) == []  # the other team cannot take the bonus
    parts = bonus(e, 3_000_000, "correct", "wrong", "correct")
    assert [(ev.data["team"], ev.data["part"], ev.data["points"]) for ev in parts if ev.kind == "bonus_part"] == [
        (1, 1, 10), (1, 2, 0), (1, 3, 10)]
    assert e.public_view()["team_scores"] == [0, 30]  # 10 for the tossup, 20 of the bonus
    assert e.public_view()["phase"] == "round_over"
    assert e.round.results[-1]["bowl"]["bonus"] == [10, 0, 10]


def test_undo_takes_back_a_bonus_part_then_the_tossup() -> None:
    e = bowl()
    act(e, "arm", 0)
    buzz(e, 0, 1_000_000)
    act(e, "correct", 2_000_000)
    act(e, "correct", 3_000_000)
    assert e.public_view()["team_scores"] == [25, 0]
    act(e, "undo", 4_000_000)
    assert e.public_view()["team_scores"] == [15, 0] and e.public_view()["bowl"]["bonus"] == []
    act(e, "undo", 5_000_000)
    assert e.public_view()["team_scores"] == [0, 0] and e.public_view()["phase"] == "answering"
    assert e.public_view()["bowl"]["buzzes"] == []


#: the wall clock (UTC) when the test match's timeline was at 0: injected, never the machine's
MATCH_STARTED = datetime(2026, 12, 3, 19, 0, 0, 250_000, tzinfo=timezone.utc)


def play_journaled_match(path: Path, started: datetime | None = MATCH_STARTED) -> None:
    """Two tossups: a power with a 2-of-3 bonus; a neg, then the other team's ten after the reading, a 1-of-3 bonus.
    ``started`` None: journaled as a box before wall-clock records wrote it (no buzz has a wall time)."""
    from controller.box import journal as journal_mod
    from controller.box.press import Press
    from controller.box.runtime import Box
    from controller.box.session import journal_wall_clock

    box = Box(SPEC, SPEC.settings(4, 7, pack=PACK, rules="bowl"))
    box.journal = journal_mod.JournalWriter.create(path, box.header(), fsync=False)
    if started is not None:
        journal_wall_clock(box, 0, started.timestamp)
    box.host("arm", 0)
    box.apply_press(Press(2, "bell", 400_000))
    box.step(500_000)
    for k, verdict in enumerate(("correct", "correct", "wrong", "correct")):
        box.host(verdict, 1_000_000 + k * 100_000)
    box.host("next", 2_000_000)
    box.host("arm", 3_000_000)
    box.apply_press(Press(0, "bell", 3_400_000))
    box.step(3_500_000)
    box.host("wrong", 4_000_000)
    box.host("read", 5_000_000)
    box.apply_press(Press(3, "bell", 5_400_000))
    box.step(5_500_000)
    for k, verdict in enumerate(("correct", "wrong", "correct", "wrong")):
        box.host(verdict, 6_000_000 + k * 100_000)
    box.journal.close()
    assert box.engine.public_view()["team_scores"] == [-5, 15 + 20 + 10 + 10]


def test_results_qbj_writes_a_match_file_the_qbj_schema_accepts(tmp_path: Path, capsys: Any) -> None:
    import json

    import jsonschema

    from controller.apps.qbj import SCHEMA
    from controller.cli import main

    path = tmp_path / "bowl.jsonl"
    play_journaled_match(path)
    assert main(["results", str(path), "--qbj"]) == 0
    assert "bowl.qbj" in capsys.readouterr().out
    match = json.loads((tmp_path / "bowl.qbj").read_text(encoding="utf-8"))
    jsonschema.validate(match, json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert match["tossups_read"] == 2
    first, second = match["match_questions"]
    assert [(b["player"]["$ref"], b["result"]["value"]) for b in first["buzzes"]] == [("player_3", 15)]
    assert [p["controlled_points"] for p in first["bonus"]["parts"]] == [10, 0, 10]
    assert [(b["team"]["$ref"], b["result"]["value"]) for b in second["buzzes"]] == [("team_1", -5), ("team_2", 10)]
    # when each buzz was pressed in the room: the match's start + the press's stamp, in UTC to the millisecond
    assert [b["buzz_position"]["time"] for b in first["buzzes"] + second["buzzes"]] == [
        "2026-12-03T19:00:00.650Z", "2026-12-03T19:00:03.650Z", "2026-12-03T19:00:05.650Z"]
    untimed = json.loads(json.dumps(match))  # the schema holds a time to ISO 8601 with its zone, as QBJ says
    untimed["match_questions"][0]["buzzes"][0]["buzz_position"]["time"] = "2026-12-03 19:00:00.650"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(untimed, json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert [p["controlled_points"] for p in second["bonus"]["parts"]] == [0, 10, 0]
    teams = match["match_teams"]
    assert [t["bonus_points"] for t in teams] == [0, 30]
    assert [p["name"] for p in teams[1]["team"]["players"]] == ["Player 3", "Player 4"]
    counts = {c["answer_type"]["value"]: c["number"] for c in teams[0]["match_players"][0]["answer_counts"]}
    assert counts == {15: 0, 10: 0, -5: 1}
    assert main(["results", str(path), "--qbj", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == match


def qbj_of(path: Path, capsys: Any) -> dict[str, Any]:
    """``results PATH --qbj -``'s match, checked against the vendored schema."""
    import json

    import jsonschema

    from controller.apps.qbj import SCHEMA
    from controller.cli import main

    assert main(["results", str(path), "--qbj", "-"]) == 0
    match: dict[str, Any] = json.loads(capsys.readouterr().out)
    jsonschema.validate(match, json.loads(SCHEMA.read_text(encoding="utf-8")))
    return match


def buzz_times(match: dict[str, Any]) -> list[str | None]:
    return [b.get("buzz_position", {}).get("time") for q in match["match_questions"] for b in q["buzzes"]]


def test_a_journal_from_before_wall_clock_records_exports_its_buzzes_without_a_time(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "old.jsonl"
    play_journaled_match(path, started=None)
    assert '"wall_clock"' not in path.read_text(encoding="utf-8")  # as an earlier box wrote it
    match = qbj_of(path, capsys)
    assert buzz_times(match) == [None, None, None]
    assert [b["result"]["value"] for q in match["match_questions"] for b in q["buzzes"]] == [15, -5, 10]


def test_a_resumed_old_journal_times_the_buzzes_after_the_resume_by_the_resume_s_wall_clock(
        tmp_path: Path, capsys: Any) -> None:
    """The resumed timeline goes on a second after the last record, whatever time passed in
    the room: the buzzes after it are timed from the wall clock at the resume, those before stay untimed."""
    from controller.box import session as box_session
    from controller.box.press import Press

    path = tmp_path / "old.jsonl"
    play_journaled_match(path, started=None)
    resumed = datetime(2026, 12, 3, 20, 30, 0, tzinfo=timezone.utc)  # an hour and a half later: a power cut
    box, _journal = box_session.resumed_box(path, wall_clock=resumed.timestamp)
    t0 = box.session_start_us
    box.host("next", t0 + 100_000)
    box.host("arm", t0 + 200_000)
    box.apply_press(Press(1, "bell", t0 + 1_234_567))
    box.step(t0 + 1_300_000)
    for k, verdict in enumerate(("correct", "wrong", "wrong", "wrong")):  # the tossup, then its bonus
        box.host(verdict, t0 + 2_000_000 + k * 100_000)
    assert box.journal is not None
    box.journal.close()
    assert buzz_times(qbj_of(path, capsys)) == [None, None, None, "2026-12-03T20:30:01.234Z"]


def test_the_schema_names_only_fields_of_the_published_qbj_definitions() -> None:
    """Our JSON Schema is written from the vendored GraphQL: every field it allows is a published one."""
    import json
    import re

    from controller.apps.qbj import SCHEMA

    published: dict[str, set[str]] = {}
    for graphql in SCHEMA.parent.glob("*.graphql"):
        for name, body in re.findall(r"^type (\w+) \{(.*?)^\}", graphql.read_text(encoding="utf-8"), re.S | re.M):
            body = re.sub(r'"""(.*?)"""', "", body, flags=re.S)
            published[name] = set(re.findall(r"^\s*(\w+)\s*:", body, re.M))
    defs = json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"]
    for name, schema in defs.items():
        if name == "Ref":
            continue
        objects = [s for s in schema.get("oneOf", [schema]) if "properties" in s]
        for obj in objects:
            ours = set(obj["properties"]) - {"type", "id"}
            assert ours <= published[name], (name, ours - published[name])


def test_a_qbj_of_a_quiz_not_played_as_quiz_bowl_is_one_line(tmp_path: Path, capsys: Any) -> None:
    from controller.cli import main

    path = tmp_path / "classic.jsonl"
    assert main(["simulate", "quiz", "--players", "3", "--journal", str(path)]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as failed:
        main(["results", str(path), "--qbj"])
    err = capsys.readouterr().err.strip()
    assert failed.value.code == 2 and len(err.splitlines()) == 1 and "rules=bowl" in err and "Traceback" not in err
    assert not (tmp_path / "classic.qbj").exists()


def test_a_simulated_quiz_bowl_night_ends_and_replays(tmp_path: Path) -> None:
    from controller.box import journal as journal_mod
    from controller.box.runtime import Box, box_from_journal
    from controller.box.simulate import Session

    settings = SPEC.settings(6, 5, pack=PACK, rules="bowl", buzz_window_us=8_000_000, answer_time_us=6_000_000)
    box = Box(SPEC, settings)
    path = tmp_path / "bowl.jsonl"
    box.journal = journal_mod.JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    session = Session(box, SPEC.new_bots(settings), SPEC.new_host(settings), 5)
    session.run_virtual(3_600_000_000)
    box.journal.close()
    assert box.engine.finished
    assert box_from_journal(journal_mod.read(path)).engine.summary() == box.engine.summary()


def test_the_host_page_offers_the_moderator_s_marks_then_the_bonus_judgements() -> None:
    from controller.box.press import Press
    from controller.box.runtime import Box
    from controller.box.views import host_buttons

    box = Box(SPEC, SPEC.settings(4, 7, pack=PACK, rules="bowl"))

    def kinds() -> list[str]:
        return [b["kind"] for b in host_buttons(box)]

    box.host("arm", 0)
    assert {"power", "read"} <= set(kinds())
    box.host("power", 100_000)
    assert "power" not in kinds() and "read" in kinds()
    box.apply_press(Press(2, "bell", 400_000))
    box.step(500_000)
    box.host("correct", 1_000_000)
    assert box.engine.public_view()["phase"] == "bonus"
    assert {"correct", "wrong"} <= set(kinds()) and not {"power", "read", "arm", "next"} & set(kinds())


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_bonus_is_drawn(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:

    from games.i18n import set_language

    set_language(lang)
    try:
        e = bowl(team_names=LONG_TEAMS[:2])
        act(e, "arm", 0)
        buzz(e, 3, 1_000_000)
        act(e, "correct", 2_000_000)
        act(e, "correct", 3_000_000)
        view = e.public_view()
        assert view["phase"] == "bonus" and view["bowl"]["bonus"] == [10]
        assert_drawn_whole_screen(view, 4, size, tmp_path / f"bowl-bonus-{lang}-{size[0]}.png")
    finally:
        set_language("en")


def test_results_count_the_bonus_for_the_team_and_not_as_wrong_answers(tmp_path: Path, capsys: Any) -> None:
    import json

    from controller.cli import main

    path = tmp_path / "bowl.jsonl"
    play_journaled_match(path)
    assert main(["results", str(path), "--json"]) == 0
    out = capsys.readouterr()
    shown = json.loads(out.out)
    assert "differ" not in out.err  # the judgements and the bonus parts add up to the game's scores
    assert shown["scores"] == [-5, -5, 55, 55]
    players = {p["station"]: p for p in shown["standings"]["players"]}
    assert (players[2]["points"], players[2]["correct"], players[2]["wrong"]) == (35, 1, 0)
    assert (players[3]["points"], players[3]["correct"], players[3]["wrong"]) == (20, 1, 0)
    assert main(["results", str(path), "--csv", "standings"]) == 0


def test_a_qbj_file_that_cannot_be_written_is_one_line(tmp_path: Path, capsys: Any) -> None:
    from controller.cli import main

    path = tmp_path / "bowl.jsonl"
    play_journaled_match(path)
    with pytest.raises(SystemExit) as failed:
        main(["results", str(path), "--qbj", str(tmp_path / "no-such-folder" / "match.qbj")])
    # (the journal's own note, "no end record", aside: the test's match stops without one)
    err = "\n".join(line for line in capsys.readouterr().err.splitlines() if not line.startswith("note:"))
    assert failed.value.code == 2 and len(err.splitlines()) == 1 and "--qbj FILE" in err and "Traceback" not in err
