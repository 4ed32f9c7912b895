"""Flask extensions, created once and bound in the application factory."""
from flask import current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_mailman import Mail
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Every constraint gets a predictable name, so that migrations can drop and alter them.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
mail = Mail()
# Storage (Redis where REDIS_URL is set, else memory) is chosen in the app factory.
limiter = Limiter(key_func=get_remote_address, default_limits=[])


def rate_limit(setting: str):
    """A limit read from the app's config (RATE_LIMIT_LOGIN...) at request time."""
    return limiter.limit(lambda: current_app.config[setting], methods=["POST"])


def api_limit(fn):
    """RATE_LIMIT_API per address, for every method of every API route together: reads
    cost as much as writes (a full document is the dearest answer)."""
    return limiter.shared_limit(lambda: current_app.config["RATE_LIMIT_API"], scope="api")(fn)


def account_and_address() -> str:
    """A login's key: the address and the name tried, so that one guesser is held up and a
    hotel of leaders behind one address is not (that address has its own, higher ceiling)."""
    name = (request.form.get("username") or "").strip().lower()[:80]
    return f"{get_remote_address()}|{name}"


def login_limits(fn):
    """RATE_LIMIT_LOGIN per address and account name, RATE_LIMIT_LOGIN_ADDRESS per address."""
    from flask import current_app
    fn = limiter.limit(lambda: current_app.config["RATE_LIMIT_LOGIN_ADDRESS"], methods=["POST"])(fn)
    return limiter.limit(lambda: current_app.config["RATE_LIMIT_LOGIN"], methods=["POST"],
                         key_func=account_and_address)(fn)
