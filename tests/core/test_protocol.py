"""The channel's messages (controller/protocol.py): each crosses whole, a peer
of another install is told so in one line, and nothing a peer can put on
the wire makes a reader crash, hang or rebuild anything but a message."""

from __future__ import annotations

import json
import pickle
import random
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from controller import channel
from controller import protocol as p
from controller.box.monitor import InputMonitor
from controller.box.press import Edge, InputNotice, Press, Watermark
from controller.box.process import DecidingGame
from controller.box.runtime import Box
from games import registry
from games.base import Action, EventKind, GameEvent
from tests.processes import HANG_S

#: how many frames the fuzz sends through the reader (seeded: the same frames every run)
FUZZ_FRAMES = 4_000


def every_message() -> list[p.Message]:
    """One of each message, with the values the box really sends in them."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3, seed=4))
    with box.lock:
        public, strip = box.engine.public_view(), box.strip()
    view = p.View(version=7, t_us=1_500_000, offset_us=-20, public=public, strip=strip, finished=False, paused=False,
                  host_paused=True, names=("Ana", "Bára", "Cyril"), late_deliveries=1, guard_us=4_000,
                  journal="the card is full", inputs=None, decided=(1_400_000, None),
                  events=(GameEvent(EventKind.SHOW, 1_000, None, {"round": 2}), GameEvent("winner", 1_200, 1)),
                  companion={"version": 3, "board": "{}"},
                  board='{"type": "state", "players": []}', lines=("Tournament offline: no route",),
                  phones=p.PhonesPanel("http://192.168.1.5:8080", "http://192.168.1.5:8080/play", (True, False), True,
                                       "123456"))
    monitor = InputMonitor([("Ana", ["bell", "a"])], host_inputs=["arm"])  # diag's table: a press, inputs never pressed
    monitor.edge(Edge(0, "bell", 0, 1_000), 1)
    monitor.step(50_000)
    roll_call = p.RollCallView({"phase": "roll call", "missing": ["Bára"], "answered": 2, "total": 3}, strip)
    return [view, p.Opened("gpio (stamps to 1 µs)"), p.Refused("cannot open the gpio inputs"), roll_call, p.Ended(p.EndReason.MENU, summary={"winner": 1}, decisions=[[1, 2, None]], loaded={"pygame": False},
                          unsaved=3, unsaved_path="/tmp/q.jsonl.unsaved",
                          played=p.Played("quiz", ("Ana", "Bára"), False, {"scores": [2, 1]}, (2, 1), None, 3, 10)),
            p.Start(p.NewGame("quiz", 3, 11, {"questions": 12}, ("Ana", "Bára", "Cyril"))),
            p.Start(p.NewGame("reaction", 2, 0, {}, None, "demo"), p.Bots(True)),
            p.Between(strip, (Press(-1, "arm", 4_321, precision_us=1, edges=2, source_event=""),)),
            p.DiagView(monitor.view()["inputs"], monitor.strip()),
            p.Play("/j/quiz.jsonl", p.NewGame("quiz", 2, 1, {}), "quiz=games.quiz", ("--fps", "60"),
                   roll_call=True, web=True), p.Play("/j/quiz.jsonl", None, "quiz=games.quiz", carry_on=True),
            p.EdgeInput(Edge(1, "bell", 0, 9_000), 250),
            p.PressInput(Press(2, "bell", 1_234, precision_us=250, clock="board-1", clock_precision_us=3, edges=4,
                               source_event="boot#9")),
            p.NoticeInput(InputNotice(0, "bell", "stuck", 9_500)),
            p.ActionInput(Action("play", 5_678, player=0, args={"card": 3}, precision_us=2_000)),
            p.WatermarkInput(Watermark("keyboard", 12_345)), p.HostKey("arm", 77), p.Shown(88), p.Stop(p.EndReason.QUIT), p.Stop(),
            p.PressLamps(True), p.Seats({"port": 8080, "pin": "123456"}), p.Hello(p.BOARD, "league b"),
            p.PeerLine("league", "Tournament offline: no route"), p.PeerLine("league", None),
            p.Panel(p.PhonesPanel("http://192.168.1.5:8080", None, (), False)), p.Panel(None), p.ShowPin(),
            p.SaveNames(("Ana", "", "Žofie")),
            p.SaveSetup("cs", "header-4"), p.SaveSetup(None, None),
            p.UploadPack("night.csv", "cXVlc3Rpb24sYW5zd2VyCg=="),
            p.Answered(True, ("night.csv: saved in the packs folder (2 questions)",), "night.csv"),
            p.Answered(False, ("no packs folder here",)),
            p.Play("/j/hands.jsonl", p.NewGame("hands", 2, 3, {}), "hands=tests.web.hands", web=True,
                   pages={"version": 1, "board": "{}", "seats": ["{}", "{}"]}),
            p.Serving("hands=tests.web.hands", {"version": 1, "board": "{}", "seats": ["{}", "{}"]}),
            p.Listening("http://192.168.1.5:8080/board", "http://192.168.1.5:8080/host", "012345", 8080),
            p.NextGame({"game": "Quiz", "options": [{"key": "rounds", "value": 2, "choices": [[2, "2"]]}]}),
            p.StartNext(), p.SetOption("rounds", 2), p.SetOption("pack", None), p.HostRenamed(1, "Žofie"),
            p.SetLanguage("cs")]


def test_every_message_crosses_the_channel_whole() -> None:
    sent = every_message()
    assert {type(m) for m in sent} == set(p.MESSAGES)  # none left untested
    mine, theirs = socket.socketpair()
    with mine, theirs:
        for message in sent:
            channel.send(mine, message)
        assert [channel.receive(theirs) for _ in sent] == sent


def frame(items: list[Any]) -> bytes:
    body = json.dumps(items).encode()
    return struct.pack(">I", len(body)) + body


def test_a_peer_of_another_version_is_told_in_one_line_naming_both_and_the_fix() -> None:
    newer = frame([p.PROTOCOL + 1, "stop", "menu"])
    old = pickle.dumps({"type": "stop", "reason": "menu"}, protocol=pickle.HIGHEST_PROTOCOL)  # the channel before
    mine, theirs = socket.socketpair()
    with mine, theirs:
        mine.sendall(newer + struct.pack(">I", len(old)) + old)
        for theirs_is in (p.PROTOCOL + 1, 0):
            with pytest.raises(channel.VersionMismatch) as said:
                channel.receive(theirs)
            line = str(said.value)
            assert "\n" not in line and f"protocol {theirs_is}, this one {p.PROTOCOL}" in line
            assert "same install" in line


@pytest.fixture
def deciding() -> Iterator[DecidingGame]:
    spec = registry.get("reaction")
    game = DecidingGame(Box(spec, spec.settings(2, seed=1)), None, None, until_us=None, results_s=0, screen_args=[])
    yield game
    for viewer in game.viewers:
        viewer.outbox.close(0.5)
        viewer.sock.close()


def test_the_deciding_process_says_a_screen_of_another_install_in_one_line_and_lets_it_go(
        deciding: DecidingGame, capsys: pytest.CaptureFixture[str]) -> None:
    mine, theirs = socket.socketpair()
    with theirs:
        viewer = deciding.attach(mine, "screen")
        theirs.sendall(frame([p.PROTOCOL + 1, "host", "arm", 0]) + frame([p.PROTOCOL, "stop", "menu"]))
        assert viewer.gone.wait(HANG_S)  # it reads nothing more from that screen: not the stop after it
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"channel protocol {p.PROTOCOL + 1}, this one {p.PROTOCOL}" in err
    assert "Traceback" not in err and deciding.stop_reason is None


def mutations(rng: random.Random, valid: list[bytes]) -> Iterator[bytes]:
    """Frames' bodies a broken or hostile peer could send: valid ones with bytes
    flipped, cut or spliced, fields swapped for any JSON value, and noise."""
    values: list[Any] = [None, True, 0, -1, 2**70, 1.5, "", "x" * 300, [], {}, [1, [2, [3]]], {"kind": "show"},
                         {"t_us": "soon"}, ["a", 1], "[" * 50]
    while True:
        body = rng.choice(valid)
        way = rng.randrange(7)
        if way == 0:  # a byte changed
            i = rng.randrange(len(body))
            yield body[:i] + bytes([rng.randrange(256)]) + body[i + 1:]
        elif way == 1:  # cut short
            yield body[:rng.randrange(len(body))]
        elif way == 2:  # two spliced
            other = rng.choice(valid)
            yield body[:rng.randrange(len(body))] + other[rng.randrange(len(other)):]
        elif way == 3:  # one field any value, or one field more or fewer
            items = json.loads(body)
            i = rng.randrange(len(items))
            change = rng.randrange(3)
            if change == 0:
                items[i] = rng.choice(values)
            elif change == 1:
                items.append(rng.choice(values))
            else:
                del items[i]
            yield json.dumps(items).encode()
        elif way == 4:  # deep nesting
            depth = rng.choice((10, 1_000, 100_000))
            yield b"[" * depth + b"]" * depth
        elif way == 5:
            yield bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        else:  # NaN and friends, which JSON readers take and JSON writers refuse
            yield rng.choice((b'[1,"shown",NaN]', b'[1,"view",Infinity]', b'[1,"stop",-Infinity]'))


def test_random_and_mutated_frames_are_one_line_each_never_a_crash_or_a_hang() -> None:
    """Seeded: the same frames every run. Each frame goes through the reader of
    a real socket, then the good frames still come through after the bad."""
    rng = random.Random(47)
    valid = [p.dumps(m) for m in every_message()]
    bodies = mutations(rng, valid)
    mine, theirs = socket.socketpair()
    theirs.settimeout(30)  # a hang guard only: every frame below is whole
    refused = 0
    writer_failed: list[BaseException] = []

    def write() -> None:
        try:
            for _ in range(FUZZ_FRAMES):
                body = next(bodies)
                mine.sendall(struct.pack(">I", len(body)) + body)
            for body in valid:
                mine.sendall(struct.pack(">I", len(body)) + body)
        except BaseException as exc:  # noqa: BLE001 (the test fails with it)
            writer_failed.append(exc)

    thread = threading.Thread(target=write)
    thread.start()
    try:
        for _ in range(FUZZ_FRAMES):
            try:
                message = channel.receive(theirs)
            except channel.ChannelError as exc:
                refused += 1
                assert "\n" not in str(exc) and len(str(exc)) < 300, str(exc)
                continue
            assert isinstance(message, p.MESSAGES)
            channel.encode(message)  # what was let in is a message through and through: it goes out again
        assert [channel.receive(theirs) for _ in valid] == every_message()
    finally:
        thread.join(HANG_S)
        mine.close()
        theirs.close()
    assert not writer_failed and refused > FUZZ_FRAMES // 2


def test_a_frame_cut_off_or_too_long_is_one_line() -> None:
    mine, theirs = socket.socketpair()
    with theirs:
        mine.sendall(struct.pack(">I", channel.MAX_MESSAGE_BYTES + 1))
        with pytest.raises(channel.ChannelError, match="over the channel"):
            channel.receive(theirs)
        mine.sendall(struct.pack(">I", 100) + b'[1,"stop"')
        mine.close()
        with pytest.raises(channel.ChannelError, match="cut off"):
            channel.receive(theirs)
        assert channel.receive(theirs) is None  # and then the peer is gone


def test_nothing_but_a_message_of_the_protocol_is_sent() -> None:
    looped: dict[str, Any] = {}
    looped["again"] = looped
    for held in (object(), looped, float("nan")):
        with pytest.raises(channel.ChannelError, match="not plain data"):
            channel.encode(p.Seats({"port": held}))
    with pytest.raises(channel.ChannelError, match="not a message"):
        channel.encode({"type": "stop", "reason": "menu"})  # type: ignore[arg-type]


def test_the_screen_stops_with_one_line_when_its_deciding_process_is_of_another_install() -> None:
    from controller.screen.loop import Presenter
    from controller.screen.screen import Screen
    from controller.screen.viewer import DecidingLink, SplitError, watch
    from games.scenes import scene_for

    spec = registry.get("reaction")
    mine, theirs = socket.socketpair()
    screen = Screen.open(headless=True, size=(320, 180))
    try:
        theirs.sendall(frame([p.PROTOCOL + 1, "view", 1]))
        link = DecidingLink(spec, spec.settings(2), mine)
        with pytest.raises(SplitError) as said:
            watch(link, Presenter(screen, scene_for("reaction")), None, 60)
        assert "\n" not in str(said.value) and f"protocol {p.PROTOCOL + 1}, this one {p.PROTOCOL}" in str(said.value)
    finally:
        screen.close()
        mine.close()
        theirs.close()


def test_why_a_game_ended_is_one_of_the_end_reasons_in_the_words_it_always_was() -> None:
    """A stop's and an end's reason cross the channel as ``EndReason``'s words (the wire form of
    before), come back as the enum, and a word that is none of them is not a message: refused as it is
    read, and never written."""
    stop = channel.decode(json.dumps([p.PROTOCOL, "stop", "quit"]).encode())
    assert stop == p.Stop(p.EndReason.QUIT) and type(stop.reason) is p.EndReason
    assert p.dumps(p.Ended(p.NOT_BEGUN)).startswith(f'[{p.PROTOCOL},"ended","not begun"'.encode())
    for word in ("later", 3, None):
        with pytest.raises(channel.ChannelError):
            channel.decode(json.dumps([p.PROTOCOL, "ended", word]).encode())
    with pytest.raises(channel.ChannelError):
        channel.encode(p.Stop("later"))  # type: ignore[arg-type]
