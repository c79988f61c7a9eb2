"""Numbers, counts and time expressions: the patterns a how-many or a when question takes its answers from,
the thing counted, and the count a span says."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..text import STOPWORDS
from .words import _AUXILIARIES, _root, _roots, _Sentence, _word_roots

_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
                 "thousand million dozen").split()

_NUMBER_WORD = "(?:" + "|".join(_NUMBER_WORDS) + ")"

#: a count: digits, or number words alone or compounded ("eighteen hundred", "five-and-twenty", "twenty-one",
#: "two and a half"); "once", "twice", "thrice" count times
_NUMBER = re.compile(r"\b(?:(?:\d[\d,.]*\d|\d|" + _NUMBER_WORD + r")(?:(?:\s+|-)(?:and(?:\s+|-))?" + _NUMBER_WORD
                     + r"){0,3}(?:\s+and\s+a\s+half)?|once|twice|thrice)\b", re.I)

_TIMES_SAID = frozenset({"once", "twice", "thrice"})

#: "once" as an idiom, not a count: "at once", "all at once", "once upon a time", "once more", "once again",
#: and "once" opening a clause ("Once he arrived, …", a conjunction)
_ONCE_IDIOM_BEFORE = re.compile(r"\bat\s+$", re.I)
_ONCE_IDIOM_AFTER = re.compile(r"\s+(?:upon|more|again|and\s+for\s+all|(?:he|she|they|it|we|I|you|the|a|an|his|her|their)\b)", re.I)

_MONTHS = "January February March April May June July August September October November December"

#: a month's name; "May" opening a sentence or clause (after a quote or .!?;:) as a wish or a question is the
#: verb ("May it haunt their house", "'May I come in?'"), not after a word ("In May the roses bloomed")
_MAY_VERB = r"(?:it|he|she|they|we|you|I|God|heaven|the|this|that|his|her|their|your|our|all|each|every)\b"
_MONTH = "(?:" + "|".join(_MONTHS.split()).replace(
    "May", r"(?:(?<=[^\s.!?;:\"“”‘’'(_\[]\s)May|(?<=[^\s.!?;:\"“”‘’'(_\[]\s\s)May|May(?!\s+" + _MAY_VERB + "))") + ")"

_ORDINAL = (r"(?:\d{1,2}(?:st|nd|rd|th)|(?:(?:twenty|thirty)-)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)"
            r"|tenth|eleventh|twelfth|(?:thir|four|fif|six|seven|eigh|nine)teenth|twentieth|thirtieth)")

#: a time expression: a date, a weekday, a feast's day, "seven years ago", "this very night", "to-morrow",
#: "at midnight", "two o'clock" (month names only capitalised: "may" is a verb); an underscore of
#: italics around it does not join it to a word ("_December, 1843._")
_ONE_TIME = (
    r"(?<![^\W_])(?:(?i:" + _ORDINAL + r"\s+(?:day\s+)?of\s+)" + _MONTH + r"(?:,?\s+\d{4})?"
    r"|(?:\d{1,2}\s+)?" + _MONTH + r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?(?:,?\s+\d{4})?|\d{4}"
    r"|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
    r"|(?i:(?:Christmas|New\s+Year['’]?s?|Easter|Midsummer)[\s-]+(?:Eve|Day|morning|night|evening|time))"
    r"|(?i:(?:\d+|" + _NUMBER_WORD + r"(?:[\s-]+" + _NUMBER_WORD + r"){0,3})\s+(?:\w+\s+)?(?:seconds?|minutes?|hours?|days?|nights?|"
    r"weeks?|months?|years?|centur(?:y|ies))\s+(?:ago|before|later|earlier|since|hence))"
    r"|(?i:(?:this|that|last|next|the\s+next|the\s+same|the\s+following|the\s+previous|one|every)\s+(?:very\s+)?"
    r"(?:night|morning|evening|afternoon|day|week|month|year|hour|winter|summer|spring|autumn))"
    r"|(?i:(?:to-?morrow|to-?night|to-?day|yesterday)(?:\s+(?:night|morning|evening|afternoon))?)"
    r"|(?i:midnight|noon|dawn|daybreak|sunrise|sunset|nightfall)"
    r"|(?i:(?:\d{1,2}|" + _NUMBER_WORD + r")\s+o['’]clock)"
    r")(?![^\W_])"
)

#: a clause that says a time by what happens then ("when the bell tolls One", not the question "when
#: will he come"), up to seven words, ending its clause; a period since or until an event named by one
#: noun ("since the briefing", not "since the storm ended")
_TIME_CLAUSE = (r"(?<![\w'’])(?i:when)\s+(?!(?i:will|would|did|do|does|is|are|was|were|shall|should|can|could|has|have|had)\b)"
                r"(?:[\w'’-]+\s+){1,6}?[\w'’-]*\w(?=\s*(?:[,;:.!?()\"“”—]|['’](?:\s|$)|$)"
                r"|\s+(?:it|he|she|they|I|we|you|there)\s)"  # "When Scrooge awoke | it was so dark"
                r"|(?<![\w'’])(?i:since|until|till|during|after)\s+(?i:the|his|her|their|its|our|my|your|that|this)\s+[a-z][\w-]*"
                r"(?=\s*(?:[,;:.!?()\"“”—]|$))")

#: a time expression, with the times that follow and narrow it ("to-morrow when the bell tolls One",
#: "the next night at the same hour", "December 24, 2007")
_DATE = re.compile(r"(?:" + _ONE_TIME + r")(?:(?:,?\s+(?:at|on|in)\s+|\s+)(?:" + _ONE_TIME + r")|,?\s+(?:" + _TIME_CLAUSE + r"))*|"
                   + _TIME_CLAUSE)

#: a time said by where the speaker stands (its key: :func:`.rank._span_candidates`): "to-day", "to-night",
#: "this very night", "that day" — what it means only a calendar name said with it tells
_DEICTIC_KEY = re.compile(r"to (?:day|night|morrow)|today|tonight|tomorrow|yesterday"
                          r"|(?:this|that)(?: very)? (?:day|night|morning|evening|afternoon)")

#: a time said by its name in the calendar (its key): a feast's day, a weekday, a date with its month
_CALENDAR_KEY = re.compile(r"(?:christmas|new years?|easter|midsummer) (?:eve|day|morning|night|evening)"
                           r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
                           r"|(?:(?:the )?" + _ORDINAL + r" (?:day )?of |\d{1,2} )(?:" + _MONTHS.lower().replace(" ", "|") + r")(?: \d{4})?"
                           r"|(?:" + _MONTHS.lower().replace(" ", "|") + r") \d{1,2}(?:st|nd|rd|th)?(?: \d{4})?")


def _names_deictic(key: str, other: str) -> bool:
    """Whether the time keyed ``other``, said just after the time keyed ``key``, can be its name: a
    calendar name restating a deictic time ("'To-day!' replied the boy. 'Why, CHRISTMAS DAY.'").

    >>> _names_deictic("to day", "christmas day"), _names_deictic("this very night", "24th of december")
    (True, True)
    >>> _names_deictic("to day", "when the bell tolls"), _names_deictic("seven years ago", "christmas eve")
    (False, False)

    A month's name is a date only with its day ("may" and "march" are verbs too):

    >>> _names_deictic("to day", "when he may come"), _names_deictic("to night", "when the march began")
    (False, False)
    >>> _names_deictic("to day", "december 24 2007"), _names_deictic("to day", "the first of may")
    (True, True)
    """
    return _DEICTIC_KEY.fullmatch(key) is not None and _CALENDAR_KEY.fullmatch(other) is not None


#: the units a "how long / how old" question counts in
_UNITS = frozenset(_root(w) for w in "second minute hour day night week month year century mile yard foot feet inch".split())

#: the units a frequency is said in ("every ten minutes", "twice a week"): those of :data:`_UNITS` up to a year
_FREQUENCY_UNITS = _UNITS - frozenset(_root(w) for w in "century mile yard foot feet inch".split())

#: the words after which "one" is a pronoun, not a count ("no one", "the one", "every one")
_ONE_PRONOUN = re.compile(r"(?:\b(?:no|the|every|any|some|each|this|that|which|a|little|dear|only|another)\s+)$", re.I)


def _counted(question: str) -> frozenset[str]:
    """The roots of what a how-many question counts: the nouns after "how many/much" up to its verb
    ("How many shillings a week …" → shilling); the units of time and length for "how long/old/far".

    >>> sorted(_counted("How many spirits will haunt Scrooge?")), sorted(_counted("How long has he been dead?"))[:3]
    (['spirit'], ['centuri', 'day', 'feet'])
    >>> _counted("Who counts the money?"), {"time", "second"} <= _counted("How often did he call?")
    (frozenset(), True)
    >>> _root("feet") in _counted("How often did he call?"), _root("century") in _counted("How often did he call?")
    (False, False)
    """
    m = re.match(r"\s*how\s+(many|much|long|old|often|far)\b((?:\s+[a-z][\w-]*){0,3})", question, re.I)
    if not m:
        return frozenset()
    if m.group(1).lower() in ("long", "old", "far"):
        return _UNITS
    if m.group(1).lower() == "often":  # a frequency: "every thirty seconds", "three times a day"
        return _FREQUENCY_UNITS | {_root("times")}
    nouns = []
    for w in m.group(2).split():
        if w.lower() in _AUXILIARIES or w.lower() in STOPWORDS:
            break
        nouns.append(_root(w.lower()))
    return frozenset(nouns)


def _counted_span(s: _Sentence, a: int, b: int, counted: frozenset[str]) -> str:
    """A count as the answer states it: with the "a" of "a dozen" and the noun it counts when that
    follows within three words ("fifteen shillings").

    >>> s = _Sentence(0, "The hum of a dozen old servers filled it.", frozenset())
    >>> _counted_span(s, 13, 18, frozenset({_root("servers")})), _counted_span(s, 13, 18, frozenset())
    ('a dozen old servers', 'a dozen')
    >>> _counted_span(_Sentence(0, "He was eighteen minutes and a half late.", frozenset()), 7, 15, frozenset({_root("minutes")}))
    'eighteen minutes and a half'
    >>> [m.group(0) for m in _NUMBER.finditer("two and a half miles, and a half-crown twice")]
    ['two and a half', 'twice']
    """
    start = a - 2 if re.search(r"(?<![\w'’])[aA]\s$", s.text[max(0, a - 3) : a]) else a
    for m in re.finditer(r"\s+([\w'’-]+)", s.text[b:]):
        between = s.text[b : b + m.start()]
        if len(between.split()) >= 3 or re.search(r"[,;:!?()\"“”—]", between):
            break
        if any(r in counted for r in _word_roots(m.group(1))):
            half = re.match(r"\s+and\s+a\s+half\b", s.text[b + m.end() :])  # "eighteen minutes and a half"
            return s.text[start : b + m.end() + (half.end() if half else 0)]
    return s.text[start:b]


def _counts(s: _Sentence, a: int, b: int, counted: frozenset[str]) -> float:
    """How a number at ``s.text[a:b]`` stands to what the question counts: 2 when the counted noun
    follows it in at most three words ("fifteen shillings", "three legs", "a dozen servers", not
    "one of the rooms", a part) or is joined to it ("a four-roomed house"), 1 when
    its sentence or the words around it say the noun, 0.3 when nothing near it does (a count of
    something else). "one" not before the noun is taken for a pronoun ("no one", "one of them"): 0.

    >>> s, coin = _Sentence(0, "His clerk had fifteen shillings a week and one good coat.", frozenset()), frozenset({_root("shillings")})
    >>> _counts(s, 14, 21, coin), _counts(s, 43, 46, coin)
    (2.0, 0.0)
    >>> _counts(_Sentence(0, "He waited three days.", frozenset()), 10, 15, coin)
    0.3
    >>> s = _Sentence(0, "He knocked twice.", frozenset())
    >>> _counts(s, 11, 16, _counted("How many times did he knock?")), _counts(s, 11, 16, coin)
    (2.0, 0.0)
    >>> times = _counted("How many times did she visit?")
    >>> [_counts(_Sentence(0, t, frozenset()), t.index("nce") - 1, t.index("nce") + 3, times)
    ...  for t in ("She left at once.", "Once upon a time she came.", "Once he arrived, she went.", "She came once.")]
    [0.0, 0.0, 0.0, 2.0]
    >>> rooms, t = frozenset({_root("rooms")}), "He blessed his four-roomed house; two of the rooms were cold."
    >>> s = _Sentence(0, t, _roots(t))
    >>> _counts(s, t.index("four"), t.index("four") + 4, rooms), _counts(s, t.index("two"), t.index("two") + 3, rooms)
    (2.0, 1.0)
    """
    if s.text[a:b].lower() in _TIMES_SAID:  # "twice" counts times, and nothing else; "at once" and "once upon" do not count
        idiom = _ONCE_IDIOM_BEFORE.search(s.text[:a]) or _ONCE_IDIOM_AFTER.match(s.text[b:])
        return 2.0 if _root("times") in counted and not idiom else 0.0
    if not counted:
        return 1.0
    joined = re.match(r"-([a-z]+)", s.text[b:])  # "a four-roomed house", "a three-legged stool"
    if joined and counted & set(_word_roots(joined.group(1))):
        return 2.0
    following = re.match(r"(?:\s+[\w'’-]+){1,3}", s.text[b:])
    words = [r for w in (following.group(0).split() if following else []) for r in _word_roots(w)]
    if any(r in counted for r in words[:3]) and not re.match(r"\s+of\b", s.text[b:]):  # "one of the rooms": a part, not the count
        return 2.0
    if s.text[a:b].lower() == "one":
        return 0.0
    before, after = s.context
    around = {r for w in (*before, *after) for r in w} | set(s.tokens)
    return 1.0 if around & counted else 0.3


def _unheaded(s: _Sentence, a: int) -> tuple[_Sentence, int]:
    """The sentence a value at ``s.text[a:]`` stands in, without the heading in capitals the text
    runs into it ("THE FIRST OF THE THREE SPIRITS When Scrooge awoke"), whose words are not its
    context; and where that sentence starts in ``s.text``.

    >>> _unheaded(_Sentence(0, "[Illustration] THE FIRST SPIRIT When he awoke, it was dark.", frozenset()), 32)[0].text
    'When he awoke, it was dark.'
    >>> _unheaded(_Sentence(0, "THE FIRST SPIRIT came when he awoke.", frozenset()), 22)[1]
    0
    """
    head = re.sub(r"\[[^\]]*\]", "", s.text[:a])  # "[Illustration]" marks no words
    if not re.search(r"[A-Z]{2}", head) or re.search(r"[a-z]", head):
        return s, 0
    text = s.text[a:]
    return _Sentence(s.passage, text, _roots(text)), a


#: the names of a book's parts, which its headings number ("Chapter 2", "BOOK III", "Act I", "STAVE FIVE")
_BOOK_PARTS = ("part", "book", "volume", "section", "chapter", "act", "scene", "canto", "stave", "episode")
_PARTS_ALT = "|".join(_BOOK_PARTS)

#: the unit a when-question asks its time in: "What hour …", "At what hour …", "On which day of the
#: week …", "In what year …", "Which month …", "On what night of the year …" (a day the calendar names;
#: not "what day", which any time may answer: "to-morrow", "the day after")
_ASKED_UNIT = re.compile(r"\b(?:what|which)\s+(?:(?P<hour>hour)|(?P<weekday>day\s+of\s+the\s+week|weekday)|(?P<year>year)"
                         r"|(?P<month>month)|(?P<calendar>(?:day|night|evening|morning)\s+of\s+the\s+year|date))s?\b", re.I)

#: the words that name the unit in the question: they say what kind of answer, not what happens then
_UNIT_WORDS = {"hour": ("hour",), "weekday": ("day", "week"), "year": ("year",), "month": ("month",),
               "calendar": ("day", "night", "evening", "morning", "year", "date"),
               **{part: (part,) for part in _BOOK_PARTS}}  # and the parts of a book

#: a word after a number that makes it a count ("nine years old", "at one time", "1500 soldiers"), so no
#: hour nor year: any lower-case word but those that go on a sentence past a time ("at two in the
#: morning", "struck twelve and he rose", "at nine he left", "seven sharp")
_COUNTED_NOUN = (r"\s+(?!(?:in|on|at|to|and|or|but|nor|when|while|as|if|he|she|they|we|i|you|it|that|this|the|then|"
                 r"so|till|until|before|after|by|with|for|sharp|precisely|exactly|punctually|o['’]clock)\b)[a-z]")
_HOUR = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|1[0-2]|0?[1-9])"

#: the values of each unit. An hour: a number after what shows or strikes it ("the hour of seven", "struck
#: eleven", "at nine", "half-past six") and not counting a noun after it ("at nine years old"), a number
#: "o'clock", a clock time ("7:30 p.m."), midnight or noon; a weekday's name; a year of four digits; a month
_UNIT_VALUES = {
    "hour": re.compile(r"(?i:\b(?:(?:the\s+)?hour\s+of|struck|strike|strikes|striking|tolls?|tolled|chimed?|at|past|"
                       r"(?:a\s+)?quarter\s+to)\s+(?P<v>" + _HOUR + r")\b(?!" + _COUNTED_NOUN + r"|-|[:.]\d)(?:\s+o['’]clock)?"
                       r"|\b(?P<w>" + _HOUR + r"\s+o['’]clock|(?:1[0-2]|0?[1-9])[:.][0-5]\d(?:\s*[ap]\.m\.|\s*[ap]m\b)?"
                       r"|midnight|noon|mid-day|midday)(?!\w))"),
    "weekday": re.compile(r"\b(?P<v>(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day)\b"),
    "year": re.compile(r"(?<![\d,.$£€])(?P<v>1[0-9]\d\d|20\d\d)(?![\d,]\d|" + _COUNTED_NOUN + ")"),
    "month": re.compile(r"\b(?P<v>" + _MONTH + r")\b"),
    "calendar": re.compile(r"(?<![^\W_])(?P<v>(?i:(?:Christmas|New\s+Year['’]?s?|Easter|Midsummer)[\s-]+(?:Eve|Day))"
                           r"|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|(?i:(?:the\s+)?" + _ORDINAL + r"\s+(?:day\s+)?of\s+)" + _MONTH
                           + r"|" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?\b)(?![^\W_])"),
}


def _asked_unit(question: str) -> str | None:
    """The unit a when-question asks its time in (``hour``, ``weekday``, ``year``, ``month``), or None.

    >>> [_asked_unit(q) for q in ("What hour does the clock show?", "On which day of the week did he go?",
    ...                           "In what year was it printed?", "Which month is it?", "On what night of the year did he die?")]
    ['hour', 'weekday', 'year', 'month', 'calendar']
    >>> _asked_unit("What day does he call the boy?"), _asked_unit("When did he die?")
    (None, None)
    """
    m = _ASKED_UNIT.search(question)
    return next((u for u, v in m.groupdict().items() if v), None) if m else None


def _unit_values(text: str, unit: str) -> list[tuple[int, int, str]]:
    """The values of ``unit`` (:data:`_UNIT_VALUES`) in ``text``: each one's span and the value said.

    >>> _unit_values("He looked at the clock, which pointed to the hour of seven. At nine years old he came.", "hour")
    [(53, 58, 'seven')]
    >>> [v for _, _, v in _unit_values("At two in the morning it struck twelve and he rose; at nine he left.", "hour")]
    ['two', 'twelve', 'nine']
    >>> [v for _, _, v in _unit_values("The clock struck eleven; at 7:30 p.m. or at midnight, not at one time.", "hour")]
    ['eleven', '7:30 p.m.', 'midnight']
    >>> [v for _, _, v in _unit_values("May it haunt them, he said in May, or May 5.", "month")]
    ['May', 'May']
    >>> [v for _, _, v in _unit_values("In May the roses bloomed; in May this year. 'May I come in?' May it rain.", "month")]
    ['May', 'May']
    >>> [v for _, _, v in _unit_values("He would walk there on a Sunday, not on Christmas Day.", "weekday")]
    ['Sunday']
    >>> [v for _, _, v in _unit_values("Printed in 1915, it cost $1200 and 1,843 copies; December, 1843.", "year")]
    ['1915', '1843']
    >>> _unit_values("He had 1500 soldiers.", "year")
    []
    >>> [v for _, _, v in _unit_values("On Christmas Eve, the twenty-fifth of December, or a Sunday; not this very night.", "calendar")]
    ['Christmas Eve', 'the twenty-fifth of December', 'Sunday']
    """
    out = []
    for m in _UNIT_VALUES[unit].finditer(text):
        g = "v" if m.group("v") else "w"
        out.append((m.start(g), m.end(), m.group(g)))
    return out


#: how much the question's terms in a time's sentence and the next one support a time that closes its
#: sentence (:func:`_closes_sentence`): less than a time of the asked unit told within two (:data:`.rank.STATED`)
TOLD_ON = 0.5


def _closes_sentence(text: str, b: int) -> bool:
    """Whether a time ending at ``text[b]`` closes its sentence (only punctuation and quotes after it):
    said last, it is what the sentence tells, and the next sentence goes on about the same moment
    ("I've felt that way since the briefing. Like there's a layer we're not seeing.").

    >>> t = "I've felt that way since the briefing."
    >>> _closes_sentence(t, t.index(" briefing") + 9), _closes_sentence("Since the briefing he was calm.", 18)
    (True, False)
    """
    return re.fullmatch(r"[\s.!?;:'’\"”)\]—-]*", text[b:]) is not None


def _told_on(sentences: Sequence[_Sentence], k: int, own: frozenset[str], b: int, cover: Callable[[set[str]], float]) -> float:
    """How much of the question a time ending at ``sentences[k].text[b]`` and closing its sentence is
    told with: ``cover`` of its sentence's words ``own`` (without a heading) and the next sentence's, in
    its passage, times :data:`TOLD_ON`; 0 for a time inside its sentence (its words around it say it).

    >>> from ragprov.llm.engine import Passage
    >>> from ragprov.llm.answer.words import _sentences
    >>> ss = _sentences([Passage("I've felt it since the briefing. There's a layer we're not seeing.", "c")])
    >>> layer = lambda w: float("layer" in w)
    >>> _told_on(ss, 0, ss[0].tokens, len(ss[0].text) - 1, layer), _told_on(ss, 0, ss[0].tokens, 14, layer)
    (0.5, 0.0)
    """
    s = sentences[k]
    if not _closes_sentence(s.text, b):
        return 0.0
    words = set(own)
    if k + 1 < len(sentences) and sentences[k + 1].passage == s.passage:
        words |= sentences[k + 1].tokens
    return TOLD_ON * cover(words)


#: "In which chapter …?", "What act …": the part of the book a question asks for
_ASKED_PART = re.compile(r"\b(?:which|what)\s+(?P<p>" + _PARTS_ALT + r")\b", re.I)

_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}

#: a part's heading: "## Chapter 2", a line opening "Chapter 2", or in capitals "STAVE FIVE", "CHAPTER IV"
_PART_HEADING = re.compile(r"(?:(?:^|\n)[ \t]*(?:#+[ \t]*)?|#+[ \t]*)(?P<p>"
                           + "|".join(f"[{p[0].upper()}{p[0]}]{p[1:]}" for p in _BOOK_PARTS) + r")[ \t]+"
                           r"(?P<n>\d+|[IVXLC]+\b|[A-Za-z]+)"
                           r"|(?<![\w'’])(?P<P>" + _PARTS_ALT.upper() + r")\s+(?P<N>\d+|[IVXLC]+|[A-Z]+)\b")


def _part_number(word: str) -> int | None:
    """The number a part's heading gives: digits, a Roman numeral, or a number word up to twenty.

    >>> [_part_number(w) for w in ("2", "IV", "FIVE", "twelve", "Marley")]
    [2, 4, 5, 12, None]
    """
    if word.isdigit():
        return int(word)
    low = word.lower()
    if low in _NUMBER_WORDS[1:21]:
        return _NUMBER_WORDS.index(low)
    if word.isupper() and all(c in _ROMAN for c in low):
        values = [_ROMAN[c] for c in low]
        return sum(-v if v < w else v for v, w in zip(values, [*values[1:], 0], strict=True))
    return None


def _part_of(before: str, after: str, part: str) -> str | None:
    """The part (chapter, stave) a sentence stands in, from its passage's text ``before`` and ``after``
    it: the last heading of that part before it, else the one before the first heading after it
    ("… Cruz began checking over gear. … ## Chapter 2" → Chapter 1); None when neither says.

    >>> _part_of("## Chapter 3\\n\\nThey met.", "Then ## Chapter 4", "chapter")
    'Chapter 3'
    >>> _part_of("Cruz checked.", " ## Chapter 2 Sam sat.", "chapter")
    'Chapter 1'
    >>> _part_of("It dwindled down into a bedpost. STAVE FIVE THE END OF IT", "", "stave")
    'Stave 5'
    >>> _part_of("He read chapter and verse.", "in the first chapter", "chapter") is None
    True
    >>> _part_of("ACT III SCENE 2 A heath.", "", "scene"), _part_of("## Book 2 They rode.", "", "book")
    ('Scene 2', 'Book 2')
    """
    def numbered(m: re.Match[str]) -> int | None:
        kind = (m.group("p") or m.group("P")).lower()
        return _part_number(m.group("n") or m.group("N")) if kind == part.lower() else None

    said = [n for n in map(numbered, _PART_HEADING.finditer(before)) if n is not None]
    if said:
        return f"{part.capitalize()} {said[-1]}"
    following = next((n for n in map(numbered, _PART_HEADING.finditer(after)) if n is not None), None)
    return f"{part.capitalize()} {following - 1}" if following is not None and following > 1 else None


def asked_part(question: str) -> str | None:
    """The part of the book a question asks for (one of :data:`_BOOK_PARTS`: "chapter", "act", "book"), or None.

    >>> asked_part("In which chapter does Cruz check the gear?"), asked_part("In which room does Cruz check the gear?")
    ('chapter', None)
    >>> asked_part("In which act does the king die?"), asked_part("In what book is the war told?")
    ('act', 'book')
    """
    m = _ASKED_PART.search(question)
    return m.group("p").lower() if m else None


def part_answer(part: str, sentences: Sequence[_Sentence], scores: Sequence[float], least: float) -> tuple[int, int, str] | None:
    """The answer to "In which ``part`` …?": the part (:func:`_part_of`) the best-aligned sentence that a
    heading places stands in, among the sentences covering (``scores``, without the word ``part``: a heading
    says it) at least ``least`` and 3/4 of the best's score; its index twice and the part; None when no such
    sentence is placed.

    >>> from ragprov.llm.engine import Passage
    >>> from ragprov.llm.answer.words import _sentences
    >>> ss = _sentences([Passage("Cruz checked the gear in the bay. ## Chapter 2 Sam sat.", "c")])
    >>> part_answer("chapter", ss, [0.8, 0.1], 0.15), part_answer("chapter", ss, [0.3, 0.8], 0.15)
    ((0, 0, 'Chapter 1'), (1, 1, 'Chapter 2'))
    >>> part_answer("chapter", ss, [0.1, 0.0], 0.15) is None
    True
    """
    order = sorted(range(len(sentences)), key=lambda k: (-scores[k], k))
    if not order:
        return None
    floor = max(least, 0.75 * scores[order[0]])
    for k in order:
        if scores[k] < floor:
            break
        s = sentences[k]
        opening = _PART_HEADING.match(s.text.lstrip())  # a heading the sentence opens with is before its words
        before = " ".join(t.text for t in sentences[:k] if t.passage == s.passage) + (" " + opening.group(0) if opening else "")
        after = " ".join(t.text for t in sentences[k + 1 :] if t.passage == s.passage)
        found = _part_of(before, (s.text[opening.end() :] if opening else s.text) + " " + after, part)
        if found is not None:
            return k, k, found
    return None


#: how many sentences before the one telling the asked act an event it follows may be introduced in
EVENT_BACK = 4

#: how many sentences an act may be told over ("Cruz was the first to react." "'Systems check." "Now,' they barked out")
ACT_SPAN = 3

#: the least share of the question the sentences telling the asked act must cover for an event before it to answer
EVENT_COVER = 0.7

#: an event a sentence introduces: a noun phrase opened by "a"/"an", up to its clause's end or twelve words
#: ("a shudder that ran through the elevator")
_INTRODUCED = re.compile(r"(?<![\w'’])[Aa]n?\s+(?P<np>[a-z][\w'’-]*(?:\s+[\w'’-]+){0,11})")


def _introduced_event(text: str, is_event: Callable[[str], bool]) -> str | None:
    """The first event ``text`` introduces (:data:`_INTRODUCED`; ``is_event`` says which of the phrase's
    first three words is a noun of an event): "a shudder that ran through the elevator" (what follows
    restates it: "… a vibration that seemed to emanate from the walls—a whisper of something").

    >>> ev = lambda w: w in {"shudder", "exchange"}
    >>> _introduced_event("The exchange was cut short by a shudder that ran through the elevator, subtle.", ev)
    'a shudder that ran through the elevator'
    >>> _introduced_event("The exchange ended with a nod.", ev) is None
    True
    """
    return next((m.group(0) for m in _INTRODUCED.finditer(text) if any(is_event(w) for w in m.group("np").split()[:3])), None)


def event_answer(question: str, sentences: Sequence[_Sentence], cover: Callable[[set[str]], float],
                 names_doer: Callable[[set[str]], bool], is_event: Callable[[str], bool]) -> tuple[int, int, str] | None:
    """The answer to a when-question no time expression answers: the event introduced (:func:`_introduced_event`)
    in the few sentences (:data:`EVENT_BACK`) before the sentences (:data:`ACT_SPAN`) that best tell the asked act,
    nearest first, in their passage, when they cover (``cover``) at least :data:`EVENT_COVER` of the question, name
    whom it asks about (``names_doer``: an act of someone, not "When did the crash happen?") and say no time
    themselves ("The exchange was cut short by a shudder … Cruz was the first to react. 'Systems check. Now,'
    they barked out" → after a shudder …); the act's first sentence, the event's, and the phrase.

    >>> from ragprov.llm.engine import Passage
    >>> from ragprov.llm.answer.words import _sentences
    >>> ss = _sentences([Passage("Then came a shudder.\\n\\nCruz reacted. 'Check!' Cruz barked.", "c")])
    >>> barks = lambda w: 0.9 if {"cruz", "bark"} <= w else 0.1
    >>> cruz, shudder = lambda w: "cruz" in w, lambda w: w == "shudder"
    >>> event_answer("When did Cruz bark?", ss, barks, cruz, shudder)
    (1, 0, 'after a shudder')
    >>> event_answer("When did Cruz bark?", ss, lambda w: 0.3, cruz, shudder) is None
    True
    >>> event_answer("When did the bark happen?", ss, barks, lambda w: False, shudder) is None
    True
    """
    if _asked_unit(question) is not None:
        return None
    windows = [[j for j in range(k, min(len(sentences), k + ACT_SPAN)) if sentences[j].passage == s.passage]
               for k, s in enumerate(sentences)]
    covers = [cover(set().union(*(sentences[j].tokens for j in ks))) for ks in windows]
    best = max(range(len(windows)), key=lambda k: (covers[k], -k), default=None)
    if best is None or covers[best] < EVENT_COVER:
        return None
    ks = windows[best]
    if not names_doer(set().union(*(sentences[k].tokens for k in ks))):
        return None
    if any(_DATE.search(sentences[k].text) for k in ks):
        return None
    first = ks[0]
    for j in range(first - 1, max(-1, first - 1 - EVENT_BACK), -1):
        if sentences[j].passage != sentences[first].passage:
            break
        event = _introduced_event(sentences[j].text, is_event)
        if event is not None:
            return first, j, "after " + event[0].lower() + event[1:]
    return None


#: how many sentences back a section's heading may stand from a time that closes the section
SECTION_BACK = 8

#: a heading before a text: words in capitals, then a word in lower case ahead ("PREFACE I have endeavoured",
#: "CHARACTERS Bob Cratchit", "STAVE FIVE THE END OF IT Yes!"), or a markdown heading ("## Chapter 2");
#: read token by token, so a long run of capitals (a licence's block) costs its length, not its square
_CAPS_WORD = re.compile(r"[A-Z][A-Z'’-]*")


def _heading_start(text: str) -> int | None:
    """Where the last heading in a sentence (a run of words in capitals, the first of three letters or more,
    before a word with a lower-case letter; or a markdown "#"; "[Illustration]" marks no words) starts,
    or None: the front matter in capitals runs into the section it heads.

    >>> [_heading_start(t) for t in ("PREFACE I have endeavoured.", "_ CHARACTERS Bob Cratchit, clerk.", "## Chapter 2 Sam sat.")]
    [0, 2, 0]
    >>> _heading_start("PRINTED IN BRITAIN PREFACE I have it."), _heading_start("## CHAPTER TWO Sam sat.")
    (0, 3)
    >>> [_heading_start(t) for t in ("Bob sat.", "I am here.", "'EH?' returned the boy.", "OK then.", "his name, EBENEZER SCROOGE.")]
    [None, None, None, None, None]

    A run of thousands of words in capitals is read once (a licence's block):

    >>> _heading_start(" ".join(["LICENSE"] * 4000) + " of it."), _heading_start("his " + " ".join(["TERMS"] * 4000) + ".")
    (0, None)
    """
    plain = re.sub(r"\[[^\]]*\]", lambda m: " " * len(m.group(0)), text)
    tokens = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"\S+", plain)]
    last, i = None, 0
    while i < len(tokens):
        start, end, word = tokens[i]
        if word.strip("#") == "" and end < len(plain):  # "## " opens a markdown heading
            last, i = start, i + 1
            continue
        j = i
        while j < len(tokens) and _CAPS_WORD.fullmatch(tokens[j][2]):
            j += 1  # the run of words in capitals from here
        first = next((k for k in range(i, j) if len(tokens[k][2]) >= 3), None)
        if first is not None and j < len(tokens) and re.search("[a-z]", tokens[j][2]):
            last = tokens[first][0]
        i = max(j, i + 1)
    return last


def _section_told(sentences: Sequence[_Sentence], k: int, b: int, cover: Callable[[set[str]], float]) -> float:
    """How much of the question the section a time ending at ``sentences[k].text[b]`` closes says (``cover`` of
    its words from its heading, at most :data:`SECTION_BACK` sentences back, to the time): a date that ends a
    section (the next sentence opens a heading) dates it ("PREFACE I have endeavoured in this Ghostly little
    book … C. D. _December, 1843._ CHARACTERS Bob …"); 0 for a time that closes no section.

    >>> from ragprov.llm.engine import Passage
    >>> from ragprov.llm.answer.words import _sentences
    >>> ss = _sentences([Passage("PREFACE I wrote this book. C. D. December, 1843. CHARACTERS Bob Cratchit, clerk.", "c")])
    >>> preface = lambda w: len(w & {"prefac", "book"}) / 2
    >>> [round(_section_told(ss, k, len(s.text) - 1, preface), 2) for k, s in enumerate(ss)]
    [0.0, 1.0, 0.0]
    """
    s = sentences[k]
    following = sentences[k + 1] if k + 1 < len(sentences) and sentences[k + 1].passage == s.passage else None
    if following is None or not _closes_sentence(s.text, b) or _heading_start(following.text.lstrip("_ ")) != 0:
        return 0.0
    for j in range(k, max(-1, k - 1 - SECTION_BACK), -1):
        if sentences[j].passage != s.passage:
            break
        at = _heading_start(sentences[j].text[:b] if j == k else sentences[j].text)
        if at is not None:
            return cover(set(_roots(sentences[j].text[at:])).union(*(t.tokens for t in sentences[j + 1 : k + 1])))
    return 0.0
