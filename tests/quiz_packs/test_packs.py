"""Question packs: what a host sees when loading a good or a broken file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.base import BuzzerBoxError
from games.quiz.packs import PackError, check_pack, load_pack

HEADER = "question,answer,alternatives,category,points,image,choices\n"


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def assert_one_problem(path: Path, line: int | None, *fragments: str) -> str:
    """The checker reports exactly one problem, on ``line``, saying ``fragments``;
    load_pack raises the same line as a PackError, or (a bad row beside good
    ones) plays the good rows and names that line as left out."""
    problems = check_pack(path)
    assert len(problems) == 1, problems
    message = str(problems[0])
    assert "\n" not in message
    where = f"{path.name} line {line}" if line is not None else f"{path.name}:"
    assert message.startswith(where), message
    assert "; " in message, f"no fix given: {message}"
    for fragment in fragments:
        assert fragment in message, message
    try:
        pack = load_pack(path)
    except PackError as raised:
        assert str(raised) == message
    else:
        assert pack.left_out == (problems[0],) and len(pack) >= 1
    return message


# --- CSV -------------------------------------------------------------------


def test_csv_good_pack_reads_every_field(tmp_path: Path) -> None:
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "flag.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    text = (
        "# title: Friday night\n"
        "# language: en\n"
        "# a note for the host, not a question\n"
        + HEADER
        + "Whose flag is this?,Japan,Nippon|Nihon,Flags,3,img/flag.png,\n"
        + "\n"
        + '"Pick one, please",B,,,,,A|B|C\n'
        + '"A question\nover two lines",Yes\n'
    )
    pack = load_pack(write(tmp_path, "friday.csv", "\ufeff" + text))  # BOM from a spreadsheet
    assert pack.title == "Friday night" and pack.language == "en"
    assert len(pack) == 3
    flag, pick, two_lines = pack.questions
    assert flag.answer == "Japan" and flag.alternatives == ("Nippon", "Nihon")
    assert flag.category == "Flags" and flag.points == 3
    assert flag.image == tmp_path / "img" / "flag.png"
    assert flag.line == 5
    assert pick.text == "Pick one, please" and pick.choices == ("A", "B", "C")
    assert pick.points == 1 and pick.category == "" and pick.image is None
    assert two_lines.text == "A question over two lines" and two_lines.line == 8
    assert pack.categories() == ["Flags"]


def test_csv_without_metadata_takes_its_title_from_the_file_name(tmp_path: Path) -> None:
    pack = load_pack(write(tmp_path, "pub-night.csv", "question,answer\n2+2?,4\n"))
    assert pack.title == "pub-night" and pack.language == ""


@pytest.mark.parametrize(
    ("body", "line", "fragments"),
    [
        (HEADER + ",Paris\n", 2, ("'question' is empty", "fill it in")),
        (HEADER + "Capital of France?,\n", 2, ("'answer' is empty",)),
        (HEADER + "Q1?,A\nQ2?,B,,,lots\n", 3, ("points is 'lots'", "whole number from 1 to 100")),
        (HEADER + "Q?,A,,,0\n", 2, ("points is '0'",)),
        (HEADER + "Q?,Rome,,,,,Paris|Berlin\n", 2, ("'Rome' is not one of the choices", "add it")),
        (HEADER + "Q?,A,,,,,A\n", 2, ("1 choices", "give 2 to 6")),
        (HEADER + "Q?,A,,,,,A|B|C|D|E|F|G\n", 2, ("7 choices",)),
        (HEADER + "Q?,A,,,,,A|a\n", 2, ("appears twice in 'choices'",)),
        (HEADER + "Q?,A,B||C\n", 2, ("empty entry in 'alternatives'", "remove the extra '|'")),
        (HEADER + "Q?,A,,,,,,extra\n", 2, ("8 cells but the header names 7 columns", "put quotes")),
        (HEADER + "Capital of France?,Paris\ncapital of   FRANCE?,Paris\n", 3,
         ("the same question as line 2", "delete one")),
        (HEADER + "Q\x07?,A\n", 2, ("control character U+0007", "delete it")),
        (HEADER + ("Why" * 120) + "?,A\n", 2, ("361 characters long", "at most 300")),
        (HEADER + "Q?,A,,,,/etc/passwd.png\n", 2, ("inside the pack's folder",)),
        (HEADER + "Q?,A,,,,../up.png\n", 2, ("inside the pack's folder",)),
        (HEADER + "Q?,A,,,,pic.tiff\n", 2, ("not a picture the box shows", ".png")),
        (HEADER + "Q?,A,,,,missing.png\n", 2, ("'missing.png' is not in", "put the picture there")),
        ("question,answr\nQ?,A\n", 1, ("unknown column 'answr' (did you mean 'answer'?)", "question,answer")),
        ("question,answer,points,points\nQ?,A,1,1\n", 1, ("'points' appears twice", "keep one")),
        ("question,,answer\nQ?,,A\n", 1, ("empty column name", "delete the extra comma")),
        ("answer,category\nA,B\n", 1, ("no 'question' column",)),
        (HEADER + 'Q?,"unfinished\n', 2, ("a quote opened here is never closed", "written twice")),
        (HEADER + 'Q?,A "quoted" badly,"x"y\n', 2, ("text follows a cell's closing quote", "written twice")),
        # the line where the quote at fault opens, not where its row starts or where the reader gave up
        (HEADER + '"Two\nlines?","A\nQ2?,B\n', 3, ("a quote opened here is never closed", "written twice")),
        (HEADER + 'Q1?,A\n"Q2?,B\nQ3?,C\n"Q4?",D\n', 3, ("a quote opened here runs on to line 5", "written twice")),
        (HEADER + 'Q1?,A\n"Q2?,B\n' + "Q3?,C\n" * 30000 + '",D\n', 3, ("runs on to line 30004, past 131072 characters",)),
        (HEADER + "Q1?,A\n" + "x" * 131100 + ",B\n", 3, ("a cell longer than 131072 characters", "missing comma")),
        ("# title: Two\n# title: Titles\n" + HEADER + "Q?,A\n", 2, ("second '# title:' line",)),
        ("# language: English\n" + HEADER + "Q?,A\n", 1, ("language code such as en",)),
    ],
)
def test_csv_bad_line_is_named_with_its_fix(
    tmp_path: Path, body: str, line: int, fragments: tuple[str, ...]
) -> None:
    assert_one_problem(write(tmp_path, "pack.csv", body), line, *fragments)


def test_csv_in_no_encoding_the_box_can_tell_names_the_line_and_how_to_save(tmp_path: Path) -> None:
    body = HEADER.encode() + b"Q?,A\nCo je to?,\x81\x90 k\x9d\n"  # bytes neither cp1250 nor cp1252 has
    assert_one_problem(write(tmp_path, "pack.csv", body), 3, "not text in UTF-8, UTF-16, cp1250 or cp1252",
                       "CSV UTF-8")


def test_a_json_pack_that_is_not_text_is_told_how_to_save_a_json_file_not_a_csv(tmp_path: Path) -> None:
    """A binary .json upload was told to save "CSV UTF-8": the hint matches the file's kind."""
    message = assert_one_problem(write(tmp_path, "pack.json", b'{"questions": [\x81\x90\x9d'), 1,
                                 "not text in UTF-8, UTF-16, cp1250 or cp1252", "a .json pack is text")
    assert "CSV" not in message, message


