"""Grades, titles and rating lists as the federations write them, in order.

A grade is compared on its system's ladder (lowest first): "业余1级至5段" is the span of the
Go ladder from 1级 to 5段. The portal knows the ladders below; a Games' fixture adds or
replaces one (`grade_systems`), so a federation's new grade is a fixture line. Words are
read as people write them: 业余五段, 5段 and 业余5段 are one grade; 初段 is 1段.

Pure: no Flask, no database."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_NUMERALS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _number(text: str) -> int:
    """一 .. 二十五 as an integer."""
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_NUMERALS.get(tens, 1) if tens else 1) * 10 + (_NUMERALS[ones] if ones else 0)
    return _NUMERALS[text]


def key(word: str) -> str:
    """A grade's words reduced to what tells it apart: 业余五段 -> 5段, 初段 -> 1段."""
    text = re.sub(r"\s+", "", word or "").replace("业余", "")
    text = text.replace("初段", "1段")
    return re.sub(r"[零一二两三四五六七八九十]+", lambda m: str(_number(m.group())), text)


@dataclass(frozen=True)
class GradeSystem:
    code: str
    name: tuple[str, str]
    ladder: tuple[str, ...]  # lowest first, as the federation writes them
    aliases: dict[str, str] = field(default_factory=dict)  # another way of writing -> a ladder word
    english: tuple[str, ...] = ()  # the ladder in English, rung for rung (none: the Chinese words)

    def rank(self, word: str | None) -> int | None:
        """The grade's place on the ladder (0 = lowest), None when the system has no such grade."""
        if not word:
            return None
        wanted = key(self.aliases.get(word.strip(), word))
        for i, grade in enumerate(self.ladder):
            if key(grade) == wanted:
                return i
        for alias, grade in self.aliases.items():
            if key(alias) == wanted:
                return self.rank(grade)
        return None

    def word(self, word: str, lang: str = "zh") -> str:
        """The grade as the ladder writes it (业余五段 -> 业余5段; in English "amateur 5 dan")."""
        rank = self.rank(word)
        if rank is None:
            return word
        return self.english[rank] if lang == "en" and len(self.english) == len(self.ladder) else self.ladder[rank]


def _go_ladder() -> tuple[str, ...]:
    return tuple(f"{n}级" for n in range(25, 0, -1)) + tuple(f"业余{n}段" for n in range(1, 9))


def _go_english() -> tuple[str, ...]:
    return tuple(f"{n} kyu" for n in range(25, 0, -1)) + tuple(f"amateur {n} dan" for n in range(1, 9))


BUILTIN_SYSTEMS = {
    # 中国围棋协会《中国围棋业余段级位制》: 25级 up to 1级, then 业余1段 to 业余8段.
    "cwa": GradeSystem("cwa", ("中国围棋协会业余段级位", "Chinese Weiqi Association amateur grades"), _go_ladder(),
                       english=_go_english()),
    # 中国象棋协会 等级称号.
    "cxa": GradeSystem("cxa", ("中国象棋协会等级称号", "Chinese Xiangqi Association titles"),
                       ("三级棋士", "二级棋士", "一级棋士", "象棋大师", "象棋特级大师"),
                       {"大师": "象棋大师", "特级大师": "象棋特级大师", "国家大师": "象棋大师"},
                       ("third-class player", "second-class player", "first-class player", "Xiangqi Master",
                        "Xiangqi Grandmaster")),
    # 中国国际象棋协会 等级称号 (domestic), below the FIDE titles it recognises.
    "cca": GradeSystem("cca", ("中国国际象棋协会等级称号", "Chinese Chess Association titles"),
                       ("三级棋士", "二级棋士", "一级棋士", "候补大师", "国家大师", "国际棋联大师", "国际大师", "特级大师"),
                       {"CM": "候补大师", "FM": "国际棋联大师", "IM": "国际大师", "GM": "特级大师"},
                       ("third-class player", "second-class player", "first-class player", "candidate master",
                        "national master", "FIDE master", "international master", "grandmaster")),
    # 国家体育总局《运动员技术等级标准》: the same ladder in every sport.
    "athlete": GradeSystem("athlete", ("运动员技术等级", "athletes' technical grades"),
                           ("三级运动员", "二级运动员", "一级运动员", "运动健将", "国际级运动健将"),
                           {"健将": "运动健将"},
                           ("third-class athlete", "second-class athlete", "first-class athlete", "Master of Sport",
                            "International Master of Sport")),
}

