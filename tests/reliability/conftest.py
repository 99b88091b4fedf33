"""Fixtures shared by the reliability sweeps."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


class ErrorLog(logging.Handler):
    """Collects ERROR records: an unhandled error in the log fails the test."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def error_log() -> Iterator[ErrorLog]:
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)
