"""An engine ticks to an action's stamp before it takes the action: what fell
due on the way (an answer window expiring, a race a deadline decided) is the
game's whether or not the action is then refused. The box ticks first, so
those events are emitted, journaled and published with the refusal (they used
to be lost: the engine's state had moved on, the screens never heard)."""

from __future__ import annotations

from pathlib import Path

from controller.box.journal import JournalWriter, load
from controller.box.press import Press
from controller.box.runtime import Box, box_from_journal
from games.base import GameEvent
from games.quiz import PACKS_DIR
from games.registry import get

SPEC = get("quiz")


def test_an_answer_window_expiring_before_a_refused_host_key_is_emitted_and_published(tmp_path: Path) -> None:
    box = Box(SPEC, SPEC.settings(3, 1, pack=str(PACKS_DIR / "en-general.csv"), answer_time_us=5_000_000))
    box.journal = JournalWriter.create(tmp_path / "q.jsonl", box.header(mode="simulate"), fsync=False)
    published: list[GameEvent] = []
    box.on_events.append(published.extend)
    box.host("arm", 1_000_000)
    box.apply_press(Press(1, "bell", 2_000_000))
    box.step(2_100_000)
    assert box.engine.public_view()["phase"] == "answering"  # station 1 answers until 7.0 s
    said = box.host_button("arm", 9_000_000)  # armed again by the time-up: the key does nothing
    assert [(e.kind, e.t_us) for e in said] == [
        ("timer_warning", 4_000_001), ("timer_warning", 5_000_001), ("timer_warning", 6_000_001),
        ("time_up", 7_000_001), ("wrong", 7_000_001), ("armed", 7_000_001), ("rejected", 9_000_000)]
    assert published[-len(said):] == said and box.engine.public_view()["phase"] == "armed"
    assert box.step(10_000_000) == []  # told once
    box.journal.close()
    replayed = box_from_journal(load(tmp_path / "q.jsonl"))
    assert replayed.event_log == box.event_log