BUILTIN_RATING_LISTS = {
    "fide": ("国际棋联等级分", "FIDE rating"),
    "cca": ("中国国际象棋协会等级分", "Chinese Chess Association rating"),
    "cxa": ("中国象棋协会等级分", "Chinese Xiangqi Association rating"),
    "cwa": ("中国围棋协会等级分", "Chinese Weiqi Association rating"),
}


def grade_systems(definition) -> dict[str, GradeSystem]:
    """The portal's grade systems with those the Games' fixture adds or replaces."""
    out = dict(BUILTIN_SYSTEMS)
    for s in (definition.grade_systems if definition is not None else []):
        out[s.code] = GradeSystem(s.code, (s.name.zh, s.name.en), tuple(s.ladder), dict(s.aliases), tuple(s.ladder_en))
    return out


def rating_lists(definition) -> dict[str, tuple[str, str]]:
    out = dict(BUILTIN_RATING_LISTS)
    for k in (definition.rating_lists if definition is not None else []):
        out[k.code] = (k.name.zh, k.name.en)
    return out


# 行政区划代码 of the provinces (GB/T 2260), the first two digits of every code below them.
PROVINCES = {
    "11": ("北京市", "Beijing"), "12": ("天津市", "Tianjin"), "13": ("河北省", "Hebei"), "14": ("山西省", "Shanxi"),
    "15": ("内蒙古自治区", "Inner Mongolia"), "21": ("辽宁省", "Liaoning"), "22": ("吉林省", "Jilin"),
    "23": ("黑龙江省", "Heilongjiang"), "31": ("上海市", "Shanghai"), "32": ("江苏省", "Jiangsu"),
    "33": ("浙江省", "Zhejiang"), "34": ("安徽省", "Anhui"), "35": ("福建省", "Fujian"), "36": ("江西省", "Jiangxi"),
    "37": ("山东省", "Shandong"), "41": ("河南省", "Henan"), "42": ("湖北省", "Hubei"), "43": ("湖南省", "Hunan"),
    "44": ("广东省", "Guangdong"), "45": ("广西壮族自治区", "Guangxi"), "46": ("海南省", "Hainan"),
    "50": ("重庆市", "Chongqing"), "51": ("四川省", "Sichuan"), "52": ("贵州省", "Guizhou"), "53": ("云南省", "Yunnan"),
    "54": ("西藏自治区", "Tibet"), "61": ("陕西省", "Shaanxi"), "62": ("甘肃省", "Gansu"), "63": ("青海省", "Qinghai"),
    "64": ("宁夏回族自治区", "Ningxia"), "65": ("新疆维吾尔自治区", "Xinjiang"), "71": ("台湾省", "Taiwan"),
    "81": ("香港特别行政区", "Hong Kong"), "82": ("澳门特别行政区", "Macao"),
}


def region_name(code: str) -> tuple[str, str]:
    """A division code in words: the province's name (with the code itself below province level)."""
    province = PROVINCES.get(code[:2])
    if province is None:
        return code, code
    return province if _prefix(code) == code[:2] else (f"{province[0]}（{code}）", f"{province[1]} ({code})")


def _prefix(code: str) -> str:
    """The digits that matter: 620000 -> 62, 620100 -> 6201 (never 500000 -> 5)."""
    while len(code) > 2 and code.endswith("00"):
        code = code[:-2]
    return code


def in_region(code: str | None, regions: list[str]) -> bool:
    """Whether division code `code` lies inside one of `regions` (620000 holds 620102)."""
    if not code:
        return False
    return any(code.startswith(_prefix(r)) for r in regions)


NATIONALITIES = {"CHN": ("中国", "China")}
