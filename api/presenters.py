"""The shapes of `api.md` ("Shapes"), as plain JSON-ready dicts (an idempotent answer is stored as is)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from ledger.engine.variants import get_variant
from ledger.followup import background_state
from ledger.models import Club, DeviceToken, Hand, HandRevision, Player, Session
from ledger.selectors import session_first_hand, session_players

SETTLED_FIELDS = ("dealer", "double", "transfers", "deltas", "pool_delta", "balances", "pools")


def timestamp(value: dt.datetime | None) -> str | None:
    if value is None:
        return None
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def club_json(club: Club, role: str) -> dict[str, Any]:
    return {"id": club.pk, "name": club.name, "role": role}


def player_json(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.name, "club": player.club_id}


def session_json(session: Session) -> dict[str, Any]:
    players = session_players(session=session)
    return {
        "id": session.pk,
        "club": session.club_id,
        "variant": session.variant,
        "rules": session.rules,
        "players": [p.pk for p in players],
        "player_names": [p.name for p in players],
        "first_dealer": session.first_dealer,
        "stake": session.stake,
        "status": session.status,
        "version": session.version,
        "balances": session.balances,
        "pools": session.pools,
        "next": session.next_deal,
        "next_legal": next_legal(session),
        "hands": session.hands_count,
        "carried_in": session.pools_in,
        "carry_pools_from": session.carry_pools_from_id,
        "close": session.closing,
        "opened_by": _username(session.opened_by),
        "opened_at": timestamp(session.opened_at),
        "closed_by": _username(session.closed_by),
        "closed_at": timestamp(session.closed_at),
        "background": background_state(session),
    }


def next_legal(session: Session) -> dict[str, Any] | None:
    """What the next deal may be under the session's own rules: the bids allowed now (`api.md`, "Additions")."""
    if session.next_deal is None:
        return None
    variant = get_variant(session.variant)
    number = session.next_deal["number"]
    first = session_first_hand(session=session) if number > 1 and variant.new_state() is not None else None
    bids = variant.legal_bids(number, variant.parse_options(session.rules or {}), variant.recall(first))
    return {"number": number, "bids": bids}


def hand_json(hand: Hand, version: int) -> dict[str, Any]:
    """The score-sheet hand as recorded, its number, the engine's settled fields, who and when."""
    out: dict[str, Any] = dict(hand.raw) if isinstance(hand.raw, dict) else {}
    out["number"] = hand.number
    for name in SETTLED_FIELDS:
        out[name] = hand.settled[name]
    out["recorded_by"] = _username(hand.recorded_by)
    out["recorded_at"] = timestamp(hand.recorded_at)
    out["version"] = version
    return out


def revision_json(revision: HandRevision) -> dict[str, Any]:
    return {
        "number": revision.number,
        "action": revision.action,
        "old": revision.old,
        "new": revision.new,
        "reason": revision.reason,
        "version": revision.version,
        "by": _username(revision.by),
        "at": timestamp(revision.at),
    }


def device_json(token: DeviceToken) -> dict[str, Any]:
    """A device's login, never its key (api.md, "Devices")."""
    return {
        "id": token.pk,
        "device": token.device,
        "created": timestamp(token.created_at),
        "last_used": timestamp(token.last_used_at),
        "expires": timestamp(token.expires_at),
    }