@pytest.mark.parametrize(("key", "says"), [("difficulty", "no difficulty; it must be easy, medium or hard"),
                                           ("type", "no type; it must be multiple or boolean")])
def test_an_opentdb_question_without_difficulty_or_type_is_told_so_not_none(tmp_path: Path, key: str, says: str) -> None:
    """`pack check` said "difficulty is None" (Python's word) of a question the file gave no difficulty."""
    item = {k: v for k, v in OPENTDB["results"][0].items() if k != key}
    message = assert_one_problem(write(tmp_path, "opentdb.json", json.dumps({**OPENTDB, "results": [item]})), 1, says)
    assert "None" not in message, message


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        ("", ("no header line", "question,answer")),
        ("# only a comment\n\n", ("no header line",)),
        (HEADER, ("has no questions", "add at least one")),
    ],
)
def test_csv_without_questions_says_what_to_add(
    tmp_path: Path, body: str, fragments: tuple[str, ...]
) -> None:
    assert_one_problem(write(tmp_path, "pack.csv", body), None, *fragments)


def test_check_lists_every_problem_and_load_plays_the_good_rows_without_the_bad(
    tmp_path: Path,
) -> None:
    """Issue 33: one bad row no longer refuses the whole pack."""
    path = write(tmp_path, "pack.csv", HEADER + ",A\nGood?,Yes\nQ?,A,,,x\nQ3?,A,,,,,,extra\n")
    problems = check_pack(path)
    assert [str(p).split(":")[0] for p in problems] == [
        "pack.csv line 2", "pack.csv line 4", "pack.csv line 5"
    ]
    pack = load_pack(path)
    assert [q.text for q in pack.questions] == ["Good?"] and list(pack.left_out) == problems


