"""Reads. Everything a user reaches goes through `club_role`: what a user sees comes from club
membership only (superusers are no exception), and another club's object is `NotFound`, never a
`PermissionDenied` that would confirm it exists."""

from __future__ import annotations

import datetime as dt
import hashlib
import unicodedata
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import CharField, OuterRef, Q, QuerySet, Subquery, Value
from django.utils import timezone

from ledger import zones
from ledger.engine import settle
from ledger.engine.sheet import SHEET_FORMAT
from ledger.engine.variants import get_variant
from ledger.engine.variants.declaration import ALL_PASS, TRICKS

from .exceptions import NotFound, PermissionDenied
from .models import (
    BoardLink,
    Club,
    DealCheck,
    DeviceToken,
    Hand,
    HandRevision,
    Membership,
    Player,
    Preset,
    PresetVersion,
    Role,
    Seat,
    SeatChange,
    SeatLink,
    Session,
)
from .names import look_alikes

# Whoever asks: reads take an anonymous user too, who is a member of no club (so sees nothing).
Reader = AbstractBaseUser | AnonymousUser


if TYPE_CHECKING:  # django-stubs-ext comes with the dev extra only, so it is not imported at run time
    from typing import TypedDict

    from django_stubs_ext import WithAnnotations

    class _Role(TypedDict):
        role: str

    ClubWithRole = WithAnnotations[Club, _Role]  # a club with the reader's `role` in it


def user_id(user: Reader) -> int:
    """The user's id, 0 for an anonymous reader: no membership, player or token names it."""
    return user.pk or 0


def club_role(*, user: Reader, club_id: int, role: str = Role.PLAYER) -> str:
    """The user's role in the club; NotFound when not a member, PermissionDenied when below `role`."""
    found = Membership.objects.filter(club_id=club_id, user_id=user_id(user)).values_list("role", flat=True).first()
    if found is None:
        raise NotFound("no such club")
    return role_check(found=found, role=role)


def role_check(*, found: str, role: str) -> str:
    """`found` if it is `role` or above; PermissionDenied otherwise."""
    if Role.rank(found) < Role.rank(role):
        raise PermissionDenied(f"this needs the role {role} or above in the club; yours is {found}")
    return found


def club_list(*, user: Reader) -> QuerySet[ClubWithRole]:
    """The user's clubs, each with `role` (the user's role in it)."""
    role = Membership.objects.filter(club=OuterRef("pk"), user_id=user_id(user)).values("role")[:1]
    return Club.objects.filter(memberships__user_id=user_id(user)).annotate(role=Subquery(role)).order_by("name", "id")


def club_time_zone(club_id: int | None = None, *, session_id: int | None = None, player_id: int | None = None) -> str:
    """The time zone of a club, or of a session's or a player's club: what its pages show times in. No
    role is checked (the zone is not shown by itself; the page checks); UTC for no such club."""
    if club_id is not None:
        clubs = Club.objects.filter(pk=club_id)
    elif session_id is not None:
        clubs = Club.objects.filter(sessions__pk=session_id)
    elif player_id is not None:
        clubs = Club.objects.filter(players__pk=player_id)
    else:
        return zones.DEFAULT
    return clubs.values_list("time_zone", flat=True).first() or zones.DEFAULT


def club_get(*, user: Reader, club_id: int, role: str = Role.PLAYER) -> ClubWithRole:
    found = club_role(user=user, club_id=club_id, role=role)
    return Club.objects.annotate(role=Value(found, output_field=CharField())).get(pk=club_id)


def player_list(*, user: Reader, club_id: int, looks_like: str | None = None) -> QuerySet[Player]:
    """The club's players; with `looks_like`, those whose name looks like it without being it."""
    club_role(user=user, club_id=club_id)
    players = Player.objects.filter(club_id=club_id).order_by("name", "id")
    if looks_like is None:
        return players
    wanted = unicodedata.normalize("NFC", looks_like.strip())
    alike = look_alikes(wanted, players.values_list("name", flat=True))
    return players.filter(name__in=alike)


# --- presets (issue 42) ------------------------------------------------------------------------------


def preset_list(*, user: Reader, club_id: int, archived: bool = False) -> QuerySet[Preset]:
    """The club's presets (any member reads them: they are the conditions his tables play), by name;
    with `archived`, the archived ones too."""
    club_role(user=user, club_id=club_id)
    presets = Preset.objects.filter(club_id=club_id)
    if not archived:
        presets = presets.filter(archived_at__isnull=True)
    return presets.prefetch_related("versions").order_by("name", "id")


