"""The journal settles disputes: damage is found and named, never replayed silently."""

from __future__ import annotations

import json

import pytest

from controller.box import journal
from controller.box.journal_format import FORMAT_VERSION
from games import registry

from .conftest import FIXTURES, lines_of, run

V1_FIXTURES = sorted(FIXTURES.glob("v1-*.jsonl"))


def test_there_are_version_1_fixtures_of_every_kind():
    names = {p.name for p in V1_FIXTURES}
    for game in ("quiz", "schicki-micki", "viva-topo"):
        assert f"v1-simulate-{game}.jsonl" in names
    assert any(n.startswith("v1-play-") for n in names)


@pytest.mark.parametrize("path", V1_FIXTURES, ids=lambda p: p.stem)
def test_version_1_journals_replay_to_what_they_replayed_to_before(path, capsys):
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    assert "format 1 (no checksums)" in err  # said, since format 1 cannot prove a line true
    game = json.loads(path.read_text().splitlines()[0])["game"]
    if registry.get(game).rules_version == 1:  # the texts for people name the players (issue 14)
        from controller.apps.common import people_json

        names = json.loads(path.read_text().splitlines()[0]).get("station_names")
        assert json.loads(out) == people_json(json.loads(path.with_suffix(".summary.json").read_text()), names)
    else:  # the rules changed since: the same presses may end otherwise, and replay says so
        # (today's rules, or the oldest the game keeps when it keeps older ones: the quiz keeps rules 2)
        assert "played under" in err and "rules 1" in err and ("today's rules" in err or "the oldest it keeps" in err)


def test_a_version_1_play_journal_resumes_in_its_own_format(tmp_path, capsys):
    path = tmp_path / "cut.jsonl"
    path.write_bytes((FIXTURES / "v1-play-schicki-micki-cut.jsonl").read_bytes())
    before = journal.load(path)
    _j, writer = journal.resume(path, threaded=False)
    writer.write({"type": "tick", "t_us": before.last_t_us + 5})
    writer.write({"type": "end", "t_us": before.last_t_us + 6})
    writer.close()
    after = journal.load(path)
    assert after.damage is None and after.version == 1 and after.ended
    assert len(after.records) == len(before.records) + 2
    assert "seq" not in path.read_text().splitlines()[-1]


def test_new_journals_are_format_2_with_a_sequence_and_checksum_on_every_line(quiz_journal):
    data, _summary = quiz_journal
    records = [json.loads(line) for line in lines_of(data)]
    assert records[0]["version"] == FORMAT_VERSION == 2
    assert [r["seq"] for r in records] == list(range(len(records)))
    assert all(len(r["sum"]) == 16 for r in records)
    assert len({r["sum"] for r in records}) == len(records)


def damaged(quiz_journal, tmp_path, change):
    data, _ = quiz_journal
    lines = lines_of(data)
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"".join(change(lines)))
    return path


@pytest.mark.parametrize(
    ("name", "change", "line", "why"),
    [
        ("altered", lambda ls: ls[:1] + [ls[1].replace(b'"arm"', b'"aRm"')] + ls[2:], 2, "checksum does not match"),
        ("duplicated", lambda ls: ls[:10] + [ls[9]] + ls[10:], 11, "again"),
        ("removed", lambda ls: ls[:6] + ls[7:], 7, "removed"),
        ("inserted", lambda ls: ls[:5] + [ls[20]] + ls[5:], 6, "removed"),
        ("swapped", lambda ls: ls[:4] + [ls[5], ls[4]] + ls[6:], 5, "removed"),
        ("blank", lambda ls: ls[:3] + [b"\n"] + ls[3:], 4, "empty line"),
    ],
)
def test_replay_names_the_first_bad_line_and_shows_no_outcome(quiz_journal, tmp_path, capsys, name, change, line, why):
    path = damaged(quiz_journal, tmp_path, change)
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 1
    assert out == ""  # no outcome from a damaged journal unless asked for
    assert f"DAMAGED from line {line}:" in err and why in err
    assert "Traceback" not in err


def test_until_damage_shows_the_game_up_to_the_damage_and_says_so(quiz_journal, tmp_path, capsys):
    path = damaged(quiz_journal, tmp_path, lambda ls: ls[:30] + [ls[29]] + ls[30:])
    code, out, err = run(capsys, "replay", str(path), "--json", "--until-damage")
    assert code == 0
    assert "outcome up to the damage only" in err and "DAMAGED from line 31" in err
    shown = json.loads(out)
    assert shown["damaged"] == {"line": 31, "problem": shown["damaged"]["problem"], "records_replayed": 29}
    assert shown["finished"] is False


def test_a_whole_journal_replays_without_notes(quiz_journal, tmp_path, capsys):
    data, summary = quiz_journal
    path = tmp_path / "ok.jsonl"
    path.write_bytes(data)
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0 and json.loads(out) == summary and err == ""
    assert run(capsys, "journal", "check", str(path))[0] == 0