def test_a_pack_without_one_good_row_names_the_first_problem_and_counts_the_rest(tmp_path: Path) -> None:
    path = write(tmp_path, "pack.csv", HEADER + ",A\nQ?,A,,,x\nQ3?,A,,,,,,extra\n")
    problems = check_pack(path)
    with pytest.raises(PackError) as raised:
        load_pack(path)
    assert str(raised.value) == str(problems[0]) + " (and 2 more problems; check the pack to list them)"


def test_a_file_problem_still_refuses_the_pack_with_its_good_rows(tmp_path: Path) -> None:
    """A broken header or metadata is the file's, not a row's: nothing is guessed."""
    path = write(tmp_path, "pack.csv", "# language: English\n" + HEADER + "Good?,Yes\n")
    with pytest.raises(PackError, match="language code"):
        load_pack(path)


# --- CSV from Czech and Polish spreadsheets -----------------------------------


def test_a_semicolon_csv_as_czech_excel_saves_it_is_read_with_decimal_commas(tmp_path: Path) -> None:
    """Issue 33: Czech and Polish Excel write ';' between cells (their decimal
    mark is the comma); the header line tells which the file uses."""
    text = ("# title: Páteční kvíz; díl 2\n# language: cs\n"
            "question;answer;alternatives;category;points;choices\n"
            "Hlavní město Polska?;Varšava;Warszawa;Zeměpis;2,0;\n"
            '"Kolik je 1,5 + 1,5?";3;tři;Matematika;1;\n'
            "Která řeka je nejdelší?;Nil;;Zeměpis;3;Nil|Amazonka|Dunaj\n")
    pack = load_pack(write(tmp_path, "kviz.csv", "\ufeff" + text))
    assert pack.title == "Páteční kvíz; díl 2" and pack.language == "cs" and pack.left_out == ()
    assert [(q.text, q.answer, q.points) for q in pack.questions] == [
        ("Hlavní město Polska?", "Varšava", 2), ("Kolik je 1,5 + 1,5?", "3", 1), ("Která řeka je nejdelší?", "Nil", 3)]
    assert pack.questions[0].alternatives == ("Warszawa",) and pack.questions[2].choices == ("Nil", "Amazonka", "Dunaj")


@pytest.mark.parametrize(
    ("body", "line", "fragments"),
    [
        ("question;answer;points\nQ?;A;1,5\nGood?;Yes;1\n", 2, ("points is '1,5'", "whole number")),
        ("question;answer\nQ?;A;extra\nGood?;Yes\n", 2, ("3 cells but the header names 2", "contains a semicolon")),
        ("question;;answer\nQ?;;A\n", 1, ("empty column name", "delete the extra semicolon")),
        ("question;answr\nQ?;A\n", 1, ("unknown column 'answr'", "question;answer")),
    ],
)
def test_a_semicolon_csv_s_problems_speak_of_semicolons(
    tmp_path: Path, body: str, line: int, fragments: tuple[str, ...]
) -> None:
    assert_one_problem(write(tmp_path, "pack.csv", body), line, *fragments)


def test_a_comma_csv_with_semicolons_in_its_cells_stays_a_comma_csv(tmp_path: Path) -> None:
    pack = load_pack(write(tmp_path, "pack.csv", "question,answer\nWhich; or which?,This\n"))
    assert [q.text for q in pack.questions] == ["Which; or which?"]


