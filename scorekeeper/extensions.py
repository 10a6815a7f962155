"""Extensions, created unbound and bound to the app in create_app()."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import flask_compress
from flask_babel import Babel, lazy_gettext
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import Connection, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)

if TYPE_CHECKING:
    Model = Base  # what type checkers see of Flask-SQLAlchemy's db.Model
else:
    Model = db.Model
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()  # the app's words in the reader's language (web/locales.py)


def N_(text: str) -> str:
    """A sentence marked for the catalogs (scripts/i18n finds it), kept in English here and
    translated with ``gettext(text)`` where it is shown."""
    return text


class Compress(flask_compress.Compress):
    """Flask-Compress, passing by what it would not compress anyway: a 304 (no body) and
    a type it does not compress (a PDF). Their ``Vary: Accept-Encoding`` is added with
    every page's headers (``web.headers``)."""

    def after_request(self, response: Any) -> Any:
        if response.status_code == 304 or response.mimetype not in self.compress_mimetypes_set:
            return response
        return super().after_request(response)


compress = Compress()  # pages, CSS and script: a long sheet is ~100 KB, ~11 KB gzipped
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message = lazy_gettext("Log in to see your card nights.")
login_manager.localize_callback = str  # the message in the reader's language, flashed as text
login_manager.login_message_category = "info"


@contextmanager
def reading() -> Iterator[Connection]:
    """A pooled connection for reads outside the ORM session: the one-query answers (a
    304, a cached page or PDF, a live view's poll) open no session at all. It runs in
    autocommit (one statement is its own consistent read), so no BEGIN, COMMIT or
    ROLLBACK goes to the database: two round trips fewer than a transaction, and never a
    rollback, at which psycopg forgets every statement it prepared (a query asked again
    and again is then prepared on its connection and planned once, not on every request:
    the stamp query joins four tables, and planning it costs PostgreSQL more than running
    it). The connection goes back to the pool as it came (autocommit off)."""
    with db.engine.connect() as conn:
        yield conn.execution_options(isolation_level="AUTOCOMMIT")


def upsert(table: Table) -> Any:
    """An ``INSERT`` into ``table`` in the session database's dialect, which can say what
    happens ``on_conflict_do_nothing()`` or ``on_conflict_do_update(...)``: a row that
    would break a unique constraint (one another request wrote, or is writing:
    PostgreSQL waits for its commit) is passed over or updated, with no error and
    nothing aborted."""
    dialect = db.session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return insert(table)
