"""Every model, imported in one place so that Alembic sees all tables."""
from .delegations.models import *  # noqa: F401,F403
from .games.models import *  # noqa: F401,F403
