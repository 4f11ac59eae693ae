"""A small cursor over pre-rendered SQL text, shared by the identity and index-definition readers."""

from __future__ import annotations


class ScanFail(Exception):
    """The text does not have the expected form (callers turn it into a diagnostic)."""


def word_start(c: str) -> bool:
    return c.isalpha() or c == "_" or ord(c) >= 0x80


def word_char(c: str) -> bool:
    return c.isalnum() or c in "_$" or ord(c) >= 0x80


class Scanner:
    __slots__ = ("s", "i")

    def __init__(self, s: str) -> None:
        self.s = s
        self.i = 0

    def fail(self, why: str) -> ScanFail:
        return ScanFail(f"{why} at offset {self.i}")

    def at(self, t: str) -> bool:
        return self.s.startswith(t, self.i)

    def eat(self, t: str) -> bool:
        if self.s.startswith(t, self.i):
            self.i += len(t)
            return True
        return False

    def need(self, t: str) -> None:
        if not self.eat(t):
            raise self.fail(f"{t!r} expected")

    def blanks(self) -> bool:
        j = self.i
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1
        return self.i > j

    def eof(self) -> bool:
        return self.i >= len(self.s)

    def ident_token(self) -> tuple[str, bool]:
        """A quoted (``"a""b"``) or bare identifier: (name, quoted); bare words kept as written."""
        s, i = self.s, self.i
        if i < len(s) and s[i] == '"':
            buf = []
            j = i + 1
            while True:
                k = s.find('"', j)
                if k < 0:
                    raise self.fail("unterminated quoted identifier")
                buf.append(s[j:k])
                if s.startswith('"', k + 1):
                    buf.append('"')
                    j = k + 2
                    continue
                self.i = k + 1
                return "".join(buf), True
        if i < len(s) and word_start(s[i]):
            j = i + 1
            while j < len(s) and word_char(s[j]):
                j += 1
            self.i = j
            return s[i:j], False
        raise self.fail("identifier expected")
