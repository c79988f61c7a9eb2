"""The template catalog: one Jinja2 SPARQL template per file under ``queries/``, each with a header.

A template file starts with a header in SPARQL comments, which is YAML once the leading ``#`` is
stripped, then the query or update::

    # summary: Record the Question activity that opens a trace.
    # kind: update                       (update | select | ask)
    # params:
    #   question: {type: iri, doc: the question activity}
    #   parent:   {type: iri, optional: true}
    # returns: nothing
    INSERT DATA { GRAPH <urn:graph:retrieval> { {{ question | iri }} a tg:Question . } }

Values reach the text only through the escaping filters (``iri``, ``string``, ``literal``,
``integer``, ``double``, ``datetime``, ``boolean``, ``term``, ``number``; ``var`` spells a
variable name the template itself chose; ``iri_list`` and ``quoted_list`` a whole list of IRIs or
quoted triples at once) and the dialect helpers (``quoted`` — also a filter, ``x|quoted`` —,
``reifications``, ``triple_parts``, ``is_quoted``, ``dialect_is``). Every ``{{ … }}`` is checked when it is printed:
anything that did not come out of one of those is refused, so a forgotten filter is an error and
never an injection (where a template without autoescape prints an escaping filter straight away,
``{{ x|iri }}``, the check is made when the template is compiled: see :data:`_TEXT_FILTERS`).
Undefined names are errors too (``StrictUndefined``).

>>> from ragprov.sparql import Dialect
>>> text = render("trace/list", Dialect.RDF12, kind=None, limit=5, since=None)
>>> "LIMIT 5" in text
True
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import operator
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import jinja2
import jinja2.compiler
from markupsafe import Markup
from pyoxigraph import NamedNode, Triple

from ..errors import InvalidValueError, NotFoundError, ParameterError, TemplateError
from ..namespaces import XSD
from ..resources import data_dir, queries_dir
from .dialect import Dialect
from .escape import (
    _IRI_FORBIDDEN,
    _NEEDS_ESCAPE,
    sparql_boolean,
    sparql_datetime,
    sparql_double,
    sparql_integer,
    sparql_iri,
    sparql_literal,
    sparql_string,
    sparql_term,
)

__all__ = ["HEADER_CACHE", "PARAM_TYPES", "Catalog", "Param", "Sparql", "TemplateInfo", "catalog", "header_cache", "join_updates", "render"]

PARAM_TYPES = frozenset(
    {"iri", "string", "integer", "double", "datetime", "boolean", "term", "triple", "list", "object"}
)
_KINDS = frozenset({"update", "select", "ask"})
_VAR = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Sparql(str):
    """Text that an escaping filter or dialect helper produced: the only thing a template may print.

    ``__html__`` makes it pass unchanged where autoescaping is on (templates that use macros: the
    output of a template's own macros, rendered under the same rules, is accepted as markup there).
    Templates never use ``|safe``; a test checks that.
    """

    __slots__ = ()

    def __html__(self) -> str:
        return self


@dataclasses.dataclass(frozen=True)
class Param:
    """One declared template parameter."""

    name: str
    type: str
    optional: bool = False
    doc: str = ""
    items: str | None = None


@dataclasses.dataclass(frozen=True)
class TemplateInfo:
    """A template's header: what it does, what it takes, what it gives back."""

    name: str
    path: Path
    summary: str
    kind: str
    params: dict[str, Param]
    returns: Any

    def describe(self) -> str:
        lines = [f"{self.name} ({self.kind}): {self.summary}"]
        for p in self.params.values():
            opt = ", optional" if p.optional else ""
            items = f" of {p.items}" if p.items else ""
            lines.append(f"  {p.name}: {p.type}{items}{opt}" + (f"  {p.doc}" if p.doc else ""))
        lines.append(f"  returns: {self.returns}")
        return "\n".join(lines)


def _finalize(value: object) -> object:
    if type(value) is Sparql or isinstance(value, Markup):
        return value
    if value is None or value == "":
        # `{{ x if cond }}` yields '' / None: nothing printed, nothing to escape.
        return ""
    raise TemplateError(
        f"a template printed {type(value).__name__} {str(value)[:40]!r} without an escaping filter "
        "(use iri, string, literal, integer, double, datetime, boolean or term)"
    )


def _defined(value: object) -> object:
    if isinstance(value, jinja2.Undefined):
        raise TemplateError(f"the template reads an undefined name: {value._undefined_name!r}")
    return value


def _wrap(fn):
    """The filter of ``fn`` as printed text: ``fn`` (a value checked as defined) into a plain string
    (what a filter printed straight out of a record/ template gives, see :data:`_PRINTED`)."""

    @functools.wraps(fn)
    def filt(value, *args, **kwargs):
        return fn(_defined(value), *args, **kwargs)

    return filt


def _sparql(raw):
    """The filter ``raw`` returning :class:`Sparql` (what may be printed anywhere, and what a value
    escaped in an expression carries until it is printed). ``functools.wraps`` keeps ``raw``'s
    ``pass_context`` mark."""

    @functools.wraps(raw)
    def filt(*args, **kwargs):
        return Sparql(raw(*args, **kwargs))

    return filt


def _iri_text(value: object) -> str:
    # Every IRI is checked here, a NamedNode too: one parsed leniently (as the loaders' batches
    # are) or read back from a store was never validated. The fast path is one regex search.
    if type(value) is NamedNode:
        text = value.value
        if _IRI_FORBIDDEN.search(text) is None:
            return "<" + text + ">"
    return sparql_iri(_defined(value))


def _string_text(value: object) -> str:
    # sparql_string's own fast path, without its calls: text with nothing to escape is quoted as is.
    # Text that is all printable (no control, format, private-use, unassigned or surrogate code
    # point, no separator but the space: none of what _NEEDS_ESCAPE finds but " and \) is
    # checked by two more searches for those, which cost half the regular expression's.
    if type(value) is str and (
        (value.isprintable() and '"' not in value and "\\" not in value) or _NEEDS_ESCAPE.search(value) is None
    ):
        return '"' + value + '"'
    return sparql_string(_defined(value))  # type: ignore[arg-type]  # sparql_string refuses a non-string itself


_XSD = str(XSD)


def _integer_text(value: object) -> str:
    if type(value) is int:
        return f'"{value}"^^<{_XSD}integer>'
    return sparql_integer(_defined(value))


def _double_text(value: object) -> str:
    if type(value) is float and value - value == 0.0:  # finite
        return f'"{value!r}"^^<{_XSD}double>'
    return sparql_double(_defined(value))


_UTC = _dt.timezone.utc


def _datetime_text(value: object) -> str:
    # a UTC date-time (what the recorder's clock gives) as sparql_datetime spells it, without converting it to UTC again
    if type(value) is _dt.datetime and value.tzinfo is _UTC:
        text = value.isoformat()
        if text.endswith("+00:00"):
            return f'"{text[:-6]}Z"^^<{_XSD}dateTime>'
    return sparql_datetime(_defined(value))


def _var(name: object) -> str:
    """``?name`` for a variable name written in a template (never for a parameter value)."""
    if not isinstance(name, str) or not _VAR.match(name.lstrip("?")):
        raise TemplateError(f"not a SPARQL variable name: {name!r}")
    return "?" + name.lstrip("?")


def _number(value: object) -> str:
    """A bare non-negative integer, for LIMIT and OFFSET."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidValueError(f"not a non-negative integer: {value!r}")
    return str(value)


@jinja2.pass_context
def _term(ctx, value: object) -> Sparql:
    _defined(value)
    if isinstance(value, Triple):
        return _quoted(ctx, value)
    return Sparql(sparql_term(value))


#: quoted triples as printed (the dialect's spelling), by dialect, then by triple: a stage quotes
#: each kept edge twice (its document link and its INSERT DATA). Bounded: cleared when full.
_QUOTED: dict[Dialect, dict[Triple, Sparql]] = {d: {} for d in Dialect}
_QUOTED_KEPT = 4096


def _quote_text(dialect: Dialect, triple: Triple) -> Sparql:
    """``triple`` as ``dialect`` spells it in object position, as printed (refuses anything but a triple)."""
    if type(triple) is Triple:  # pyoxigraph's Triple cannot be subclassed
        cache = _QUOTED[dialect]
        text = cache.get(triple)
        if text is None:
            if len(cache) >= _QUOTED_KEPT:
                cache.clear()
            text = cache[triple] = Sparql(dialect._quote(triple))  # not through the dialect's own cache: a second miss
        return text
    return Sparql(dialect.quote(_defined(triple)))  # refuses anything but a triple


@jinja2.pass_context
def _quoted(ctx, triple: Triple) -> Sparql:
    dialect: Dialect = ctx.resolve_or_missing("_dialect")
    if dialect is Dialect.REIFICATION:
        ctx.resolve_or_missing("_pending").append(_defined(triple))
    return _quote_text(dialect, triple)


_LIST_SEPARATORS = (" ", ", ")


def _separator(sep: object) -> str:
    if sep not in _LIST_SEPARATORS:
        raise TemplateError(f"a term list is separated by one of {_LIST_SEPARATORS!r}, not {sep!r}")
    return sep


def _iri_list(values: object, sep: str = " ") -> Sparql:
    """``<a> <b> …`` (a VALUES list; with ``", "`` an object list), each IRI escaped by ``iri``:
    one filter call for a whole list, where a ``{% for %}`` loop costs a few per item."""
    if isinstance(_defined(values), (str, bytes, NamedNode)):
        raise TemplateError(f"iri_list takes a list of IRIs, got {type(values).__name__}")
    sep = _separator(sep)
    items: list[Any] = list(values)  # type: ignore[call-overload]
    if items and all(type(v) is NamedNode for v in items):
        # _iri_text's fast path for the whole list at once: a character no IRI may hold is in
        # one of them exactly when it is in their concatenation (one search, then one join)
        texts = [v.value for v in items]
        if _IRI_FORBIDDEN.search("".join(texts)) is None:
            return Sparql("<" + (">" + sep + "<").join(texts) + ">")
    return Sparql(sep.join([_iri_text(v) for v in items]))


@jinja2.pass_context
def _quoted_list(ctx, triples: object, sep: str = " ") -> Sparql:
    """Each triple of ``triples`` quoted as ``quoted()`` does, in one filter call (a VALUES list)."""
    if isinstance(_defined(triples), (str, bytes, Triple)):
        raise TemplateError(f"quoted_list takes a list of triples, got {type(triples).__name__}")
    dialect: Dialect = ctx.resolve_or_missing("_dialect")
    items: list[Any] = list(triples)  # type: ignore[call-overload]
    if dialect is Dialect.REIFICATION:
        ctx.resolve_or_missing("_pending").extend([_defined(t) for t in items])
    return Sparql(_separator(sep).join([_quote_text(dialect, t) for t in items]))


@jinja2.pass_context
def _reifications(ctx) -> Sparql:
    """The rdf:Statement triples of the triples quoted since the last call (reification only)."""
    dialect: Dialect = ctx["_dialect"]
    pending: list[Triple] = ctx["_pending"]
    out = []
    seen = set()
    for triple in pending:
        for t in dialect.reification_triples(triple):
            key = str(t)
            if key not in seen:
                seen.add(key)
                out.append(f"{sparql_term(t.subject)} {sparql_term(t.predicate)} {sparql_term(t.object)} .")
    pending.clear()
    return Sparql("\n".join(out))


@jinja2.pass_context
def _triple_parts(ctx, var: str, s: str, p: str, o: str) -> Sparql:
    """Bind ``?s ?p ?o`` to the parts of the quoted triple held by ``?var``, in the store's dialect."""
    for name in (var, s, p, o):
        if not isinstance(name, str) or not _VAR.match(name):
            raise TemplateError(f"triple_parts takes variable names, got {name!r}")
    dialect: Dialect = ctx["_dialect"]
    if dialect is Dialect.REIFICATION:
        rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        return Sparql(f"?{var} <{rdf}subject> ?{s} ; <{rdf}predicate> ?{p} ; <{rdf}object> ?{o} .")
    return Sparql(f"BIND(SUBJECT(?{var}) AS ?{s}) BIND(PREDICATE(?{var}) AS ?{p}) BIND(OBJECT(?{var}) AS ?{o})")


@jinja2.pass_context
def _is_quoted(ctx, var: str) -> Sparql:
    """A boolean expression: does ``?var`` hold a quoted triple (in the store's dialect)?"""
    if not isinstance(var, str) or not _VAR.match(var):
        raise TemplateError(f"is_quoted takes a variable name, got {var!r}")
    if ctx["_dialect"] is Dialect.REIFICATION:
        return Sparql(f"STRSTARTS(STR(?{var}), \"urn:ragprov:stmt:\")")
    return Sparql(f"isTRIPLE(?{var})")


_DIALECTS = {d.value: d for d in Dialect}


@jinja2.pass_context
def _dialect_is(ctx, name: str) -> bool:
    """For ``{% if dialect_is("reification") %}``: is the template being rendered for this dialect?
    (A dialect's own name is looked up, in a dict: ``Dialect.parse`` takes a microsecond, and the
    recorder's document link asks up to three times per stage; any other name goes through it.)"""
    dialect = _DIALECTS.get(name) if type(name) is str else None
    return ctx["_dialect"] is (dialect if dialect is not None else Dialect.parse(name))


#: The escaping filters, by name, each as the function that gives its text: the filter ``name`` is
#: that text as :class:`Sparql` (a value a template may print, or pass on), except for the four
#: that give Sparql already. Where a template without autoescape prints a filter's result straight
#: away (``{{ x|iri }}``), the compiler calls the function under the name ``printed:NAME``, whose
#: plain text needs neither the Sparql wrapper nor the check when printed: the check was made
#: when the template was compiled (:meth:`_CodeGenerator.visit_Template`), and is the same one.
_TEXT_FILTERS: dict[str, Any] = {
    "iri": _iri_text,
    "string": _string_text,
    "literal": _wrap(sparql_literal),
    "integer": _integer_text,
    "double": _double_text,
    "datetime": _datetime_text,
    "boolean": _wrap(sparql_boolean),
    "number": _wrap(_number),
    "var": _wrap(_var),
    "term": _term,
    "quoted": _quoted,
    "iri_list": _iri_list,
    "quoted_list": _quoted_list,
}
_SPARQL_ALREADY = frozenset({"term", "quoted", "iri_list", "quoted_list"})
_PRINTED = "printed:"


#: an include of one of the recorder's fragments (the document link and its walks), as written
_RECORD_INCLUDE = re.compile(r'\{% include "(record/_[\w.-]+)" %\}\n?')


class _BodyLoader(jinja2.FileSystemLoader):
    """Loads a template without its header: the header documents the file, it is never sent (nor a
    blank line in its place).

    The recorder's fragments (``{% include "record/_….j2" %}``) are put in place of their include
    when a template is loaded: the same text is rendered, without a context built and copied per
    include on every stage (a third of rendering a Focus's document link). What an include does
    to the newline after it (``trim_blocks`` removes it), the inlined text does too: it ends with
    its own tag and newline, which are trimmed the same way."""

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        lines = source.split("\n")
        n = 0
        while n < len(lines) and lines[n].startswith("#"):
            n += 1
        body = _RECORD_INCLUDE.sub(lambda m: self.get_source(environment, m[1])[0], "\n".join(lines[n:]))
        # The header's lines become one Jinja2 comment, which keeps the line numbers of error messages
        # right (the fragments' own lines excepted) and prints nothing, not even its newline
        # (trim_blocks): a blank line costs the store's SPARQL parser as much as a few characters
        # of data, about 0.3 µs each, in every request.
        return ("{#" + "\n" * (n - 1) + "#}\n" if n else "") + body, filename, uptodate


def _autoescape(name: str | None) -> bool:
    return not (name or "").startswith("record/")


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates kept between processes (Jinja2's own cache, keyed by each template's
    source checksum, so an edited template is recompiled): ``$RAGPROV_TEMPLATE_CACHE``, else
    ``$XDG_CACHE_HOME/ragprov/templates`` (``~/.cache/...``); none when it cannot be written."""
    import os

    folder = os.environ.get("RAGPROV_TEMPLATE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "ragprov", "templates"
    )
    try:
        os.makedirs(folder, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return None
    except OSError:
        return None
    return _BytecodeCache(folder)


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja2's cache of compiled templates, keyed by this module's compiler too (:func:`compiler_key`):
    Jinja2 keys by the template's name and source only, and would load code another compiler wrote."""

    def get_cache_key(self, name, filename=None):
        return super().get_cache_key(f"{compiler_key()}|{name}", filename)


class _CodeGenerator(jinja2.compiler.CodeGenerator):
    """Jinja2's compiler, with spellings of the same thing that cost less per printed value:
    ``row.name`` as the builtin ``getattr`` where it finds an attribute (else Jinja2's look-up);
    ``x is none`` as Python's ``x is None`` (Jinja2's ``none`` test, without a call); a printed
    value as what ``finalize`` returns, without ``str()`` around it where nothing is escaped
    (``_finalize`` returns text or refuses: a Sparql, a Markup or ""); and, in a template without
    autoescape, an escaping filter printed straight away (``{{ x|iri }}``) as its text, neither
    wrapped as Sparql nor checked by ``finalize`` (see :data:`_TEXT_FILTERS`), and the template's
    own text with its prefixed names written out as IRIs (no PREFIX line sent: see
    :func:`_expand_prefixes`)."""

    def visit_Template(self, node, frame=None):
        if not jinja2.nodes.EvalContext(self.environment, self.name).autoescape and not any(
            node.find_all((jinja2.nodes.EvalContextModifier, jinja2.nodes.Extends))
        ):
            self.expand_prefixes(list(node.find_all(jinja2.nodes.TemplateData)))
            for output in node.find_all(jinja2.nodes.Output):
                for child in output.nodes:
                    if type(child) is jinja2.nodes.Filter and child.name in _TEXT_FILTERS:
                        # the name of a function that gives the filter's text as is: templates
                        # cannot spell it (no ':' in a filter name), only this compiler writes it
                        child.name = _PRINTED + child.name
        super().visit_Template(node, frame)

    @jinja2.compiler.optimizeconst
    def visit_Getattr(self, node, frame):
        # ``row.iri`` on a variable: the attribute found by the builtin getattr (C, a default and no
        # exception on a miss), else Jinja2's look-up (the item, or Undefined) as before. Only
        # where the object is a plain name: the fallback names it again, which evaluates nothing.
        if self.environment.is_async or type(node.node) is not jinja2.nodes.Name or not node.attr.isidentifier():
            super().visit_Getattr(node, frame)
            return
        self.write("(_attribute if (_attribute := getattr(")
        self.visit(node.node, frame)
        self.write(f", {node.attr!r}, missing)) is not missing else environment.getattr(")
        self.visit(node.node, frame)
        self.write(f", {node.attr!r}))")

    def expand_prefixes(self, texts: list) -> None:
        """A template's own text with its prefixed names written out (:func:`_expand_prefixes`)."""
        _expand_prefixes(texts)

    def visit_Test(self, node, frame):
        if node.name == "none" and not node.args and not node.kwargs and node.dyn_args is None and node.dyn_kwargs is None:
            self.write("(")
            self.visit(node.node, frame)
            self.write(" is None)")
            return
        super().visit_Test(node, frame)

    def _plain_output(self, frame, finalize) -> bool:
        return finalize.src is not None and not frame.eval_ctx.volatile and not frame.eval_ctx.autoescape

    @staticmethod
    def _printed_text(node) -> bool:
        return type(node) is jinja2.nodes.Filter and node.name.startswith(_PRINTED)

    def _output_child_pre(self, node, frame, finalize):
        if self._printed_text(node):
            return
        if self._plain_output(frame, finalize):
            self.write(finalize.src)
        else:
            super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node, frame, finalize):
        if self._printed_text(node):
            return
        if self._plain_output(frame, finalize):
            self.write(")")
        else:
            super()._output_child_post(node, frame, finalize)


