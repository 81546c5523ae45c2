"""`python manage.py createclub NAME --admin USERNAME`: a club and its first admin, from the shell."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.exceptions import LedgerError
from ledger.models import Club
from ledger.services.clubs import club_create


class Command(BaseCommand):
    help = "Create a club whose first admin is an existing user."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the club's name")
        parser.add_argument("--admin", required=True, metavar="USERNAME", help="an existing user, the club's admin")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        try:
            admin = User.objects.get(**{User.USERNAME_FIELD: options["admin"]})
        except User.DoesNotExist:
            raise CommandError(f"no user {options['admin']!r}: create it first (createsuperuser)") from None
        if Club.objects.filter(name=options["name"], memberships__user=admin).exists():
            raise CommandError(f"{options['admin']} already has a club named {options['name']!r}")
        try:
            club = club_create(actor=admin, name=options["name"])
        except LedgerError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"club {club.pk} {club.name!r} created; {admin.get_username()} is its admin")
