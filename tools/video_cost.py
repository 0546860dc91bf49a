"""What a video question's clip costs to decode on this machine: a 720p clip
of our own (generated here: moving colour bars, H.264 in mp4 and VP9 in
webm, 30 fps) played through ``controller.screen.video.VideoClip`` at the screen's
size, every frame due (none dropped), timed per frame.

    .venv/bin/python tools/video_cost.py [--seconds 5] [--size 1280x720]
    .venv/bin/python tools/video_cost.py --sound    # a video's sound track instead

``--sound`` times ``controller.screen.video.SoundTrack``: opening a track
(with its first piece, decoded as the video starts) and each later piece
(one frame decodes one at most), resampled to the box's mixer format
(44.1 kHz stereo 16-bit), for the demo clip's tune and a generated 60 s
AAC track (48 kHz stereo).

Needs PyAV (``pip install -e '.[video]'``).
"""

from __future__ import annotations

import argparse
import array
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.screen.video import TRACK_PIECE_S, SoundTrack, VideoClip  # noqa: E402

#: the box's mixer (controller/screen/sound.py opens it so)
MIXER = (44_100, -16, 2)
DEMO = Path(__file__).resolve().parents[1] / "games" / "quiz" / "packs" / "video" / "falling-balls.webm"


def make_clip(path: Path, codec: str, seconds: float, size: tuple[int, int] = (1280, 720), fps: int = 30) -> Path:
    """A clip of moving colour bars (our own: a test clip, no one's footage)."""
    import av

    width, height = size
    with av.open(str(path), "w") as out:
        stream = out.add_stream(codec, rate=fps)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        stream.time_base = Fraction(1, fps)
        row = bytearray(width * 3)
        for n in range(int(seconds * fps)):
            for x in range(width):  # eight bars sliding right, a step a frame
                bar = ((x + 8 * n) * 8 // width) % 8
                row[3 * x:3 * x + 3] = bytes((255 * (bar & 1), 255 * (bar >> 1 & 1), 255 * (bar >> 2 & 1)))
            frame = av.VideoFrame(width, height, "rgb24")
            plane = frame.planes[0]
            line = bytes(row) + bytes(plane.line_size - len(row))
            plane.update(line * height)
            frame.pts = n
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    return path


def cost(path: Path, size: tuple[int, int], fps: int = 30) -> list[float]:
    """Milliseconds of decoding and converting each frame, played frame by frame."""
    clip, times = VideoClip(path, size), []
    n = 0
    while not clip.ended:
        t0 = time.perf_counter()
        got = clip.frame_at(n / fps)
        if got is not None:
            times.append((time.perf_counter() - t0) * 1000)
        n += 1
    clip.close()
    return times


def make_track(path: Path, seconds: float) -> Path:
    """A video of one grey frame with ``seconds`` of a rising tone in AAC, 48 kHz stereo (our own)."""
    import math

    import av

    rate = 48_000
    with av.open(str(path), "w") as out:
        picture = out.add_stream("libx264", rate=1)
        picture.width, picture.height, picture.pix_fmt = 64, 64, "yuv420p"
        sound = out.add_stream("aac", rate=rate, layout="stereo")
        for packet in picture.encode(av.VideoFrame(64, 64, "yuv420p")):
            out.mux(packet)
        for packet in picture.encode(None):
            out.mux(packet)
        size = 1024
        for n in range(int(seconds * rate / size)):
            frame = av.AudioFrame(format="fltp", layout="stereo", samples=size)
            tone = bytes(array.array("f", (0.3 * math.sin(2 * math.pi * (220 + k / rate * 10) * k / rate)
                                           for k in range(n * size, (n + 1) * size))))
            for plane in frame.planes:
                plane.update(tone)
            frame.sample_rate, frame.pts = rate, n * size
            for packet in sound.encode(frame):
                out.mux(packet)
        for packet in sound.encode(None):
            out.mux(packet)
    return path


def track_cost(path: Path) -> tuple[float, list[float]]:
    """Milliseconds to open the track with its first piece, and to decode each later piece."""
    t0 = time.perf_counter()
    track = SoundTrack.open(path, 0.0, None, MIXER)
    assert track is not None, f"{path} has no sound"
    track.piece()
    opened, times = (time.perf_counter() - t0) * 1000, []
    while True:
        t0 = time.perf_counter()
        if not track.piece():
            break
        times.append((time.perf_counter() - t0) * 1000)
    track.container.close()
    return opened, times


def sound_main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        for name, path in (("the demo's tune (Opus, 4.5 s)", DEMO),
                           ("a 60 s AAC track", make_track(Path(folder) / "tone.mp4", 60.0))):
            opened, ms = track_cost(path)
            ms.sort()
            p95 = ms[int(0.95 * (len(ms) - 1))]
            print(f"{name}: opening with the first piece {opened:.1f} ms; {len(ms)} more pieces of "
                  f"{TRACK_PIECE_S} s, per piece p50 {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, "
                  f"max {ms[-1]:.2f} ms")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--size", default="1280x720", help="the screen's size to convert to")
    parser.add_argument("--sound", action="store_true", help="time a video's sound track instead")
    args = parser.parse_args()
    if args.sound:
        return sound_main()
    width, height = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory() as folder:
        for codec, suffix in (("libx264", ".mp4"), ("libvpx-vp9", ".webm")):
            path = make_clip(Path(folder) / f"bars{suffix}", codec, args.seconds)
            ms = sorted(cost(path, (width, height)))
            p95 = ms[int(0.95 * (len(ms) - 1))]
            print(f"{codec} 1280x720 30 fps -> {width}x{height}: {len(ms)} frames, per frame p50 "
                  f"{statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms "
                  f"({sum(ms) / 1000 / args.seconds:.0%} of real time)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
