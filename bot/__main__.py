"""`python -m bot` runs the bot, like `sideline run`."""

import sys

from bot.cli.main import main

sys.exit(main(["run", *sys.argv[1:]]))
