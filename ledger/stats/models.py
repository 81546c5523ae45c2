"""The statistics' projection: small per-session, per-player rows, and the ratings.

Invariants (kept by `ledger.stats.services`, the only module that writes these tables):

- For every closed session there are exactly four `PlayerSession` rows (one per seat) and one
  `PlayerContract` row per (player, bid, role) he played there; an open session has none. Every
  figure in them is what `ledger.stats.figures.session_figures` computes from the session's hands and
  its `closing`: the rows are a projection, recomputed, never edited.
- `RatingEntry` holds each player's rating after each of his closed sessions, applied in closing
  order (`closed_at`, then the session id); `Rating` is his latest entry (or absent when he has none).
- `PlayerMonth` and `PlayerMonthContract` are the sums of those rows per player and UTC calendar month
  of `closed_at` (`ROLLUP_ZONE`, whatever zone is active when they are written), so that whole months
  (a month's or a year's leaderboard, a player's all-time figures) are summed from a few dozen rows;
  the session rows serve the days of a `date_from`/`date_to` that do not cover a whole month.
- Rows carry the session's club, variant and `closed_at` so that a player's statistics or a club's
  leaderboard is an indexed aggregate over these rows, never a scan of hands.
"""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.db.models import Q
from django.utils import timezone

from ledger.models import Club, Player, Session


class PlayerSession(models.Model):
    """One player's figures in one closed session."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=32)
    closed_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField()
    deals = models.PositiveIntegerField()
    counters = models.BigIntegerField()  # close.final
    currency = models.CharField(max_length=3, null=True, blank=True)
    money = models.BigIntegerField(null=True, blank=True)  # close.money, minor units
    pools_won = models.PositiveIntegerField(default=0)
    pools_won_counters = models.BigIntegerField(default=0)
    misere_partout_played = models.PositiveIntegerField(default=0)
    misere_partout_lost = models.PositiveIntegerField(default=0)
    bidder_played = models.PositiveIntegerField(default=0)  # for the success leaderboard
    bidder_made = models.PositiveIntegerField(default=0)
    # Table law (issue 42, rules.md §0.11): revokes, misdeals as dealer, payments instead of playing.
    revokes = models.PositiveIntegerField(default=0)
    misdeals = models.PositiveIntegerField(default=0)
    concessions = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="stats_session_player_unique"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="stats_session_seat"),
            models.CheckConstraint(
                condition=Q(bidder_made__lte=models.F("bidder_played")), name="stats_made_le_played"
            ),
            models.CheckConstraint(
                condition=Q(currency__isnull=True, money__isnull=True) | Q(currency__isnull=False, money__isnull=False),
                name="stats_money_has_currency",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "closed_at", "session"], name="stats_ps_player_closed"),
            models.Index(fields=["player", "variant", "counters"], name="stats_ps_player_counters"),
            models.Index(
                fields=["club", "closed_at", "player", "bidder_played", "bidder_made", "currency", "money"],
                name="stats_ps_club_closed",
            ),
        ]


class PlayerContract(models.Model):
    """One player's contracts of one (bid, role) in one closed session."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=32)
    closed_at = models.DateTimeField()
    bid = models.CharField(max_length=32)
    role = models.CharField(max_length=8)
    played = models.PositiveIntegerField()
    made = models.PositiveIntegerField()
    overtricks = models.PositiveIntegerField()
    shortfall = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "player", "bid", "role"], name="stats_contract_unique"),
            models.CheckConstraint(condition=Q(role__in=["bidder", "partner"]), name="stats_contract_role"),
            models.CheckConstraint(condition=Q(made__lte=models.F("played")), name="stats_contract_made_le_played"),
        ]
        indexes = [
            models.Index(
                fields=["player", "variant", "bid", "role", "closed_at", "played", "made", "overtricks", "shortfall"],
                name="stats_pc_player",
            ),
            models.Index(fields=["club", "player", "closed_at"], name="stats_pc_club_player"),
            models.Index(fields=["session"], name="stats_pc_session"),
        ]


# The monthly rows are UTC months, whatever zone is active when they are written (a close from a page
# runs its follow-up in the club's zone): a period in a club's own zone is summed from the whole UTC
# months inside it plus the session rows at either end (`selectors._split`).
ROLLUP_ZONE = dt.UTC


