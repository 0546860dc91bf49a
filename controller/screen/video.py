"""A video question's clip (mp4, webm), decoded with PyAV (FFmpeg's libraries)
at the screen's size and paced by the clip's own clock.

PyAV is an optional extra (``pip install 'buzzerbox[video]'``: its wheel
carries FFmpeg, about 100 MB): without it a video clip is one line in ``pack
check`` (``missing_decoder``), never a traceback. The player asks for the
frame due at a moment of play (pauses not counted, as ``controller/box/clips.py``
counts them); frames already late are decoded but never converted, which is
the costly step, so a slow box drops frames instead of falling behind. Its
own sound track (``SoundTrack``) is streamed to pygame's mixer beside it.
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
#: a frame's RGB bytes as a surface: frombytes since pygame 2.1.3, fromstring before it (Debian
#: bookworm's pygame, the one Raspberry Pi OS Lite draws with, is 2.1.2)
FROM_BYTES: Callable[..., pygame.Surface] = getattr(pygame.image, "frombytes", None) or pygame.image.fromstring

#: the video clips a pack may name
VIDEO_SUFFIXES: tuple[str, ...] = (".mp4", ".webm")
#: a frame stamped this little after the moment asked for is due already (webm stamps to the millisecond)
_SLACK_S = 0.002
#: a video's sound is decoded this much at a time, one piece playing and one queued on the mixer's
#: channel: about 350 kB at 44.1 kHz stereo whatever the clip's length (up to 600 s), and a frame
#: decodes a piece at most (a millisecond or two: ``tools/video_cost.py --sound``)
TRACK_PIECE_S = 0.5
#: pygame's mixer formats (its ``get_init()`` size and channels) as FFmpeg names them
_SAMPLE_FORMATS = {8: "u8", -8: "s8", -16: "s16", 16: "s16", 32: "flt"}
_LAYOUTS = {1: "mono", 2: "stereo", 4: "quad", 6: "5.1"}


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


def has_sound(path: str | Path) -> bool:
    """Whether the video carries a sound track (``pack check`` says so)."""
    import av

    with av.open(str(path)) as container:
        return bool(container.streams.audio)


class SoundTrack:
    """A video's own sound, decoded by PyAV a piece at a time (``TRACK_PIECE_S``),
    resampled to the mixer's format with PyAV's ``AudioResampler``, and played
    on one reserved channel of pygame's mixer: ``feed()`` (each frame) keeps a
    piece queued behind the one playing, so memory stays bounded for a clip of
    any length. ``SoundTrack.open`` gives None for a video without sound."""

    def __init__(self, container: Any, stream: Any, start_s: float, channel: Any,
                 mixer: tuple[int, int, int]) -> None:
        import av

        self.container, self.stream, self.channel = container, stream, channel
        rate, size, channels = mixer
        self.rate = rate
        self.frame_bytes = abs(size) // 8 * channels  # one sample of every channel
        self.resampler = av.AudioResampler(format=_SAMPLE_FORMATS.get(size, "s16"),
                                           layout=_LAYOUTS.get(channels, "stereo"), rate=rate)
        if start_s > 0:
            container.seek(int(start_s * 1_000_000))  # to the frame before the mark (in AV_TIME_BASE)
        self._frames = container.decode(stream)
        #: bytes before the start mark still to cut (None: known from the first frame's stamp)
        self._skip: int | None = None if start_s > 0 else 0
        self.start_s = start_s
        self.ended = False
        self.pieces = 0  # given to the mixer (tests, the cost figure)
        self.decoded_s = 0.0  # how much sound has come out of it

    @classmethod
    def open(cls, path: str | Path, start_s: float, channel: Any, mixer: tuple[int, int, int]) -> SoundTrack | None:
        import av

        container = av.open(str(path))
        if not container.streams.audio:
            container.close()
            return None
        return cls(container, container.streams.audio[0], start_s, channel, mixer)

    def piece(self) -> bytes:
        """The next ``TRACK_PIECE_S`` of sound in the mixer's format (b"": the track is over)."""
        want = round(TRACK_PIECE_S * self.rate) * self.frame_bytes
        out = bytearray()
        while len(out) < want and not self.ended:
            try:
                frame = next(self._frames)
            except StopIteration:
                self.ended = True
                frame = None
            if self._skip is None and frame is not None:  # after a seek: what comes before the mark is cut
                at = float(frame.pts * frame.time_base) if frame.pts is not None else self.start_s
                self._skip = max(0, round((self.start_s - at) * self.rate)) * self.frame_bytes
            for got in self.resampler.resample(frame):  # None flushes what the resampler holds
                data = bytes(got.planes[0])[:got.samples * self.frame_bytes]
                skip = min(self._skip or 0, len(data))
                self._skip = (self._skip or 0) - skip
                out += data[skip:]
        self.decoded_s += len(out) / self.frame_bytes / self.rate
        if self.ended and self.decoded_s == 0 and self.start_s < self.stream_s():
            raise ValueError("its sound track decodes to nothing")  # FFmpeg drops damaged packets without a word
        return bytes(out)

    def stream_s(self) -> float:
        """How long the file says the track lasts (0: it does not say)."""
        if self.stream.duration is not None and self.stream.time_base is not None:
            return float(self.stream.duration * self.stream.time_base)
        return 0.0 if self.container.duration is None else self.container.duration / 1e6

    def check(self) -> float:
        """Every piece decoded, none played (``pack check``): how long the sound lasts; raises when damaged."""
        while self.piece():
            pass
        return self.decoded_s

    def feed(self) -> None:
        """A piece queued behind the one playing (the first one played): called each frame."""
        import pygame

        if self.ended or self.channel.get_queue() is not None:
            return
        data = self.piece()
        if not data:
            return
        sound = pygame.mixer.Sound(buffer=data)
        self.pieces += 1
        if self.channel.get_busy():
            self.channel.queue(sound)
        else:
            self.channel.play(sound)

    def close(self) -> None:
        self.channel.stop()
        self.container.close()


