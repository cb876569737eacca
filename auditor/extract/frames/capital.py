"""The capital-requirement frame: a requirement named with its value, not a bank's own ratio.

"The minimum CET1 ratio is 4.5%", "a 2.5% capital conservation buffer", "| CET1 | 4.5% | 7.0% |"
under "| Ratio | Minimum | With conservation buffer |" are claims about requirements.
"A bank with a 12% CET1 ratio", "its CET1 ratio of 11.8%", "4.5% + 2.5% + 1.0% = 8.0%",
"in the 1.5% bucket", "the UK has set its CCyB at 2%" are a firm's figure, a computation or a
national setting; requirements the graph does not hold (PCA "well capitalized" levels, the
enhanced SLR, stress capital buffers, Pillar 2, TLAC, the community bank leverage ratio) are
not compared with the ones it does. Where US and Basel wording meet ("Tier 1 leverage ratio"),
the frame lists both requirements: either can support, none can be contradicted alone.
"""

from __future__ import annotations

import re

from auditor.extract.assertion import non_assertion
from auditor.extract.claim_base import base_claim, claim_date, format_quantity
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.frames import finance_words as fw
from auditor.extract.frames.common import respective, value_clause
from auditor.types import Claim, Frame, Mention, Quantity
from knowledge_graphs.store import KnowledgeBase

_REQ = frozenset({"CapitalRequirement"})
_NOT_IN_GRAPH = re.compile(
    r"\b(?:well[- ]capitali[sz]ed|adequately\s+capitali[sz]ed|under[- ]?capitali[sz]ed|PCA|"
    r"prompt\s+corrective|enhanced|eSLR|stress\s+capital\s+buffer|SCB|stress\s+test|P2R|P2G|"
    r"Pillar\s+2|TLAC|MREL|community\s+bank(?:\s+leverage)?|CBLR|leverage\s+ratio\s+buffer|"
    r"systemic\s+risk\s+buffer|O-SII|D-SIB|management\s+buffer|phased\s+in\s+from|"
    r"transitional|transition\s+period|ris(?:es|ing|e)\s+(?:in\s+steps\s+)?to|in\s+steps|"
    r"increas(?:es|ing|e)\s+to|reach(?:es|ing)?\s+[\d.]+\s*%\s+(?:in|by)\s+20\d\d|(?<!fully\s)phas(?:e|es|ed|ing)[- ]in|phasing|step(?:s|ped)?\s+up|"
    r"insured\s+(?:bank\s+)?subsidiar\w+|depository\s+institution\s+subsidiar\w+)\b",
    re.I,
)
_US = re.compile(
    r"\b(?:U\.?S\.?|United\s+States|American|Fed(?:eral\s+Reserve)?|FDIC|OCC|Regulation\s+Q|"
    r"12\s+CFR|Basel\s+III\s+endgame|US\s+banks?)\b",
)
_ATTRIBUTIVE_OWN = re.compile(r"\b(?:a|an)\s+[*_]*$", re.I)
_RATIO_AFTER = re.compile(r"^[\s*_]*(?:[\w()-]+\s+){0,6}?(?:ratio|capital\s+ratio)\b", re.I)
_COMPARISON = re.compile(
    r"\b(?:above|below|under|over|exceed(?:s|ing)?|beats?|clears?|meets?|short\s+of|than|"
    r"headroom|cushion|shortfall|passes|fails)\s*[*_]*$",
    re.I,
)
_FLOOR = re.compile(
    r"\b(?:not|never|from|cannot|can't|stops?|prevents?|must\s+not)\s+(?:\w+\s+){0,2}?"
    r"(?:fall|falling|drop|dropping|go|going|be)\s+below\s*[*_]*$",
    re.I,
)
_LEVERAGE_WORDS = re.compile(r"\b(?:leverage|exposure\s+measure|total\s+exposure|average\s+"
                             r"(?:total\s+)?(?:consolidated\s+)?assets|total\s+assets|"
                             r"off-balance)\b", re.I)  # fmt: skip
