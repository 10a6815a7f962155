"""The web app's blueprints."""

from __future__ import annotations

from flask import Blueprint, Flask, render_template

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    return render_template("home/index.html")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
