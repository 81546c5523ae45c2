"""The evening's mail (issue 41): when an evening is closed, each of its players with an address gets one
message in his language: his deals, the table's totals, the fewest payments and his part in them, his
balance with the club, his place in the season, the score sheet as PDF and, if he owes, the payment code.

- `apps`: the receiver of `ledger.background.session_changed` (after the money is posted) hands the
  evening to the task once the work commits (`transaction.on_commit`).
- `tasks`: the Celery task, with retries; `services`: the work. Each mail is recorded (`EveningMail`,
  one per player and close) before it goes to the SMTP server, so a retry never sends it twice.
- `views`: the opt-out link (signed, no login) that every mail carries.
"""
