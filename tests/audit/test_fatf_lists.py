"""FATF listing changes written the way news and the FATF write them: a list after a dash, a
list led by its verb at the end of a sentence, a country whose list is another list's."""

from __future__ import annotations

from auditor import audit


def _claims(text: str, as_of: str) -> list[tuple[str, str | None, str | None, str | None]]:
    r = audit(text, domain="finance", as_of=as_of)
    return sorted(
        (c.verdict, c.subject, c.object, c.qualifiers.get("list_change")) for c in r.claims
    )


GREY = "fatflist:increased-monitoring"


def test_countries_listed_after_a_dash_and_with_the_article_are_each_read() -> None:
    text = (
        "Four countries were removed from the grey list, following successful on-site visits "
        "– Barbados, Gibraltar, Uganda, and the United Arab Emirates."
    )
    assert _claims(text, "2024-03-28") == [
        ("supported", f"country:{cc}", GREY, "removed") for cc in ("AE", "BB", "GI", "UG")
    ]


def test_a_list_that_follows_its_verb_is_read_whole() -> None:
    got = _claims("The FATF removed Mali, Croatia and Kenya from its grey list.", "2025-06-13")
    assert got == [
        ("contradicted", "country:KE", GREY, "removed"),  # Kenya stayed on the list
        ("supported", "country:HR", GREY, "removed"),
        ("supported", "country:ML", GREY, "removed"),
    ]


def test_a_verb_led_list_closing_the_sentence_is_a_change_of_the_list_named_before() -> None:
    text = (
        "The Financial Action Task Force (FATF), which fights money laundering and terrorism "
        'financing, on Friday added Bolivia and the British Virgin Islands to its "gray list" '
        "of countries under enhanced surveillance, and removed Mali, Croatia and Tanzania."
    )
    got = _claims(text, "2025-06-13")
    assert [(s, ch) for _, s, _, ch in got] == [
        ("country:BO", "added"),
        ("country:HR", "removed"),
        ("country:ML", "removed"),
        ("country:TZ", "removed"),
        ("country:VG", "added"),
    ]
    assert {v for v, *_ in got} == {"supported"}


def test_an_addition_of_a_country_already_listed_is_contradicted() -> None:
    got = _claims('On Friday the FATF added Nigeria to its "grey list".', "2025-06-13")
    assert got == [("contradicted", "country:NG", GREY, "added")]


def test_a_country_is_not_paired_with_a_list_beyond_its_own() -> None:
    text = (
        "The FATF added Kenya to its grey list in February 2024 and removed Jamaica from the "
        "black list."
    )
    got = _claims(text, "2024-03-01")
    assert ("supported", "country:KE", GREY, "added") in got
    assert all(not (s == "country:KE" and o != GREY) for _, s, o, _ in got)
