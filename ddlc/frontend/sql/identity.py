"""Object identities (``getObjectIdentity`` texts of DROP, COMMENT and SET SCHEMA) -> IR nodes, once, at
build time.

An identity is pre-quoted by the server: ``public.orders``, ``"Sales"``,
``public.add1(integer,character varying)``, ``trg on public.orders``, ``public.orders.amount`` or
the defective table-constraint drop ``public.pk on public.t`` (see :mod:`ddlc.ir.drop` for the
nodes). Names, words and type modifiers are tokens of the SQL layer's lexer
(:class:`ddlc.frontend.sql.lexer.Cursor`); bare names are kept as written, quoted ones unescaped.
"""

from __future__ import annotations


from ... import lazyre
from ...errors import Path
from ...ir.drop import (
    ConstraintIdentity, FunctionSignature, Identity, IdentityKind, PlainName, SchemaName, TriggerIdentity,
)
from ...ir.names import QualifiedName, TypeName
from .lexer import Cursor, ScanFail


def _qname_parts(sc: Cursor, lo: int, hi: int) -> list[str]:
    parts = [sc.ident_token()[0]]
    while sc.eat("."):
        parts.append(sc.ident_token()[0])
    if not lo <= len(parts) <= hi:
        raise ScanFail("wrong number of name parts")
    return parts


def _qn(parts: list[str], origin: Path) -> QualifiedName:
    if len(parts) == 1:
        return QualifiedName(parts[0], origin=origin)
    return QualifiedName(parts[-1], parts[-2], origin=origin)


def _next_is_word(sc: Cursor) -> bool:
    t = sc.peek()
    return t is not None and t.kind == "word"


def _type(sc: Cursor, origin: Path) -> TypeName:
    """One ``format_type_be`` type: ``integer``, ``character varying(10)[]``, ``"char"``,
    ``public."MyType"``, ``timestamp(6) without time zone``."""
    start = sc.i
    name, quoted = sc.ident_token()
    schema: str | None
    if sc.eat("."):
        schema, name = name, sc.ident_token()[0]
        typmod_start = sc.i
        if sc.at("("):
            sc.balanced()
    elif quoted:
        schema = None
        typmod_start = sc.i
        if sc.at("("):
            sc.balanced()
    else:
        schema = ""  # SQL-standard spelling, written verbatim
        words_end = sc.i
        typmod_start = -1
        while True:
            save = sc.i
            if sc.at("("):
                if typmod_start < 0:
                    typmod_start = sc.i
                sc.balanced()
                continue
            if sc.blanks() and _next_is_word(sc):
                sc.ident_token()
                if typmod_start < 0:
                    words_end = sc.i
                continue
            sc.i = save
            break
        if typmod_start < 0:
            typmod_start = words_end = sc.i
        name = sc.s[start:words_end]
    typmod = sc.s[typmod_start:sc.i]
    array = sc.eat("[]")
    return TypeName(name, schema, typmod, array, origin=origin)


def _function(sc: Cursor, origin: Path) -> FunctionSignature:
    name = _qn(_qname_parts(sc, 1, 2), origin)
    sc.need("(")
    args: list[TypeName] = []
    star = False
    sc.blanks()
    if sc.eat("*"):
        star = True
        sc.blanks()
    elif not sc.at(")"):
        while True:
            args.append(_type(sc, origin))
            sc.blanks()
            if not sc.eat(","):
                break
            sc.blanks()
    sc.need(")")
    return FunctionSignature(name, tuple(args), star, origin=origin)


def _on(sc: Cursor) -> None:
    """`` on `` between a trigger or constraint name and its table."""
    if not sc.blanks():
        raise ScanFail("blank expected")
    name, quoted = sc.ident_token()
    if quoted or name.lower() != "on":
        raise ScanFail("on")
    if not sc.blanks():
        raise ScanFail("blank expected")


# any name the lexer reads as one token: a word (the lexer's identifier characters, non-ASCII ones included)
# or a quoted name ("" a quote inside, never before a quote: one way to cut a text in names)
_NAME = (r'(?:[^\x00-\x40\x5b-\x5e\x60\x7b-\x7f][^\x00-\x23\x25-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*'
         r'|"(?:[^"]|"")*"(?!"))')
