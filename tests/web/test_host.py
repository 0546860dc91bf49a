"""The host remote's actions the box itself applies: pause and carry on
(clocks stand still, the bells do nothing), score corrections (a journaled
host action the game applies; an undo of a judgement keeps them) and new
names (on the strip at once, journaled, replayed). Then the host snapshot:
only what makes sense now, in words; and the messages' checks."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from benchmarks.companion_box import box_server
from controller.box import journal as journal_mod
from controller.box.inputs import HOST_STATION
from controller.box.press import InputNotice, Press
from controller.box.runtime import HOST_CONTINUED, HOST_PAUSED, RENAMED, Box, box_from_journal
from controller.box.timeline import box_now_us
from controller.box.views import Publisher
from controller.web.server import CompanionServer
from games import registry
from games.base import HOST_ADJUST, Action
from games.i18n import set_language
from tests.processes import HANG_S

S = 1_000_000


def quiz_box(path: Path | None = None, **options: Any) -> Box:
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3, seed=1, **options), station_names=["Ann", "Bob", "Cy"])
    if path is not None:
        box.journal = journal_mod.JournalWriter.create(path, box.header(mode="play"))
    return box


def host(box: Box, name: str, t: int) -> None:
    box.press(Press(HOST_STATION, name, t))
    box.step(t)


def test_a_host_pause_stops_the_clocks_ignores_the_bells_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    box = quiz_box(path, answer_time_us=10 * S)
    host(box, "arm", 0)
    box.press(Press(1, "bell", 1 * S))
    box.step(1 * S + 10_000)
    assert box.engine.public_view()["answering"] == 1
    box.notice(InputNotice(HOST_STATION, "host", HOST_PAUSED, 2 * S))
    box.step(2 * S)
    assert box.host_paused and box.next_due_us() is None  # nothing due: the deciding thread sleeps
    box.press(Press(0, "bell", 5 * S))  # a bell while paused
    box.step(20 * S)  # long past the answer timer's 11 s
    view = box.engine.public_view()
    assert view["phase"] == "answering" and view["answering"] == 1  # nobody timed out meanwhile
    box.notice(InputNotice(HOST_STATION, "host", HOST_CONTINUED, 30 * S))
    box.step(30 * S)
    box.step(38 * S)  # 9 s of the answer's 10 used: still answering
    assert box.engine.public_view()["phase"] == "answering"
    assert box.engine.public_view()["queue"] == []  # the bell rung during the pause is not in line
    assert "time_up" not in [e.kind for e in box.event_log]
    box.step(40 * S)
    assert [e.kind for e in box.event_log].count("time_up") == 1  # now the time is up
    box.journal.close()
    again = box_from_journal(journal_mod.read(path))
    assert again.engine.summary() == box.engine.summary()


def test_score_corrections_are_journaled_survive_an_undo_and_replay(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    box = quiz_box(path)
    host(box, "arm", 0)
    box.press(Press(2, "bell", 1 * S))
    box.step(2 * S)
    host(box, "correct", 3 * S)
    box.deliver_action(Action(HOST_ADJUST, 4 * S, None, {"player": 0, "points": 1}))
    box.deliver_action(Action(HOST_ADJUST, 4 * S + 1, None, {"player": 2, "points": -1}))
    box.step(5 * S)
    assert box.engine.public_view()["scores"] == [1, 0, 0]
    host(box, "undo", 6 * S)  # the judgement is undone, the corrections stay
    assert box.engine.public_view()["scores"] == [1, 0, -1]
    events = [e.kind for e in box.event_log]
    assert events.count("adjusted") == 2
    box.deliver_action(Action(HOST_ADJUST, 7 * S, None, {"player": 9, "points": 1}))
    box.step(7 * S)
    assert box.event_log[-1].kind == "rejected" and "station 0..2" in box.event_log[-1].data["why"]
    box.journal.close()
    again = box_from_journal(journal_mod.read(path))
    assert again.engine.public_view()["scores"] == [1, 0, -1]


def test_a_new_name_shows_on_the_strip_at_once_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    box = quiz_box(path)
    box.notice(InputNotice(1, "Bára", RENAMED, 1 * S))
    events = box.step(1 * S)
    assert [e.kind for e in events] == [RENAMED]
    assert [c["name"] for c in box.strip()] == ["Ann", "Bára", "Cy"]
    box.journal.close()
    again = box_from_journal(journal_mod.read(path))
    assert again.station_names == ["Ann", "Bára", "Cy"]


def host_view(box: Box) -> dict[str, Any]:
    return json.loads(Publisher(box).latest.host)


def test_the_host_sees_only_what_makes_sense_now_in_words() -> None:
    set_language("en")
    box = quiz_box()
    view = host_view(box)
    assert [b["label"] for b in view["buttons"]] == ["Arm", "Next", "Leaderboard"]
    assert view["phase_label"] == "Waiting" and view["adjust"] and not view["paused"]
    spec = registry.get("reaction")
    reaction = Box(spec, spec.settings(2, seed=1))
    buttons = host_view(reaction)["buttons"]
    assert [(b["name"], b["label"]) for b in buttons] == [("arm", "Start")]  # its arm starts
    assert not host_view(reaction)["adjust"]  # reaction times are not points to correct
    set_language("cs")
    try:
        assert host_view(box)["buttons"][0]["label"] not in ("Arm", "")
    finally:
        set_language("en")


def test_each_game_says_its_phase_and_its_own_buttons_in_its_words() -> None:
    set_language("en")
    seen = {}
    for name in ("pictomania", "schicki-micki", "reaction", "viva-topo"):
        spec = registry.get(name)
        view = host_view(Box(spec, spec.settings(3, seed=1)))
        seen[name] = (view["phase_label"], [b["label"] for b in view["buttons"]])
    assert seen == {"pictomania": ("Word cards", ["Start drawing"]), "schicki-micki": ("Waiting", ["Turn a card"]),
                    "reaction": ("Ready", ["Start"]), "viva-topo": ("Roll the die", [])}


# -- the messages, over a real socket ---------------------------------------------------------

async def host_session(server: CompanionServer, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Say hello with the PIN, send each message, return each answer (ok or refused)."""
    answers = []
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws/host")
        await ws.send_json({"type": "hello", "pin": server.seats.pin})
        for message in messages:
            await ws.send_json(message)
            while True:
                reply = json.loads((await asyncio.wait_for(ws.receive(), HANG_S)).data)
                if reply["type"] in ("ok", "refused"):
                    answers.append(reply)
                    break
    return answers


