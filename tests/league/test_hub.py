"""The hub without a broker: what it counts, what it refuses, what it keeps
across a restart; the organiser's page, its password and its corrections;
the exports (CSV, QBJ)."""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from controller.box.journal_format import JournalError
from controller.league import messages
from controller.league.broker import write_broker_files
from controller.league.commands import room_folder
from controller.league.hub import Hub
from controller.league.messages import Result
from controller.league.pages import HubService
from controller.league.simulated import play_next
from controller.league.standings import table
from controller.league.tournament import Tournament, load


def clock() -> int:
    return 1_000


@pytest.fixture
def cup(league_file: Callable[..., Path], tmp_path: Path, silent_port: int) -> Tournament:
    t = load(league_file(silent_port, per_team=2))  # nothing listens there: no broker
    write_broker_files(t, tmp_path / "broker")  # the password files
    return t


def played(t: Tournament, tmp_path: Path, room: str = "a", matches: int = 2) -> list[Result]:
    folder = room_folder(t, room, tmp_path / "journals")
    for seed in range(matches):
        play_next(folder, seed)
    return folder.results()


def topic(r: Result) -> str:
    return messages.result_topic("cup", r.room, r.match)


def payload(r: Result) -> bytes:
    return messages.encode(r.to_json())


def test_a_result_counts_once_and_a_replayed_match_supersedes_it(cup: Tournament, tmp_path: Path) -> None:
    first, second = played(cup, tmp_path)
    hub = Hub(cup, tmp_path / "hub.jsonl", clock)
    assert hub.take(topic(first), payload(first)) == "taken"
    assert hub.take(topic(first), payload(first)) == "duplicate"  # sent again after a reconnect
    again = Result(**{**first.__dict__, "seq": 2, "scores": (99, 0)})
    assert hub.take(topic(again), payload(again)) == "taken"
    assert hub.results[first.match].scores == (99, 0)  # the match played again counts, not both
    assert hub.take(topic(first), payload(first)) == "duplicate"  # the old one cannot come back
    assert hub.take(topic(second), payload(second)) == "taken"
    assert sum(row.played for row in hub.standings()) == 4  # two matches of two teams
    hub.close()


def test_the_hub_refuses_what_does_not_fit_the_tournament(cup: Tournament, tmp_path: Path) -> None:
    (r,) = played(cup, tmp_path, matches=1)
    hub = Hub(cup, tmp_path / "hub.jsonl", clock)
    other_room = messages.result_topic("cup", "b", r.match)
    assert hub.take(other_room, payload(r)) == "refused"  # room a's result on room b's topic
    hall_b = next(m for m in cup.matches if m.room == "b")
    fake = Result(**{**r.__dict__, "match": hall_b.id, "teams": hall_b.teams, "scores": (9, 0)})
    assert hub.take(messages.result_topic("cup", "a", hall_b.id), payload(fake)) == "refused"  # not room a's match
    wrong_teams = Result(**{**r.__dict__, "teams": ("foxes", "bees")})
    assert hub.take(topic(r), payload(wrong_teams)) == "refused"
    unknown = Result(**{**r.__dict__, "match": "m99"})
    assert hub.take(messages.result_topic("cup", "a", "m99"), payload(unknown)) == "refused"
    assert hub.take("buzzerbox/v1/cup/room/a/secret", b"{}") == "refused"
    assert hub.take(topic(r), b"\xff\xfe") == "refused"
    assert hub.results == {} and hub.counts["refused"] == 6
    hub.close()


def test_a_second_version_of_a_result_is_a_conflict_the_organiser_decides(cup: Tournament, tmp_path: Path) -> None:
    (first,) = played(cup, tmp_path, matches=1)
    ledger = tmp_path / "hub.jsonl"
    hub = Hub(cup, ledger, clock)
    assert hub.take(topic(first), payload(first)) == "taken"
    spare = Result(**{**first.__dict__, "scores": (first.scores[1] + 5, 0), "journal_sum": "ab" * 8})
    assert hub.take(topic(spare), payload(spare)) == "conflict"  # same (match, seq), another journal: never dropped
    assert hub.take(topic(spare), payload(spare)) == "duplicate"  # the same spare again is no new conflict
    m = cup.match(first.match)
    assert m is not None and hub.match_state(m) == "conflict"
    assert all(row.played == 0 for row in hub.standings())  # no version counts until the organiser decides
    assert [v.journal_sum for v in hub.versions(first.key)] == [first.journal_sum, "ab" * 8]
    with pytest.raises(messages.MessageError, match="reason"):
        hub.decide(first.match, 1, "ab" * 8, " ", "organiser")
    hub.decide(first.match, 1, "ab" * 8, "the spare box's journal is the one the judge signed", "organiser")
    assert hub.results[first.match].scores == spare.scores and hub.match_state(m) == "done"
    hub.close()
    again = Hub(cup, ledger, clock)  # the conflict and the decision are in the ledger
    assert again.results[first.match].scores == spare.scores and again.open_conflicts() == []
    assert [r["type"] for r in again.ledger.records] == ["result", "conflict", "decision"]
    again.close()


