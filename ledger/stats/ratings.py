"""Ratings (`stats.md`, "Ratings"): openskill's Plackett-Luce model with its defaults.

Every closed session is one match of its four players, ranked by their `close.final` counters,
highest first; equal counters share a rank. Pure Python: the services feed it the sessions in closing
order with each player's rating before the session.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def initial() -> Skill:
    m = model()
    return Skill(m.mu, m.sigma)


def ranks(finals: Sequence[int]) -> list[float]:
    """Competition ranks, highest counters first, ties sharing a rank: [10, 5, 5, -20] -> [1, 2, 2, 4]."""
    return [1 + sum(other > mine for other in finals) for mine in finals]


def rate(before: Sequence[Skill], finals: Sequence[int]) -> list[Skill]:
    """The four players' ratings after a session that ended with these `close.final` counters."""
    m = model()
    teams = [[m.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = m.rate(teams, ranks=ranks(finals))
    return [Skill(team[0].mu, team[0].sigma) for team in after]