def test_check_lists_the_problems_before_an_open_quote_too(tmp_path: Path) -> None:
    """A quote left open on line 5 swallows the rest of the file, but the
    lines before it are still checked: one pass fixes all three. The quote,
    which makes the file unusable, comes first (the line a refusal names)."""
    path = tmp_path / "open.csv"
    path.write_text("question,answer,points,choices\n"
                    "Capital of France?,Paris,lots,\n"
                    "Largest planet?,Pluto,1,Jupiter|Saturn\n"
                    "Fine question?,Yes,1,\n"
                    '"Open quote?,No,1,\n'
                    "After it?,Also,1,\n", encoding="utf-8")
    problems = check_pack(path)
    assert [str(p).split(":")[0] for p in problems] == ["open.csv line 5", "open.csv line 2", "open.csv line 3"], problems
    assert "quote" in str(problems[0]) and "points" in str(problems[1]) and "choices" in str(problems[2])


def test_pack_error_is_a_buzzerbox_error() -> None:
    assert issubclass(PackError, BuzzerBoxError)


@pytest.mark.parametrize(
    ("name", "make", "fragments"),
    [
        ("nowhere.csv", None, ("no such file", "check the path")),
        ("folder.csv", "dir", ("is a folder",)),
        ("pack.txt", "file", ("unknown pack format '.txt'", ".csv, .json, .xlsx or .ods")),
        ("huge.csv", "huge", ("larger than 2 MB", "split it")),
    ],
)
def test_unreadable_files_say_what_to_do(
    tmp_path: Path, name: str, make: str | None, fragments: tuple[str, ...]
) -> None:
    path = tmp_path / name
    if make == "dir":
        path.mkdir()
    elif make == "file":
        path.write_text(HEADER + "Q?,A\n", encoding="utf-8")
    elif make == "huge":
        path.write_text(HEADER + ("Q?,A\n" * 500_000), encoding="utf-8")
    assert_one_problem(path, None, *fragments)


# --- our JSON --------------------------------------------------------------


def test_json_good_pack(tmp_path: Path) -> None:
    (tmp_path / "owl.jpg").write_bytes(b"\xff\xd8")
    document = {
        "title": "Birds",
        "language": "cs",
        "questions": [
            {"question": "Který pták loví v noci?", "answer": "Sova", "alternatives": ["puštík"],
             "category": "Příroda", "points": 2, "image": "owl.jpg"},
            {"question": "Kolik křídel má pták?", "answer": "2", "choices": ["1", "2", "4"]},
        ],
    }
    pack = load_pack(write(tmp_path, "birds.json", json.dumps(document, ensure_ascii=False, indent=2)))
    assert pack.title == "Birds" and pack.language == "cs" and len(pack) == 2
    owl, wings = pack.questions
    assert owl.answer == "Sova" and owl.alternatives == ("puštík",) and owl.points == 2
    assert owl.image == tmp_path / "owl.jpg" and owl.line == 5
    assert wings.choices == ("1", "2", "4") and wings.points == 1 and wings.line == 15


def pretty(questions: list[object], **top: object) -> str:
    return json.dumps({"title": "T", **top, "questions": questions}, indent=2)


@pytest.mark.parametrize(
    ("text", "line", "fragments"),
    [
        ('{"questions": [\n  {"question": "Q?", "answer": "A",}\n]}', 2, ("the comma at column 35", "remove it")),
        (pretty([{"question": "Q?", "answer": "A"}, {"question": "R?", "answer": "B", "hint": "x"}]), 8,
         ("(question 2)", "unknown key 'hint'", "use only")),
        (pretty([{"question": "Q?", "answer": "A", "points": True}]), 4, ("points is 'True'",)),
        (pretty([{"question": "Q?", "answer": "A", "points": 2.5}]), 4, ("points is '2.5'",)),
        (pretty([{"question": "Q?", "answer": "A", "choices": "A|B"}]), 4,
         ("'choices' is not a list",)),
        (pretty([{"question": "Q?", "answer": 42}]), 4, ("'answer' must be text, not int", "quotes")),
        (pretty(["Q?"]), 4, ("not an object",)),
        ('{"questions": [{"question": "Q\\u0000?", "answer": "A"}]}', 1, ("control character",)),
        ('{"questions": [{"question": "Q\\ud800?", "answer": "A"}]}', 1, ("control character",)),
    ],
)
def test_json_bad_question_names_line_and_fix(
    tmp_path: Path, text: str, line: int, fragments: tuple[str, ...]
) -> None:
    assert_one_problem(write(tmp_path, "pack.json", text), line, *fragments)


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("[1, 2]", ("line 1", "one JSON object")),
        ('{"title": "T"}', ('no "questions" list',)),
        ('{"questions": [{"question": "Q?", "answer": "A"}], "qestions": []}',
         ("unknown top-level key 'qestions'",)),
        ("[" * 100_000 + "]" * 100_000, ("too large to read",)),
        ('{"questions": [], "n": 1' + "0" * 5000 + "}", ("too large to read",)),
    ],
)
def test_json_bad_document_says_what_to_fix(
    tmp_path: Path, text: str, fragments: tuple[str, ...]
) -> None:
    problems = [str(p) for p in check_pack(write(tmp_path, "pack.json", text))]
    assert problems and all("\n" not in p and "; " in p for p in problems)
    assert all(f in problems[0] for f in fragments), problems