def test_a_torn_last_ledger_line_is_set_aside_and_the_rest_kept(cup: Tournament, tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    first, second = played(cup, tmp_path)
    ledger = tmp_path / "hub.jsonl"
    hub = Hub(cup, ledger, clock)
    hub.take(topic(first), payload(first))
    hub.correct(first.match, (7, 3), "recount", "organiser")
    hub.take(topic(second), payload(second))
    hub.close()
    whole = ledger.read_bytes()
    ledger.write_bytes(whole[: len(whole) - 40])  # the laptop died while the last line was written
    again = Hub(cup, ledger, clock)
    assert [r["type"] for r in again.ledger.records] == ["result", "correction"]
    assert again.corrections[first.match].scores == (7, 3)
    assert again.ledger.salvaged is not None and again.ledger.salvaged.read_bytes() == whole[whole.rindex(b"\n", 0, -1) + 1: -40]
    assert sum("cut off mid-write" in r.getMessage() for r in caplog.records) == 1
    assert again.take(topic(second), payload(second)) == "taken"  # the broker's retained copy brings it back
    again.close()
    assert [r["type"] for r in Hub(cup, ledger, clock).ledger.records] == ["result", "correction", "result"]


def test_a_second_hub_on_the_same_ledger_is_refused_in_one_line(cup: Tournament, tmp_path: Path) -> None:
    hub = Hub(cup, tmp_path / "hub.jsonl", clock)
    with pytest.raises(JournalError, match="another hub is serving this tournament"):
        Hub(cup, tmp_path / "hub.jsonl", clock)
    hub.close()
    Hub(cup, tmp_path / "hub.jsonl", clock).close()  # once the first stopped, it may start


def test_the_latency_is_the_hubs_own_not_the_boxes_clock(cup: Tournament, tmp_path: Path) -> None:
    """A box whose clock is two minutes ahead: the hub's figure is what the way added, not the skew."""
    now = [1_000_000]
    hub = Hub(cup, tmp_path / "hub.jsonl", lambda: now[0])
    skew = 120_000
    for transit in (40, 15, 30, 15, 250):  # ms each view took on the way
        now[0] += 1000
        sent = now[0] - transit + skew
        hub.take(messages.room_topic("cup", "a", "live"), messages.live_payload("a", "m1", sent, "{}"))
    delays = sorted(hub.latencies)
    assert delays == [0, 0, 0, 15, 235]  # each against the room's quickest view: skew and bare transit cancel
    assert hub.stats()["latency_ms"]["p99"] == 235
    hub.close()


def test_a_restarted_hub_knows_its_results_and_corrections(cup: Tournament, tmp_path: Path) -> None:
    first, second = played(cup, tmp_path)
    ledger = tmp_path / "hub.jsonl"
    hub = Hub(cup, ledger, clock)
    hub.take(topic(first), payload(first))
    hub.take(topic(second), payload(second))
    hub.correct(first.match, (7, 3), "a wrong judgement on question 4, agreed by both captains", "organiser")
    before = [row.to_json() for row in hub.standings()]
    hub.close()
    again = Hub(cup, ledger, clock)
    assert [row.to_json() for row in again.standings()] == before
    assert again.corrections[first.match].reason.startswith("a wrong judgement")
    assert again.take(topic(first), payload(first)) == "duplicate"  # the broker's retained copy: not counted twice
    again.close()
    lines = ledger.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"seq":1', b'"seq":5')
    ledger.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match="line 2 is damaged"):
        Hub(cup, ledger, clock)


