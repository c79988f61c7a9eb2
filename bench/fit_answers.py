"""Fit weights for the offline answer extraction's candidate ranking on the bench's TUNING
questions, and print them with the accuracy they reach on questions they were not fitted on
(:data:`ragprov.llm.answer.WEIGHTS` holds the weights the package ranks by).

A candidate's rank is a weighted sum of named features (:data:`ragprov.llm.answer.FEATURES`: the
logs of its support, best coverage, type fit, novelty, plainness and spread, whether a sentence
states the asked relation of it, how many passages support it, how well the sentence naming it
aligns with the question, …; a new feature is added there, at weight 0, to be fitted). Every mode is run
over the questions of the tuning files (by default all eleven; a split starting with ``check`` or
``sealed6`` is refused by its split field alone, no question kept or printed); each mode's last extraction of a question whose weighable
candidates (:func:`_weighable`) include an expected answer and a wrong one is one training case. The
weights minimise the listwise softmax loss (the expected answers' share of ``exp(rank)`` over the
case's candidates; each question weighs as much as another), with an L2 pull toward the current weights, by gradient descent with numpy.
Leave-question-out cross-validation (folds by question: all of a question's modes in one fold)
prints the accuracy the fitted ranking reaches on questions it was not fitted on.

    python bench/fit_answers.py [--questions FILE ...] [--cache DIR] [--inputs FILE.pkl] [--l2 0.05 ...]
                                [--fixed FEATURE,...] [--reach] [--replay]

``--inputs``: keep the collected extraction inputs there (with each mode's first line, whether it is
right, where it failed and by which answer path), reused when it exists, so that refitting after a
change of the features does not rerun the modes — delete it after changing retrieval. ``--reach``: how
many wrong answers the rank could mend at all (an answer path that bypasses the rank cannot be).
``--replay``: each mode's first-line accuracy with the prior and the fitted weights, rerunning only
the extraction on the saved inputs (``bench/answers.py`` is the measure that counts).
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from answers import MODES, failure_class, first_line, is_right, load_questions, open_dataset  # noqa: E402

from ragprov.llm import answer as extraction  # noqa: E402
from ragprov.llm import offline  # noqa: E402
from ragprov.llm.answer import rank  # noqa: E402
from ragprov.pipelines import pipeline  # noqa: E402
from ragprov.record import Recorder  # noqa: E402


def _splits(path: Path) -> set[str]:
    """The splits a question file's lines name (a line without one is a training question): only the
    ``split`` field of each line is kept, nothing else of a question."""
    return {str(json.loads(line).get("split", "train")) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def _tuning(paths: list[Path]) -> list[dict]:
    """The questions of every file, refusing a held-out split (one starting with ``check`` or ``sealed6``)
    before any question is loaded: the refusal names the splits only, never a question."""
    held = sorted({split for path in paths for split in _splits(path) if split.startswith(HELD_OUT)})
    if held:
        raise SystemExit(f"refusing to fit on held-out split(s) {', '.join(held)}")
    return load_questions(paths)


#: the splits never fitted on (nor read): the check sets and the sealed set of stop 26
HELD_OUT = ("check", "sealed6")


def _path(chosen) -> str:
    """Which answer path gave a first line, read from its chosen candidate's why: ``rank`` (the named
    candidates' rank, what the weights order), ``span`` (a number or a time), ``slot`` (a phrase or person
    in the asked slot, a sentence: no rank), ``none`` (not answered)."""
    if chosen is None:
        return "none"
    why = chosen.why or ""
    if why.startswith("support "):
        return "rank"
    if why.startswith(("number ", "time ")):
        return "span"
    return "slot"


def collect(questions: list[dict], cache: Path | None) -> list[dict]:
    """Run every mode on the questions: per mode and question, the inputs of each extraction of the
    question itself (``calls``: the passages), the bench's first line, whether it is right, where a
    wrong one failed (:func:`answers.failure_class`) and the answer path (:func:`_path`)."""
    calls: list[tuple] = []
    original = offline.extract_answer

    def spy(question, passages, **kw):
        calls.append((question, tuple(passages)))
        return original(question, passages, **kw)

    offline.extract_answer = spy
    stores = {name: open_dataset(name, cache) for name in sorted({q["dataset"] for q in questions})}
    out: list[dict] = []
    try:
        for mode in MODES:
            pipes = {name: pipeline(mode, store, recorder=Recorder(store)) for name, store in stores.items()}
            for n, q in enumerate(questions):
                calls.clear()
                pipe = pipes[q["dataset"]]
                for _ in pipe.run(q["question"]):
                    pass
                line = first_line(pipe.result.answer)
                ok = is_right(line, q["answers"])
                where, rank = ("right", None) if ok else failure_class(pipe.result, q["answers"])
                found = pipe.result.support
                out.append({"mode": mode, "question": n, "answers": q["answers"], "line": line, "right": ok, "where": where,
                            "rank": rank, "path": _path(getattr(found, "chosen", None)),
                            "calls": [p for text, p in calls if text == q["question"]]})
            print(f"collected {mode}", file=sys.stderr)
    finally:
        offline.extract_answer = original
        for store in stores.values():
            store.close()
    return out


def _passages(item: dict) -> tuple | None:
    """The passages of the extraction whose answer is the mode's (its last of the question), if any."""
    return item["calls"][-1] if item.get("calls") else None