#: a PREFIX line opening a template's text
_PREFIX_DECL = re.compile(r"[ \t]*PREFIX[ \t]+([A-Za-z][\w-]*):[ \t]*<([^<>\"{}|^`\\\x00-\x20]*)>[ \t]*\n")
#: in a template's own text: a string (long or short), an IRI, a comment (each left alone), a
#: prefixed name (groups 1, 2; what follows it that could continue it, ``%``, ``\`` or ``:``, is
#: group 3), a keyword that declares names (group 4), or what this cannot read safely (group 5: a
#: quote that opens no whole string, a name after ``<``, ``.``, ``%``… where it may not start one)
_STATIC_TOKEN = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\''
    r'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>"{}|^`\\\x00-\x20]*>|#[^\n]*'
    r"|(?<![\w:?$.%<-])([A-Za-z][\w-]*):((?:[\w.-]*[\w-])?)([%\\:]?)"
    r"|(?<![\w:?$])((?i:PREFIX|BASE))(?![\w:])"
    r"|([\"']|[A-Za-z][\w-]*:)"
)



def _expand_prefixes(texts: list) -> None:
    """The prefixed names of a template's own text (``texts``: its TemplateData nodes, in order) as
    the full IRIs the first one's PREFIX lines declare, and those lines left out: the same update,
    which the store's parser reads faster (a PREFIX line costs about 0.35 µs, each prefixed name
    about 0.12 µs more than the IRI written out: some 25 µs of a GraphRAG trace). Nothing changes
    where a name would be ambiguous (a prefix declared twice, an undeclared prefix used, a local
    name with an escape or a colon), nor in a template that declares nothing."""
    if not texts:
        return
    first = texts[0].data
    declared: dict[str, str] = {}
    position = 0
    while (m := _PREFIX_DECL.match(first, position)) is not None:
        if m[1] in declared:
            return
        declared[m[1]] = m[2]
        position = m.end()
    if not declared:
        return
    expanded = []
    for i, text in enumerate(texts):
        data = text.data[position:] if i == 0 else text.data
        out, last = [], 0
        if i and data.startswith(":"):
            return  # a name a tag cuts before its colon: all left as it was
        for m in _STATIC_TOKEN.finditer(data):
            if m[4] is not None:
                return  # names declared further on: all left as it was
            if m[5] is not None:
                return  # an unclosed string (a tag inside it), or a name where this cannot tell: all left
            if m[1] is not None and ((m.end() == len(data) and i < len(texts) - 1) or (m.start() == 0 and i)):
                return  # a name a tag may continue (or end): all left as it was
            if m[1] is None:
                continue
            if m[3] or m[1] not in declared:
                return  # a name this does not read whole, or a prefix it does not know: all left as it was
            out += [data[last : m.start()], "<", declared[m[1]], m[2], ">"]
            last = m.end()
        out.append(data[last:])
        expanded.append("".join(out))
    for text, data in zip(texts, expanded, strict=True):
        text.data = data


