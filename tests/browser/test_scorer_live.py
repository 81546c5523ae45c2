"""The scorer's own page on the live channel (issue 25): another phone's deal shows within the second,
without a reload and without touching the deal being entered; a seat's dispute is badged with Amend one
tap away, and the amend clears it."""

from __future__ import annotations

import time
import uuid
from typing import Any

from playwright.sync_api import expect

from tests.browser import test_table as four_phones
from tests.browser.conftest import BROWSER, login
from tests.browser.test_table import WITHIN, call, until, version
from tests.ledger_fixtures import AMERICAN_HANDS, record_all

pytestmark = BROWSER

# test_table.py's table (a scorer, a treasurer, the four players with logins, deal 1 recorded); the short
# stream heartbeats are conftest's, for every browser test.
table = four_phones.table


def test_another_phones_deal_and_a_dispute_reach_the_scorer_page(new_page: Any, table: dict[str, Any]) -> None:
    sid = table["session"].pk
    scorer = new_page()
    login(scorer, "scorer", f"/sessions/{sid}/score/")
    expect(scorer.locator("#scorer")).to_have_attribute("data-hands", "1")
    expect(scorer.locator("#join-link")).to_have_attribute("href", f"/sessions/{sid}/join/")
    other, ben = new_page(), new_page()
    login(other, "treasurer", f"/sessions/{sid}/follow/")
    login(ben, "ben", f"/sessions/{sid}/follow/")
    time.sleep(0.5)  # the scorer page's stream is open

    # The scorer has begun the next deal: another phone records deal 2 meanwhile.
    scorer.locator("[data-group=bidder] button").first.click()
    chosen = scorer.locator("[data-group=bidder] [aria-pressed=true]")
    expect(chosen).to_have_count(1)
    hands = f"/api/v1/sessions/{sid}/hands/"
    answer = call(other, "POST", hands, AMERICAN_HANDS[1], {"Idempotency-Key": str(uuid.uuid4())})
    since = time.monotonic()
    assert answer["status"] == 201, answer
    expect(scorer.locator("#scorer")).to_have_attribute("data-hands", "2", timeout=WITHIN * 1000)
    assert time.monotonic() - since <= WITHIN + 0.1
    expect(scorer.locator("#deal-list li[data-number='2']")).to_have_count(1)
    expect(chosen).to_have_count(1)  # the deal being entered is left as it was

    # Ben disputes deal 2: the scorer page badges it at once, with Amend beside it.
    answer = call(ben, "POST", f"{hands}2/dispute/", {"reason": "I took five tricks"})
    since = time.monotonic()
    assert answer["status"] == 200, answer
    line = scorer.locator("#disputes .dispute-line[data-number='2']")
    expect(line).to_be_visible(timeout=WITHIN * 1000)
    assert time.monotonic() - since <= WITHIN + 0.1
    expect(line).to_contain_text("I took five tricks")
    expect(scorer.locator("#deal-list li.disputed[data-number='2'] .badge.dispute")).to_have_count(1)

    # Amend from the badge: the dispute is cleared and the badge is gone.
    line.locator("button[data-amend='2']").click()
    expect(scorer.locator("#record")).to_contain_text("2")
    before = version(scorer, sid)
    scorer.click("#record")
    expect(scorer.locator("#scorer")).not_to_have_attribute("data-version", before.strip('"'))
    expect(scorer.locator("#disputes")).to_be_hidden()
    expect(scorer.locator("#deal-list li.disputed")).to_have_count(0)
    for page in (scorer, other, ben):
        assert page.errors == []


# The changes the page's live stream brings, heard in the page before the page's own handler (the tags).
TAGS_HEARD = """(() => {
  const Source = window.EventSource;
  window.tagsHeard = [];
  window.EventSource = class extends Source {
    constructor(...args) {
      super(...args);
      this.addEventListener('change', e => window.tagsHeard.push(JSON.parse(e.data).tag));
    }
  };
})()"""


def test_two_deals_close_together_leave_the_scorer_page_on_the_newest(new_page: Any, table: dict[str, Any]) -> None:
    """Another phone records deal 2 and then deal 3, the scorer page's read for deal 2 answered late: the
    page reads the session one read at a time (deal 3's read waits for deal 2's) and ends on deal 4."""
    session = table["session"]
    scorer = new_page(service_workers="block")  # no service worker: page.route sees the page's reads
    scorer.add_init_script(four_phones.reads_in_flight("/sheet/"))
    scorer.add_init_script(TAGS_HEARD)
    login(scorer, "scorer", f"/sessions/{session.pk}/score/")
    expect(scorer.locator("#deal-title")).to_have_text("Deal 2")
    until(scorer, lambda: scorer.evaluate("window.tagsHeard.length") > 0)  # the stream is open
    held: list[tuple[Any, Any]] = []

    def answer_the_first_late(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # the server answers now (deal 2); the phone hears it later

    scorer.route("**/sheet/", answer_the_first_late)
    record_all(table["scorer"], session, AMERICAN_HANDS[1:2])  # from another phone
    until(scorer, lambda: bool(held))  # deal 2's change came and its read is on its way
    heard = len(set(scorer.evaluate("window.tagsHeard")))
    record_all(table["scorer"], session, AMERICAN_HANDS[2:3])
    until(scorer, lambda: len(set(scorer.evaluate("window.tagsHeard"))) > heard)  # deal 3's change has come
    assert scorer.evaluate("window.readsMostInFlight") == 1  # its read waits for the one on its way
    route, late = held[0]
    route.fulfill(response=late)
    expect(scorer.locator("#scorer")).to_have_attribute("data-hands", "3")
    expect(scorer.locator("#deal-title")).to_have_text("Deal 4")
    assert scorer.evaluate("window.readsMostInFlight") == 1
    assert scorer.errors == []
