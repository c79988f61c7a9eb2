"""First-line accuracy of the offline answers, per mode, on questions about the two real
Microsoft GraphRAG indexes (A Christmas Carol, bundled; Operation Dulce, the test fixture).

The questions and their expected answers (aliases) are in ``bench/answers.jsonl``, written from
the texts; ``"answers": null`` marks a question the data does not answer; ``"split": "heldout"``
marks the questions kept apart from tuning. ``bench/answers-fresh.jsonl`` (``"split": "fresh"``)
holds questions written by someone who never saw the answers nor the extractor (tuned on since
stop 22); ``bench/answers-sealed.jsonl`` (``"split": "sealed"``) holds 70 more, written the same way
from the texts alone and measured only at the end of stop 22, before anyone tuned on them: the
estimate of how the modes do on questions nobody has seen, read only when named
(``--questions bench/answers-sealed.jsonl``) so that no routine run invites tuning on it; it was
tuned on in stop 23. ``bench/answers-sealed2.jsonl`` (``"split": "sealed2"``, 78 questions, 8 of
them unanswerable) was written in stop 23 from the texts alone by someone who saw no code and no
earlier set, measured on the first and last commit of that stop, and committed as tuning data in
stop 24 (figures in the closing notes). ``bench/answers-probe.jsonl`` (``"split": "probe"``, 44
questions, 28 of them unanswerable: things the texts name, asked about what they never state) was
written in stop 25 to test the answerability rules, before they changed; it is tuning data.
``bench/answers-dev5.jsonl`` (``"split": "dev5"``, 27 questions) was written in stop 26 from the texts alone by
two writers, beside a check set kept outside the repository (split ``check5``): a question whose split starts
with ``check`` is counted but never printed, so a check set can gate a change without being tuned on. ``bench/answers-yesno.jsonl``
(``"split": "yesno"``, 40 yes-no questions, half "Yes", half "No": negated, modal and perfect questions, and "No"s
that come from a contrary fact or another doer, object, place or time) was written in stop 27 from the texts alone,
before the yes-no rules were read, to fit those rules on more than the few yes-no questions of the other files; it
is tuning data.
``bench/answers-whose.jsonl`` (``"split": "whose"``, 30 questions: "Whose N ...?", "Which N ...?" and "What is the
name of ...?") was written in stop 27 from the texts alone, before its writer read the answer step.
``bench/answers-frames.jsonl`` (``"split": "frames"``, 29 questions) was written in stop 27 from the texts to tune
the questions whose wh-word is not first ("In the scene where …, who …?", "According to X, what …?", "Where, at
the party, does …?", "Into what …?"), a shape the other files seldom have; it is tuning data.
``bench/answers-shapes.jsonl`` (``"split": "shapes"``, 40 questions) was written in stop 28 from the texts,
before its writer read how the answer step parses them, in shapes the other files lack: a frame holding a
relative clause, clefts ("Who is it that …?"), a passive asking its agent ("By whom …?"), a wh-word left at
the end ("… with whom?"), a preposition left at the end, "turn out to", "How did X react …?" and "What happens
to X when …?"; ``bench/answers-typed.jsonl`` (``"split": "typed"``, 28 questions, 5 unanswerable) was written in
stop 28 the same way for "Which N …?", "What kind of N …?" and "Which of the Ns …?". Both are tuning data now
(written this stop, they were not part of its gate). ``bench/answers-yesno2.jsonl`` (``"split": "yesno2"``,
20 yes-no questions, 10 Yes and 10 No) was written in stop 29 the same way; it is tuning data too.
``bench/answers-dev6.jsonl`` (``"split": "dev6"``, 66 questions, 9 unanswerable) was written in stop 30 by three
writers who saw only the texts, to the same spread of kinds as the sealed sets, and kept only where it shares no
answer and little wording with that stop's sealed set; it is tuning data. Accuracy is
printed per split. Every alias is
said verbatim by its text, except a yes-no answer and a count the reader
makes (``"inferred": true``); ``tests/core/test_bench_questions.py`` checks it. A first line is right when it
names one of the aliases (case-insensitive) — or, for an unanswerable question, when it says the data does not
answer. Every mode runs the offline engine over a store loaded once per dataset (in memory, or kept under ``--cache``).

    python bench/answers.py [--questions FILE ...] [--modes graph-rag,doc-rag,local,global,drift,agent] [--cache DIR] [-v] [--failures]
        [--by-kind]

``--failures`` prints a table of the wrong first lines, each classed by where it failed:
``retrieval`` (no expected name in the evidence the mode kept), ``extraction`` (an expected name
was there; its rank among the weighed candidates is shown) or ``false answer`` (an unanswerable
question answered).

``--by-kind`` prints, summed over the modes run, how many first lines were right of how many for each kind of
question (as the answer step types it: who, what, yes-no …; a yes-no question apart by its expected answer, an
unanswerable one apart) and each form of first line (``named``: "The answer is …"; ``yes``, ``no``; ``sentence``: a
sentence of the evidence; ``declined``), then how many wrong first lines failed where (as ``--failures`` classes
them; a yes-no question's apart). It prints counts only, so it may run on a check split: it is how stop 31
found that on unseen yes-no questions whose answer is No the first line said Yes more often than No.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ragprov.llm.answer import classify  # noqa: E402
from ragprov.loaders.graphrag import load_graphrag  # noqa: E402
from ragprov.pipelines import PIPELINES, pipeline  # noqa: E402
from ragprov.record import Recorder  # noqa: E402
from ragprov.resources import data_dir  # noqa: E402
from ragprov.store import open_store  # noqa: E402

DATASETS = {
    "christmas-carol": data_dir() / "graphrag" / "christmas-carol-v3",
    "operation-dulce": ROOT / "tests" / "fixtures" / "graphrag" / "operation-dulce-v3",
}
MODES = ("graph-rag", "doc-rag", "local", "global", "drift", "agent", "basic")
NOT_ANSWERED = "the data does not answer"


def load_questions(paths: list[Path]) -> list[dict]:
    """The questions of every file, in order; a question without a ``split`` is a training one."""
    return [{"split": "train", **json.loads(line)} for path in paths
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def first_line(answer: str) -> str:
    return next((line for line in answer.splitlines() if line.strip()), "")


def is_right(line: str, expected: list[str] | None) -> bool:
    """Whether a first line gives the expected answer (or, for ``None``, declines to answer); a
    yes-no answer ("Yes", "No") must open the line.

    >>> is_right("No: Jordan was not one to embrace it [1].", ["No"]), is_right("Yes: it is not known.", ["No"])
    (True, False)
    >>> is_right("The answer is Joey [1].", ["Joe"]), is_right("The answer is old Joe [1].", ["Joe"])
    (False, True)

    An alias names its possessive too, and a common noun (a lower-case alias) its plural ("poulterer"
    is in "the Poulterer's", and in "Poulterers"), never a longer word nor a name's "plural":

    >>> [is_right(f"The answer is the {w} [1].", ["poulterer"]) for w in ("Poulterers", "Poulterer's", "poulterership")]
    [True, True, False]
    >>> is_right("Yes: at times he came [1].", ["Tim"]), is_right("The answer is Tim's [1].", ["Tim"])
    (False, True)
    >>> is_right("The answer is boxes [1].", ["box"]), is_right("The answer is fans [1].", ["Fan"])
    (True, False)
    """
    low = " ".join(line.lower().split())
    if expected is None:
        return NOT_ANSWERED in low
    if NOT_ANSWERED in low:
        return False
    # "Yes"/"No" must be the answer the line opens with ("no" is inside "not", "nothing", "know");
    # any other alias must stand as whole words ("Tim" is not in "Timothy", "Joe" not in "Joey"),
    # in the singular or plural, or possessive
    said = re.match(r"[a-z]+", low)
    return any((said is not None and said.group(0) == a.lower()) if a.lower() in ("yes", "no")
               else re.search(r"(?<!\w)" + re.escape(" ".join(a.lower().split())) + _inflected(a), low) is not None
               for a in expected)


def _withheld(question: dict) -> bool:
    """Whether a question is held back for checking (its split starts with ``check``): it is counted in
    the summary but never printed, not with ``-v`` nor ``--failures``, so that nobody tunes on it."""
    return str(question.get("split", "")).startswith("check")


def _inflected(alias: str) -> str:
    """What may follow ``alias`` in a right first line: nothing of the word, or its possessive; for a
    common noun (a lower-case alias) also its plural ("-es" after a sibilant)."""
    if alias != alias.lower():
        return r"(?:['’]s)?(?!\w)"
    plural = "es" if re.search(r"(?:s|x|z|ch|sh)$", alias) else "s"
    return rf"(?:{plural}|['’]s|{plural}['’])?(?!\w)"


def failure_class(result, expected: list[str] | None) -> tuple[str, int | None]:
    """Where a wrong first line failed: ``retrieval`` when no expected name occurs in the evidence
    the run kept, else ``extraction`` with the rank of the first candidate naming one (``None``:
    not among the weighed candidates); ``false answer`` for an unanswerable question answered."""
    if expected is None:
        return "false answer", None
    aliases = [" ".join(a.lower().split()) for a in expected]
    words = [re.compile(r"(?<!\w)" + re.escape(a) + r"(?!\w)") for a in aliases]
    kept = [" ".join((p.text + " " + " ".join(m.name for m in p.mentions)).lower().split()) for p in result.passages]
    if not any(w.search(text) for w in words for text in kept):
        return "retrieval", None
    found = result.support
    weighed = []
    if found is not None and hasattr(found, "rejected"):
        weighed = ([found.chosen] if found.answered and found.chosen else []) + list(found.rejected)
    rank = next((n for n, c in enumerate(weighed, start=1) if any(a in c.name.lower() for a in aliases)), None)
    return "extraction", rank


#: the forms a first line takes (:func:`line_form`), in the order ``--by-kind`` prints them
FORMS = ("named", "yes", "no", "declined", "sentence")


def line_form(line: str) -> str:
    """The form of a first line: ``named`` (it names the answer), ``yes``, ``no``, ``declined`` or ``sentence``.

    A line is read as :func:`is_right` reads it: white space collapsed, "Yes"/"No" as the word it opens with, the
    refusal anywhere in it.

    >>> [line_form(x) for x in ("The answer is Belle [1].", "Yes: he did [2].", "No: it was shut [1].",
    ...                         "The data does not answer the question: …", "Nobody came [3].")]
    ['named', 'yes', 'no', 'declined', 'sentence']
    >>> [line_form(x) for x in ("No, the gate was shut [1].", "The  answer is  Ann [1].", "Sadly the data does not answer it.")]
    ['no', 'named', 'declined']
    """
    low = " ".join(line.lower().split())
    said = re.match(r"[a-z]+", low)
    if NOT_ANSWERED in low:
        return "declined"
    if said is not None and said.group(0) in ("yes", "no"):
        return said.group(0)
    return "named" if low.startswith("the answer is ") else "sentence"


def yes_no(question: dict) -> bool:
    """Whether a question's expected answer is "Yes" or "No"."""
    return question["answers"] in (["Yes"], ["No"])


