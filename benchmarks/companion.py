"""Companion pages benchmark: does serving phones cost the HDMI loop anything,
and how fast does a private update reach a phone?

Setup: Hands (the test-only hidden-hand game, tests/web/hands) with 7 seats,
``hand`` cards each so it never ends during a run; the HDMI loop on this
(main) thread, a frame done as ``benchmarks/one_process.py: frames_loop`` does it (box.step, react,
draw the scene with the companion overlay, flip; dummy video driver at
1920x1080, 60 fps); the companion server on its own thread; 7 phones in a
separate process (aiohttp clients on loopback), each playing a card the
moment one is offered and sending 10 refused messages a second besides
("busy": every message goes through the full checks).

Figures, each repeated ``--repeats`` times (the three conditions interleaved
per repeat so drift hits all alike) with the spread printed:

1. private updates delivered: from the moment the loop published a snapshot
   (monotonic clock, shared by the processes) to the moment a phone's
   WebSocket handed it the message; p50/p99 over every update to every seat.
   On loopback: it proves the server adds no queueing; it cannot say what a
   bar's Wi-Fi adds.
2. frame time (the work of a frame, not the wait for the next one), median
   and p99: no server (baseline); "moves, no server": the same game activity
   (a card played about every frame, sent from the loop itself), so the
   scene changes as often as with the phones; server started with no phone
   (the HDMI panel with 7 QR codes); server with 7 busy phones. The claim to
   check is "within noise": busy vs idle, and busy vs the same moves without
   a server, compared with the repeats' spread.

    PYTHONPATH=. python benchmarks/companion.py               # 5 x 4 runs of 6 s (~3 min)
    PYTHONPATH=. python benchmarks/companion.py --seconds 3   # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from benchmarks.companion_box import serve  # noqa: E402
from controller.box import session as box_session
from controller.box.timeline import box_now_us  # noqa: E402
from controller.screen import live
from controller.screen.loop import draw_box, react_box  # noqa: E402
from controller.screen.screen import Screen  # noqa: E402
from games import registry  # noqa: E402
from games.base import Action  # noqa: E402

SEATS = 7
#: cards per hand (dealt again when empty, so the game never ends): a hand and a move list of the
#: size the hidden-hand games have (Piepmatz: ~8 birds, up to ~32 moves)
HAND = 10
FPS = 60


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the phones (a separate process) ------------------------------------------------------

def phones(port: int, tokens: list[str], seconds: float, out: Any, chatter_hz: float) -> None:
    """7 phones: join, play whatever is offered at once, chatter refused messages."""
    received: list[tuple[int, int]] = []  # (version, monotonic ns when the message arrived)

    async def phone(session: Any, seat: int, token: str, end: float) -> None:
        ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws/seat")
        await ws.send_json({"type": "hello", "seat": seat, "token": token})
        seq = 0

        async def chatter() -> None:
            while time.monotonic() < end:
                await ws.send_json({"type": "move", "kind": "play", "args": {"card": -1}, "seq": 10**9})
                await asyncio.sleep(1 / chatter_hz)

        task = asyncio.ensure_future(chatter())
        while time.monotonic() < end:
            try:
                msg = await asyncio.wait_for(ws.receive(), max(0.01, end - time.monotonic()))
            except asyncio.TimeoutError:
                break
            now = time.monotonic_ns()
            if msg.type != 1:  # not text: closed
                break
            data = json.loads(msg.data)
            if data["type"] == "welcome":
                seq = data["seq"]
            elif data["type"] == "seat":
                received.append((data["version"], now))
                if data["moves"]:
                    seq += 1
                    move = data["moves"][0]
                    await ws.send_json({"type": "move", "kind": move["kind"], "args": move["args"], "seq": seq})
        task.cancel()
        await ws.close()

    async def main() -> None:
        import aiohttp

        end = time.monotonic() + seconds
        async with aiohttp.ClientSession() as session:
            await asyncio.gather(*(phone(session, i, t, end) for i, t in enumerate(tokens)))

    asyncio.run(main())
    out.put(received)


# -- one run of the HDMI loop ---------------------------------------------------------------

def run(condition: str, seconds: float, screen: Screen, chatter_hz: float) -> dict[str, Any]:
    spec = registry.get("hands")
    box = box_session.new_box(spec, spec.settings(SEATS, seed=1, hand=HAND, refill=True), None, None)
    presenter = live.presenter_for(box.spec, screen, sound=None, colors=None)
    server = None
    published: dict[int, int] = {}
    builds: list[float] = []
    child = None
    queue: Any = None
    if condition != "no server":
        server = serve(box, [presenter.scene, presenter.results], 0, bind="127.0.0.1", address="127.0.0.1")
        server.publisher.listeners.insert(0, lambda snap: published.__setitem__(snap.version, time.monotonic_ns()))
        build = server.publisher.build

        def timed_build() -> Any:  # what publishing costs the loop thread
            t0 = time.perf_counter_ns()
            try:
                return build()
            finally:
                builds.append((time.perf_counter_ns() - t0) / 1e6)
        server.publisher.build = timed_build  # type: ignore[method-assign]
        if condition == "7 busy phones":
            queue = mp.get_context("spawn").Queue()
            tokens = [server.seats.token(i) for i in range(SEATS)]
            child = mp.get_context("spawn").Process(target=phones, args=(server.port, tokens, seconds + 1.0,
                                                                           queue, chatter_hz))
            child.start()
            time.sleep(1.0)  # the phones start and join before the measured part
    frame_clock = pygame.time.Clock()
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.perf_counter_ns()
        for _event in pygame.event.get():
            pass
        if condition == "moves, no server" and not box._held:  # the same game activity, played from here
            seat = box.engine.turn
            box.deliver_action(Action("play", box_now_us(), seat, {"card": box.engine.hands[seat][0]}, 100_000))
        t = box_now_us() + box.time_offset_us
        events = box.step(t)
        react_box(presenter, box, events, t)
        draw_box(presenter, box, t)
        presenter.screen.flip()
        times.append((time.perf_counter_ns() - t0) / 1e6)
        frame_clock.tick(FPS)
    latencies: list[float] = []
    moves = len(box.engine.played)
    if child is not None:
        received = queue.get(timeout=30)
        child.join(10)
        latencies = [(ns - published[v]) / 1e6 for v, ns in received if v in published]
    if server is not None:
        server.stop()
    return {"frames": times, "latencies": latencies, "moves": moves, "builds": builds,
            "refusals": server.refusals if server is not None else 0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--chatter", type=float, default=10.0, help="refused messages per phone per second")
    args = parser.parse_args()
    sys.path.insert(0, os.getcwd())
    conditions = ("no server", "moves, no server", "server idle", "7 busy phones")
    results: dict[str, list[dict[str, Any]]] = {c: [] for c in conditions}
    with registry.register("hands", "tests.web.hands"):
        screen = Screen.open(headless=True, size=(1920, 1080))
        for r in range(args.repeats):
            for c in conditions:
                results[c].append(run(c, args.seconds, screen, args.chatter))
                res = results[c][-1]
                print(f"repeat {r + 1} {c:16}: frame median {statistics.median(res['frames']):6.2f} ms "
                      f"p99 {percentile(res['frames'], 0.99):6.2f} ms ({len(res['frames'])} frames)"
                      + (f"; {len(res['latencies'])} private updates p50 {percentile(res['latencies'], 0.5):.2f} ms"
                         f" p99 {percentile(res['latencies'], 0.99):.2f} ms; {res['moves']} moves played, "
                         f"{res['refusals']} refusals; publishing {len(res['builds'])}x median "
                         f"{percentile(res['builds'], 0.5):.2f} ms" if res["latencies"] else ""), flush=True)
    print()
    print(f"frame time over {args.repeats} repeats of {args.seconds:.0f} s (1920x1080, {FPS} fps target); "
          "per condition: median of the repeats' medians [min-max], same for p99")
    for c in conditions:
        meds = [statistics.median(x["frames"]) for x in results[c]]
        p99s = [percentile(x["frames"], 0.99) for x in results[c]]
        print(f"  {c:16}: median {statistics.median(meds):6.2f} ms [{min(meds):.2f}-{max(meds):.2f}]   "
              f"p99 {statistics.median(p99s):6.2f} ms [{min(p99s):.2f}-{max(p99s):.2f}]")
    for base, other in (("server idle", "7 busy phones"), ("moves, no server", "7 busy phones")):
        a = [statistics.median(x["frames"]) for x in results[base]]
        b = [statistics.median(x["frames"]) for x in results[other]]
        diff = statistics.median(b) - statistics.median(a)
        noise = max(max(a) - min(a), max(b) - min(b))
        print(f"  {other} - {base}, medians: {diff:+.2f} ms; larger repeat-to-repeat spread of the two {noise:.2f} ms"
              f" -> " + ("within noise" if abs(diff) <= noise else "OUTSIDE noise"))
    lat = [v for x in results["7 busy phones"] for v in x["latencies"]]
    p50s = [percentile(x["latencies"], 0.5) for x in results["7 busy phones"]]
    p99s = [percentile(x["latencies"], 0.99) for x in results["7 busy phones"]]
    print(f"private updates (publish -> phone's socket, loopback): {len(lat)} in all; "
          f"p50 {percentile(lat, 0.5):.2f} ms [{min(p50s):.2f}-{max(p50s):.2f}], "
          f"p99 {percentile(lat, 0.99):.2f} ms [{min(p99s):.2f}-{max(p99s):.2f}] (all; [per-repeat min-max])")
    return 0


if __name__ == "__main__":
    sys.exit(main())