HEADER = '{"type":"session","version":1,"game":"quiz","settings":{"players":2,"seed":1,"options":{}}}'
ARM = '{"type":"host","kind":"arm","t_us":5}'


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (HEADER + '\n{"type":"tick","t_us":"abc"}\n', ["line 2", "'t_us'", '"abc"']),
        (HEADER + '\n{"type":"tick","t_us":NaN}\n', ["line 2", "NaN"]),
        (HEADER + '\n{"type":"tick","t_us":1e400}\n', ["line 2", "1e400"]),
        (HEADER + '\n{"type":"tick","t_us":' + "9" * 5000 + "}\n", ["line 2", "5000-digit"]),
        (HEADER + "\n" + "[" * 100_000 + "]" * 100_000 + "\n", ["line 2", "nested"]),
        (HEADER + '\n{"type":"host","kind":"arm","t_us":5,"args":[1,2]}\n', ["line 2", "'args'"]),
        (HEADER + '\n{"type":"press","station":0,"input":"bell"}\n', ["line 2", "press record has no 't_us'"]),
        (HEADER + '\n{"type":"tick","t_us":true}\n', ["line 2", "'t_us'"]),
        (HEADER + '\n{"type":"action","kind":"x","t_us":1}\n', ["line 2", "'player'"]),
        (HEADER + "\n" + ARM + "\n" + '{"type":"press","station":"zero","input":"bell","t_us":9}\n', ["line 3", "'station'"]),
        (HEADER + '\n{"type":"session","version":1}\n', ["line 2", "second session header"]),
        (HEADER + "\n[1,2]\n", ["line 2", "JSON object"]),
        (HEADER + "\n\xff\xfe garbage\n", ["line 2", "not a journal record"]),
        (HEADER.replace('"settings"', '"setings"') + "\n", ["line 1", "'settings'", "setings"]),
        (HEADER.replace('"game"', '"gmae"') + "\n", ["line 1", "'game'", "gmae"]),
        (HEADER.replace('"players":2', '"players":0') + "\n", ["line 1", "settings.players", "0"]),
        (HEADER.replace('"players":2', '"plyers":2') + "\n", ["line 1", "settings.players", "plyers"]),
        (HEADER.replace('{"players":2,"seed":1,"options":{}}', "null") + "\n", ["line 1", "'settings'", "null"]),
        (HEADER.replace('"version":1', '"version":"1"') + "\n", ["line 1", "'version'", '"1"', "whole number"]),
        (HEADER.replace('"version":1', '"version":7') + "\n", ["line 1", "version", "7"]),
        (HEADER.replace('"game":"quiz"', '"game":"chess"') + "\n", ["chess"]),
        (HEADER.replace('"players":2', '"players":40') + "\n", ["40"]),
        (HEADER.replace('"options":{}', '"options":{"questions":"many"}') + "\n" + ARM + "\n", ["line 1", "'questions'", "'many'"]),
        (HEADER.replace('"game"', '"stations":["a"],"game"') + "\n", ["line 1", "'stations'"]),
        (HEADER.replace('"game"', '"debounce":{"bounce_us":-1},"game"') + "\n", ["line 1", "debounce"]),
        ("", ["empty"]),
        ('{"type":"session","vers', ["never started"]),
    ],
)
def test_impossible_values_give_one_line_naming_the_record_and_field(tmp_path, capsys, text, names):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    for argv in (["replay", str(path)], ["resume", str(path)], ["journal", "check", str(path)]):
        code, out, err = run(capsys, *argv)
        assert code == 1, (argv, out)
        assert "Traceback" not in err
        message = err.strip().splitlines()[0]
        for name in names:
            assert name in err, (name, err)
        assert len(message.replace(str(path), "FILE")) < 400  # short, however long the folder's name
    assert path.read_bytes() == text.encode("utf-8", "surrogateescape")  # never changed


def test_a_folder_or_a_missing_file_is_one_line(tmp_path, capsys):
    for target in (tmp_path, tmp_path / "none.jsonl"):
        code, _out, err = run(capsys, "replay", str(target))
        assert code == 1 and "Traceback" not in err and str(target) in err


# -- resume: nothing complete is ever deleted ----------------------------------------------------
def test_a_torn_last_line_is_cut_kept_aside_and_the_cut_is_all_that_changes(quiz_journal, tmp_path, capsys):
    data, summary = quiz_journal
    lines = lines_of(data)
    torn = lines[40][:25]
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(lines[:40]) + torn)
    code, out, err = run(capsys, "resume", str(path), "--json")
    assert code == 0, err
    text = path.read_bytes()
    assert text.startswith(b"".join(lines[:40]))  # every complete record is still there
    assert (tmp_path / "t.jsonl.torn").read_bytes() == torn + b"\n"  # and the torn bytes were kept
    assert journal.load(path).damage is None
    assert json.loads(out)["finished"] is True
    code, out2, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0 and json.loads(out2) == json.loads(out)


