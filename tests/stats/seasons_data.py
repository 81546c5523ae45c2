"""Twelve American evenings of one club, imported as history, for the seasons' tests (issue 41).

Each evening is one of the worked American examples (tests/data/examples), its seats given to the
club's players below; the counters each seat ends with are the example's `close.final`, written out
here by hand (FINALS) so the tests' expected tables are sums a reader can redo on paper.
"""

from __future__ import annotations

from typing import Any

from ledger.followup import followup_run
from ledger.models import Club, Session
from ledger.services.sessions import session_import
from tests.ledger_fixtures import example_sheet

# close.final of each example, seat 0 to 3 (its .settlement.json, worked by hand in the examples).
FINALS = {
    "american-adjustments": [-139, 71, 181, -114],
    "american-evening-defaults": [-103, 192, -103, 12],
    "american-evening-house-rules": [-243, -223, 318, 223],
    "american-last-trick-hand": [-365, 465, -130, 30],
    "american-several-pools": [173, -87, -22, -67],
    "american-stake-half-cent": [-73, -73, 87, 57],
}

# The twelve evenings of the winter season: (closing day, example, the four seats).
EVENINGS = [
    ("2026-01-05", "american-adjustments", ["Ann", "Boris", "Claire", "Denis"]),
    ("2026-01-12", "american-evening-defaults", ["Ann", "Boris", "Eve", "Fyodor"]),
    ("2026-01-19", "american-evening-house-rules", ["Claire", "Denis", "Eve", "Fyodor"]),
    ("2026-01-26", "american-last-trick-hand", ["Ann", "Claire", "Eve", "Boris"]),
    ("2026-02-02", "american-several-pools", ["Boris", "Denis", "Fyodor", "Ann"]),
    ("2026-02-09", "american-stake-half-cent", ["Ann", "Boris", "Claire", "Denis"]),
    ("2026-02-16", "american-adjustments", ["Eve", "Fyodor", "Ann", "Boris"]),
    ("2026-02-23", "american-evening-defaults", ["Claire", "Denis", "Ann", "Eve"]),
    ("2026-03-02", "american-evening-house-rules", ["Boris", "Ann", "Denis", "Claire"]),
    ("2026-03-09", "american-last-trick-hand", ["Fyodor", "Eve", "Denis", "Ann"]),
    ("2026-03-16", "american-several-pools", ["Ann", "Claire", "Boris", "Gleb"]),
    ("2026-03-23", "american-stake-half-cent", ["Denis", "Fyodor", "Claire", "Gleb"]),
]

# Evenings that are not the season's: the day after it ends, and a French evening within its days.
OUTSIDE = [
    ("2026-04-01", "american-last-trick-hand", ["Ann", "Boris", "Claire", "Denis"]),
    ("2026-02-10", "french-revokes", ["Ann", "Boris", "Claire", "Denis"]),
]

# The autumn before (for the handicap): two evenings.
AUTUMN = [
    ("2025-10-06", "american-adjustments", ["Ann", "Boris", "Claire", "Denis"]),
    ("2025-11-03", "american-evening-defaults", ["Ann", "Boris", "Eve", "Fyodor"]),
]


def import_evening(actor: Any, club: Club, day: str, example: str, seats: list[str]) -> Session:
    """One finished evening imported as history, closed on `day` (the club's calendar day), and its
    follow-up run (money, statistics, seasons) as the task does once the import commits."""
    sheet = example_sheet(example)
    sheet["players"] = seats
    session = session_import(actor=actor, club_id=club.pk, sheet=sheet, closed_at=day)
    followup_run(session_id=session.pk)
    return session


def import_all(actor: Any, club: Club, evenings: list[tuple[str, str, list[str]]]) -> dict[str, Session]:
    """The evenings, by their day."""
    return {day: import_evening(actor, club, day, example, seats) for day, example, seats in evenings}
