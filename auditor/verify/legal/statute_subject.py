"""What a sentence says a cited statute section is for, compared with the section's subject.

A section that exists is not yet a supported claim: "wire fraud is charged under 18 U.S.C.
§ 1341" names a real section for a crime that is another section's (§ 1343). The text a
citation speaks for is its *scope*: the sentence between the previous citation and the next
one (cut at a semicolon), so "mail fraud is codified at § 1341, and wire fraud at § 1341"
gives each citation its own crime. In that scope:

* ``own`` — a subject phrase, heading phrase or alias of this section is named (and no other
  section's): supported; ``mixed`` — its own and another's: unverifiable (which one the
  citation is for cannot be told);
* ``foreign`` — a phrase that is another section's subject (and no wording of this one's
  heading) is named, and the section is cited as the source ("under", "at", "codified in"),
  not as the provision violated ("for violating § 1962(c)"): contradicted;
* ``unstated`` — the scope says nothing the section could be about ("See 18 U.S.C. § 1343."):
  the section's existence is all that is claimed, and it is supported;
* ``uncompared`` — the scope says what the section is for, but in words that are neither its
  subject nor another's: unverifiable, with both named.

>>> scope_of("Mail fraud is at 18 U.S.C. § 1341, and wire fraud at 18 U.S.C. § 1341 too.",
...          [(17, 33), (53, 69)], 1)
'wire fraud at   too.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from auditor.memo import IdentityCache
from auditor.verify.legal.index import LegalIndex

# words that say nothing about what a section is for
_FILLER = frozenset(
    re.findall(
        r"\w+",
        """see also under pursuant codified found located contained provided provides provision
    provisions section sections statute statutes title code federal united states usc cfr
    this that these those with from which where there their them they then than into onto
    upon about also each other such same here what when while whose will would shall should
    could must been being have having does done make makes made apply applies applied
    applying governed governs govern generally specifically particularly including include
    includes especially notably rule rules part parts paragraph subsection clause clauses
    regulation regulations law laws legal separate paragraph well only just more most""",
    )
)
# the section is named as the provision violated, not as the source of the rule
_VIOLATED = re.compile(r"\b(?:violat\w*|breach\w*|predicate|contraven\w*|infring\w*)\b", re.I)
_CUT = re.compile(r";|§|\b(?:while|whereas|but|although)\b", re.I)
_JOIN = re.compile(r",\s*(?:and|or)\s+", re.I)
_WORD = re.compile(r"[a-z][a-z'’]{3,}")


@dataclass(frozen=True)
class SubjectMatch:
    """How the scope of one citation relates to the cited section's subject."""

    kind: str  # own | foreign | mixed | unstated | uncompared
    phrase: str | None = None  # the phrase named (own / foreign; mixed: its own)
    others: tuple[str, ...] = ()  # the sections a foreign phrase belongs to
    said: str = ""  # the scope's own words (uncompared); mixed: the foreign phrase


def scope_of(sentence: str, spans: list[tuple[int, int]], i: int) -> str:
    """The text citation ``i`` (of ``spans``, sentence offsets in order) speaks for.

    The text between two citations is shared at its last clause boundary (a semicolon, a
    contrasting conjunction such as "while", a coordinating ", and" / ", or", or another
    section sign): "registered under § 77e, or fit an exemption such as Rule 506, 17 C.F.R.
    § 230.506" gives "Rule 506" to the second citation only. Text before the first citation
    and after the last belongs to it up to such a boundary; the citation itself is left out.
    """
    lo = spans[i - 1][1] if i > 0 else 0
    hi = spans[i + 1][0] if i + 1 < len(spans) else len(sentence)
    before = _CUT.split(sentence[lo : spans[i][0]])[-1]
    after = _CUT.split(sentence[spans[i][1] : hi], maxsplit=1)[0]
    if i > 0:
        before = _JOIN.split(before)[-1]
    if i + 1 < len(spans):
        after = _JOIN.split(after)[0]
    return f"{before} {after}"


def content_words(scope: str) -> list[str]:
    """Words of the scope that can say what a section is about."""
    return [w for w in _WORD.findall(scope.lower()) if w not in _FILLER]