@pytest.fixture
def server() -> Any:
    box = quiz_box()
    box.time_offset_us = -box_now_us()  # a live box: its timeline starts now
    renamed: list[tuple[int, str]] = []
    ended: list[bool] = []
    srv = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1",
                          on_rename=lambda seat, name: renamed.append((seat, name)),
                          end_game=lambda: ended.append(True))
    srv.start()
    srv.renamed, srv.ended = renamed, ended  # type: ignore[attr-defined]
    yield srv
    srv.stop()


def now(box: Box) -> int:
    return box_now_us() + box.time_offset_us


def test_host_messages_pause_rename_correct_and_end_through_the_inbox(server: Any) -> None:
    box = server.box
    answers = asyncio.run(host_session(server, [
        {"type": "host", "action": "pause", "seq": 1},
        {"type": "name", "seat": 0, "name": "  Zoë ", "seq": 2},
        {"type": "score", "seat": 1, "points": 1, "seq": 3},
        {"type": "host", "action": "end", "seq": 4},
    ]))
    assert [a["type"] for a in answers] == ["ok"] * 4
    box.step(now(box))
    assert box.host_paused and box.station_names[0] == "Zoë" and server.renamed == [(0, "Zoë")]
    assert server.ended == [True]
    box.notice(InputNotice(HOST_STATION, "host", HOST_CONTINUED, box_now_us()))
    box.step(now(box) + 10 * S)  # the correction was held for the pause, and is applied after it
    assert box.engine.public_view()["scores"] == [0, 1, 0]


