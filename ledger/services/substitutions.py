"""A substitute mid-game (issue 37): from the next deal, another player takes a seat."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from ledger.exceptions import (
    InvalidRequest,
    SeatChanged,
    StaleNumber,
)
from ledger.live import announce
from ledger.models import (
    Player,
    Role,
    SeatChange,
)
from ledger.selectors import (
    seated_now,
)
from ledger.services.clubs import player_add
from ledger.services.locks import check_open, lock_session


def seat_substitute(
    *,
    actor: User,
    session_id: int,
    seat: Any,
    player_id: Any = None,
    name: Any = None,
    number: Any = None,
    client_key: uuid.UUID | None = None,
) -> SeatChange:
    """A substitute mid-game (issue 37; scorers and above): from the next deal, the club's player
    `player_id`, or a new guest named `name`, takes `seat`. `number`, when given, is the deal the client
    believes is next: a lower one means another device recorded a deal meanwhile (409, as a hand's).
    With `client_key` a retry finds the substitution it made instead of making another."""
    if type(seat) is not int or not 0 <= seat <= 3:
        raise InvalidRequest.field("seat", "a seat is 0, 1, 2 or 3")
    if (player_id is None) == (name is None):
        raise InvalidRequest.field("player", "name the substitute: a player of the club or a new guest")
    if player_id is not None and type(player_id) is not int:
        raise InvalidRequest.field("player", "a player is named by his id")
    with transaction.atomic(durable=True):
        session = lock_session(session_id, actor, Role.SCORER)
        if client_key is not None:
            found = SeatChange.objects.filter(session=session, created_by=actor, client_key=client_key).first()
            if found is not None:
                return found
        check_open(session)
        following = session.hands_count + 1
        if number is not None:
            if type(number) is not int or number < 1 or number > following:
                raise InvalidRequest.field("number", f"`number` must be {following}, the next deal of the session")
            if number < following:
                raise StaleNumber(f"deal {number} is already recorded: the next deal is {following}", session)
        if following < 2:
            raise InvalidRequest.field(
                "seat", "before the first deal the players are changed by opening the table again, not by a substitute"
            )
        if player_id is not None:
            player = Player.objects.filter(pk=player_id, club_id=session.club_id).first()
            if player is None:
                raise InvalidRequest.field("player", f"no player {player_id} in this club")
        else:
            try:
                with transaction.atomic():
                    player = player_add(club_id=session.club_id, name=name)
            except IntegrityError:
                raise InvalidRequest.field("name", "the club already has a player of this name") from None
        seated = seated_now(session=session)
        if player.pk in {p.pk for p in seated}:
            raise InvalidRequest.field("player", f"{player.name} is already seated at this table")
        if SeatChange.objects.filter(session=session, seat=seat, from_hand=following).exists():
            raise SeatChanged(f"seat {seat} already changes hands at deal {following}")
        change = SeatChange.objects.create(
            session=session,
            seat=seat,
            player=player,
            from_hand=following,
            client_key=client_key,
            created_by=actor,
        )
        session.version += 1
        session.save(update_fields=["version"])
        announce(session)
    return change
