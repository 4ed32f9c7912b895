"""Rules that read the portal's history and find none (a trap a committee sets alone): each
reads right in the read-back, yet against what the portal holds it does nothing, or shuts
the event. A qualified-only event no competition qualifies anyone for and no list names;
earlier placers barred by a series the portal has no earlier results of, or results whose
places were never carried into the register; a bonus for last edition's place where the
last edition has no results; a rating band on a list never imported (only what leaders type
is checked); a band of federation points that no Games awards and nobody holds. Six queries
at most, whatever the Games; shown beside the rules."""
from __future__ import annotations

from sqlalchemy import func, select

from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of
from ..register.models import PlayerPlace, PlayerPoints, Qualification, RatingList
from ..results.models import EventResult
from ..rules.awards import FederationPoints, QualifiesAward, of_kind
from ..rules.definition import (
    GamesDefinition,
    PlacedBeforeRule,
    PointsRule,
    QualifiedRule,
    QuotaRule,
    RatingRule,
    TeamMakeupRule,
)
from ..rules.grades import rating_lists
from ..rules.readback import event_names


def register_traps(games: Games, definition: GamesDefinition) -> list[tuple[str, str]]:
    """(zh, en) of each rule that the portal's history leaves doing nothing, or shutting an event."""
    qualified = definition.rules_of(QualifiedRule)
    placed = definition.rules_of(PlacedBeforeRule)
    bonus = [r for r in definition.rules_of(QuotaRule) + definition.rules_of(TeamMakeupRule) if r.placed_bonus]
    out: list[tuple[str, str]] = _rating_traps(definition)
    points = definition.rules_of(PointsRule)
    if not (qualified or placed or bonus or points):
        return out
    series = {s for r in placed for s in r.series} | {games.series}
    others = list(db.session.scalars(select(Games).where(Games.id != games.id)))
    out += _points_traps(definition, points, others)
    earlier = {g.slug: g for g in others if g.series in series
               and not (g.series == games.series and g.edition >= games.edition)}
    with_results = set(db.session.scalars(select(EventResult.games_id).where(
        EventResult.games_id.in_([g.id for g in earlier.values()] or [-1])).distinct()))
    carried = set(db.session.scalars(select(PlayerPlace.games_slug).where(
        PlayerPlace.games_slug.in_(list(earlier) or ["-"])).distinct()))
    out += _qualified_traps(games, definition, qualified, others)
    for r in placed:
        ev = event_names(definition, r.events)
        counted = sorted((g for g in earlier.values() if g.series in r.series and (r.since is None or g.edition >= r.since)),
                         key=lambda g: g.edition)
        played = [g for g in counted if g.id in with_results]
        if not played:
            # The earlier Games by name where the portal has them; else the series as typed.
            which = (("、".join(g.name_zh for g in counted), ", ".join(g.name_en for g in counted)) if counted else
                     (f"系列“{'、'.join(r.series)}”的往届比赛", f"earlier Games of the series {', '.join(r.series)}"))
            out.append((f"{ev[0]}：“{r.name.zh}不得报名”——系统中还没有{which[0]}的成绩，"
                        f"这条规则现在拦不住任何人。请先录入往届成绩。",
                        f"{ev[1]}: “{r.name.en} may not enter”: the portal has no results of {which[1]} yet, "
                        f"so the rule keeps no one out. Enter the earlier results first."))
            continue
        missing = [g for g in played if g.slug not in carried]
        if missing:
            names = ("、".join(g.name_zh for g in missing), ", ".join(g.name_en for g in missing))
            out.append((f"{ev[0]}：{names[0]}的成绩还没有记入棋手档案的名次，“{r.name.zh}”不会拦住这些比赛的获奖者。"
                        f"请系统管理员运行 flask results carry（或重新录入这些成绩）。",
                        f"{ev[1]}: the places of {names[1]} are not in the player register yet, so "
                        f"“{r.name.en}” will not keep their placers out. Ask the administrator to run "
                        f"flask results carry (or enter those results again)."))
    if bonus:
        last = max((g for g in earlier.values() if g.series == games.series), key=lambda g: g.edition, default=None)
        if last is None or last.id not in with_results:
            ev = event_names(definition, sorted({e for r in bonus for e in r.events}))
            which = (f"上届（{last.name_zh}）", f"the last edition ({last.name_en})") if last else ("上届", "the last edition")
            out.append((f"{ev[0]}：上届名次靠前的单位可多报——{which[0]}在系统中没有成绩，目前没有单位能多报。",
                        f"{ev[1]}: more for units placed last edition, but {which[1]} has no results in the "
                        f"portal, so no unit gets more for now."))
    return out


