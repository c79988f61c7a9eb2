"""Candidate answers collected from the evidence: known names, introduced and capitalised spans, place and
noun phrases, pronouns and descriptions resolved, aliases merged."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from typing import TypeVar

from ..engine import Passage
from ..text import STOPWORDS, content_tokens
from .antecedents import opening_pronoun, within_reach
from .asked import _last_root
from .lexicon import asked_kind, kinds_in
from .places import _place_phrases
from .question import _FORMS_OF_ADDRESS, _HEAD_TYPES, _PERSON, _TITLES, _WOMEN_ADDRESSED, QuestionType, _Question, stranded
from .records import _ABOUT_ITS_MENTIONS, _Cand
from .relations import _CONVERSE
from .things import _NOUN_PHRASE
from .times import _DATE, _NUMBER
from .words import (
    _ARTICLES,
    _DETERMINER,
    _POSSESSIVE_END,
    _WORD,
    _key,
    _name_spans,
    _noun,
    _root,
    _roots,
    _Sentence,
    _sentences,  # noqa: F401 (a doctest example uses it)
)

#: a name the text introduces: "a sister named Fan", "a clerk called Bob", or one saying who someone is — a
#: speaker's own ("I am the Keeper of the Gate", "My name is Ada") or one pointed at ("This boy is Sorrow")
_INTRODUCED = re.compile(r"(?:\b(?:named|called|[Mm]y\s+name\s+is|I\s+am(?:\s+the)?)|\b[Tt]his\s+[a-z]+\s+is)\s+"
                         r"((?:(?:[A-Z][a-z]{0,2}\.|[A-Z][\w'’-]*)\s+(?:(?:of|the|to)\s+){0,2})*[A-Z][\w'’-]*)")

_CAPITALISED = re.compile(r"\b(?:[A-Z][\w'’.-]*\s+(?:(?:of|the|and|de|van|von)\s+)?)*[A-Z][\w'’-]*")


def _collect(passages: Sequence[Passage], sentences: Sequence[_Sentence], qt: QuestionType,
             question: str = "", described: Collection[str] = ()) -> dict[str, _Cand]:
    cands = _mentioned(passages)
    _spanned(cands, sentences, qt, question, described)
    _gazetteer(cands, sentences)
    return cands


def _mentioned(passages: Sequence[Passage]) -> dict[str, _Cand]:
    """The candidates the passages' mentions name (a structural passage's mentions: its own)."""
    cands: dict[str, _Cand] = {}
    for i, p in enumerate(passages):
        structural = p.kind in _ABOUT_ITS_MENTIONS
        for m in p.mentions:
            key = _key(m.name)
            if not key:
                continue
            c = cands.setdefault(key, _Cand(key, m.name, m.type))
            c.type = c.type or m.type
            if structural:
                c.mentions.add(i)
    return cands


def _spanned(cands: dict[str, _Cand], sentences: Sequence[_Sentence], qt: QuestionType, question: str,
             described: Collection[str]) -> None:
    """The candidates the question's kind finds in the sentences' text: counts, dates, names the
    text introduces, places and noun phrases, nouns of the asked kind."""
    asked = _roots(question)
    if qt.kind == "how-many":
        _spans(cands, sentences, _NUMBER, "NUMBER")
    elif qt.kind == "when":
        _spans(cands, sentences, _DATE, "DATE")
    elif not cands:
        _spans(cands, sentences, _CAPITALISED, None)
    else:
        # a name the text introduces ("a sister named Fan", "a clerk called Bob") is one, known or not
        _spans(cands, sentences, _INTRODUCED, None, group=1)
    if qt.kind == "where":
        _place_phrases(cands, sentences, question=question, tied=described)
    elif qt.kind == "what" and not qt.types and (prep := stranded(question)):
        # "What does the clerk warm himself at?": the noun phrase after that preposition, in a clause saying the act
        after = re.compile(r"\b" + prep + r"\s+((?:the|a|an|his|her|their|its|our|my|your)(?:\s+[a-z][\w'’-]*){1,3})")
        _place_phrases(cands, sentences, after, None, asked, question, tied=described,
                       before=re.compile(r"\b" + prep + r"\s+(?:(?:the|a|an|his|her|their|its|our|my|your)\s+)?$"))
    elif qt.kind == "what" and not qt.types:
        _place_phrases(cands, sentences, _NOUN_PHRASE, None, asked, question)  # "what creature": a common noun may answer
    if qt.kind in ("what", "which") and not qt.types and (kind := asked_kind(question)):
        # "What fabric …": the evidence's nouns WordNet makes kinds of the asked one ("calico", bare as it often is)
        for name in kinds_in((s.text for s in sentences), kind):
            cands.setdefault(_key(name), _Cand(_key(name), name, None, phrase=True))


def _gazetteer(cands: dict[str, _Cand], sentences: Sequence[_Sentence]) -> None:
    """Each candidate's hits and surfaces in the sentences."""
    # the gazetteer: every known name, found in every sentence; where names overlap, the longest
    # takes the words ("Scrooge" inside "Scrooge and Marley" or "Scrooge's clerk" is not a mention of Scrooge)
    known = sorted(cands.values(), key=lambda c: (-len(c.key), c.key))
    # names are looked for by string search (:func:`_name_spans`) in the sentences that hold all their words
    patterns: list[tuple[_Cand, str | re.Pattern[str], frozenset[str]]] = [
        (c, _ARTICLES.sub("", c.name.strip()) or c.name, frozenset(_roots(c.name))) for c in known]
    patterns.extend(_short_names(known, sentences))
    by_sentence = _sentences_holding(patterns, sentences)
    for c in known:
        c.hits, c.surfaces = [], []
    for k, s in enumerate(sentences):
        found: list[tuple[int, int, _Cand]] = []
        for c, pattern, _ in by_sentence[k]:
            if isinstance(pattern, str):
                found.extend((a, b, c) for a, b in _name_spans(pattern, s.text, s.low))
            else:
                found.extend((m.start(), m.end(), c) for m in pattern.finditer(s.text))
        taken: list[tuple[int, int]] = []
        for a, b, c in sorted(found, key=lambda f: (-(f[1] - f[0]), f[0])):
            if any(a < y and x < b for x, y in taken):
                continue
            taken.append((a, b))
            c.hits.append((k, a, b))
            c.surfaces.append(s.text[a:b])
            if _DETERMINER.search(s.text[max(0, a - 8) : a]):
                c.determined += 1


