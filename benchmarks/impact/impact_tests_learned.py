"""Can a learned cut of the predicted tests reach recall .90 at precision .60? (issue 16)

`benchmarks.impact.impact_tests_offline` predicts, for each function, every test from which a path
of the reach graph leads to it (`all tiers`), and scores hand-written cuts of that list. This
script learns the cut instead. Each predicted (function, test) pair gets static features only
(the reach graph, names, paths; never the oracle); its label, and nothing else, comes from the
coverage oracle: the test really ran the function. A logistic regression is fitted leaving one
package out: trained on the others (each package weighs the same, each function's pairs sum
to one, since the score is a macro average over functions), scored on the held-out one while
sweeping three rules:
- a global threshold, `p >= t`;
- a threshold or the function's k most probable tests (k 1..5);
- relative to the function's most probable test, `p >= r * max p`.

Per held-out package: the best macro precision at recall >= .90 and at the all-tiers recall
less .02, .05 and .10, the best recall at precision >= .60, the AUC over all pairs and within
each function, and the share of the pairs that did not run which a certain chain joins; then
the standardised feature weights, averaged over the folds.

    .venv/bin/python -m benchmarks.impact.impact_tests_learned [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter, defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.common.runtime_oracle import oracle_files
from benchmarks.impact.impact_tests_offline import Callers, Graph, _file_stem, _Run
from benchmarks.oracles.runtime_env import RUNTIME_DIR
from graphrag_code.conventions import Exercised, exercising
from graphrag_code.model import Resolution

# reach tiers: each a `Resolution.rank`
EXACT, INFERRED, NAME = Resolution.EXACT.rank, Resolution.INFERRED.rank, Resolution.NAME.rank

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

NO_PATH = 30.0  # the distance that stands for "no such path"
TOP_K = 5
RECALL, PRECISION = 0.90, 0.60  # the target of issue 16
SHORTFALLS = (0.02, 0.05, 0.10)  # recall given up against the uncut prediction


# -- walks of the reach graph ------------------------------------------------------------------
def _backward(
    target: str, callers: Callers, min_tier: int
) -> tuple[dict[str, int], dict[str, float]]:
    """Each node's shortest distance to `target` over edges of `min_tier` or better, and how
    many shortest paths there are."""
    distance = {target: 0}
    paths = {target: 1.0}
    frontier = [target]
    while frontier:
        step: list[str] = []
        for node in frontier:
            for caller, tier, _via in callers.get(node, ()):
                if tier < min_tier:
                    continue
                if caller not in distance:
                    distance[caller] = distance[node] + 1
                    paths[caller] = paths[node]
                    step.append(caller)
                elif distance[caller] == distance[node] + 1:
                    paths[caller] += paths[node]
        frontier = step
    return distance, paths


def _name_steps(target: str, callers: Callers) -> dict[str, int]:
    """Each node's fewest name-tier edges on a path to `target` (0-1 breadth first)."""
    best = {target: 0}
    queue = deque([target])
    while queue:
        node = queue.popleft()
        for caller, tier, _via in callers.get(node, ()):
            weight = 1 if tier == NAME else 0
            if caller not in best or best[node] + weight < best[caller]:
                best[caller] = best[node] + weight
                (queue.appendleft if weight == 0 else queue.append)(caller)
    return best


def _forward(start: str, graph: Graph, min_tier: int) -> set[str]:
    """The nodes other than `start` that a path of edges of `min_tier` or better reaches."""
    seen = {start}
    stack = [start]
    while stack:
        for target, (tier, _via) in graph.get(stack.pop(), {}).items():
            if tier >= min_tier and target not in seen:
                seen.add(target)
                stack.append(target)
    seen.discard(start)
    return seen


