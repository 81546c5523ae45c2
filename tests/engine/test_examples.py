"""Every example of the spec settles to its exact expected JSON, or is refused as expected."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ledger.engine import EngineError, settle
from tests.conftest import EXAMPLES, example_names, load_json

ROOT = Path(__file__).resolve().parents[2]


def _sheet(name: str) -> dict:
    sheet = load_json(EXAMPLES / f"{name}.sheet.json")
    assert isinstance(sheet, dict)
    return sheet


@pytest.mark.parametrize("name", example_names())
def test_example_settles_exactly(name: str) -> None:
    expected = load_json(EXAMPLES / f"{name}.settlement.json")
    assert settle(_sheet(name)) == expected


@pytest.mark.parametrize("name", example_names(kind="error"))
def test_example_is_refused(name: str) -> None:
    expected = load_json(EXAMPLES / f"{name}.error.json")["error"]
    with pytest.raises(EngineError) as caught:
        settle(_sheet(name))
    got = caught.value.as_json()["error"]
    assert got["code"] == expected["code"]
    assert got.get("hand") == expected.get("hand")
    assert set(got["fields"]) & set(expected["fields"])
    assert got["message"].startswith(f"hand {expected['hand']}: ") if "hand" in expected else True


def _run_settle(arg: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "settle", arg],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "clubscore.settings"},
    )


def test_settle_command_prints_the_settlement() -> None:
    name = example_names("american")[0]
    run = _run_settle(str(EXAMPLES / f"{name}.sheet.json"))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == load_json(EXAMPLES / f"{name}.settlement.json")


def test_settle_command_reads_stdin_and_refuses_with_exit_2() -> None:
    sheet = load_json(EXAMPLES / "american-rejected-partner.sheet.json")
    run = _run_settle("-", json.dumps(sheet))
    assert run.returncode == 2
    assert json.loads(run.stdout)["error"]["fields"] == {
        "partner": ["American Boston has no partners: leave the partner empty"]
    }


def test_settle_command_refuses_text_that_is_not_json() -> None:
    run = _run_settle("-", "{not json")
    assert run.returncode == 2
    error = json.loads(run.stdout)["error"]
    assert error["code"] == "invalid_sheet"
    assert list(error["fields"]) == ["sheet"]