def test_a_correction_needs_a_reason_and_one_score_per_team(cup: Tournament, tmp_path: Path) -> None:
    hub = Hub(cup, tmp_path / "hub.jsonl", clock)
    with pytest.raises(messages.MessageError, match="reason"):
        hub.correct("m1", (1, 2), "  ", "organiser")
    with pytest.raises(messages.MessageError, match="2 scores"):
        hub.correct("m1", (1, 2, 3), "typo", "organiser")
    hub.correct("m1", (2, 1), "played on paper: the box was flooded", "organiser")  # no box result: still counts
    rows = {row.team: row for row in hub.standings()}
    m1 = cup.match("m1")
    assert m1 is not None and rows[m1.teams[0]].won == 1 and rows[m1.teams[1]].lost == 1
    hub.close()


def test_player_statistics_from_the_judgements_and_the_presses(cup: Tournament, tmp_path: Path) -> None:
    from controller.league.messages import QuestionLine
    from controller.league.standings import effective, player_stats

    stations = ("Ann", "Ben", "Cid", "Dee")  # owls: Ann, Ben; foxes: Cid, Dee
    questions = (
        # Ann powers it, 4 ms ahead of Cid: a close win
        QuestionLine(1, "correct", ((0, 0, "power", 15),), (15, 0), ((0, 250_000, 0), (2, 254_000, 4_000))),
        # Cid negs, then (armed again) Ben answers right, 30 ms ahead of Dee: not close
        QuestionLine(2, "correct", ((1, 2, "neg", -5), (0, 1, "correct", 10)), (25, -5),
                     ((2, 180_000, 0), (1, 400_000, 0), (3, 430_000, 30_000))),
    )
    r = Result("a", "m1", 1, "quiz", ("owls", "foxes"), (25, -5), True, "0" * 16, 9, questions, stations)
    rows = {p.name: p for p in player_stats(cup, effective({"m1": r}, {}, cup))}
    ann, ben, cid, dee = rows["Ann"], rows["Ben"], rows["Cid"], rows["Dee"]
    assert (ann.points, ann.correct, ann.powers, ann.close_wins, ann.fastest_us) == (15, 1, 1, 1, 250_000)
    assert (ben.points, ben.correct, ben.powers, ben.close_wins) == (10, 1, 0, 0)
    assert (cid.points, cid.negs, cid.presses, cid.fastest_us, cid.median_us) == (-5, 1, 2, 180_000, 254_000)
    assert (dee.points, dee.presses, dee.matches) == (0, 1, 1)
    assert [p.name for p in player_stats(cup, {"m1": r})][:2] == ["Ann", "Ben"]  # by points
    assert messages.parse_result(messages.encode(r.to_json())) == r  # the presses cross the wire


def test_a_played_quiz_carries_each_press_for_the_players_page(cup: Tournament, tmp_path: Path) -> None:
    (r,) = played(cup, tmp_path, matches=1)
    assert any(q.buzzes for q in r.questions)
    hub = Hub(cup, tmp_path / "hub.jsonl", clock)
    hub.take(topic(r), payload(r))
    players = hub.players()
    assert len(players) == 4 and sum(p.presses for p in players) == sum(len(q.buzzes) for q in r.questions)
    assert sum(p.points for p in players) == sum(pts for q in r.questions for *_x, pts in q.judgements)
    assert all(p.fastest_us is None or p.fastest_us <= (p.median_us or 0) for p in players)
    hub.close()


def test_a_forfeit_loses_the_match_and_counts_no_score(cup: Tournament, tmp_path: Path) -> None:
    (r,) = played(cup, tmp_path, matches=1)
    ledger = tmp_path / "hub.jsonl"
    hub = Hub(cup, ledger, clock)
    hub.take(topic(r), payload(r))
    quitter, other = r.teams
    with pytest.raises(messages.MessageError, match="does not play match"):
        hub.correct(r.match, (), "no show", "organiser", forfeit="nobody")
    hub.correct(r.match, (), "did not turn up after lunch", "organiser", forfeit=quitter)
    hub.close()
    again = Hub(cup, ledger, clock)  # journaled
    rows = {row.team: row for row in again.standings()}
    assert (rows[other].won, rows[other].points, rows[other].scored) == (1, 2, 0)
    assert (rows[quitter].lost, rows[quitter].played, rows[quitter].scored, rows[quitter].difference) == (1, 1, 0, 0)
    from controller.league.standings import to_qbj

    qbj = to_qbj(cup, r, again.corrections[r.match])
    assert [team["forfeit_loss"] for team in qbj["match_teams"]] == [True, False]
    again.close()


