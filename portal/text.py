"""One bilingual text (issue 40, 1): the Chinese and the English of a message made where
the reader is not known yet (a service, a sheet reader), each reader then shown his own.
Below the areas: imports none."""
from __future__ import annotations

from typing import NamedTuple


class Text(NamedTuple):
    zh: str
    en: str

    def __str__(self) -> str:  # where one string must carry both: a log, an exception's message
        return f"{self.zh} / {self.en}"

    def __contains__(self, part: object) -> bool:  # as a message: what either language says
        return isinstance(part, str) and (part in self.zh or part in self.en)

    def prefixed(self, where: Text) -> Text:
        """This text after `where` ("第 3 行（丁）：…" / "row 3: …")."""
        return Text(f"{where.zh}：{self.zh}", f"{where.en}: {self.en}")

    def read(self, en: bool) -> str:
        return self.en if en else self.zh


class TextError(ValueError):
    """A check that refuses in both languages (a pydantic validator's ValueError): its
    Text, and where, when the check knows better than pydantic ("rules[3].list")."""

    def __init__(self, text: Text, where: str = ""):
        self.text, self.where = text, where
        super().__init__(f"{where}: {text}" if where else str(text))


class InputProblems(ValueError):
    """Input that cannot be read or used (a workbook, a bank statement, a fixture, a form, a
    JSON text, a results list): every problem found, each (where, what) in `problems` —
    where "" for the input as a whole, what a Text. The one exception every parser raises;
    its subclass names the parser, and callers that do not care catch this."""

    def __init__(self, problems: list[tuple[Text | str, Text | str]], message: str | None = None):
        self.problems = [(where, what) for where, what in problems]
        super().__init__(message if message is not None else
                         "; ".join(f"{where}: {what}" if where else str(what) for where, what in self.problems))

    def in_words(self, en: bool) -> list[str]:
        """Each problem in one language, after where it is."""
        def read(text):
            return text.read(en) if isinstance(text, Text) else str(text)
        return [f"{read(where)}: {read(what)}" if where else read(what) for where, what in self.problems]