_RANGE_WORDS = re.compile(
    r"\b(?:between|from\s+[\d.]+\s*%?\s*(?:to|-)|up\s+to|ranges?|range\s+of|as\s+high\s+as|"
    r"maximum|at\s+most|max(?:imum)?|top\s+bucket|highest|lowest|varies)\b",
    re.I,
)
_SETTING = re.compile(r"\b(?:bucket|set\s+its|sets\s+its|has\s+set|activated|announced|raised\s+its|"
                      r"cut\s+its|its\s+(?:rate|CCyB|buffer))\b", re.I)  # fmt: skip
_REQ_TRIGGER = re.compile(
    r"\b(?:minimums?|min\.?|at\s+least|must|required|requires?|requirements?|floor|needs?\s+to|"
    r"has\s+to|have\s+to|set\s+(?:at|to)|sets?|calls?\s+for|mandat\w+|no\s+(?:less|lower)\s+than|"
    r"buffers?|surcharges?|standards?|rules?|ranges?|between|up\s+to)\b",
    re.I,
)
_BUFFER_INCLUDED = re.compile(
    r"(?:\b(?:with|including|incl\.?|plus|on\s+top\s+of|add(?:s|ed|ing)?)|\+)\s+(?:the\s+)?"
    r"(?:[\d.]+\s*%\s+)?(?:capital\s+)?conservation\s+buffer|\bconservation\s+buffer\s+included\b"
    r"|\b(?:with|plus|including)\s+(?:the\s+)?buffer\b",
    re.I,
)
# "the conservation buffer is 2.5%, bringing the CET1 requirement to 7%": the total after it
_BUFFER_THEN_TOTAL = re.compile(
    r"\bconservation\s+buffer\b[^;]*\b(?:bring(?:s|ing)?|brought|tak(?:es|ing)|took|"
    r"rais(?:es|ing)|lift(?:s|ing)|push(?:es|ing)|for\s+a\s+total|in\s+total|combined|total(?:ling)?)\b"
    r"[^;]*$",
    re.I,
)
# "adds a capital conservation buffer ... For most banks it is 2.5%, so the practical CET1 floor
# is 7%": the requirement in practice, after a buffer just named, includes it
_IN_PRACTICE = re.compile(
    r"\b(?:practical|effective|all-in|real-world|in\s+practice|de\s+facto|in\s+effect)\b", re.I
)
# a layer on top of a minimum, named between the minimum's name and the value ("an additional
# CET1 surcharge of 1% to 3.5%", "Tier 1 buffer of 2.5%"): the value is the layer's, not the minimum's
_LAYER_NOUN = re.compile(r"\b(?:surcharges?|buffers?|add-?ons?|extra|additional|on\s+top)\b", re.I)


_CONTRASTED = re.compile(
    r"(?:,|\b(?:rather|instead))\s*(?:not|than)\s+(?:to\s+|as\s+|with\s+|at\s+)?(?:the\s+|a\s+|its\s+)?[*_]*$",
    re.I,
)


