"""What one view costs to put on the channel and read back: the typed,
versioned JSON of ``controller.protocol`` against the pickled dict the channel
carried before (its restricted unpickler included). A view is encoded on the
deciding process's outbox thread after the lamp is lit, and decoded by the
screen before it draws: both are on the path from a press to its frame.

    .venv/bin/python benchmarks/channel_codec.py [--game quiz] [--players 4] [--repeat 2000]

The view is a real one: the game played by its bots for a while, with the
events of a step and (``companion``) the phones' pages' snapshot a screen
serving them gets. Last line: ``RESULT game=... view_bytes=... json_encode_us=...``.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import pickle
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller import channel  # noqa: E402
from controller import protocol as p  # noqa: E402
from controller.box.runtime import Box  # noqa: E402
from controller.box.simulate import Session  # noqa: E402
from controller.box.views import Publisher, snapshot_message, view_of  # noqa: E402
from games import registry  # noqa: E402

#: the classes the old channel's unpickler let through (controller/channel.py before the protocol)
OLD_ALLOWED = frozenset({("games.base", "GameEvent"), ("games.base", "Action"), ("controller.box.press", "Edge"),
                         ("controller.box.press", "Press"), ("controller.box.press", "InputNotice"),
                         ("controller.box.press", "Watermark"), ("games.arbitration", "Stamp")})


class OldUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in OLD_ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} refused")
        return super().find_class(module, name)


def old_encode(message: dict[str, Any]) -> bytes:
    return pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)


def old_decode(body: bytes) -> Any:
    return OldUnpickler(io.BytesIO(body)).load()


def a_view(game: str, players: int, companion: bool) -> p.View:
    """A view of ``game`` some way in, with the events of the step that had the most."""
    spec = registry.get(game)
    settings = spec.settings(players, 3, **spec.demo_options)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 3)
    events: list[Any] = []
    for _ in range(400):
        nxt = session.next_time_us()
        if nxt is None or box.engine.finished:
            break
        stepped = session.step(nxt)
        events = stepped if len(stepped) >= len(events) else events
    with box.lock:
        view = view_of(box, session.now_us, version=123, decided=(session.now_us - 900, session.now_us - 400))
        pages = snapshot_message(Publisher(box).publish()) if companion else None
    return dataclasses.replace(view, events=tuple(events), companion=pages)


def per_call_us(call: Callable[[], Any], repeat: int) -> float:
    """The median of 5 runs of ``repeat`` calls, µs per call."""
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(repeat):
            call()
        runs.append((time.perf_counter() - t0) / repeat * 1e6)
    return statistics.median(runs)


def measure(view: p.View, repeat: int) -> dict[str, float]:
    as_dict = {"type": "view", **{f.name: getattr(view, f.name) for f in dataclasses.fields(view)}}
    as_dict["names"], as_dict["events"] = list(view.names), list(view.events)
    new_frame, old_body = channel.encode(view), old_encode(as_dict)
    assert channel.decode(new_frame[4:]) == dataclasses.replace(view, public=view.public)  # it crosses whole
    return {"json_bytes": len(new_frame) - 4, "pickle_bytes": len(old_body),
            "json_encode_us": per_call_us(lambda: channel.encode(view), repeat),
            "json_decode_us": per_call_us(lambda: channel.decode(new_frame[4:]), repeat),
            "pickle_encode_us": per_call_us(lambda: old_encode(as_dict), repeat),
            "pickle_decode_us": per_call_us(lambda: old_decode(old_body), repeat)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="quiz")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args(argv)
    for label, companion in (("screen", False), ("phones' server", True)):
        got = measure(a_view(args.game, args.players, companion), args.repeat)
        print(f"{label:15} view {got['json_bytes']:6.0f} B JSON, {got['pickle_bytes']:6.0f} B pickle; "
              f"encode {got['json_encode_us']:6.1f} µs (pickle {got['pickle_encode_us']:5.1f}), "
              f"decode {got['json_decode_us']:6.1f} µs (pickle {got['pickle_decode_us']:5.1f})")
    plain = measure(a_view(args.game, args.players, False), args.repeat)
    print(f"RESULT game={args.game} players={args.players} view_bytes={plain['json_bytes']:.0f} "
          f"json_encode_us={plain['json_encode_us']:.1f} json_decode_us={plain['json_decode_us']:.1f} "
          f"pickle_encode_us={plain['pickle_encode_us']:.1f} pickle_decode_us={plain['pickle_decode_us']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