# -- features ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Package:
    """What every pair of one package draws on."""

    run: _Run
    callers: Callers
    instantiated: dict[str, set[str]]  # function -> the tests the `instantiated` variant keeps
    reach: dict[str, int]  # test -> nodes it reaches by any edge
    reach_certain: dict[str, int]  # test -> nodes it reaches by exact and inferred edges
    constructed: dict[str, set[str]]  # test -> the classes its reach constructs, with bases
    tests_in_file: Counter[str]

    @classmethod
    def of(cls, run: _Run) -> _Package:
        reach: dict[str, int] = {}
        reach_certain: dict[str, int] = {}
        constructed: dict[str, set[str]] = {}
        for test in run.tests:
            closure = _forward(test, run.graph, NAME)
            reach[test] = len(closure)
            reach_certain[test] = len(_forward(test, run.graph, INFERRED))
            built = (run.constructs(node) for node in closure | {test})
            constructed[test] = {
                base for name in built if name for base in run.tree.ancestors(name)
            }
        return cls(
            run=run, callers=run.callers(), instantiated=run.instantiated(), reach=reach,
            reach_certain=reach_certain, constructed=constructed,
            tests_in_file=Counter(run.names.path_of.get(test, "") for test in run.tests),
        )  # fmt: skip


@dataclass(frozen=True)
class _Function:
    """What every pair of one function draws on: its distances from each test, and its name."""

    exact: dict[str, int]  # test -> shortest path over exact edges
    certain: dict[str, int]  # test -> shortest path over exact and inferred edges
    any: dict[str, int]  # test -> shortest path over any edge
    paths: dict[str, float]  # test -> number of those shortest paths
    name_steps: dict[str, int]  # test -> fewest name-tier edges on a path
    owner: str | None  # the class it is a method of
    owner_short: str
    key: str  # what a test named after it contains: its short name, a dunder's class name
    is_private: bool
    is_dunder: bool
    stem: str
    predicted: int
    certain_share: float  # share of its predicted tests with a certain chain
    nearest: int  # its nearest predicted test, over any edge
    callers: int
    certain_callers: int
    in_file: Counter[str]  # its predicted tests per test file
    instantiated: set[str]

    @classmethod
    def of(cls, package: _Package, node: str, found: Mapping[str, Exercised]) -> _Function:
        run, incoming = package.run, package.callers.get(node, [])
        exact, _ = _backward(node, package.callers, EXACT)
        certain, _ = _backward(node, package.callers, INFERRED)
        any_edge, paths = _backward(node, package.callers, NAME)
        short = run.names.qualified.get(node, "").rsplit(".", 1)[-1]
        owner = run.method_of(node)
        owner_short = owner.rsplit(".", 1)[-1].lower() if owner else ""
        dunder = short.startswith("__") and short.endswith("__")
        return cls(
            exact=exact,
            certain=certain,
            any=any_edge,
            paths=paths,
            name_steps=_name_steps(node, package.callers),
            owner=owner,
            owner_short=owner_short,
            key=(owner_short if dunder and owner_short else short.strip("_")).lower(),
            is_private=short.startswith("_") and not dunder,
            is_dunder=dunder,
            stem=_file_stem(run.names.path_of.get(node, "")),
            predicted=len(found),
            certain_share=sum(hit.tier >= INFERRED for hit in found.values()) / len(found),
            nearest=min(any_edge[test] for test in found),
            callers=len(incoming),
            certain_callers=sum(tier >= INFERRED for _caller, tier, _via in incoming),
            in_file=Counter(run.names.path_of.get(test, "") for test in found),
            instantiated=package.instantiated.get(node, set()),
        )