def capital_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    out: list[Claim] = []
    base = info.sentence.start
    for q in info.quantities:
        if q.unit != "percent" or q.start in info.change_quantities:
            continue
        a, b = value_clause(info, q)
        clause = info.text[a:b]
        lead = info.text[a : q.start - base]
        if fw.ARITHMETIC.search(clause) or re.search(r"→|->|⇒", clause):
            continue  # "4.5% + 2.5% + 1.0% = 8.0%": a computation
        if _CONTRASTED.search(lead):
            continue  # "corresponds to the SLR, not to the 4% ratio": another measure's name
        lay = info.layout
        if (
            fw.OWN_FIGURE.search(lead[-60:])
            or _own_attributive(info, q, lead)
            or (_COMPARISON.search(lead) and not _FLOOR.search(lead))
            or fw.OWN_FIGURE.search(lay.list_header)
        ):
            continue  # "a bank with a 12% CET1 ratio", "its CET1 ratio of 11.8%", "above 7.0%"
        context = " ".join((info.text, lay.label, _column(info, q), " ".join(lay.columns),
                            lay.row_label, *lay.headings[-1:]))  # fmt: skip
        if _NOT_IN_GRAPH.search(context):
            continue
        if _population_share(info, q):
            continue  # "46% of G-SIBs", "a quarter of banks ..., up from 6%": a share of banks
        bound = _requirement(info, q, kb)
        if bound is None:
            continue
        m, eid, source = bound
        nxt = [x.start for x in info.quantities if x.start > q.start]
        tail = info.text[q.end - base : min([q.end - base + 25, *(x - base for x in nxt)])]
        if lay.label_end is not None and q.end <= lay.label_end:
            continue  # "- **Total capital (10.3%):** ...": a figure labelled, not a requirement
        named_lead = info.text[max(0, m.start - base) : q.start - base] if m.start < q.start else ""
        triggers = (lead[-80:], tail, named_lead[-80:], _column(info, q), lay.row_label,
                    lay.label, lay.list_header, *lay.headings[-1:])  # fmt: skip
        if not any(_REQ_TRIGGER.search(t) for t in triggers if t) and not _FLOOR.search(lead):
            continue  # "CET1 (7.6%): passes": a value with no word making it a requirement
        ent = kb.entity(eid)
        is_leverage = ent is not None and (
            "leverage" in ent.label.lower() or "exposure" in str(ent.attrs.get("basis", ""))
        )
        if not is_leverage and _LEVERAGE_WORDS.search(clause + " " + lay.row_label):
            # "Tier 1 capital must be at least 3% of the exposure measure": a leverage ratio
            lev = _leverage_reading(info, m, q, clause, kb)
            if lev is None:
                continue
            eid = lev
        if eid == "ratio:output-floor" and _PHASE_IN_YEAR.search(info.text):
            continue  # "the output floor is 60% in 2025": a transitional level (RBC90)
        candidates = _candidates(eid, kb, info, m.text)
        c = base_claim(info, cr, (m, eid), kb, domain, format_quantity(q), None, q.start)
        c.quantity = q
        frame = Frame("capital_requirement", role="requirement", trigger=m.text)
        frame.slots["requirements"] = "|".join(candidates)
        frame.slots["bound_by"] = source
        own_place = " ".join((clause, lay.label, _column(info, q), lay.row_label))
        lead = info.text[: q.start - info.sentence.start]
        if (
            _BUFFER_INCLUDED.search(own_place)
            or _BUFFER_THEN_TOTAL.search(lead)
            or (
                _IN_PRACTICE.search(clause)
                and re.search(r"\bbuffer\b", f"{info.previous_text} {lead}", re.I)
            )
        ):
            frame.slots["including"] = "conservation buffer"
        fact = next(iter(kb.facts_about(eid, "minimumRatio")), None)
        ranged = fact is not None and fact.value_max is not None
        if (
            ranged
            and q.value_max is None
            and (_SETTING.search(clause) or not _RANGE_WORDS.search(clause))
        ):
            continue  # "in the 1.5% bucket", "the UK set its CCyB at 2%": a setting in the range
        frame.not_asserted = (
            non_assertion(
                info.layout,
                info.text,
                q.start - base,
                clause=lead,
                paragraph_lead=info.layout.paragraph_lead,
            )
            or c.frame.not_asserted  # type: ignore[union-attr]
        )
        dated = _dated_level(info, q, fact)
        if dated:
            frame.missing = (*frame.missing, dated)
        c.frame = frame
        out.append(c)
    return out