def cases(inputs: list[dict], questions: list[dict]) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(question, features of the candidates, which of them are right) for every mode's extraction whose
    weighable candidates include an expected answer and a wrong one. The weighable: the 12 best supported,
    whatever the weights; and when the question's description identifies some of them, only those (the
    rank puts them first whatever their weights, :func:`ragprov.llm.answer.rank._identified`)."""
    out = []
    for item in inputs:
        passages = _passages(item)
        if item["answers"] is None or passages is None:
            continue
        found = _weighable(questions[item["question"]]["question"], passages)
        right = np.array([_names(c.name, item["answers"]) for c, _ in found], dtype=bool)
        if right.any() and not right.all():
            out.append((item["question"], np.array([f for _, f in found], dtype=float), right))
    return out


def _weighable(question: str, passages) -> list:
    found = extraction.candidate_features(question, passages)
    if any(_UNIDENTIFIED in c.why for c, _ in found) and not all(_UNIDENTIFIED in c.why for c, _ in found):
        found = [cf for cf in found if _UNIDENTIFIED not in cf[0].why]
    return sorted(found, key=lambda cf: -cf[0].strength)[:12]  # the best supported, whatever the weights


#: what a candidate's why says when the question's description identifies others and not it
_UNIDENTIFIED = "not identified by the question's description"


def _names(name: str, answers: list[str]) -> bool:
    """Whether a candidate's name says an expected answer (as whole words)."""
    low = " ".join(name.lower().split())
    return any(re.search(r"(?<!\w)" + re.escape(" ".join(a.lower().split())) + r"(?!\w)", low) for a in answers)


def reach(inputs: list[dict], questions: list[dict]) -> None:
    """How many of the wrong first lines the rank could mend: per class and answer path (:func:`_path`),
    and for the extraction failures whether an expected name is among the weighable candidates."""
    wrong = [item for item in inputs if not item["right"]]
    print(f"{len(inputs)} answers, {len(wrong)} wrong: " + ", ".join(
        f"{w} {sum(1 for i in wrong if i['where'] == w)}" for w in sorted({i["where"] for i in wrong})))
    failed = [i for i in wrong if i["where"] == "extraction"]
    paths: dict[str, list[int]] = {}
    for item in failed:
        passages = _passages(item)
        found = _weighable(questions[item["question"]]["question"], passages) if passages is not None else []
        among = any(_names(c.name, item["answers"]) for c, _ in found)
        counts = paths.setdefault(item["path"], [0, 0])
        counts[0] += 1
        counts[1] += among
    for path, (n, reachable) in sorted(paths.items()):
        print(f"  extraction failures answered by path {path:5}: {n:3} ({reachable} with an expected name among the weighable candidates)")


def replay(inputs: list[dict], questions: list[dict], weights: tuple[float, ...]) -> dict[str, list[bool]]:
    """Per mode, whether each question's first line is right when its last extraction is rerun with ``weights``."""
    saved = rank.WEIGHTS
    rank.WEIGHTS = tuple(weights)
    out: dict[str, list[bool]] = {}
    try:
        for item in inputs:
            passages = _passages(item)
            if passages is None:
                ok = item["right"]
            else:
                line = extraction.extract_answer(questions[item["question"]]["question"], passages).first_line
                ok = is_right(line, item["answers"])
            out.setdefault(item["mode"], []).append(ok)
    finally:
        rank.WEIGHTS = saved
    return out


