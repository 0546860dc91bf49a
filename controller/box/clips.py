"""An audio question's clip (a quiz pack's ``audio`` cell): played through
pygame's mixer (``pygame.mixer.music`` streams ogg, mp3 and wav) as the
question's events say, in the process that draws the screen. A video
question's clip (``video``) follows the same events through the same player,
its pictures decoded by ``controller/screen/video.py``'s ``VideoScreen``.

The clip starts when the question is armed (or, as the pack may say, as
soon as it is shown: ``"play": "shown"``); it pauses when a buzz is decided
(the ``winner`` event: published after the lamp is lit, so the lamp never
waits for the music), plays on when the buzzers open again after a wrong
answer, and stops on the reveal, the next question or the end. The host's
F5 plays it again from its start. Driven by events alone, so the same code
plays a game decided in the screen's process (simulated players) and one
decided in a process of its own (docs/processes.md). Which of a game's own
events show, open, pause and stop a clip its spec says (``GameSpec.clip_cues``:
the quiz's); the common kinds below are the box's.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from games.base import ClipCues, EventKind, GameEvent

log = logging.getLogger("buzzerbox.clips")

#: the common events that pause and stop a clip in every game (a game adds its own: ``ClipCues``)
PAUSING = frozenset({EventKind.WINNER, EventKind.TIE, EventKind.HOST_PAUSED})
STOPPING = frozenset({EventKind.ROUND_OVER, EventKind.GAME_OVER})
#: a game's cues when it has no clips (the common events alone)
NO_CLIPS = ClipCues()


class Music(Protocol):
    """What the player needs of ``pygame.mixer.music`` (tests give their own)."""

    def load(self, filename: str) -> None: ...
    def play(self, loops: int = 0, start: float = 0.0) -> None: ...
    def pause(self) -> None: ...
    def unpause(self) -> None: ...
    def stop(self) -> None: ...
    def set_volume(self, volume: float) -> None: ...


@dataclass(frozen=True)
class Clip:
    file: str
    start_s: float = 0.0
    length_s: float | None = None
    #: it starts when the question is shown, not when it is armed
    on_show: bool = False

    @classmethod
    def of(cls, data: Any) -> Clip | None:
        if not isinstance(data, Mapping) or not isinstance(data.get("file"), str):
            return None
        length = data.get("length_s")
        return cls(data["file"], float(data.get("start_s") or 0.0),
                   float(length) if isinstance(length, (int, float)) else None, data.get("play") == "shown")


class ClipPlayer:
    """The clip of the question on the screen, and where it stands: ``state``
    is "stopped", "playing" or "paused" (the phones and the scoreboard say
    "playing"). ``music`` None: silent (no mixer), the state still kept."""

    def __init__(self, music: Music | None, volume: float = 1.0, keys: tuple[str, ...] = ("audio",)) -> None:
        self.music = music
        self.volume = volume
        #: the question's clips this player follows, the first the question has: "audio" for the mixer,
        #: "video" for the screen's pictures (controller/screen/video.py), both for the pages' "playing"
        self.keys = keys
        self.clip: Clip | None = None
        self.state = "stopped"
        self._played_us = 0  # how long it has played since its start (for its length)
        self._since_us: int | None = None
        self._now_us = 0  # the newest moment seen (events, frames)

    def on_events(self, events: Iterable[GameEvent], cues: ClipCues) -> None:
        """Follow the running game's events; ``cues``: which of its own kinds do what (its spec's)."""
        for e in events:
            self._now_us = max(self._now_us, e.t_us)
            if e.kind in cues.shown:
                self._stop()
                self.clip = next((c for c in (Clip.of(e.data.get(k)) for k in self.keys) if c is not None), None)
                if self.clip is not None and self.clip.on_show:
                    self.restart(e.t_us)
            elif e.kind in cues.opening and not e.data.get("rearmed"):
                if self.clip is not None and not self.clip.on_show:  # one shown plays on as the buzzers open
                    self.restart(e.t_us)
            elif (e.kind in cues.opening or e.kind == EventKind.HOST_CONTINUED) and self.state == "paused":
                self._resume(e.t_us)
            elif (e.kind in PAUSING or e.kind in cues.pausing) and self.state == "playing":
                self._pause(e.t_us)
            elif e.kind in STOPPING or e.kind in cues.stopping:
                self._stop()

    def restart_now(self) -> None:
        """The host's F5: the clip again from its start, now."""
        self.restart(self._now_us)

    def restart(self, now_us: int) -> None:
        """From the clip's start (the question armed, or the host's F5)."""
        if self.clip is None:
            return
        self._stop()
        if not (self._call("load", self.clip.file) and self._call("set_volume", self.volume)
                and self._call("play", 0, self.clip.start_s)):
            return
        self.state, self._played_us, self._since_us = "playing", 0, now_us

    def poll(self, now_us: int) -> None:
        """A clip with a length stops once it has played that long (pauses not counted)."""
        self._now_us = max(self._now_us, now_us)
        if self.state != "playing" or self.clip is None or self.clip.length_s is None or self._since_us is None:
            return
        if self._played_us + now_us - self._since_us >= self.clip.length_s * 1_000_000:
            self._stop()

    def _pause(self, now_us: int) -> None:
        self._call("pause")
        self._played_us += now_us - (self._since_us or now_us)
        self.state, self._since_us = "paused", None

    def _resume(self, now_us: int) -> None:
        self._call("unpause")
        self.state, self._since_us = "playing", now_us

    def _stop(self) -> None:
        if self.state != "stopped":
            self._call("stop")
        self.state, self._since_us = "stopped", None

    def _call(self, name: str, *args: Any) -> bool:
        """One call to the mixer; False (logged, the clip stopped) when it fails."""
        if self.music is None:
            return True  # silent: the state is kept all the same
        try:
            getattr(self.music, name)(*args)
        except Exception as exc:  # noqa: BLE001 - a clip that will not play must never stop the game
            log.warning("the clip %s would not %s (%s): the question goes on without it",
                        self.clip.file if self.clip else "?", name, exc)
            self.state, self._since_us = "stopped", None
            return False
        return True
