"""The refusal a request to the web table meets: what is wrong, with the HTTP status that says why."""
from __future__ import annotations


class TableError(Exception):
    """A request a table refuses, with the HTTP status that says why (400, 403, 404, 409)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message