_P = TypeVar("_P", bound=tuple)


def _sentences_holding(patterns: Sequence[_P], sentences: Sequence[_Sentence]) -> list[list[_P]]:
    """Per sentence, the patterns (``(candidate, pattern, word roots)``, in their order) whose words
    it has all of: the sentences a root occurs in are indexed once, and a name's are the
    intersection of its words' (looking at every sentence for every name was the cost)."""
    postings: dict[str, set[int]] = {}
    for k, s in enumerate(sentences):
        for t in s.tokens:
            postings.setdefault(t, set()).add(k)
    out: list[list[_P]] = [[] for _ in sentences]
    everywhere = range(len(sentences))
    for entry in patterns:
        words = entry[2]
        if not words:
            ks: Iterable[int] = everywhere
        else:
            sets = sorted((postings.get(t, set()) for t in words), key=len)
            ks = sets[0].intersection(*sets[1:]) if sets[0] else ()
        for k in ks:
            out[k].append(entry)
    return out


def _short_names(known: Sequence[_Cand], sentences: Sequence[_Sentence]) -> list[tuple[_Cand, re.Pattern[str], frozenset[str]]]:
    """A person's first or last name alone names them ("Jordan was not one to embrace fantastical
    theories" is about Jordan Hayes) when no other person shares that word, no entity is called
    by it, and the text never writes it in lower case (a capitalised word, not "Will" or "Hope")."""
    by_word: dict[str, list[_Cand]] = {}
    for c in known:
        words = [t for t in c.key.split() if t not in _TITLES]
        if c.type != _PERSON or len(words) < 2 or re.search(r"['’(]", c.name):
            continue
        for w in {words[0], words[-1]}:
            by_word.setdefault(w, []).append(c)
    names = {c.key for c in known}
    wanted = {w for w, hosts in by_word.items() if len(hosts) == 1 and w not in names and len(w) > 2 and w not in STOPWORDS}
    if not wanted:
        return []
    lower = {w for s in sentences for w in re.findall(r"\b[a-z][\w'’-]*", s.text)}
    return [(by_word[w][0], re.compile(r"(?<![\w'’])" + re.escape(w[:1].upper() + w[1:]) + r"(?:['’]s)?(?![\w])"), frozenset({_root(w)}))
            for w in sorted(wanted - lower)]


