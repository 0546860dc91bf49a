"""League hub benchmark: 20 boxes x 16 stations publishing live views to one
hub through a real Mosquitto on loopback. What does the hub cost, how late
does a view reach it, and does its memory stay flat over an hour?

Setup: the views are real: a 16-station team quiz (two teams of eight) is
played by simulated players in virtual time, and every scoreboard snapshot
its box would publish is kept with its moment. Each of 20 ``BoxLink``s (the
boxes' own publisher: coalescing, one view in flight) replays that game's
views, looping, at ``--speed`` times real time, so ``--hour`` seconds of
wall time carry one simulated hour of 20 rooms. The hub is ``buzzerbox
league serve`` in its own process; its CPU time (utime+stime) and resident
memory (VmRSS) are read from /proc every few seconds.

Figures, repeated ``--repeats`` times, each loaded run interleaved with an
idle baseline (the hub connected, no box publishing) so drift hits both:

1. hub CPU, as a percentage of one core, idle and loaded (loaded minus idle
   is what the rooms cost);
2. latency box -> hub, p50/p99 of the newest 20,000 views: each view's delay
   beyond its room's quickest (the hub's skew-proof figure, docs/league.md:
   what queueing added on the way, whatever the boxes' clocks say);
   under ``--speed`` the load is that many times a real hall's, so these are
   an upper bound for a real hall on this machine; they cannot say what a
   hall's Wi-Fi adds;
3. hub memory at the start and end of each compressed hour, and its growth.

    PYTHONPATH=. python benchmarks/league.py                       # 3 x (idle + 1 h at 60x): ~4 min
    PYTHONPATH=. python benchmarks/league.py --speed 20 --repeats 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from tempfile import TemporaryDirectory

from controller.box.runtime import Box
from controller.box.simulate import Session
from controller.box.views import Publisher
from controller.league.commands import box_link, room_folder
from controller.league.tournament import load, match_settings, station_names
from games import registry
from tests.league.conftest import Mosquitto, free_port

ROOMS, PER_TEAM = 20, 8
HZ = os.sysconf("SC_CLK_TCK")


def tournament_text(port: int) -> str:
    rooms = "\n".join(f'[[rooms]]\nid = "r{k}"\npassword_file = "secrets/r{k}.password"\n' for k in range(ROOMS))
    teams = "\n".join(f'[[teams]]\nid = "t{k}"\n' for k in range(2 * ROOMS))
    matches = "\n".join(f'[[schedule.matches]]\nid = "m{k}"\nroom = "r{k}"\nteams = ["t{2 * k}", "t{2 * k + 1}"]\n'
                        for k in range(ROOMS))
    return f"""[tournament]\nid = "bench"\ngame = "quiz"\nplayers_per_team = {PER_TEAM}\n
