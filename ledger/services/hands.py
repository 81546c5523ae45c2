"""Hands: recording the next deal (the hot path, bench/api.py), amending one, undoing the last."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connections, transaction
from django.db.models import BooleanField, Func, Value

from ledger import idempotency, roundtrips
from ledger.engine import EngineError
from ledger.exceptions import (
    ClaimLapsed,
    InvalidRequest,
    KeyInFlight,
    KeyReused,
    LedgerError,
    NotFound,
    NotLastHand,
    StaleNumber,
)
from ledger.idempotency import KeyUse
from ledger.live import HAND, Known, announce, open_disputes, seat_names
from ledger.models import (
    Hand,
    HandRevision,
    IdempotencyRecord,
    Role,
    SeatChange,
    Session,
)
from ledger.services.locks import check_open, check_version, lock_session, locked, locking
from ledger.services.projection import (
    SEAT_NAMES,
    check_hand_amounts,
    project_state,
    replay,
    without_number,
    write_projection,
)
from ledger.services.table import clear_checks


def _lock_session_and_sheet(
    session_id: int, actor: User, role: str, key: KeyUse | None = None
) -> tuple[Session, list[Any], Known, IdempotencyRecord | None]:
    """`lock_session`, and the earlier hands' raw JSON read after the lock, in one round trip (a pipeline,
    ledger/roundtrips.py, inside the caller's `transaction.atomic`): two statements, so the second takes its
    snapshot once the first holds the lock and sees the hand of the writer it waited for (a subquery of
    the locking statement would not, under READ COMMITTED). In the same round trip, what the live change
    shows that the hand does not write (ledger/live.py, `Known`): the seats' names and the open
    disputes (a seat's word and a treasurer's take the session's lock too, so they hold until the commit).

    With an Idempotency-Key (`key`), on PostgreSQL the transaction first takes the key's advisory lock
    without waiting (`_HOLD`), and the session's lock is taken only if it got it: a second request with
    a key still in use is answered at once instead of queueing behind the first. The key's records are
    read after the sheet (so they see what the writer it waited for kept), and judged before anything
    else is checked (`idempotency.judge`); returned is the record the hand's key writes over, if any."""
    arguments = {"session_id": session_id, "user_id": actor.pk}
    held = key.hold() if key is not None and connections["default"].vendor == "postgresql" else None
    of_session = {"session_id": session_id}
    reads: list[roundtrips.Read] = [(_LOCKING, arguments), (_SHEET, of_session)]
    if held is not None:
        reads = [(_HOLD, {"held": held}), (_LOCKING_HELD, dict(arguments, held=held)), reads[1]]
    reads += [(_NAMES, of_session), (_DISPUTES, of_session)]
    if key is not None:
        reads.append((_RECORDS, {"user_id": key.user_id, "key": key.key}))
    rows = roundtrips.fetch_together(*reads)
    if held is not None:
        got, *rows = rows
    sessions, raws, names, disputes, *kept = rows
    taken = None
    if key is not None:
        taken = idempotency.judge(key, kept[0], free=held is None or got == [(True,)])
    live = Known(names=names, disputes=len(disputes))
    return locked(sessions[0] if sessions else None, role), raws, live, taken


def _try_hold(held: Any) -> Func:
    return Func(held, function="pg_try_advisory_xact_lock", output_field=BooleanField())


_LOCKING = roundtrips.Select(lambda session_id, user_id: locking(session_id, user_id))
# The row is locked only if the hold is got: PostgreSQL locks the rows its WHERE lets through (and the
# transaction that got it in `_HOLD` gets it again, a lock held twice until the end).
_LOCKING_HELD = roundtrips.Select(
    lambda session_id, user_id, held: locking(session_id, user_id).filter(_try_hold(Value(held)))
)
_HOLD = roundtrips.Raw("SELECT pg_try_advisory_xact_lock(%s)", ["held"])
_RECORDS = roundtrips.Select(lambda user_id, key: idempotency.records(user_id, key))
_SHEET = roundtrips.Select(
    lambda session_id: Hand.objects.filter(session_id=session_id).order_by("number").values_list("raw", flat=True)
)
_NAMES = roundtrips.Select(seat_names)
_DISPUTES = roundtrips.Select(open_disputes)


def hand_number_check(*, session: Session, number: Any) -> None:
    """The deal number a scorer believes is next, against the session's (`api.md`).

    Lower: another device recorded it (StaleNumber). Higher or not a number: invalid_hand. Absent: fine.
    """
    if number is None:
        return
    expected = session.hands_count + 1
    if type(number) is not int or number < 1 or number > expected:
        raise EngineError(
            "invalid_hand", {"number": [f"`number` must be {expected}, the next deal of the session"]}, expected
        )
    if number < expected:
        raise StaleNumber(f"deal {number} is already recorded: the next deal is {expected}", session)


# --- hands -----------------------------------------------------------------------------------------


def hand_record(
    *,
    actor: User,
    session_id: int,
    hand: Any,
    client_key: uuid.UUID | None = None,
    key: KeyUse | None = None,
) -> Hand:
    """Record the next deal (scorers and above). `hand` may carry `number` (see `hand_number_check`).

    Idempotent by `client_key` (the key the client sent it with, unique per session and user): a retry finds
    the hand its first attempt recorded and returns it, whatever happened since (the session closed,
    the number moved on), so a deal is recorded once however often it is sent. The lookup runs only
    when the write is refused or hits the key's unique constraint: the first attempt pays nothing.

    `key` (the API's Idempotency-Key, `ledger.idempotency`): judged first, under the session's lock, and
    kept with the hand in its transaction. A key whose hand is recorded returns that hand as it was
    recorded, its `session` the session's version then (`idempotency.recorded_hand`); a key in flight
    or reused raises `KeyInFlight` or `KeyReused`; an answer the caller kept raises `Replayed`.
    """
    try:
        return _hand_record(actor, session_id, hand, client_key, key)
    except idempotency.Replayed as replayed:
        if replayed.hand is None:
            raise
        return replayed.hand
    except (LedgerError, EngineError, IntegrityError) as refused:
        if client_key is None or isinstance(refused, KeyInFlight | KeyReused):
            raise
        found = (
            Hand.objects.select_related("session", "recorded_by")
            .filter(session_id=session_id, recorded_by_id=actor.pk, client_key=client_key)
            .first()
        )
        if found is None:
            raise
        if key is not None:  # the key answers with the hand from now on
            idempotency.keep(key, idempotency.RECORDED_STATUS, idempotency.recorded(found, found.session.version))
        return found


def _hand_record(actor: User, session_id: int, hand: Any, client_key: uuid.UUID | None, key: KeyUse | None) -> Hand:
    # On PostgreSQL (ledger/roundtrips.py): the key's hold, the lock, the earlier sheet and the key's records
    # in one round trip; the projection, the revision, the hand and the key's record in another, where
    # one statement each took eight: a hand's CPU 3.36-3.57 times the floor's, not 3.83-4.05
    # (bench/inprocess.py, bench/README.md "issue 40"). BEGIN and COMMIT are Django's: `announce`
    # publishes on commit.
    with transaction.atomic(durable=True):
        # A deal settles from the deals before it only: recording one changes no earlier hand, so
        # only the new hand's row is written (and only the earlier sheet is read).
        session, raws, live, taken = _lock_session_and_sheet(session_id, actor, Role.SCORER, key=key)
        check_open(session)
        hand_number_check(session=session, number=hand.get("number") if isinstance(hand, dict) else None)
        if session.hands_count >= settings.MAX_SESSION_HANDS:
            raise InvalidRequest.field("hands", f"a session has at most {settings.MAX_SESSION_HANDS} hands")
        raw = without_number(hand)
        _, run, settled = replay(session, [*raws, raw], names=SEAT_NAMES)
        result = settled[-1]
        check_hand_amounts(result)
        number = len(raws) + 1
        new = Hand(session=session, number=number, raw=raw, settled=result, client_key=client_key, recorded_by=actor)
        with roundtrips.together() as writes:
            writes.update_row(Session, session.pk, **project_state(session, run, number))
            writes.insert(
                HandRevision(
                    session=session,
                    number=number,
                    action=HandRevision.Action.RECORDED,
                    new=raw,
                    version=session.version,
                    by=actor,
                )
            )
            writes.insert(new)
            if key is not None:  # the key, with what this write did (`idempotency.recorded`)
                kept = idempotency.kept(key, idempotency.recorded(new, session.version))
                if taken is not None:
                    writes.update_row(IdempotencyRecord, taken.pk, **kept)
                else:
                    writes.insert(IdempotencyRecord(**key.mine(), **kept))
        # The live change from what the hand holds, not read again (ledger/live.py, `Known`): the hands'
        # raw and settled JSON (the sheet read and its replay), the names and open disputes (read with
        # the lock), and no checks: a seat's word is taken only on a recorded deal (`deal_check`, under
        # the session's lock), and undoing the last deal, the one way a number comes free again, clears
        # its words in its transaction (`clear_checks`), so a deal recorded has none yet. 9 round trips
        # became 5 and a hand's CPU 1.79-2.05 times the floor's, from 2.54-2.85 (bench/inprocess.py;
        # bench/README.md "live data from the write").
        known = replace(live, hands=[*zip([*raws, raw], settled, strict=True)], checks={})
        announce(session, moved=HAND, deals=[number], known=known)  # published once the transaction commits
    return new


def hand_amend(
    *,
    actor: User,
    session_id: int,
    number: int,
    hand: Any,
    expected_version: int | None,
    reason: str = "",
) -> Hand:
    """Replace deal `number` and replay the session from it (scorers and above).

    If the replay makes any hand invalid, nothing changes and the engine's error names that deal.
    """
    with transaction.atomic(durable=True):
        session, hands = _locked_hands(actor, session_id, number, expected_version)
        if number < len(hands) and (session.rules or {}).get("claims_lapse") is True:
            raise ClaimLapsed(
                f"deal {number} can no longer be amended: under the house rule “Claims lapse” a deal stands once "
                f"the next one is recorded (deal {number + 1} is); a treasurer can record the correction as an "
                "adjustment into the basket on the next deal"
            )
        if (
            isinstance(hand, dict)
            and "number" in hand
            and (type(hand["number"]) is not int or hand["number"] != number)
        ):
            raise EngineError("invalid_hand", {"number": [f"`number` must be {number}, the hand's number"]}, number)
        raw = without_number(hand)
        target = hands[number - 1]
        old = target.raw
        _, run, settled = replay(session, [raw if h is target else h.raw for h in hands])
        target.raw = raw
        target.save(update_fields=["raw"])
        write_projection(session, hands, settled, run)
        HandRevision.objects.create(
            session=session,
            number=number,
            action=HandRevision.Action.AMENDED,
            old=old,
            new=raw,
            reason=reason[:500],
            version=session.version,
            by=actor,
        )
        clear_checks(session, number)
        # Their running totals moved. The hands as stored now (`write_projection` set each changed one's
        # settled JSON), not read again; the later deals' words (kept: only this deal's are cleared), the
        # names and the disputes are read.
        known = Known(hands=[(h.raw, h.settled) for h in hands])
        announce(session, moved=HAND, deals=range(number, len(hands) + 1), known=known)
    target.session = session
    return target


def hand_undo(*, actor: User, session_id: int, number: int, expected_version: int | None, reason: str = "") -> Session:
    """Undo the last hand (scorers and above); any other is `NotLastHand`."""
    with transaction.atomic(durable=True):
        session, hands = _locked_hands(actor, session_id, number, expected_version)
        if number != len(hands):
            raise NotLastHand(f"only the last hand ({len(hands)}) can be undone, not {number}")
        last = hands.pop()
        old = last.raw
        last.delete()
        _seat_changes_follow_undo(session, number)
        _, run, settled = replay(session, [h.raw for h in hands])
        write_projection(session, hands, settled, run)
        HandRevision.objects.create(
            session=session,
            number=number,
            action=HandRevision.Action.UNDONE,
            old=old,
            reason=reason[:500],
            version=session.version,
            by=actor,
        )
        clear_checks(session, number)
        announce(session, moved=HAND)  # no row changed: the pages drop the deals after the session's last
    return session


def _locked_hands(
    actor: User, session_id: int, number: int, expected_version: int | None
) -> tuple[Session, list[Hand]]:
    """What amending or undoing deal `number` starts from: the open session locked at the version the
    scorer saw, and its hands in order, deal `number` among them."""
    session = lock_session(session_id, actor, Role.SCORER)
    check_open(session)
    check_version(session, expected_version)
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    if not 1 <= number <= len(hands):
        raise NotFound(f"the session has no hand {number}")
    return session, hands


def _seat_changes_follow_undo(session: Session, number: int) -> None:
    """Hand `number` undone: a substitute who was to sit from the hand after it sits from `number`, the
    next deal again (a substitution is always from a recorded hand or the next); one already set for that
    seat from `number`, whose stint is left without a hand, gives way to him."""
    for change in SeatChange.objects.filter(session=session, from_hand=number + 1).order_by("id"):
        SeatChange.objects.filter(session=session, seat=change.seat, from_hand=number).delete()
        if number < 2:
            change.delete()  # nobody substitutes from the first deal: he is the opening player's substitute
            continue
        change.from_hand = number
        change.save(update_fields=["from_hand"])
