"""The live channel carries the change (issue 38 item 12, issue 40 item 6): what a write publishes is
what a replay of the hands gives (projection == replay), each change names the tag it follows, and a
stream relays its page's fragment rendered from it, equal to what the page would read."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from ledger import selectors
from ledger.engine import Replay, parse_sheet, settle
from ledger.engine.variants import variant_names
from ledger.live import MAX_ROWS, LocalBroker, broker, club_channel, live_data, session_channel
from ledger.models import Club, Player, Role, Session
from ledger.services.clubs import player_create
from ledger.services.hands import hand_amend, hand_record, hand_undo
from ledger.services.sessions import session_close
from ledger.services.table import deal_check, seat_link_issue
from ledger.web.live import Viewer, fragment
from tests.ledger_fixtures import AMERICAN_HANDS, PASSWORD, fresh, long_sheet, member, open_session, record_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def local(settings: Any) -> None:
    settings.REDIS_URL = None
    settings.LIVE_HEARTBEAT_SECONDS = 0.2


@pytest.fixture
def told(local: None) -> Iterator[Callable[[int], list[dict[str, Any]]]]:
    """What each session's channel was told, as the brokers carry it."""
    heard: dict[str, list[str]] = {}
    stops = []

    def of(session_id: int) -> list[dict[str, Any]]:
        channel = session_channel(session_id)
        if channel not in heard:
            heard[channel] = []
            local = broker()
            assert isinstance(local, LocalBroker)
            stops.append(local.subscribe([channel], heard[channel].append))
        return [json.loads(m) for m in heard[channel]]

    yield of
    for stop in stops:
        stop()


def replayed(session: Session) -> dict[str, Any]:
    """The session as a replay of its hands gives it: the settlement, and the next deal."""
    sheet = selectors.session_sheet(session=fresh(session))
    run = Replay(parse_sheet(sheet))
    for raw in parse_sheet(sheet).hands:
        run.settle_next(raw)
    return {**settle(sheet), "next": run.next_deal()}


def assert_is_replay(change: dict[str, Any], session: Session) -> None:
    data = change["data"]
    expected = replayed(session)
    assert data["balances"] == expected["balances"]
    assert data["pools"] == expected["pools"]
    assert data["next"] == expected["next"]
    for row in data["rows"]:
        assert row["settled"] == expected["hands"][row["number"] - 1]
    assert change["hands"] == len(expected["hands"])