_NAMES = lazyre.compile(rf"{_NAME}(?:\.{_NAME})*\Z")
_NAME_PART = lazyre.compile(r'([^\x00-\x40\x5b-\x5e\x60\x7b-\x7f][^\x00-\x23\x25-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*)'
                        r'|"((?:[^"]|"")*)"(?!")')
# ``<name>[.<name>] on <name>[.<name>]`` (a trigger's, a constraint's): the lexer's blanks around a bare ``on``
_ON = lazyre.compile(rf"({_NAME}(?:\.{_NAME})?)[ \t\n\r\f\v]+[oO][nN][ \t\n\r\f\v]+({_NAME}(?:\.{_NAME})?)\Z")
# a function's argument type as format_type_be writes it: ``schema.name``, ``"name"`` (each with a numeric
# typmod), or bare words (``character varying``) with a numeric typmod and words after it (``timestamp(6)
# without time zone``); then ``[]``. What _type reads from such a text, and only the common forms.
_WORD = r"[^\x00-\x40\x5b-\x5e\x60\x7b-\x7f][^\x00-\x23\x25-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*"
_TYPMOD = r"\([0-9]+(?:,[0-9]+)*\)"
_ARG = lazyre.compile(
    rf"(?:(?P<schema>{_NAME})\.(?P<name>{_NAME})(?P<mod>{_TYPMOD})?"
    rf'|"(?P<quoted>(?:[^"]|"")*)"(?!")(?P<qmod>{_TYPMOD})?'
    rf"|(?P<words>{_WORD}(?:[ \t\n\r\f\v]+{_WORD})*)(?P<wmod>{_TYPMOD}(?:[ \t\n\r\f\v]+{_WORD})*)?)"
    rf"(?P<array>\[\])?"
)
_FUNCTION_HEAD = lazyre.compile(rf"({_NAME}(?:\.{_NAME})?)\([ \t\n\r\f\v]*")
_BLANKS = lazyre.compile(r"[ \t\n\r\f\v]*")


def _names(text: str) -> list[str]:
    """The names of a text :data:`_NAMES` matches, quoted ones unescaped."""
    return [bare or quoted.replace('""', '"') for bare, quoted in _NAME_PART.findall(text)]


def _relation(parts: list[str], origin: Path) -> Identity | None:
    n = len(parts)
    if n == 2:
        return QualifiedName(parts[1], parts[0], origin=origin)
    return QualifiedName(parts[0], origin=origin) if n == 1 else None


def _column(parts: list[str], origin: Path) -> Identity | None:
    n = len(parts)
    if n == 3:
        return QualifiedName(parts[1], parts[0], parts[2], origin=origin)
    return QualifiedName(parts[0], None, parts[1], origin=origin) if n == 2 else None


def _schema(parts: list[str], origin: Path) -> Identity | None:
    return SchemaName(parts[0], origin=origin) if len(parts) == 1 else None


def _plain_name(parts: list[str], origin: Path) -> Identity | None:
    return PlainName(parts[0], origin=origin) if len(parts) == 1 else None


# the kinds that are names joined by dots -> the identity of their names (None: not as many as the kind has); by
# the member's id (hashing a str enum member is a Python call: Enum.__hash__), with the member to compare
_PARTS = {IdentityKind.RELATION: _relation, IdentityKind.TYPE: _relation, IdentityKind.COLUMN: _column,
          IdentityKind.SCHEMA: _schema, IdentityKind.NAME: _plain_name}
_PARTS_BY_ID = {id(kind): (kind, fn) for kind, fn in _PARTS.items()}
_FUNCTION, _TRIGGER, _CONSTRAINT = IdentityKind.FUNCTION, IdentityKind.TRIGGER, IdentityKind.CONSTRAINT


def _plain_names(text: str) -> list[str] | None:
    """The names of an ASCII ``text`` made of names joined by dots, each a bare word ``isidentifier`` takes or a
    quoted name without a quote or a dot inside (its quotes taken off): what :data:`_NAMES` and :func:`_names`
    give for it, without their patterns; None for any other text (read by them)."""
    parts = text.split(".")
    for i, part in enumerate(parts):
        if not part.isidentifier():
            if len(part) > 2 and part[0] == '"' and part[-1] == '"' and '"' not in part[1:-1]:
                parts[i] = part[1:-1]
            else:
                return None
    return parts


