"""Checks shared by the hostile-input and route-guard tests.

``audit``: what the content security policy forbids, found in a page by parsing it (not by
regex: escaped text such as ``&lt;img onerror=...&gt;`` inside an attribute is harmless).
``snapshot``: every row of every table, to show that a refused request changed nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from typing import Any

from flask import Flask
from sqlalchemy import select, text

from scorekeeper.extensions import db


class _Audit(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        names = {name for name, _ in attrs}
        for name in sorted(names):
            if name.startswith("on"):
                self.problems.append(f"<{tag}> has an event handler attribute {name}=")
        if "style" in names:
            self.problems.append(f"<{tag}> has a style= attribute")
        if tag == "style":
            self.problems.append("a <style> block")
        # The page's words for its scripts (web/script_words.py): JSON, data never run.
        data_block = tag == "script" and ("type", "application/json") in attrs
        if tag == "script" and not data_block:
            self._in_script = True
            if "src" not in names:
                self.problems.append("an inline <script> block")
        for name, value in attrs:
            if name in {"href", "src", "action"} and (value or "").lower().startswith(
                "javascript:"
            ):
                self.problems.append(f"<{tag} {name}> is a javascript: URL")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.problems.append("a <script> with inline code")


def audit(html: str) -> tuple[list[str], list[str]]:
    """(problems, tag names in order) of a page."""
    parser = _Audit()
    parser.feed(html)
    parser.close()
    return parser.problems, parser.tags


def snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, except failed log-ins (counted on purpose: the limit)."""
    with app.app_context():
        return {
            table.name: [
                tuple(row)
                for row in db.session.execute(
                    select(table).order_by(*table.primary_key.columns)
                ).all()
            ]
            for table in db.metadata.sorted_tables
            if table.name != "login_attempts"
        }


def run_sql(sql: str) -> None:
    """Statements separated by ``;``, in one transaction (migration tests' data)."""
    with db.engine.begin() as conn:
        for statement in filter(str.strip, sql.split(";")):
            conn.execute(text(statement))


@contextmanager
def schema_at(app: Flask, revision: str) -> Iterator[None]:
    """The database migrated down to ``revision`` for the block (which puts data in and
    migrates up), and back to the whole schema afterwards, whatever happened."""
    from flask_migrate import downgrade, upgrade

    from tests.conftest import MIGRATIONS

    with app.app_context():
        try:
            downgrade(directory=MIGRATIONS, revision=revision)
            yield
        finally:
            upgrade(directory=MIGRATIONS)  # the next test needs the whole schema