def test_tiebreaks_head_to_head_then_difference(cup: Tournament) -> None:
    def result(match: str, teams: tuple[str, str], scores: tuple[int, int]) -> Result:
        return Result("a", match, 1, "quiz", teams, scores, True, "0" * 16, 2)

    counted = {  # owls, foxes and moles 2 points each
        "x1": result("x1", ("owls", "foxes"), (1, 2)),
        "x2": result("x2", ("owls", "bees"), (10, 0)),
        "x3": result("x3", ("foxes", "moles"), (0, 1)),
    }
    # owls have the best difference (+9) but no head-to-head point among the three: last of them;
    # foxes and moles are level head to head (2 each): moles' difference (+1) beats foxes' (0)
    assert [row.team for row in table(cup, counted)][:3] == ["moles", "foxes", "owls"]
    assert [row.team for row in table(cup, {})] == sorted(t.id for t in cup.teams)  # nothing played: by id


def fetch(url: str, auth: tuple[str, str] | None = None, data: dict[str, str] | None = None) -> tuple[int, str, Any]:
    async def go() -> tuple[int, str, Any]:
        headers = {}
        if auth is not None:
            headers["Authorization"] = "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        async with aiohttp.ClientSession() as s:
            method = s.post if data is not None else s.get
            async with method(url, headers=headers, data=data, allow_redirects=False) as res:
                return res.status, await res.text(), res.headers
    return asyncio.run(go())


