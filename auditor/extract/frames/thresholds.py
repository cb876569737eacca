"""The reporting-threshold frame: (obligation, amount, comparator), never a worked example.

"Banks must file a CTR for cash transactions of more than $10,000" states a threshold: an
amount bound to a comparator ("more than", "over", "at least", "$10,000 or more") or a
threshold noun ("a $3,000 threshold") and to an obligation named in its clause, label, row or
heading. "A customer deposits $6,000 in the morning and $5,000 in the afternoon", "they
aggregate to $12,000", "$6,000 + $5,000 = $11,000 → CTR" and "depositing $12,000 will generate a
CTR" are examples: amounts without a comparator, in narrative or arithmetic, are not claims.
Where the clause names an institution ("money services businesses at $2,000") the obligation
must be that institution's; the comparator, when stated, is checked too ("$10,000 or more" is
not "more than $10,000").
"""

from __future__ import annotations

import re

from auditor.extract.assertion import non_assertion
from auditor.extract.claim_base import DENIED_VALUE, base_claim, format_quantity, specific_member
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.frames import finance_words as fw
from auditor.extract.frames.common import value_clause
from auditor.memo import IdentityCache
from auditor.types import Claim, Frame, Mention, Quantity
from knowledge_graphs.store import KnowledgeBase

_OBLIGATION = frozenset({"ReportingObligation"})
_ARROW = re.compile(r"→|->|⇒|=")
_INSTITUTIONS = {
    # not the Bank Secrecy Act, a central bank or the World Bank
    "bank": re.compile(
        r"(?<!central\s)(?<!World\s)\bbanks?\b(?!\s+Secrecy)|depository\s+institutions?", re.I
    ),
    "money services business": re.compile(
        r"\bmoney\s+services?\s+business\w*|\bMSBs?\b|\bmoney\s+transmitt\w+|\bcheck\s+cash\w+|"
        r"\bcurrency\s+(?:exchangers?|dealers?)",
        re.I,
    ),
    "casino": re.compile(r"\bcasinos?\b|card\s+clubs?", re.I),
    "broker": re.compile(r"\bbroker-?dealers?\b|\bsecurities\s+(?:firms?|brokers?)\b", re.I),
}


def threshold_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    out: list[Claim] = []
    base = info.sentence.start
    text = info.text
    for q in info.quantities:
        if q.dimension != "currency":
            continue
        a, b = value_clause(info, q)
        lead = text[max(a, q.start - base - 60) : q.start - base]
        tail = text[q.end - base : q.end - base + 25]
        comparator = _comparator(lead, tail)
        asked = _asked(info, q, kb) if comparator is None else None
        if asked is not None:  # "What is the SAR threshold for banks?" — "$10,000."
            comparator = asked[3]
        if comparator is None:
            continue  # an amount with no comparator or threshold word is not a threshold
        if _ARROW.search(text[a:b]) or (comparator[0] == "?" and fw.EXAMPLE_AMOUNT.search(lead)):
            continue  # "$6,000 + $5,000 = $11,000 → CTR", "a customer deposits $9,500"
        bound = asked[:3] if asked is not None else _obligation(info, q, kb)
        if bound is None:
            continue
        if _OTHER_CATEGORY.search(" ".join((text[a:b], info.layout.row_label))):
            continue  # "Known or suspected crime, no suspect identified | $25,000": 12 CFR 21.11
        m, eid, source = bound
        acts = _cited_obligations(text, kb)
        if acts and eid not in acts:
            continue  # the clause or row cites the act of another obligation than the one named
        c = base_claim(info, cr, (m, eid), kb, domain, format_quantity(q), None, q.start)
        c.quantity = q
        if DENIED_VALUE.search(text, max(0, q.start - base - 30), q.start - base):
            c.negated = True  # "the CTR threshold is not $10,000"
        frame = Frame("reporting_threshold", role="threshold", trigger=comparator[1])
        frame.slots["bound_by"] = source
        if comparator[0] in {">", ">="}:
            frame.slots["comparator"] = comparator[0]
        institution = _institution(text[a:b] if asked is None else info.asked)
        if institution:
            frame.slots["institution"] = institution
        frame.not_asserted = (  # "if you deposit more than $10,000, ..." states the rule
            non_assertion(
                info.layout,
                text,
                q.start - base,
                clause="",
                paragraph_lead=info.layout.paragraph_lead,
            )
            or c.frame.not_asserted  # type: ignore[union-attr]
        )
        c.frame = frame
        out.append(c)
    return out