def _code_digest(digest, code) -> None:
    """Feed ``digest`` what ``code`` does: its bytecode, names and constants (nested code too),
    not where it sits (file name, line numbers), so that moving it keeps the key."""
    digest.update(code.co_code)
    digest.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)).encode())
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            _code_digest(digest, const)
        else:
            digest.update(repr(const).encode())


@functools.lru_cache(maxsize=4)
def compiler_key(generator: type | None = None) -> str:
    """What compiled templates depend on besides their source: Jinja2's version, the code of the
    code generator's own methods (``generator``, by default :class:`_CodeGenerator`; derived from
    its source, so an edit to the compiler makes every template compile again, with no constant
    to bump by hand, while moving it in its file does not) and the names of the text filters the
    code it writes calls (:data:`_TEXT_FILTERS`).

    >>> len(compiler_key())
    16
    """
    import hashlib
    import inspect

    digest = hashlib.sha256(f"jinja2 {jinja2.__version__}|{_PRINTED}|{sorted(_TEXT_FILTERS)}".encode())
    for name, member in sorted(vars(generator or _CodeGenerator).items()):
        # a staticmethod's function; a decorated method's own body (optimizeconst wraps visit_Getattr)
        function = inspect.unwrap(getattr(member, "__func__", member))
        if hasattr(function, "__code__"):
            digest.update(name.encode())
            _code_digest(digest, function.__code__)
    # what its methods call to rewrite a template's text, and the patterns that reads it by
    _code_digest(digest, _expand_prefixes.__code__)
    digest.update(f"{_PREFIX_DECL.pattern}|{_STATIC_TOKEN.pattern}".encode())
    return digest.hexdigest()[:16]


