"""The management commands `createclub` and `demo`."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from ledger import selectors
from ledger.engine import settle
from ledger.engine.variants import variant_names
from ledger.management.commands.demo import PLAYERS, demo_sheet, example_sheets
from ledger.models import Club, Membership, Player, Session
from tests.conftest import EXAMPLES
from tests.ledger_fixtures import assert_projection, make_user

pytestmark = pytest.mark.django_db


def test_createclub_makes_the_user_its_admin() -> None:
    user = make_user("bars", superuser=True)
    out = io.StringIO()
    call_command("createclub", "Bars Club", "--admin", "bars", stdout=out)
    club = Club.objects.get(name="Bars Club")
    assert Membership.objects.get(club=club, user=user).role == "admin"
    assert "Bars Club" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("createclub", "Bars Club", "--admin", "bars")
    with pytest.raises(CommandError):
        call_command("createclub", "Nobody's Club", "--admin", "nobody")
    assert Club.objects.count() == 1


def _demo(*args: str) -> dict[str, tuple[str, str, str]]:
    out = io.StringIO()
    call_command("demo", *args, stdout=out)
    rows = [line.split() for line in out.getvalue().splitlines()[2:]]
    return {row[0]: (row[1], row[2], row[3]) for row in rows}


def test_demo_loads_a_finished_session_per_example_and_is_idempotent() -> None:
    users = _demo()
    examples = example_sheets(EXAMPLES)
    assert {sheet["variant"] for _, sheet in examples} <= set(variant_names())
    club = Club.objects.get(name="Demo Club")
    sessions = list(Session.objects.filter(club=club).order_by("pk"))
    assert len(sessions) == len(examples)
    assert all(s.status == "closed" for s in sessions)
    for session, (index, (_, example)) in zip(sessions, enumerate(examples), strict=True):
        sheet = demo_sheet(example, index)
        assert selectors.session_sheet(session=session) == sheet
        assert selectors.session_settlement(session=session) == settle(sheet)
        assert_projection(session)
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == sorted(PLAYERS)
    assert {name: role for name, (role, _, _) in users.items()} == {
        "demo-admin": "admin",
        "demo-scorer": "scorer",
        "demo-treasurer": "treasurer",
    }
    for name, (role, password, token) in users.items():
        user = authenticate(username=name, password=password)
        assert user is not None
        assert Membership.objects.get(club=club, user=user).role == role
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert client.get("/api/v1/sessions/").json()["count"] == len(examples)

    again = _demo("--password", "another-pass-42")
    assert Session.objects.filter(club=club).count() == len(examples)
    assert Club.objects.filter(name="Demo Club").count() == 1
    assert Player.objects.filter(club=club).count() == len(PLAYERS)
    assert authenticate(username="demo-scorer", password="another-pass-42") is not None
    assert again["demo-scorer"][2] == users["demo-scorer"][2]  # a restart logs no phone out
    assert _demo()["demo-scorer"][1] == "clubscore-demo"  # the README's password
    assert authenticate(username="demo-scorer", password="clubscore-demo") is not None
    fresh_tokens = _demo("--new-tokens")
    assert fresh_tokens["demo-scorer"][2] != users["demo-scorer"][2]
