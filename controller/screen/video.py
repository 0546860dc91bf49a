"""A video question's clip (mp4, webm), decoded with PyAV (FFmpeg's libraries)
at the screen's size and paced by the clip's own clock.

PyAV is an optional extra (``pip install 'buzzerbox[video]'``: its wheel
carries FFmpeg, about 100 MB): without it a video clip is one line in ``pack
check`` (``missing_decoder``), never a traceback. The player asks for the
frame due at a moment of play (pauses not counted, as ``controller/box/clips.py``
counts them); frames already late are decoded but never converted, which is
the costly step, so a slow box drops frames instead of falling behind.
"""

from __future__ import annotations

import importlib.util
import logging
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pygame

log = logging.getLogger("buzzerbox.video")

#: the video clips a pack may name
VIDEO_SUFFIXES: tuple[str, ...] = (".mp4", ".webm")
#: a frame stamped this little after the moment asked for is due already (webm stamps to the millisecond)
_SLACK_S = 0.002


#: what the room's screen says in a video question's place without PyAV, and the one line the host reads
NO_DECODER = "pip install 'buzzerbox[video]'"


def fitted(size: tuple[int, int], box: tuple[int, int]) -> tuple[int, int]:
    """``size`` scaled to fit ``box`` keeping its proportions (at least 2x2)."""
    (w, h), (bw, bh) = size, box
    k = min(bw / max(1, w), bh / max(1, h))
    return max(2, int(w * k)), max(2, int(h * k))


