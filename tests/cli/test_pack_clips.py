"""``buzzerbox pack check`` decodes every clip a pack names, as the screen's
mixer would: a clip cut short, damaged or not a clip at all is one line
naming its row and the fix, never a traceback or a hang (seeded fuzz)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.cli import main
from games.quiz import PACKS_DIR

TUNE = (PACKS_DIR / "music" / "twinkle.wav").read_bytes()


def check(capsys: pytest.CaptureFixture[str], folder: Path, rows: list[str]) -> tuple[int, list[str], str]:
    pack = folder / "pack.csv"
    pack.write_text("question,answer,audio\n" + "".join(f"Q{k}?,A{k},{cell}\n" for k, cell in enumerate(rows)),
                    encoding="utf-8")
    status = main(["pack", "check", str(pack)])
    out = capsys.readouterr()
    return status, out.out.splitlines(), out.err


def test_a_clip_the_mixer_cannot_decode_or_that_starts_past_its_end_is_one_line(tmp_path: Path, capsys) -> None:
    (tmp_path / "music").mkdir()
    (tmp_path / "music" / "tune.wav").write_bytes(TUNE)
    (tmp_path / "music" / "renamed.ogg").write_bytes(b"%PDF-1.4 not a clip at all\n" * 200)
    status, out, err = check(capsys, tmp_path, ["music/tune.wav@1+2", "music/renamed.ogg", "music/tune.wav@30"])
    assert status == 1
    assert out == [
        "pack.csv line 3: audio 'music/renamed.ogg' cannot be decoded: it is cut short, damaged or not really a clip; "
        "export it again as .ogg, .mp3 or .wav (e.g. Audacity's File > Export)",
        "pack.csv line 4: audio 'music/tune.wav' starts at 30.0 s but lasts 5.1 s; give a start inside the clip "
        "(song.ogg@12.5+20)"]
    assert "2 problems" in err and "1 good question can be played" in err


@pytest.mark.parametrize("seed", range(6))
def test_fuzzed_clips_are_checked_in_lines_never_a_traceback(tmp_path: Path, capsys, seed: int) -> None:
    rng = random.Random(seed)
    (tmp_path / "music").mkdir()
    rows, garbage = [], set()
    for k in range(8):
        data = bytearray(TUNE)
        how = rng.choice(("cut", "garbage", "flip"))
        if how == "cut":
            data = data[: rng.randrange(0, len(data))]
        elif how == "garbage":
            data = bytearray(rng.randbytes(rng.randrange(0, 4000)))
            garbage.add(k)
        else:
            for _ in range(rng.randrange(1, 64)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        name = f"music/c{k}{rng.choice(('.wav', '.ogg', '.mp3'))}"
        (tmp_path / name).write_bytes(bytes(data))
        rows.append(name)
    status, out, err = check(capsys, tmp_path, rows)
    assert "Traceback" not in err
    named = {int(line.split("audio 'music/c")[1][0]) for line in out if line.startswith("pack.csv line ")}
    assert garbage <= named  # random bytes are never taken for a clip
    assert all(line.startswith("pack.csv line ") and "audio 'music/c" in line for line in out) if named else (
        status == 0 and out[0].startswith("OK pack.csv"))
    assert status == (1 if named else 0) and len(out) == (len(named) or 1)
