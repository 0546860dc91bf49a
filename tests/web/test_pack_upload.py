"""A pack uploaded from the host page (POST /host/pack, the host's PIN in a
header), over the real server with aiohttp's client: checked by the packs
checker, one line per problem back, good packs saved in the packs folder
under a safe name, never over another, never outside it; no PIN, no upload."""

from __future__ import annotations

import asyncio
import functools
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from benchmarks.companion_box import box_server
from controller.box.runtime import Box
from controller.pack_store import MAX_UPLOAD_BYTES, save_pack
from controller.web.seats import PIN_TRIES
from controller.web.server import PACK_UPLOAD_PATH, CompanionServer
from games import registry
from games.i18n import set_language
from games.quiz.packs import check_pack, find_packs
from tests.processes import HANG_S

GOOD = "# title: Uploaded quiz\nquestion,answer\nRed planet?,Mars\nLargest ocean?,Pacific\n"
BROKEN = "question,answer\nWhat?,\n,nobody asked\n"


@pytest.fixture()
def upload_server(tmp_path: Path) -> Iterator[tuple[CompanionServer, Path]]:
    set_language("en")
    spec = registry.get("quiz")
    folder = tmp_path / "packs"
    server = box_server(Box(spec, spec.settings(3)), port=0, bind="127.0.0.1", address="127.0.0.1",
                             upload=functools.partial(save_pack, folder))
    server.start()
    yield server, folder
    server.stop()


def upload(server: CompanionServer, posts: list[tuple[str, bytes, str | None, dict[str, str]]]) -> list[tuple[int, Any]]:
    """Each (name, body, pin, extra headers) posted in turn: (status, JSON answer)."""
    async def main() -> list[tuple[int, Any]]:
        answers = []
        async with aiohttp.ClientSession() as session:
            for name, body, pin, extra in posts:
                headers = {**({"X-Host-Pin": pin} if pin is not None else {}), **extra}
                async with session.post(f"http://127.0.0.1:{server.port}{PACK_UPLOAD_PATH}", params={"name": name},
                                        data=body, headers=headers) as response:
                    answers.append((response.status, json.loads(await response.text())))
        return answers
    return asyncio.run(main())


def test_a_good_pack_is_saved_and_said_a_broken_one_gets_the_checker_s_lines(upload_server: tuple[CompanionServer, Path],
                                                                              tmp_path: Path) -> None:
    server, folder = upload_server
    pin = server.seats.pin
    (good, said), (bad, refused) = upload(server, [("night.csv", GOOD.encode(), pin, {}),
                                                   ("broken.csv", BROKEN.encode(), pin, {})])
    assert good == 200 and said == {"saved": "night.csv",
                                    "lines": ["night.csv: saved in the packs folder (2 questions)"]}
    assert (folder / "night.csv").read_text(encoding="utf-8") == GOOD
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "broken.csv").write_text(BROKEN, encoding="utf-8")
    assert bad == 422 and refused["saved"] is None
    assert refused["lines"] == [str(p) for p in check_pack(probe / "broken.csv")]  # the same checker, line for line
    assert sorted(p.name for p in folder.iterdir()) == ["night.csv"]


def test_no_pin_or_a_wrong_one_saves_nothing_and_guessing_locks_the_address_out(
        upload_server: tuple[CompanionServer, Path]) -> None:
    server, folder = upload_server
    answers = upload(server, [("a.csv", GOOD.encode(), None, {}),
                              *[("a.csv", GOOD.encode(), "0000x", {})] * (PIN_TRIES - 1),
                              ("a.csv", GOOD.encode(), server.seats.pin, {})])
    assert [status for status, _ in answers] == [403] * PIN_TRIES + [429]  # the right PIN waits out the lockout
    assert all(a["saved"] is None and len(a["lines"]) == 1 for _, a in answers)
    assert not folder.exists() or not list(folder.iterdir())