def parse_identity(kind: IdentityKind, text: str, origin: Path = ()) -> Identity | None:
    """Read an identity text as ``kind``; None when it is not of that form.

    Names, and names ``on`` names, are read by patterns that take exactly the texts the lexer's reading
    (:func:`lexed_identity`) takes; a function's signature, and a trigger or constraint identity the pattern
    does not take, by the lexer. The common ASCII texts are read by ``str`` methods first (:func:`_plain_names`,
    :func:`_plain_on`, :func:`_plain_signature`: the same answers, tests/test_throughput_round12_front.py)."""
    hit = _PARTS_BY_ID.get(id(kind))
    if hit is not None and hit[0] is kind:
        of_parts = hit[1]
        if text.isascii():  # bare ASCII names separated by dots (public.orders): each is one word token
            parts = text.split(".")
            for part in parts:
                if not part.isidentifier():
                    break
            else:
                return of_parts(parts, origin)
            parts = _plain_names(text)  # (a quoted name among them: "Sales")
            if parts is not None:
                return of_parts(parts, origin)
        if _NAMES.match(text) is None:
            return None
        return of_parts(_names(text), origin)
    if kind is _FUNCTION:
        sig = _plain_signature(text, origin) if text.isascii() else None
        if sig is None:
            sig = _signature(text, origin)
        if sig is not None:
            return sig
    elif kind is _TRIGGER or kind is _CONSTRAINT:
        on = _plain_on(text) if text.isascii() else None
        if on is None:
            m = _ON.match(text)
            if m is not None:
                on = _names(m.group(1)), _names(m.group(2))
        if on is not None:
            left, table = on[0], _qn(on[1], origin)
            if kind is _TRIGGER:
                return TriggerIdentity(left[0], table, origin=origin) if len(left) == 1 else None
            return ConstraintIdentity(left[-1], table, left[0] if len(left) == 2 else None, origin=origin)
    return lexed_identity(kind, text, origin)


def _plain_on(text: str) -> tuple[list[str], list[str]] | None:
    """The names either side of ``" on "`` of an ASCII text :data:`_ON` takes, one or two :func:`_plain_names`
    each side; None for any other text (read by the pattern)."""
    sides = text.split(" on ")
    if len(sides) != 2:
        return None
    left, right = _plain_names(sides[0]), _plain_names(sides[1])
    if left is None or right is None or len(left) > 2 or len(right) > 2:
        return None
    return left, right


def _plain_signature(text: str, origin: Path) -> FunctionSignature | None:
    """:func:`_signature` of an ASCII text of the common form, read by ``str`` methods: one or two
    :func:`_plain_names` before ``(``, and arguments each ``words``, ``words(typmod) words``,
    ``name.name(typmod)`` or ``"name"(typmod)`` (the typmod and the words after it optional), then ``[]``
    optionally, separated by ``,`` and spaces; or ``*``. None for any other text (read by the patterns): it
    never says a text is not a signature."""
    if not text.endswith(")") or "$" in text or not text.isprintable():
        return None  # (printable ASCII: the space is the only blank; a bare name with $ goes to the patterns)
    at = text.find("(")
    if at < 0:
        return None
    head = _plain_names(text[:at])
    if head is None or len(head) > 2:
        return None
    inner = text[at + 1:-1]
    rest = inner.strip(" ")
    if not rest:
        return FunctionSignature(_qn(head, origin), (), False, origin=origin)
    if rest == "*":
        return FunctionSignature(_qn(head, origin), (), True, origin=origin)
    pieces = inner.split(",")
    args: list[TypeName] = []
    i, n = 0, len(pieces)
    while i < n:
        arg = pieces[i]
        i += 1
        while "(" in arg and ")" not in arg and i < n:  # a typmod's own commas: (10,2)
            arg += "," + pieces[i]
            i += 1
        arg = arg.strip(" ")
        array = arg.endswith("[]")
        if array:
            arg = arg[:-2]
        if not arg:
            return None
        open_at = arg.find("(")
        if open_at < 0:
            word, mod, after = arg, "", ""
        else:
            close_at = arg.find(")")
            if close_at < open_at or arg.count("(") != 1 or arg.count(")") != 1:
                return None
            word, mod, after = arg[:open_at], arg[open_at:close_at + 1], arg[close_at + 1:]
            for digits in mod[1:-1].split(","):
                if not digits.isdigit():
                    return None
        if not word or word.endswith(" "):
            return None
        if word[0] == '"' or "." in word:  # "name"(typmod) or name.name(typmod): nothing after the typmod
            names = _plain_names(word)
            if names is None or after or (len(names) != 2 and not (len(names) == 1 and word[0] == '"')):
                return None
            if len(names) == 2:
                args.append(TypeName(names[1], names[0], mod, array, origin=origin))
            else:
                args.append(TypeName(names[0], None, mod, array, origin=origin))
            continue
        if not word.isidentifier():  # (words: character varying)
            for part in word.split(" "):
                if not part.isidentifier():
                    return None
        if after:
            if after[0] != " ":
                return None
            for part in after[1:].split(" "):
                if not part.isidentifier():
                    return None
        args.append(TypeName(word, "", mod + after, array, origin=origin))
    return FunctionSignature(_qn(head, origin), tuple(args), False, origin=origin)