class _Environment(jinja2.Environment):
    """Jinja2's environment, with each template's globals a plain dict (a copy of the environment's,
    which are set once, below): Jinja2's default ChainMap is copied key by key into every render's
    context (and every include's), a third of the cost of rendering a small update."""

    code_generator_class = _CodeGenerator

    def make_globals(self, d):
        return {**self.globals, **(d or {})}

    def getitem(self, obj, argument):
        # A plain tuple (the recorder's rows are named tuples) has no item named by a string: go
        # straight to the attribute Jinja2 falls back to (``map(attribute=…)``), not through a
        # TypeError per row. The same value or the same Undefined as Jinja2's own order.
        if type(argument) is str and isinstance(obj, tuple) and type(obj).__getitem__ is tuple.__getitem__:
            try:
                return getattr(obj, argument)
            except AttributeError:
                return self.undefined(obj=obj, name=argument)
        return super().getitem(obj, argument)

    def getattr(self, obj, attribute):
        # Jinja2's own order (the attribute, else the item), where a plain dict (the Microsoft
        # traces' rows) goes straight to its item when its class has no such name: a dict has no
        # attribute of its own, and no AttributeError is raised per look-up.
        if type(obj) is dict and not hasattr(dict, attribute):
            if attribute in obj:
                return obj[attribute]
            return self.undefined(obj=obj, name=attribute)
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)


