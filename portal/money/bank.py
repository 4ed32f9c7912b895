"""Bank statements as Chinese banks export them, read with pandas, and matched to
delegations without a Python loop per line.

A statement has a few title rows (account, period...) above the table; the header row is
found by its column names. Columns: a date (交易日期, 记账日期, 交易日, 交易时间...), a credit
amount (收入金额, 贷方发生额, 贷方金额...) or one signed amount with perhaps a debit/credit
flag (借贷标志, 收/支), the payer (对方户名, 收(付)方名称, 交易对方...) and the memos (摘要,
附言, 用途, 备注, 商品...). The layouts of ICBC, BOC, CMB, ABC, CCB, BOCOM, CIB, the Postal
Savings Bank, Alipay and WeChat Pay exports are read as they come (tests/test_bank_layouts.py).
"""
from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

import pandas as pd

from ..spreadsheet_formats import SpreadsheetError, kind_of, sheets
from ..text import InputProblems, Text
from ..upload_checks import UploadRefused, check_archive

DATE = ("交易日期", "记账日期", "交易日", "记账日", "交易时间", "入账日期", "交易创建时间", "付款时间", "日期", "date")
CREDIT = ("收入金额", "贷方发生额", "贷方金额", "收入", "贷方", "存入金额", "credit")
PAYER = ("对方户名", "对方账户名称", "付款人户名", "付款人名称", "对方名称", "对方单位", "收(付)方名称", "收/付方名称",
         "收付方名称", "交易对方", "对方账户名", "对手信息", "对手名称", "payer")
MEMO = ("附言", "摘要", "用途", "备注", "交易附言", "memo")
# Every column a payer writes in (a transfer's 附言, a payment's 商品 or 备注): read together
# for the payment reference, shown together to the accountant.
MEMO_ALL = MEMO + ("交易用途", "交易摘要", "交易备注", "商品名称", "商品说明", "商品", "交易附言", "用途/附言")
# Layouts with one signed amount column and, perhaps, a debit/credit flag.
AMOUNT = ("交易金额", "发生额", "金额", "amount")
DIRECTION = ("借贷标志", "借贷方向", "收支标志", "收/支", "收支", "借贷", "方向")
# The bank's own number for a transaction: the same payment in two exports carries it.
BANK_REF = ("交易流水号", "流水号", "交易参考号", "业务流水号", "凭证号", "交易序号", "银行流水号", "交易单号", "交易订单号",
            "交易号", "reference", "serial")
CREDIT_MARKS = ("贷", "收", "入", "C", "CR", "+")
MAX_HEADER_SCAN = 30
EMPTY = ("-", "--", "—", "/", "nan", "None")  # what exports write in an empty cell
# Whose export a statement is, by the words of its title rows or file name; the payment
# apps also by their columns.
LAYOUTS = (
    (("工商银行", "ICBC", "明细查询文件下载"), ("中国工商银行", "ICBC")), (("农业银行", "ABC", "中国农业"), ("中国农业银行", "ABC")),
    (("中国银行", "BOC"), ("中国银行", "Bank of China")), (("建设银行", "CCB"), ("中国建设银行", "CCB")),
    (("招商银行", "CMB"), ("招商银行", "China Merchants Bank")), (("交通银行", "BOCOM"), ("交通银行", "BOCOM")),
    (("兴业银行", "CIB"), ("兴业银行", "Industrial Bank")), (("邮政储蓄", "邮储", "PSBC"), ("中国邮政储蓄银行", "PSBC")),
    (("支付宝", "alipay"), ("支付宝", "Alipay")), (("微信支付", "wechat"), ("微信支付", "WeChat Pay")),
)
FIELD_NAMES = {"date": ("日期", "date"), "credit": ("收入金额", "credit amount"), "amount": ("金额", "amount"),
               "payer": ("付款人", "payer"), "memo": ("附言/摘要", "memo"), "bank_ref": ("流水号", "bank reference"),
               "direction": ("借贷标志", "debit/credit flag")}


class StatementError(InputProblems):
    """A statement that cannot be read at all: why, (zh, en)."""

    def __init__(self, problem: tuple[str, str]):
        self.problem = problem
        super().__init__([("", Text(*problem))], problem[1])


@dataclass
class Statement:
    lines: pd.DataFrame  # row, booked_on, amount (str, 2 dp), payer, memo, bank_ref, fingerprint
    bad_rows: list[tuple[int, str, str]] = field(default_factory=list)  # (row, zh, en)
    columns: dict = field(default_factory=dict)  # field -> the label of the column read for it
    layout: tuple[str, str] = ("通用格式", "generic layout")  # whose export it was read as (zh, en)

    def found_text(self, en: bool) -> str:
        """The layout and the columns read, in words: what the accountant checks first."""
        if en:
            return f"{self.layout[1]} ({'; '.join(f'{FIELD_NAMES[k][1]}: {v}' for k, v in self.columns.items())})"
        return f"{self.layout[0]}（{'；'.join(f'{FIELD_NAMES[k][0]}：{v}' for k, v in self.columns.items())}）"