@pytest.mark.parametrize("variant", variant_names())
def test_each_change_carries_what_a_replay_gives(
    variant: str, admin: Any, club: Club, players: list[Player], told: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A deal recorded, a deal amended (every later row moves), a ✓, an undo: each change's totals,
    pools, next deal and rows equal a replay of the hands at that moment, and each names the tag it
    follows, so a page one change behind can apply it."""
    sheet = long_sheet(variant, seed=7, deals=6)
    session = open_session(
        admin, club, players, variant=variant, **({"rules": sheet["rules"]} if sheet.get("rules") else {})
    )
    told(session.pk)
    seen = 0

    def write(action: Callable[[], Any]) -> dict[str, Any]:
        nonlocal seen
        with django_capture_on_commit_callbacks(execute=True):
            action()
        changes = told(session.pk)
        assert len(changes) == seen + 1
        seen += 1
        return changes[-1]

    tag = f"{fresh(session).version}.{fresh(session).checks_version}"
    for raw in sheet["hands"][:4]:

        def record(raw: dict[str, Any] = raw) -> Any:
            return hand_record(actor=admin, session_id=session.pk, hand=raw)

        change = write(record)
        assert change["prev"] == tag
        assert [r["number"] for r in change["data"]["rows"]] == [change["hands"]]
        assert_is_replay(change, session)
        tag = change["tag"]

    amended = sheet["hands"][4]
    assert _settles(sheet, 2, amended)
    change = write(
        lambda: hand_amend(
            actor=admin, session_id=session.pk, number=2, hand=amended, expected_version=fresh(session).version
        )
    )
    assert change["prev"] == tag
    assert [r["number"] for r in change["data"]["rows"]] == [2, 3, 4]  # each running total moved
    assert_is_replay(change, session)
    tag = change["tag"]

    link = selectors.seat_link_get(key=seat_link_issue(actor=admin, session_id=session.pk, seat=2)[0])
    change = write(lambda: deal_check(session_id=session.pk, number=3, state="confirmed", link=link))
    assert change["prev"] == tag
    assert [r["number"] for r in change["data"]["rows"]] == [3]
    assert change["data"]["rows"][0]["checks"] == [{"seat": 2, "state": "confirmed", "reason": "", "outcome": ""}]
    assert_is_replay(change, session)
    tag = change["tag"]

    change = write(
        lambda: hand_undo(actor=admin, session_id=session.pk, number=4, expected_version=fresh(session).version)
    )
    assert change["prev"] == tag and change["hands"] == 3 and change["data"]["rows"] == []
    assert_is_replay(change, session)


def _settles(sheet: dict[str, Any], number: int, hand: dict[str, Any]) -> bool:
    hands = [*sheet["hands"][: number - 1], hand, *sheet["hands"][number:4]]
    try:
        settle({**sheet, "hands": hands})
    except Exception:
        return False
    return True


def test_a_change_too_big_or_a_close_carries_nothing(
    admin: Any, club: Club, players: list[Player], told: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """An amend of deal 1 after more than MAX_ROWS deals would carry every row: it carries none, and the
    pages read once. A close changes the whole page: it carries nothing either."""
    sheet = long_sheet("french", seed=3, deals=MAX_ROWS + 2)
    session = open_session(admin, club, players, variant="french", rules=sheet.get("rules") or {})
    record_all(admin, session, sheet["hands"][: MAX_ROWS + 1])
    assert fresh(session).hands_count == MAX_ROWS + 1
    told(session.pk)
    with django_capture_on_commit_callbacks(execute=True):
        hand_amend(
            actor=admin,
            session_id=session.pk,
            number=1,
            hand=sheet["hands"][0],
            expected_version=fresh(session).version,
        )
    change = told(session.pk)[-1]
    assert "data" not in change and "prev" in change
    with django_capture_on_commit_callbacks(execute=True):
        session_close(actor=admin, session_id=session.pk, expected_version=fresh(session).version)
    change = told(session.pk)[-1]
    assert "data" not in change and "prev" not in change and change["status"] == "closed"


# --- the streams relay the page's fragment ---------------------------------------------------------


@pytest.fixture
def table(admin: Any, club: Club) -> dict[str, Any]:
    users = [member(club, admin, name.lower(), Role.PLAYER) for name in ("Ann", "Ben", "Cleo", "Dan")]
    seated = [player_create(actor=admin, club_id=club.pk, name=u.username.title(), user=u) for u in users]
    session = open_session(admin, club, seated)
    record_all(admin, session, AMERICAN_HANDS[:2])
    return {"users": users, "scorer": admin, "session": fresh(session)}


def login(user: Any, language: str = "en") -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    client.cookies["django_language"] = language
    return client


def relayed(response: Any, write: Callable[[], Any], capture: Any) -> dict[str, Any]:
    """The change the stream relays for `write`, as its page gets it. The caller closes the stream once
    done with the database (closing it ends the request, which closes the test's connection)."""
    chunks = iter(response.streaming_content)
    assert next(chunks).startswith(b"retry: ")
    next(chunks)  # the state it opens with
    with capture(execute=True):
        write()
    event = next(c for c in chunks if c.startswith(b"id:")).decode()
    return dict(json.loads(event.split("data: ", 1)[1]))


def part(html: str, pattern: str) -> str:
    found = re.search(pattern, html, re.S)
    assert found, pattern
    return re.sub(r"\s+", " ", found.group(0)).strip()


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_follow_stream_relays_the_deal_as_the_page_reads_it(
    table: dict, local: None, language: str, django_capture_on_commit_callbacks: Any
) -> None:
    """Ben's phone, in his language: the relayed change holds deal 3's card with his ✓ buttons and the
    table now, exactly as the fragment read after it shows them; and not the change's raw data."""
    session, ben = table["session"], login(table["users"][1], language)
    response = ben.get(f"/live/sessions/{session.pk}/?view=follow")
    change = relayed(
        response,
        lambda: hand_record(actor=table["scorer"], session_id=session.pk, hand=AMERICAN_HANDS[2]),
        django_capture_on_commit_callbacks,
    )
    assert "data" not in change and change["prev"] == f"{session.version}.0"
    read = ben.get(f"/sessions/{session.pk}/follow/rows/").content.decode()
    card = r'<li class="follow-deal[^"]*" id="deal-3".*?</li>\s*(?=<li class="follow-deal|</ol>)'
    assert part(change["html"], card) == part(read, card)
    assert 'data-action="confirm"' in part(change["html"], card)
    state = r'<section class="follow-state".*?</section>'
    assert part(change["html"], state) == part(read, state)
    assert 'id="deal-2"' not in change["html"]  # only what changed
    assert len(change["html"].encode()) < len(read.encode()) / 2
    response.close()


def test_the_sheet_stream_relays_the_rows_as_the_sheet_reads_them(
    table: dict, local: None, django_capture_on_commit_callbacks: Any
) -> None:
    session, scorer = table["session"], login(table["scorer"], "fr")
    response = scorer.get(f"/live/sessions/{session.pk}/?view=sheet")
    change = relayed(
        response,
        lambda: hand_amend(
            actor=table["scorer"],
            session_id=session.pk,
            number=1,
            hand=AMERICAN_HANDS[2],
            expected_version=session.version,
        ),
        django_capture_on_commit_callbacks,
    )
    read = scorer.get(f"/sessions/{session.pk}/sheet/rows/").content.decode()
    for n in (1, 2):
        row = rf'<tr [^>]*data-deal="{n}".*?</tr>'
        assert part(change["html"], row) == part(read, row)
    for piece in (r"<caption.*?</caption>", r"<tfoot>.*?</tfoot>"):
        assert part(change["html"], piece) == part(read, piece)
    response.close()


def test_the_scorers_stream_carries_no_fragment(
    table: dict, local: None, django_capture_on_commit_callbacks: Any
) -> None:
    """The scorer's page reads its own state (scorer/channel.js): its stream stays as small as before."""
    session = table["session"]
    response = login(table["scorer"]).get(f"/live/sessions/{session.pk}/")
    change = relayed(
        response,
        lambda: hand_record(actor=table["scorer"], session_id=session.pk, hand=AMERICAN_HANDS[2]),
        django_capture_on_commit_callbacks,
    )
    assert "html" not in change and "data" not in change and change["hands"] == 3
    response.close()


def test_the_sheets_fragment_answers_304_until_the_session_moves(table: dict) -> None:
    session, scorer = table["session"], login(table["scorer"])
    url = f"/sessions/{session.pk}/sheet/rows/"
    first = scorer.get(url)
    assert first.status_code == 200
    assert scorer.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    record_all(table["scorer"], session, AMERICAN_HANDS[2:3])
    assert scorer.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 200


def test_a_club_channel_hears_the_change_too(table: dict, told: Any, django_capture_on_commit_callbacks: Any) -> None:
    heard: list[str] = []
    local = broker()
    assert isinstance(local, LocalBroker)
    stop = local.subscribe([club_channel(table["session"].club_id)], heard.append)
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(actor=table["scorer"], session_id=table["session"].pk, hand=AMERICAN_HANDS[2])
    stop()
    assert json.loads(heard[-1])["data"]["rows"][0]["number"] == 3


@pytest.mark.parametrize("view", ["follow", "sheet"])
def test_a_deal_after_a_misdeal_reads_live_as_read(
    admin: Any, club: Club, local: None, view: str, django_capture_on_commit_callbacks: Any
) -> None:
    """Russian, `misdeal_forfeits_share` (002:33): Ann misdeals, then Ben's simple fails and the basket is
    divided without her. The deal's card and sheet row say it live as read: the change carries the
    earlier misdeal (the game's deal, the forfeited share), not the deal alone."""
    users = [member(club, admin, name.lower(), Role.PLAYER) for name in ("Ann", "Ben", "Cleo", "Dan")]
    seated = [player_create(actor=admin, club_id=club.pk, name=u.username.title(), user=u) for u in users]
    session = open_session(admin, club, seated, variant="russian", rules={"misdeal_forfeits_share": True})
    record_all(admin, session, [{"bid": "misdeal"}])
    simple = {"bid": "simple", "bidder": 1, "trump": "spades", "turned": "spades", "jack": 2, "tricks": [4, 3, 3, 3]}
    ben = login(users[1])
    response = ben.get(f"/live/sessions/{session.pk}/?view={view}")
    change = relayed(
        response,
        lambda: hand_record(actor=admin, session_id=session.pk, hand=simple),
        django_capture_on_commit_callbacks,
    )
    if view == "follow":
        read = ben.get(f"/sessions/{session.pk}/follow/rows/").content.decode()
        piece = r'<li class="follow-deal[^"]*" id="deal-2".*?</li>\s*(?=<li class="follow-deal|</ol>)'
    else:
        read = ben.get(f"/sessions/{session.pk}/sheet/rows/").content.decode()
        piece = r'<tr [^>]*data-deal="2".*?</tr>'
    assert part(change["html"], piece) == part(read, piece)
    assert "No share of the basket for Ann" in change["html"]
    response.close()


def test_what_a_write_announces_from_what_it_holds_equals_a_fresh_read(
    admin: Any, club: Club, players: list[Player], told: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A recorded hand and an amend announce from what they hold (ledger/live.py, `Known`: the hands,
    the names and open disputes read with the lock, no checks on a new deal) instead of reading again:
    what they announce equals `live_data` read afresh after the write, so the shortcut cannot drift.
    Russian with a misdeal (the earlier hands' words), a ✓ and an open dispute on recorded deals, a
    deal recorded again after an undo (whose words were cleared with it)."""
    session = open_session(admin, club, players, variant="russian", rules={"misdeal_forfeits_share": True})
    simple = {"bid": "simple", "bidder": 1, "trump": "spades", "turned": "spades", "jack": 2, "tricks": [4, 3, 3, 3]}
    record_all(admin, session, [{"bid": "misdeal"}, simple])
    link = selectors.seat_link_get(key=seat_link_issue(actor=admin, session_id=session.pk, seat=2)[0])
    other = selectors.seat_link_get(key=seat_link_issue(actor=admin, session_id=session.pk, seat=0)[0])
    deal_check(session_id=session.pk, number=2, state="confirmed", link=link)
    deal_check(session_id=session.pk, number=1, state="disputed", reason="not a misdeal", link=other)
    told(session.pk)

    def announced(write: Callable[[], Any], deals: list[int]) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            write()
        body = told(session.pk)[-1]
        data = body.pop("data")
        afresh = live_data(fresh(session), deals)
        assert afresh is not None and data == json.loads(json.dumps(afresh))
        assert json.dumps(data, sort_keys=True) == json.dumps(afresh, sort_keys=True)
        for view in ("follow", "sheet"):  # what the followers are relayed, rendered from each
            assert fragment(body, data, Viewer(view=view, seat=2)) == fragment(body, afresh, Viewer(view=view, seat=2))

    announced(lambda: hand_record(actor=admin, session_id=session.pk, hand=simple), [3])
    assert told(session.pk)[-1]["data"]["disputes"] == 1
    deal_check(session_id=session.pk, number=3, state="disputed", reason="wrong tricks", link=link)
    hand_undo(actor=admin, session_id=session.pk, number=3, expected_version=fresh(session).version)
    announced(lambda: hand_record(actor=admin, session_id=session.pk, hand=simple), [3])
    assert told(session.pk)[-1]["data"]["rows"][0]["checks"] == []  # the undone deal's words went with it
    announced(lambda: hand_record(actor=admin, session_id=session.pk, hand={"bid": "misdeal"}), [4])
    deal_check(session_id=session.pk, number=3, state="confirmed", link=link)
    announced(
        lambda: hand_amend(
            actor=admin, session_id=session.pk, number=2, hand=simple, expected_version=fresh(session).version
        ),
        [2, 3, 4],
    )
    assert [r["checks"] for r in told(session.pk)[-1]["data"]["rows"]][1] == [
        {"seat": 2, "state": "confirmed", "reason": "", "outcome": ""}
    ]
