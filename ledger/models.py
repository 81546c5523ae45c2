"""The ledger: clubs, who belongs to them, their players, sessions and hands.

Invariants (kept by `services/`, the only package that writes, and by the database where it can):

- A session's hands are numbered 1..n without gaps: unique (session, number), number >= 1.
- A hand's `settled` and a session's `balances`, `pools`, `next_deal` and `closing` are the engine's
  projection: exactly what a fresh replay of its hands (and its close) gives. Movements of money are
  the money ledger's, below.
- `Session.version` starts at 1 and grows by one with every write to the session.
- Tokens and idempotency records are stored per user; a token is kept only as its SHA-256.
- The club's money ledger (`MoneyAccount`, `MoneyTransaction`, `MoneyEntry`) is written only by
  `ledger/money/services.py`; `ledger/money/__init__.py` lists its invariants (append-only, each
  transaction sums to zero).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Role(models.TextChoices):
    PLAYER = "player"
    SCORER = "scorer"
    TREASURER = "treasurer"
    ADMIN = "admin"

    @classmethod
    def rank(cls, role: str) -> int:
        """Each role may do everything the roles before it may."""
        return [cls.PLAYER.value, cls.SCORER.value, cls.TREASURER.value, cls.ADMIN.value].index(role)


class Club(models.Model):
    name = models.CharField(max_length=100)
    # The club's time zone (an IANA name, `zoneinfo`; issue 26): every time on its pages and in its CSVs
    # is shown in it, and a typed "evening of" date is a day of it. The API stays in UTC.
    time_zone = models.CharField(max_length=64, default="UTC")
    created_at = models.DateTimeField(default=timezone.now)
    # Where a player who owes pays the club (issue 41; `ledger.paycode`): the payee, and for euros the
    # club's IBAN (checked with schwifty) and BIC, for roubles the account, bank, BIK and correspondent
    # account of GOST R 56042-2014; in any other currency the instructions, in words.
    payee_name = models.CharField(max_length=70, blank=True)
    iban = models.CharField(max_length=34, blank=True)
    bic = models.CharField(max_length=11, blank=True)
    ru_account = models.CharField(max_length=20, blank=True)
    ru_bank_name = models.CharField(max_length=100, blank=True)
    ru_bik = models.CharField(max_length=9, blank=True)
    ru_corresp_account = models.CharField(max_length=20, blank=True)
    payment_instructions = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_club_user"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class Player(models.Model):
    """Someone who sits at the club's tables; may have a login (`user`) or not."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # The evening's mail (issue 41): the player's address and language ("" : his login's, `ledger.mail`),
    # and why it stopped: he opted out (the signed link in every mail) or the address bounced.
    email = models.EmailField(blank=True)
    language = models.CharField(max_length=8, blank=True)
    mail_stopped = models.CharField(max_length=10, blank=True)  # "", "opted_out", "bounced"
    mail_stopped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_unique_club_name"),
            models.UniqueConstraint(
                fields=["club", "user"], condition=Q(user__isnull=False), name="player_unique_club_user"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Preset(models.Model):
    """A club's named house rules (issue 42): what a table plays, kept in numbered versions.

    The preset row holds the name and the number of its current version; each version's variant, rules
    and stake are a `PresetVersion`, never edited: an edit adds a version. A session opened from a
    preset copies the version's variant, rules and stake and points at that version, so a later edit
    never re-prices an evening already played. A preset is archived, not deleted (its versions stay
    with the sessions that used them); an archived name may be taken again."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="presets")
    name = models.CharField(max_length=100)
    version = models.PositiveIntegerField(default=1)  # the current version's number
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name"], condition=Q(archived_at__isnull=True), name="preset_unique_club_name"
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="preset_version_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (v{self.version})"


class PresetVersion(models.Model):
    """One version of a preset: the variant, the rules (options, the §0.11 conditions among them) and
    the stake as the engine accepted them. Append-only."""

    preset = models.ForeignKey(Preset, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    variant = models.CharField(max_length=32)
    rules = models.JSONField(default=dict, blank=True)
    stake = models.JSONField(null=True, blank=True)  # {"currency", "per_counter"} or null
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["preset", "version"]
        constraints = [
            models.UniqueConstraint(fields=["preset", "version"], name="preset_version_unique"),
            models.CheckConstraint(condition=Q(version__gte=1), name="preset_version_number_positive"),
        ]


class Session(models.Model):
    """One table's evening: its rules, seats, stake and carried-in pools, and the engine's projection."""

    class Status(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions")
    variant = models.CharField(max_length=32)
    rules = models.JSONField(default=dict, blank=True)
    first_dealer = models.PositiveSmallIntegerField()
    stake = models.JSONField(null=True, blank=True)  # {"currency", "per_counter"} or null
    pools_in = models.JSONField(default=list, blank=True)  # carried-in pools, the sheet's `pools`
    carry_pools_from = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="pools_claimed_by"
    )
    # The preset version the session was opened from (issue 42), or null: its variant, rules and stake
    # are a copy of that version's, so editing the preset later changes nothing here.
    preset_version = models.ForeignKey(
        PresetVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="sessions"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    close = models.JSONField(null=True, blank=True)  # the sheet's `close` ({"pools": ...}) when closed
    closing = models.JSONField(null=True, blank=True)  # the engine's `close` object when closed
    version = models.PositiveIntegerField(default=1)
    # Grows by one with every confirmation, dispute or settled dispute (issue 25): the live channel's
    # second number, so that a seat's ✓ reaches every phone without moving `version` (If-Match).
    checks_version = models.PositiveIntegerField(default=0)
    # The engine's state after the last hand (a projection, rewritten on every write).
    hands_count = models.PositiveIntegerField(default=0)
    balances = models.JSONField(default=list)
    pools = models.JSONField(default=list)
    next_deal = models.JSONField(null=True, blank=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="sessions_opened"
    )
    opened_at = models.DateTimeField(default=timezone.now, db_index=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="sessions_closed"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)
    # The background work after a close or reopen (`ledger.followup`): due for the session's version
    # `followup_version` (0: never due), done up to `followup_done_version`.
    followup_version = models.PositiveIntegerField(default=0)
    followup_done_version = models.PositiveIntegerField(default=0)
    followup_done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-id"]
        indexes = [
            models.Index(
                fields=["updated_at"],
                condition=Q(followup_done_version__lt=models.F("followup_version")),
                name="session_followup_pending",
            )
        ]
        constraints = [
            models.CheckConstraint(condition=Q(first_dealer__lte=3), name="session_first_dealer_seat"),
            models.CheckConstraint(condition=Q(version__gte=1), name="session_version_positive"),
            models.CheckConstraint(condition=Q(status__in=["open", "closed"]), name="session_status_known"),
            models.CheckConstraint(
                condition=(Q(status="open", close__isnull=True) | Q(status="closed", close__isnull=False)),
                name="session_closed_has_close",
            ),
        ]

    def __str__(self) -> str:
        return f"session {self.pk} ({self.variant}, {self.club})"

    @property
    def background_pending(self) -> bool:
        """True while the background work of the session's last close or reopen has not run yet."""
        return self.followup_done_version < self.followup_version


class SessionEvent(models.Model):
    """A close or a reopen of a session, with who and when (append-only: the session's history).

    `played_at`: the evening's date that the close gave it (a reopen's: the date it undid), so that
    closing again keeps it unless the treasurer gives another."""

    class Kind(models.TextChoices):
        CLOSE = "close"
        REOPEN = "reopen"

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    version = models.PositiveIntegerField()  # the session's version after the event
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["close", "reopen"]), name="session_event_kind_known")
        ]