def _map_filter(jinja_map):
    """Jinja2's ``map``, with ``map(attribute="name")`` (one plain name, nothing else) done as one
    list of look-ups instead of a generator of attribute getters: the same items."""

    @jinja2.pass_context
    def map_(ctx, value, *args, **kwargs):
        attribute = kwargs.get("attribute")
        if not args and len(kwargs) == 1 and type(attribute) is str and "." not in attribute and not attribute.isdigit():
            if type(value) is list and value:
                rows = type(value[0])
                # rows of one named tuple class (the recorder's): the field, as the look-up below
                # finds it (a plain tuple has no item named by a string), one C call per row
                if (issubclass(rows, tuple) and rows.__getitem__ is tuple.__getitem__ and attribute in getattr(rows, "_fields", ())
                        and all(type(item) is rows for item in value)):
                    return list(map(operator.attrgetter(attribute), value))
            getitem = ctx.environment.getitem
            return [getitem(item, attribute) for item in value]
        return jinja_map(ctx, value, *args, **kwargs)

    return map_


def _environment(root: Path) -> jinja2.Environment:
    env = _Environment(
        bytecode_cache=_bytecode_cache(),
        loader=_BodyLoader(str(root)),
        undefined=jinja2.StrictUndefined,
        # Plain strings never print: _finalize refuses them first. Autoescape only makes macro
        # output markup (accepted); the hot record/ templates use no macros and skip it.
        autoescape=_autoescape,
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        cache_size=-1,
    )
    env.filters["map"] = _map_filter(env.filters["map"])
    for name, text in _TEXT_FILTERS.items():
        env.filters[name] = text if name in _SPARQL_ALREADY else _sparql(text)
        env.filters[_PRINTED + name] = text
    env.globals.update(
        quoted=_quoted,
        reifications=_reifications,
        triple_parts=_triple_parts,
        is_quoted=_is_quoted,
        dialect_is=_dialect_is,
    )
    return env