# --- Open Trivia DB --------------------------------------------------------

OPENTDB = {
    "response_code": 0,
    "results": [
        {"type": "multiple", "difficulty": "medium", "category": "Entertainment: Books",
         "question": "Who wrote &quot;Pride &amp; Prejudice&quot;?",
         "correct_answer": "Jane Austen",
         "incorrect_answers": ["Charlotte Bront&euml;", "Mary Shelley", "George Eliot"]},
        {"type": "boolean", "difficulty": "easy", "category": "Science &amp; Nature",
         "question": "The sun is a star.", "correct_answer": "True", "incorrect_answers": ["False"]},
        {"type": "boolean", "difficulty": "hard", "category": "History",
         "question": "Rome&#039;s first emperor was Nero.", "correct_answer": "False",
         "incorrect_answers": ["True"]},
    ],
}


def test_opentdb_file_is_imported_with_entities_decoded(tmp_path: Path) -> None:
    pack = load_pack(write(tmp_path, "opentdb_books.json", json.dumps(OPENTDB)))
    assert pack.title == "opentdb books" and pack.language == "en" and len(pack) == 3
    books, sun, rome = pack.questions
    assert books.text == 'Who wrote "Pride & Prejudice"?'
    assert books.answer == "Jane Austen" and books.points == 2
    assert books.category == "Entertainment: Books"
    assert set(books.choices) == {"Jane Austen", "Charlotte Brontë", "Mary Shelley", "George Eliot"}
    assert sun.choices == ("True", "False") and sun.points == 1
    assert sun.category == "Science & Nature"
    assert rome.text == "Rome's first emperor was Nero."
    assert rome.answer == "False" and rome.choices == ("True", "False") and rome.points == 3


def test_opentdb_choices_do_not_give_the_answer_away_by_position(tmp_path: Path) -> None:
    """The API lists the correct answer first; the pack must not keep it there."""
    results = [
        {"type": "multiple", "difficulty": "easy", "question": f"Q{i}?",
         "correct_answer": answer, "incorrect_answers": [w for w in "ABCD" if w != answer]}
        for i, answer in enumerate("ABCD")
    ]
    pack = load_pack(write(tmp_path, "o.json", json.dumps({"response_code": 0, "results": results})))
    assert {q.choices.index(q.answer) for q in pack.questions} == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("change", "line", "fragments"),
    [
        ({"difficulty": "extreme"}, 16, ("(result 2)", "easy, medium or hard")),
        ({"type": "open"}, 16, ("multiple or boolean",)),
        ({"incorrect_answers": "False"}, 16, ("list of texts",)),
        ({"correct_answer": None}, 16, ("no text 'correct_answer'", "download the file again")),
    ],
)
def test_opentdb_bad_result_names_line_and_fix(
    tmp_path: Path, change: dict[str, object], line: int, fragments: tuple[str, ...]
) -> None:
    document = json.loads(json.dumps(OPENTDB))
    document["results"][1].update(change)
    assert_one_problem(write(tmp_path, "o.json", json.dumps(document, indent=1)), line, *fragments)


def test_opentdb_error_response_says_why_and_what_to_do(tmp_path: Path) -> None:
    path = write(tmp_path, "o.json", '{"response_code": 1, "results": []}')
    assert_one_problem(path, None, "response_code is 1", "ask for fewer questions")
