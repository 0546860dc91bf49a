"""Hall screen benchmark: what 200 hall screens cost the hub at 32 teams and
496 matches (a 32-team round robin), the issue's figure being under 10 % of a core.

Setup: the hub (``HubService``: the same pages and push as ``league serve``)
runs in its own process, fed in-process as its broker thread would feed it:
eight rooms each publishing a live view (a real quiz board) ``--views``
times a second and a result every ``--result-every`` seconds, on top of 400
results already counted (the table is at its full size). The benchmark
process opens ``--viewers`` server-sent-event streams to ``/events`` and
reads them. The hub's CPU time (utime+stime from /proc) is measured over
``--seconds`` with no viewer and then with all of them, interleaved
``--repeats`` times: the difference is what the viewers cost.

    PYTHONPATH=. python benchmarks/league_hall.py                    # 3 x (60 s idle + 60 s viewed)
    PYTHONPATH=. python benchmarks/league_hall.py --seconds 20 --repeats 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

HZ = os.sysconf("SC_CLK_TCK")
ROOMS, TEAMS = 8, 32


def tournament_text(port: int) -> str:
    rooms = "\n".join(f'[[rooms]]\nid = "r{k}"\nname = "Room {k}"\n' for k in range(ROOMS))
    teams = "\n".join(f'[[teams]]\nid = "t{k}"\nname = "Team number {k}"\n' for k in range(TEAMS))
    return (f'[tournament]\nid = "hall"\ntitle = "Hall benchmark"\ngame = "quiz"\n[broker]\nhost = "127.0.0.1"\n'
            f'port = {port}\n{rooms}\n{teams}\n[schedule]\nkind = "round-robin"\n')


def serve(folder: Path, views_per_s: float, result_every_s: float) -> None:
    """The hub's process: serve, count 400 results, then feed the rooms' views and results."""
    from controller.league import messages
    from controller.league.messages import Result
    from controller.league.pages import HubService
    from controller.league.tournament import load

    t = load(folder / "hall.toml")
    service = HubService(t, folder / "hub.jsonl", port=0, bind="127.0.0.1").start()
    hub = service.hub
    rng = random.Random(7)
    matches = list(t.matches)

    def result(k: int) -> tuple[str, bytes]:
        m = matches[k]
        r = Result(m.room, m.id, 1, "quiz", m.teams, (rng.randrange(400), rng.randrange(400)), True,
                   f"{k:016x}", 40)
        return messages.result_topic(t.id, m.room, m.id), messages.encode(r.to_json())

    for k in range(400):
        hub.take(*result(k))
    board = {"phase_label": "Answering", "question": 7, "fastest": 1, "margins_us": {"1": 0, "3": 8400},
             "players": [{"name": f"Player {s}", "score": 10 * s} for s in range(4)]}
    print(service.port, flush=True)
    next_result, k, start = time.monotonic() + result_every_s, 400, time.monotonic()
    n = 0
    while True:
        n += 1
        due = start + n / views_per_s
        time.sleep(max(0.0, due - time.monotonic()))
        for room in range(ROOMS):
            board["question"] = n
            live = messages.live_payload(f"r{room}", matches[k % len(matches)].id, int(time.time() * 1000), json.dumps(board))
            hub.take(messages.room_topic(t.id, f"r{room}", "live"), live)
        if time.monotonic() > next_result and k < len(matches):
            hub.take(*result(k))
            k, next_result = k + 1, next_result + result_every_s


def proc_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


async def viewers(port: int, count: int, seconds: float, hub_pid: int) -> tuple[float, int]:
    """``count`` streams open, read for ``seconds``: (hub CPU % of a core, bytes read)."""
    got = 0

    async def one() -> None:
        nonlocal got
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /events HTTP/1.1\r\nHost: hall\r\n\r\n")
        try:
            while chunk := await reader.read(65536):
                got += len(chunk)
        finally:
            writer.close()

    tasks = [asyncio.create_task(one()) for _ in range(count)]
    await asyncio.sleep(2)  # every stream open and served its first frame
    got, c0, t0 = 0, proc_cpu_s(hub_pid), time.monotonic()
    await asyncio.sleep(seconds)
    cpu = (proc_cpu_s(hub_pid) - c0) / (time.monotonic() - t0) * 100
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return cpu, got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--viewers", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--views", type=float, default=2.0, help="live views per room per second (default 2)")
    ap.add_argument("--result-every", type=float, default=10.0, help="seconds between results (default 10)")
    ap.add_argument("--serve", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(Path(args.serve), args.views, args.result_every)
        return
    with TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "hall.toml").write_text(tournament_text(1))  # port 1: no broker; the hub is fed in-process
        from controller.league.tournament import load

        print(f"{len(load(tmp / 'hall.toml').matches)} matches, {TEAMS} teams, {ROOMS} rooms; {args.views:g} views/s "
              f"per room, a result every {args.result_every:g} s")
        hub = subprocess.Popen([sys.executable, __file__, "--serve", str(tmp), "--views", str(args.views),
                                "--result-every", str(args.result_every)], stdout=subprocess.PIPE, text=True,
                               stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
        try:
            assert hub.stdout is not None
            port = int(hub.stdout.readline())
            rows = []
            for repeat in range(args.repeats):
                idle, _ = asyncio.run(viewers(port, 0, args.seconds, hub.pid))
                viewed, got = asyncio.run(viewers(port, args.viewers, args.seconds, hub.pid))
                rows.append((idle, viewed, got))
                print(f"repeat {repeat + 1}: hub CPU with no viewer {idle:.1f} %, with {args.viewers} viewers "
                      f"{viewed:.1f} % of a core: the viewers cost {viewed - idle:.1f} %; "
                      f"{got / args.seconds / args.viewers / 1024:.1f} KiB/s per viewer")
        finally:
            hub.terminate()
            hub.wait(30)
    costs = [v - i for i, v, _g in rows]
    print(f"summary over {len(rows)} repeats, load average {os.getloadavg()[0]:.2f}: {args.viewers} viewers cost "
          f"median {statistics.median(costs):.1f} % of a core (min {min(costs):.1f}, max {max(costs):.1f}); "
          f"the hub fed and serving them: median {statistics.median(v for _i, v, _g in rows):.1f} %")


if __name__ == "__main__":
    main()
