"""Who uses the portal, defined once (issue 40, 3): the four roles of an account and the
groups the routes and services admit. A Role is a str, so stored rows and the CHECK
constraint read the same words. Below the areas: imports none."""
from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    LEADER = "leader"          # 领队: his delegation only
    ORGANISER = "organiser"    # 组委会: the Games he is staff of
    ACCOUNTANT = "accountant"  # 财务: the money of the Games he is staff of
    ADMIN = "admin"            # every Games, and the accounts


ROLES: tuple[Role, ...] = tuple(Role)
ORGANISERS: tuple[Role, ...] = (Role.ORGANISER, Role.ADMIN)  # run a Games: approve, set up, results
STAFF: tuple[Role, ...] = (Role.ORGANISER, Role.ADMIN, Role.ACCOUNTANT)  # the committee's people
SCOPED_STAFF: tuple[Role, ...] = (Role.ORGANISER, Role.ACCOUNTANT)  # staff of named Games only
