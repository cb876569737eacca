"""A short case name inside another case's full name is not a mention of the short-named case.

The linker knows curated cases by their short names too ("Meyer" for Meyer v. Nebraska,
"Brown" for Brown v. Board of Education), so in "Meyer v. Uber Technologies, Inc." or
"Brown v. Plata" it would find those cases. When a linked short name is one side of an
"A v. B" name written in the text, or follows a one-party caption ("In re Marriage of
Mathews", "Estate of ..."), the whole name is compared with the case's own names
(``same_name(full, case_id)``) and the mention is dropped when they differ.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from auditor.extract.context import SentenceInfo
from auditor.types import Mention

_V = re.compile(r"\s+vs?\.?\s+")
_V_END = re.compile(r"\s+vs?\.?\s+$")  # the text before a name ends in " v. "
_CONNECTIVE = frozenset({"of", "the", "and", "for", "de", "ex", "rel.", "&", "in", "on", "to"})
_WORD = re.compile(r"[^\s,;:()]+,?")
# a one-party caption written before the linked name: "In re Marriage of Mathews" is a state
# family matter, not Mathews v. Eldridge
_CAPTION_LEAD = re.compile(
    r"(?<![\w])((?:In\s+re|Ex\s+parte|(?:In\s+the\s+)?Matter\s+of|Estate\s+of|Application\s+of|"
    r"Petition\s+of)(?:\s+(?:the\s+)?(?:Marriage|Estate|Adoption|Custody|Guardianship)\s+of)?|"
    r"(?:the\s+)?Marriage\s+of)\s+[*_]*$",
    re.I,
)


def _words_after(text: str, pos: int, limit: int = 10) -> str:
    """The party name starting at ``pos``: capitalised words and connectives."""
    out: list[str] = []
    for m in _WORD.finditer(text, pos):
        if m.start() > pos + 1 and text[m.start() - 1] not in " \t":
            break
        w = m.group(0)
        bare = w.rstrip(",").strip("*_")
        if not bare:
            break
        if bare[0].isupper() or bare[0].isdigit() or bare.lower() in _CONNECTIVE:
            out.append(bare)
        else:
            break
        if w.endswith(",") and bare.rstrip(".") not in {"Inc", "Co", "Corp", "Ltd", "LLC"}:
            break
        if len(out) >= limit:
            break
        pos = m.end()
    while out and out[-1].lower() in _CONNECTIVE:
        out.pop()
    return " ".join(out)


def _words_before(text: str, pos: int, limit: int = 8) -> str:
    words = text[max(0, pos - 120) : pos].split()
    out: list[str] = []
    for w in reversed(words):
        bare = w.strip("*_,")
        if bare and (bare[0].isupper() or bare.lower() in _CONNECTIVE) and len(out) < limit:
            out.append(bare)
        else:
            break
    while out and out[-1].lower() in _CONNECTIVE:
        out.pop()
    return " ".join(reversed(out))


def drop_partial_case_names(
    text: str, mentions: list[Mention], same_name: Callable[[str, str], bool]
) -> list[Mention]:
    """``mentions`` without case mentions that are one side of another case's name."""
    out: list[Mention] = []
    for m in mentions:
        if "Case" in m.types and not _V.search(m.text):
            full = ""
            after = _V.match(text, m.end)
            if after:
                other = _words_after(text, after.end())
                full = f"{m.text} v. {other}" if other else ""
            elif caption := _CAPTION_LEAD.search(text[max(0, m.start - 40) : m.start]):
                full = f"{caption.group(1)} {m.text}"  # "In re Marriage of Mathews"
            else:
                head = text[max(0, m.start - 6) : m.start]
                before = _V_END.search(head)
                if before:
                    other = _words_before(text, m.start - len(before.group(0)))
                    full = f"{other} v. {m.text}" if other else ""
            if full:
                keep = [
                    (c, t)
                    for c, t in zip(m.candidates, m.types, strict=True)
                    if t != "Case" or same_name(full, c)
                ]
                if not keep:
                    continue
                if len(keep) != len(m.candidates):
                    m = replace(
                        m, candidates=tuple(c for c, _ in keep), types=tuple(t for _, t in keep)
                    )
        out.append(m)
    return out