def test_a_path_in_the_name_a_taken_name_a_big_file_and_another_site_s_page(upload_server: tuple[CompanionServer, Path],
                                                                            tmp_path: Path) -> None:
    server, folder = upload_server
    pin = server.seats.pin
    answers = upload(server, [
        ("../../escape.csv", GOOD.encode(), pin, {}),
        ("escape.csv", GOOD.replace("Mars", "Mars (the red one)").encode(), pin, {}),
        ("notes.txt", GOOD.encode(), pin, {}),
        ("big.csv", b"q,a\n" + b"x" * MAX_UPLOAD_BYTES, pin, {}),
        ("evil.csv", GOOD.encode(), pin, {"Origin": "http://evil.example"}),
    ])
    assert [status for status, _ in answers] == [200, 200, 422, 413, 403]
    assert answers[0][1]["saved"] == "escape.csv" and answers[1][1]["saved"] == "escape-2.csv"
    assert "escape-2.csv" in answers[1][1]["lines"][1]  # said, never overwritten silently
    assert "send a .csv, .json, .xlsx or .ods" in answers[2][1]["lines"][0] and "too large" in answers[3][1]["lines"][0]
    assert sorted(p.name for p in folder.iterdir()) == ["escape-2.csv", "escape.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["packs"]  # nothing beside the folder


def test_upload_fuzz_answers_one_line_per_problem_and_keeps_only_good_packs(upload_server: tuple[CompanionServer, Path],
                                                                            tmp_path: Path) -> None:
    """Seeded and time-bounded: random names (paths, dots, long, unicode) and
    bodies (the good pack cut, flipped, doubled; random bytes; JSON junk)
    are each answered with JSON lines; every saved file is a pack the
    checker takes, inside the folder."""
    server, folder = upload_server
    rng = random.Random(3434)
    names = ["p.csv", "p.json", "../p.csv", "..\\..\\p.json", "/etc/p.csv", "", ".", "..", "p", "p.CSV", "x" * 300 + ".csv",
             "Kvíz.csv", "p.csv\x00.txt", "a/b/c.json", "p.csv.exe", " .csv", "%2e%2e%2fp.csv"]
    seeds = [GOOD.encode(), BROKEN.encode(), b'{"title": "J", "questions": [{"question": "Q?", "answer": "A"}]}',
             b"\xef\xbb\xbf" + GOOD.encode(), b"", b"[]", b"{}", b"null"]
    posts = []
    for _ in range(120):  # a fixed number of seeded cases
        body = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(0, 4)):
            kind = rng.random()
            if kind < 0.3 and body:
                body[rng.randrange(len(body))] = rng.randrange(256)
            elif kind < 0.5:
                body = body[: rng.randint(0, len(body))]
            elif kind < 0.7:
                body += bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
            else:
                body = body + body
        posts.append((rng.choice(names), bytes(body), server.seats.pin, {}))
    started = time.monotonic()
    answers = upload(server, posts)
    assert time.monotonic() - started < HANG_S  # a hang, not a speed
    assert len(answers) == len(posts)
    for status, answer in answers:
        assert status in (200, 413, 422), answer
        assert (answer["saved"] is not None) == (status == 200)
        assert answer["lines"] and all(isinstance(line, str) and "\n" not in line and "Traceback" not in line
                                       for line in answer["lines"])
    saved = [answer["saved"] for status, answer in answers if status == 200]
    assert saved and len(saved) < len(posts)  # the fuzz reached both sides
    assert sorted(p.name for p in tmp_path.iterdir()) == ["packs"]
    assert sorted(p.name for p in folder.iterdir()) == sorted(set(saved))  # no trial file left behind
    assert all(found.questions > 0 and not found.problems for found in find_packs(folder))  # each one playable


def test_the_host_page_uploads_a_pack_and_shows_each_problem_of_a_broken_one(served: Any, phone: Any,
                                                                             tmp_path: Path) -> None:
    """In Chromium: the host page's file input posts the pack with the PIN it logged in with."""
    from playwright.sync_api import expect

    from tests.web.phones import SCREENS
    from tests.web.test_host_pages import log_in

    s = served("quiz", 3)  # the deciding process saves what it is sent in the box's packs folder
    (tmp_path / "night.csv").write_text(GOOD, encoding="utf-8")
    (tmp_path / "broken.csv").write_text(BROKEN, encoding="utf-8")
    host = phone()
    log_in(host, s)
    host.click("#pack-send")  # no file chosen: said, nothing sent
    expect(host.locator("#status")).to_have_text("Choose a pack file first.")
    host.set_input_files("#pack-file", str(tmp_path / "broken.csv"))
    host.click("#pack-send")
    lines = [str(p) for p in check_pack(tmp_path / "broken.csv")]
    expect(host.locator("#pack-lines li")).to_have_text(lines)  # one line per problem, the checker's own
    expect(host.locator("#status")).to_have_text("The pack was not saved: fix each problem below and upload it again.")
    host.set_input_files("#pack-file", str(tmp_path / "night.csv"))
    host.click("#pack-send")
    expect(host.locator("#pack-lines li")).to_have_text(["night.csv: saved in the packs folder (2 questions)"])
    host.locator("#packs-box").scroll_into_view_if_needed()
    host.screenshot(path=str(SCREENS / "host-pack-upload.png"), full_page=True)
    assert (s.data / "buzzerbox" / "packs" / "night.csv").read_text(encoding="utf-8") == GOOD
    assert sorted(p.name for p in (s.data / "buzzerbox" / "packs").iterdir()) == ["night.csv"]  # not the broken one