#: the package's template headers, parsed once (``python -m ragprov.sparql.templates`` writes it;
#: a test checks it is current): reading YAML in every process cost 0.2 s of every command
HEADER_CACHE = "template-headers.json"


def _header_text(source: str) -> str:
    lines = []
    for line in source.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[2:] if line.startswith("# ") else line[1:])
    return "\n".join(lines)


def _parse_header(name: str, path: Path, source: str, cached: dict | None = None) -> TemplateInfo:
    """The header of a template; ``cached`` (from :data:`HEADER_CACHE`) is used while it was
    parsed from exactly this header text, else the YAML is parsed here."""
    text = _header_text(source)
    header = cached["header"] if cached is not None and cached.get("text") == text else _load_yaml(path, text)
    for key in ("summary", "kind", "params", "returns"):
        if key not in header:
            raise TemplateError(f"{path}: the header has no '{key}'")
    kind = header["kind"]
    if kind not in _KINDS:
        raise TemplateError(f"{path}: kind {kind!r} is not one of {sorted(_KINDS)}")
    params: dict[str, Param] = {}
    for pname, spec in (header["params"] or {}).items():
        if isinstance(spec, str):
            spec = {"type": spec}
        if not isinstance(spec, dict) or spec.get("type") not in PARAM_TYPES:
            raise TemplateError(f"{path}: param {pname!r} needs a type, one of {sorted(PARAM_TYPES)}")
        params[pname] = Param(
            name=pname,
            type=spec["type"],
            optional=bool(spec.get("optional", False)),
            doc=str(spec.get("doc", "")),
            items=spec.get("items"),
        )
    return TemplateInfo(
        name=name, path=path, summary=str(header["summary"]), kind=kind, params=params, returns=header["returns"]
    )