class PlayerMonth(models.Model):
    """The sums of a player's `PlayerSession` rows of one variant and currency ("" without a stake) in
    one calendar month of their `closed_at`."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    month = models.DateField()  # its first day
    variant = models.CharField(max_length=32)
    currency = models.CharField(max_length=3, blank=True)
    sessions = models.PositiveIntegerField()
    deals = models.PositiveIntegerField()
    counters = models.BigIntegerField()
    money = models.BigIntegerField()
    pools_won = models.PositiveIntegerField()
    pools_won_counters = models.BigIntegerField()
    misere_partout_played = models.PositiveIntegerField()
    misere_partout_lost = models.PositiveIntegerField()
    bidder_played = models.PositiveIntegerField()
    bidder_made = models.PositiveIntegerField()
    revokes = models.PositiveIntegerField(default=0)
    misdeals = models.PositiveIntegerField(default=0)
    concessions = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "month", "variant", "currency"], name="stats_month_unique"),
        ]
        indexes = [
            models.Index(
                fields=["club", "month", "player", "variant", "currency", "sessions", "money"],
                name="stats_pm_club_month",
            ),
        ]


class PlayerMonthContract(models.Model):
    """The sums of a player's `PlayerContract` rows of one (variant, bid, role) in one calendar month."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    month = models.DateField()
    variant = models.CharField(max_length=32)
    bid = models.CharField(max_length=32)
    role = models.CharField(max_length=8)
    played = models.PositiveIntegerField()
    made = models.PositiveIntegerField()
    overtricks = models.PositiveIntegerField()
    shortfall = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "month", "variant", "bid", "role"], name="stats_month_contract_unique"
            ),
        ]
        indexes = [models.Index(fields=["club", "month", "player"], name="stats_pmc_club_month")]


class RatingEntry(models.Model):
    """A player's rating after one of his closed sessions (`number`: his how-manieth)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=32)
    closed_at = models.DateTimeField()
    number = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "session"], name="stats_rating_player_session"),
            models.CheckConstraint(condition=Q(number__gte=1), name="stats_rating_number_positive"),
        ]
        indexes = [
            models.Index(fields=["player", "closed_at", "session"], name="stats_re_player_closed"),
            models.Index(fields=["club", "closed_at", "session"], name="stats_re_club_closed"),
            models.Index(fields=["session"], name="stats_re_session"),
        ]


class Rating(models.Model):
    """A player's current rating: his latest `RatingEntry`."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, primary_key=True, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    sessions = models.PositiveIntegerField()
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    closed_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["club", "sessions", "ordinal"], name="stats_rating_club")]


class Season(models.Model):
    """A club's named season (issue 41): its dates (the club's calendar days, both included), the
    variants it counts, its measure, and its rules (a minimum of evenings to qualify, the best N that
    count, a handicap from the previous season's average). `standings` is the table as it was computed
    and stored (when the season ended, or on demand): once stored, a page shows it as it is, and only a
    change to its evenings or its rules recomputes it, with a `SeasonNote` saying what changed."""

    class Measure(models.TextChoices):
        COUNTERS = "counters"  # the evening's close.final (one variant: counters are its unit)
        MONEY = "money"  # the evening's close.money in `currency`, minor units

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=100)
    starts_on = models.DateField()
    ends_on = models.DateField()
    variants = models.JSONField(default=list)  # variant codes counted
    measure = models.CharField(max_length=8, choices=Measure.choices, default=Measure.COUNTERS)
    currency = models.CharField(max_length=3, blank=True)  # with measure=money
    min_evenings = models.PositiveSmallIntegerField(default=0)
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)  # None: every evening counts
    handicap_percent = models.PositiveSmallIntegerField(default=0)  # 0: no handicap
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    standings = models.JSONField(null=True, blank=True)  # the stored table (seasons.standings_json)
    stored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="stats_season_name_unique"),
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="stats_season_dates"),
            models.CheckConstraint(condition=Q(handicap_percent__lte=100), name="stats_season_handicap"),
            models.CheckConstraint(condition=Q(best_of__isnull=True) | Q(best_of__gte=1), name="stats_season_best_of"),
        ]
        indexes = [models.Index(fields=["club", "starts_on", "ends_on"], name="stats_season_club_dates")]


class SeasonNote(models.Model):
    """What changed in a stored season's table when it was computed again: why (`reason`: an evening
    imported, reopened or amended; the rules edited; the previous season's table, so the handicaps, changed;
    a recompute asked for) and, per player whose line
    changed, his line before and after; the evenings that came in or went out."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="notes")
    at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=16)
    changes = models.JSONField(default=dict)

    class Meta:
        ordering = ["-at", "-id"]