# a share of a population of banks: "46% of G-SIBs", "a quarter of banks", "the share of
# institutions"; a percentage of banks is a statistic, not a ratio any bank must hold
_POPULATION = (
    r"(?:banks|lenders|institutions|firms|G-?SIBs|D-?SIBs|SIBs|respondents|"
    r"jurisdictions|countries|members|groups|entities|insurers)\b(?!['’])"
)
_SHARE_OF = re.compile(
    r"^[\s*_]*of\s+(?:the\s+|all\s+|those\s+|its\s+)?(?:[\w-]+\s+){0,3}?" + _POPULATION, re.I
)
_POPULATION_SHARE = re.compile(
    r"(?:\d+(?:\.\d+)?\s*(?:%|per\s*cent|percent)|\b(?:a\s+)?(?:quarter|third|half|fifth|tenth|"
    r"majority|minority|share|proportion|percentage|number|most|many|few|some)|\bhalf)\s+of\s+"
    r"(?:the\s+|all\s+)?(?:[\w-]+\s+){0,3}?" + _POPULATION,
    re.I,
)
_COMPARED = re.compile(
    r"(?:\b(?:up|down|rising|falling|increas\w*|decreas\w*)\s+from|\bfrom|\bcompared\s+(?:with|to)|"
    r"\bversus|\bvs\.?|\bagainst|\bto)\s+(?:just\s+|only\s+|about\s+|around\s+|nearly\s+|"
    r"almost\s+|some\s+)?[*_]*$",
    re.I,
)


def _population_share(info: SentenceInfo, q: Quantity) -> bool:
    """The value is a share of a population of banks: followed by "of <banks>" ("46% of
    G-SIBs"), or compared ("up from 6%") with such a share stated in the same sentence ("a
    quarter of banks are bound by the output floor, up from 6% at end-2021")."""
    base = info.sentence.start
    if _SHARE_OF.match(info.text[q.end - base :]):
        return True
    lead = info.text[max(0, q.start - base - 30) : q.start - base]
    return bool(_COMPARED.search(lead) and _POPULATION_SHARE.search(info.text))


# a year-by-year phase-in schedule: three or more values in a row with nothing but separators
# between them ("8.0% 8.625% 9.25% 9.875% 10.5%"), or a column headed by a year or a date
_SERIES_GAP = re.compile(r"^[\s|,;/*_]*$")
_YEAR_HEADER = re.compile(
    r"^\W*(?:(?:as\s+(?:of|at)|from|on|by)\s+)?(?:\d{1,2}\s+\w+\s+|\w+\s+\d{1,2},?\s+)?"
    r"(?:19|20)\d\d\W*$",
    re.I,
)


_AGREED = re.compile(
    r"\b(?:agreed|announced|published|finali[sz](?:ed|ing)|issued|released|endorsed|unveiled|"
    r"proposed|set\s+out|introduced|adopted)\b",
    re.I,
)


def _dated_level(info: SentenceInfo, q: Quantity, fact: object) -> str | None:
    """Why a value cannot be checked against the requirement's minimum when the text dates it:
    a value the text ties to a date ("On 1 January 2013 ... 4.5%") or to a year's cell of a
    phase-in schedule is that date's level, a transitional one before the requirement applies
    in full. The graph's fact is the final minimum; it decides such a value only when it is
    dated (``valid_from``) no later than the value's date."""
    valid_from = getattr(fact, "valid_from", None)
    base = info.sentence.start
    lay = info.layout
    if lay.kind == "table_row" and _YEAR_HEADER.match(_column(info, q) or "x"):
        return (f"the value sits in the {_column(info, q).strip()!r} column of a year-by-year "
                "schedule; the graph holds the final minimum, not each year's level")  # fmt: skip
    row = sorted(info.quantities, key=lambda x: x.start)
    i = next(k for k, x in enumerate(row) if x.start == q.start)
    run = [q]
    for step in (-1, 1):
        k = i + step
        while 0 <= k < len(row) and row[k].unit == "percent":
            lo, hi = sorted((row[k], run[-1] if step > 0 else run[0]), key=lambda x: x.start)
            if not _SERIES_GAP.match(info.text[lo.end - base : hi.start - base]):
                break
            run = [*run, row[k]] if step > 0 else [row[k], *run]
            k += step
    if len(run) >= 3:
        return (
            f"the value is one cell of a row of {len(run)} values, a year-by-year schedule; the "
            "graph holds the final minimum, not each year's level"
        )
    d = claim_date(info, q.start)
    if d is None or d.precision == "now" or d.role in {"current", "after"}:
        return None
    if _AGREED.search(info.text):
        return None  # "In December 2017 the Committee agreed an output floor of 72.5%": the
        # date is the agreement's; the value is the standard agreed, checked as such
    if valid_from is not None and d.first >= valid_from:
        return None
    since = f"from {valid_from}" if valid_from is not None else "without the date it applies from"
    return (
        f"the text dates the value to {d.text!r}; the graph holds the fully phased-in "
        f"minimum only ({since}), not the level required at that date"
    )


