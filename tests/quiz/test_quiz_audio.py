"""Audio questions: a pack's ``audio`` cell names a clip (with a start and a
length), the question carries it, and the screen's clip player plays it when
the question is armed, pauses it when a buzz is decided, plays on after a
wrong answer, stops it when the question is over; F5 plays it again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.box.clips import ClipPlayer
from controller.box.press import Press
from controller.box.runtime import Box
from games import registry
from games.base import GameEvent
from games.quiz import PACKS_DIR
from games.quiz.packs import check_pack, load_pack

SPEC = registry.get("quiz")
CUES = SPEC.clip_cues  # the quiz's own events that show, open, pause and stop its clips
MUSIC = PACKS_DIR / "en-music.csv"


class FakeMusic:
    """pygame.mixer.music as the player calls it: every call recorded."""

    def __init__(self, fail: str = "") -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.fail = fail

    def _record(self, *call: Any) -> None:
        if call[0] == self.fail:
            raise RuntimeError("no such file")
        self.calls.append(call)

    def load(self, filename: str) -> None:
        self._record("load", Path(filename).name)

    def play(self, loops: int = 0, start: float = 0.0) -> None:
        self._record("play", start)

    def pause(self) -> None:
        self._record("pause")

    def unpause(self) -> None:
        self._record("unpause")

    def stop(self) -> None:
        self._record("stop")

    def set_volume(self, volume: float) -> None:
        self._record("volume", volume)


def test_the_demo_music_round_ships_with_its_clips() -> None:
    assert check_pack(MUSIC) == []
    pack = load_pack(MUSIC)
    assert len(pack) == 5 and all(q.audio is not None and q.audio.is_file() for q in pack.questions)
    jingle = next(q for q in pack.questions if "Christmas" in q.text)
    assert (jingle.audio_start_s, jingle.audio_length_s) == (0.0, 3.0)


@pytest.mark.parametrize(("cell", "said"), [
    ("music/nothing.ogg", "audio 'music/nothing.ogg' is not in"),
    ("music/clip.flac", "is not a clip the box plays; use .ogg, .mp3, .wav"),
    ("../clip.ogg", "must be a path inside the pack's folder"),
    ("music/clip.ogg@5+0", "plays 0.0 s; give a length from 1 to 600 s")])
def test_a_bad_clip_is_one_line_naming_the_row(tmp_path: Path, cell: str, said: str) -> None:
    (tmp_path / "music").mkdir()
    (tmp_path / "music" / "clip.ogg").write_bytes(b"OggS")
    (tmp_path / "music" / "clip.flac").write_bytes(b"fLaC")
    path = tmp_path / "pack.csv"
    path.write_text(f"question,answer,audio\nGood?,Yes,music/clip.ogg@12.5+20\nBad?,No,{cell}\n", encoding="utf-8")
    [problem] = check_pack(path)
    assert str(problem).startswith("pack.csv line 3: ") and said in str(problem)
    good = load_pack(path).questions[0]
    assert (good.audio, good.audio_start_s, good.audio_length_s) == (tmp_path / "music" / "clip.ogg", 12.5, 20.0)


def music_quiz() -> Box:
    return Box(SPEC, SPEC.settings(4, 1, pack=str(MUSIC), rules="teams"))


def test_the_clip_plays_on_arming_pauses_on_the_buzz_plays_on_after_a_wrong_answer_and_stops_when_over() -> None:
    box, music = music_quiz(), FakeMusic()
    player = ClipPlayer(music, volume=0.8)
    events: list[GameEvent] = []

    def after(new: list[GameEvent]) -> list[str]:
        events.extend(new)
        before = len(music.calls)
        player.on_events(new, CUES)
        return [c[0] for c in music.calls[before:]]

    assert after(box.host("arm", 1_000_000)) == ["load", "volume", "play"]  # the question, then armed
    assert player.state == "playing" and music.calls[0] == ("load", "twinkle.wav")
    box.apply_press(Press(0, "bell", 2_000_000))
    assert after(box.step(2_100_000)) == ["pause"]  # the buzz decided (the lamp lit first)
    assert after(box.host("wrong", 3_000_000)) == ["unpause"]  # the other team may buzz: the tune goes on
    box.apply_press(Press(2, "bell", 4_000_000))
    assert after(box.step(4_100_000)) == ["pause"]
    assert after(box.host("correct", 5_000_000)) == ["stop"]  # the question is over
    assert player.state == "stopped"
    assert after(box.host("next", 6_000_000)) == []
    assert player.clip is not None and player.clip.file.endswith("ode-to-joy.wav")
    player.restart_now()  # the host's F5
    assert [c[0] for c in music.calls[-3:]] == ["load", "volume", "play"]


def test_a_clip_with_a_length_stops_in_time_and_pauses_do_not_count() -> None:
    music = FakeMusic()
    player = ClipPlayer(music)
    player.on_events([GameEvent("question", 0, None, {"audio": {"file": "x.ogg", "start_s": 2.0, "length_s": 3.0}}),
                      GameEvent("armed", 1_000_000)], CUES)
    player.on_events([GameEvent("winner", 2_000_000, 0)], CUES)  # 1 s played
    player.poll(10_000_000)
    assert player.state == "paused"
    player.on_events([GameEvent("armed", 11_000_000, None, {"rearmed": True})], CUES)
    player.poll(12_900_000)
    assert player.state == "playing"  # 2.9 s played
    player.poll(13_000_000)
    assert player.state == "stopped"
    assert music.calls[2] == ("play", 2.0)  # from its start mark


def test_a_clip_that_will_not_load_is_logged_and_the_question_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    player = ClipPlayer(FakeMusic(fail="load"))
    player.on_events([GameEvent("question", 0, None, {"audio": {"file": "gone.ogg"}}), GameEvent("armed", 1)], CUES)
    assert player.state == "stopped" and "gone.ogg would not load" in caplog.text
    player.on_events([GameEvent("winner", 2, 0), GameEvent("round_over", 3)], CUES)  # nothing to pause or stop
    assert player.state == "stopped"


def test_a_question_without_a_clip_plays_nothing() -> None:
    music = FakeMusic()
    player = ClipPlayer(music)
    box = Box(SPEC, SPEC.settings(3, 1, pack=str(PACKS_DIR / "en-general.csv")))
    player.on_events(box.host("arm", 1_000_000), CUES)
    assert music.calls == [] and player.state == "stopped"
    assert box.engine.public_view()["ask"]["audio"] is None


def test_the_pages_say_the_clip_is_playing_paused_or_nothing_as_the_screen_plays_it() -> None:
    """The scoreboard and every phone get the clip's state from the same
    events the screen's player follows (the deciding process publishes them)."""
    from controller.box.views import Publisher

    box = music_quiz()
    pages = Publisher(box)

    def shown() -> tuple[Any, ...]:
        p = pages.pages()
        return (p.board["clip"], *(seat["clip"] for seat in p.seats))

    assert shown() == (None,) * 5
    pages.on_events(box.host("arm", 1_000_000))
    assert shown() == ("playing",) * 5
    box.apply_press(Press(0, "bell", 2_000_000))
    pages.on_events(box.step(2_100_000))
    assert shown() == ("paused",) * 5
    pages.on_events(box.host("wrong", 3_000_000))
    assert shown() == ("playing",) * 5
    pages.on_events(box.host("next", 4_000_000))  # the answer shown: the clip stops
    assert shown() == (None,) * 5


