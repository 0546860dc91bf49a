"""A video question's clip decoded with PyAV at the screen's size, paced by
the clip's own clock: the frame due is the one given, late frames are
dropped unconverted, a start mark skips what comes before it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("av")
from controller.screen.video import VideoClip, missing_decoder  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from video_cost import make_clip  # noqa: E402

FPS = 10


@pytest.fixture(scope="module", params=[("libx264", ".mp4"), ("libvpx-vp9", ".webm")])
def clip(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    codec, suffix = request.param
    return make_clip(tmp_path_factory.mktemp("video") / f"bars{suffix}", codec, 2.0, (160, 90), FPS)


def test_each_frame_comes_when_due_at_the_screens_size(clip: Path) -> None:
    video = VideoClip(clip, (320, 180))
    first = video.frame_at(0.0)
    assert first is not None and len(first) == 320 * 180 * 3 and video.shown_s == 0.0
    assert video.frame_at(0.05) is None  # the next frame is due at 0.1 s: nothing new to draw
    second = video.frame_at(0.1)
    assert second is not None and second != first and video.shown_s == pytest.approx(0.1, abs=0.002)
    assert video.dropped == 0
    video.close()


def test_a_late_player_skips_to_the_frame_due_dropping_the_rest(clip: Path) -> None:
    video = VideoClip(clip, (160, 90))
    assert video.frame_at(0.0) is not None
    assert video.frame_at(0.75) is not None and video.shown_s == pytest.approx(0.7, abs=0.002)
    assert video.dropped == 6  # 0.1 .. 0.6 decoded, never converted
    assert video.frame_at(5.0) is not None and video.ended  # past its end: its last frame, then nothing
    assert video.frame_at(6.0) is None
    video.close()


def test_a_start_mark_skips_what_comes_before_it(clip: Path) -> None:
    video = VideoClip(clip, (160, 90), start_s=1.0)
    assert video.frame_at(0.0) is not None and video.shown_s == pytest.approx(0.0, abs=0.002)
    assert video.frame_at(0.3) is not None and video.shown_s == pytest.approx(0.3, abs=0.002)
    video.close()


def test_a_missing_decoder_is_known_before_a_clip_is_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not missing_decoder()
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    assert missing_decoder()
