"""A broken Pictomania word list is refused with one line in the host's
language (en, cs, pl): the file, the place (a line and column, or a deck and
card), the problem and the fix, every word through the catalogue; a JSON
syntax fault in our words (games/files.py ``json_fault``, shared with the
question packs and scenarios), never the json module's English.

A host adds a list as ``games/pictomania/words/<code>.json`` and plays it with
``buzzerbox play pictomania --option words=<code>`` (WORDS.md): these tests
go that way, with the words folder pointed at a temporary one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from games.i18n import _, set_language
from games.pictomania import words
from games.pictomania.words import WORDS_DIR, WordListError, load_words_file
from tests.cli.test_bad_input import one_line_ending
from tests.quiz_packs.fuzzing import mutate

LANGUAGES = ("en", "cs", "pl")
COMMA = ("a comma is missing at column {column}; put a comma between two items of a list or an object, or close "
         "the list or object if it ends there")
EXTRA = ("more text follows the end of the file at column {column}; the file is one JSON object: remove what "
         "follows it, or move it inside")
UNKNOWN_DECK = "unknown deck {key!r}; the decks are named 1, 2, 3 and 4"
SHORT_CARD = "has {n} words; a card holds exactly {words}, so add or remove words"


def german() -> dict[str, Any]:
    """A good list (the English cards) saved as a new language, ``de``."""
    document = json.loads((WORDS_DIR / "en.json").read_text(encoding="utf-8"))
    document["language"] = "de"
    return document


def comma_missing() -> str:
    text = json.dumps(german(), ensure_ascii=False, indent=2)
    lines = text.splitlines()
    assert lines[1] == '  "language": "de",'
    lines[1] = lines[1].rstrip(",")  # line 3 starts the next key: column 3
    return "\n".join(lines)


def wrong_deck() -> str:
    document = german()
    document["decks"]["5"] = document["decks"].pop("4")
    return json.dumps(document, ensure_ascii=False, indent=2)


def short_card() -> str:
    document = german()
    document["decks"]["2"][2]["words"].pop()
    return json.dumps(document, ensure_ascii=False, indent=2)


def two_objects() -> str:
    return json.dumps(german(), ensure_ascii=False) + "\n{}\n"


THEME = german()["decks"]["2"][2]["theme"]

#: (the file's text, the line as the box says it: its place, and the sentence with its arguments)
CASES: dict[str, tuple[Callable[[], str], Callable[[], str]]] = {
    "comma-missing": (comma_missing, lambda: f"de.json {_('line {line}').format(line=3)}: "
                                             f"{_(COMMA).format(column=3)}"),
    "wrong-deck": (wrong_deck, lambda: f"de.json: {_(UNKNOWN_DECK).format(key='5')}"),
    "short-card": (short_card, lambda: f"de.json {_('deck {deck}').format(deck=2)} {_('card {card}').format(card=3)} "
                                       f"({THEME}): {_(SHORT_CARD).format(n=6, words=7)}"),
    "two-objects": (two_objects, lambda: f"de.json {_('line {line}').format(line=2)}: {_(EXTRA).format(column=1)}"),
}


def said(language: str, expected: Callable[[], str]) -> str:
    set_language(language)
    try:
        return expected()
    finally:
        set_language("en")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_play_refuses_a_broken_word_list_in_one_line_of_the_hosts_language(
        language: str, case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # a start that got past the list journals here
    folder = tmp_path / "words"
    folder.mkdir()
    text, expected = CASES[case]
    (folder / "de.json").write_text(text(), encoding="utf-8")
    monkeypatch.setattr(words, "WORDS_DIR", folder)
    status, err = one_line_ending(lambda: main(["--lang", language, "play", "pictomania", "--web", "0", "--headless",
                                                "--seconds", "1", "--option", "words=de"]), capsys)
    set_language("en")
    assert status in (1, 2) and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    line = said(language, expected)
    assert err.strip() == f"buzzerbox play: {line}", err
    if language != "en":  # said in the host's language, not the English line
        assert said("en", expected) != line


@pytest.mark.parametrize("language", LANGUAGES)
def test_damaged_list_is_one_line_of_ours_never_the_json_modules_english(language: str, tmp_path: Path) -> None:
    """Seeded fuzz (a fixed number of cases): every damaged list gives cards
    or one WordListError line in the reader's language (anything else escapes
    and fails the test); a JSON fault is said in our words, never with what the
    json module says."""
    rng = random.Random(23)
    seed = (WORDS_DIR / "pl.json").read_bytes()
    path = tmp_path / "pl.json"
    json_faults = 0
    set_language(language)
    try:
        for _case in range(200):
            data = mutate(seed, rng)
            path.write_bytes(data)
            try:
                load_words_file(path)
            except WordListError as e:
                message = str(e)
                assert "\n" not in message and message.startswith("pl.json"), message
                try:
                    json.loads(data.decode("utf-8"))
                except json.JSONDecodeError as fault:
                    json_faults += 1
                    assert fault.msg not in message and "JSON (" not in message, message
                except (UnicodeDecodeError, ValueError, RecursionError):
                    pass
    finally:
        set_language("en")
    assert json_faults > 20
