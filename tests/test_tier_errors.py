"""The unconfirmed pairs of one tier, site by site (benchmarks/accuracy/tier_errors.py),
on a snippet linked offline with hand-made judges."""

from __future__ import annotations

from benchmarks.accuracy.tier_errors import Site, _sites, report
from graphrag_code.model import Resolution

from .linking_helpers import link_snippet

CODE = """
class A:
    def m(self):
        pass


class B:
    def m(self):
        pass


def make(flag):
    return A() if flag else B()


def use(flag):
    make(flag).m()
"""


def test_unconfirmed_sites_carry_their_place_reason_and_verdict() -> None:
    linked = link_snippet({"m.py": CODE}).repository
    confirmed = frozenset({("m", "m.A.m")})
    sites = _sites(linked, Resolution.INFERRED, confirmed, judged={("m", "m.B.m")})
    assert [(s.verdict, s.caller, s.callee, s.file) for s in sites] == [
        ("wrong", "m.use", "m.B.m", "m.py")
    ]
    assert sites[0].lines == (17,)
    assert "m.make" in sites[0].via
    assert sites[0].rule == "the return value of `…`"


def test_a_report_groups_sites_by_rule_largest_first() -> None:
    one = Site("wrong", "m.f", "m.A.m", "m.py", (3,), "the variable `x`")
    two = Site("unjudged", "m.g", "m.B.m", "m.py", (9,), "the variable `y`")
    three = Site("unjudged", "m.h", "m.C.m", "m.py", (12,), "the attribute `z`")
    lines = report([three, one, two]).splitlines()
    assert lines[0] == "## the variable `…`  (2 sites, 1 wrong)"
    assert lines[3] == "## the attribute `…`  (1 sites, 0 wrong)"
