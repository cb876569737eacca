"""Finance graph: countries (pycountry), currencies and dated country→currency links (babel /
CLDR), and curated policy rates, reporting thresholds, Basel III ratios, regulations and FATF
list snapshots."""

from __future__ import annotations

from datetime import date

from knowledge_graphs.builders.common import GraphBuilder, package_source
from knowledge_graphs.builders.curated import (
    BankIn,
    FatfSnapshotIn,
    RateSeriesIn,
    RatioIn,
    RegulationIn,
    ThresholdIn,
    load_entries,
    require_source,
)
from knowledge_graphs.errors import DataError
from knowledge_graphs.model import Source

_FATF_SOURCE = Source(
    "FATF: High-risk and other monitored jurisdictions",
    None,
    "https://www.fatf-gafi.org/en/publications/High-risk-and-other-monitored-jurisdictions.html",
)


def build_finance() -> GraphBuilder:
    g = GraphBuilder("finance")
    _add_countries_and_currencies(g)
    _add_policy_rates(g)
    _add_banks(g)
    _add_thresholds(g)
    _add_ratios(g)
    _add_regulations(g)
    _add_fatf(g)
    g.check_references()
    return g


# Everyday names CLDR does not give (ISO 3166-1 codes; each name is a common English usage).
_COUNTRY_ALIASES: dict[str, tuple[str, ...]] = {
    "US": ("United States of America", "USA"),
    "GB": ("UK", "U.K.", "Britain", "Great Britain"),
    "TR": ("Turkey", "Türkiye"),
    "CZ": ("Czech Republic", "Czechia"),
    "KP": ("DPRK",),
    "MM": ("Burma",),
    "CI": ("Ivory Coast",),
    "CD": ("DR Congo", "DRC"),
    "NL": ("Holland",),
}


def _add_countries_and_currencies(g: GraphBuilder) -> None:
    import pycountry
    from babel.core import Locale
    from babel.numbers import get_territory_currencies

    csrc = package_source(
        "pycountry",
        "ISO 3166-1 country codes, via pycountry",
        "https://www.iso.org/iso-3166-country-codes.html",
    )
    ksrc = package_source(
        "babel", "Unicode CLDR supplemental currency data, via babel", "https://cldr.unicode.org/"
    )
    en = Locale("en")
    cldr_names = en.territories  # CLDR short English names: "Russia", "North Korea", "Türkiye"
    for c in pycountry.countries:
        names = [
            getattr(c, "official_name", None),
            getattr(c, "common_name", None),
            c.alpha_3,
            cldr_names.get(c.alpha_2),
            *_COUNTRY_ALIASES.get(c.alpha_2, ()),
        ]
        g.entity(
            f"country:{c.alpha_2}",
            "Country",
            c.name,
            [n for n in names if n],
            {"alpha_2": c.alpha_2, "alpha_3": c.alpha_3},
            csrc,
        )
    for cur in pycountry.currencies:
        _currency(g, cur.alpha_3, cur.name, en, ksrc)
    for c in pycountry.countries:
        try:
            links = get_territory_currencies(
                c.alpha_2,
                start_date=date(1800, 1, 1),
                end_date=date(2100, 1, 1),
                tender=True,
                non_tender=False,
                include_details=True,
            )
        except Exception:  # babel has no entry for a few territories
            continue
        for link in links:
            code = link["currency"]
            _currency(g, code, None, en, ksrc)
            g.fact(
                f"country:{c.alpha_2}",
                "currency",
                ksrc,
                object=f"currency:{code}",
                valid_from=link["from"],
                valid_to=link["to"],
            )
    _add_currency_short_names(g)


_GENERIC_CURRENCY_WORDS = {"currency", "unit", "units", "fund", "rate", "mark", "new", "old"}


def _add_currency_short_names(g: GraphBuilder) -> None:
    """ "kuna", "yen", "euro": the last word of a currency's name, when no other currency
    shares it ("dollar", "franc", "peso" stay ambiguous and are not added)."""
    from collections import Counter

    # X-codes are funds, metals and test codes ("Unknown Currency", "Gold"): no short names
    currencies = [
        e for e in g.entities.values() if e.type == "Currency" and not e.id.startswith("currency:X")
    ]
    last = Counter(e.label.split()[-1].lower() for e in currencies if " " in e.label)
    for e in currencies:
        word = e.label.split()[-1].lower()
        if (
            " " in e.label
            and last[word] == 1
            and len(word) >= 3
            and word.isalpha()
            and word not in _GENERIC_CURRENCY_WORDS
        ):
            g.entity(e.id, e.type, e.label, [word, word + "s"])


def _currency(g: GraphBuilder, code: str, name: str | None, en: object, src: object) -> None:
    cid = f"currency:{code}"
    if cid in g.entities:
        return
    from babel.numbers import get_currency_name

    label = get_currency_name(code, locale="en") or name or code
    plural = get_currency_name(code, count=2, locale="en")
    g.entity(cid, "Currency", label, [code, name or "", plural or ""], {"code": code}, src)  # type: ignore[arg-type]


def _add_policy_rates(g: GraphBuilder) -> None:
    for i, s in enumerate(load_entries("finance/policy_rates.yaml", RateSeriesIn, key="rates")):
        where = f"finance/policy_rates.yaml: rate {i + 1} ({s.id})"
        rid = f"rate:{s.id}"
        g.entity(
            rid,
            "PolicyRate",
            s.label,
            s.aliases,
            {"bank": s.bank, "verified_through": s.verified_through.isoformat()},
            s.source.to_source() if s.source else None,
        )
        for j, ch in enumerate(s.changes):
            nxt = s.changes[j + 1].effective if j + 1 < len(s.changes) else None
            src = require_source(ch, f"{where}: change {j + 1} ({ch.effective})")
            g.fact(
                rid,
                "policyRate",
                src,
                value=ch.low,
                value_max=ch.high,
                unit=s.unit,
                valid_from=ch.effective,
                valid_to=nxt,
                qualifiers={
                    "announced": ch.decided.isoformat() if ch.decided else None,
                    "verified_through": None if nxt else s.verified_through.isoformat(),
                    "note": ch.note,
                },
            )


