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
from fractions import Fraction
from pathlib import Path
from typing import Any

#: the video clips a pack may name
VIDEO_SUFFIXES: tuple[str, ...] = (".mp4", ".webm")
#: a frame stamped this little after the moment asked for is due already (webm stamps to the millisecond)
_SLACK_S = 0.002


def missing_decoder() -> bool:
    """True when PyAV is not installed (the box plays audio clips only)."""
    return importlib.util.find_spec("av") is None


class VideoClip:
    """One clip open for playing: ``frame_at(t_s)`` gives the frame due at
    ``t_s`` seconds of play as RGB bytes of ``size``, or None when the one
    shown is still due (nothing to draw anew)."""

    def __init__(self, path: str | Path, size: tuple[int, int], start_s: float = 0.0) -> None:
        import av

        self.size = size
        self.container: Any = av.open(str(path))
        self.stream: Any = self.container.streams.video[0]
        self.stream.thread_type = "AUTO"  # FFmpeg's own threads: the Pi has four cores
        self.start_s = start_s
        if start_s > 0:  # to the keyframe before the start mark; frames before it are skipped below
            self.container.seek(int(start_s / float(self.stream.time_base or Fraction(1, 1000))), stream=self.stream)
        self._frames = self.container.decode(self.stream)
        self._next: Any = None  # decoded, not yet due
        self.shown_s: float | None = None  # the clip time of the frame last given
        self.dropped = 0  # frames decoded late and never converted
        self.ended = False

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