def _row(package: _Package, function: _Function, test: str, hit: Exercised) -> dict[str, float]:
    """The features of one (function, test) pair, by name."""
    name = package.run.names.qualified.get(test, "").lower()
    path = package.run.names.path_of.get(test, "")
    certain, exact = function.certain.get(test), function.exact.get(test)
    by_name = hit.tier == NAME
    return {
        # the best tier (one-hot) and its shortest distance (`Exercised`)
        "tier_exact": hit.tier == EXACT,
        "tier_inferred": hit.tier == INFERRED,
        "tier_name": by_name,
        "best_dist": hit.distance,
        # shortest paths over certain, exact and any edges
        "d_certain": NO_PATH if certain is None else certain,
        "no_certain": certain is None,
        "d_exact": NO_PATH if exact is None else exact,
        "no_exact": exact is None,
        "d_any": function.any[test],
        "d_any_rel": function.any[test] - function.nearest,
        "name_steps": function.name_steps.get(test, 0),
        "via_fixture": hit.via is not None,
        # names and paths
        "stem_match": _file_stem(path) == function.stem,
        "name_has_short": bool(function.key) and function.key in name.rsplit(".", 1)[-1],
        "qual_has_owner": bool(function.owner_short) and function.owner_short in name,
        # how wide the prediction and the test's reach are
        "log_n_pred": math.log(function.predicted),
        "log_reach": math.log1p(package.reach[test]),
        "log_reach_certain": math.log1p(package.reach_certain[test]),
        "frac_certain_fn": function.certain_share,
        "in_instantiated": test in function.instantiated,
        "reaches_ctor": function.owner is not None and function.owner in package.constructed[test],
        # the function itself
        "is_method": function.owner is not None,
        "is_private": function.is_private,
        "is_dunder": function.is_dunder,
        "log_indeg": math.log1p(function.callers),
        "log_indeg_certain": math.log1p(function.certain_callers),
        "frac_file_pred": function.in_file[path] / max(package.tests_in_file[path], 1),
        "n_paths_capped": math.log(min(function.paths.get(test, 1.0), 1e6)),
        "fn_has_certain": function.certain_share > 0,
        # interactions: a name-tier pair of a function that certain chains reach too
        "name_x_fn_has_certain": by_name and function.certain_share > 0,
        "name_x_frac_certain": by_name * function.certain_share,
        "d_any_x_name": by_name * function.any[test],
    }


@dataclass(frozen=True)
class _Pairs:
    """One package's predicted (function, test) pairs: features, labels, the run to score with."""

    run: _Run
    functions: list[str]  # index -> function node
    function: IntArray  # pair -> its function's index
    tests: list[str]  # pair -> test node
    features: tuple[str, ...]
    x: FloatArray
    y: FloatArray  # 1.0: the test ran the function

    @property
    def package(self) -> str:
        return f"{self.run.oracle['package']}-{self.run.oracle['version']}"


def _pairs(oracle_path: Path) -> _Pairs:
    run = _Run(oracle_path)
    package = _Package.of(run)
    functions = sorted(run.actual)
    rows: list[dict[str, float]] = []
    labels: list[bool] = []
    function: list[int] = []
    tests: list[str] = []
    for index, node in enumerate(functions):
        found = exercising(node, package.callers, run.tests)
        if not found:
            continue
        facts = _Function.of(package, node, found)
        for test, hit in sorted(found.items()):
            rows.append(_row(package, facts, test, hit))
            labels.append(test in run.actual[node])
            function.append(index)
            tests.append(test)
    return _Pairs(
        run=run,
        functions=functions,
        function=np.array(function, dtype=np.intp),
        tests=tests,
        features=tuple(rows[0]),
        x=np.array([list(row.values()) for row in rows], dtype=np.float64),
        y=np.array(labels, dtype=np.float64),
    )


# -- the model ---------------------------------------------------------------------------------
def _sigmoid(z: FloatArray) -> FloatArray:
    result: FloatArray = 1.0 / (1.0 + np.exp(-np.clip(z, -35, 35)))
    return result


@dataclass(frozen=True)
class _Model:
    mean: FloatArray
    scale: FloatArray
    weights: FloatArray  # per standardised feature
    intercept: float

    def probability(self, x: FloatArray) -> FloatArray:
        return _sigmoid(((x - self.mean) / self.scale) @ self.weights + self.intercept)


