#!/usr/bin/env python
"""Django's command-line utility for the cardroom back office.

``manage.py settle_hand --policy POLICY.json HAND.json`` (API.md) settles without
Django: settling reads no setting and no model, so the plain form of the command
goes straight to the engine's command line (``cardroom.domain.settle_cli``), which
prints the same bytes and exits with the same status as the Django command, without
loading the settings or starting the app registry. Any other form of it
(``--help``, Django's own options, an argument missing) and every other command,
``help settle_hand`` included, run through Django as usual.
"""

import os
import sys


def main() -> None:
    if sys.argv[1:2] == ["settle_hand"]:
        from cardroom.domain.settle_cli import run_plain

        run_plain(sys.argv[2:])  # exits, unless Django must parse the arguments
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