def _layout(title_text: str, filename: str, labels: list[str]) -> tuple[str, str]:
    text = (title_text + " " + filename).lower()
    for words, name in LAYOUTS:
        if any(w.lower() in text for w in words):
            return name
    joined = "".join(labels)
    if "交易创建时间" in joined or ("交易对方" in joined and "商品名称" in joined):
        return ("支付宝", "Alipay")
    if "交易对方" in joined and "收/支" in joined and "商品" in joined:
        return ("微信支付", "WeChat Pay")
    return ("通用格式", "generic layout")


def _read_raw(data: bytes, filename: str) -> pd.DataFrame:
    name = filename.lower()
    if not data.strip():
        raise StatementError(("文件为空", "the file is empty"))
    kind = kind_of(data, filename)
    if kind in ("xls", "ods"):  # CCB and others export .xls; LibreOffice saves .ods
        try:
            frames = sheets(data, kind, as_text=True)
        except SpreadsheetError as exc:
            raise StatementError((exc.zh, exc.en)) from None
        return next(iter(frames.values())) if frames else pd.DataFrame()
    if kind is None and (b"\x00" in data[:4096] or data[:5] == b"%PDF-"):
        raise StatementError(("不是 Excel（.xlsx）或 CSV 文件（.xls、.ods 也可以）：请从网银导出 Excel 或 CSV 格式的流水",
                              "not an Excel (.xlsx) or CSV file (.xls and .ods are read too): export the statement "
                              "as Excel or CSV"))
    if name.endswith((".xlsx", ".xlsm")) or data[:2] == b"PK":
        try:
            check_archive(data, required="xl/workbook.xml")
        except UploadRefused as exc:
            raise StatementError(("文件不是有效的 Excel 文件：" + exc.zh, exc.en)) from None
        try:
            return pd.read_excel(io.BytesIO(data), header=None, dtype=str, engine="openpyxl")
        except Exception:  # a damaged or hostile workbook (openpyxl parses with defusedxml)
            raise StatementError(("无法读取这个 Excel 文件（可能已损坏）",
                                  "the workbook cannot be read (damaged?)")) from None
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise StatementError(("文件编码无法识别（应为 UTF-8 或 GBK）", "unknown text encoding (expected UTF-8 or GBK)"))
    # Tab-separated, unless the tabs only pad comma-separated fields (ICBC writes "值\t,").
    tabs = text.count("\t") - text.count("\t,") - text.count(",\t")
    sep = "\t" if tabs > text.count(",") else ","
    # Title rows above the table have fewer cells than the table: read rows as they are
    # and pad them, rather than let a CSV parser guess the width from the first line.
    rows = list(csv.reader(io.StringIO(text), delimiter=sep))
    if not rows:
        raise StatementError(("文件是空的", "the file is empty"))
    width = max(len(r) for r in rows)
    return pd.DataFrame([r + [""] * (width - len(r)) for r in rows], dtype=str)


def _label(text: str) -> str:
    """A column label as compared: no spaces, half-width brackets, lower case."""
    return text.replace(" ", "").replace("\u3000", "").replace("（", "(").replace("）", ")").lower()


def _find_all(labels: list[str], names: tuple[str, ...], taken: set[int]) -> list[int]:
    """Every column whose label is or contains one of the names, in the table's order."""
    keys = [n.lower().replace("（", "(").replace("）", ")") for n in names]
    return [i for i, label in enumerate(labels) if i not in taken and label.strip()
            and any(k == _label(label) or k in _label(label) for k in keys)]


def _find(labels: list[str], names: tuple[str, ...]) -> int | None:
    keys = [n.lower().replace("（", "(").replace("）", ")") for n in names]
    for key in keys:
        for i, label in enumerate(labels):
            if _label(label) == key:
                return i
    for key in keys:  # a label that contains the name, e.g. "贷方发生额(元)"
        for i, label in enumerate(labels):
            if key in _label(label):
                return i
    return None