[broker]\nhost = "127.0.0.1"\nport = {port}\n[hub]\npassword_file = "secrets/hub.password"\n
{rooms}\n{teams}\n[schedule]\nkind = "list"\n{matches}"""


def recorded_views(t, seconds_of_play: float = 3600) -> list[tuple[float, str]]:  # type: ignore[no-untyped-def]
    """(virtual seconds, board JSON) of every snapshot a 16-station quiz publishes."""
    match = t.matches[0]
    spec = registry.get("quiz")
    players, options = match_settings(t, match)
    settings = spec.settings(players, 7, **{**spec.demo_options, **options, "demo_questions": 10_000})
    box = Box(spec, settings, station_names=station_names(t, match))
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 7)
    views: list[tuple[float, str]] = []
    publisher = Publisher(box)
    publisher.listeners.append(lambda snap: views.append((session.now_us / 1e6, snap.board)))
    box.on_events.append(publisher.on_events)
    session.run_virtual(int(seconds_of_play * 1e6))
    return views


def proc_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def stats(port: int) -> dict:  # type: ignore[type-arg]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats.json", timeout=10) as res:
        return json.loads(res.read())  # type: ignore[no-any-return]


def replay(link, views: list[tuple[float, str]], speed: float, stop: threading.Event, start: float) -> None:  # type: ignore[no-untyped-def]
    """One box: its game's views at their moments, ``speed`` times faster, looping."""
    span = views[-1][0] or 1.0
    loop = 0
    while not stop.is_set():
        for t_s, board in views:
            due = start + (loop * span + t_s) / speed
            if stop.wait(max(0.0, due - time.monotonic())):
                return
            link.live(board)
        loop += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--speed", type=float, default=60.0, help="simulated seconds per wall second (default 60)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--idle", type=float, default=10.0, help="wall seconds of each idle baseline")
    args = ap.parse_args()
    hour_s = 3600 / args.speed
    with TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        port = free_port()
        (tmp / "bench.toml").write_text(tournament_text(port))
        t = load(tmp / "bench.toml")
        views = recorded_views(t)
        span = views[-1][0]
        print(f"a 16-station quiz publishes {len(views)} views in {span:.0f} s of play "
              f"({len(views) / span * 3600:.0f} an hour); 20 rooms: {20 * len(views) / span:.1f} views/s real, "
              f"{20 * len(views) / span * args.speed:.0f}/s at {args.speed:g}x")
        broker = Mosquitto(tmp / "broker", t, port)
        hub_port = free_port()
        hub = None
        links = []
        try:
            broker.start()
            hub = subprocess.Popen([sys.executable, "-m", "controller", "league", "serve", str(tmp / "bench.toml"),
                                    "--port", str(hub_port), "--bind", "127.0.0.1", "--ledger", str(tmp / "hub.jsonl")],
                                   stderr=subprocess.PIPE, text=True)
            assert hub.stderr is not None
            hub.stderr.readline()  # its "league hub: scoreboard ..." line: serving
            links = [box_link(t, room_folder(t, f"r{k}", tmp / "journals")).start() for k in range(ROOMS)]
            for link in links:
                assert link.conn.connected.wait(30)
            rows = []
            for repeat in range(args.repeats):
                c0 = proc_cpu_s(hub.pid)
                time.sleep(args.idle)  # the idle baseline: the hub with nothing coming in
                idle = (proc_cpu_s(hub.pid) - c0) / args.idle * 100
                before = stats(hub_port)["counts"]["live"]
                rss0 = proc_rss_mb(hub.pid)
                stop = threading.Event()
                start = time.monotonic()
                threads = [threading.Thread(target=replay, args=(link, views, args.speed, stop, start), daemon=True)
                           for link in links]
                c0 = proc_cpu_s(hub.pid)
                for th in threads:
                    th.start()
                samples = []
                while time.monotonic() - start < hour_s:
                    time.sleep(min(5.0, hour_s / 10))
                    samples.append(proc_rss_mb(hub.pid))
                stop.set()
                for th in threads:
                    th.join()
                wall = time.monotonic() - start
                loaded = (proc_cpu_s(hub.pid) - c0) / wall * 100
                s = stats(hub_port)
                rows.append({"idle": idle, "loaded": loaded, "p50": s["latency_ms"]["p50"], "p99": s["latency_ms"]["p99"],
                             "views": s["counts"]["live"] - before, "rss0": rss0, "rss1": samples[-1],
                             "rss_max": max(samples)})
                r = rows[-1]
                print(f"repeat {repeat + 1}: hub CPU idle {r['idle']:.1f} %, loaded {r['loaded']:.1f} % of a core; "
                      f"{r['views']} views reached it in {wall:.0f} s (one simulated hour); latency p50 {r['p50']} ms, "
                      f"p99 {r['p99']} ms; memory {r['rss0']:.1f} -> {r['rss1']:.1f} MB (max {r['rss_max']:.1f})")
        finally:
            for link in links:
                link.stop()
            if hub is not None:
                hub.terminate()
                hub.wait(30)
            broker.stop()

    def spread(key: str) -> str:
        values = [r[key] for r in rows]
        return f"median {statistics.median(values):.1f} (min {min(values):.1f}, max {max(values):.1f})"

    print(f"summary over {len(rows)} repeats at {args.speed:g}x, load average {os.getloadavg()[0]:.2f}:")
    for key, what in (("idle", "hub CPU idle, % of a core"), ("loaded", "hub CPU with 20 rooms, % of a core"),
                      ("p50", "latency p50, ms"), ("p99", "latency p99, ms"), ("rss1", "hub memory after an hour, MB")):
        print(f"  {what}: {spread(key)}")
    growth = [r["rss1"] - r["rss0"] for r in rows]
    print(f"  memory growth per simulated hour, MB: {', '.join(f'{g:+.1f}' for g in growth)}")


if __name__ == "__main__":
    main()