def test_the_host_page_s_game_button_is_a_host_key_as_in_the_split_design(tmp_path: Path) -> None:
    """The host page's arm reaches this process's box as a host key by name, as the phones' server of
    a deciding process sends it (``PhonesLink.host_key``): the game's arm, journaled as the host's
    action, replayed to the same game. (It came here as a press of the host station: a press in the
    journal, counted among the stations' presses, unlike the same button in the split design.)"""
    path = tmp_path / "quiz.jsonl"
    box = quiz_box(path)
    box.time_offset_us = -box_now_us()
    srv = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1")
    srv.start()
    try:
        (answer,) = asyncio.run(host_session(srv, [{"type": "host", "action": "arm", "seq": 1}]))
        assert answer["type"] == "ok", answer  # (taken by the box when it answers: decided at its next step)
        box.step(now(box))
        assert box.engine.public_view()["phase"] == "armed"
    finally:
        srv.stop()
        box.journal.close()
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    taken = [(r["type"], r.get("kind", r.get("input"))) for r in records if r["type"] in ("press", "host")]
    assert taken == [("host", "arm")], records  # the host's arm, not a press
    assert box.presses_total == 0
    replayed = box_from_journal(journal_mod.read(path))
    assert replayed.engine.public_view() == box.engine.public_view()


@pytest.mark.parametrize(("message", "why"), [
    ({"type": "name", "seat": 0, "name": "x" * 17}, "1 to 16"),
    ({"type": "name", "seat": 0, "name": "   "}, "1 to 16"),
    ({"type": "name", "seat": 0, "name": "a\nb"}, "1 to 16"),
    ({"type": "name", "seat": 7, "name": "Al"}, '"seat"'),
    ({"type": "score", "seat": 0, "points": 5}, '"points"'),
    ({"type": "score", "seat": 0, "points": 0}, '"points"'),
    ({"type": "score", "seat": 0}, '"points"'),
    ({"type": "score", "seat": 0, "points": 1, "extra": 1}, "unknown fields"),
    ({"type": "host", "action": "continue"}, "no such host button"),  # not paused
    ({"type": "host", "action": "correct"}, "no such host button"),  # nothing to judge
    ({"type": "shout"}, "unknown message"),
])
def test_bad_host_messages_are_refused_and_change_nothing(server: Any, message: dict[str, Any], why: str) -> None:
    box = server.box
    before = (list(box.station_names), box.engine.public_view()["scores"], box.host_paused)
    (answer,) = asyncio.run(host_session(server, [{**message, "seq": 1}]))
    assert answer["type"] == "refused" and why in answer["why"], answer
    box.step(now(box) + S)
    assert (list(box.station_names), box.engine.public_view()["scores"], box.host_paused) == before
    assert server.renamed == [] and server.ended == []


