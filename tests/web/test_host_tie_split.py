"""A tie on the host page: the tied players are buttons, and the one tapped
answers (the screen's key draws one fairly; a host with only a phone had no
way to decide). ``play quiz --web`` as it starts by default (the split
design), its stations on header-4's GPIO pins driven by a feed (two bells
at the very same microsecond: a tie), the host page in Chromium in the
box's language. Every wait is for what the processes say or the page
shows, never for time."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from controller.box import profile as profile_mod
from controller.box.timeline import box_now_us
from tests import processes
from tests.core.test_split import ENV
from tests.processes import Lines
from tests.web.test_split_language import host_logged_in, said
from tests.web.test_split_phones import DEADLINE_S, ROOT, port_in

SHOTS = Path(os.environ.get("BUZZERBOX_SHOTS", "/tmp/buzzerbox-shots"))


def play_quiz(port: int, journal: Path, fifo: Path, language: str) -> list[str]:
    return [sys.executable, "-m", "controller", "play", "quiz", "--profile", "header-4", "--headless",
            "--no-roll-call", "--feed", str(fifo), "--journal", str(journal), "--web", str(port), "--lang", language]


def running(command: list[str], data: Path) -> contextlib.AbstractContextManager[tuple[subprocess.Popen[str], Lines]]:
    """A child on mock GPIO pins, keeping names under ``data``, and its stderr's lines; it and every
    process it started are killed after."""
    return processes.running(command, {**ENV, "XDG_DATA_HOME": str(data)}, ROOT)


def picks(journal: Path) -> list[dict[str, Any]]:
    """The host's picks the journal keeps (each with the player it gave the turn to)."""
    found = []
    for line in journal.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("kind") == "pick":
            found.append(record)
    return found


@pytest.mark.parametrize(("language", "chosen"), [("en", 1), ("cs", 0), ("pl", 1)])
def test_the_host_page_offers_the_tied_players_and_the_one_tapped_answers(
        language: str, chosen: int, tmp_path: Path, phone: Any) -> None:
    journal, fifo = tmp_path / "quiz.jsonl", tmp_path / "edges"
    os.mkfifo(fifo)
    pins = {v: k for k, v in profile_mod.load("header-4").input_pins().items()}
    with running(play_quiz(0, journal, fifo, language), tmp_path / "data") as (proc, err):
        _at, line = err.wait_for(lambda x: "PIN" in x)
        port = port_in(line)  # the port its server bound
        writer = os.open(fifo, os.O_WRONLY)  # the deciding process reads the feed
        try:
            host = phone()
            host_logged_in(host, port, line)
            host.locator("button[data-action='arm']").click()
            expect(host.locator("#phase")).to_have_text(said(language, "Armed: buzz now"))
            # two bells at the same microsecond, written in one line each at once: delivered late on a busy
            # machine (the feed may declare their moment delivered first), they are still played, as a tie,
            # since nothing was decided since; stamped ahead of now, they would be refused as from the future
            t0 = box_now_us()
            os.write(writer, "".join(f"{pins[(station, 'bell')]} 0 {t0}\n" for station in (0, 1)).encode())
            tie = host.locator("#tie button.tie-pick")
            expect(tie).to_have_count(2)
            names = [host.locator(f"#scores input.name[data-seat='{seat}']").input_value() for seat in (0, 1)]
            assert tie.all_inner_texts() == names and all(names), names  # the stations' names, as the scores list
            expect(host.locator("#tie h2")).to_have_text(said(language, "Tie: tap who answers"))
            expect(host.locator("#tie .hint")).to_have_text(
                said(language, "Or let the box draw fairly (the screen's key {key}).").format(key="P"))
            SHOTS.mkdir(parents=True, exist_ok=True)
            host.screenshot(path=str(SHOTS / f"host-tie-{language}.png"), full_page=True)
            host.locator(f"#tie button.tie-pick[data-seat='{chosen}']").click()
            expect(host.locator("#phase")).to_have_text(said(language, "Answering"))
            expect(host.locator("#tie")).to_be_hidden()
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(DEADLINE_S) == 0, "\n".join(err.lines)
        finally:
            os.close(writer)
    assert [p.get("args", {}).get("player") for p in picks(journal)] == [chosen], journal.read_text()[-2000:]


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_a_name_with_an_emoji_from_the_host_page_is_refused_in_the_menus_line(
        language: str, tmp_path: Path, phone: Any) -> None:
    """The host page renames a player "Eva🎉": the big screen's font has no
    glyph for it (an empty box on the TV), so it is refused in the one line
    the menu's names editor says, in the box's language; the name stays."""
    journal, fifo = tmp_path / "quiz.jsonl", tmp_path / "edges"
    os.mkfifo(fifo)
    with running(play_quiz(0, journal, fifo, language), tmp_path / "data") as (proc, err):
        _at, line = err.wait_for(lambda x: "PIN" in x)
        port = port_in(line)  # the port its server bound
        writer = os.open(fifo, os.O_WRONLY)
        try:
            host = phone()
            host_logged_in(host, port, line)
            field = host.locator("#scores input.name[data-seat='0']")
            before = field.input_value()
            field.fill("Eva🎉")
            host.locator("#scores button[data-rename='0']").click()
            refused = said(language, "{chars}: the big screen cannot draw these; letters, digits and punctuation only")
            expect(host.locator("#status")).to_have_text(refused.format(chars="🎉"))
            field.fill("Eva")  # the same name without it is taken
            host.locator("#scores button[data-rename='0']").click()
            expect(host.locator("#status")).to_have_text(said(language, "Sent"))
            expect(host.locator("#scores .player[data-seat='0'] input.name")).to_have_value("Eva")
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(DEADLINE_S) == 0, "\n".join(err.lines)
        finally:
            os.close(writer)
    kept = journal.read_text(encoding="utf-8")
    assert before != "Eva" and "🎉" not in kept and "\\ud83d" not in kept
    assert '"Eva"' in kept, kept