def preset_get(*, user: Reader, club_id: int, preset_id: int, role: str = Role.PLAYER) -> Preset:
    """One preset of the club (archived too); NotFound for another club's or none."""
    club_role(user=user, club_id=club_id, role=role)
    found = Preset.objects.filter(club_id=club_id, pk=preset_id).prefetch_related("versions").first()
    if found is None:
        raise NotFound("no such preset in this club")
    return found


def preset_versions(*, user: Reader, club_id: int, preset_id: int) -> QuerySet[PresetVersion]:
    """Every version of one preset of the club, oldest first."""
    found = preset_get(user=user, club_id=club_id, preset_id=preset_id)
    return PresetVersion.objects.filter(preset=found).select_related("created_by").order_by("version")


def preset_current(preset: Preset) -> PresetVersion:
    """The preset's current version (its row of `version`)."""
    return next(v for v in preset.versions.all() if v.version == preset.version)


def preset_last_seats(*, preset: Preset) -> list[int]:
    """The players (by seat) of the latest session opened from any version of the preset, else of the
    club's latest session: who most likely sits down again tonight. [] when the club has none."""
    latest = (
        Session.objects.filter(preset_version__preset=preset).order_by("-opened_at", "-id").first()
        or Session.objects.filter(club_id=preset.club_id).order_by("-opened_at", "-id").first()
    )
    if latest is None:
        return []
    return list(Seat.objects.filter(session=latest).order_by("seat").values_list("player_id", flat=True))


def _sessions() -> QuerySet[Session]:
    return Session.objects.select_related("opened_by", "closed_by", "preset_version__preset").prefetch_related(
        "seats__player"
    )


def session_list(
    *,
    user: Reader,
    club: int | None = None,
    status: str | None = None,
    player: int | None = None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    variant: str | None = None,
) -> QuerySet[Session]:
    qs = _sessions().filter(club__memberships__user_id=user_id(user))
    if club is not None:
        qs = qs.filter(club_id=club)
    if variant is not None:
        qs = qs.filter(variant=variant)
    if status is not None:
        qs = qs.filter(status=status)
    if player is not None:  # seated at the opening, or a substitute (issue 37)
        seated = Seat.objects.filter(player_id=player).values("session_id")
        substituted = SeatChange.objects.filter(player_id=player).values("session_id")
        qs = qs.filter(Q(pk__in=seated) | Q(pk__in=substituted))
    if date_from is not None or date_to is not None:
        qs = qs.filter(_club_days(qs, date_from, date_to))
    return qs.order_by("-opened_at", "-id")


FIRST_DAY, LAST_DAY = dt.date(2, 1, 1), dt.date(9998, 12, 31)  # no zone takes these days' bounds past datetime's


def _club_days(sessions: QuerySet[Session], date_from: dt.date | None, date_to: dt.date | None) -> Q:
    """Sessions opened from the start of `date_from` to the end of `date_to`, each by its club's clock
    (`Club.time_zone`; issue 38): the same day for the API as for the pages, whatever the server's zone."""
    found = Q(pk__in=[])
    for club_id, name in Club.objects.filter(pk__in=sessions.values("club_id")).values_list("pk", "time_zone"):
        zone = zones.club_zone(name)
        days = Q(club_id=club_id)
        if date_from is not None:
            start = dt.datetime.combine(min(max(date_from, FIRST_DAY), LAST_DAY), dt.time(), zone)
            days &= Q(opened_at__gte=start)
        if date_to is not None:
            end = min(max(date_to, FIRST_DAY), LAST_DAY) + dt.timedelta(days=1)
            days &= Q(opened_at__lt=dt.datetime.combine(end, dt.time(), zone))
        found |= days
    return found


def session_get(*, user: Reader, session_id: int, role: str = Role.PLAYER) -> Session:
    """The session if the user is a member of its club with at least `role`."""
    session = _sessions().filter(pk=session_id).first()
    if session is None:
        raise NotFound("no such session")
    try:
        club_role(user=user, club_id=session.club_id, role=role)
    except NotFound:
        raise NotFound("no such session") from None
    return session


def session_players(*, session: Session) -> list[Player]:
    """The four players by seat."""
    if "seats" in getattr(session, "_prefetched_objects_cache", {}):
        seats = session.seats.all()
    else:
        seats = Seat.objects.filter(session=session).select_related("player")
    return [seat.player for seat in sorted(seats, key=lambda s: s.seat)]


def hand_list(*, session: Session) -> QuerySet[Hand]:
    return Hand.objects.filter(session=session).select_related("recorded_by").order_by("number")


def hand_get(*, session: Session, number: int) -> Hand:
    hand = hand_list(session=session).filter(number=number).first()
    if hand is None:
        raise NotFound(f"the session has no hand {number}")
    return hand