def _column(info: SentenceInfo, q: Quantity) -> str:
    return info.layout.column_at(q.start) if info.layout.kind == "table_row" else ""


def _own_attributive(info: SentenceInfo, q: Quantity, lead: str) -> bool:
    """ "A 12% CET1 ratio means ...": an indefinite ratio is some bank's, not the minimum."""
    base = info.sentence.start
    return bool(_ATTRIBUTIVE_OWN.search(lead) and _RATIO_AFTER.match(info.text[q.end - base :]))


_DASH_GAP = re.compile(
    r"[\s*_]*(?:(?:capital\s+)?(?:minimum|requirement|ratio|floor)\s*)?[\u2014\u2013:-][\s*_]*",
    re.I,
)


def _requirement(
    info: SentenceInfo, q: Quantity, kb: KnowledgeBase
) -> tuple[Mention, str, str] | None:
    base = info.sentence.start
    a, _b = value_clause(info, q)
    reqs = info.mentions_of(_REQ)
    paired = respective(info, q, reqs)
    if paired is not None:  # "CET1, Tier 1 and total capital ... 4.5%, 6% and 8%, respectively"
        return (*paired, "respectively") if paired else None
    after = [(m, e) for m, e in reqs if m.start >= q.end and m.start - q.end <= 30
             and re.fullmatch(r"[\s*_]*(?:\(|of\s+(?:the\s+)?)?[\s*_]*", info.text[q.end - base : m.start - base])]  # fmt: skip
    if after:
        return after[0][0], after[0][1], "clause"  # "a 2.5% capital conservation buffer"
    before = [(m, e) for m, e in reqs if a <= m.start - base and m.end <= q.start]
    if not before and _RELATIVE_LEAD.match(info.text[max(0, a - 40) : a]):
        # "an output floor, under which RWA may not fall below 72.5% of ...": the relative
        # clause's antecedent is the requirement named just before it
        before = [(m, e) for m, e in reqs if a - 40 <= m.start - base and m.end - base <= a]
    if not before:
        # "**Tier 1 minimum — 5.5% of RWA.**": the name the dash sets the value after
        before = [(m, e) for m, e in reqs if m.end <= q.start
                  and _DASH_GAP.fullmatch(info.text[m.end - base : q.start - base])]  # fmt: skip
    before = [(m, e) for m, e in before if not _explained_inside(info, m, q)]
    if before:
        m, e = before[-1]
        gap = info.text[m.end - base : q.start - base]
        if _LAYER_NOUN.search(re.sub(r"\([^()]*\)", "", gap)) and not _is_layer(kb, e):
            return None  # "an additional CET1 surcharge of 1%-3.5%" is not the CET1 minimum
        if len(gap) <= 80 and not _other_value_between(info, m, q):
            return m, e, "clause"
        return None
    lay = info.layout
    if lay.kind == "table_row":
        row = [(m, e) for m, e in reqs if lay.cell_index(m.start) == 0]
        if row:
            return row[0][0], row[0][1], "row"
    if lay.label_end is not None:
        labelled = [(m, e) for m, e in reqs if m.end <= lay.label_end]
        if labelled:
            return labelled[-1][0], labelled[-1][1], "label"
    if not reqs and _FLOOR.search(info.text[a : q.start - base]):
        # "### Output floor" / "RWAs may not fall below 75% of ...": a floor stated under a
        # heading that names one requirement, in a sentence that names none
        for mentions in info.heading_mentions[:1]:
            found = {r: m for m in mentions if (r := m.of_type(_REQ))}
            if len(found) == 1:
                req, m = next(iter(found.items()))
                return (
                    Mention(q.start, q.end, m.text, (req,), ("CapitalRequirement",)),
                    req,
                    "heading",
                )
    return None