def _add_banks(g: GraphBuilder) -> None:
    for i, b in enumerate(load_entries("finance/banks.yaml", BankIn)):
        where = f"finance/banks.yaml: entry {i + 1} ({b.id})"
        src = require_source(b, where)
        bid = f"bank:{b.id}"
        g.entity(bid, "CentralBank", b.label, b.aliases, {"country": b.country}, src)
        for r in b.rates:
            if f"rate:{r}" not in g.entities:
                raise DataError(f"unknown rate series {r!r}", location=where)
            g.fact(bid, "setsRate", src, object=f"rate:{r}")


def _add_thresholds(g: GraphBuilder) -> None:
    for i, t in enumerate(load_entries("finance/thresholds.yaml", ThresholdIn)):
        where = f"finance/thresholds.yaml: entry {i + 1} ({t.id})"
        src = require_source(t, where)
        oid = f"obligation:{t.id}"
        g.entity(
            oid,
            "ReportingObligation",
            t.label,
            t.aliases,
            {"jurisdiction": t.jurisdiction, "scope": t.subject},
            src,
        )
        g.fact(
            oid,
            "reportingThreshold",
            src,
            value=t.amount,
            value_max=t.amount_max,
            unit=t.currency,
            qualifiers={
                "comparator": t.comparator,
                "jurisdiction": t.jurisdiction,
                "scope": t.subject,
                "note": t.note,
            },
            valid_from=t.valid_from,
            valid_to=t.valid_to,
        )
        g.fact(
            oid,
            "legalBasis",
            src,
            literal=t.legal_citation,
            valid_from=t.valid_from,
            valid_to=t.valid_to,
        )


def _add_ratios(g: GraphBuilder) -> None:
    for i, r in enumerate(load_entries("finance/basel.yaml", RatioIn)):
        where = f"finance/basel.yaml: entry {i + 1} ({r.id})"
        src = require_source(r, where)
        rid = f"ratio:{r.id}"
        g.entity(
            rid,
            "CapitalRequirement",
            r.label,
            r.aliases,
            {"basis": r.basis, "jurisdiction": r.jurisdiction},
            src,
        )
        g.fact(
            rid,
            "minimumRatio",
            src,
            value=r.value,
            value_max=r.value_max,
            unit=r.unit,
            valid_from=r.valid_from,
            qualifiers={"basis": r.basis, "jurisdiction": r.jurisdiction, "note": r.note},
        )


def _add_regulations(g: GraphBuilder) -> None:
    for i, r in enumerate(load_entries("finance/regulations.yaml", RegulationIn)):
        where = f"finance/regulations.yaml: entry {i + 1} ({r.id})"
        src = require_source(r, where)
        rid = f"regulation:{r.id}"
        g.entity(
            rid,
            "Regulation",
            r.label,
            [*r.aliases, r.identifier],
            {"jurisdiction": r.jurisdiction},
            src,
        )
        g.fact(rid, "officialIdentifier", src, literal=r.identifier)
        for pred, day in (
            ("adopted", r.adopted),
            ("entryIntoForce", r.entry_into_force),
            ("applicationDate", r.application),
            ("repealed", r.repealed),
        ):
            if day is not None:
                g.fact(rid, pred, src, date=day)


def _add_fatf(g: GraphBuilder) -> None:
    import pycountry

    snaps = load_entries("finance/fatf.yaml", FatfSnapshotIn, key="snapshots")
    labels = {
        "call-for-action": (
            "High-Risk Jurisdictions subject to a Call for Action",
            [
                "FATF blacklist",
                "FATF black list",
                "call for action list",
                "blacklist",
                "black list",
                "high-risk jurisdictions subject to a call for action",
                "call-for-action list",
            ],
        ),
        "increased-monitoring": (
            "Jurisdictions under Increased Monitoring",
            [
                "FATF grey list",
                "FATF gray list",
                "grey list",
                "gray list",
                "increased monitoring",
                "list of jurisdictions under increased monitoring",
                "greylist",
                "graylist",
            ],
        ),
    }
    for key, (label, aliases) in labels.items():
        g.entity(f"fatflist:{key}", "FatfList", label, aliases, None, _FATF_SOURCE)
    by_list: dict[str, list[FatfSnapshotIn]] = {}
    for s in snaps:
        by_list.setdefault(s.list, []).append(s)
    for lst, items in by_list.items():
        items.sort(key=lambda s: s.date)
        for j, s in enumerate(items):
            where = f"finance/fatf.yaml: snapshot {s.list} {s.date}"
            src = require_source(s, where)
            nxt = items[j + 1].date if j + 1 < len(items) else None
            for m in s.members:
                if pycountry.countries.get(alpha_2=m) is None:
                    raise DataError(f"{m!r} is not an ISO 3166-1 alpha-2 code", location=where)
                g.fact(
                    f"country:{m}",
                    "fatfListed",
                    src,
                    object=f"fatflist:{lst}",
                    date=s.date,
                    valid_from=s.date,
                    valid_to=nxt,
                    qualifiers={"complete": "true" if s.complete else "false"},
                )
