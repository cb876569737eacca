"""Issue 28, tenth quote pass: the FDA-CV-DDI corpus (cardiovascular DailyMed labels, May
2014) in github.com/dbmi-pitt/public-PDDI-analysis at commit 8199ee66, files named by DailyMed
set id. One washout quoted: tadalafil before nitrates, 48 hours (ADCIRCA 5.1). The corpus gives
no SPL version, so the source is not pinned."""

from __future__ import annotations

CORPUS = "FDA-CV-DDI corpus copy, May 2014"
QUOTE = "At least 48 hours should elapse after the last dose of ADCIRCA before taking nitrates."


def test_tadalafil_nitrate_washout_is_quoted_from_adcirca(kb):
    facts = kb.facts_about("drug:tadalafil", "washoutBefore")
    assert facts
    for f in facts:
        assert f.qualifiers.get("quote") == QUOTE
        assert f.value == 48 and "48 hours" in f.qualifiers["quote"]
        assert CORPUS in f.source.document and "ADCIRCA" in f.source.document
        assert "ff61b237" in (f.source.document_id or "")
        assert f.source.section == "5.1 Cardiovascular Effects"
        assert not f.source.version, "the corpus gives no label version: not pinned"
        assert f.qualifiers.get("unquoted") != "true"


def test_tadalafil_washout_covers_each_nitrate(kb):
    objects = {f.object for f in kb.facts_about("drug:tadalafil", "washoutBefore")}
    assert "drug:nitroglycerin" in objects