class VideoScreen:
    """The screen's side of a video question: ``ClipPlayer`` (controller/box/clips.py)
    drives it as it drives the mixer (``load``, ``play``, ``pause``, ``unpause``,
    ``stop``), by the question's events, so it pauses on the decided buzz
    after the lamp, plays on after a wrong answer and stops on the reveal;
    ``picture()`` is the frame due now, decoded on the frame's own thread
    (never the deciding one). The clip's time runs by ``clock`` (seconds),
    pauses not counted. Its own sound (``SoundTrack``) starts, pauses, plays
    on and stops with the pictures when ``with_sound`` (a box with a mixer
    and no ``audio`` cell: that cell's clip wins); a track that will not
    decode is one line, the pictures play on. Without PyAV (``missing``), or
    with a clip that will not decode, the question plays on with its still
    or a placeholder."""

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
        #: the clip's own sound plays (the presenter says: a mixer, not muted, no ``audio`` cell)
        self.with_sound = False
        self.volume = 1.0
        #: the mixer's channel the sound plays on (reserved on first use; tests give their own)
        self.channel: Any = None
        self.track: SoundTrack | None = None

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
        if self.with_sound:
            self._start_track(self.file, start)
        self._played_s, self._since = 0.0, self.clock()

    def pause(self) -> None:
        if self._since is not None:
            self._played_s += self.clock() - self._since
            self._since = None
            if self.track is not None:
                self.track.channel.pause()

    def unpause(self) -> None:
        if self.clip is not None and self._since is None:
            self._since = self.clock()
            if self.track is not None:
                self.track.channel.unpause()

    def stop(self) -> None:
        if self.clip is not None:
            self.clip.close()
        self.clip, self._since = None, None
        self._stop_track()

    def set_volume(self, volume: float) -> None:
        """The clip's own sound's volume (the box's, as the audio clips')."""
        self.volume = volume
        if self.track is not None:
            self.track.channel.set_volume(volume)

    def _start_track(self, filename: str, start_s: float) -> None:
        """The clip's own sound from ``start_s``, its first piece playing now (with the first frame)."""
        import pygame

        mixer = pygame.mixer.get_init()
        if not mixer:
            return
        try:
            if self.channel is None:
                pygame.mixer.set_reserved(1)  # the buzzers' sounds never take the track's channel
                self.channel = pygame.mixer.Channel(0)
            self.track = SoundTrack.open(filename, start_s, self.channel, mixer)
            if self.track is not None:
                self.channel.set_volume(self.volume)
                self.track.feed()
                log.info("video: %s plays its own sound from %.1f s", filename, start_s)
        except Exception as exc:  # noqa: BLE001 - FFmpeg's errors are many kinds: the pictures play on
            self._track_failed(exc)

    def _track_failed(self, exc: Exception) -> None:
        log.warning("video: the sound of %s will not decode (%s); the pictures play on without it", self.file, exc)
        self._stop_track()

    def _stop_track(self) -> None:
        if self.track is not None:
            track, self.track = self.track, None
            try:
                track.close()
            except Exception:  # noqa: BLE001 - closing a damaged file: nothing more to do
                log.debug("video: closing the sound of %s failed", self.file)

    def picture(self) -> pygame.Surface | None:
        """The frame due now (the still while paused or stopped), or None (none yet)."""
        if self.clip is not None and self._since is not None:
            try:
                self._keep(self.clip, self.clip.frame_at(self._played_s + self.clock() - self._since))
            except Exception as exc:  # noqa: BLE001 - a clip damaged halfway: its last frame stays
                log.warning("video: %s stopped decoding (%s); its last frame stays", self.file, exc)
                self.stop()
            if self.track is not None:
                try:
                    self.track.feed()  # a piece queued behind the one playing: the sound never runs dry
                except Exception as exc:  # noqa: BLE001 - a track damaged halfway: the pictures play on
                    self._track_failed(exc)
            if self.clip is not None and self.clip.ended:
                self.stop()  # played to its end: its last frame stays until the question is over
        return self.still

    def _keep(self, clip: VideoClip, data: bytes | None) -> None:
        if data is not None:
            self.still = FROM_BYTES(data, clip.size, "RGB")

    def _say_missing(self) -> None:
        if not self._said:
            self._said = True
            log.warning("a video question shows a placeholder: the video decoder is not installed (%s)", NO_DECODER)
