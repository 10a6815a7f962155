"""The pieces the browser tests share: the live server, Chromium's launch options, the
phone a context pretends to be."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, expect
from werkzeug.serving import make_server

from scorekeeper.extensions import db
from tests.conftest import make_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# A phone in one hand at the card table.
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-US",
}
TIMEOUT_MS = 10_000  # generous: two cores may be busy with the rest of the suite
expect.set_options(timeout=TIMEOUT_MS)


# ------------------------------------------------------------------ live server ---
class LiveServer:
    """The app on 127.0.0.1:<free port>, served by werkzeug in a daemon thread."""

    def __init__(self, db_path: Path) -> None:
        self.app = make_app(f"sqlite:///{db_path}")
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)
        self.server.server_close()
        with self.app.app_context():
            db.session.remove()
            db.engine.dispose()


def start_server(template: Path, directory: Path) -> LiveServer:
    path = directory / "browser.sqlite3"
    shutil.copyfile(template, path)
    return LiveServer(path)


def open_context(browser: Browser, **options: Any) -> BrowserContext:
    context = browser.new_context(**{**PHONE, **options})
    context.set_default_timeout(TIMEOUT_MS)
    return context
