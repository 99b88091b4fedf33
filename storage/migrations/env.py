"""Alembic environment: runs on the connection handed over by storage.migrate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from alembic import context

from storage.models import Base, UTCDateTime

if TYPE_CHECKING:
    from alembic.autogenerate.api import AutogenContext

config = context.config
target_metadata = Base.metadata


def render_item(type_: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Migrations use plain SQL types, so they never import the models' Python types."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through storage.migrate (sideline db upgrade)")
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("offline migrations are not supported; use sideline db upgrade")
run_migrations_online()