def _fit(x: FloatArray, y: FloatArray, weight: FloatArray, *, l2: float = 1e-3) -> _Model:
    """Weighted logistic regression on standardised features, by Newton's method (IRLS); the
    intercept is not shrunk."""
    mean, scale = x.mean(0), x.std(0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    weight = weight / weight.mean()
    beta = np.zeros(z.shape[1])
    penalty = l2 * len(x) * np.eye(z.shape[1])
    penalty[-1, -1] = 0.0
    for _ in range(50):
        p = _sigmoid(z @ beta)
        gradient = z.T @ (weight * (p - y)) + penalty @ beta
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return _Model(mean, scale, beta[:-1], float(beta[-1]))


def _training_weight(pairs: _Pairs) -> FloatArray:
    """Each function's pairs sum to the same (the score is a macro average over functions),
    and the package's to 1 (each training package weighs the same)."""
    weight: FloatArray = 1.0 / np.bincount(pairs.function)[pairs.function]
    return weight / float(weight.sum())


# -- rules and their scores --------------------------------------------------------------------
@dataclass(frozen=True)
class _Point:
    """One rule at one threshold, scored on the held-out package."""

    rule: str
    threshold: float
    recall: float
    precision: float


def _point(pairs: _Pairs, keep: BoolArray, rule: str, threshold: float) -> _Point:
    predicted: dict[str, set[str]] = defaultdict(set)
    for i in np.flatnonzero(keep):
        predicted[pairs.functions[pairs.function[i]]].add(pairs.tests[i])
    scores = pairs.run.scored(predicted)
    return _Point(rule, round(float(threshold), 4), scores["recall"], scores["precision"])


def _rank_in_function(function: IntArray, p: FloatArray) -> IntArray:
    """Each pair's place among its function's pairs, most probable first, from 0."""
    order = np.lexsort((-p, function))
    grouped = function[order]
    starts = np.r_[0, np.flatnonzero(np.diff(grouped)) + 1]
    first = np.repeat(starts, np.diff(np.r_[starts, len(p)]))
    rank = np.empty(len(p), dtype=np.intp)
    rank[order] = np.arange(len(p)) - first
    return rank


def _sweep(pairs: _Pairs, p: FloatArray) -> list[_Point]:
    """Every rule at every threshold: 121 quantiles of `p` (and 0, and above 1) for the global
    threshold, alone or with the top k; steps of .01 for the relative rule."""
    rank = _rank_in_function(pairs.function, p)
    thresholds = np.unique(np.r_[0.0, np.quantile(p, np.linspace(0, 1, 121)), 1.01])
    points = [
        _point(pairs, (p >= t) | (rank < k), f"p >= t or top {k}" if k else "p >= t", t)
        for k in range(TOP_K + 1)
        for t in thresholds
    ]
    best = np.zeros(pairs.function.max() + 1)
    np.maximum.at(best, pairs.function, p)
    relative = p / np.maximum(best[pairs.function], 1e-12)
    points += [
        _point(pairs, relative >= r - 1e-12, "p >= r * max", r) for r in np.linspace(0, 1, 101)
    ]
    return points


def _best_precision(points: Sequence[_Point], recall: float) -> _Point | None:
    at_least = [pt for pt in points if pt.recall >= recall - 1e-9]
    return max(at_least, key=lambda pt: (pt.precision, pt.recall), default=None)


def _best_recall(points: Sequence[_Point], precision: float) -> _Point | None:
    at_least = [pt for pt in points if pt.precision >= precision]
    return max(at_least, key=lambda pt: pt.recall, default=None)


def auc(y: FloatArray, p: FloatArray) -> float | None:
    """The chance that a pair that ran outscores one that did not (ties count half)."""
    ran = y > 0
    if ran.all() or not ran.any():
        return None
    _, inverse, counts = np.unique(p, return_inverse=True, return_counts=True)
    ranks = (np.cumsum(counts) - (counts - 1) / 2)[inverse]  # from 1, ties share their mean
    n_ran, n_not = int(ran.sum()), int((~ran).sum())
    return float((ranks[ran].sum() - n_ran * (n_ran + 1) / 2) / (n_ran * n_not))


def _auc_within_function(pairs: _Pairs, p: FloatArray) -> float:
    """The mean AUC over the functions with pairs that ran and pairs that did not."""
    found = []
    for index in np.unique(pairs.function):
        mine = pairs.function == index
        if (score := auc(pairs.y[mine], p[mine])) is not None:
            found.append(score)
    return float(np.mean(found))


@dataclass(frozen=True)
class _HeldOut:
    """What one held-out package scores."""

    package: str
    pairs: int
    all_tiers: _Point  # the uncut prediction
    at_recall: _Point | None  # best precision at recall >= RECALL
    below_all_tiers: tuple[_Point | None, ...]  # best precision at its recall less SHORTFALLS
    at_precision: _Point | None  # best recall at precision >= PRECISION
    auc_pairs: float | None
    auc_within_function: float
    # of the predicted pairs whose test did not run the function, the share a chain of exact
    # and inferred edges joins: what no cut by tier or distance can tell from the ones that ran
    certain_among_not_ran: float


def _held_out(pairs: _Pairs, p: FloatArray) -> _HeldOut:
    points = _sweep(pairs, p)
    everything = _point(pairs, np.ones(len(p), dtype=bool), "all tiers", 0.0)
    return _HeldOut(
        package=pairs.package, pairs=len(p), all_tiers=everything,
        at_recall=_best_precision(points, RECALL),
        below_all_tiers=tuple(_best_precision(points, everything.recall - s) for s in SHORTFALLS),
        at_precision=_best_recall(points, PRECISION),
        auc_pairs=auc(pairs.y, p), auc_within_function=_auc_within_function(pairs, p),
        certain_among_not_ran=_certain_share(pairs, pairs.y == 0),
    )  # fmt: skip


def _certain_share(pairs: _Pairs, chosen: BoolArray) -> float:
    """The share of the `chosen` pairs that a chain of exact and inferred edges joins."""
    certain = pairs.x[chosen, pairs.features.index("no_certain")] == 0
    return float(certain.mean()) if len(certain) else 0.0


def evaluate(packages: Sequence[_Pairs]) -> tuple[list[_HeldOut], dict[str, float]]:
    """Each package held out in turn, and the feature weights averaged over the folds (largest
    first)."""
    results: list[_HeldOut] = []
    weights: list[FloatArray] = []
    for held in packages:
        train = [pairs for pairs in packages if pairs is not held]
        model = _fit(
            np.vstack([pairs.x for pairs in train]),
            np.concatenate([pairs.y for pairs in train]),
            np.concatenate([_training_weight(pairs) for pairs in train]),
        )
        weights.append(model.weights)
        results.append(_held_out(held, model.probability(held.x)))
    averaged = zip(packages[0].features, np.mean(weights, axis=0).tolist(), strict=True)
    return results, dict(sorted(averaged, key=lambda kv: -abs(kv[1])))


# -- output ------------------------------------------------------------------------------------
def _share(value: float) -> str:
    """`.90` for 0.9."""
    return f"{value:.2f}".removeprefix("0")


def _precision_cell(point: _Point | None) -> str:
    return "none" if point is None else f"{point.precision:.3f} (R {point.recall:.3f})"


def _print(results: Sequence[_HeldOut], weights: Mapping[str, float]) -> None:
    shortfalls = "".join(f" P at R-{_share(s)} |" for s in SHORTFALLS)
    print(
        f"| package | all tiers R / P | best P at R >= {_share(RECALL)} |{shortfalls}"
        f" best R at P >= {_share(PRECISION)} | AUC pairs / within function |"
        " not run, yet on a certain chain |"
    )
    print("|---|---|---|" + "---|" * len(SHORTFALLS) + "---|---|---|")
    for r in results:
        below = "".join(f" {_precision_cell(point)} |" for point in r.below_all_tiers)
        at = r.at_precision
        recall = "none" if at is None else f"{at.recall:.3f} (P {at.precision:.3f})"
        pairs = "none" if r.auc_pairs is None else f"{r.auc_pairs:.3f}"
        print(
            f"| {r.package} | {r.all_tiers.recall:.3f} / {r.all_tiers.precision:.3f} |"
            f" {_precision_cell(r.at_recall)} |{below} {recall} |"
            f" {pairs} / {r.auc_within_function:.3f} | {r.certain_among_not_ran:.2f} |"
        )
    print("\n| feature | standardised weight, mean over the folds |")
    print("|---|---:|")
    for feature, weight in weights.items():
        print(f"| `{feature}` | {weight:+.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    paths = oracle_files([], RUNTIME_DIR)
    if len(paths) < 2:
        raise SystemExit(
            f"leaving one out needs two runtime oracles or more in {RUNTIME_DIR}:"
            " run benchmarks.oracles.runtime_tests"
        )
    results, weights = evaluate([_pairs(path) for path in paths])
    _print(results, weights)
    if args.json:
        targets = {"recall": RECALL, "precision": PRECISION, "shortfalls": SHORTFALLS}
        document = {
            "targets": targets,
            "held_out": [asdict(r) for r in results],
            "mean_weights": weights,
        }
        args.json.write_text(json.dumps(document, indent=2) + "\n")


if __name__ == "__main__":
    main()
