"""A start that cannot work ends with one sentence saying what to do, never a traceback.

``deploy/gunicorn.conf.py`` runs :func:`start_problem` before gunicorn starts a worker
(``on_starting``) and exits with it; the ``flask`` command line (``flask db upgrade``
and the rest) gets the same sentence for the errors an operator fixes (a database that
cannot be reached, a placeholder secret key) from ``operator_errors``."""

from __future__ import annotations

import sys

from sqlalchemy.exc import SQLAlchemyError

from .operator_errors import EX_CONFIG, EX_UNAVAILABLE, StartRefused, database_sentence


class Problem(Exception):
    def __init__(self, sentence: str, status: int) -> None:
        super().__init__(sentence)
        self.status = status


def check_start() -> None:
    """Raise :class:`Problem` when the app, as the environment configures it, cannot
    serve: a secret key missing or the placeholder, no database, a schema not at this
    release's head migration."""
    from .app import create_app
    from .services import health

    try:
        app = create_app()
    except StartRefused as exc:
        raise Problem(str(exc), EX_CONFIG) from None
    if app.config.get("SECRET_KEY_GENERATED"):
        raise Problem(
            "SCOREKEEPER_SECRET_KEY is not set: set it to the output of `python3 -c 'import "
            "secrets; print(secrets.token_hex(32))'`, the same on every instance.",
            EX_CONFIG,
        )
    with app.app_context():
        uri = str(app.config["SQLALCHEMY_DATABASE_URI"])
        try:
            state = health.schema()
        except SQLAlchemyError as exc:
            raise Problem(database_sentence(uri, exc), EX_UNAVAILABLE) from None
        finally:
            from .extensions import db

            db.engine.dispose()
    if state.state != "at_head":
        raise Problem(state.sentence(), EX_CONFIG)


def start_problem() -> tuple[str, int] | None:
    try:
        check_start()
    except Problem as exc:
        return str(exc), exc.status
    return None


def wait_healthy(url: str, seconds: float = 30) -> str | None:
    """None once ``url`` (an instance's /healthz) answers 200, else why not."""
    import time
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + seconds
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return None
        except urllib.error.HTTPError as exc:
            last = f"{exc.code} {exc.read(300).decode(errors='replace')}"
        except OSError as exc:
            last = str(exc)
        time.sleep(0.5)
    return f"{url} did not answer 200 in {seconds:.0f} s ({last})"


if __name__ == "__main__":  # scorekeeper@.service: ExecStartPost
    import os

    if sys.argv[1:] == ["--wait-healthy"]:
        bind = os.environ.get("SCOREKEEPER_BIND", "127.0.0.1:8001")
        failed = wait_healthy(f"http://{bind}/healthz")
        if failed:
            print(f"scorekeeper: {failed}", file=sys.stderr)
            sys.exit(1)
    else:
        found = start_problem()
        if found:
            print(f"scorekeeper: {found[0]}", file=sys.stderr)
            sys.exit(found[1])