def _explained_inside(info: SentenceInfo, m: Mention, q: Quantity) -> bool:
    """ "The minimum total capital ratio (CET1 + Additional Tier 1 + Tier 2) is 8%": a name
    inside a parenthesis closed before the value spells out what the ratio is made of; it
    is not the requirement the value belongs to."""
    base = info.sentence.start
    lead = info.text[: m.start - base]
    opened = lead.rfind("(")
    if opened < 0 or ")" in lead[opened:]:
        return False
    return ")" in info.text[m.end - base : q.start - base]


def _is_layer(kb: KnowledgeBase, eid: str) -> bool:
    """A buffer or surcharge requirement (its own label says so)."""
    ent = kb.entity(eid)
    label = ent.label.lower() if ent is not None else eid
    return bool(re.search(r"buffer|surcharge|loss absorbency", label))


_PHASE_IN_YEAR = re.compile(r"\b202[3-7]\b")
_RELATIVE_LEAD = re.compile(
    r".*[\w*_)]\s*[*_]*,?\s*(?:under\s+which|by\s+which|whereby|which|that)?\s*$", re.S
)
_NUMERATOR = re.compile(r"^\W*(?:Tier\s*1|T1)(?:\s+capital)?\W*$", re.I)
_EXPOSURE = re.compile(r"\b(?:total\s+)?(?:leverage\s+)?exposure(?:\s+measure)?\b", re.I)
_AVERAGE_ASSETS = re.compile(r"\baverage\s+(?:total\s+)?(?:consolidated\s+)?assets\b", re.I)
_OTHER_REGIME = re.compile(
    r"\b(?:UK|U\.K\.|PRA|Britain|British|Canad\w+|OSFI|Swiss|Switzerland|FINMA|Japan\w*|"
    r"Australia\w*|APRA|India\w*|China|Chinese)\b"
)


def _leverage_reading(
    info: SentenceInfo, m: Mention, q: Quantity, clause: str, kb: KnowledgeBase
) -> str | None:
    """ "Tier 1 capital ... at least 3% of the exposure measure" is the leverage ratio:
    Tier 1 named as the numerator and the exposure measure (Basel, or the US supplementary
    ratio) or average total consolidated assets (the US Tier 1 leverage ratio) as the
    denominator. Anything else, or another country's regime, is not read."""
    if not _NUMERATOR.match(m.text) or _OTHER_REGIME.search(info.text):
        return None
    base = info.sentence.start
    after = info.text[q.end - base : q.end - base + 60]
    if _AVERAGE_ASSETS.search(after):
        eid = "ratio:us-tier1-leverage-minimum"
    elif _EXPOSURE.search(after):
        eid = "ratio:leverage-ratio-minimum"
    else:
        return None
    return eid if kb.entity(eid) is not None else None


def _other_value_between(info: SentenceInfo, m: Mention, q: Quantity) -> bool:
    """ "CET1 4.5%, Tier 1 6%, total 8%" binds each value to the name just before it: a value
    with another value between it and a name is not that name's."""
    return any(m.end <= x.start and x.end <= q.start for x in info.quantities)


def _candidates(eid: str, kb: KnowledgeBase, info: SentenceInfo, name: str = "") -> list[str]:
    """The requirement, and in a US text the US requirement of the same name (and back)."""
    out = [eid]
    if re.search(r"\bU\.?S\.?\b|Basel", name):
        return [eid]  # "US Tier 1 leverage ratio", "Basel III leverage ratio": one reading
    if eid in {"ratio:leverage-ratio-minimum", "ratio:us-tier1-leverage-minimum"}:
        us = bool(_US.search(info.text) or any(_US.search(h) for h in info.layout.headings))
        if us or eid == "ratio:us-tier1-leverage-minimum":
            out = ["ratio:us-tier1-leverage-minimum", "ratio:leverage-ratio-minimum"]
    return [e for e in out if kb.entity(e) is not None]


__all__ = ["capital_claims"]