def _load_yaml(path: Path, text: str) -> dict:
    import yaml

    try:
        header = yaml.safe_load(text) or {}
    except yaml.YAMLError as e:
        raise TemplateError(f"{path}: the header is not YAML: {e}") from None
    if not isinstance(header, dict):
        raise TemplateError(f"{path}: the header must be a YAML mapping")
    return header


def _template_files(root: Path) -> Iterable[tuple[str, Path]]:
    for path in sorted(root.rglob("*.j2")):
        if path.name.startswith("_"):
            continue  # an included fragment, not a template of its own
        yield re.sub(r"\.(rq|ru)\.j2$", "", path.relative_to(root).as_posix()), path


def header_cache(root: Path | None = None) -> dict[str, dict]:
    """Every template's header text and parsed header, by name: what :data:`HEADER_CACHE` holds."""
    out = {}
    for name, path in _template_files(Path(root) if root is not None else queries_dir()):
        text = _header_text(path.read_text(encoding="utf-8"))
        out[name] = {"text": text, "header": _load_yaml(path, text)}
    return out


def _read_header_cache(root: Path) -> dict[str, dict]:
    if root != queries_dir():
        return {}
    import json

    try:
        return json.loads((data_dir() / HEADER_CACHE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


class _Plan(NamedTuple):
    template: jinja2.Template
    declared: frozenset[str]
    optional: dict[str, None]
    required: tuple[tuple[str, str], ...]
    update: bool


class Catalog:
    """Every template under a folder (by default the package's ``queries/``), by name.

    A template's name is its path without the ``.rq.j2`` / ``.ru.j2`` ending, e.g. ``trace/show``.
    """

    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root is not None else queries_dir()
        self._env = _environment(self.root)
        self._paths = dict(_template_files(self.root))
        self._infos: dict[str, TemplateInfo] = {}
        self._templates: dict[str, jinja2.Template] = {}
        self._plans: dict[str, _Plan] = {}
        # The package's catalog reads a template's file and header when the template is first
        # used (its headers are precompiled, and a test checks every one of them): a command uses
        # a few of the ~60, and reading them all cost every process ~3 ms. Any other folder has its
        # headers checked here, at once.
        self._header_cache = _read_header_cache(self.root)
        if not self._header_cache:
            for name in self._paths:
                self.info(name)

    def names(self) -> list[str]:
        return list(self._paths)

    def info(self, name: str) -> TemplateInfo:
        info = self._infos.get(name)
        if info is None:
            path = self._paths.get(name)
            if path is None:
                raise NotFoundError(f"no query template named {name!r}; see `ragprov query list`")
            info = _parse_header(name, path, path.read_text(encoding="utf-8"), self._header_cache.get(name))
            self._infos[name] = info
        return info

    def variables(self, name: str) -> set[str]:
        """The names the template's text reads (what its header must declare)."""
        info = self.info(name)
        import jinja2.meta
        import jinja2.nodes

        # as loaded: the recorder's fragments in place of their includes (what they read counts too,
        # what they assign themselves, even under a condition, does not)
        source = self._env.loader.get_source(self._env, info.path.relative_to(self.root).as_posix())[0]  # type: ignore[union-attr]
        ast = self._env.parse(source)
        targets = [node.target for node in ast.find_all(jinja2.nodes.Assign)] + \
            [node.target for node in ast.find_all(jinja2.nodes.AssignBlock)]
        assigned = {t.name for target in targets for t in (target, *target.find_all(jinja2.nodes.Name))
                    if isinstance(t, jinja2.nodes.Name) and t.ctx == "store"}
        return set(jinja2.meta.find_undeclared_variables(ast)) - set(self._env.globals) - assigned

    def template(self, name: str) -> jinja2.Template:
        tpl = self._templates.get(name)
        if tpl is None:
            info = self.info(name)
            tpl = self._env.get_template(info.path.relative_to(self.root).as_posix())
            self._templates[name] = tpl
        return tpl

    def _plan(self, name: str) -> _Plan:
        """What :meth:`render` checks a template's parameters against, worked out once per template."""
        plan = self._plans.get(name)
        if plan is None:
            info = self.info(name)
            declared = info.params
            plan = _Plan(
                self.template(name),
                frozenset(declared),
                {p.name: None for p in declared.values() if p.optional},
                tuple((p.name, p.type) for p in declared.values() if not p.optional),
                info.kind == "update",
            )
            self._plans[name] = plan
        return plan

    def render(self, name: str, dialect: Dialect | str, /, **params: Any) -> str:
        """The SPARQL text of template ``name`` for ``dialect``, with ``params`` escaped into it."""
        tpl, declared, optional, required, update = self._plan(name)
        if not declared.issuperset(params):
            unknown = set(params) - declared
            raise ParameterError(
                f"template {name!r} takes no parameter {', '.join(sorted(unknown))}; it takes "
                f"{', '.join(self.info(name).params) or 'none'}"
            )
        # every declared parameter, an optional one None when not given (or given as None)
        env = self._env
        values = {**env.globals, **optional, **params}
        for pname, ptype in required:
            if params.get(pname) is None:
                raise ParameterError(f"template {name!r} needs parameter {pname!r} ({ptype})")
        pending: list[Triple] = []
        values["_dialect"] = dialect if type(dialect) is Dialect else Dialect.parse(dialect)
        values["_pending"] = pending
        # Template.render, with the context built from one dict (the globals and the values, as
        # Template.new_context would merge them) instead of copied again, and no globals to list:
        # the templates have none of their own (what Jinja2 reads them for, an import's context)
        try:
            try:
                text = "".join(tpl.root_render_func(env.context_class(env, values, tpl.name, tpl.blocks)))
            except Exception:
                env.handle_exception()
        except jinja2.UndefinedError as e:
            raise TemplateError(f"template {name!r}: {e}") from None
        if pending and update:
            raise TemplateError(f"template {name!r} quotes triples but never writes their reifications()")
        return text

    def render_all(self, items: Iterable[tuple[str, dict[str, Any]]], dialect: Dialect | str) -> str:
        """Several update templates rendered into one request (one transaction)."""
        return join_updates([self.render(name, dialect, **params) for name, params in items])


_PREFIX_LINE = re.compile(r"\s*PREFIX\s+[\w.-]*:\s*<[^>]*>[ \t]*(?:\n|$)", re.I)


def join_updates(updates: Sequence[str]) -> str:
    r"""``updates`` as one request (joined by `` ;``), each one's leading ``PREFIX`` lines declared
    once at the top: Oxigraph rejects a prologue after ``;`` though SPARQL 1.1 allows it, and a
    declaration holds for the updates that follow. A prefix declared differently stays in place.

    >>> print(join_updates(["PREFIX a: <urn:a#>\nINSERT DATA { a:x a:y 1 }", "PREFIX a: <urn:a#>\nINSERT DATA { a:x a:y 2 }"]))
    PREFIX a: <urn:a#>
    INSERT DATA { a:x a:y 1 } ;
    INSERT DATA { a:x a:y 2 }
    """
    declared: dict[str, str] = {}
    bodies = []
    for text in updates:
        position = 0
        while (m := _PREFIX_LINE.match(text, position)) and declared.setdefault(_prefix_name(m[0]), m[0].strip()) == m[0].strip():
            position = m.end()
        bodies.append(text[position:].strip())
    return "\n".join([*declared.values(), " ;\n".join(bodies)])


def _prefix_name(line: str) -> str:
    return line.split(":", 1)[0].split()[-1]


@functools.lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The package's own template catalog (loaded once)."""
    return Catalog()


def render(name: str, dialect: Dialect | str, /, **params: Any) -> str:
    """Render a template of the package catalog; see :meth:`Catalog.render`."""
    return catalog().render(name, dialect, **params)


if __name__ == "__main__":  # python -m ragprov.sparql.templates: rewrite the header cache
    import json

    target = data_dir() / HEADER_CACHE
    target.write_text(json.dumps(header_cache(), indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{target}: {len(header_cache())} template headers")