def _qualified_traps(games: Games, definition: GamesDefinition, rules: list[QualifiedRule], others: list[Games]):
    """A qualified-only event with nobody qualified, and no competition that would qualify anyone."""
    if not rules:
        return []
    targets = {games.slug, games.series}
    held = db.session.execute(select(Qualification.from_games, Qualification.from_series, Qualification.event_code,
                                     func.count(Qualification.id))
                              .where(Qualification.target.in_(targets), Qualification.withdrawn_at.is_(None))
                              .group_by(Qualification.from_games, Qualification.from_series, Qualification.event_code)).all()
    qualifiers = [g for g in others if any(a.to in targets for a in of_kind(definition_of(g).awards, QualifiesAward))]
    out = []
    for r in rules:
        by = set(r.by)
        listed = any(event is None or not by or from_games in by or from_series in by for from_games, from_series, event, _n in held)
        coming = [g for g in qualifiers if not by or g.slug in by or g.series in by]
        if listed or coming:
            continue
        ev = event_names(definition, r.events)
        name = (r.name.zh, r.name.en) if r.name else ("资格赛", "the qualifier")
        out.append((f"{ev[0]}只限{name[0]}晋级的选手报名，但系统中没有人获得晋级资格，也没有哪项比赛的奖励会产生晋级名单："
                    f"在录入资格赛成绩或在“棋手档案”中手工加入晋级选手之前，没有人能报这个项目。",
                    f"{ev[1]} is for players qualified by {name[1]} only, yet nobody holds a qualification and no "
                    f"competition in the portal awards one: until a qualifier's results are entered or players are "
                    f"added by hand under the player register, nobody can enter it."))
    return out


def _rating_traps(definition: GamesDefinition) -> list[tuple[str, str]]:
    """A band on a national list of which no edition (of the rule's day or earlier) is
    imported: only the ratings leaders type themselves are checked. FIDE's are typed."""
    rules = [r for r in definition.rules_of(RatingRule) if r.list != "fide"]
    if not rules:
        return []
    imported: dict[str, list] = {}
    for code, published in db.session.execute(select(RatingList.list_code, RatingList.published_on)
                                              .where(RatingList.list_code.in_(sorted({r.list for r in rules})))):
        imported.setdefault(code, []).append(published)
    names = rating_lists(definition)
    out = []
    for r in rules:
        if any(r.list_on is None or day <= r.list_on for day in imported.get(r.list, [])):
            continue
        ev = event_names(definition, r.events)
        name = names.get(r.list, (r.list, r.list))
        edition = (f"（{r.list_on.year}年{r.list_on.month}月{r.list_on.day}日或以前公布的）", f" (of {r.list_on} or earlier)") \
            if r.list_on else ("", "")
        out.append((f"{ev[0]}按{name[0]}限报，但系统中还没有导入{name[0]}{edition[0]}：在“棋手档案”中导入之前，"
                    f"只能核对领队自己填写的等级分。",
                    f"{ev[1]} is limited by the {name[1]}, yet no edition of it{edition[1]} is imported: until it is, "
                    f"under the player register, only the ratings leaders type themselves are checked."))
    return out


def _points_traps(definition: GamesDefinition, rules: list[PointsRule], others: list[Games]) -> list[tuple[str, str]]:
    """Points at least some amount that no Games awards and the register holds of nobody:
    nobody can enter the event."""
    wanted = [r for r in rules if r.min_points is not None]
    if not wanted:
        return []
    held = set(db.session.scalars(select(PlayerPoints.points).where(
        PlayerPoints.points.in_(sorted({r.points for r in wanted}))).distinct()))
    awarded = {a.points for g in [*others] for a in of_kind(definition_of(g).awards, FederationPoints)}
    awarded |= {a.points for a in of_kind(definition.awards, FederationPoints)}
    out = []
    for r in wanted:
        if r.points in held or r.points in awarded:
            continue
        ev = event_names(definition, r.events)
        out.append((f"{ev[0]}须{r.name.zh}{r.min_points.normalize():f}分以上，但棋手档案中没有人有这种积分（代码“{r.points}”），"
                    f"也没有哪项比赛的奖励会记录它：没有人能报这个项目。请核对积分种类的代码。",
                    f"{ev[1]} needs {r.min_points.normalize():f} {r.name.en} or more, yet nobody in the player register holds "
                    f"points of the kind {r.points!r} and no competition awards them: nobody can enter it. Check the code."))
    return out
