"""Fixtures and helpers shared by tests/services and tests/api (imported by their conftest.py).

Everything is built through the services, as the API would: no model rows written behind their back
except the users themselves (Django's own `create_user`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from clubscore.celery import app
from ledger import selectors
from ledger.engine import EngineError, settle
from ledger.engine.samples import random_hand, random_sheet
from ledger.engine.variants import get_variant
from ledger.models import Club, Hand, Player, Role, Session
from ledger.services.clubs import club_create, membership_set, player_create
from ledger.services.hands import hand_record
from ledger.services.sessions import session_open
from tests.conftest import EXAMPLES, load_json

PASSWORD = "bars-pass-1234"

# Four valid American deals (decimal tables, ante 5): a failed seven feeds the pool, then a made
# seven takes it, a pass, and a made boston.
AMERICAN_HANDS: list[dict[str, Any]] = [
    {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [3, 6, 2, 2]},
    {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 2, 7, 2]},
    {"bid": "pass", "tricks": [4, 4, 3, 2]},
    {"bid": "boston", "bidder": 3, "trump": "spades", "tricks": [2, 2, 4, 5]},
]


def make_user(username: str, *, superuser: bool = False) -> Any:
    User = get_user_model()
    if superuser:
        return User.objects.create_superuser(username, f"{username}@example.org", PASSWORD)
    return User.objects.create_user(username, f"{username}@example.org", PASSWORD)


@pytest.fixture
def background_work_in_process() -> Iterator[None]:
    """Run a close's or an import's follow-up (money postings, statistics) in process, as the embedded
    defaults do. With REDIS_URL set (CI's second pass) it would go to a broker that no worker reads
    in these tests, so no money would be posted; tests/integration runs real workers."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    cache.clear()  # throttle histories live in the cache (the login limits' database windows roll back)


@pytest.fixture
def login_rates(settings: Any) -> None:
    """The production login limits (20 attempts a minute per address, 10 failures per username and
    address or trusted device, 20 an hour per username from untrusted clients), the other scopes out
    of the way, and a fast password hasher."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            "user": "1000/min",
            "anon": "1000/min",
            "login": "20/min",
            "login_username": "10/min",
            "login_untrusted": "20/hour",
        },
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def admin(db: None) -> Any:
    return make_user("admin", superuser=True)


@pytest.fixture
def club(admin: Any) -> Club:
    return club_create(actor=admin, name="Bars Club")


def member(club: Club, admin: Any, username: str, role: str) -> Any:
    user = make_user(username)
    membership_set(actor=admin, club_id=club.pk, user=user, role=role)
    return user


@pytest.fixture
def scorer(club: Club, admin: Any) -> Any:
    return member(club, admin, "scorer", Role.SCORER)


@pytest.fixture
def treasurer(club: Club, admin: Any) -> Any:
    return member(club, admin, "treasurer", Role.TREASURER)


@pytest.fixture
def player_user(club: Club, admin: Any) -> Any:
    return member(club, admin, "player", Role.PLAYER)


@pytest.fixture
def other_admin(db: None) -> Any:
    """The admin of another club: a superuser, yet a stranger to `club`."""
    return make_user("other", superuser=True)


@pytest.fixture
def other_club(other_admin: Any) -> Club:
    return club_create(actor=other_admin, name="Other Club")


@pytest.fixture
def players(club: Club, admin: Any) -> list[Player]:
    return [player_create(actor=admin, club_id=club.pk, name=n) for n in ("Ann", "Ben", "Cleo", "Dan")]


def open_session(actor: Any, club: Club, players: list[Player], variant: str = "american", **extra: Any) -> Session:
    return session_open(
        actor=actor,
        club_id=club.pk,
        variant=variant,
        rules=extra.pop("rules", {}),
        player_ids=[p.pk for p in players],
        first_dealer=extra.pop("first_dealer", 0),
        **extra,
    )


def open_from_preset(actor: Any, club: Club, players: list[Player], preset: Any, first_dealer: int = 0) -> Session:
    """A table opened from a preset (issue 42): its variant, rules and stake are the preset's."""
    return session_open(
        actor=actor,
        club_id=club.pk,
        variant="",
        rules=None,
        player_ids=[p.pk for p in players],
        first_dealer=first_dealer,
        preset_id=preset.pk,
    )


@pytest.fixture
def session(admin: Any, club: Club, players: list[Player]) -> Session:
    return open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})


def record_all(actor: Any, session: Session, hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        hand_record(actor=actor, session_id=session.pk, hand=hand)


def fresh(session: Session) -> Session:
    return Session.objects.get(pk=session.pk)


def assert_projection(session: Session) -> None:
    """The stored projection is exactly what a fresh replay of the session's sheet gives."""
    session = fresh(session)
    settlement = settle(selectors.session_sheet(session=session))
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [h.settled for h in hands] == settlement["hands"]
    assert session.hands_count == len(hands)
    assert session.balances == settlement["balances"]
    assert session.pools == settlement["pools"]
    assert session.closing == settlement.get("close")


def example_sheet(name: str) -> dict[str, Any]:
    sheet: dict[str, Any] = copy.deepcopy(load_json(EXAMPLES / f"{name}.sheet.json"))
    return sheet


def long_sheet(variant: str, seed: int, deals: int = 24) -> dict[str, Any]:
    """A valid sheet of up to `deals` deals (fewer when the variant's game ends first)."""
    return random_sheet(variant, random.Random(seed), deals, adjust_rate=0.2)


def other_valid_hand(sheet: dict[str, Any], index: int, seed: int) -> dict[str, Any]:
    """A different hand at `index` with which the whole sheet still settles."""
    rng = random.Random(seed)
    variant = get_variant(sheet["variant"])
    for _ in range(5000):
        candidate = random_hand(variant, rng)
        if candidate == sheet["hands"][index]:
            continue
        trial = dict(sheet, hands=[*sheet["hands"][:index], candidate, *sheet["hands"][index + 1 :]])
        try:
            settle(trial)
        except EngineError:
            continue
        return candidate
    raise AssertionError("no other valid hand found")
