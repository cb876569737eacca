"""A change of FATF listing ("X was removed from the grey list in February 2025", "Y was added
to the grey list in October 2024") against the list's dated, complete snapshots.

A change is not membership: a removal dated to a plenary means the country is on the snapshot
before that plenary and absent from the one it published; an addition the reverse. Being
listed in the month of a claimed removal is therefore no support for it — the snapshot the
plenary published decides.
"""

from __future__ import annotations

from datetime import date

from auditor.types import Claim
from auditor.verify.common import Context, contradict, label_of, support, unverifiable
from knowledge_graphs.model import Fact
from rules.schema import Rule


def verify_list_change(
    claim: Claim, rule: Rule, ctx: Context, change: str, first: date, last: date
) -> None:
    """``change`` is "removed" or "added"; ``[first, last]`` the period the text dates it to
    (the audit date when it names none)."""
    kb = ctx.kb
    lst, who = claim.object or "", claim.subject or ""
    snaps: dict[date, list[Fact]] = {}
    for f in kb.facts_pointing_to(lst, "fatfListed"):
        if f.valid_from is not None and f.qualifiers.get("complete") == "true":
            snaps.setdefault(f.valid_from, []).append(f)
    dated = [d for d in sorted(snaps) if first <= d <= last]
    if not dated and first == last:  # undated: the snapshot in force at the audit date
        dated = [d for d in sorted(snaps) if d <= first][-1:]
    name, list_name = label_of(kb, who), label_of(kb, lst)
    if not dated:
        unverifiable(claim, f"no complete {list_name} snapshot was published between {first} "
                     f"and {last}")  # fmt: skip
        return
    at = dated[-1]
    earlier = [d for d in sorted(snaps) if d < dated[0]]
    if not earlier:
        unverifiable(claim, f"no {list_name} snapshot before {dated[0]} to compare with")
        return
    before_on = [f for f in snaps[earlier[-1]] if f.subject == who]
    after_on = [f for f in snaps[at] if f.subject == who]
    if change == "removed":
        if after_on:
            contradict(claim, after_on, kb, f"{name} is still on the {list_name} published on "
                       f"{at}", "outdated_fact", rule)  # fmt: skip
        elif before_on:
            support(claim, before_on + snaps[at][:1], kb, f"{name} is on the {list_name} of "
                    f"{earlier[-1]} and not on the one published on {at}")  # fmt: skip
        elif claim.date is not None and (removal := _removal_before(snaps, who, dated[0])):
            # "removed in June 2025" of a country already off the February 2025 list
            was, off = removal
            contradict(claim, [f for f in snaps[was] if f.subject == who] + snaps[off][:1], kb,
                       f"{name} was removed earlier: it is on the {list_name} of {was} and on "
                       f"none published from {off} to {at}", "wrong_date", rule)  # fmt: skip
        else:
            unverifiable(claim, f"{name} is on neither the {list_name} of {earlier[-1]} nor "
                         f"the one of {at}; no removal to date")  # fmt: skip
        return
    if not after_on:
        contradict(claim, snaps[at][:3], kb, f"{name} is not on the {list_name} published on "
                   f"{at}", "outdated_fact", rule)  # fmt: skip
    elif before_on:
        contradict(claim, before_on, kb, f"{name} was already on the {list_name} of "
                   f"{earlier[-1]}, before {dated[0]}", "outdated_fact", rule)  # fmt: skip
    else:
        support(claim, after_on, kb, f"{name} is on the {list_name} published on {at} and not "
                f"on the one of {earlier[-1]}")  # fmt: skip


def _removal_before(
    snaps: dict[date, list[Fact]], who: str, start: date
) -> tuple[date, date] | None:
    """The last complete snapshot before ``start`` that lists ``who`` and the next one, when
    ``who`` is on none from that next one up to ``start`` (the plenary that removed it)."""
    days = sorted(d for d in snaps if d < start)
    on = [i for i, d in enumerate(days) if any(f.subject == who for f in snaps[d])]
    if not on or on[-1] + 1 >= len(days):
        return None
    return days[on[-1]], days[on[-1] + 1]


__all__ = ["verify_list_change"]