def compare(
    scope: str, sid: str, heading: str, own_phrases: set[str], ix: LegalIndex
) -> SubjectMatch:
    """Compare the scope of a citation of section ``sid`` with the section's subject.

    ``own_phrases`` are this section's aliases (as written; names of a whole act — "RICO",
    "Title VII", "... Act" — are left out: an act spans many sections, so naming it says
    nothing of which one); ``heading`` its heading and subject as one string."""
    own_phrases = {p.lower() for p in own_phrases if not is_act_name(p)}
    low = " " + re.sub(r"[-‐–]", " ", scope.lower()) + " "
    said = phrases_in(low, ix)
    own = [p for p in said if sid in ix.subjects.get(p, set()) or p in own_phrases]
    own += [p for p in own_phrases if p not in own and _contains(low, p)]
    foreign = [
        p for p in said
        if sid not in ix.subjects.get(p, set())
        and not any(p in o for o in own)  # "treble damages" inside "private treble damages
        # antitrust actions" (15 U.S.C. § 15) is that section's own phrase
        and len(ix.subjects.get(p, ())) == 1  # "criminal penalties" heads several sections
        and (" " in p or _whole_subject(p, ix))
        and not shares_stems(p, heading)  # "currency transaction reports" is a wording of
    ]  # fmt: skip  # "reports on ... currency transactions": the same statute's subject
    words = content_words(low)
    if own and foreign:  # word salad or a list of crimes: which one it is cited for is unclear
        p = max(foreign, key=len)
        return SubjectMatch("mixed", max(own, key=len), tuple(sorted(ix.subjects[p])), p)
    if own:
        return SubjectMatch("own", max(own, key=len))
    if foreign and not _VIOLATED.search(low):
        p = max(foreign, key=len)
        return SubjectMatch("foreign", p, tuple(sorted(ix.subjects[p])))
    if not words:
        return SubjectMatch("unstated")
    if not foreign and _best_cover(words, sid, heading, ix):
        return SubjectMatch("own", None)  # its own words ("the conspiracy statute, § 371")
    return SubjectMatch("uncompared", said=" ".join(words[:12]))


def _best_cover(words: list[str], sid: str, heading: str, ix: LegalIndex) -> bool:
    """The scope's words share a stem with this section's subject, and no other section's
    subject shares more of them: "bribery of an official at an agency receiving federal
    funds" has more in common with § 666 (theft and bribery ... receiving federal funds) than
    with § 201 (bribery of public officials)."""
    said = {w[:6] for w in words}
    mine = len(said & _stems(heading))
    if not mine:
        return False
    return all(len(said & st) <= mine for other, st in section_stems(ix).items() if other != sid)


_STEMS: IdentityCache[dict[str, set[str]]] = IdentityCache()


def section_stems(ix: LegalIndex) -> dict[str, set[str]]:
    """Statute id → the stems of its subject and heading phrases; built once per index."""

    def build() -> dict[str, set[str]]:
        acc: dict[str, set[str]] = {}
        for phrase, sids in ix.subjects.items():
            for sid in sids:
                acc.setdefault(sid, set()).update(_stems(phrase))
        return acc

    return _STEMS.get((ix,), build)


def phrases_in(low: str, ix: LegalIndex) -> list[str]:
    """Every statute subject phrase in the text (overlapping phrases included)."""
    if ix.subject_pattern is None:
        return []
    found = {m.group(0) for m in ix.subject_pattern.finditer(low)}
    # shorter phrases inside a longer match ("wire fraud" in "mail or wire fraud") count too
    found |= {p for p in ix.subjects if len(p) > 6 and any(p in f and p != f for f in found)}
    return sorted(found)


def shares_stems(phrase: str, heading: str) -> bool:
    """The phrase is another wording of the heading: every content word's stem is in it."""
    words = _stems(phrase)
    return bool(words) and words <= _stems(heading)


def _stems(t: str) -> set[str]:
    return {w[:6] for w in re.findall(r"[a-z]{4,}", t.lower()) if w not in _FILLER}


def _whole_subject(phrase: str, ix: LegalIndex) -> bool:
    """A one-word phrase counts only when it is the whole subject of a single section
    ("structuring", 31 U.S.C. § 5324), not a word of a longer one."""
    return phrase in ix.whole_subjects


def is_act_name(alias: str) -> bool:
    """An alias that names a whole act: an acronym ("RICO", "CFAA"), "Title VII", "... Act"."""
    return bool(re.fullmatch(r"[A-Z0-9&-]{2,}", alias) or re.search(r"(?i)\bact\b|^title\b", alias))


def _contains(low: str, phrase: str) -> bool:
    return bool(re.search(r"(?<![a-z])" + re.escape(phrase) + r"(?![a-z])", low))


__all__ = [
    "SubjectMatch",
    "compare",
    "content_words",
    "is_act_name",
    "phrases_in",
    "scope_of",
    "section_stems",
    "shares_stems",
]