_OPENS_ANSWER = re.compile(
    r"^[\s*_]*(?:(?:A|Answer)\s*[:.]\s*|(?:it(?:'s|\s+is)|that(?:'s|\s+is)|the\s+(?:\w+\s+)?"
    r"threshold\s+is)\s+)?[\s*_]*$",
    re.I,
)


# Categories that bank regulators' own SAR rules (12 CFR 21.11, 208.62, 353.3) set apart with
# their own amounts; the graph holds the BSA thresholds (31 CFR 1020.320 ...) only
_OTHER_CATEGORY = re.compile(
    r"\b(?:(?:no\s+)?suspects?\s+(?:(?:is|was|has\s+been|can\s+be)\s+)?(?:identified|known|"
    r"unknown)|(?:no|without\s+an?|regardless\s+of\s+(?:a|whether\s+a))\s+suspect|"
    r"insider\s+abuse|known\s+or\s+suspected\s+(?:federal\s+)?crim\w+)\b",
    re.I,
)


def _asked(
    info: SentenceInfo, q: Quantity, kb: KnowledgeBase
) -> tuple[Mention, str, str, tuple[str, str]] | None:
    """An amount that opens the answer to a question about one obligation's threshold ("What
    is the dollar threshold for a bank to file a SAR?" — "$10,000 — the same as the CTR.")."""
    if not info.asked or not _OPENS_ANSWER.match(info.text[: q.start - info.sentence.start]):
        return None
    noun = re.search(r"\b(?:threshold|limit|cut-?off|(?:dollar\s+)?amount|how\s+much)\b",
                     info.asked, re.I)  # fmt: skip
    if noun is None:
        return None
    found = [(m, e) for m in info.asked_mentions if (e := m.of_type(_OBLIGATION))]
    if len({e for _, e in found}) != 1:
        return None
    return found[0][0], found[0][1], "question", ("?", noun.group(0))


def _comparator(lead: str, tail: str) -> tuple[str, str] | None:
    """(">" | ">=" | "?", the words) for the amount, or None when nothing makes it a limit."""
    stripped = lead.rstrip(" *_")
    if m := fw.MORE_THAN.search(stripped):
        return ">", m.group(0).strip()
    if m := fw.AT_LEAST.search(stripped):
        return ">=", m.group(0).strip()
    if m := fw.AT_LEAST_AFTER.match(tail.lstrip("*_")):
        return ">=", m.group(0).strip()
    if m := fw.THRESHOLD_NOUN.search(stripped):
        return "?", m.group(0).strip()
    if re.match(r"^[\s*_]*(?:threshold|reporting\s+threshold|limit)\b", tail, re.I):
        return "?", "threshold"  # "a $3,000 threshold"
    return None


def _own_part(info: SentenceInfo, q: Quantity, m: Mention) -> bool:
    """The mention lies past a semicolon from the value, in a part with an amount of its own."""
    base = info.sentence.start

    def part(at: int) -> int:
        return info.text.count(";", 0, max(0, at - base))

    if part(m.start) == part(q.start):
        return False
    return any(
        x is not q and x.dimension == "currency" and part(x.start) == part(m.start)
        for x in info.quantities
    )


