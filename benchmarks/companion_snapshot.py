"""What the loop thread pays per change for the companion pages: building
and encoding one snapshot (``Publisher.build``), for Hands with 7 seats of
10 cards and for a 7-player quiz. ``--against FILE`` times another
``controller/box/views.py`` (e.g. main's, from ``git show main:controller/box/views.py``)
interleaved with this one, in the same run, so the two are compared on the
same load.

It proves how the build's cost moved; it cannot say what a frame costs
(benchmarks/companion.py measures that with phones connected).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from types import ModuleType
from typing import Any

from controller.box.runtime import Box
from games import registry


def load(path: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def per_build_ms(module: Any, box: Box, builds: int) -> float:
    publisher = module.Publisher(box)
    started = time.perf_counter()
    for _ in range(builds):
        publisher.build()
    return (time.perf_counter() - started) / builds * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", help="another views.py to time beside this one")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--builds", type=int, default=300)
    args = parser.parse_args()
    versions = {"this": load("controller/box/views.py", "views_this")}
    if args.against:
        versions["against"] = load(args.against, "views_against")
    with registry.register("hands", "tests.web.hands"):
        for game, options in (("hands", {"hand": 10}), ("quiz", {})):
            spec = registry.get(game)
            box = Box(spec, spec.settings(7, seed=1, **options))
            times: dict[str, list[float]] = {label: [] for label in versions}
            for _ in range(args.repeats):  # interleaved: both see the same load
                for label, module in versions.items():
                    times[label].append(per_build_ms(module, box, args.builds))
            for label, xs in times.items():
                print(f"{game}, 7 seats, {label:7s}: median {statistics.median(xs):.3f} ms per build "
                      f"[{min(xs):.3f}-{max(xs):.3f}] over {args.repeats} repeats of {args.builds}")


if __name__ == "__main__":
    main()