def test_a_damaged_last_line_with_its_newline_is_not_torn_and_the_file_is_left_alone(quiz_journal, tmp_path, capsys):
    data, _ = quiz_journal
    lines = lines_of(data)
    path = tmp_path / "d.jsonl"
    path.write_bytes(b"".join(lines[:40]) + lines[40][:25] + b"\n")
    before = path.read_bytes()
    code, _out, err = run(capsys, "resume", str(path))
    assert code == 1 and "DAMAGED from line 41" in err and "salvage" in err
    assert path.read_bytes() == before
    assert not (tmp_path / "d.jsonl.torn").exists()


def test_a_whole_record_without_its_newline_is_kept(quiz_journal, tmp_path, capsys):
    data, _ = quiz_journal
    lines = lines_of(data)
    path = tmp_path / "n.jsonl"
    path.write_bytes(b"".join(lines[:40]).rstrip(b"\n"))
    j = journal.load(path)
    assert len(j.records) == 39 and j.missing_newline and not j.torn_tail
    code, out, err = run(capsys, "resume", str(path), "--json")
    assert code == 0, err
    assert path.read_bytes().startswith(b"".join(lines[:40]))
    assert run(capsys, "replay", str(path), "--json")[1] == out


def test_salvage_copies_the_good_records_to_a_new_file_that_resumes(quiz_journal, tmp_path, capsys):
    path = damaged(quiz_journal, tmp_path, lambda ls: ls[:20] + [ls[20].replace(b"\"type\"", b"\"type\" ")] + ls[21:])
    before = path.read_bytes()
    code, out, _ = run(capsys, "journal", "salvage", str(path))
    assert code == 0 and "20 good records" not in out and "19 good records" in out
    assert path.read_bytes() == before
    saved = tmp_path / "j.salvaged.jsonl"
    assert saved.read_bytes() == b"".join(lines_of(before)[:20])
    assert run(capsys, "resume", str(saved), "--json")[0] == 0
    assert journal.load(saved).damage is None


def test_salvage_will_not_overwrite(quiz_journal, tmp_path, capsys):
    path = damaged(quiz_journal, tmp_path, lambda ls: ls)
    (tmp_path / "x.jsonl").write_text("mine")
    code, _out, err = run(capsys, "journal", "salvage", str(path), "--out", str(tmp_path / "x.jsonl"))
    assert code == 1 and "exists" in err and (tmp_path / "x.jsonl").read_text() == "mine"


def test_find_interrupted_lists_games_without_an_end_newest_first(quiz_journal, tmp_path):
    data, _ = quiz_journal
    lines = lines_of(data)
    (tmp_path / "ended.jsonl").write_bytes(data)
    (tmp_path / "cut.jsonl").write_bytes(b"".join(lines[:12]))
    (tmp_path / "notes.txt").write_text("not a journal")
    (tmp_path / "garbage.jsonl").write_text("hello\n")
    found = journal.find_interrupted(tmp_path)
    assert [f.path.name for f in found] == ["cut.jsonl"]
    assert found[0].game == "quiz" and found[0].players == 3 and found[0].records == 11


def test_a_record_type_from_a_newer_box_is_kept_and_named_not_dropped_silently(tmp_path, capsys):
    path = tmp_path / "new.jsonl"
    writer = journal.JournalWriter.create(path, {"game": "quiz", "settings": {"players": 2}}, fsync=False)
    writer.write({"type": "late", "t_us": 5, "station": 1})
    writer.write(journal.EndRecord(9))
    writer.close()
    found = journal.load(path)
    assert found.damage is None and found.unknown_types() == ["late"] and found.ended
    code, _out, err = run(capsys, "replay", str(path))
    assert code == 0 and "late are kept but not replayed" in err


def test_writers_on_two_threads_still_make_one_chain(tmp_path):
    import threading

    path = tmp_path / "two.jsonl"
    writer = journal.JournalWriter.create(path, {"game": "quiz", "settings": {"players": 2}})
    threads = [threading.Thread(target=lambda k=k: [writer.write({"type": "tick", "t_us": k * 1000 + i})
                                                    for i in range(300)]) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    writer.close()
    found = journal.load(path)
    assert found.damage is None and len(found.records) == 600


def test_simulate_says_what_durability_its_journal_has(tmp_path, capsys):
    from controller.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert "never fsynced" in " ".join(sub.choices["simulate"].format_help().split())
    code, out, _ = run(capsys, "simulate", "reaction", "--players", "2", "--journal", str(tmp_path / "s.jsonl"))
    assert code == 0 and "never fsynced" in out
