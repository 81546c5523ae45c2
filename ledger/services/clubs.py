"""Clubs, their members and players: creation, time zone, payment details, a player's mail."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger import zones
from ledger.exceptions import (
    InvalidRequest,
    NotFound,
    PermissionDenied,
)
from ledger.models import (
    Club,
    Membership,
    Player,
    Role,
)
from ledger.names import clean_name, refuse_look_alike
from ledger.selectors import (
    club_role,
)
from ledger.services.locks import lock_club


def club_create(*, actor: User, name: str, time_zone: str = zones.DEFAULT) -> Club:
    """A new club in its time zone (an IANA name); its creator becomes its admin."""
    name = clean_name(name, "name")
    time_zone = _clean_time_zone(time_zone)
    with transaction.atomic(durable=True):
        club = Club.objects.create(name=name, time_zone=time_zone)
        Membership.objects.create(club=club, user=actor, role=Role.ADMIN)
    club.role = Role.ADMIN  # type: ignore[attr-defined]
    return club


def club_time_zone_set(*, actor: User, club_id: int, time_zone: str) -> Club:
    """Change the club's time zone (admins only): its pages and CSVs show their times in the new one."""
    time_zone = _clean_time_zone(time_zone)
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.ADMIN)
        club = Club.objects.select_for_update().get(pk=club_id)
        club.time_zone = time_zone
        club.save(update_fields=["time_zone"])
    return club


def _clean_time_zone(value: Any) -> str:
    if not isinstance(value, str) or not zones.is_zone(value.strip()):
        raise InvalidRequest.field("time_zone", "the time zone must be an IANA name such as Europe/Paris")
    return value.strip()


def club_payment_set(*, actor: User, club_id: int, details: dict[str, Any]) -> Club:
    """The club's payment details (treasurers and above): the payee, the IBAN (schwifty checks it), the
    Russian account, and the instructions in words, which the evening's payment code is made of."""
    from ledger.paycode import clean_payment_details

    cleaned = clean_payment_details(details)
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.TREASURER)
        club = Club.objects.select_for_update().get(pk=club_id)
        for key, value in cleaned.items():
            setattr(club, key, value)
        club.save(update_fields=list(cleaned))
    return club


def player_mail_set(*, actor: User, player_id: int, email: Any, language: Any) -> Player:
    """A player's address and language for the evening's mail (the club's treasurers; the player himself).
    A new address starts the mail again after a bounce; an opt-out stays until the player's own link."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    if not isinstance(email, str) or not isinstance(language, str):
        raise InvalidRequest.field("email", "the e-mail address is not valid")
    email, language = email.strip(), language.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidRequest.field("email", "the e-mail address is not valid") from None
    if language and language not in dict(settings.LANGUAGES):
        raise InvalidRequest.field("language", "the language is English (en), French (fr) or Russian (ru)")
    with transaction.atomic(durable=True):
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise NotFound("no such player")
        role = club_role(user=actor, club_id=player.club_id)
        if player.user_id != actor.pk and Role.rank(role) < Role.rank(Role.TREASURER):
            raise PermissionDenied("a player's statement is for the player and the club's treasurers")
        if email != player.email and player.mail_stopped == "bounced":
            player.mail_stopped, player.mail_stopped_at = "", None
        player.email, player.language = email, language
        player.save(update_fields=["email", "language", "mail_stopped", "mail_stopped_at"])
    return player


def player_mail_stop(*, player_id: int) -> Player | None:
    """The player opted out (his signed link, no login): no evening's mail goes to him any more."""
    with transaction.atomic(durable=True):
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is not None and player.mail_stopped != "opted_out":
            player.mail_stopped, player.mail_stopped_at = "opted_out", timezone.now()
            player.save(update_fields=["mail_stopped", "mail_stopped_at"])
    return player


def membership_set(*, actor: User, club_id: int, user: User, role: str) -> Membership:
    """Add a member or change a member's role (admins only)."""
    if role not in Role.values:
        raise InvalidRequest.field("role", "role must be one of " + ", ".join(Role.values))
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.ADMIN)
        membership, _ = Membership.objects.update_or_create(club_id=club_id, user=user, defaults={"role": role})
    return membership


def player_create(*, actor: User, club_id: int, name: str, user: User | None = None) -> Player:
    """A new player of the club (scorers and above); names are unique within a club, and none looks like
    another (ledger/names.py: the club's row is locked, so two look-alikes made at once are not both
    taken)."""
    name = clean_name(name, "name")
    try:
        with transaction.atomic(durable=True):
            club_role(user=actor, club_id=club_id, role=Role.SCORER)
            return player_add(club_id=club_id, name=name, user=user)
    except IntegrityError:  # a concurrent create of the same name
        raise InvalidRequest.field("name", "the club already has a player of this name") from None


def player_add(*, club_id: int, name: str, user: User | None = None) -> Player:
    """`player_create`'s write inside a transaction of the caller's that has checked the role (a guest
    checked in at a night, issue 37): the same unique and look-alike name rules, under the club's lock."""
    name = clean_name(name, "name")
    lock_club(club_id)
    existing = list(Player.objects.filter(club_id=club_id).values_list("name", flat=True))
    if name in existing:
        raise InvalidRequest.field("name", "the club already has a player of this name")
    refuse_look_alike(name, existing, "name")
    return Player.objects.create(club_id=club_id, name=name, user=user)
