"""Why-questions: the reason the evidence gives, not only a sentence that mentions the question's words.

A reason is said in a few general ways, each found here by its form, never by its words' meaning:

- inside the sentence that states what is asked, by a causal connective ("because", "so that", "in
  order to", "due to", ", for he kept …", "since it …", "just to lighten …": :data:`_CAUSAL`,
  :data:`_WEAKER`);
- in a sentence right after it that points back to it ("Because …", "For they said …", "That is why
  …", "X explained their reasoning …": :data:`_POINTS_BACK`), up to two sentences on;
- in dialogue, by the turn that answers a quoted why-question ("'Tell me why?' — 'I wear the chain I
  forged in life,' replied the Ghost."), the exchange before it saying what the "why" asks about.

The first line states the best span: a sentence cut after its reason's clause, two or three
sentences ending in the one giving the reason, or the "why" asked and the reply.

Each such *span* (a sentence, or the sentences from the one stating the asked predicate to the one
giving its reason) is scored by how much of the question its words cover, times a bonus for how
clearly it gives a reason (:func:`reason_weight`); a span giving a reason also covers the question's
own "reason", "purpose", "motive" ("What reason did X give for …?"). The best span is the answer.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from .question import REASON_NOUNS, _Question
from .words import _root, _roots, _Sentence

#: a connective that plainly introduces a reason or a purpose
_CAUSAL = re.compile(r"\b(?:because|so\s+that|in\s+order\s+(?:to|that)|so\s+as\s+to|due\s+to|owing\s+to|on\s+account\s+of"
                     r"|for\s+the\s+sake\s+of|(?:that|this|which|it)(?:['’]s|\s+is|\s+was)\s+why|the\s+reason|reasoning"
                     r"|explain(?:s|ed|ing)?\b)", re.I)

#: a weaker sign of a reason: "for" or "since" joining a clause (", for he stood …"), a purpose
#: infinitive after a pause ("—just to lighten the mood"), "lest", "therefore"
_WEAKER = re.compile(r"(?:[,;:—–]|--)\s*(?:for|since)\s+(?:(?:he|she|it|they|we|I|you|there)\b(?!['’]s)"
                     r"|(?:the\s+)?[A-Za-z]+\s+(?:had|was|were|is|are|would|could|did|does|has|kept|knew|thought|saw|[a-z]+ed)\b)"
                     r"|(?:[,;:—–]|--)\s*(?:just|only|simply|merely)\s+to\s+[a-z]+"
                     r"|\b(?:lest|therefore|hence|thus|as\s+a\s+result)\b")

#: what may open a sentence before its first word ("_", "(", a quote, "And", "But", "So", "Yet")
_OPENING = r"^[_*\"“‘'(\s]*(?:(?:and|but|so|yet)\s+)?"

#: "that is why", "this was because", "it's why": a subject pointing back, said to be the reason or its result
_WHY_BACK = r"(?:that|this|it)(?:['’]s|\s+is|\s+was)\s+(?:why|because)\b"

#: a sentence whose subject points back at the sentence before it ("And that's worth more than
#: protocol.", "This is why …", "It was because …"): what it says of "that" is said of what came before
_ANAPHORIC = re.compile(_OPENING + r"(?:" + _WHY_BACK + r"|(?:that|this|which)(?:['’]s\b|\s+(?:is|was|are|were|makes|made"
                        r"|explains|explained|means|meant)\b))", re.I)

#: a sentence that gives the reason of what the sentence before it says: it opens with a causal
#: connective ("Because …", "For they said …", "That is why …" — :data:`_WHY_BACK`; not the
#: preposition: "For years …", "For Alex, …") or says someone explains ("explained their reasoning")
_POINTS_BACK = re.compile(_OPENING + r"(?:(?:because|(?:for|since)\s+(?:he|she|it|they|we|i|you|there)\b(?!,)|so\s+that)\b|"
                          + _WHY_BACK + r")|\bexplain(?:s|ed|ing)?\b|\breasoning\b", re.I)


#: the most characters :data:`_ASKS_WHY` spans between the quote and the "why", and from it to the "?"
REACH = 300

#: a quoted question asking why ("'Tell me why?'", "'Why did you get married?'"): not the "Why, …!" of
#: surprise, nor a narrator's question ("Why did he not go on?": nobody answers it). The opening quote
#: opens the text or follows a space, colon or comma (the "'" of "didn't", "Edgar's" opens nothing);
#: each stretch is at most :data:`REACH` characters, so a search tries a bounded match from each
#: position: the time is linear in the text's length
_ASKS_WHY = re.compile(rf"(?:^|(?<=[\s:,]))[\"“‘'][^\n]{{0,{REACH}}}?\bwhy\b(?![,!])[^.!?\n]{{0,{REACH}}}\?"
                       rf"|\bwhy\b(?![,!])[^.!?\n]{{0,{REACH}}}\?\s{{0,3}}[\"”’']", re.I)


def asks_why(text: str) -> bool:
    """Whether ``text`` holds a quoted question asking why (:data:`_ASKS_WHY`); text saying no "?"
    or no "why" is not searched.

    >>> asks_why("'Tell me why?'"), asks_why("He said: 'But why did you go?'"), asks_why("'Why, how late you are!'")
    (True, True, False)
    >>> asks_why("He didn't know why they left?"), asks_why("Edgar's son wondered why they left?")  # no quote opens
    (False, False)
    """
    return "?" in text and "why" in text.lower() and _ASKS_WHY.search(text) is not None


#: a sentence opening a quotation, and one ending in a question
_OPENS_QUOTE = re.compile(r"^[\"“‘']")
_ENDS_ASKING = re.compile(r"\?[\s'’\"”)_*\]]*$")

#: how much a span that gives a reason weighs over one that does not: a reply to a why asked in
#: dialogue (more by a plain connective's when it opens with "Because …"), a plain connective, a weaker sign
REPLY, CAUSAL, WEAKER = 0.3, 0.25, 0.15

#: what a span ending in a question keeps of its score ("Why did he not go on?" repeats the question)
ASKED = 0.5

#: the least length of what follows a reason's clause for a semicolon to cut it off (:func:`trimmed`)
TRIM_AFTER = 40

#: how far (in sentences) a reason may be given after what it explains, and how many turns
#: (paragraphs; twice as many sentences at most) of a dialogue before the "why" say what it asks about
AFTER, EXCHANGE = 2, 4

#: the words of an "of" phrase after a noun ("the obedience of the troops"): they qualify it, it is what is asked about
_OF_PHRASE = re.compile(r"\bof\s+(?:(?:the|a|an|his|her|their|its|my|our|your)\s+)?([\w'’-]+)", re.I)

#: the words of a question that ask for a reason itself ("What reason did X give …?")
_REASON_WORDS = frozenset(_root(w) for w in REASON_NOUNS)


def reason_weight(text: str) -> float:
    """The bonus a sentence earns for giving a reason: :data:`CAUSAL` for a plain connective,
    :data:`WEAKER` for a weaker sign, 0 for none.

    >>> reason_weight("But he couldn't replenish it, for Scrooge kept the coal-box in his own room.")
    0.15
    >>> reason_weight("Edgar left because of the storm."), reason_weight("Edgar left at dawn, for the first time.")
    (0.25, 0)
    >>> reason_weight("I'd laugh if we ran into Martians—just to lighten the mood.")
    0.15
    """
    if _CAUSAL.search(text):
        return CAUSAL
    return WEAKER if _WEAKER.search(text) else 0


def trimmed(text: str) -> str:
    """A sentence giving a reason, cut after the clause that gives it: at the first semicolon after
    its connective, when a clause of some length follows (what comes after says something else).

    >>> trimmed("But he couldn't replenish it, for Scrooge kept the coal-box in his own room; and so surely as the "
    ...         "clerk came in with the shovel, the master predicted that they would part.")
    "But he couldn't replenish it, for Scrooge kept the coal-box in his own room."
    >>> trimmed("Nobody under the table; spoon and basin ready, for he had a cold; and the saucepan.")  # too little after
    'Nobody under the table; spoon and basin ready, for he had a cold; and the saucepan.'
    """
    m = _CAUSAL.search(text) or _WEAKER.search(text)
    if m is None or m.start() == 0:
        return text
    cut = text.find(";", m.end())
    if cut < 0 or len(text) - cut < TRIM_AFTER:
        return text
    return text[:cut].rstrip(" ,") + "."


def _span(sentences: Sequence[_Sentence], a: int, b: int, shown: int | None = None) -> _Sentence:
    """Sentences ``a``..``b`` as one: their words together, the text from ``shown`` (default ``a``)."""
    text = " ".join(s.text for s in sentences[(a if shown is None else shown) : b + 1])
    tokens = frozenset().union(*(s.tokens for s in sentences[a : b + 1]))
    return _Sentence(sentences[b].passage, text, tokens, sentences[a].before, sentences[b].after, sentences[b].paragraph)


def _replies(sentences: Sequence[_Sentence]) -> list[tuple[int, int, int]]:
    """The dialogue turns that answer a quoted why-question: (first sentence of the exchange, first
    sentence shown of the "why" turn, the reply's first sentence). The reply is the first sentence
    after the why (past its speech tag, "asked Scrooge.") that opens another turn — a new paragraph,
    or a new quotation where the text keeps no paragraphs — and asks nothing itself.

    >>> from ragprov.llm.engine import Passage
    >>> from ragprov.llm.answer.words import _sentences
    >>> s = _sentences([Passage("'You are fettered,' said Scrooge.\\n\\n'Tell me why?'\\n\\n'I wear it,' replied the Ghost.", "c")])
    >>> _replies(s)
    [(0, 1, 2)]
    >>> _replies(_sentences([Passage("'To a poor one most.' 'Why to a poor one?' asked he. 'Because it needs it.'", "c")]))
    [(0, 1, 3)]
    >>> _replies(_sentences([Passage("'Why?'\\n\\n'Why did you marry?'", "c")]))  # a why asked back answers nothing
    []
    >>> _replies(_sentences([Passage("'Why, how late you are!' said she.\\n\\n'We had work to do,' replied the girl.", "c")]))
    []
    >>> _replies(_sentences([Passage("Why did he not go on?\\n\\nThe mother laid her work down.", "c")]))  # the narrator asks
    []
    """
    out = []
    for w, s in enumerate(sentences):
        if not asks_why(s.text):
            continue
        b = w + 1
        while b < len(sentences) and sentences[b].passage == s.passage and sentences[b].text[:1].islower():
            b += 1  # the why's speech tag
        if b >= len(sentences) or sentences[b].passage != s.passage:
            continue
        reply = sentences[b]
        if (reply.paragraph == s.paragraph and not _OPENS_QUOTE.match(reply.text)) or _ENDS_ASKING.search(reply.text):
            continue  # the asker goes on, or a question is asked back
        shown = w if reply.paragraph == s.paragraph else min(  # the why's turn, where turns are paragraphs
            k for k in range(max(0, w - 2), w + 1) if sentences[k].passage == s.passage and sentences[k].paragraph == s.paragraph)
        a = shown  # the exchange: a few turns (or sentences) before the why
        while (a > 0 and sentences[a - 1].passage == s.passage and w - a < 2 * EXCHANGE
               and s.paragraph - sentences[a - 1].paragraph <= EXCHANGE):
            a -= 1
        out.append((a, shown, b))
    return out


def reason_spans(sentences: Sequence[_Sentence]) -> list[tuple[_Sentence, float]]:
    """Every span that may answer a why-question, with its reason bonus: each sentence alone (cut
    after the clause giving its reason, :func:`trimmed`, its words all counted); a
    sentence with the one or two before it when it points back to them with a reason
    (:data:`_POINTS_BACK`); a reply to a why asked in dialogue with the exchange before it (its text
    the "why" turn and the reply), unless the reply is an exclamation ("'Man of the worldly mind!'")
    that does not say "because".

    >>> from ragprov.llm.engine import Passage
    >>> from ragprov.llm.answer.words import _sentences
    >>> s = _sentences([Passage("It looked out of place. Jordan explained their reasoning: 'It is a recent addition.'", "c")])
    >>> [(x.text, w) for x, w in reason_spans(s)][-1]
    ("It looked out of place. Jordan explained their reasoning: 'It is a recent addition.'", 0.25)
    >>> len(reason_spans(_sentences([Passage("It looked out of place. Jordan came in.", "c")])))  # no reason: the sentences alone
    2
    >>> len(reason_spans(_sentences([Passage("It looked out of place. For years it had hung there.", "c")])))  # "for" a preposition
    2
    >>> len(reason_spans(_sentences([Passage("It looked out of place. For it had been painted.", "c")])))
    3

    Each sentence is spanned once, whether it points back by its subject (:data:`_ANAPHORIC`), gives
    a reason after the one it explains, or both:

    >>> s = _sentences([Passage("Mira came late. Edgar kept the lamp lit all night. That is why the ship was saved.", "c")])
    >>> [x.text for x, _ in reason_spans(s)][-1]
    'Mira came late. Edgar kept the lamp lit all night. That is why the ship was saved.'
    >>> [x.text.count("lamp") for x, _ in reason_spans(s)]
    [0, 1, 1, 1, 1]
    """
    out = []
    for b, s in enumerate(sentences):  # each sentence alone, or with the one before it when its subject points back there
        if b and sentences[b - 1].passage == s.passage and _ANAPHORIC.match(s.text):
            s = _span(sentences, b - 1, b)
        w = reason_weight(s.text)
        out.append((dataclasses.replace(s, text=trimmed(s.text)) if w else s, float(w)))
    for b, s in enumerate(sentences):
        if _POINTS_BACK.search(s.text):
            for a in range(b - 1, max(-1, b - 1 - AFTER), -1):  # the shorter first: it wins a tie
                if sentences[a].passage == s.passage:
                    out.append((_span(sentences, a, b), max(CAUSAL, reason_weight(s.text))))
    for a, w, b in _replies(sentences):
        because = _POINTS_BACK.search(sentences[b].text) is not None
        if because or not re.search(r"!['’\"”]?\s*$", sentences[b].text):  # an exclamation answers no why unless it says because
            out.append((_span(sentences, a, b, shown=w), REPLY + (CAUSAL if because else 0)))
    return out


def reason_score(span: _Sentence, weight: float, q: _Question) -> float:
    """How well a span answers a why-question: its coverage of the question's terms (a span giving a
    reason also covers the question's "reason", "purpose"), more by its reason bonus; less by
    :data:`ASKED` for a span ending in a question.

    >>> q = _Question("What reason did Fred give for getting married?", ["Fred"])
    >>> s = _Sentence(0, "'Why did Fred get married?' 'Because he fell in love.'", frozenset({"fred", "get", "marri"}))
    >>> reason_score(s, REPLY, q) > reason_score(s, 0, q)
    True
    >>> asked = _Sentence(0, "Why did Fred get married?", frozenset({"fred", "get", "marri"}))
    >>> reason_score(asked, 0, q) < reason_score(s, 0, q)
    True
    """
    tokens = span.tokens | (_REASON_WORDS if weight > 0 else frozenset())
    asks = _ENDS_ASKING.search(span.text) is not None  # a question states no reason: it is asked, not answered
    return q.coverage(tokens) * (1 + weight) * (ASKED if asks else 1)


def ranked_reasons(question: str, q: _Question, sentences: Sequence[_Sentence]
                   ) -> tuple[list[_Sentence], list[float], list[float], list[int]]:
    """The spans that may answer a why-question (:func:`reason_spans`), their scores
    (:func:`reason_score`), their reason weights and their indices best first. A tie goes to the span whose own text (not the
    dialogue before it) says more of the question, then to the one saying more of it besides the
    words of an "of" phrase ("Why does X value the obedience of the troops?": the obedience, more
    than the troops), then to the first.

    >>> question = "Why does Cruz value the obedience of the troops?"
    >>> q = _Question(question, ["Cruz"])
    >>> said = [_Sentence(0, t, _roots(t)) for t in ("Cruz eyed the troops.", "Obedience was a tool, and Cruz wielded it.")]
    >>> spans, scores, _, order = ranked_reasons(question, q, said)
    >>> scores[0] == scores[1], spans[order[0]].text
    (True, 'Obedience was a tool, and Cruz wielded it.')
    """
    spans = reason_spans(sentences)
    scores = [reason_score(s, w, q) for s, w in spans]
    shown = [q.coverage(_roots(s.text)) for s, _ in spans]
    qualifiers = frozenset(_root(m.group(1).lower()) for m in _OF_PHRASE.finditer(question))
    heads = [q.coverage(s.tokens - qualifiers) for s, _ in spans]
    order = sorted(range(len(spans)), key=lambda k: (-scores[k], -shown[k], -heads[k], spans[k][0].passage, k))
    return [s for s, _ in spans], scores, [w for _, w in spans], order