def _stack(data: list[tuple[int, np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cases as arrays: features (case × candidate × feature), which candidates exist, which are right."""
    k = max(len(x) for _, x, _ in data)
    x = np.zeros((len(data), k, data[0][1].shape[1]))
    valid = np.zeros((len(data), k), dtype=bool)
    right = np.zeros((len(data), k))
    for n, (_, f, r) in enumerate(data):
        x[n, : len(f)], valid[n, : len(f)], right[n, : len(f)] = f, True, r
    return x, valid, right


def fit(train: list[tuple[int, np.ndarray, np.ndarray]], l2: float, steps: int = 3000, fixed: frozenset[int] = frozenset(),
        prior: np.ndarray | None = None) -> np.ndarray:
    """Weights minimising the listwise softmax loss, each question weighing as much as another (its modes
    share its weight), plus ``l2`` · ‖w − prior‖² (Adam; ``prior``: the current weights unless given); the
    features at the indices ``fixed`` keep their prior weight."""
    prior = np.array(extraction.WEIGHTS) if prior is None else prior
    x, valid, right = _stack(train)
    per = Counter(q for q, _, _ in train)
    share = np.array([1.0 / per[q] for q, _, _ in train])
    share /= share.sum()
    free = np.array([n not in fixed for n in range(len(prior))], dtype=float)
    w = prior.copy()
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, steps + 1):
        s = np.where(valid, x @ w, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        pr = p * right
        pr /= pr.sum(axis=1, keepdims=True)
        grad = (2 * l2 * (w - prior) + np.einsum("n,nk,nkf->f", share, p - pr, x)) * free
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.02 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def top1(data: list[tuple[int, np.ndarray, np.ndarray]], w: np.ndarray) -> float:
    return sum(bool(right[int(np.argmax(x @ w))]) for _, x, right in data) / max(1, len(data))


#: the product of the factors: the weights before any were fitted (the features added since at 0)
PRODUCT = tuple(1.0 if name in ("support", "type", "novelty", "plain", "spread", "joint") else 0.0 for name in extraction.FEATURES)

#: the tuning questions (every file of the bench's but the held-out sets)
TUNING = tuple(ROOT / "bench" / f"answers{x}.jsonl" for x in ("", "-fresh", "-sealed", "-sealed2", "-probe", "-dev5", "-yesno", "-whose",
                                                               "-frames", "-shapes", "-typed", "-yesno2", "-dev6"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=Path, nargs="+", default=list(TUNING), help="question files (default: the tuning ones)")
    ap.add_argument("--cache", type=Path, default=None, help="keep the loaded stores in this directory")
    ap.add_argument("--inputs", type=Path, default=None, help="keep (and reuse) the collected extraction inputs here")
    ap.add_argument("--l2", type=float, nargs="+", default=[0.1], help="the L2 pull; several: each is cross-validated, the best kept")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--fixed", default="", help="comma-separated features kept at their current weight")
    ap.add_argument("--from-product", action="store_true", help="pull toward (and compare with) the product of the factors")
    ap.add_argument("--reach", action="store_true", help="print which wrong answers the rank could mend")
    ap.add_argument("--replay", action="store_true", help="rerun each mode's last extraction with the fitted weights: first-line accuracy")
    args = ap.parse_args(argv)
    questions = _tuning(args.questions)
    if args.inputs and args.inputs.is_file():
        inputs = pickle.loads(args.inputs.read_bytes())
    else:
        inputs = collect(questions, args.cache)
        if args.inputs:
            args.inputs.write_bytes(pickle.dumps(inputs))
    if args.reach:
        reach(inputs, questions)
    fixed = frozenset(extraction.FEATURES.index(f) for f in args.fixed.split(",") if f)
    data = cases(inputs, questions)
    prior = np.array(PRODUCT if args.from_product else extraction.WEIGHTS)
    print(f"{len(data)} extractions with an expected answer and another among the weighable candidates, "
          f"from {len({d[0] for d in data})} of {len(questions)} questions")
    print(f"top-1 among them with the {'product' if args.from_product else 'current weights'}: {top1(data, prior):.3f}")
    best = (-1.0, args.l2[0])
    for l2 in args.l2:
        held: list[bool] = []
        for fold in range(args.folds):
            train = [d for d in data if d[0] % args.folds != fold]
            test = [d for d in data if d[0] % args.folds == fold]
            w = fit(train, l2, fixed=fixed, prior=prior)
            held.extend(bool(right[int(np.argmax(x @ w))]) for _, x, right in test)
        cv = sum(held) / max(1, len(held))
        whole = top1(data, fit(data, l2, fixed=fixed, prior=prior))
        print(f"l2 {l2:g}: top-1 fitted on all {whole:.3f}, leave-question-out ({args.folds} folds) {cv:.3f}")
        best = max(best, (cv, l2), key=lambda b: b[0])
    l2 = best[1]
    w = fit(data, l2, fixed=fixed, prior=prior)
    print(f"kept l2 {l2:g}")
    for name, value in zip(extraction.FEATURES, w, strict=True):
        print(f"  {name:12} {value:+.3f}")
    print("WEIGHTS = (" + ", ".join(f"{x:.2f}" for x in w) + ")")
    if args.replay:
        before, after = replay(inputs, questions, tuple(prior)), replay(inputs, questions, tuple(round(x, 2) for x in w))
        print(f"{'mode':10} {'before':>8} {'fitted':>8}  (first lines right, replayed)")
        for mode in before:
            print(f"{mode:10} {sum(before[mode]):>8} {sum(after[mode]):>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