def kind_row(question: dict) -> str:
    """The row of ``--by-kind`` a question counts in: its kind as the answer step types it, a yes-no
    question with its expected answer, an unanswerable question apart.

    >>> [kind_row({"question": q, "answers": a}) for q, a in (("Who left?", ["Ann"]), ("Did Ann leave?", ["No"]),
    ...                                                      ("Where did Ann go?", None))]
    ['who', 'yes-no (No)', 'where, unanswerable']
    """
    kind = classify(question["question"]).kind
    if question["answers"] is None:
        return f"{kind}, unanswerable"
    if yes_no(question):
        return f"{kind} ({question['answers'][0]})"
    return kind


def by_kind_table(rows: list[tuple[str, str, bool]]) -> list[str]:
    """The ``--by-kind`` table of (row, form, right) triples: right/count per row and form, and per row.

    >>> print("\\n".join(by_kind_table([("who", "named", True), ("who", "named", False), ("who", "declined", False)])))
    kind    named      yes       no declined sentence     all
    who       1/2        -        -      0/1        -     1/3 33%
    """
    count, right = collections.Counter((r, f) for r, f, _ in rows), collections.Counter((r, f) for r, f, ok in rows if ok)
    forms, names = FORMS, sorted({r for r, _, _ in rows})
    width = max(len(r) for r in [*names, "kind"])
    lines = [f"{'kind':{width}} " + " ".join(f"{f:>8}" for f in forms) + f" {'all':>7}"]
    for row in names:
        n, ok = sum(count[row, f] for f in forms), sum(right[row, f] for f in forms)
        cells = " ".join(f"{f'{right[row, f]}/{count[row, f]}' if count[row, f] else '-':>8}" for f in forms)
        lines.append(f"{row:{width}} {cells} {f'{ok}/{n}':>7} {100 * ok // n}%")
    return lines