def read_statement(data: bytes, filename: str) -> Statement:
    raw = _read_raw(data, filename).fillna("")
    header_at, cols = None, {}
    for r in range(min(MAX_HEADER_SCAN, len(raw))):
        labels = [str(v).strip() for v in raw.iloc[r].tolist()]
        found = {k: _find(labels, names) for k, names in (("date", DATE), ("credit", CREDIT), ("payer", PAYER),
                                                          ("memo", MEMO), ("amount", AMOUNT), ("direction", DIRECTION),
                                                          ("bank_ref", BANK_REF))}
        if found["date"] is not None and (found["credit"] is not None or found["amount"] is not None):
            header_at, cols = r, found
            break
    if header_at is None:
        raise StatementError(("找不到表头：需要“交易日期”和“收入金额”（或“贷方发生额”）等列",
                              "no header row found: need a date column and a credit amount column"))
    labels = [str(v).strip() for v in raw.iloc[header_at].tolist()]
    title_text = " ".join(str(v) for r in range(header_at) for v in raw.iloc[r].tolist() if str(v).strip())
    layout = _layout(title_text, filename, labels)
    body = raw.iloc[header_at + 1:].copy()
    # Cells padded with spaces and a tab (ICBC), "-" or "/" for empty (ICBC, WeChat).
    body = body.apply(lambda c: c.astype(str).str.strip()).replace(list(EMPTY), "")
    body["row"] = body.index + 1  # 1-based row number in the file
    # Drop blank lines and totals (合计) at the bottom.
    first = body.iloc[:, cols["date"]].astype(str).str.strip()
    body = body[(first != "") & ~first.str.contains("合计|总计|total", case=False, regex=True)]
    out = pd.DataFrame({"row": body["row"].to_numpy()})
    out["date_raw"] = body.iloc[:, cols["date"]].astype(str).str.strip().to_numpy()
    if cols["credit"] is not None and not (body.iloc[:, cols["credit"]] != "").any():
        # ICBC's personal export has 交易金额(收入) and 记账金额(收入): the first may be "-" in
        # every row, the amounts standing in the second. The first credit column with amounts.
        filled = [i for i in _find_all(labels, CREDIT, set()) if (body.iloc[:, i] != "").any()]
        if filled:
            cols["credit"] = filled[0]
    if cols["credit"] is not None:
        out["amount_raw"] = body.iloc[:, cols["credit"]].astype(str).str.strip().to_numpy()
    else:
        amount = body.iloc[:, cols["amount"]].astype(str).str.strip()
        if cols["direction"] is not None:
            flag = body.iloc[:, cols["direction"]].astype(str).str.strip().str.upper()
            credit = flag.str.startswith(CREDIT_MARKS)
            # A debit becomes a negative amount, and so is not a payment received.
            amount = amount.where(credit, "-" + amount.str.lstrip("+-"))
        out["amount_raw"] = amount.to_numpy()
    # 对手信息 (CMB, ABC): the payer's name, then his account number.
    out["payer"] = (body.iloc[:, cols["payer"]].astype(str).str.strip()
                    .str.replace(r"[\s/,，;；]*[\d*]{6,}[\s\d*]*$", "", regex=True).str.strip().to_numpy()
                    if cols["payer"] is not None else "")
    out["memo"] = body.iloc[:, cols["memo"]].astype(str).str.strip().to_numpy() if cols["memo"] is not None else ""
    used = {i for k, i in cols.items() if i is not None and k != "memo"}
    memo_columns = _find_all(labels, MEMO_ALL, used)
    joined = pd.Series([""] * len(body), index=body.index, dtype=str)
    for i in memo_columns:  # column by column, not line by line
        part = body.iloc[:, i].astype(str).str.strip()
        useful = (part != "") & (part != "/") & (part != joined)
        joined = (joined + " " + part).where(useful, joined)
    out["memo_all"] = joined.str.strip().to_numpy() if memo_columns else out["memo"]
    out["bank_ref"] = (body.iloc[:, cols["bank_ref"]].astype(str).str.strip().to_numpy()
                       if cols.get("bank_ref") is not None else "")

    cleaned = out["amount_raw"].str.replace(r"[,，¥￥元\s]", "", regex=True).str.replace(r"^\((.*)\)$", r"-\1", regex=True)
    numeric = pd.to_numeric(cleaned.where(cleaned != "", "0"), errors="coerce")
    # 2015-07-05, 2015/7/5, 2015年07月05日, 20150705 and 20150705 10:22:11 alike.
    ymd = out["date_raw"].str.extract(r"^(\d{4})\D?(\d{1,2})\D?(\d{1,2})")
    dates = pd.to_datetime(ymd[0] + "-" + ymd[1] + "-" + ymd[2], errors="coerce", format="%Y-%m-%d")
    bad_amount = numeric.isna()
    bad_date = dates.isna()
    bad = []
    for row, raw_amount in out.loc[bad_amount, ["row", "amount_raw"]].itertuples(index=False):
        bad.append((int(row), f"第 {row} 行：金额“{raw_amount}”无法识别", f"row {row}: amount {raw_amount!r} is not a number"))
    for row, raw_date in out.loc[bad_date & ~bad_amount, ["row", "date_raw"]].itertuples(index=False):
        bad.append((int(row), f"第 {row} 行：日期“{raw_date}”无法识别", f"row {row}: date {raw_date!r} is not a date"))
    good = out[~bad_amount & ~bad_date].copy()
    good["amount_num"] = numeric[~bad_amount & ~bad_date].round(2)
    good["booked_on"] = dates[~bad_amount & ~bad_date].dt.date
    good = good[good["amount_num"] > 0]  # credits only: money received
    good["amount"] = good["amount_num"].map(lambda x: f"{x:.2f}")
    # The same line twice in one file is two payments: number identical lines in order.
    key = good["booked_on"].astype(str) + "|" + good["amount"] + "|" + good["payer"] + "|" + good["memo"]
    good["occurrence"] = key.groupby(key).cumcount()
    good["fingerprint"] = (key + "|" + good["occurrence"].astype(str)).map(
        lambda s: hashlib.sha256(s.encode("utf-8")).hexdigest())
    bad.sort()
    found = {k: labels[i] for k, i in cols.items() if i is not None and (k != "amount" or cols["credit"] is None)
             and (k != "direction" or cols["credit"] is None)}
    statement = Statement(good[["row", "booked_on", "amount", "amount_num", "payer", "memo", "memo_all", "bank_ref",
                                "fingerprint"]].reset_index(drop=True), bad, found, layout)
    if good.empty and not bad:  # never a quiet success on a file nothing could be read from
        missing = [FIELD_NAMES[k] for k in ("payer", "memo") if k not in found]
        raise StatementError((
            f"没有读到任何收入记录（识别为{statement.found_text(False)}"
            + (f"；缺少：{'、'.join(zh for zh, _en in missing)}" if missing else "") + "）。请确认导出的是收款账户的交易明细。",
            f"no payment received could be read (read as {statement.found_text(True)}"
            + (f"; missing: {', '.join(en for _zh, en in missing)}" if missing else "")
            + "). Check that the export is the receiving account's transactions."))
    return statement


