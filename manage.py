#!/usr/bin/env python
"""Django's command-line utility for clubscore."""

import os
import sys


def main() -> None:
    if sys.argv[1:2] == ["settle"]:
        # Settling is pure: it needs no database and none of the apps, so it skips django.setup().
        from ledger.engine.cli import main as settle

        sys.exit(settle(sys.argv[2:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
