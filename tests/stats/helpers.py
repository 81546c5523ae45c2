"""Helpers of the statistics tests: sessions made through the ledger's services, then the stats handler."""

from __future__ import annotations

import copy
from typing import Any

from ledger.models import Club, Session
from ledger.services.sessions import session_import
from ledger.stats.models import PlayerContract, PlayerMonth, PlayerMonthContract, PlayerSession, Rating, RatingEntry
from ledger.stats.services import stats_session_refresh


def import_closed(actor: Any, club: Club, sheet: dict[str, Any], refresh: bool = True) -> Session:
    """Import a finished sheet (closing it) and run the stats handler for it, as the follow-up task would."""
    sheet = copy.deepcopy(sheet)
    sheet.setdefault("close", {"pools": "divide"})
    session = session_import(actor=actor, club_id=club.pk, sheet=sheet)
    if refresh:
        stats_session_refresh(session_id=session.pk)
    return session


def sheet(variant: str, players: list[str], hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": "clubscore-sheet/1",
        "variant": variant,
        "rules": extra.pop("rules", {}),
        "players": players,
        "first_dealer": extra.pop("first_dealer", 0),
        "pools": [],
        "hands": hands,
        "close": {"pools": "divide"},
    }
    out.update(extra)
    return out


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every stored statistic, without the rows' own ids, in a stable order."""
    return {
        "sessions": sorted(
            PlayerSession.objects.values_list(
                "session_id",
                "player_id",
                "club_id",
                "variant",
                "closed_at",
                "seat",
                "deals",
                "counters",
                "currency",
                "money",
                "pools_won",
                "pools_won_counters",
                "misere_partout_played",
                "misere_partout_lost",
                "bidder_played",
                "bidder_made",
                "revokes",
                "misdeals",
                "concessions",
            )
        ),
        "contracts": sorted(
            PlayerContract.objects.values_list(
                "session_id",
                "player_id",
                "club_id",
                "variant",
                "closed_at",
                "bid",
                "role",
                "played",
                "made",
                "overtricks",
                "shortfall",
            )
        ),
        "months": sorted(
            PlayerMonth.objects.values_list(
                "player_id",
                "club_id",
                "month",
                "variant",
                "currency",
                "sessions",
                "deals",
                "counters",
                "money",
                "pools_won",
                "pools_won_counters",
                "misere_partout_played",
                "misere_partout_lost",
                "bidder_played",
                "bidder_made",
                "revokes",
                "misdeals",
                "concessions",
            )
        ),
        "contract_months": sorted(
            PlayerMonthContract.objects.values_list(
                "player_id", "club_id", "month", "variant", "bid", "role", "played", "made", "overtricks", "shortfall"
            )
        ),
        "entries": sorted(
            RatingEntry.objects.values_list(
                "player_id", "session_id", "club_id", "variant", "closed_at", "number", "mu", "sigma", "ordinal"
            )
        ),
        "ratings": sorted(
            Rating.objects.values_list("player_id", "club_id", "mu", "sigma", "ordinal", "sessions", "session_id")
        ),
    }