def normalise_name(series: pd.Series) -> pd.Series:
    return series.astype(str).str.replace(r"[\s（）()·.,，-]", "", regex=True).str.upper()


def match(lines: pd.DataFrame, references: pd.DataFrame, payers: pd.DataFrame) -> pd.DataFrame:
    """Vectorised matching. references: code -> delegation_id. payers: name, amount_due
    (str 2 dp), delegation_id. Returns lines with delegation_id (or NA) and method."""
    out = lines.copy()
    text = out["memo_all"] if "memo_all" in out else out["memo"]
    memo = text.astype(str).str.upper().str.replace(r"[^0-9A-Z]", "", regex=True)
    codes = references["code"].astype(str).tolist()
    out["delegation_id"] = pd.NA
    out["method"] = pd.NA
    if codes:
        pattern = "(" + "|".join(sorted((re.escape(c) for c in codes), key=len, reverse=True)) + ")"
        found = memo.str.extract(pattern, expand=False)
        by_code = dict(zip(references["code"], references["delegation_id"]))
        ids = found.map(by_code)
        hit = ids.notna()
        out.loc[hit, "delegation_id"] = ids[hit]
        out.loc[hit, "method"] = "reference"
    rest = out["delegation_id"].isna()
    if rest.any() and len(payers):
        cand = payers.assign(payer_key=normalise_name(payers["name"]))
        # A name and amount that fit exactly one delegation only.
        cand = cand.drop_duplicates(["payer_key", "amount_due", "delegation_id"])
        unique = cand.groupby(["payer_key", "amount_due"])["delegation_id"].transform("nunique") == 1
        cand = cand[unique].drop_duplicates(["payer_key", "amount_due"])
        probe = out.loc[rest, ["amount"]].assign(payer_key=normalise_name(out.loc[rest, "payer"]))
        merged = probe.reset_index().merge(cand[["payer_key", "amount_due", "delegation_id"]],
                                           left_on=["payer_key", "amount"], right_on=["payer_key", "amount_due"],
                                           how="left").set_index("index")
        got = merged["delegation_id"].dropna()
        out.loc[got.index, "delegation_id"] = got
        out.loc[got.index, "method"] = "name_amount"
    return out


def to_decimal(value: str) -> Decimal:
    try:
        return Decimal(value).quantize(Decimal("0.01"))
    except InvalidOperation:
        raise ValueError(value) from None