def _obligation(
    info: SentenceInfo, q: Quantity, kb: KnowledgeBase
) -> tuple[Mention, str, str] | None:
    base = info.sentence.start
    a, b = value_clause(info, q)
    obligations = info.mentions_of(_OBLIGATION)
    in_clause = [(m, e) for m, e in obligations if a <= m.start - base < b]
    before = [(m, e) for m, e in in_clause if m.end <= q.start]
    if before:
        member = specific_member(info, before[-1], before, kb, q.start)
        return member[0], member[1], "clause"
    after = [(m, e) for m, e in in_clause if ";" not in info.text[q.end - base : m.start - base]]
    if after:  # not one past a semicolon: "... $5,000 (§ 1020.320(a)(2)); a money services ..."
        return after[0][0], after[0][1], "clause"
    # "If ... exceeded $10,000 ..., you need to file an FBAR"; but not a name past a semicolon
    # whose own part states its own amount ("$5,000 ...; a money services business files at
    # $2,000")
    in_sentence = [(m, e) for m, e in obligations if not _own_part(info, q, m)]
    if len({e for _, e in in_sentence}) == 1:
        return in_sentence[-1][0], in_sentence[-1][1], "sentence"
    lay = info.layout
    if lay.kind == "table_row":
        row = [(m, e) for m, e in obligations if lay.cell_index(m.start) == 0]
        if row:
            return row[0][0], row[0][1], "row"
        column = lay.column_at(q.start)
        named = _named_in(column, kb)
        if named is not None:  # "| | **FBAR** (FinCEN Form 114) | **Form 8938** |"
            return (
                Mention(q.start, q.end, column, (named,), ("ReportingObligation",)),
                named,
                "column",
            )
    cited = _cited(info, q, kb, text_of=info.text[a:b])
    if cited is not None:  # "Under 31 CFR 1010.410(f) this applies to transmittals of ..."
        return cited
    described = _border_declaration(info, q, kb)
    if described is not None:  # "travellers entering the EU with EUR 10,000 or more must declare"
        return described
    described = _described_report(info, q, kb, info.text[a:b])
    if described is not None:  # "banks must report cash transactions of more than $10,000"
        return described
    described = _described_transfer_rule(info, q, kb)
    if described is not None:  # "for funds transfers of $3,000 or more, the bank must keep ..."
        return described
    if lay.label_end is not None:
        labelled = [(m, e) for m, e in obligations if m.end <= lay.label_end]
        if labelled:
            return labelled[-1][0], labelled[-1][1], "label"
    for level, mentions in enumerate(info.heading_mentions):  # innermost naming an obligation
        found = [(m, e) for m in mentions if (e := m.of_type(_OBLIGATION))]
        if level and _REPORT_NOUN.search(info.text):
            return None  # "CTRs (for cash over $10,000)": the line names a report of its own
        if len({e for _, e in found}) == 1:
            return found[0][0], found[0][1], "heading"
        if found:
            return None
    return None


_REPORT_NOUN = re.compile(
    r"\b(?:reports?|reporting|CTRs?|SARs?|FBARs?|CMIRs?|Forms?\s+\d+|FinCEN\s+Form)\b", re.I
)


# A cash declaration at a border, described instead of named: carrying cash across the border
# of one jurisdiction and declaring it (31 CFR 1010.340; Regulation (EU) 2018/1672, Art. 3)
_DECLARE = re.compile(r"\b(?:declar\w+|report\w*|file|filing)\b", re.I)
_CASH = re.compile(r"\b(?:cash|currency|monetary\s+instruments?|banknotes)\b", re.I)
_CROSSING = re.compile(
    r"\b(?:into\s+or\s+out\s+of|enter\w*|leav\w+|arriv\w+|depart\w+|bring\w*|carry\w*|"
    r"transport\w*|travel\w*|crossing|at\s+the\s+border|fl(?:y|ying|ies|ew)\s+(?:into|out\s+of|to|from))\b",
    re.I,
)
_BORDERS = {
    "obligation:us-cmir": re.compile(
        r"\b(?:the\s+United\s+States|the\s+U\.?S\.?|the\s+US|U\.S\.\s+Customs|CBP)(?!\w)"
    ),
    "obligation:eu-cash-declaration": re.compile(
        r"\b(?:the\s+European\s+Union|the\s+EU|the\s+Union)\b"
    ),
}


def _border_declaration(
    info: SentenceInfo, q: Quantity, kb: KnowledgeBase
) -> tuple[Mention, str, str] | None:
    """The border cash declaration a sentence describes: declaring cash carried across the
    border of exactly one jurisdiction whose declaration the graph holds."""
    text = info.text
    if not (_DECLARE.search(text) and _CASH.search(text) and _CROSSING.search(text)):
        return None
    found = [eid for eid, pat in _BORDERS.items() if pat.search(text) and kb.entity(eid)]
    if len(found) != 1:
        return None
    return (
        Mention(q.start, q.end, q.text, (found[0],), ("ReportingObligation",)),
        found[0],
        "described",
    )