class Seat(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["session", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seat"], name="seat_unique_session_seat"),
            models.UniqueConstraint(fields=["session", "player"], name="seat_unique_session_player"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="seat_is_0_to_3"),
        ]


class SeatChange(models.Model):
    """The seat history (issue 37): from hand `from_hand` (2 or more) `player` sits at `seat`, a
    substitute for whoever held it. `Seat` keeps the opening four; the sheet's `substitutions` are these
    rows in the order of `from_hand`, then of the order they were made."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seat_changes")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seat_changes")
    from_hand = models.PositiveIntegerField()
    client_key = models.UUIDField(null=True, blank=True)  # the key the client sent it with
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "from_hand", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seat", "from_hand"], name="seatchange_unique_seat_hand"),
            models.UniqueConstraint(
                fields=["session", "created_by", "client_key"],
                condition=Q(client_key__isnull=False),
                name="seatchange_unique_client_key",
            ),
            models.CheckConstraint(condition=Q(seat__lte=3), name="seatchange_seat_0_to_3"),
            models.CheckConstraint(condition=Q(from_hand__gte=2), name="seatchange_from_hand_2_or_more"),
        ]


class Hand(models.Model):
    """One deal as the scorer recorded it (`raw`, the score-sheet hand) and as the engine settled it."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    raw = models.JSONField()
    settled = models.JSONField()  # the engine's settled hand (a `SettledHand`: its settlement JSON)
    client_key = models.UUIDField(null=True, blank=True)  # the key the client recorded it with
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="hands_recorded"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="hand_unique_session_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            # A retried write finds its hand by the key its user sent it with: recorded once
            # (services.hands.hand_record). A key belongs to its user (api.md), so the user is part of it.
            models.UniqueConstraint(
                fields=["session", "recorded_by", "client_key"],
                condition=Q(client_key__isnull=False),
                name="hand_unique_session_user_client_key",
            ),
        ]


