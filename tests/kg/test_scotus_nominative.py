"""The nominative-reporter volumes map onto the U.S. Reports volumes the graph pairs them with."""

from __future__ import annotations

import re

from knowledge_graphs.scotus import us_volume


def test_every_parallel_nominative_citation_in_the_graph_maps_to_its_us_volume(kb) -> None:
    pairs = 0
    for f in kb.facts:
        if f.predicate != "citation" or not f.qualifiers.get("parallel"):
            continue
        m = re.fullmatch(r"(\d+) (.+?) (\d+)", f.literal or "")
        us = re.fullmatch(r"case:(\d+) U\.S\. (\d+)", f.subject)
        if not (m and us):
            continue
        assert us_volume(int(m.group(1)), m.group(2)) == int(us.group(1)), f.literal
        assert m.group(3) == us.group(2)  # the reprint keeps the original pages
        pairs += 1
    assert pairs >= 15


def test_volumes_outside_a_reporter_are_not_mapped() -> None:
    assert us_volume(1, "Dall.") is None  # Pennsylvania cases only
    assert us_volume(24, "Wall.") is None
    assert us_volume(5, "F.3d") is None
