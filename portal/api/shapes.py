"""The API's shapes (pydantic models, from which spectree makes the OpenAPI document) and
the spec object every resource module validates its routes with."""
from __future__ import annotations

from pydantic import BaseModel, Field
from spectree import SecurityScheme, SpecTree
from spectree.models import SecureType, SecuritySchemeData

spec = SpecTree("flask", title="智运报名 Mind-sports entries API", version="v1", mode="strict",
                security_schemes=[SecurityScheme(name="token", data=SecuritySchemeData(
                    type=SecureType.HTTP, scheme="bearer", description="an API token from the account page"))],
                security={"token": []}, annotations=True)
PER_PAGE = 50


class Text(BaseModel):
    zh: str
    en: str


class GamesItem(BaseModel):
    slug: str
    name: Text
    status: str = Field(description="draft (only its staff see it) or published")
    start: str
    end: str
    stages: dict[str, str | None] = Field(description="each stage's closing instant, ISO 8601 with its offset")


class GamesList(BaseModel):
    games: list[GamesItem]


class GamesDetail(GamesItem):
    definition: dict
    read_back: list[dict]


class DelegationItem(BaseModel):
    id: int
    games: str
    unit: Text
    status: str
    version: int
    people: int
    athletes: int
    events: int
    errors: int
    warnings: int


class DelegationPage(BaseModel):
    delegations: list[DelegationItem]
    page: int
    per_page: int
    total: int


class DelegationDetail(DelegationItem):
    violations: list[dict]


class Report(BaseModel):
    ok: bool
    status: str | None
    errors: int
    warnings: int
    violations: list[dict]


class ListQuery(BaseModel):
    games: str | None = Field(default=None, description="a Games' slug")
    page: int = Field(default=1, ge=1, le=10_000)
    per_page: int = Field(default=PER_PAGE, ge=1, le=100)


class Problem(BaseModel):
    type: str
    title: str
    status: int
    detail: str | None = None
    code: str | None = None


class CheckQuery(BaseModel):
    at: str | None = Field(default=None, description="the instant to judge at, ISO 8601 (default: now)")


class CheckReport(BaseModel):
    games: str | None
    unit: dict | str | None
    ok: bool
    errors: int
    warnings: int
    violations: list[dict] = Field(description="each with its code (rules.md), severity, subjects and zh/en message")
