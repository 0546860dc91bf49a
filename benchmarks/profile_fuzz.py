"""Profile fuzz: how many mutated profiles crash, or pass and then break ``play``.

Applies the seeded value mutations of ``tests/wiring/test_profile_fuzz.py``
(wrong types, inf/NaN, 2^200, NUL and 100,000-character names, bad colours,
unknown and missing keys) to the shipped profiles and counts, for the parser
in this tree and for the parser and profiles of an older commit (the
baseline, same mutations):

* tracebacks: ``parse`` raised something other than ``ProfileError``;
* accepted but unusable: ``parse`` accepted a profile that the screen cannot
  draw (a name over 24 characters or with control characters, a colour the
  theme cannot read) or a ``glitch_us`` over 100 ms (no press registers).

It proves the schema turns every mutation of these kinds into a one-line
error or a usable profile; it cannot prove anything about mutations of other
kinds (the byte-level fuzz in the test covers some), nor about ``play`` itself.

    PYTHONPATH=. python benchmarks/profile_fuzz.py                 # baseline 6b78981
    PYTHONPATH=. python benchmarks/profile_fuzz.py --base REV --per-profile 500
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from controller.box import profile as current
from games.toolkit.theme import hex_color
from tests.wiring.test_profile_fuzz import _mutate

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _git_show(rev: str, path: str) -> str:
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def _old_parser(rev: str) -> ModuleType:
    tmp = Path(tempfile.mkdtemp()) / "old_profile.py"
    tmp.write_text(_git_show(rev, "controller/box/profile.py"), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_profile", tmp)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_profile"] = module
    spec.loader.exec_module(module)
    return module


def _usable(prof: Any) -> bool:
    try:
        for st in prof.stations:
            if len(st.name) > 24 or not st.name.isprintable():
                return False
            hex_color(st.color)
        return bool(prof.debounce.glitch_us <= 100_000)
    except (ValueError, IndexError, TypeError):
        return False


def run(module: ModuleType, bases: dict[str, dict[str, Any]], per_profile: int) -> tuple[int, int, int, float]:
    tried = crashed = unusable = 0
    start = time.perf_counter()
    for stem, base in bases.items():
        rng = random.Random(f"values-{stem}")
        for _ in range(per_profile):
            data = _mutate(base, rng)
            tried += 1
            try:
                prof = module.parse(data, Path(f"{stem}.toml"))
            except module.ProfileError:
                continue
            except Exception:  # noqa: BLE001 - counting exactly these is the point
                crashed += 1
                continue
            unusable += not _usable(prof)
    return tried, crashed, unusable, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="6b78981", help="baseline commit (default: before the schema)")
    parser.add_argument("--per-profile", type=int, default=200, help="mutations per shipped profile")
    args = parser.parse_args()
    stems = current.shipped_names()
    now = {s: tomllib.loads((current.wiring_dir() / f"{s}.toml").read_text(encoding="utf-8")) for s in stems}
    then = {s: tomllib.loads(_git_show(args.base, f"wiring/{s}.toml")) for s in stems}
    for label, module, bases in ((f"baseline {args.base}", _old_parser(args.base), then), ("this tree", current, now)):
        tried, crashed, unusable, secs = run(module, bases, args.per_profile)
        print(f"{label:>18}: {tried} mutated profiles, {crashed} tracebacks, "
              f"{unusable} accepted but unusable, {secs:.2f} s")


if __name__ == "__main__":
    main()
