"""Input readers: JSONL chats and flat records, CSV with a mapping, SQL; bad rows and files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson
import pytest

from auditor.errors import UsageError
from services.batch.records import content_id
from services.batch.sources import CsvSource, JsonlSource, SqlSource, open_source, parse_mapping

OK = {"id": "r1", "text": "Metformin is used to treat type 2 diabetes.", "domain": "medical"}

BAD_LINES = [
    (b'{"id": "t", "text": "The GDPR has applied since 25 May', "is not valid JSON"),
    (orjson.dumps({"id": "n", "domain": "medical"}), "has no text"),
    (orjson.dumps({"id": "d", "text": "x", "domain": "cardiology"}), "unknown domain 'cardiology'"),
    (b'{"id": "e", "text": "Caf\xe9", "domain": "medical"}', "is not valid utf-8"),
    (orjson.dumps({"id": "f", "txt": "x"}), "unknown field 'txt'"),
    (orjson.dumps({"id": "a", "text": "x", "as_of": "15/01/2025"}), "is not a date"),
    (orjson.dumps({"id": "c", "text": "x", "citations": "347 U.S. 483"}), "list of strings"),
    (orjson.dumps({"id": "z", "text": "a\u0000b"}), "NUL"),
    (orjson.dumps([1, 2]), "is not a JSON object"),
    (
        orjson.dumps({"id": "m", "messages": [{"role": "user", "content": "hi"}]}),
        "no assistant turn",
    ),
    (orjson.dumps({"id": "r", "messages": [{"role": "robot", "content": "hi"}]}), "no valid role"),
    (orjson.dumps({"id": "x" * 300, "text": "x"}), "longer than 256"),
]


@pytest.mark.parametrize(("line", "reason"), BAD_LINES, ids=[r for _, r in BAD_LINES])
def test_bad_jsonl_line_is_a_record_with_its_reason(write_jsonl, line: bytes, reason: str) -> None:
    recs = list(JsonlSource(write_jsonl([OK, line, OK | {"id": "r2"}])))
    assert [r.error is None for r in recs] == [True, False, True]
    assert reason in recs[1].error
    assert recs[1].location.startswith("in.jsonl:2")


def test_chat_conversation_gives_one_record_per_assistant_turn(write_jsonl) -> None:
    conv = {
        "id": "c1",
        "domain": "medical",
        "as_of": "2025-01-15",
        "model": "bot-3",
        "metadata": {"channel": "web"},
        "messages": [
            {"role": "system", "content": "Be helpful."},
            {"role": "user", "content": "Q1"},
            {"role": "assistant", "content": "Metformin is used to treat type 2 diabetes."},
            {"role": "user", "content": "Q2"},
            {"role": "assistant", "content": None, "tool_calls": []},
            {"role": "tool", "content": "{}"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Part one."},
                    {"type": "text", "text": "Part two."},
                ],
            },
        ],
    }
    recs = list(JsonlSource(write_jsonl([conv])))
    assert [r.id for r in recs] == ["c1/2", "c1/6"]
    assert recs[1].text == "Part one.\nPart two."
    assert recs[0].metadata == {
        "channel": "web",
        "conversation_id": "c1",
        "turn": 2,
        "context": "Q1",
        "model": "bot-3",
    }
    assert recs[1].metadata["context"] == "Q2"
    assert {r.domain for r in recs} == {"medical"} and recs[0].as_of == "2025-01-15"


def test_ids_without_an_input_id_are_stable_content_hashes(write_jsonl) -> None:
    rows = [
        {"text": "Roe v. Wade was decided in 1973.", "domain": "legal"},
        {"text": "Roe v. Wade was decided in 1973.", "domain": "medical"},
    ]
    first = [r.id for r in JsonlSource(write_jsonl(rows))]
    again = [r.id for r in JsonlSource(write_jsonl(rows, "copy.jsonl"))]
    assert first == again and first[0] != first[1]
    assert all(i.startswith("sha256:") for i in first)
    assert content_id("a") == content_id("a") != content_id("b")


@pytest.mark.parametrize("content", [b"", b"\n \n"], ids=["zero-bytes", "blank-lines"])
def test_empty_input_file_is_a_usage_error(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "empty.jsonl").write_bytes(content)
    with pytest.raises(UsageError, match="is empty"):
        open_source(tmp_path / "empty.jsonl")


def test_missing_input_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        open_source(tmp_path / "nope.jsonl")


def test_csv_with_mapping(examples_dir: Path) -> None:
    mapping = parse_mapping(
        [
            "id=ticket",
            "domain=dept",
            "as_of=said_on",
            "text=answer",
            "citations=sources",
            "context=question",
        ]
    )
    recs = list(open_source(examples_dir / "answers.csv", mapping=mapping))
    assert [r.id for r in recs] == ["T-100", "T-101", "T-102", "T-103", "T-104"]
    assert recs[2].citations == ["347 U.S. 483", "Plessy v. Ferguson"]
    assert recs[0].citations is None
    assert recs[0].metadata == {"channel": "web", "context": "Max ibuprofen?"}
    assert recs[3].as_of == "2024-01-15" and recs[3].domain == "finance"


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        (["text=answr"], "has no column 'answr'"),
        (["txt=answer"], "unknown field 'txt'"),
        (["text"], "is not FIELD=COLUMN"),
        ([], "has no 'text' column"),
    ],
    ids=["unknown-column", "unknown-field", "malformed", "no-text-column"],
)
def test_csv_mapping_errors(examples_dir: Path, pairs: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        open_source(examples_dir / "answers.csv", mapping=parse_mapping(pairs))


def test_csv_wrong_encoding_row_and_encoding_option(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes(
        "id,text\n1,Metformin treats diabetes.\n2,Café au lait.\n3,ok\n".encode("latin-1")
    )
    recs = list(CsvSource(path))
    assert [r.error is None for r in recs] == [True, False, True]
    assert "not valid utf-8" in recs[1].error and recs[1].location == "latin.csv:3"
    assert list(CsvSource(path, encoding="latin-1"))[1].text == "Café au lait."


def test_csv_row_with_wrong_cell_count(tmp_path: Path) -> None:
    path = tmp_path / "short.csv"
    path.write_text("id,text,domain\n1,ok,medical\n2,missing domain\n", encoding="utf-8")
    recs = list(CsvSource(path))
    assert "has 2 cells" in recs[1].error


def test_sql_source(tmp_path: Path) -> None:
    db = tmp_path / "chats.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE answers (ticket INTEGER, body TEXT, dept TEXT, said DATE)")
        conn.executemany(
            "INSERT INTO answers VALUES (?, ?, ?, ?)",
            [
                (1, "Metformin is used to treat type 2 diabetes.", "medical", "2025-01-15"),
                (2, "Roe v. Wade was decided in 1971.", "legal", None),
            ],
        )
    src = SqlSource(
        f"sqlite:///{db}",
        "SELECT * FROM answers ORDER BY ticket;",
        mapping={"id": "ticket", "text": "body", "domain": "dept", "as_of": "said"},
    )
    recs = list(src)
    assert src.count() == 2
    assert [(r.id, r.domain, r.as_of) for r in recs] == [
        ("1", "medical", "2025-01-15"),
        ("2", "legal", None),
    ]
    assert recs[0].location == "sql:row 1"
    with pytest.raises(UsageError, match="no column 'nope'"):
        SqlSource(f"sqlite:///{db}", "SELECT * FROM answers", mapping={"text": "nope"})
    with pytest.raises(UsageError, match="no such table"):
        SqlSource(f"sqlite:///{db}", "SELECT * FROM missing")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"sql_url": "sqlite://", "query": None}, "needs --query"),
        ({"query": "SELECT 1"}, "needs --from-sql"),
        ({}, "name an INPUT file"),
    ],
    ids=["sql-without-query", "query-without-sql", "nothing"],
)
def test_source_option_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        open_source(None, **kwargs)
