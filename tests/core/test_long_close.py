"""A long game's stop is as prompt as a short one's: ``play --resume`` of a
quiz journal with checkpoints, stopped by SIGTERM, reads back only what
follows the newest checkpoint (the game of record for its summary line) and
leaves the whole-journal results to ``buzzerbox results`` (an hour-long game's
close took over 120 s replaying its journal twice). Counted in replayed
records, not in seconds."""

from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from controller import protocol as p
from controller.box import journal as journal_mod
from controller.box import runtime
from controller.box.simulate import Session
from games.registry import get
from tests.core.test_split import ENV, connect, until

#: records between checkpoints in the generated journal (a live box: 10,000)
EVERY = 200
RECORDS = 2_000


def long_quiz(path: Path) -> int:
    """A 4-player quiz played by simulated players in virtual time, cut off
    mid-game (no end), a checkpoint every EVERY records; its record count."""
    spec = get("quiz")
    settings = spec.settings(4, 1, **{**spec.demo_options, "questions": 10**6})
    box = runtime.Box(spec, settings)
    box.bound_logs()  # as a live box does
    box.checkpoint_every = EVERY
    box.journal = journal_mod.JournalWriter.create(path, box.header(mode="play"), fsync=False)
    players = Session(box, spec.new_bots(settings), spec.new_host(settings), 1)
    while box.journal.next_seq < RECORDS:
        players.run_virtual(players.now_us + 60_000_000)
        players.shows.clear()
    box.journal.close()
    assert box.checkpoint_seq > 0
    return sum(1 for _ in path.open("rb"))


def test_sigterm_after_a_long_game_replays_only_since_the_newest_checkpoint(tmp_path: Path, monkeypatch) -> None:
    from controller.cli import main

    path, sock_path = tmp_path / "long.jsonl", tmp_path / "views.sock"
    records = long_quiz(path)
    replayed = []
    replay = runtime.replay_record

    def counted(box: runtime.Box, line: int, record: Any) -> None:
        replayed.append(line)
        replay(box, line, record)

    monkeypatch.setattr(runtime, "replay_record", counted)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)

    def stop_once_it_plays() -> None:
        sock = connect(sock_path)
        try:
            until(sock, lambda m: isinstance(m, p.View))  # the deciding process took the game over
        finally:
            sock.close()
        os.kill(os.getpid(), signal.SIGTERM)  # systemd stopping the kiosk

    stopper = threading.Thread(target=stop_once_it_plays, daemon=True)
    stopper.start()
    try:
        code = main(["play", "quiz", "--players", "4", "--headless", "--mute", "--resume", str(path),
                     "--viewer-socket", str(sock_path)])
    except SystemExit as exc:  # pragma: no cover - said by the assertion below
        pytest.fail(f"play exited {exc.code}")
    stopper.join()
    assert code == 0  # SIGTERM: a stop asked for
    assert json.loads(path.read_text().splitlines()[-1])["type"] == "end"  # closed by the deciding process
    # the screen read the journal from its newest checkpoint at the start and again at the close:
    # never the whole journal (each whole read alone is every record)
    assert len(replayed) < records // 2, f"{len(replayed)} records replayed of {records}"
    assert not path.with_name(path.name + ".results.csv").exists()  # left to 'buzzerbox results'