def video_fit(screen: tuple[int, int]) -> tuple[int, int]:
    """The most a video question's frames need at this screen size (the quiz
    scene gives the clip half the question card: decoded to that, never to the full screen)."""
    return max(2, screen[0] * 45 // 100), max(2, screen[1] // 2)


def missing_decoder() -> bool:
    """True when PyAV is not installed (the box plays audio clips only)."""
    return importlib.util.find_spec("av") is None


class VideoClip:
    """One clip open for playing: ``frame_at(t_s)`` gives the frame due at
    ``t_s`` seconds of play as RGB bytes of ``size``, or None when the one
    shown is still due (nothing to draw anew)."""

    def __init__(self, path: str | Path, size: tuple[int, int] | None = None, start_s: float = 0.0, *,
                 fit: tuple[int, int] = (640, 360)) -> None:
        import av

        self.container: Any = av.open(str(path))
        self.stream: Any = self.container.streams.video[0]
        #: the frames' size: ``size``, else the clip's own proportions as large as ``fit`` holds
        self.size = size or fitted((self.stream.codec_context.width, self.stream.codec_context.height), fit)
        self.stream.thread_type = "AUTO"  # FFmpeg's own threads: the Pi has four cores
        self.start_s = start_s
        if start_s > 0:  # to the keyframe before the start mark; frames before it are skipped below
            self.container.seek(int(start_s / float(self.stream.time_base or Fraction(1, 1000))), stream=self.stream)
        self._frames = self.container.decode(self.stream)
        self._next: Any = None  # decoded, not yet due
        self.shown_s: float | None = None  # the clip time of the frame last given
        self.dropped = 0  # frames decoded late and never converted
        self.ended = False
        #: how long the file says it lasts (None: it does not say); a file cut short decodes less
        self.duration_s: float | None = None if self.container.duration is None else self.container.duration / 1e6

    def _time(self, frame: Any) -> float:
        return float((frame.pts or 0) * (self.stream.time_base or Fraction(1, 1000)))

    def _decoded(self) -> Any:
        if self._next is None and not self.ended:
            try:
                while True:
                    frame = next(self._frames)
                    if self._time(frame) >= self.start_s - 1e-6:
                        self._next = frame
                        break
            except StopIteration:
                self.ended = True
        return self._next

    def frame_at(self, t_s: float) -> bytes | None:
        """The newest frame due at ``t_s`` seconds of play, converted to the screen's size."""
        due, frame = self.start_s + t_s + _SLACK_S, None
        while (f := self._decoded()) is not None and self._time(f) <= due:
            if frame is not None:
                self.dropped += 1  # a later frame is due too: this one is never shown
            frame, self._next = f, None
        if frame is None:
            return None
        self.shown_s = self._time(frame) - self.start_s
        width, height = self.size
        plane = frame.reformat(width=width, height=height, format="rgb24").planes[0]
        row = width * 3
        if plane.line_size == row:
            return bytes(plane)
        data = memoryview(plane)  # rows padded to FFmpeg's alignment: the padding is cut
        return b"".join(data[y * plane.line_size:y * plane.line_size + row] for y in range(height))

    def close(self) -> None:
        """The file and FFmpeg's decoder let go (the question is over)."""
        self.container.close()


class VideoScreen:
    """The screen's side of a video question: ``ClipPlayer`` (controller/box/clips.py)
    drives it as it drives the mixer (``load``, ``play``, ``pause``, ``unpause``,
    ``stop``), by the question's events, so it pauses on the decided buzz
    after the lamp, plays on after a wrong answer and stops on the reveal;
    ``picture()`` is the frame due now, decoded on the frame's own thread
    (never the deciding one). The clip's time runs by ``clock`` (seconds),
    pauses not counted. Without PyAV (``missing``), or with a clip that will
    not decode, the question plays on with its still or a placeholder."""

    def __init__(self, fit: tuple[int, int] = (640, 360), clock: Callable[[], float] = time.monotonic) -> None:
        self.fit = fit
        self.clock = clock
        self.missing = missing_decoder()
        self.file: str | None = None
        self.clip: VideoClip | None = None
        #: the frame last decoded: the still shown while paused, after the clip, or before it plays
        self.still: pygame.Surface | None = None
        self._played_s = 0.0
        self._since: float | None = None
        self._said = False  # the missing decoder is said once a run, not once a question

    @property
    def playing(self) -> bool:
        return self.clip is not None and self._since is not None

    def load(self, filename: str) -> None:
        self.stop()
        if filename != self.file:
            self.file, self.still = filename, None

    def show_still(self, filename: str, start_s: float = 0.0) -> None:
        """The clip's first frame as the question's picture before it plays."""
        self.load(filename)
        if self.missing:
            self._say_missing()
            return
        try:
            clip = VideoClip(filename, start_s=start_s, fit=self.fit)
            try:
                self._keep(clip, clip.frame_at(0.0))
            finally:
                clip.close()
        except Exception as exc:  # noqa: BLE001 - a clip that will not decode never stops the game
            log.warning("video: %s shows no picture (%s); the question goes on without it", filename, exc)

    def play(self, loops: int = 0, start: float = 0.0) -> None:
        self.stop()
        if self.missing:
            self._say_missing()
            return
        if self.file is None:
            return
        self.clip = VideoClip(self.file, start_s=start, fit=self.fit)  # a failure: ClipPlayer logs it and stops
        self._played_s, self._since = 0.0, self.clock()

    def pause(self) -> None:
        if self._since is not None:
            self._played_s += self.clock() - self._since
            self._since = None

    def unpause(self) -> None:
        if self.clip is not None and self._since is None:
            self._since = self.clock()

    def stop(self) -> None:
        if self.clip is not None:
            self.clip.close()
        self.clip, self._since = None, None

    def set_volume(self, volume: float) -> None:
        """The pictures have no volume (a video's sound is the pack's ``audio`` cell)."""

    def picture(self) -> pygame.Surface | None:
        """The frame due now (the still while paused or stopped), or None (none yet)."""
        if self.clip is not None and self._since is not None:
            try:
                self._keep(self.clip, self.clip.frame_at(self._played_s + self.clock() - self._since))
            except Exception as exc:  # noqa: BLE001 - a clip damaged halfway: its last frame stays
                log.warning("video: %s stopped decoding (%s); its last frame stays", self.file, exc)
                self.stop()
            if self.clip is not None and self.clip.ended:
                self.stop()  # played to its end: its last frame stays until the question is over
        return self.still

    def _keep(self, clip: VideoClip, data: bytes | None) -> None:
        if data is not None:
            self.still = pygame.image.frombytes(data, clip.size, "RGB")

    def _say_missing(self) -> None:
        if not self._said:
            self._said = True
            log.warning("a video question shows a placeholder: the video decoder is not installed (%s)", NO_DECODER)
