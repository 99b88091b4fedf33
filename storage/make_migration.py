"""Developer tool: `python -m storage.make_migration "what changed"` autogenerates a revision.

It upgrades a scratch SQLite database to the current head, then diffs it against the models.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine

from storage.migrate import alembic_config


def main(message: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        engine = create_engine(f"sqlite:///{Path(tmp) / 'scratch.db'}")
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            command.revision(alembic_config(conn), message=message, autogenerate=True)
        engine.dispose()


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]) or "schema change")