# A US report described instead of named, in the value's clause: what is reported and a word
# of reporting. Cash transactions at a financial institution: the CTR (31 CFR 1010.311); cash
# payments received in a trade or business: Form 8300 (31 CFR 1010.330); suspicious activity:
# the SAR of the one institution the clause names (banks $5,000, MSBs $2,000, ...), none when
# it names no institution or several ("financial institutions" have different thresholds).
_REPORTING = re.compile(r"\b(?:report\w*|fil(?:e|es|ed|ing)|submit\w*|notif\w+)\b", re.I)
_CASH_TRANSACTIONS = re.compile(
    r"\b(?:cash|currency)(?:\s+transactions?|\s+deposits?|\s+withdrawals?)\b", re.I
)
_CASH_PAYMENTS = re.compile(
    r"(?=.*\b(?:receiv\w+|trade\s+or\s+business)\b)(?=.*\b(?:cash|currency)\s+payments?\b)",
    re.I | re.S,
)
_SUSPICIOUS = re.compile(r"\bsuspicious\s+(?:activit(?:y|ies)|transactions?)\b", re.I)
_SAR_OF = {
    "bank": "obligation:us-sar-bank",
    "money services business": "obligation:us-sar-msb",
    "casino": "obligation:us-sar-casino",
    "broker": "obligation:us-sar-broker-dealer",
}
_ELSEWHERE = re.compile(
    r"\b(?:Canad\w*|Australi\w*|UK|U\.K\.|Britain|British|EU|European|Europe|India\w*|"
    r"Singapore\w*|Hong\s+Kong|Mexic\w*|FINTRAC|AUSTRAC|FCA|NCA)\b|"
    r"\b(?:cross(?:es|ed|ing)?\s+(?:the\s+)?border|into\s+or\s+out\s+of|into\s+the\s+(?:US|"
    r"U\.S\.|United\s+States|country)|out\s+of\s+the\s+(?:US|U\.S\.|United\s+States|country)|"
    r"travel\w*|carry\w*|transport\w*|ship\w*|mail\w*|wire\s+transfers?|funds\s+transfers?)\b",
    re.I,
)


def _described_report(
    info: SentenceInfo, q: Quantity, kb: KnowledgeBase, clause: str
) -> tuple[Mention, str, str] | None:
    """The one US report the value's clause describes by what it reports (see above), in
    dollars, in a sentence that speaks of no other country and no border crossing or
    transfer (those are other reports: CMIR, the funds-transfer rules)."""
    if q.unit != "USD" or not _REPORTING.search(clause) or _ELSEWHERE.search(info.text):
        return None
    kinds = [
        eid
        for eid, hit in (
            ("obligation:us-form-8300", _CASH_PAYMENTS.search(clause)),
            ("obligation:us-ctr", _CASH_TRANSACTIONS.search(clause)),
            ("sar", _SUSPICIOUS.search(clause)),
        )
        if hit
    ]
    if not kinds:
        return None
    eid = kinds[0]
    if eid == "obligation:us-ctr" and "sar" in kinds:
        return None  # "suspicious cash transactions": which report is meant is not said
    if eid == "sar":
        institution = _institution(clause)
        eid = _SAR_OF.get(institution or "", "")
    elif eid == "obligation:us-ctr" and _institution(clause) == "casino":
        eid = "obligation:us-ctr-casino"
    if not eid or kb.entity(eid) is None:
        return None
    return Mention(q.start, q.end, q.text, (eid,), ("ReportingObligation",)), eid, "described"


_TRANSFERS = re.compile(
    r"\b(?:funds\s+transfers?|wire\s+transfers?|wires|transmittals?\s+of\s+funds|payment\s+orders?)\b",
    re.I,
)
_KEEPS_RECORDS = re.compile(
    r"\b(?:obtain|keep|retain|record|collect|maintain)\w*\b[^.;]{0,80}?\b(?:originator|"
    r"beneficiary|records?|information)\b",
    re.I,
)


_ABROAD = re.compile(
    r"\b(?:Canad\w*|Australi\w*|UK|U\.K\.|Britain|British|EU|European|Europe|India\w*|"
    r"Singapore\w*|Hong\s+Kong|Mexic\w*|FINTRAC|AUSTRAC|FCA|NCA|FATF|EUR|€|£)\b"
)


def _described_transfer_rule(
    info: SentenceInfo, q: Quantity, kb: KnowledgeBase
) -> tuple[Mention, str, str] | None:
    """ "For funds transfers of $3,000 or more, the bank must obtain and keep originator and
    beneficiary information": the funds-transfer recordkeeping rule (31 CFR 1020.410(a),
    1010.410(e)), described by what it requires, in dollars, in a sentence that names no other
    report."""
    base = info.sentence.start
    near = info.text[max(0, q.start - base - 40) : q.start - base]
    if q.unit != "USD" or not _TRANSFERS.search(near) or not _KEEPS_RECORDS.search(info.text):
        return None
    if info.mentions_of(_OBLIGATION) or _ABROAD.search(info.text):
        return None
    eid = "obligation:us-funds-transfer-recordkeeping"
    if kb.entity(eid) is None:
        return None
    return Mention(q.start, q.end, q.text, (eid,), ("ReportingObligation",)), eid, "described"


