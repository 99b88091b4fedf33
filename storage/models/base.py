"""Declarative base shared by every feature's models."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, DateTime, Index, MetaData, TypeDecorator, text
from sqlalchemy.orm import DeclarativeBase

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out, on SQLite and PostgreSQL alike."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use an aware UTC datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


Snowflake = BigInteger  # Discord ids: 64-bit integers, never floats


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


def partial_index(name: str, *columns: str, where: str, unique: bool = False) -> Index:
    """An index over the rows matching ``where``, on SQLite and PostgreSQL alike. PostgreSQL's
    ``postgresql_where`` is added by ``add_postgresql_options`` when a PostgreSQL engine is made:
    naming it here would load SQLAlchemy's PostgreSQL dialect (2 MB) in every SQLite install."""
    index = Index(name, *columns, unique=unique, sqlite_where=text(where))
    index.info["where"] = where
    return index


def add_postgresql_options() -> None:
    """Give the partial indexes their PostgreSQL ``WHERE`` (DDL, migrations and their comparison)."""
    for table in Base.metadata.tables.values():
        for index in table.indexes:
            if "where" in index.info and "postgresql_where" not in index.dialect_kwargs:
                index.dialect_kwargs["postgresql_where"] = text(index.info["where"])