class HandRevision(models.Model):
    """Every version of a hand: recorded, amended, undone; who, when, old and new, and why."""

    class Action(models.TextChoices):
        RECORDED = "recorded"
        AMENDED = "amended"
        UNDONE = "undone"

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    action = models.CharField(max_length=8, choices=Action.choices)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=500, blank=True)
    version = models.PositiveIntegerField()  # the session's version after this change
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "number", "id"]
        indexes = [models.Index(fields=["session", "number"], name="revision_session_number")]


class DeviceToken(models.Model):
    """A login of one user on one device: only the key's SHA-256 is kept."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_tokens")
    device = models.CharField(max_length=100)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)  # to the minute (selectors.token_get)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "device"], name="token_unique_user_device")]

    def __str__(self) -> str:
        return f"{self.user} on {self.device}"


class IdempotencyRecord(models.Model):
    """The first answer to a request with an Idempotency-Key, per (user, method, path, key)."""

    class State(models.TextChoices):
        IN_FLIGHT = "in_flight"
        DONE = "done"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=255)
    key = models.UUIDField()
    body_hash = models.CharField(max_length=64)
    state = models.CharField(max_length=9, choices=State.choices, default=State.IN_FLIGHT)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    response = models.JSONField(null=True, blank=True)
    etag = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "method", "path", "key"], name="idempotency_unique_key"),
            models.CheckConstraint(
                condition=Q(state="in_flight") | Q(state="done", status__isnull=False),
                name="idempotency_done_has_status",
            ),
        ]


# --- the club's money ledger (invariants: ledger/money/__init__.py; writes: ledger/money/services.py)


class MoneyAccount(models.Model):
    """Who can owe or be owed in a club: each of its players, and the club's pool account (the money
    of the pools its tables carried over). A balance is the sum of the account's entries, per currency:
    above zero the account is owed money, below zero it owes."""

    class Kind(models.TextChoices):
        PLAYER = "player"
        POOL = "pool"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="money_accounts")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    player = models.OneToOneField(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="money_account")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "kind", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="player", player__isnull=False) | Q(kind="pool", player__isnull=True),
                name="money_account_kind_matches_player",
            ),
            models.UniqueConstraint(fields=["club"], condition=Q(kind="pool"), name="money_account_one_pool_per_club"),
        ]

    def __str__(self) -> str:
        return f"pool of {self.club_id}" if self.kind == self.Kind.POOL else f"account of player {self.player_id}"


class MoneyTransaction(models.Model):
    """One event of the money ledger, in one currency: its entries add up to zero.

    `close`: a closed session's money result, keyed by (session, close_version). `reversal`: the exact
    opposite of the transaction it `reverses` (a reopen's of a close, or a treasurer's of a payment).
    `paid`, `partly_paid`, `written_off`: a treasurer's record that money changed hands, or that the
    payee gave it up.
    """

    class Kind(models.TextChoices):
        CLOSE = "close"
        REVERSAL = "reversal"
        PAID = "paid"
        PARTLY_PAID = "partly_paid"
        WRITTEN_OFF = "written_off"

    PAYMENT_KINDS = ("paid", "partly_paid", "written_off")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="money_transactions")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    currency = models.CharField(max_length=3)
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.PROTECT, related_name="money_transactions"
    )
    close_version = models.PositiveIntegerField(null=True, blank=True)  # the session's version when it closed
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by")
    note = models.CharField(max_length=500, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    client_key = models.UUIDField(null=True, blank=True)  # a payment's key, as its treasurer sent it
    # A payment tied to one transfer of one evening (the settlement's "record" link); null: a free one.
    for_session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.PROTECT, related_name="payments_for"
    )
    # A payment tied to one transfer of a club night's room settlement (issue 37); null: not one.
    for_night = models.ForeignKey("Night", null=True, blank=True, on_delete=models.PROTECT, related_name="payments_for")

    class Meta:
        ordering = ["id"]
        constraints = [
            # A retried payment finds the one its first attempt recorded (money.services.payment_record).
            models.UniqueConstraint(
                fields=["club", "created_by", "client_key"],
                condition=Q(client_key__isnull=False),
                name="money_payment_unique_client_key",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["close", "reversal", "paid", "partly_paid", "written_off"]),
                name="money_transaction_kind_known",
            ),
            models.CheckConstraint(
                condition=(
                    Q(kind="close", session__isnull=False, close_version__isnull=False, reverses__isnull=True)
                    | Q(kind="reversal", session__isnull=False, close_version__isnull=False, reverses__isnull=False)
                    | Q(  # a payment's reversal
                        kind="reversal", session__isnull=True, close_version__isnull=True, reverses__isnull=False
                    )
                    | Q(
                        kind__in=["paid", "partly_paid", "written_off"],
                        session__isnull=True,
                        close_version__isnull=True,
                        reverses__isnull=True,
                    )
                ),
                name="money_transaction_kind_fields",
            ),
            models.UniqueConstraint(
                fields=["session", "close_version"], condition=Q(kind="close"), name="money_one_close_per_version"
            ),
            models.CheckConstraint(
                condition=Q(for_session__isnull=True) | Q(kind__in=["paid", "partly_paid", "written_off"]),
                name="money_only_payments_for_session",
            ),
            models.CheckConstraint(
                condition=Q(for_night__isnull=True)
                | Q(kind__in=["paid", "partly_paid", "written_off"], for_session__isnull=True),
                name="money_only_payments_for_night",
            ),
        ]
        indexes = [models.Index(fields=["club", "kind"], name="money_transaction_club_kind")]


class MoneyEntry(models.Model):
    """One account's share of a transaction, in the transaction's currency's minor unit (never 0)."""

    transaction = models.ForeignKey(MoneyTransaction, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(MoneyAccount, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField()

    class Meta:
        ordering = ["transaction", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="money_entry_amount_not_zero"),
            models.UniqueConstraint(fields=["transaction", "account"], name="money_entry_one_per_account"),
        ]


class Account(models.Model):
    """What the scorer remembers for a user beyond Django's `User`: the language chosen with the switcher.

    `language` is one of `settings.LANGUAGES`' codes, or "" (none chosen: the cookie, else the
    browser's Accept-Language). Written and read by `ledger.i18n.account` (docs/i18n.md).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="account"
    )
    language = models.CharField(max_length=8, blank=True, default="")


# --- the whole table (issue 25): confirmations, disputes, seat links, board links ----------------------


class DealCheck(models.Model):
    """One seat's word on one deal: confirmed ("✓") or disputed ("That's not right", with a reason).

    A seat has at most one live check per deal; an amend or undo of the deal clears its checks (the
    rows stay, `cleared_at` set, so the session keeps its history) and the seats are asked again. A
    dispute is open until the treasurer resolves or overrules it (`outcome`, `settled_by`, `settled_at`),
    and a session with an open dispute cannot be closed (`services.sessions.session_close`)."""

    class State(models.TextChoices):
        CONFIRMED = "confirmed"
        DISPUTED = "disputed"

    class Outcome(models.TextChoices):
        RESOLVED = "resolved"  # the treasurer saw it put right (or agreed with the seat)
        OVERRULED = "overruled"  # the treasurer judged the deal right as recorded

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="checks")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=9, choices=State.choices)
    reason = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    by_link = models.ForeignKey("SeatLink", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    cleared_at = models.DateTimeField(null=True, blank=True)  # an amend, an undo or the seat's next word
    outcome = models.CharField(max_length=9, choices=Outcome.choices, blank=True)
    note = models.CharField(max_length=200, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "number", "seat", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number", "seat"],
                condition=Q(cleared_at__isnull=True),
                name="dealcheck_one_live_per_seat",
            ),
            models.CheckConstraint(condition=Q(seat__lte=3), name="dealcheck_seat_0_to_3"),
            models.CheckConstraint(condition=Q(state__in=["confirmed", "disputed"]), name="dealcheck_state_known"),
            models.CheckConstraint(
                condition=Q(outcome="") | Q(state="disputed", settled_at__isnull=False),
                name="dealcheck_outcome_of_a_dispute",
            ),
        ]
        indexes = [models.Index(fields=["session", "number"], name="dealcheck_session_number")]


class SeatLink(models.Model):
    """A link for a player without a login: one seat of one session, read and confirm/dispute only.

    Only the key's SHA-256 is kept. It works while not revoked and until 24 hours after the close."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seat_links")
    seat = models.PositiveSmallIntegerField()
    key_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "seat", "id"]
        constraints = [models.CheckConstraint(condition=Q(seat__lte=3), name="seatlink_seat_0_to_3")]