_CFR = re.compile(
    r"\b(?P<title>\d{1,2})\s+C\.?\s?F\.?\s?R\.?\s+(?:§+\s*)?(?P<sec>\d+\.\d+)(?P<par>(?:\([a-z0-9]+\))*)"
    r"|(?<=\sand\s)(?P<sec2>\d{4}\.\d+)(?P<par2>(?:\([a-z0-9]+\))*)",
    re.I,
)
_SECTIONS: IdentityCache[dict[str, set[str]]] = IdentityCache()


def _sections(kb: KnowledgeBase) -> dict[str, set[str]]:
    """Each obligation's legal basis as "31 CFR 1010.410(f)"-style keys → obligation ids."""

    def build() -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for f in kb.facts:
            if f.predicate == "legalBasis" and f.subject.startswith("obligation:") and f.literal:
                for key in _cfr_keys(f.literal):
                    out.setdefault(key, set()).add(f.subject)
        return out

    return _SECTIONS.get((kb,), build)


_EU_ACT = re.compile(
    r"\b(?P<kind>Regulation|Directive)\s*\((?:EU|EC|EEC)\)\s*(?:No\.?\s*)?(?P<num>\d{2,4}/\d{1,4})",
    re.I,
)


def _cfr_keys(text: str) -> list[str]:
    """Legal-basis keys in ``text``: "31 CFR 1010.410(f)" sections with their paragraphs, and
    EU acts by number ("Regulation (EU) 2018/1672" → "EU regulation 2018/1672")."""
    keys = [f"EU {m.group('kind').lower()} {m.group('num')}" for m in _EU_ACT.finditer(text)]
    title = None
    for m in _CFR.finditer(text):
        if m.group("title"):
            title = m.group("title")
            keys.append(f"{title} CFR {m.group('sec')}{(m.group('par') or '').lower()}")
        elif title:
            keys.append(f"{title} CFR {m.group('sec2')}{(m.group('par2') or '').lower()}")
    return keys


def _cited(
    info: SentenceInfo, q: Quantity, kb: KnowledgeBase, text_of: str
) -> tuple[Mention, str, str] | None:
    """The obligation whose legal basis is the CFR section and paragraph the value's clause
    (or sentence) cites; a section cited without its paragraph, or one shared by two
    obligations, names none."""
    index = _sections(kb)
    for text in (text_of, info.text):
        found = {o for key in _cfr_keys(text) for o in index.get(key, ())}
        if len(found) == 1:
            eid = next(iter(found))
            cite = _CFR.search(text) or _EU_ACT.search(text)
            name = cite.group(0) if cite else eid
            return Mention(q.start, q.end, name, (eid,), ("ReportingObligation",)), eid, "citation"
        if found:
            return None
    return None


_SUPERSEDED = re.compile(
    r"\b(?:replac\w*|supersed\w*|repeal\w*|formerly|previously|succeed\w*|in\s+place\s+of)\b"
    r"[^;|)]*",
    re.I,
)


def _cited_obligations(text: str, kb: KnowledgeBase) -> set[str]:
    """The obligations whose legal basis the text cites as its own: "Regulation (EC) No
    1889/2005 (replaced by Regulation (EU) 2018/1672 in 2021)" cites the 2005 rule; the act
    named after "replaced by / replacing / formerly" is the other rule of the same row."""
    own = _SUPERSEDED.sub(" ", text)
    index = _sections(kb)
    return {o for key in _cfr_keys(own) for o in index.get(key, ())}


def _named_in(text: str, kb: KnowledgeBase) -> str | None:
    """The one obligation whose name or alias occurs (as words) in a column header."""
    if not text:
        return None
    low = f" {re.sub(r'[^a-z0-9$,.]+', ' ', text.lower())} "
    found = {
        e.id
        for e in kb.entities_of_type("ReportingObligation")
        for n in e.names()
        if len(n) >= 3 and f" {re.sub(r'[^a-z0-9$,.]+', ' ', n.lower()).strip()} " in low
    }
    return found.pop() if len(found) == 1 else None


def _institution(clause: str) -> str | None:
    found = [name for name, pat in _INSTITUTIONS.items() if pat.search(clause)]
    return found[0] if len(found) == 1 else None


__all__ = ["threshold_claims"]