def _spans(cands: dict[str, _Cand], sentences: Sequence[_Sentence], pattern: re.Pattern[str], kind: str | None,
           group: int = 0) -> None:
    """Add the spans ``pattern`` (its ``group``) finds in ``sentences`` as candidates of type ``kind``."""
    lower_words = {w for s in sentences for w in re.findall(r"\b[a-z][\w'’-]*", s.text)} if kind is None else set()
    for k, s in enumerate(sentences):
        for m in pattern.finditer(s.text):
            name = m.group(group).strip(" .,'’-")
            if kind is None and (len(name) < 2 or not content_tokens(name)):
                continue  # "The", "He": a capitalised function word is not a name
            if kind is None and " " not in name and not re.sub(r"[\W_]+", "", s.text[: m.start(group)]) and (
                    name.lower() in lower_words or name.lower().endswith("ly")):
                continue  # a sentence's first word is capitalised whatever it is: a name only if never written in lower case
            key = _key(name)
            if not key:
                continue
            c = cands.setdefault(key, _Cand(key, name, kind))
            c.hits.append((k, m.start(group), m.end(group)))
            c.surfaces.append(name)


def _antecedent(c: _Cand, q: _Question, generic: set[str]) -> bool:
    """Whether ``c`` may be the person a pronoun or a description stands for: a person (or of no
    known type), no generic noun, and not someone the question itself names."""
    return c.type in (_PERSON, None) and c.key not in generic and q.overlap(c.name) < 1


def _resolve_pronouns(cands: dict[str, _Cand], sentences: Sequence[_Sentence], q: _Question, generic: set[str]) -> None:
    """A sentence that begins "He …", "She …" or "They …" (or '“…,” they said'), or "His …", "Her …",
    "Their …" (the owner of what follows: "Their fingers paused …, whispering, “…”"), is about the person named first
    — its subject, by the usual preference — in the sentence it looks back to (the nearest of :func:`.antecedents.within_reach`, in
    the same passage) that names someone the question itself does not: the pronoun counts as a mention of that person.

    >>> ss = _sentences([Passage("Ines met Oswin. She smiled. The bell rang. He left.", "c")])
    >>> cands = {n: _Cand(n.lower(), n, _PERSON) for n in ("Ines", "Oswin")}
    >>> _gazetteer(cands, ss)
    >>> _resolve_pronouns(cands, ss, _Question("Who smiled?", []), set())
    >>> [(n, [ss[k].text[a:b] for k, a, b in c.hits]) for n, c in cands.items()]
    [('Ines', ['Ines', 'She']), ('Oswin', ['Oswin'])]
    """
    firsts: dict[int, tuple[int, _Cand]] = {}
    for c in cands.values():
        if not _antecedent(c, q, generic):
            continue
        for k, a, b in c.hits:
            if _POSSESSIVE_END.search(sentences[k].text[a:b]):
                continue  # "Bob Cratchit's family …": the possessor is not the subject
            if k not in firsts or a < firsts[k][0]:
                firsts[k] = (a, c)
    for k, s in enumerate(sentences):
        span = opening_pronoun(s.text)
        if span is None:
            continue  # no pronoun, or one inside a quotation
        # the sentence before that names a candidate: one naming only whom the question names is passed over, as a
        # pronoun chain runs past it ("Ada sailed. She steered, and to Ivo she was a guide. She …", asked of Ivo)
        back = next((j for j in reversed(within_reach(sentences, k)) if j in firsts), None)
        if back is not None:
            firsts[back][1].hits.append((k, *span))


#: a definite description opening a sentence ("The cybersecurity expert craned their neck"): its words
_DESCRIPTION = re.compile(r"^[Tt]he(?:\s+[a-z][\w-]*){1,4}")