class BoardLink(models.Model):
    """A read-only link to the club's room board (no login), issued and revoked by an admin."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="board_links")
    label = models.CharField(max_length=100, blank=True)
    key_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "id"]


class LoginWindow(models.Model):
    """A login limit's window kept in the database while the shared cache (Redis) is unreachable
    (`ledger.login_limits`, issue 39, item 7): one row per window key, shared by every web process, so
    the limit holds as it does in Redis. Rows past their end are deleted as new windows start."""

    key = models.CharField(max_length=100, primary_key=True)
    count = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField(db_index=True)


class MoneyChainHead(models.Model):
    """The last link of a club's money chain (`ledger/money/chain.py`): a money write locks it to append,
    so the chain never forks."""

    club = models.OneToOneField(Club, primary_key=True, on_delete=models.PROTECT, related_name="+")
    length = models.PositiveIntegerField(default=0)
    digest = models.CharField(max_length=64)


class MoneyDigest(models.Model):
    """A money transaction's link in its club's chain: its place, the previous link's digest and its own
    (SHA-256 over that and the transaction's canonical content, `ledger/money/chain.py`)."""

    transaction = models.OneToOneField(
        MoneyTransaction, primary_key=True, on_delete=models.PROTECT, related_name="chain_link"
    )
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveIntegerField()
    previous = models.CharField(max_length=64)
    digest = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "position"], name="money_chain_one_per_position")]