@pytest.fixture
def team_server(tmp_path: Path) -> Any:
    """A team quiz (pairs: Ann and Bob, Cy and Dee) journaled to ``tmp_path / "teams.jsonl"``."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4, seed=1, rules="teams"), station_names=["Ann", "Bob", "Cy", "Dee"])
    box.journal = journal_mod.JournalWriter.create(tmp_path / "teams.jsonl", box.header(mode="play"))
    box.time_offset_us = -box_now_us()
    srv = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1")
    srv.start()
    yield srv
    srv.stop()
    box.journal.close()


def test_the_host_names_a_team_and_the_boards_the_phones_and_a_replay_say_it(team_server: Any, tmp_path: Path) -> None:
    box = team_server.box
    shown = json.loads(team_server.publisher.latest.host)["teams"]
    assert [(t["team"], t["name"], t["members"]) for t in shown] == [(0, "Team 1", ["Ann", "Bob"]),
                                                                    (1, "Team 2", ["Cy", "Dee"])]
    answers = asyncio.run(host_session(team_server, [{"type": "team_name", "team": 1, "name": "  Foxes ", "seq": 1}]))
    assert [a["type"] for a in answers] == ["ok"]
    box.step(now(box))
    assert box.engine.public_view()["team_names"] == ["", "Foxes"]
    latest = team_server.publisher.latest
    assert [t["name"] for t in json.loads(latest.host)["teams"]] == ["Team 1", "Foxes"]
    assert "Your team: Foxes" in latest.seats[2]  # Cy's phone
    box.journal.close()
    again = box_from_journal(journal_mod.read(tmp_path / "teams.jsonl"))
    assert again.engine.public_view()["team_names"] == ["", "Foxes"]


@pytest.mark.parametrize(("name", "team"), [("", 0), ("   ", 0), ("x" * 25, 0), ("Owls\nWIN", 0), ("\u202eslwO", 0),
                                            (7, 0), (None, 0)])
def test_a_bad_team_name_is_refused_in_one_line_saying_what_to_type(team_server: Any, name: Any, team: int) -> None:
    set_language("en")
    box = team_server.box
    (answer,) = asyncio.run(host_session(team_server, [{"type": "team_name", "team": team, "name": name, "seq": 1}]))
    assert answer == {"type": "refused", "why": "a team's name is 1 to 24 letters, digits or signs, with no line "
                                               "breaks: type another name"}
    box.step(now(box) + S)
    assert box.engine.public_view()["team_names"] == [] and not [e for e in box.event_log if e.kind == "team_named"]


def test_a_team_not_listed_is_refused_and_a_team_left_empty_is_no_longer_listed(team_server: Any, server: Any) -> None:
    box = team_server.box
    for team in (2, -1, True, "0", 0.0):
        (answer,) = asyncio.run(host_session(team_server, [{"type": "team_name", "team": team, "name": "Owls", "seq": 1}]))
        assert answer == {"type": "refused", "why": '"team" must be the number of a team the page lists: 0, 1'}
    box.step(now(box) + S)
    assert box.engine.public_view()["team_names"] == []
    box.apply_action(Action("team", now(box), 2, {"team": 0}))  # Cy and Dee join Ann and Bob: Team 2 is empty
    box.apply_action(Action("team", now(box), 3, {"team": 0}))
    team_server.publisher.publish()
    assert [t["team"] for t in json.loads(team_server.publisher.latest.host)["teams"]] == [0, 1]  # the lobby
    host(box, "arm", now(box))
    assert [(t["team"], t["members"]) for t in json.loads(team_server.publisher.latest.host)["teams"]] == [
        (0, ["Ann", "Bob", "Cy", "Dee"])]
    (answer,) = asyncio.run(host_session(team_server, [{"type": "team_name", "team": 1, "name": "Owls", "seq": 1}]))
    assert answer == {"type": "refused", "why": '"team" must be the number of a team the page lists: 0'}
    (answer,) = asyncio.run(host_session(server, [{"type": "team_name", "team": 0, "name": "Owls", "seq": 1}]))
    assert answer == {"type": "refused", "why": "no team to rename now: teams are named while a team quiz runs"}
    assert json.loads(server.publisher.latest.host)["teams"] == []  # everyone plays for themselves: no teams shown


def test_the_host_page_chooses_the_next_games_options_in_the_menus_session() -> None:
    from controller.screen.menu import Menu

    set_language("en")
    menu = Menu([("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)], 3)
    box = quiz_box()
    srv = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1", on_option=menu.set_option,
                          next_game=menu.next_game)
    srv.start()
    try:
        shown = json.loads(srv.publisher.latest.host)["next"]
        timer = next(o for o in shown["options"] if o["key"] == "answer_time_us")
        assert shown["game"] == "Quiz buzzer" and timer["value"] is None
        assert [name for _value, name in timer["choices"]] == ["off", "10 s", "20 s", "30 s"]
        answers = asyncio.run(host_session(srv, [
            {"type": "option", "key": "answer_time_us", "value": 20_000_000, "seq": 1},
            {"type": "option", "key": "answer_time_us", "value": 7, "seq": 2},  # not a choice
            {"type": "option", "key": "volume", "value": 1.0, "seq": 3},  # a menu row, not the game's option
            {"type": "option", "key": "questions", "value": "10", "seq": 4},  # 10, not "10"
        ]))
        assert [a["type"] for a in answers] == ["ok", "refused", "refused", "refused"]
        assert menu.choice().options["answer_time_us"] == 20_000_000  # the next game starts with it
        assert "questions" not in menu.choice().options
        shown = json.loads(srv.publisher.latest.host)["next"]  # the page hears it at once
        assert next(o for o in shown["options"] if o["key"] == "answer_time_us")["value"] == 20_000_000
        srv.detach()  # between games: the host changes the menu's game on the HDMI screen
        menu.key("right")
        deadline = time.monotonic() + HANG_S  # a hang guard: the page hears it as soon as the menu says it
        while json.loads(srv.publisher.latest.host)["next"]["game"] != "Reaction duel":
            assert time.monotonic() < deadline, "the host page never heard of the menu's new game"
            time.sleep(0.05)
    finally:
        srv.stop()


def test_options_are_refused_where_no_menu_chooses_the_next_game(server: Any) -> None:
    (answer,) = asyncio.run(host_session(server, [{"type": "option", "key": "questions", "value": 10, "seq": 1}]))
    assert answer["type"] == "refused" and "menu" in answer["why"]
    assert json.loads(server.publisher.latest.host)["next"] is None


def test_host_message_fuzz_gets_ok_or_a_refusal_and_the_box_goes_on(server: Any, caplog: Any) -> None:
    """Seeded and time-bounded: random host messages after the PIN (the known
    types with random fields and values, and junk) are each answered with
    ``ok`` or ``refused``; nothing raises, and the game still runs."""
    from controller.web.server import HOST_MESSAGES

    rng = random.Random(1616)
    values: list[Any] = [None, True, 0, 1, -1, 2, 7, 2**60, -(2**60), 0.5, "", "x", "pause", "end", "continue",
                         "arm", "answer_time_us", "Zoë", "a" * 300, [], [1], {}, {"a": 1}]
    fields = ["action", "seat", "team", "points", "name", "key", "value", "extra"]
    messages = []
    for seq in range(1, 301):
        kind = rng.choice([*HOST_MESSAGES, "hello", "move", "x"])
        message: dict[str, Any] = {"type": kind, "seq": seq if rng.random() < 0.9 else rng.choice(values)}
        for name in rng.sample(fields, rng.randint(0, 4)):
            message[name] = rng.choice(values)
        messages.append(message)
    started = time.monotonic()
    answers = asyncio.run(host_session(server, messages))
    assert time.monotonic() - started < HANG_S  # a hang, not a speed
    assert len(answers) == len(messages) and {a["type"] for a in answers} <= {"ok", "refused"}
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    box = server.box
    box.step(now(box) + S)
    box.notice(InputNotice(HOST_STATION, "host", HOST_CONTINUED, box_now_us()))
    box.step(now(box) + 2 * S)
    host(box, "arm", now(box) + 3 * S)  # the game still takes the host's buttons
    box.step(now(box) + 4 * S)
    assert box.engine.public_view()["phase"] == "armed"


@pytest.mark.parametrize("name", registry.available())
def test_every_phase_of_every_game_is_said_in_words_on_the_host_page(name: str) -> None:
    """The host remote never shows an engine's phase id: every game's phase
    enum has words (its spec's ``phase_labels`` or the common ones), wherever
    its package lives (a registered game's need not be ``games.<name>``)."""
    from controller.apps.game_check import enum_phases
    from controller.box.views import PHASE_WORDS

    spec = registry.get(name)
    raw = sorted(p for p in enum_phases(registry.package_of(name)) if p not in spec.phase_labels and p not in PHASE_WORDS)
    assert not raw, f"{name}: phases without words: " + ", ".join(raw)