def _signature(text: str, origin: Path) -> FunctionSignature | None:
    """A function identity whose argument types :data:`_ARG` takes, read as :func:`_function` reads it; None
    for any other text (read by the lexer then)."""
    head = _FUNCTION_HEAD.match(text)
    if head is None:
        return None
    name = _qn(_names(head.group(1)), origin)
    pos = head.end()
    args: list[TypeName] = []
    star = text.startswith("*", pos)
    if star:
        pos = _BLANKS.match(text, pos + 1).end()  # type: ignore[union-attr]
    elif not text.startswith(")", pos):
        while True:
            m = _ARG.match(text, pos)
            if m is None:
                return None
            words, array = m.group("words"), m.group("array") is not None
            if words is not None:
                args.append(TypeName(words, "", m.group("wmod") or "", array, origin=origin))
            elif m.group("name") is not None:
                schema, type_name = _names(m.group("schema")) + _names(m.group("name"))
                args.append(TypeName(type_name, schema, m.group("mod") or "", array, origin=origin))
            else:
                args.append(TypeName(m.group("quoted").replace('""', '"'), None, m.group("qmod") or "", array,
                                     origin=origin))
            pos = _BLANKS.match(text, m.end()).end()  # type: ignore[union-attr]
            if not text.startswith(",", pos):
                break
            pos = _BLANKS.match(text, pos + 1).end()  # type: ignore[union-attr]
    if pos != len(text) - 1 or not text.endswith(")"):
        return None
    return FunctionSignature(name, tuple(args), star, origin=origin)


def lexed_identity(kind: IdentityKind, text: str, origin: Path = ()) -> Identity | None:
    """:func:`parse_identity` by the lexer's tokens (:class:`Cursor`), any identity."""
    sc = Cursor(text)
    try:
        out: Identity
        if kind is IdentityKind.RELATION or kind is IdentityKind.TYPE:
            out = _qn(_qname_parts(sc, 1, 2), origin)
        elif kind is IdentityKind.COLUMN:
            parts = _qname_parts(sc, 2, 3)
            out = QualifiedName(parts[-2], parts[0] if len(parts) == 3 else None, parts[-1], origin=origin)
        elif kind is IdentityKind.SCHEMA:
            out = SchemaName(sc.ident_token()[0], origin=origin)
        elif kind is IdentityKind.NAME:
            out = PlainName(sc.ident_token()[0], origin=origin)
        elif kind is IdentityKind.FUNCTION:
            out = _function(sc, origin)
        elif kind is IdentityKind.TRIGGER:
            name = sc.ident_token()[0]
            _on(sc)
            out = TriggerIdentity(name, _qn(_qname_parts(sc, 1, 2), origin), origin=origin)
        else:  # CONSTRAINT
            parts = _qname_parts(sc, 1, 2)
            _on(sc)
            out = ConstraintIdentity(parts[-1], _qn(_qname_parts(sc, 1, 2), origin),
                                     parts[0] if len(parts) == 2 else None, origin=origin)
        if not sc.eof():
            return None
        return out
    except ScanFail:
        return None


__all__ = ["lexed_identity", "parse_identity"]