# --- the club night (issue 37): who checked in, the tables drawn, one settlement for the room ----------


class Night(models.Model):
    """A club night: one per club and date (a day of the club's time zone). Its tables are drawn once,
    from the players checked in; the draw's method and seed are kept, so it can be shown and replayed
    (`ledger.engine.room.draw_tables` with `random.Random(draw_seed)`)."""

    class Method(models.TextChoices):
        LOT = "lot"
        RATING = "rating"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    draw_method = models.CharField(max_length=8, choices=Method.choices, blank=True)
    draw_seed = models.BigIntegerField(null=True, blank=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    drawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "date"], name="night_unique_club_date"),
            models.CheckConstraint(
                condition=Q(drawn_at__isnull=True, draw_seed__isnull=True, draw_method="")
                | Q(drawn_at__isnull=False, draw_seed__isnull=False, draw_method__in=["lot", "rating"]),
                name="night_draw_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"night of {self.date} ({self.club})"


class CheckIn(models.Model):
    """A player checked in at a night: `arrival` is his place in the order of arrival (1, 2, ...)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="check_ins")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="check_ins")
    arrival = models.PositiveIntegerField()
    # His place in the waiting line: his arrival's turn, or a later one once he has cut out (he joins the
    # end of the line). One counter per night with the arrivals, so a later arrival queues after him.
    queue = models.PositiveIntegerField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["night", "arrival"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="checkin_unique_night_player"),
            models.UniqueConstraint(fields=["night", "arrival"], name="checkin_unique_night_arrival"),
            models.UniqueConstraint(fields=["night", "queue"], name="checkin_unique_night_queue"),
            models.CheckConstraint(condition=Q(arrival__gte=1), name="checkin_arrival_positive"),
        ]


class NightTable(models.Model):
    """One game of a table of a night: the session opened for it (`number`: 1, 2, ... in the draw's
    order; `game`: 1 for the draw's, 2 for the game after the first cut-in at that table, ...). A game
    opened by a cut-in keeps how its players were cut (`cut_method`, and `cut_seed`, the lot's seed)."""

    class Cut(models.TextChoices):
        LONGEST = "longest"
        LOT = "lot"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.PositiveSmallIntegerField(default=1)
    session = models.OneToOneField(Session, on_delete=models.PROTECT, related_name="night_table")
    cut_method = models.CharField(max_length=8, choices=Cut.choices, blank=True)
    cut_seed = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["night", "number", "game"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number", "game"], name="nighttable_unique_night_number_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="nighttable_number_positive"),
            models.CheckConstraint(condition=Q(game__gte=1), name="nighttable_game_positive"),
            models.CheckConstraint(
                condition=Q(game=1, cut_method="", cut_seed__isnull=True)
                | Q(game__gt=1, cut_method__in=["longest", "lot"], cut_seed__isnull=False),
                name="nighttable_cut_complete",
            ),
        ]


class CalendarFeed(models.Model):
    """A member's calendar link (issue 41): the club's next nights as an iCalendar feed that a calendar
    app fetches without a login. Only the key's SHA-256 is kept (the link is shown once); it works while
    not revoked and while its member is still a member of the club. Making a new one revokes the old."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="calendar_feeds")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"], condition=Q(revoked_at__isnull=True), name="calendarfeed_one_live_per_member"
            )
        ]


# --- the evening's mail (issue 41; `ledger.mail`) -------------------------------------------------------


class EveningMail(models.Model):
    """One player's mail for one close of an evening: recorded before it is handed to the SMTP server, so a
    retried or redelivered task never sends it twice (at most once: a row left `sending` is not sent again).

    `figures`: what the mail said (his counters, money, what he pays or is paid), which the correction
    after a reopen and a new close compares with."""

    class State(models.TextChoices):
        SENDING = "sending"  # handed to the server, or about to be
        SENT = "sent"
        BOUNCED = "bounced"  # the server refused the address: nothing more goes to it
        FAILED = "failed"  # the server could not be reached: the task tries again

    class Kind(models.TextChoices):
        RESULT = "result"
        CORRECTION = "correction"

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="mails")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="mails")
    close_version = models.PositiveIntegerField()  # the session's version the close gave it
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.RESULT)
    address = models.EmailField()
    language = models.CharField(max_length=8)
    state = models.CharField(max_length=8, choices=State.choices, default=State.SENDING)
    figures = models.JSONField(default=dict)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "close_version", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "player", "close_version"], name="evening_mail_one_per_player_close"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["sending", "sent", "bounced", "failed"]), name="evening_mail_state_known"
            ),
        ]
