"""The incremental handler always leaves the statistics equal to a rebuild from the hands, whatever
sequence of closes, reopens and amendments came before (seeded random sequences through the ledger's
own services), and running it twice changes nothing."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from ledger import selectors
from ledger.background import receiver_name, session_changed
from ledger.engine.samples import random_sheet
from ledger.engine.variants import variant_names
from ledger.models import Session
from ledger.services.clubs import player_create
from ledger.services.hands import hand_amend, hand_record
from ledger.services.sessions import session_close, session_open, session_reopen
from ledger.stats.models import PlayerSession, Rating, RatingEntry
from ledger.stats.services import stats_rebuild, stats_session_refresh
from ledger.stats.tasks import stats_rebuild as stats_rebuild_task
from tests.ledger_fixtures import other_valid_hand
from tests.stats.helpers import snapshot
from tests.stats.test_figures import RULES

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"]


def handler(session_id: int) -> None:
    """What the follow-up task does after a close, reopen or amendment commits: every receiver."""
    session_changed.send(sender=Session, session_id=session_id)


def fresh(session_id: int) -> Session:
    return Session.objects.get(pk=session_id)


class Driver:
    """A club driven at random through the ledger's services."""

    def __init__(self, admin: Any, club: Any, seed: int) -> None:
        self.admin, self.club, self.rng = admin, club, random.Random(seed)
        self.players = [player_create(actor=admin, club_id=club.pk, name=n) for n in NAMES]

    def open_and_close(self) -> int:
        variant = self.rng.choice(variant_names())
        seated = self.rng.sample(self.players, 4)
        stake = self.rng.choice(
            [None, {"currency": "USD", "per_counter": "0.01"}, {"currency": "EUR", "per_counter": "1"}]
        )
        sheet = random_sheet(variant, self.rng, self.rng.randint(1, 9), rules=RULES[variant], adjust_rate=0.1)
        session = session_open(
            actor=self.admin,
            club_id=self.club.pk,
            variant=variant,
            rules=sheet["rules"],
            player_ids=[p.pk for p in seated],
            first_dealer=sheet["first_dealer"],
            stake=stake,
        )
        for hand in sheet["hands"]:
            hand_record(actor=self.admin, session_id=session.pk, hand=hand)
        if self.rng.random() < 0.85:
            self.close(session.pk)
        return session.pk

    def close(self, session_id: int) -> None:
        session = fresh(session_id)
        pools = self.rng.choice(["divide", "carry"])
        session_close(actor=self.admin, session_id=session_id, pools=pools, expected_version=session.version)
        handler(session_id)

    def reopen(self, session_id: int) -> None:
        session = fresh(session_id)
        session_reopen(actor=self.admin, session_id=session_id, expected_version=session.version)
        handler(session_id)

    def amend(self, session_id: int) -> None:
        session = fresh(session_id)
        sheet = selectors.session_sheet(session=session)
        if not sheet["hands"]:
            return
        index = self.rng.randrange(len(sheet["hands"]))
        hand = other_valid_hand(sheet, index, self.rng.randrange(10**6))
        hand_amend(
            actor=self.admin, session_id=session_id, number=index + 1, hand=hand, expected_version=session.version
        )
        handler(session_id)

    def step(self, sessions: list[int]) -> int:
        """One random operation; returns the session it touched."""
        closed = [s for s in sessions if fresh(s).status == "closed"]
        opened = [s for s in sessions if fresh(s).status == "open"]
        roll = self.rng.random()
        if roll < 0.35 or not sessions:
            sid = self.open_and_close()
            sessions.append(sid)
            return sid
        if roll < 0.65 and closed:
            sid = self.rng.choice(closed)
            self.reopen(sid)
            return sid
        if roll < 0.85 and opened:
            sid = self.rng.choice(opened)
            self.amend(sid)
            return sid
        if opened:
            sid = self.rng.choice(opened)
            self.close(sid)
            return sid
        sid = self.rng.choice(sessions)
        handler(sid)  # a redelivered task
        return sid


