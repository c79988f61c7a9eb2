"""Fit weights for the offline answer extraction's candidate ranking on the bench's TRAINING
questions, and print them with the accuracy they reach on questions they were not fitted on
(an analysis: the package ranks by :data:`ragprov.llm.answer.WEIGHTS`).

A candidate's rank is a weighted sum of named features (:data:`ragprov.llm.answer.FEATURES`: the
logs of its support, best coverage, type fit, novelty, plainness and spread, whether a sentence
states the asked relation of it, how many passages support it, how well the sentence naming it
aligns with the question, whether structured evidence is about it). Every mode is run over the
questions of ``bench/answers.jsonl`` without ``"split": "heldout"`` (the held-out ones are never
read); each extraction whose candidates include an expected answer is one training case. The
weights minimise the listwise softmax loss (the expected answers' share of ``exp(rank)`` over the
case's candidates), with an L2 pull toward the unfitted product of the factors, by gradient
descent with numpy. Leave-question-out cross-validation (all of a question's modes in one fold)
prints the accuracy the fitted ranking reaches on questions it was not fitted on.

    python bench/fit_answers.py [--cache DIR] [--inputs FILE.pkl] [--l2 0.05]

``--inputs``: keep the collected extraction inputs there (reused when it exists, so refitting
after a change of the features does not rerun the modes — delete it after changing retrieval).
"""

from __future__ import annotations

import argparse
import pickle
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from answers import MODES, load_questions, open_dataset  # noqa: E402

from ragprov.llm import answer as extraction  # noqa: E402
from ragprov.llm import offline  # noqa: E402
from ragprov.pipelines import pipeline  # noqa: E402
from ragprov.record import Recorder  # noqa: E402


def collect(questions: list[dict], cache: Path | None) -> list[dict]:
    """Run every mode on the training questions; the inputs of each extraction of the question itself."""
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
                for _ in pipes[q["dataset"]].run(q["question"]):
                    pass
                out.extend({"mode": mode, "question": n, "answers": q["answers"], "passages": p}
                           for text, p in calls if text == q["question"])
            print(f"collected {mode}", file=sys.stderr)
    finally:
        offline.extract_answer = original
        for store in stores.values():
            store.close()
    return out


def cases(inputs: list[dict], questions: list[dict]) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(question, features of the candidates, which of them are right) for every extraction
    whose candidates include an expected answer."""
    out = []
    for item in inputs:
        if item["answers"] is None:
            continue
        aliases = [" ".join(a.lower().split()) for a in item["answers"]]
        found = extraction.candidate_features(questions[item["question"]]["question"], item["passages"])
        found = sorted(found, key=lambda cf: -cf[0].strength)[:12]  # the best supported, whatever the weights
        right = np.array([any(re.search(r"(?<!\w)" + re.escape(a) + r"(?!\w)", c.name.lower()) for a in aliases) for c, _ in found])
        if right.any() and not right.all():
            out.append((item["question"], np.array([f for _, f in found], dtype=float), right))
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


def fit(train: list[tuple[int, np.ndarray, np.ndarray]], l2: float, steps: int = 3000) -> np.ndarray:
    """Weights minimising the mean listwise softmax loss plus ``l2`` · ‖w − prior‖² (Adam)."""
    prior = np.array(extraction.WEIGHTS)
    x, valid, right = _stack(train)
    w = prior.copy()
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, steps + 1):
        s = np.where(valid, x @ w, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        pr = p * right
        pr /= pr.sum(axis=1, keepdims=True)
        grad = 2 * l2 * (w - prior) + np.einsum("nk,nkf->f", p - pr, x) / len(train)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.02 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def top1(data: list[tuple[int, np.ndarray, np.ndarray]], w: np.ndarray) -> float:
    return sum(bool(right[int(np.argmax(x @ w))]) for _, x, right in data) / max(1, len(data))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=Path, default=ROOT / "bench" / "answers.jsonl")
    ap.add_argument("--cache", type=Path, default=None, help="keep the loaded stores in this directory")
    ap.add_argument("--inputs", type=Path, default=None, help="keep (and reuse) the collected extraction inputs here")
    ap.add_argument("--l2", type=float, nargs="+", default=[0.05], help="the L2 pull; several: each is cross-validated, the best kept")
    ap.add_argument("--folds", type=int, default=5)
    args = ap.parse_args(argv)
    questions = [q for q in load_questions([args.questions]) if q["split"] == "train"]
    if args.inputs and args.inputs.is_file():
        inputs = pickle.loads(args.inputs.read_bytes())
    else:
        inputs = collect(questions, args.cache)
        if args.inputs:
            args.inputs.write_bytes(pickle.dumps(inputs))
    data = cases(inputs, questions)
    prior = np.array(extraction.WEIGHTS)
    print(f"{len(data)} extractions with an expected answer among the candidates, from {len(questions)} training questions")
    print(f"top-1 among them unfitted: {top1(data, prior):.3f}")
    best = (-1.0, args.l2[0])
    for l2 in args.l2:
        held: list[bool] = []
        for fold in range(args.folds):
            train = [d for d in data if d[0] % args.folds != fold]
            test = [d for d in data if d[0] % args.folds == fold]
            w = fit(train, l2)
            held.extend(bool(right[int(np.argmax(x @ w))]) for _, x, right in test)
        cv = sum(held) / max(1, len(held))
        print(f"l2 {l2:g}: top-1 fitted on all {top1(data, fit(data, l2)):.3f}, leave-question-out ({args.folds} folds) {cv:.3f}")
        best = max(best, (cv, l2), key=lambda b: b[0])
    l2 = best[1]
    w = fit(data, l2)
    print(f"kept l2 {l2:g}")
    for name, value in zip(extraction.FEATURES, w, strict=True):
        print(f"  {name:12} {value:+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
