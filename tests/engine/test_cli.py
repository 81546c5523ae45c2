"""`manage.py settle` (ledger/engine/cli.py): settles without starting Django, prints JSON a person can
read (one hand a line), and the Django command gives the same answer."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from ledger.engine import cli
from tests.conftest import EXAMPLES, load_json

ROOT = Path(__file__).resolve().parents[2]
EVENING = EXAMPLES / "american-evening-defaults.sheet.json"


def _manage(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "manage.py", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        check=False,
        env={"PATH": "/usr/bin:/bin"},
    )


def test_settle_imports_no_django() -> None:
    run = _manage("settle", str(EVENING))
    assert run.returncode == 0
    imported = {line.split("|")[-1].strip() for line in run.stderr.decode().splitlines() if "|" in line}
    assert "ledger.engine" in imported
    assert not {name for name in imported if name.split(".")[0] in ("django", "celery", "rest_framework")}


def test_the_answer_is_one_hand_a_line() -> None:
    run = _manage("settle", str(EVENING))
    expected = load_json(EVENING.with_name("american-evening-defaults.settlement.json"))
    assert isinstance(expected, dict)
    assert json.loads(run.stdout) == expected
    lines = run.stdout.decode().splitlines()
    assert len(lines) == len(expected["hands"]) + len(expected) + 1  # a line a key, a hand, and "]"
    assert [json.loads(line.rstrip(","))["number"] for line in lines[3:15]] == list(range(1, 13))


def test_unreadable_sheets() -> None:
    missing = _manage("settle", str(EXAMPLES / "no-such.sheet.json"))
    assert missing.returncode == 1 and b"cannot read" in missing.stderr and not missing.stdout
    latin1 = _manage("settle", "-", stdin='{"variant": "fran\xe7ais"}'.encode("latin-1"))
    assert latin1.returncode == 2 and json.loads(latin1.stdout)["error"]["fields"] == {
        "sheet": ["the score sheet is not valid JSON"]
    }
    deep = _manage("settle", "-", stdin=b"[" * 100_000 + b"]" * 100_000)  # a traceback, before
    assert (
        deep.returncode == 2
        and b"Traceback" not in deep.stderr
        and json.loads(deep.stdout)["error"]["fields"] == {"sheet": ["the score sheet is nested too deeply to be read"]}
    )
    usage = _manage("settle")
    assert usage.returncode == 1 and b"usage" in usage.stderr


def test_dumps_keeps_everything_else_on_one_line() -> None:
    data = {"a": [1, 2], "b": [{"x": "é"}, {"y": None}], "c": {"d": [{"e": 1}]}, "e": []}
    text = cli.dumps(data)
    assert json.loads(text) == data
    assert text == '{"a": [1, 2],\n "b": [\n  {"x": "é"},\n  {"y": null}\n ],\n "c": {"d": [{"e": 1}]},\n "e": []}\n'


def test_the_django_command_gives_the_same_answer(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    call_command("settle", str(EVENING))
    assert capfdbinary.readouterr().out == _manage("settle", str(EVENING)).stdout
    with pytest.raises(SystemExit) as refused:
        call_command("settle", str(EXAMPLES / "american-rejected-partner.sheet.json"))
    assert refused.value.code == 2
    assert "error" in json.loads(capfdbinary.readouterr().out)


def test_run_writes_to_the_streams_it_is_given() -> None:
    out, err = io.BytesIO(), io.BytesIO()
    assert cli.run("-", io.BytesIO(EVENING.read_bytes()), out, err) == 0
    assert json.loads(out.getvalue())["format"] == "clubscore-settlement/1" and not err.getvalue()


def test_a_refusal_names_a_house_rule_by_its_label() -> None:
    """`settle` says the rule's label, quoted, as the pages and the API do; the code is the field's key."""
    six = {"bid": "six", "bidder": 0, "trump": "clubs", "tricks": [6, 3, 2, 2]}
    sheet: dict[str, Any] = {"format": "clubscore-sheet/1", "variant": "fontainebleau", "players": ["A", "B", "C", "D"]}
    sheet |= {"first_dealer": 0, "hands": [{**six, "honours": 3}]}
    out = io.BytesIO()
    assert cli.run("-", io.BytesIO(json.dumps(sheet).encode()), out, io.BytesIO()) == 2
    error = json.loads(out.getvalue())["error"]
    assert error["fields"] == {
        "honours": ["the honours counts only with the house rule “Count honours”: leave it empty"]
    }
