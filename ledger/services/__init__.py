"""Writes, one module per subdomain (as HackSoft's styleguide's "Modules" and Zulip's `zerver/actions/`):
`clubs` (clubs, members, players), `sessions` (open, close, reopen, import), `hands` (record, amend,
undo), `substitutions`, `presets`, `table` (confirmations, disputes, seat and board links), `tokens`; and
beneath them `locks` (the session's and club's locks, and the checks under them) and `projection` (the
engine's replay and what of it is stored). Callers import a function from its module; this package
re-exports nothing.

Every public write is one `transaction.atomic(durable=True)`: it records all of its effects or none, and
may not be called inside another transaction (an `..._add` function is the same write inside a
transaction of its caller's, a night's draw or cut-in).

A write to a session locks the session row (`select_for_update`; several rows in primary-key order),
checks the caller's role under the lock, replays the session through the engine and stores the
engine's projection (each hand's settled JSON, the session's balances, pools and next deal), then
bumps the session's version. Recording a hand changes no earlier deal, so `hand_record` replays the
earlier hands and writes only the new one; amending, undoing, closing and reopening compare every
hand with the replay and rewrite what changed. The engine computes every counter; nothing here does
arithmetic on counters.
"""
