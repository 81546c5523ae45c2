"""The club's money ledger: each closed session's money result per player, the money of the pools the
club holds for its tables, what was paid, and the fewest transfers that square everyone.

Invariants (django-hordak style). `services.py` is the only code that writes these tables and
`selectors.py` reads them (words for people are in `ledger/display.py`); the database holds what it can
(migration 0002):

1. Amounts are integers in the minor unit of their currency (`scoresheet.md`, "Money": cents, yen,
   fils); an entry is never 0 (CHECK).
2. A transaction is in one currency; its entries, one per account, add up to zero and are at least two
   (here; on PostgreSQL also deferred constraint triggers checked at COMMIT). So every club's ledger
   sums to zero per currency, and so do its open balances: settle-up always squares.
3. Append-only: accounts, transactions and entries are never updated or deleted (triggers: UPDATE and
   DELETE on PostgreSQL, UPDATE on SQLite). A correction is a new transaction: a reopen is answered by
   the exact reversal of the close it undoes, and the next close by the new result. Payments are not
   touched by either: money paid stays paid, and a player's statement shows the original close, its
   reversal and the new close as lines of their own (adjusting entries). A payment recorded by
   mistake is answered the same way: `payment_reverse` posts its exact opposite beside it.
4. A session's money is posted once per close: at most one `close` transaction per (session,
   close_version) (UNIQUE) and at most one reversal of any transaction (one-to-one). `session_money_post`
   computes what the session's current state expects and posts only the difference, under the session's
   row lock, so running it twice, or in two workers at once, has the effect of running it once.
5. A payment (paid, partly paid, written off) records cash handed over, or a debt given up: it moves
   money from the payer's account to the payee's whatever their balances from other evenings, so an
   evening's transfers can always be paid as printed. It is either tied to one transfer of one evening
   (`for_session`: the settlement's "record" link; the settlement's "paid" counts only these) or free
   (between members, or a member and the pool). Beyond what is owed (the transfer less what is tied to
   it; for a free one the least of what the payer owes and the payee is owed) it is recorded only when
   confirmed (`overpay`), which leaves the payer owed and the payee owing the difference. Checked under
   row locks on both accounts. Only payments carry `for_session` (CHECK).
6. Accounts: one per player of the club who ever had money in it, and one pool account per club whose
   balance is the money of the carried pools (a close with pools left adds to it; the session that claims
   them takes it out again).

7. Chained: each club's transactions, in the order they were written, carry a digest over their
   canonical content and the previous one's (`chain.py`, `MoneyDigest`), appended in the money write's
   own transaction under the club's chain head's lock; `manage.py verify` recomputes the chain, so an
   edit of written money shows even when every balance still adds up.

Sign: an account's balance above zero is money owed to it; below zero, money it owes.
"""

from __future__ import annotations

from typing import Literal

POOL: Literal["pool"] = "pool"
Party = int | Literal["pool"]  # a player's id, or the club's pool account
MAX_CENTS = 10**15  # what a 64-bit column holds with room to add
NOTE_MAX = 500
PAYMENT_STATUSES = ("paid", "partly_paid", "written_off")