def assert_equals_rebuild() -> None:
    incremental = snapshot()
    stats_rebuild()
    assert snapshot() == incremental


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_equals_rebuild_after_every_step(admin: Any, club: Any, seed: int) -> None:
    driver = Driver(admin, club, seed)
    sessions: list[int] = []
    for _ in range(14):
        driver.step(sessions)
        assert_equals_rebuild()
    assert RatingEntry.objects.exists()


@pytest.mark.parametrize("seed", [4, 5])
def test_incremental_equals_rebuild_at_the_end(admin: Any, club: Any, seed: int) -> None:
    driver = Driver(admin, club, seed)
    sessions: list[int] = []
    for _ in range(20):
        touched = driver.step(sessions)
        before = snapshot()
        handler(touched)  # idempotent: a second run changes nothing
        assert snapshot() == before
    assert_equals_rebuild()


def test_reopening_an_early_session_replays_the_ratings_after_it(admin: Any, club: Any) -> None:
    driver = Driver(admin, club, 9)
    first = driver.open_and_close()
    while fresh(first).status != "closed":
        first = driver.open_and_close()
    later = [driver.open_and_close() for _ in range(5)]
    assert len(later) == 5
    entries = RatingEntry.objects.count()
    driver.reopen(first)
    assert not PlayerSession.objects.filter(session_id=first).exists()
    assert not RatingEntry.objects.filter(session_id=first).exists()
    assert RatingEntry.objects.count() == entries - 4
    assert_equals_rebuild()
    driver.close(first)  # closed again, it keeps its played date (issue 26): first in order, as before
    assert PlayerSession.objects.filter(session_id=first).count() == 4
    earliest = RatingEntry.objects.order_by("closed_at", "session_id").first()
    assert earliest.session_id == first
    assert_equals_rebuild()


def test_the_handler_is_registered_and_rows_are_kept_per_session(admin: Any, club: Any) -> None:
    assert "ledger.stats.apps.session_refresh" in [
        receiver_name(receiver) for receiver, _ in session_changed.send(sender=Session, session_id=10**12)
    ]
    driver = Driver(admin, club, 12)
    sid = driver.open_and_close()
    if fresh(sid).status == "open":
        driver.close(sid)
    assert PlayerSession.objects.filter(session_id=sid).count() == 4
    assert Rating.objects.filter(club_id=club.pk).count() == 4
    assert set(Rating.objects.values_list("sessions", flat=True)) == {1}


def test_an_open_session_has_no_rows(admin: Any, club: Any) -> None:
    driver = Driver(admin, club, 13)
    session = session_open(
        actor=admin,
        club_id=club.pk,
        variant="american",
        rules={},
        player_ids=[p.pk for p in driver.players[:4]],
        first_dealer=0,
    )
    stats_session_refresh(session_id=session.pk)
    assert not PlayerSession.objects.exists()
    assert not Rating.objects.exists()
    stats_session_refresh(session_id=10**9)  # no such session: nothing to do


def test_rebuild_command_and_task(admin: Any, club: Any) -> None:
    driver = Driver(admin, club, 21)
    for _ in range(3):
        sid = driver.open_and_close()
        if fresh(sid).status == "open":
            driver.close(sid)
    expected = snapshot()
    PlayerSession.objects.all().delete()
    RatingEntry.objects.all().delete()
    Rating.objects.all().delete()
    out = io.StringIO()
    call_command("rebuild_stats", "--club", str(club.pk), stdout=out)
    assert "rebuilt 3 closed sessions" in out.getvalue()
    assert snapshot() == expected
    Rating.objects.all().delete()
    result = stats_rebuild_task.apply().get()  # in-process, with or without a broker
    assert result["sessions"] == 3
    assert snapshot() == expected
    with pytest.raises(CommandError):
        call_command("rebuild_stats", "--club", "999999")
