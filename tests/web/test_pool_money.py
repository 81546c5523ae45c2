"""A club pool below zero comes with its explanation (issue 26), in English, French and Russian.

The table's first evening (a cent a counter): Ben's failed seven pays 10 counters into the pool, carried
to the table's next session, so the club holds €0.10. The next evening claims that pool and Cleo's made
seven takes it: the club pays out €0.10 more than that evening's pools hold, and says why."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from ledger import followup
from ledger.models import Club, Player, Session
from ledger.services.sessions import session_close
from tests.ledger_fixtures import AMERICAN_HANDS, PASSWORD, fresh, open_session, record_all

pytestmark = pytest.mark.django_db

NB = "\u00a0"
PAID_OUT = {
    "en": "The club pays out €0.10 more than this table's pools hold tonight: the pools it carried in from an earlier"
    " session, whose money the club has held since that session closed.",
    "fr": f"Le club verse 0,10{NB}€ de plus que ce que les poules de cette table contiennent ce soir{NB}: les poules"
    " reportées d’une séance précédente, dont le club garde l’argent depuis la clôture de cette séance.",
    "ru": f"Клуб выплачивает на 0,10{NB}€ больше, чем сегодня в корзине этого стола: это корзина, перенесённая из"
    " прошлой партии, деньги которой клуб хранит с её закрытия.",
}
HELD = {
    "en": "The club holds €0.10 for the table: the pools carried to its next session.",
    "fr": f"Le club garde 0,10{NB}€ pour la table{NB}: les poules reportées à sa prochaine séance.",
    "ru": f"Клуб хранит 0,10{NB}€ для этого стола: корзину, перенесённую в его следующую партию.",
}
FROM_THE_POOL = {"en": "the club's pool pays Cleo €0.10", "fr": f"la poule du club → Cleo : 0,10{NB}€"}
FROM_THE_POOL["ru"] = f"корзина клуба → Cleo: 0,10{NB}€"


def close(admin: Any, session: Session, pools: str) -> None:
    session_close(actor=admin, session_id=session.pk, pools=pools, expected_version=fresh(session).version)
    followup.followup_run(session_id=session.pk)


def words(page: str, start: str, end: str) -> str:
    """What a reader sees between two ids of the page: tags left out, runs of spaces and line ends as one
    space (the no-break spaces kept)."""
    part = page[page.index(f'id="{start}"') : page.index(f'id="{end}"')]
    return re.sub(r"[ \n]+", " ", html.unescape(re.sub(r"<[^>]+>", "", part)))


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_a_pool_below_zero_is_explained(
    admin: Any, treasurer: Any, club: Club, players: list[Player], language: str
) -> None:
    stake = {"currency": "EUR", "per_counter": "0.01"}
    first = open_session(admin, club, players, stake=stake)
    record_all(admin, first, AMERICAN_HANDS[:1])  # Ben's seven fails: 10 counters into the pool
    close(admin, first, "carry")
    later = open_session(admin, club, players, stake=stake, carry_pools_from=first.pk)
    record_all(admin, later, AMERICAN_HANDS[1:2])  # Cleo's seven is made: she takes the pool carried in
    close(admin, later, "divide")
    browser = Client(headers={"accept-language": language})
    browser.cookies["django_language"] = language
    assert browser.login(username="treasurer", password=PASSWORD)

    held = browser.get(f"/sessions/{first.pk}/settlement/").content.decode()
    assert HELD[language] in words(held, "pools-h", "pay-h")
    assert 'id="pool-paid-out"' not in held
    page = browser.get(f"/sessions/{later.pk}/settlement/").content.decode()
    assert 'id="pool-paid-out"' in page
    assert PAID_OUT[language] in words(page, "pool-paid-out", "pay-h")
    assert HELD[language] not in words(page, "pools-h", "pay-h")
    assert FROM_THE_POOL[language] in words(page, "pay-h", "evening-paid")  # the transfer it explains