# a case named in the sentence that the linker did not link ("In Brown v. Plata, ...",
# "In *Loper Bright*, ..."): the previous sentence's case is not this sentence's subject
_CASE_NAME = re.compile(
    r"\b[A-Z][\w.&'’-]*(?:\s+(?:of|the|and|for|&|[A-Z][\w.&'’-]*))*\s+vs?\.\s+[A-Z]"
)
_IN_CASE = re.compile(r"^\W*In\s+\*?_?([A-Z][\w.'’-]+(?:\s+[A-Z][\w.'’-]+)*)\*?_?,")


def names_unlinked_case(info: SentenceInfo) -> bool:
    """The sentence names a case the linker did not link (its subject is not the previous
    sentence's case)."""
    cases = [m for m in info.mentions if "Case" in m.types]
    base = info.sentence.start
    for pat in (_CASE_NAME, _IN_CASE):
        for hit in pat.finditer(info.text):
            a, b = base + hit.start(), base + hit.end()
            if not any(m.start < b and a < m.end for m in cases):
                return True
    return False


# Later short forms. Legal writing names a case in full once ("Swift v. Tyson") and by one
# party after ("Erie overruled Swift"). The graph links only short names that are rare words
# ("Miranda", "Dobbs"); "Swift", "Austin", "Lawrence" or "Citizens United" are everyday
# words or phrases there. After the full name, the first party (or, for a government or
# other generic first party, the second) denotes that case for the rest of the text.
_GENERIC_PARTY = frozenset(
    {
        "united", "state", "states", "people", "commonwealth", "city", "county", "board",
        "department", "national", "federal", "american", "new", "planned", "first", "in",
        "ex", "matter", "estate", "town", "village", "district", "school", "local",
        "international", "general", "north", "south", "east", "west", "the", "a", "an",
        "secretary", "commissioner", "director", "attorney", "government", "territory",
    }
)  # fmt: skip
_TITLE_BEFORE = re.compile(
    r"(?:Justice|Judge|Chief|Mr\.|Mrs\.|Ms\.|Dr\.|Senator|President|Governor|Professor)\s+$"
)


def _party_short_forms(name: str) -> list[str]:
    """ "Swift v. Tyson" -> ["Swift"]; "Citizens United v. FEC" -> ["Citizens United",
    "Citizens"]; "Planned Parenthood of Southeastern Pa. v. Casey" -> ["Casey"]."""
    parties = _V.split(name, maxsplit=1)
    if len(parties) != 2:
        return []
    first = parties[0].strip(" *_,")
    words = first.split()
    if not words:
        return []
    if words[0].lower().strip(".") in _GENERIC_PARTY:
        other = parties[1].strip(" *_,").split()
        ok = other and other[0][:1].isupper() and other[0].lower() not in _GENERIC_PARTY
        return [other[0].rstrip(".,")] if ok else []
    forms = [first] if 1 < len(words) <= 3 and all(w[:1].isupper() for w in words) else []
    head = words[0].rstrip(".,")
    return [*forms, head] if len(head) >= 3 and head[:1].isupper() else forms


def later_short_forms(text: str, mentions: list[Mention]) -> list[Mention]:
    """Mentions of cases by a short form written after their full name (see above); a form
    two cases of the text share, one inside a linked name, a form followed by "v." (another
    case's name) or after a title ("Justice Brown") is left alone."""
    firsts: dict[str, tuple[int, str]] = {}  # form -> (end of the first full name, case id)
    shared: set[str] = set()
    for m in mentions:
        if "Case" not in m.types or not _V.search(m.text):
            continue
        cid = m.candidates[m.types.index("Case")]
        for form in _party_short_forms(m.text):
            if form in firsts and firsts[form][1] != cid:
                shared.add(form)
            firsts.setdefault(form, (m.end, cid))
    taken = [(m.start, m.end) for m in mentions]
    out: list[Mention] = []
    for form in sorted(firsts, key=len, reverse=True):  # "Citizens United" before "Citizens"
        if form in shared:
            continue
        after, cid = firsts[form]
        for hit in re.finditer(rf"(?<![\w.]){re.escape(form)}(?![\w])", text[after:]):
            a, b = after + hit.start(), after + hit.end()
            if any(s < b and a < e for s, e in taken):
                continue
            if _V.match(text, b) or _V_END.search(text[max(0, a - 6) : a]):
                continue  # "Brown v. Plata", "Smith v. Swift": another case's name
            if _TITLE_BEFORE.search(text[max(0, a - 16) : a]):
                continue  # "Justice Brown"
            out.append(Mention(a, b, form, (cid,), ("Case",)))
            taken.append((a, b))
    return out
