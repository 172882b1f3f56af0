"""``python -m netbenefit``: the command line."""

from .cli import main

raise SystemExit(main())
