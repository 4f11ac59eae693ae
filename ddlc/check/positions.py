"""Where a JSON path is in a file: the line of every value of every document, for findings.

A small, forgiving scanner (the documents were already read by the frontend; this only locates
values): it walks the text once and records the 1-based line at which each value starts, keyed by
its path inside its document. The documents of a file are its top-level values (JSON lines, or
several values one after the other) or, when the file is one array, the array's elements.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Locator"]

_WS = frozenset(" \t\r\n")


class Locator:
    """``line(i, path)``: the line of the value at ``path`` of document ``i`` (its start when unknown)."""

    __slots__ = ("_docs",)

    def __init__(self, text: str) -> None:
        self._docs: list[dict[tuple[Any, ...], int]] = []
        try:
            _Scan(text, self._docs).top()
        except (IndexError, ValueError):  # broken JSON: what was found so far
            pass

    def __len__(self) -> int:
        return len(self._docs)

    def line(self, index: int, path: tuple[Any, ...] = ()) -> int | None:
        if not 0 <= index < len(self._docs):
            return None
        where = self._docs[index]
        path = tuple(path)
        for p in (path, ("JDDL", *path)):  # paths inside an envelope's tree
            while True:
                if p in where:
                    return where[p]
                if not p:
                    break
                p = p[:-1]  # the closest enclosing value that exists
        return where.get(())

    def document_at_line(self, line: int) -> int | None:
        """The index of the document starting at ``line`` (JSON lines: the document's line)."""
        for i, where in enumerate(self._docs):
            if where.get(()) == line:
                return i
        return None


class _Scan:
    __slots__ = ("s", "i", "line", "docs")

    def __init__(self, s: str, docs: list[dict[tuple[Any, ...], int]]) -> None:
        self.s, self.i, self.line, self.docs = s, 0, 1, docs

    def ws(self) -> None:
        s, n = self.s, len(self.s)
        while self.i < n and s[self.i] in _WS:
            if s[self.i] == "\n":
                self.line += 1
            self.i += 1

    def top(self) -> None:
        self.ws()
        if self.i < len(self.s) and self.s[self.i] == "[":  # one array: its elements are the documents
            save = (self.i, self.line)
            self.i += 1
            self.ws()
            if self.i < len(self.s) and self.s[self.i] != "]":
                while True:
                    self.ws()
                    where: dict[tuple[Any, ...], int] = {}
                    self.docs.append(where)
                    self.value((), where)
                    self.ws()
                    if self.s[self.i] == ",":
                        self.i += 1
                        continue
                    break
            self.i += 1
            self.ws()
            if self.i >= len(self.s):
                return
            self.i, self.line = save  # more after the array: several top-level values
            self.docs.clear()
        while True:
            self.ws()
            if self.i >= len(self.s):
                return
            where = {}
            self.docs.append(where)
            self.value((), where)

    def value(self, path: tuple[Any, ...], where: dict[tuple[Any, ...], int]) -> None:
        where[path] = self.line
        c = self.s[self.i]
        if c == "{":
            self.i += 1
            self.ws()
            if self.s[self.i] == "}":
                self.i += 1
                return
            while True:
                self.ws()
                key = self.string()
                self.ws()
                if self.s[self.i] != ":":
                    raise ValueError("expected :")
                self.i += 1
                self.ws()
                self.value((*path, key), where)
                self.ws()
                c = self.s[self.i]
                self.i += 1
                if c == "}":
                    return
                if c != ",":
                    raise ValueError("expected , or }")
        elif c == "[":
            self.i += 1
            self.ws()
            if self.s[self.i] == "]":
                self.i += 1
                return
            k = 0
            while True:
                self.ws()
                self.value((*path, k), where)
                k += 1
                self.ws()
                c = self.s[self.i]
                self.i += 1
                if c == "]":
                    return
                if c != ",":
                    raise ValueError("expected , or ]")
        elif c == '"':
            self.string()
        else:  # number, true, false, null
            s, n = self.s, len(self.s)
            start = self.i
            while self.i < n and s[self.i] not in _WS and s[self.i] not in ",]}":
                self.i += 1
            if self.i == start:
                raise ValueError("expected a value")

    def string(self) -> str:
        s = self.s
        if s[self.i] != '"':
            raise ValueError("expected a string")
        j = self.i + 1
        out = []
        while True:
            c = s[j]
            if c == '"':
                break
            if c == "\\":
                e = s[j + 1]
                if e == "u":
                    out.append(chr(int(s[j + 2:j + 6], 16)))
                    j += 6
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(e, e))
                j += 2
                continue
            if c == "\n":
                raise ValueError("newline in a string")
            out.append(c)
            j += 1
        self.i = j + 1
        return "".join(out)
