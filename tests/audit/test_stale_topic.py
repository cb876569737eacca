"""Issue 24: two answers in one text (an ECB summary, then "# The Fed's two emergency cuts in
March 2020"). A sentence whose only reference is "It" keeps the *recent* topics current; it
must not revive one left behind sections ago. The old reading refreshed every topic ever seen,
so the ECB deposit rate of the first part became the subject of "brought the range to 0 to 1/4
percent" in the second, and a true sentence was contradicted. Found by auditing pairs of clean
realistic answers joined into one text (no contradiction may appear). Labelled against the
FOMC statement of 2020-03-15 (target range 0 to 1/4 percent).
"""

from __future__ import annotations

TEXT = """### Key takeaways
- 4.00% was the peak deposit rate of the ECB

# The Fed's two emergency cuts in March 2020

| Decision day | Move | New target range |
|---|---|---|
| Sunday, March 15, 2020 | −100 bp | 0 to 1/4 percent |

**Why it mattered.** Between them the two moves cut the target range by 150 basis points in under two weeks.

**March 3.** The statement opened: "The fundamentals of the U.S. economy remain strong. However, the coronavirus poses evolving risks to economic activity." It was the first rate change between scheduled meetings since the crisis-era cuts of 2008.

**March 15.** A Sunday-evening announcement brought the range to 0 to 1/4 percent.
"""


def test_it_does_not_revive_a_topic_sections_back(auditor_obj):
    res = auditor_obj.audit(TEXT, domain="finance", as_of="2025-09-01")
    assert not [c for c in res.claims if c.verdict == "contradicted"], [
        (c.subject, c.reason) for c in res.claims if c.verdict == "contradicted"
    ]
    sunday = [c for c in res.claims if "Sunday-evening" in c.text and c.predicate == "policyRate"]
    assert sunday and all(c.subject == "bank:federal-reserve" for c in sunday)