def _resolve_descriptions(cands: dict[str, _Cand], sentences: Sequence[_Sentence], q: _Question, generic: set[str],
                          role: frozenset[str]) -> None:
    """A sentence that opens with a description made of the role noun the question asks ("The
    cybersecurity expert craned …" for "Who is the cybersecurity expert …?") speaks of the person
    named last before it, in the one or two sentences before (same passage): the description
    counts as that person's mention. A person named in the description's own sentence is someone
    else ("… met by the furrow in Alex's brow"); so is one the question names.

    >>> ss = _sentences([Passage("Alex walked into Sam's office. The cybersecurity expert looked up at Alex.", "c")])
    >>> cands = {n: _Cand(n.lower(), n, _PERSON) for n in ("Alex", "Sam")}
    >>> for c in cands.values():
    ...     c.hits.extend((k, m.start(), m.end()) for k, s in enumerate(ss) for m in re.finditer(c.name, s.text))
    >>> _resolve_descriptions(cands, ss, _Question("Who is the analyst?", []), set(), frozenset({"analyst"}))
    >>> [(n, [ss[k].text[a:b] for k, a, b in c.hits]) for n, c in cands.items()]
    [('Alex', ['Alex', 'Alex']), ('Sam', ['Sam'])]
    >>> _resolve_descriptions(cands, ss, _Question("Who is the cybersecurity expert?", []), set(), frozenset({"expert"}))
    >>> [(n, [ss[k].text[a:b] for k, a, b in c.hits]) for n, c in cands.items()]
    [('Alex', ['Alex', 'Alex']), ('Sam', ['Sam', 'The'])]
    """
    for k, s in enumerate(sentences):
        m = _DESCRIPTION.match(s.text)
        head = next((w for w in _WORD.finditer(m.group(0)) if _last_root(w.group(0)) in role), None) if m else None
        if head is None or s.text[head.end() : head.end() + 1] in ("'", "’"):
            continue
        here = {id(c) for c in cands.values() for j, _, _ in c.hits if j == k}
        last: tuple[int, int, _Cand] | None = None
        for c in cands.values():
            if not _antecedent(c, q, generic) or id(c) in here:
                continue
            for j, a, _ in c.hits:
                if k - 2 <= j < k and sentences[j].passage == s.passage and (last is None or (j, a) > last[:2]):
                    last = (j, a, c)
        if last is not None:
            last[2].hits.append((k, 0, 3))  # "The": the description's words count as said next to it


def _merge_aliases(cands: dict[str, _Cand], generic: set[str], asked: frozenset[str] = frozenset(),
                   wanted: Iterable[str] = ()) -> list[_Cand]:
    """Fold a name into the one longer name of the same type that begins or ends with all its
    words ("JACOB" into "JACOB MARLEY"); the longer name is kept. A common noun ("man") and a
    name that several longer ones could extend ("Cratchit": "Bob Cratchit", "Mrs. Cratchit")
    stay apart. The longer names are found through an index of their word prefixes and suffixes
    (the ones ``_affix`` accepts), so the cost grows with the number of names, not its square.

    A possessive name "X's H" ("Marley's Ghost") is another entity than X, and stays apart —
    unless the question asks for an H (``asked``: its word roots hold H's): then "X's H" is the
    one the question means by X's name, and its evidence joins X's (the name X, else "H of X",
    else the one name that begins or ends with X's words), when that is of a ``wanted`` type (the
    question's main ones), whatever type the index gave the possessive form."""
    items = sorted(cands.values(), key=lambda c: (-len(c.key.split()), c.key))
    kept: list[_Cand] = []
    at: dict[int, int] = {}  # id(kept candidate) -> its place in ``kept``
    affixes: dict[tuple[str, ...], list[_Cand]] = {}
    parent: dict[str, str] = {}  # a folded name's key -> the key of the name it folded into

    def keep(c: _Cand, place: int | None = None) -> None:
        if place is None:
            place = len(kept)
            kept.append(c)
        else:
            kept[place] = c
        at[id(c)] = place
        if re.search(r"['’(]", c.name):
            return  # "Marley's Ghost", "Fred (nephew)": no shorter name folds into it
        words = tuple(c.key.split())
        for n in range(max(1, len(words) - 2), len(words)):
            for part in {words[:n], words[-n:]}:
                affixes.setdefault(part, []).append(c)

    for c in items:
        words = tuple(c.key.split())
        hosts: list[_Cand] = []
        if c.key not in generic:
            seen: set[int] = set()
            for h in affixes.get(words, ()):
                if _WOMEN_ADDRESSED & set(h.key.split()) and not _FORMS_OF_ADDRESS & set(words):
                    continue  # "Fezziwig" is not "Mrs. Fezziwig" (see :meth:`_Question.overlap`)
                if id(h) in at and id(h) not in seen and (h.type == c.type or c.type is None):
                    seen.add(id(h))
                    hosts.append(h)
        if len(hosts) != 1:
            keep(c)
            continue
        host = hosts[0]
        host_words = host.key.split()
        if host_words[-len(words) - 1] == "of":
            # "the Ghost of Jacob Marley", "the City of London": the name after "of" is the one
            # the text is about; it keeps its own name and takes the longer one's evidence
            keep(c, at.pop(id(host)))
            host, c = c, host
        _absorb(host, c)
        parent[c.key] = host.key
    if asked:
        _merge_possessives(kept, parent, generic, asked, frozenset(wanted))
        kept = [c for c in kept if parent.get(c.key, c.key) == c.key]
    return kept


