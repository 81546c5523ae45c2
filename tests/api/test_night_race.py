"""Two treasurers cut in at the same table at the same moment (issue 37): one opens game 2, the other is
told 409 `game_moved`, and the table has one game 2. Needs PostgreSQL (two connections writing at once),
as tests/api/test_concurrency.py: skipped on SQLite with its reason."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from ledger import nights
from ledger.models import Club, NightTable
from ledger.services.clubs import player_create
from tests.api import test_concurrency
from tests.api.test_concurrency import race
from tests.ledger_fixtures import AMERICAN_HANDS, record_all

pytestmark = test_concurrency.pytestmark  # PostgreSQL only, said as there

GAME = AMERICAN_HANDS * 2 + AMERICAN_HANDS[:3] + AMERICAN_HANDS[:1]


@pytest.mark.parametrize("attempt", range(3))
def test_two_cut_ins_at_once_one_opens_the_next_game(
    api_for: Any, admin: Any, treasurer: Any, club: Club, attempt: int
) -> None:
    for name in ("Ann", "Ben", "Cleo", "Dan", "Eve"):
        player_create(actor=admin, club_id=club.pk, name=name)
    night = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    for player in club.players.all():
        nights.check_in(actor=treasurer, night_id=night.pk, player_id=player.pk)
    nights.night_draw(actor=treasurer, night_id=night.pk, variant="american", seed=attempt)
    record_all(admin, NightTable.objects.get(night=night).session, GAME)
    phones = [api_for(admin, "phone-a"), api_for(treasurer, "phone-b")]
    url = f"/api/v1/nights/{night.pk}/tables/1/cut-in/"
    responses = race([partial(p.json, "POST", url, {"game": 1}) for p in phones])
    assert sorted(r.status_code for r in responses) == [201, 409], [r.json() for r in responses]
    assert next(r for r in responses if r.status_code == 409).json()["error"]["code"] == "game_moved"
    assert sorted(NightTable.objects.filter(night=night).values_list("game", flat=True)) == [1, 2]
