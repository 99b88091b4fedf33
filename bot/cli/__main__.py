"""`python -m bot.cli ...` is `sideline ...`."""

import sys

from bot.cli import main

sys.exit(main())
