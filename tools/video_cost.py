"""What a video question's clip costs to decode on this machine: a 720p clip
of our own (generated here: moving colour bars, H.264 in mp4 and VP9 in
webm, 30 fps) played through ``controller.screen.video.VideoClip`` at the screen's
size, every frame due (none dropped), timed per frame.

    .venv/bin/python tools/video_cost.py [--seconds 5] [--size 1280x720]

Needs PyAV (``pip install -e '.[video]'``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.screen.video import VideoClip  # noqa: E402


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--size", default="1280x720", help="the screen's size to convert to")
    args = parser.parse_args()
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