def failure_bucket(where: str, rank: int | None) -> str:
    """A wrong first line's class for ``--by-kind`` counts (:func:`failure_class`): an extraction failure by
    whether the expected answer was weighed first, lower, or not at all.

    >>> failure_bucket("retrieval", None), failure_bucket("extraction", None), failure_bucket("extraction", 3)
    ('retrieval', 'extraction, not weighed', 'extraction, weighed lower')
    """
    if where != "extraction":
        return where
    return "extraction, not weighed" if rank is None else "extraction, weighed first" if rank == 1 else "extraction, weighed lower"


def open_dataset(name: str, cache: Path | None):
    location = str(cache / f"answers-{name}") if cache else "memory:"
    store = open_store(location)
    load_graphrag(store, DATASETS[name], show_progress=False)  # skipped when already loaded
    return store


class Tally:
    """What a bench run counted: per mode whether each question's first line was right and the seconds it took, the
    wrong first lines classed (``--failures``) and each (kind row, form, right) triple (``--by-kind``)."""

    def __init__(self, modes: list[str]) -> None:
        self.results: dict[str, list[bool]] = {m: [] for m in modes}
        self.seconds: dict[str, float] = {m: 0.0 for m in modes}
        self.failures: list[tuple[str, str, str, int | None, str]] = []
        self.kinds: list[tuple[str, str, bool]] = []
        self.failed_in: collections.Counter[str] = collections.Counter()


