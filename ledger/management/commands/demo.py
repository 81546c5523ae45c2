"""`python manage.py demo`: a demo club to try the API and the pages with.

It makes (or finds) the club "Demo Club" with eight players, three users (an admin, a scorer and a
treasurer, each printed with a password and a device token), and one finished session for every
example score sheet with a settlement (`tests/data/examples`) whose variant the engine knows, played
by the club's players and imported through `session_import`. Run twice, it adds nothing it
already has, and the logins stay the same: the password is `DEMO_PASSWORD` (or `--password`) and each
user's token is derived from the SECRET_KEY, so a restart of `bin/serve` logs no phone out
(`--new-tokens` issues random ones).
"""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import json
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from ledger import selectors
from ledger.engine.sheet import SHEET_FORMAT
from ledger.engine.variants import variant_names
from ledger.models import Club, Membership, Player, Role
from ledger.services.clubs import club_create, membership_set, player_create
from ledger.services.sessions import session_import
from ledger.services.tokens import token_issue

CLUB = "Demo Club"
PLAYERS = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]
USERS = [
    ("demo-admin", Role.ADMIN, None),
    ("demo-scorer", Role.SCORER, "Ann"),
    ("demo-treasurer", Role.TREASURER, "Ben"),
]
DEVICE = "demo"
DEMO_PASSWORD = "clubscore-demo"  # README.md names it: the demo is for trying the service on one machine


def demo_token(username: str) -> str:
    """The user's demo token: the same on every run with the same SECRET_KEY, unguessable without it."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"clubscore-demo-token:{username}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).decode().rstrip("=")


def example_sheets(directory: Path) -> list[tuple[str, dict[str, Any]]]:
    """The example sheets that have a settlement and whose variant the engine knows, by name."""
    out = []
    for path in sorted(directory.glob("*.sheet.json")):
        name = path.name.removesuffix(".sheet.json")
        if not path.with_name(f"{name}.settlement.json").exists():
            continue
        sheet = json.loads(path.read_text(encoding="utf-8"))
        if sheet.get("variant") in variant_names():
            out.append((name, sheet))
    return out


def demo_sheet(sheet: dict[str, Any], index: int) -> dict[str, Any]:
    """The example played by four of the club's players, finished, in the form the ledger exports."""
    players = [PLAYERS[(index * 3 + seat) % len(PLAYERS)] for seat in range(4)]
    out: dict[str, Any] = {
        "format": SHEET_FORMAT,
        "variant": sheet["variant"],
        "rules": sheet.get("rules") or {},
        "players": players,
        "first_dealer": sheet["first_dealer"],
        "pools": sheet.get("pools") or [],
    }
    if sheet.get("stake") is not None:
        out["stake"] = sheet["stake"]
    out["hands"] = [{k: v for k, v in hand.items() if k != "number"} for hand in copy.deepcopy(sheet["hands"])]
    out["close"] = {"pools": (sheet.get("close") or {}).get("pools", "divide")}
    return out


def _key(sheet: dict[str, Any]) -> str:
    return json.dumps(sheet, sort_keys=True)


class Command(BaseCommand):
    help = "Load a demo club with players, users with tokens, and finished sessions of every known variant."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--password", default=DEMO_PASSWORD, help=f"the users' password (default: {DEMO_PASSWORD})")
        parser.add_argument("--new-tokens", action="store_true", help="random device tokens instead of the stable ones")
        parser.add_argument(
            "--examples",
            default=str(Path(settings.BASE_DIR) / "tests" / "data" / "examples"),
            help="the directory of example score sheets",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        users = self._users(options["password"])
        admin = users["demo-admin"][0]
        club = Club.objects.filter(name=CLUB, memberships__user=admin, memberships__role=Role.ADMIN).first()
        if club is None:
            club = club_create(actor=admin, name=CLUB)
        for username, role, _ in USERS[1:]:
            if not Membership.objects.filter(club=club, user=users[username][0], role=role).exists():
                membership_set(actor=admin, club_id=club.pk, user=users[username][0], role=role)
        linked = {player: users[u][0] for u, _, player in USERS if player}
        for name in PLAYERS:
            if not Player.objects.filter(club=club, name=name).exists():
                player_create(actor=admin, club_id=club.pk, name=name, user=linked.get(name))

        treasurer = users["demo-treasurer"][0]
        have = {_key(selectors.session_sheet(session=s)) for s in club.sessions.all()}
        added = 0
        examples = example_sheets(Path(options["examples"]))
        for index, (_, example) in enumerate(examples):
            sheet = demo_sheet(example, index)
            if _key(sheet) in have:
                continue
            session_import(actor=treasurer, club_id=club.pk, sheet=sheet)
            have.add(_key(sheet))
            added += 1

        variants = sorted({sheet["variant"] for _, sheet in examples})
        self.stdout.write(
            f'Demo club "{club.name}" (id {club.pk}): {len(PLAYERS)} players, {club.sessions.count()} sessions '
            f"({added} new) of {', '.join(variants) or 'no variant'}."
        )
        self.stdout.write(f"{'user':<16} {'role':<10} {'password':<24} token (Authorization: Token <token>)")
        for username, role, _ in USERS:
            user, password = users[username]
            stable = None if options["new_tokens"] else demo_token(username)
            key, _ = token_issue(user=user, device=DEVICE, key=stable)
            self.stdout.write(f"{username:<16} {role:<10} {password:<24} {key}")

    def _users(self, password: str | None) -> dict[str, tuple[Any, str]]:
        User = get_user_model()
        out = {}
        for username, _, _ in USERS:
            user, _ = User.objects.get_or_create(username=username, defaults={"email": f"{username}@example.org"})
            secret = password or secrets.token_urlsafe(12)
            if user.check_password(secret):
                out[username] = (user, secret)
                continue
            user.set_password(secret)
            user.save(update_fields=["password"])
            out[username] = (user, secret)
        return out