def test_organiser_page_needs_the_password_and_journals_a_correction(cup: Tournament, tmp_path: Path) -> None:
    results = played(cup, tmp_path, matches=1)
    service = HubService(cup, tmp_path / "hub.jsonl", port=0, bind="127.0.0.1").start()
    try:
        for r in results:
            service.hub.take(topic(r), payload(r))
        base = f"http://127.0.0.1:{service.port}"
        password = (tmp_path / "secrets" / "organiser.password").read_text().strip()
        assert fetch(base + "/organiser")[0] == 401
        assert fetch(base + "/organiser", ("organiser", "guess"))[0] == 401
        status, page, _h = fetch(base + "/organiser", ("organiser", password))
        assert status == 200 and "Hall A" in page and results[0].match in page
        form = {"match": results[0].match, "scores": "5 4", "reason": "recount", "token": "stale"}
        assert fetch(base + "/organiser/correct", ("organiser", password), form)[0] == 403
        form["token"] = service.form_token
        assert fetch(base + "/organiser/correct", None, form)[0] == 401
        status, _text, headers = fetch(base + "/organiser/correct", ("organiser", password), form)
        assert status == 303 and service.hub.corrections[results[0].match].scores == (5, 4)
        assert any(r["type"] == "correction" for r in service.hub.ledger.records)

        status, text, _h = fetch(base + "/standings.csv")
        rows = list(csv.DictReader(io.StringIO(text)))
        assert status == 200 and {int(r["played"]) for r in rows} == {0, 1} and len(rows) == len(cup.teams)
        status, text, _h = fetch(base + f"/match/{results[0].match}.qbj")
        qbj = json.loads(text)
        assert status == 200 and len(qbj["match_teams"]) == 2
        assert qbj["tossups_read"] == len(results[0].questions) > 0
        assert "recount" in qbj["notes"]
        status, text, _h = fetch(base + "/board.json")
        board = json.loads(text)
        assert [room["id"] for room in board["rooms"]] == ["a", "b", "c"] and board["standings"]
        assert fetch(base + "/match/m99.qbj")[0] == 404
        status, text, _h = fetch(base + "/schedule")  # printable: a page per room, every match of each
        assert status == 200 and text.count("<section>") == 3 and "page-break-after:always" in text
        for m in cup.matches:
            assert f"<td>{m.id}</td>" in text
        hall_a = text[text.index("Hall A"):text.index("Hall B")]
        assert [m.id for m in cup.matches_in("a")] == re.findall(r"<td>(m\d+)</td>", hall_a)
        assert "09:00" in hall_a and "5 : 4" in hall_a  # the day's start; the corrected result
        forfeit = {"match": "m2", "forfeit": "foxes", "reason": "no show", "token": service.form_token}
        assert fetch(base + "/organiser/correct", ("organiser", password), forfeit)[0] == 303
        assert service.hub.corrections["m2"].forfeit == "foxes"
        assert "forfeited by Foxes: no show" in fetch(base + "/organiser", ("organiser", password))[1]
        status, text, _h = fetch(base + "/players")
        assert status == 200 and "Won by under 10 ms" in text and text.count("<tr>") == 1 + 4
        assert fetch(base + "/")[0] == 200

        # a link cannot put words on the organiser's page, and no other site may frame it
        status, page, headers = fetch(base + "/organiser?said=Call+0900+to+confirm", ("organiser", password))
        assert status == 200 and "0900" not in page
        assert headers["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in headers["Content-Security-Policy"]

        # a conflict: both versions on the page, one chosen there with a reason
        r = results[0]
        spare = Result(**{**r.__dict__, "scores": (1, 30), "journal_sum": "cd" * 8})
        assert service.hub.take(topic(spare), payload(spare)) == "conflict"
        status, page, _h = fetch(base + "/organiser", ("organiser", password))
        assert r.journal_sum in page and "cd" * 8 in page and "1 : 30" in page
        decide = {"match": r.match, "seq": "1", "sum": "cd" * 8, "reason": "the judge's paper", "token": service.form_token}
        status, _text, headers = fetch(base + "/organiser/decide", ("organiser", password), decide)
        assert status == 303 and service.hub.results[r.match].scores == (1, 30)
        status, page, _h = fetch(base + headers["Location"], ("organiser", password))
        assert "the chosen version counts" in page and "cd" * 8 not in page  # decided: no longer listed
        assert service.hub.ledger.records[-1]["decision"]["reason"] == "the judge's paper"
    finally:
        service.stop()


def test_the_scoreboard_carries_nothing_secret(cup: Tournament, tmp_path: Path) -> None:
    """The live view is the companion's public board: no answer, no host cue, no seat's hand."""
    folder = room_folder(cup, "a", tmp_path / "journals")
    boards: list[dict[str, Any]] = []

    def watch(box: Any) -> None:
        from controller.box.views import Publisher

        publisher = Publisher(box)
        publisher.listeners.append(lambda snap: boards.append(json.loads(snap.board)))
        box.on_events.append(publisher.on_events)

    play_next(folder, 3, watch=watch, options={"pack": "en-general"})
    assert boards
    text = json.dumps(boards)
    assert '"answer"' not in text and '"cue"' not in text and '"private"' not in text


class StubLink:
    """What the menu's room tells its publisher, recorded."""

    def __init__(self) -> None:
        self.said: list[object] = []

    def playing(self, match: str | None) -> None:
        self.said.append(("playing", match))

    def publish_results(self) -> int:
        self.said.append("publish")
        return 0


def test_the_menus_start_plays_the_rooms_next_match_then_what_the_rows_say(cup: Tournament, tmp_path: Path) -> None:
    from controller.league.commands import MenuRoom
    from controller.screen.menu import Choice

    folder = room_folder(cup, "c", tmp_path / "journals")
    link = StubLink()
    room = MenuRoom(cup, folder, link)
    chosen = Choice("reaction", 3, {"rounds": 5}, phones=True)
    taken = room.take(chosen)
    first = folder.next_match()
    assert first is not None and taken.game == "quiz" and taken.players == 4  # two teams of two
    assert taken.options["teams"] == [0, 0, 1, 1] and taken.phones is True  # the host's phones kept
    assert room.path == folder.folder / f"{first.id}-1.jsonl"
    room.done()
    assert link.said == [("playing", first.id), ("playing", None), "publish"]
    while play_next(folder, 1):
        pass
    assert room.take(chosen) == chosen and room.path is None  # every match played: the menu's own choice


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_the_hubs_lines_in_the_organisers_terminal_are_in_the_hubs_language(
        cup: Tournament, tmp_path: Path, caplog: pytest.LogCaptureFixture, language: str) -> None:
    """What the organiser reads in the hub's terminal (a refused result and why, a conflict to
    decide) is in the hub's language, as its pages are. Before, those lines were English only."""
    import logging

    from games.i18n import _, set_language

    (first,) = played(cup, tmp_path, matches=1)
    set_language(language)
    hub = Hub(cup, tmp_path / "hub.jsonl", clock)
    hall_b = next(m for m in cup.matches if m.room == "b")
    fake = Result(**{**first.__dict__, "match": hall_b.id, "teams": hall_b.teams, "scores": (9, 0)})
    spare = Result(**{**first.__dict__, "scores": (first.scores[1] + 5, 0), "journal_sum": "ab" * 8})
    with caplog.at_level(logging.WARNING, logger="buzzerbox.league"):
        assert hub.take(messages.result_topic("cup", "a", hall_b.id), payload(fake)) == "refused"
        assert hub.take(topic(first), payload(first)) == "taken"
        assert hub.take(topic(spare), payload(spare)) == "conflict"
    hub.close()
    refused, conflict = [r.getMessage() for r in caplog.records]
    topic_a = messages.result_topic("cup", "a", hall_b.id)
    assert refused == _("league hub: refused a message on %s: %s") % (topic_a, _(
        "room {room!r} sent a result for match {match!r}, which is played in {rooms}").format(
        room="a", match=hall_b.id, rooms="b"))
    assert conflict.startswith(_("league hub: CONFLICT: a second result for match %s seq %d from room %s (scores %s, "
                                 "journal %s), the first was %s (journal %s); the organiser decides which counts")
                               .split("%s", 1)[0])
    assert "league hub: refused" not in refused and "a second result" not in conflict  # not English


def test_a_match_moved_to_another_room_is_named_as_played_in_one_room_or_the_other(
        cup: Tournament, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A match the organiser moved is played in its room or the new one: the refusal says "played in
    'b' or 'c'" (before, the rooms were joined with a comma, which reads as both)."""
    import logging

    from controller.league import signing

    (first,) = played(cup, tmp_path, matches=1)
    hub = Hub(cup, tmp_path / "hub.jsonl", clock)
    hall_b = next(m for m in cup.matches if m.room == "b")
    body = messages.signed_body(1, [messages.Move(hall_b.id, "c", 1)], cup.id)
    signature = signing.sign(signing.load_key(tmp_path / "organiser.key"), body)
    assert hub.take(messages.schedule_topic("cup"), messages.schedule_payload(body, signature)) == "schedule"
    fake = Result(**{**first.__dict__, "match": hall_b.id, "teams": hall_b.teams, "scores": (9, 0)})
    with caplog.at_level(logging.WARNING, logger="buzzerbox.league"):
        assert hub.take(messages.result_topic("cup", "a", hall_b.id), payload(fake)) == "refused"
    hub.close()
    (line,) = [r.getMessage() for r in caplog.records]
    assert line.endswith(f"sent a result for match {hall_b.id!r}, which is played in b or c")


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_why_a_message_is_refused_is_in_the_hubs_language(
        cup: Tournament, tmp_path: Path, caplog: pytest.LogCaptureFixture, language: str) -> None:
    """The reason after "refused a message on ..." (a payload that is no league message, a field that
    is wrong, a wrong topic) is in the hub's language too. Before, the reasons were English only."""
    import logging

    from games.i18n import _, set_language

    (first,) = played(cup, tmp_path, matches=1)
    set_language(language)
    hub = Hub(cup, tmp_path / "hub.jsonl", clock)
    bad_room = Result(**{**first.__dict__, "room": "B"})
    with caplog.at_level(logging.WARNING, logger="buzzerbox.league"):
        assert hub.take(topic(first), b"not json") == "refused"
        assert hub.take(topic(first), payload(bad_room)) == "refused"
        assert hub.take("buzzerbox/v1/cup/elsewhere", b"{}") == "refused"
    hub.close()
    lines = [r.getMessage() for r in caplog.records]
    reasons = [line.split(": ", 2)[-1] for line in lines]
    assert reasons[0].startswith(_("not a league message ({why})").split("(")[0])
    assert reasons[1] == _("{what}'s {key!r} {problem}").format(what=_("the result"), key="room", problem=_("is not an id"))
    assert reasons[2] == _("topic {topic!r} is not one of this tournament's room topics").format(
        topic="buzzerbox/v1/cup/elsewhere")
    english = ("not a league message", "is not an id", "the result", "room topics")
    assert not any(word in line for line in lines for word in english)