def _absorb(host: _Cand, c: _Cand) -> None:
    host.mentions |= c.mentions
    host.hits = sorted(set(host.hits) | set(c.hits))
    host.surfaces.extend(c.surfaces)
    host.determined += c.determined


_POSSESSIVE_NAME = re.compile(r"^(?P<x>.+?)['’]s?\s+(?P<h>[A-Za-z-]+)$", re.I)


def _merge_possessives(kept: list[_Cand], parent: dict[str, str], generic: set[str], asked: frozenset[str],
                       wanted: frozenset[str]) -> None:
    """The second pass of :func:`_merge_aliases`: "X's H" joins X when the question asks for an
    H. ``parent`` maps a folded name's key to the key it folded into (a union-find over keys)."""
    def find(key: str) -> str:
        while parent.get(key, key) != key:
            parent[key] = parent.get(parent[key], parent[key])  # path halving
            key = parent[key]
        return key

    by_key = {c.key: c for c in kept}
    ends: dict[tuple[str, ...], set[str]] = {}  # a name's first / last words -> the keys
    for key in list(parent) + list(by_key):
        words = tuple(key.split())
        for n in range(1, len(words) + 1):
            ends.setdefault(words[:n], set()).add(key)
            ends.setdefault(words[-n:], set()).add(key)
    for c in list(kept):
        m = _POSSESSIVE_NAME.match(c.name.strip())
        if not m or find(c.key) != c.key or c.key in generic:
            continue
        head = m.group("h").lower()
        if _root(head) not in asked or _noun(head) in _CONVERSE:
            continue  # "Caroline's husband" is Caroline's relative, not Caroline
        x = _key(m.group("x"))
        if not x:
            continue
        target = None
        for key in (x, f"{head} of {x}"):
            if key in parent or key in by_key:
                target = find(key)
                break
        if target is None:
            roots = {find(k) for k in ends.get(tuple(x.split()), ()) if k not in generic}
            roots = {r for r in roots if r != c.key and by_key[r].type in wanted}
            if len(roots) == 1:
                target = roots.pop()
        if target is None or target == c.key or target in generic or by_key[target].type not in wanted | {None}:
            continue  # no owner, several, or one of a type the question does not ask for
        _absorb(by_key[target], c)
        parent[c.key] = target


def _generic(c: _Cand, sentences: Sequence[_Sentence], joined: str | None = None) -> bool:
    """A common noun, not a name: one the text also writes in lower case mid-sentence (the
    ghost, the city), one word the text writes after an article or possessive ("the Spirit",
    "his nephew"), or a word the questions ask with ("ghost", "agent", "place"). ``joined``: all
    the sentences' text, to skip at once a name it lacks."""
    plain = _ARTICLES.sub("", c.name.lower().strip())
    if not plain or not plain[0].isalpha():
        return False
    words = content_tokens(plain)
    if len(words) == 1 and (words[0] in _HEAD_TYPES or (c.hits and c.determined * 2 >= len(c.hits))):
        return True
    if len(words) == 1 and _ARTICLES.match(c.name.strip()):
        return True
    if joined is not None and plain not in joined:
        return False
    texts = [s.text for s in sentences if plain in s.text]  # the only ones the pattern can match
    if not texts:
        return False
    pattern = re.compile(r"(?<=[a-z,;] )" + re.escape(plain) + r"\b")
    return any(pattern.search(t) for t in texts)
