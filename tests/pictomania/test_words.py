"""Pictomania word lists: the shipped lists are playable, and a broken list is
refused with one line that names the card."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from games.base import BuzzerBoxError
from games.pictomania.words import (
    WORDS_DIR,
    WordCard,
    WordListError,
    available_languages,
    load_words,
    load_words_file,
)
from tests.quiz_packs.fuzzing import mutate

LANGUAGES = ["en", "cs", "pl"]


def test_english_czech_and_polish_lists_ship() -> None:
    assert set(LANGUAGES) <= set(available_languages())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_deck_has_at_least_15_cards_of_7_distinct_words(lang: str) -> None:
    decks = load_words(lang)
    assert sorted(decks) == [1, 2, 3, 4]
    for deck, cards in decks.items():
        assert len(cards) >= 15, f"{lang} deck {deck}: {len(cards)} cards"
        for card in cards:
            assert card.deck == deck and card.theme
            assert len(card.words) == 7
            assert len({w.casefold() for w in card.words}) == 7, card


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_word_repeats_within_a_deck(lang: str) -> None:
    for deck, cards in load_words(lang).items():
        counts = Counter(w.casefold() for card in cards for w in card.words)
        repeated = [w for w, n in counts.items() if n > 1]
        assert not repeated, f"{lang} deck {deck}: {repeated}"


def test_numbers_on_a_card_run_1_to_7_in_the_written_order() -> None:
    raw = json.loads((WORDS_DIR / "en.json").read_text(encoding="utf-8"))
    card = load_words("en")[1][0]
    assert [card.word(n) for n in range(1, 8)] == raw["decks"]["1"][0]["words"]


def test_czech_list_is_czech_not_the_english_list() -> None:
    cs = [w for cards in load_words("cs").values() for c in cards for w in c.words]
    en = {w for cards in load_words("en").values() for c in cards for w in c.words}
    assert set("áčďéěíňóřšťúůýž") <= set("".join(cs)), "Czech words use the whole alphabet"
    same = [w for w in cs if w in en]
    assert len(same) < len(cs) // 20, same  # a few loan words (golf, alibi) at most


def test_polish_list_is_polish_not_the_english_or_czech_list() -> None:
    pl = [w for cards in load_words("pl").values() for c in cards for w in c.words]
    assert set("ąćęłńóśźż") <= set("".join(pl)), "Polish words use the whole alphabet"
    en = {w for cards in load_words("en").values() for c in cards for w in c.words}
    assert len([w for w in pl if w in en]) < len(pl) // 20  # a few loan words (golf, alibi) at most
    cs = {w for cards in load_words("cs").values() for c in cards for w in c.words}
    assert len([w for w in pl if w in cs]) < len(pl) // 10  # sister languages share some (koza, oko, nos)


# --- loader errors ---------------------------------------------------------


def good_document() -> dict[str, Any]:
    return copy.deepcopy(json.loads((WORDS_DIR / "en.json").read_text(encoding="utf-8")))


def write_list(tmp_path: Path, document: Any, name: str = "en.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def error_for(path: Path) -> str:
    with pytest.raises(WordListError) as raised:
        load_words_file(path)
    message = str(raised.value)
    assert "\n" not in message and "; " in message, message
    assert message.startswith(path.name), message
    return message


def test_a_card_with_six_words_is_named(tmp_path: Path) -> None:
    document = good_document()
    document["decks"]["2"][2]["words"].pop()
    theme = document["decks"]["2"][2]["theme"]
    message = error_for(write_list(tmp_path, document))
    assert f"deck 2 card 3 ({theme}): has 6 words" in message and "exactly 7" in message


def test_a_word_twice_on_one_card_is_named(tmp_path: Path) -> None:
    document = good_document()
    words = document["decks"]["1"][4]["words"]
    words[6] = words[0].upper()
    message = error_for(write_list(tmp_path, document))
    assert "deck 1 card 5" in message and "on the card twice" in message


def test_a_word_on_two_cards_of_one_deck_names_both(tmp_path: Path) -> None:
    document = good_document()
    cards = document["decks"]["3"]
    cards[9]["words"][3] = cards[1]["words"][0]
    message = error_for(write_list(tmp_path, document))
    assert f"deck 3 card 10 ({cards[9]['theme']})" in message
    assert f"already on card 2 ({cards[1]['theme']})" in message


def test_the_same_word_in_two_decks_is_allowed(tmp_path: Path) -> None:
    document = good_document()
    document["decks"]["4"][0]["words"][0] = document["decks"]["1"][0]["words"][0]
    assert len(load_words_file(write_list(tmp_path, document))[4]) == 16


@pytest.mark.parametrize(
    ("damage", "fragment"),
    [
        (lambda d: d["decks"].pop("4"), "deck 4: needs a list of at least 3 cards"),
        (lambda d: d["decks"].__setitem__("5", []), "unknown deck '5'"),
        (lambda d: d.pop("decks"), 'no "decks" object'),
        (lambda d: d.__setitem__("language", "cs"), "\"language\" is 'cs'"),
        (lambda d: d["decks"]["1"][0].__setitem__("hint", "x"), "deck 1 card 1: a card is"),
        (lambda d: d["decks"]["1"][1]["words"].__setitem__(0, ""), "deck 1 card 2 (Fruit): word ''"),
        (lambda d: d["decks"]["1"][1]["words"].__setitem__(0, 7), "word '7'"),
        (lambda d: d["decks"]["1"][1].__setitem__("theme", None), "deck 1 card 2: the theme"),
    ],
)
def test_broken_list_is_one_line_naming_the_place(
    tmp_path: Path, damage: Any, fragment: str
) -> None:
    document = good_document()
    damage(document)
    assert fragment in error_for(write_list(tmp_path, document))


def test_bad_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "en.json"
    path.write_text('{\n  "language": "en",\n  "decks": {,}\n}', encoding="utf-8")
    assert error_for(path).startswith("en.json line 3: a key is expected at column 13; ")


@pytest.mark.parametrize("lang", ["de", "../en", "EN", ""])
def test_unknown_language_lists_the_available_ones(lang: str) -> None:
    with pytest.raises(WordListError) as raised:
        load_words(lang)
    assert "cs, en" in str(raised.value) and "\n" not in str(raised.value)


def test_word_list_error_is_a_buzzerbox_error() -> None:
    assert issubclass(WordListError, BuzzerBoxError)


def test_damaged_list_file_gives_words_or_one_line_error(tmp_path: Path) -> None:
    """Seeded, time-bounded fuzz of the file a translator edits."""
    rng = random.Random(19)
    seed = (WORDS_DIR / "cs.json").read_bytes()
    path = tmp_path / "cs.json"
    errors = 0
    for _ in range(150):  # a fixed number of seeded cases
        data = mutate(seed, rng)
        path.write_bytes(data)
        try:
            decks = load_words_file(path)
        except WordListError as e:
            assert "\n" not in str(e) and str(e).startswith("cs.json"), str(e)
            errors += 1
        else:
            assert all(isinstance(c, WordCard) and len(c.words) == 7
                       for cards in decks.values() for c in cards)
    assert errors > 10


def test_the_words_follow_the_box_language_unless_chosen_and_the_settings_name_the_list() -> None:
    """A Czech box deals Czech words (the option's default is "as the box");
    the settings name the list actually dealt from, so a replay on an English
    box deals the same cards."""
    from games.i18n import set_language
    from games.registry import get

    spec = get("pictomania")
    try:
        set_language("cs")
        assert spec.settings(3, 1).options["words"] == "cs"
        assert spec.settings(3, 1, words="en").options["words"] == "en"
        set_language("pl")  # a Polish box deals the Polish cards
        assert spec.settings(3, 1).options["words"] == "pl"
        set_language("cs")
        czech = spec.new_engine(spec.settings(3, 1))
    finally:
        set_language("en")
    replayed = spec.new_engine(spec.settings(3, 1, **{"words": "cs"}))
    assert czech.options.words == "cs"
    assert czech.public_view() == replayed.public_view()


def test_a_journal_that_names_the_list_language_deals_the_same_cards() -> None:
    """The option was ``language`` before it was ``words`` (the start menu took it for its own
    Language row): a journal of then replays the list it names, and ``--option language=cs`` still
    chooses it."""
    from games.base import GameSettings
    from games.registry import get

    spec = get("pictomania")
    now = spec.settings(3, 1, words="cs")
    then = GameSettings(3, 1, {**{k: v for k, v in now.options.items() if k != "words"}, "language": "cs"})
    replayed = spec.new_engine(then)
    assert replayed.options.words == "cs"
    assert replayed.public_view() == spec.new_engine(now).public_view()
    assert spec.settings(3, 1, language="pl").options["words"] == "pl"
    assert "language" not in spec.settings(3, 1, language="pl").options


def test_a_list_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    """Windows' Notepad saves UTF-8 with a byte-order mark in front: the list is still the list."""
    (tmp_path / "marked").mkdir()
    plain = write_list(tmp_path, good_document())
    marked = write_list(tmp_path / "marked", good_document())
    marked.write_bytes(b"\xef\xbb\xbf" + marked.read_bytes())
    assert load_words_file(marked) == load_words_file(plain)
