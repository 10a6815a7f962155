"""Errors an operator fixes, as one sentence: the exit statuses, the sentence for a
database that cannot be reached, and the command line's hook that prints them instead of
a traceback (installed by ``create_app`` outside the tests)."""

from __future__ import annotations

import sys
from types import TracebackType

from sqlalchemy import make_url
from sqlalchemy.exc import SQLAlchemyError


class StartRefused(Exception):
    """The app cannot start as configured; the message says what to do, in one sentence."""


#: Exit statuses (sysexits.h): a setting to fix (systemd does not restart on it), and a
#: service not there yet (it may come: systemd restarts).
EX_CONFIG = 78
EX_UNAVAILABLE = 69


def database_sentence(uri: str, exc: BaseException) -> str:
    try:
        shown = make_url(uri).render_as_string(hide_password=True)
    except Exception:
        shown = "the configured database"
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0][:200]
    return (
        f"Cannot reach the database at {shown} ({reason}): start it, or set "
        "SCOREKEEPER_SQLALCHEMY_DATABASE_URI to where it is."
    )


def report_operator_errors() -> None:
    """From here on, an error an operator fixes that nothing caught (on the command
    line) prints one sentence and exits, instead of a traceback; any other error is
    printed as before."""
    if getattr(sys.excepthook, "scorekeeper", False):
        return
    previous = sys.excepthook

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if isinstance(exc, StartRefused):
            _exit(str(exc), EX_CONFIG)
        if isinstance(exc, SQLAlchemyError) and _is_connection_error(exc):
            _exit(database_sentence(_configured_uri(), exc), EX_UNAVAILABLE)
        previous(kind, exc, tb)

    hook.scorekeeper = True  # type: ignore[attr-defined]
    sys.excepthook = hook


def _exit(sentence: str, status: int) -> None:
    """The sentence on standard error, and the status (an except hook cannot set it any
    other way: the interpreter would exit with 1)."""
    import os

    print(f"scorekeeper: {sentence}", file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(status)


def _is_connection_error(exc: SQLAlchemyError) -> bool:
    from sqlalchemy.exc import DBAPIError, OperationalError

    return isinstance(exc, OperationalError) or (
        isinstance(exc, DBAPIError) and exc.connection_invalidated
    )


def _configured_uri() -> str:
    from flask import current_app

    try:
        return str(current_app.config["SQLALCHEMY_DATABASE_URI"])
    except RuntimeError:  # outside the app: the environment's
        import os

        return os.environ.get("SCOREKEEPER_SQLALCHEMY_DATABASE_URI", "the configured database")