def run(modes: list[str], questions: list[dict], stores: dict, *, by_kind: bool, failures: bool, verbose: bool) -> Tally:
    """Ask every question in every mode, one pipeline per mode and dataset; a check split's question is
    counted but never printed."""
    tally = Tally(modes)
    for mode in modes:
        pipes = {name: pipeline(mode, store, recorder=Recorder(store)) for name, store in stores.items()}
        for q in questions:
            pipe = pipes[q["dataset"]]
            start = time.perf_counter()
            for _ in pipe.run(q["question"]):
                pass
            tally.seconds[mode] += time.perf_counter() - start
            line = first_line(pipe.result.answer)
            ok = is_right(line, q["answers"])
            tally.results[mode].append(ok)
            failed = None if ok or not (by_kind or failures) else failure_class(pipe.result, q["answers"])
            if by_kind:
                tally.kinds.append((kind_row(q), line_form(line), ok))
                if failed is not None:
                    tally.failed_in["yes-no" if yes_no(q) else failure_bucket(*failed)] += 1
            if _withheld(q):
                continue  # a check split: counted, never shown
            if failed is not None and failures:
                tally.failures.append((mode, failed[0], q["question"], failed[1], line))
            if verbose or not ok:
                mark = "ok " if ok else "BAD"
                print(f"  {mark} {mode:9} {q['question']!r} -> {line[:140]!r} (expected {q['answers']})", file=sys.stderr)
    return tally


def print_failures(failures: list[tuple[str, str, str, int | None, str]]) -> None:
    print(f"{'mode':10} {'failed in':12} {'rank':>4}  question -> first line")
    for mode, where, question, rank, line in failures:
        print(f"{mode:10} {where:12} {rank if rank is not None else '-':>4}  {question} -> {line[:90]}")
    classes = sorted({(m, w) for m, w, *_ in failures})
    print("failures per mode and class: " + ", ".join(
        f"{m} {w} {sum(1 for f in failures if f[:2] == (m, w))}" for m, w in classes))


def print_summary(tally: Tally, questions: list[dict], datasets: list[str]) -> None:
    n = len(questions)
    splits = sorted({q["split"] for q in questions}, key=lambda x: (x != "train", x))
    members = {split: [i for i, q in enumerate(questions) if q["split"] == split] for split in splits}
    unanswerable = sum(1 for q in questions if q["answers"] is None)
    print(f"{n} questions ({unanswerable} unanswerable; " + ", ".join(f"{len(members[x])} {x}" for x in splits)
          + f") over {', '.join(datasets)}")
    print(f"{'mode':10} {'right':>7} {'accuracy':>9} " + " ".join(f"{x:>9}" for x in splits) + f" {'s/question':>11}")
    for mode, results in tally.results.items():
        right = sum(results)
        per_split = " ".join(f"{100.0 * sum(results[i] for i in members[x]) / len(members[x]):>8.1f}%" for x in splits)
        print(f"{mode:10} {right:>3}/{n:<3} {100.0 * right / n:>8.1f}% {per_split} {tally.seconds[mode] / n:>11.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=Path, nargs="+", default=[ROOT / "bench" / "answers.jsonl", ROOT / "bench" / "answers-fresh.jsonl"],
                    help="question files (JSON lines); default: the tuning set and the fresh set (the sealed set only when named)")
    ap.add_argument("--modes", default=",".join(m for m in MODES if m in PIPELINES))
    ap.add_argument("--cache", type=Path, default=None, help="keep the loaded stores in this directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every question's first line")
    ap.add_argument("--failures", action="store_true", help="print the wrong answers classed by where they failed")
    ap.add_argument("--by-kind", action="store_true",
                    help="print right/count per kind of question and form of first line, summed over the modes (counts only)")
    args = ap.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    unknown = [m for m in modes if m not in PIPELINES]
    if unknown:
        ap.error(f"unknown mode(s) {', '.join(unknown)}; the modes are {', '.join(PIPELINES)}")
    questions = load_questions(args.questions)
    stores = {name: open_dataset(name, args.cache) for name in sorted({q["dataset"] for q in questions})}
    try:
        tally = run(modes, questions, stores, by_kind=args.by_kind, failures=args.failures, verbose=args.verbose)
    finally:
        for store in stores.values():
            store.close()
    if tally.failures:
        print_failures(tally.failures)
    print_summary(tally, questions, list(stores))
    if args.by_kind:
        print(f"\nright/count per kind of question and form of first line, over {len(modes)} mode(s):")
        print("\n".join(by_kind_table(tally.kinds)))
        print("where the wrong first lines failed: " + ", ".join(f"{k} {n}" for k, n in tally.failed_in.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
