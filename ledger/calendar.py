"""The club nights as a calendar feed (issue 41): an iCalendar file (RFC 5545, the `icalendar` package)
that a member's calendar app fetches by a secret link, without a login.

Each member has at most one live link per club (`CalendarFeed`): making a new one revokes the old (a
link that leaked is replaced in one tap), revoking leaves none. Only the key's SHA-256 is kept, so the
link is shown once. A link stops working when it is revoked or when its member leaves the club.

The feed lists the club's nights from today on (the club's calendar days), each an all-day event on its
date (a night has a date, no hour), with the number of players checked in and of tables drawn when
there are some. Its words are in the member's language (his `Account.language`, else English).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext
from icalendar import Calendar, Event

from ledger import zones
from ledger.i18n.account import language_of
from ledger.models import CalendarFeed, Club, Membership, Night
from ledger.selectors import club_role, token_hash

FEED_KEY_BYTES = 24  # 32 URL-safe characters
NIGHTS_AHEAD = 100  # at most this many nights in a feed


def calendar_feed_of(*, user: User, club_id: int) -> CalendarFeed | None:
    """The member's live calendar link of the club, if he has one (members)."""
    club_role(user=user, club_id=club_id)
    return CalendarFeed.objects.filter(club_id=club_id, user=user, revoked_at__isnull=True).first()


def calendar_feed_issue(*, actor: User, club_id: int) -> tuple[str, CalendarFeed]:
    """A new calendar link for the member (any member), his previous one revoked; the key is shown once."""
    key = secrets.token_urlsafe(FEED_KEY_BYTES)
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id)
        CalendarFeed.objects.select_for_update().filter(club_id=club_id, user=actor, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        feed = CalendarFeed.objects.create(club_id=club_id, user=actor, key_hash=token_hash(key))
    return key, feed


def calendar_feed_revoke(*, actor: User, club_id: int) -> bool:
    """Revoke the member's live link of the club; False when he had none."""
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id)
        revoked = CalendarFeed.objects.filter(club_id=club_id, user=actor, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    return bool(revoked)


def calendar_feed_get(key: str) -> CalendarFeed | None:
    """The live link of this key whose member still belongs to its club; None otherwise (no login)."""
    feed = CalendarFeed.objects.select_related("club", "user").filter(key_hash=token_hash(key)).first()
    if feed is None or feed.revoked_at is not None:
        return None
    if not Membership.objects.filter(club_id=feed.club_id, user_id=feed.user_id).exists():
        return None
    return feed


def club_nights_ics(*, feed: CalendarFeed, night_url: Callable[[Night], str]) -> bytes:
    """The feed's iCalendar text: the club's nights from today on. `night_url` gives a night's page
    address (the page itself asks for a login)."""
    club: Club = feed.club
    zone = zones.club_zone(club.time_zone)
    today = zones.local(timezone.now(), club.time_zone).date()
    nights = (
        Night.objects.filter(club=club, date__gte=today)
        .annotate(here=Count("check_ins", distinct=True), drawn=Count("tables", distinct=True))
        .order_by("date", "id")[:NIGHTS_AHEAD]
    )
    with translation.override(language_of(user=feed.user) or settings.LANGUAGE_CODE):
        calendar = Calendar()
        calendar.add("prodid", "-//clubscore//club nights//EN")
        calendar.add("version", "2.0")
        calendar.add("calscale", "GREGORIAN")
        calendar.add("method", "PUBLISH")
        calendar.add("x-wr-calname", gettext("Club nights · %(club)s") % {"club": club.name})
        calendar.add("x-wr-timezone", str(zone))
        stamp = timezone.now().astimezone(dt.UTC).replace(microsecond=0)
        for night in nights:
            event = Event()
            event.add("uid", f"night-{night.pk}@clubscore")
            event.add("dtstamp", stamp)
            event.add("dtstart", night.date)
            event.add("dtend", night.date + dt.timedelta(days=1))
            event.add("summary", gettext("Club night · %(club)s") % {"club": club.name})
            lines = []
            here: int = night.here
            tables: int = night.drawn
            if here:
                lines.append(ngettext("%(n)d player checked in", "%(n)d players checked in", here) % {"n": here})
            if tables:
                lines.append(ngettext("%(n)d table drawn", "%(n)d tables drawn", tables) % {"n": tables})
            if lines:
                event.add("description", "\n".join(lines))
            event.add("url", night_url(night))
            event.add("transp", "TRANSPARENT")
            calendar.add_component(event)
    return calendar.to_ical()
