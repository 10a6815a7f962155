"""Extensions, created unbound and bound to the app in create_app()."""

from flask_compress import Compress
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
compress = Compress()  # pages, CSS and script: a long sheet is ~100 KB, ~11 KB gzipped
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message = "Log in to see your card nights."
login_manager.login_message_category = "info"