def hand_history(*, session: Session, number: int) -> QuerySet[HandRevision]:
    """Every version of deal `number`, oldest first (an undone hand keeps its history)."""
    revisions = HandRevision.objects.filter(session=session, number=number).select_related("by").order_by("id")
    if not revisions.exists():
        raise NotFound(f"the session has no hand {number}")
    return revisions


def sheet_of(
    *,
    session: Session,
    players: list[str],
    hands: list[Any],
    close: dict[str, Any] | None,
    substitutions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The score sheet of `scoresheet.md` for a session's fields with these hands and close."""
    sheet: dict[str, Any] = {
        "format": SHEET_FORMAT,
        "variant": session.variant,
        "rules": session.rules,
        "players": players,
        "first_dealer": session.first_dealer,
        "pools": session.pools_in,
    }
    if session.stake is not None:
        sheet["stake"] = session.stake
    sheet["hands"] = hands
    if close is not None:
        sheet["close"] = close
    if substitutions:  # only a sheet whose seats changed hands has the key (issue 37)
        sheet["substitutions"] = substitutions
    return sheet


def seat_changes(*, session: Session) -> list[SeatChange]:
    """The session's substitutions (issue 37), in the sheet's order."""
    return list(SeatChange.objects.filter(session=session).select_related("player").order_by("from_hand", "id"))


def substitutions_of(changes: list[SeatChange]) -> list[dict[str, Any]]:
    """The sheet's `substitutions` for these rows."""
    return [{"seat": c.seat, "player": c.player.name, "from": c.from_hand} for c in changes]


def closing_players(*, session: Session) -> list[Player]:
    """The players of the close's parties, as its `money` and `payments` index them: the four by seat,
    then each substitute in the sheet's order (`engine.stints`)."""
    return session_players(session=session) + [c.player for c in seat_changes(session=session)]


def seated_now(*, session: Session) -> list[Player]:
    """Who holds each seat after the last substitution (the opening four when there is none)."""
    players = session_players(session=session)
    for change in seat_changes(session=session):
        players[change.seat] = change.player
    return players


def session_sheet(*, session: Session) -> dict[str, Any]:
    """The whole session as a score sheet, re-importable with `session_import`."""
    return sheet_of(
        session=session,
        players=[p.name for p in session_players(session=session)],
        hands=[h.raw for h in Hand.objects.filter(session=session).order_by("number")],
        close=session.close,
        substitutions=substitutions_of(seat_changes(session=session)),
    )


def session_settlement(*, session: Session) -> dict[str, Any]:
    """Exactly what `settle` answers for the session's score sheet."""
    return settle(session_sheet(session=session))


def token_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def token_get(*, key: str) -> DeviceToken | None:
    """The live token with this key (not revoked, not expired, its user active), or None."""
    token = DeviceToken.objects.select_related("user").filter(key_hash=token_hash(key)).first()
    if token is None or token.revoked_at is not None or token.expires_at <= timezone.now():
        return None
    if not token.user.is_active:
        return None
    return token


def token_list(*, user: Reader) -> QuerySet[DeviceToken]:
    """The user's live device tokens (not revoked, not expired), newest first."""
    return DeviceToken.objects.filter(
        user_id=user_id(user), revoked_at__isnull=True, expires_at__gt=timezone.now()
    ).order_by("-created_at", "-id")


def session_first_hand(*, session: Session) -> Any:
    """Deal 1 as recorded (its turned suit is belle for the rest of a French or Russian game), or None: the
    first hand that is not a misdeal (a misdeal is not a deal of the game, rules.md §0.11)."""
    for raw in Hand.objects.filter(session=session).order_by("number").values_list("raw", flat=True).iterator():
        if not isinstance(raw, dict) or raw.get("bid") != "misdeal":
            return raw
    return None


def session_last_hand(*, session: Session) -> Hand | None:
    """The session's last hand as recorded and settled (the room board says its table-law event), or None."""
    return Hand.objects.filter(session=session).order_by("-number").first()


def session_misdeals(*, session: Session) -> int:
    """How many of the session's hands are misdeals: hands of the sheet, not deals of the game (§0.11)."""
    return Hand.objects.filter(session=session, raw__bid="misdeal").count()


# --- the whole table (issue 25) --------------------------------------------------------------------

SEAT_LINK_AFTER_CLOSE = dt.timedelta(hours=24)


def deal_checks(*, session: Session, history: bool = False) -> QuerySet[DealCheck]:
    """The seats' live checks of the session's deals (with `history`, the cleared ones too), by deal and seat."""
    qs = DealCheck.objects.filter(session=session).select_related("by", "settled_by")
    if not history:
        qs = qs.filter(cleared_at__isnull=True)
    return qs.order_by("number", "seat", "id")


def open_disputes(*, session: Session) -> QuerySet[DealCheck]:
    """The disputes the treasurer has still to resolve or overrule (a close waits for them)."""
    return deal_checks(session=session).filter(state=DealCheck.State.DISPUTED, outcome="")


def seat_of(*, session: Session, user: Reader) -> int | None:
    """The seat the user's own player holds at this table, or None."""
    return Seat.objects.filter(session=session, player__user_id=user_id(user)).values_list("seat", flat=True).first()


def seat_link_get(*, key: str) -> SeatLink:
    """The live seat link with this key: not revoked, its session open or closed less than 24 hours ago.
    Anything else is NotFound, as if there were no such link."""
    link = SeatLink.objects.select_related("session").filter(key_hash=token_hash(key)).first()
    if link is None or link.revoked_at is not None:
        raise NotFound("not found")
    closed_at = link.session.closed_at
    if link.session.status == Session.Status.CLOSED and (
        closed_at is None or timezone.now() >= closed_at + SEAT_LINK_AFTER_CLOSE
    ):
        raise NotFound("not found")
    return link


def seat_links(*, user: Reader, session: Session) -> QuerySet[SeatLink]:
    """The session's seat links that are not revoked (scorers)."""
    club_role(user=user, club_id=session.club_id, role=Role.SCORER)
    return SeatLink.objects.filter(session=session, revoked_at__isnull=True).order_by("seat", "id")


def board_link_get(*, key: str) -> BoardLink:
    link = BoardLink.objects.select_related("club").filter(key_hash=token_hash(key)).first()
    if link is None or link.revoked_at is not None:
        raise NotFound("not found")
    return link


def board_links(*, user: Reader, club_id: int) -> QuerySet[BoardLink]:
    club_role(user=user, club_id=club_id, role=Role.ADMIN)
    return BoardLink.objects.filter(club_id=club_id, revoked_at__isnull=True).order_by("id")


def board_sessions(*, club_id: int) -> list[Session]:
    """Every open table of the club, oldest first, with `open_disputes` (a count) on each. No reader:
    the callers have checked the club (a member, or a board link of the club)."""
    from django.db.models import Count, Q

    return list(
        _sessions()
        .filter(club_id=club_id, status=Session.Status.OPEN)
        .annotate(
            open_disputes=Count(
                "checks",
                filter=Q(checks__state=DealCheck.State.DISPUTED, checks__cleared_at__isnull=True, checks__outcome=""),
            )
        )
        .order_by("opened_at", "id")
    )


def deal_legal(*, variant: str, rules: dict[str, Any], number: int, first: Any, deal: int = 0) -> dict[str, Any]:
    """What deal `number` may be under a session's rules, read from the variant's declaration: the one
    reader of it (the session API's `next_legal`, the scorer's deal table). Each bid, in rank order, with
    its label, every hand field's mode (`required`, `optional`, `forbidden`), its trumps (with
    `trumps_turned` where the deal's turned suit is allowed as well) and how its tricks add up (`tricks`:
    `total`, 12 for a bid with a discard, else 13; `exact`, whether the four counts must make the total).
    `first`: deal 1 as recorded, if it is (belle). `belle` says where the deal finds belle (`deal`, the
    deal whose turned suit it is, and `suit` once known; None when no bid is played in belle), and a bid
    played in belle says `belle_trump`: belle is among its trumps. So a page
    that numbers deals offline, after a deal 1 that waits unsent, reads belle from that deal as the shape
    says, not by a rule of its own. The labels are the engine's English: the edge says them in the
    request's language (`ledger.i18n.bids_said`). `deal`: the deal of the game, when a misdeal made it
    differ from the hand's number (rules.md §0.11)."""
    found = get_variant(variant)
    state = found.recall(first)
    deal = deal or number
    bids = found.legal_bids(deal, found.parse_options(rules or {}), state)
    for entry in bids:
        bid = found.declaration.bid[entry["code"]]
        entry["tricks"] = {"total": 12 if bid.discard else 13, "exact": bid.kind in (ALL_PASS, TRICKS)}
    return {"number": number, "bids": bids, "belle": found.belle_of(deal, state)}


def next_legal(*, session: Session) -> dict[str, Any] | None:
    """What the session's next deal may be (`deal_legal`), or None when no deal may follow; `deal`, the
    game's deal, where a misdeal made it differ from the hand's number (rules.md §0.11)."""
    if session.next_deal is None:
        return None
    number = session.next_deal["number"]
    deal = session.next_deal.get("deal", number)
    first = session_first_hand(session=session) if deal > 1 else None
    legal = deal_legal(variant=session.variant, rules=session.rules or {}, number=number, first=first, deal=deal)
    if deal != number:
        legal["deal"] = deal  # `next` keeps its three keys (docs/decisions.md, issue 14); the page reads it here
    return legal
