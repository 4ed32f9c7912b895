"""Every model, imported in one place so that Alembic sees all tables."""
from .accounts.models import *  # noqa: F403
from .accounts.throttle import LoginThrottle  # noqa: F401
from .api.models import ApiToken  # noqa: F401
from .audit.models import *  # noqa: F403
from .delegations.files import UploadedFile  # noqa: F401
from .delegations.identity_checks import IdentityCheck  # noqa: F401
from .delegations.models import *  # noqa: F403
from .file_store import StoredChunk, StoredFile  # noqa: F401
from .games.models import *  # noqa: F403
from .jobs.models import Job  # noqa: F401
from .money.models import *  # noqa: F403
from .notify.models import OutboxMessage, Webhook  # noqa: F401
from .register.models import *  # noqa: F403
from .results.models import EventResult, OutsideMedal, RoundAbsence  # noqa: F401
from .venue.models import CheckIn  # noqa: F401
from .workflow.models import *  # noqa: F403