def test_a_pack_may_start_a_clip_when_its_question_is_shown_rather_than_armed(tmp_path: Path) -> None:
    (tmp_path / "music").mkdir()
    for name in ("intro.wav", "tune.wav"):
        (tmp_path / "music" / name).write_bytes((PACKS_DIR / "music" / "twinkle.wav").read_bytes())
    path = tmp_path / "pack.csv"
    path.write_text("question,answer,audio,audio_play\nArmed?,a,music/tune.wav,\nListen first?,b,music/intro.wav,shown\n"
                    "Typo?,c,music/tune.wav,when armed\n", encoding="utf-8")
    [problem] = check_pack(path)
    assert str(problem) == ("pack.csv line 4: audio_play 'when armed' says when the clip starts: write armed or shown "
                            "(empty: armed)")
    assert [q.audio_on_show for q in load_pack(path).questions] == [False, True]

    box, music = Box(SPEC, SPEC.settings(2, 1, pack=str(path))), FakeMusic()
    player = ClipPlayer(music)
    player.on_events(box.host("arm", 1_000_000), CUES)  # the first question: played when armed, as before
    assert [c[0] for c in music.calls] == ["load", "volume", "play"] and music.calls[0] == ("load", "tune.wav")
    player.on_events(box.host("next", 3_000_000), CUES)  # the second question on the screen, not armed yet
    assert player.state == "playing" and music.calls[-3:] == [("load", "intro.wav"), ("volume", 1.0), ("play", 0.0)]
    calls = len(music.calls)
    player.on_events(box.host("arm", 4_000_000), CUES)  # arming lets it play on: no new start
    assert player.state == "playing" and len(music.calls) == calls
    box.apply_press(Press(1, "bell", 5_000_000))
    player.on_events(box.step(5_100_000), CUES)
    assert player.state == "paused" and music.calls[-1] == ("pause",)
