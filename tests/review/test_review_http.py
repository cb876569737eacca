"""The workbench over HTTP: sign-in, roles, tenant isolation, CSRF, escaping, the trail."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import update

from trail.models import Review
from trail.review_queue import open_items
from trail.reviews import Decision, append_reviews

if TYPE_CHECKING:
    from tests.review.conftest import Workbench


def _decide(wb: Workbench, audit_id: str, item: str, decision: str, reason: str = "", **kw):
    data = {"csrf": wb.csrf(), "item": item, "decision": decision, "reason": reason, **kw}
    return wb.client.post(f"/review/audits/{audit_id}/decide", data=data, follow_redirects=False)


def test_unauthenticated_pages_redirect_to_sign_in(workbench: Workbench) -> None:
    for path in ("/review", f"/review/audits/{workbench.ids['acme'][0]}", "/review/next"):
        r = workbench.client.get(path, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/review/login"


def test_sign_in_sets_a_signed_httponly_samesite_cookie(workbench: Workbench) -> None:
    page = workbench.client.get("/review/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    r = workbench.client.post(
        "/review/login",
        data={"csrf": token, "api_key": workbench.tokens["acme-reviewer"]},
        follow_redirects=False,
    )
    assert r.status_code == 303
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/review" in cookie
    assert workbench.tokens["acme-reviewer"] not in cookie
    assert workbench.client.get("/review").status_code == 200


@pytest.mark.parametrize(
    "form",
    [
        {"api_key": "kga_000000000000_nope"},  # wrong key
        {"api_key": ""},  # no key
    ],
    ids=["wrong-key", "no-key"],
)
def test_bad_sign_ins_are_refused(workbench: Workbench, form: dict[str, str]) -> None:
    page = workbench.client.get("/review/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    r = workbench.client.post("/review/login", data={"csrf": token, **form}, follow_redirects=False)
    assert r.status_code == 401 and "set-cookie" not in r.headers


def test_sign_in_without_its_form_token_is_refused(workbench: Workbench) -> None:
    r = workbench.client.post(
        "/review/login", data={"api_key": workbench.tokens["acme-reviewer"]}, follow_redirects=False
    )
    assert r.status_code == 403 and "set-cookie" not in r.headers


def test_a_forged_or_altered_cookie_is_no_session(workbench: Workbench) -> None:
    workbench.login("acme-viewer")
    value = workbench.client.cookies.get("kgaudit_review")
    body, sig = value.split(".")
    import base64
    import json

    d = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    d["r"] = "reviewer"  # promote oneself
    forged = base64.urlsafe_b64encode(json.dumps(d).encode()).rstrip(b"=").decode() + "." + sig
    workbench.client.cookies.clear()
    workbench.client.cookies.set("kgaudit_review", forged, path="/review")
    assert workbench.client.get("/review", follow_redirects=False).status_code == 303


def test_revoking_the_key_ends_its_session(workbench: Workbench) -> None:
    from services.api.keys import KeyStore

    workbench.login("acme-reviewer")
    assert workbench.client.get("/review").status_code == 200
    keys = KeyStore(workbench.trail)
    (key,) = [k for k in keys.list(tenant="acme") if k["name"] == "acme-reviewer"]
    keys.revoke(key["id"])
    assert workbench.client.get("/review", follow_redirects=False).status_code == 303


def test_queue_lists_open_audits_by_risk_and_filters(workbench: Workbench) -> None:
    workbench.login("acme-reviewer")
    page = workbench.client.get("/review")
    assert page.status_code == 200
    total = int(re.search(r'id="queue-total">(\d+)<', page.text).group(1))
    # 4 medical + 3 legal + 3 finance (the 4th is unverifiable below the risk threshold)
    # + 5 hostile; beta's is not here
    assert total == 15
    risks = [float(x) for x in re.findall(r'<td class="num">([0-9.]+)</td>', page.text)]
    assert risks == sorted(risks, reverse=True)
    legal = workbench.client.get("/review", params={"domain": "legal"}).text
    assert re.search(r'id="queue-total">3<', legal)
    rule = workbench.client.get("/review", params={"rule": "FIN-ISIN"}).text
    assert re.search(r'id="queue-total">[0-9]+<', rule)
    assert "FIN-CUR" not in rule  # only the items of that rule count
    unverified = workbench.client.get("/review", params={"verdict": "unverified"}).text
    assert re.search(r'id="queue-total">3<', unverified)  # the legal citations
    future = workbench.client.get("/review", params={"start": "2999-01-01"}).text
    assert re.search(r'id="queue-total">0<', future)
    bad = workbench.client.get("/review", params={"start": "not-a-date"})
    assert bad.status_code == 422


def test_queue_paginates(workbench: Workbench) -> None:
    from trail.review_queue import review_queue

    q1 = review_queue(workbench.trail, tenant="acme", risk_threshold=0.5, page=1, page_size=4)
    q4 = review_queue(workbench.trail, tenant="acme", risk_threshold=0.5, page=4, page_size=4)
    assert (q1.total, q1.pages, len(q1.rows), len(q4.rows)) == (15, 4, 4, 3)
    assert not {r.id for r in q1.rows} & {r.id for r in q4.rows}
    low = review_queue(workbench.trail, tenant="acme", risk_threshold=0.0)
    assert low.total == 16  # with no threshold the 4th finance audit's unverifiable claim counts
    workbench.login("acme-viewer")
    assert "page 1 of 1" in workbench.client.get("/review").text


def test_next_audit_walks_the_whole_queue_in_order(workbench: Workbench) -> None:
    """``]`` (``/review/next?after=ID``) visits every queued audit once, in the queue's
    order, then wraps round; it never shows another tenant's audit."""
    workbench.login("acme-reviewer")
    queue = re.findall(
        r'class="open-audit" href="/review/audits/([^"]+)"', workbench.client.get("/review").text
    )
    assert len(queue) == 15

    def after(aid: str | None, way: str = "next") -> str:
        r = workbench.client.get(
            f"/review/{way}", params={"after": aid} if aid else {}, follow_redirects=False
        )
        assert r.status_code == 303
        return r.headers["location"].removeprefix("/review/audits/")

    walked = [after(None)]
    for _ in range(len(queue)):
        walked.append(after(walked[-1]))
    assert walked == [*queue, queue[0]]
    back = [queue[0]]
    for _ in range(len(queue)):
        back.append(after(back[-1], "prev"))
    assert back == [queue[0], *reversed(queue)]  # [ from the top wraps round to the last
    assert after(workbench.ids["beta"][0]) == queue[0]  # not a queued audit of this tenant
    # an audit whose last item is decided: next goes on from where it stood in the queue
    third = queue[2]
    stored = workbench.trail.get(third, tenant="acme")
    items = open_items(stored["result"], [], risk_threshold=0.5)
    append_reviews(
        workbench.trail,
        [Decision(third, it["item"], "confirm", None) for it in items],
        tenant="acme",
        reviewer="key:test",
    )
    assert after(third) == queue[3]


def test_tenant_cannot_open_another_tenants_audit(workbench: Workbench) -> None:
    beta_id = workbench.ids["beta"][0]
    workbench.login("acme-reviewer")
    r = workbench.client.get(f"/review/audits/{beta_id}")
    assert r.status_code == 404 and "warfarin" not in r.text
    r = _decide(workbench, beta_id, "claim:0", "confirm")
    assert r.status_code == 404
    api = workbench.client.get(f"/v1/audits/{beta_id}", headers=workbench.auth("acme-reviewer"))
    assert api.status_code == 404
    api = workbench.client.post(
        f"/v1/audits/{beta_id}/reviews",
        json={"item": "claim:0", "decision": "confirm"},
        headers=workbench.auth("acme-reviewer"),
    )
    assert api.status_code == 404
    assert workbench.trail.verify().checked == len(workbench.ids["acme"]) + 1  # nothing added


def test_viewer_reads_but_cannot_decide(workbench: Workbench) -> None:
    aid = workbench.ids["acme"][0]
    workbench.login("acme-viewer")
    page = workbench.client.get(f"/review/audits/{aid}")
    assert page.status_code == 200 and 'name="decision"' not in page.text
    r = _decide(workbench, aid, "claim:0", "confirm")
    assert r.status_code == 403
    r = workbench.client.post("/review/bulk-confirm", data={"csrf": workbench.csrf(), "audit": aid})
    assert r.status_code == 403
    api = workbench.client.post(
        f"/v1/audits/{aid}/reviews",
        json={"item": "claim:0", "decision": "confirm"},
        headers=workbench.auth("acme-viewer"),
    )
    assert api.status_code == 403 and api.json()["error"]["code"] == "forbidden"
    assert workbench.trail.verify().checked == len(workbench.ids["acme"]) + 1


@pytest.mark.parametrize("csrf", [None, "", "wrong-token"], ids=["missing", "empty", "wrong"])
def test_posts_without_the_csrf_token_are_refused(workbench: Workbench, csrf: str | None) -> None:
    aid = workbench.ids["acme"][0]
    workbench.login("acme-reviewer")
    data = {"item": "claim:0", "decision": "confirm"}
    if csrf is not None:
        data["csrf"] = csrf
    assert workbench.client.post(f"/review/audits/{aid}/decide", data=data).status_code == 403
    bulk = {"audit": aid, **({"csrf": csrf} if csrf is not None else {})}
    assert workbench.client.post("/review/bulk-confirm", data=bulk).status_code == 403
    assert workbench.client.post("/review/logout", data=bulk).status_code == 403
    assert workbench.trail.verify().checked == len(workbench.ids["acme"]) + 1


def test_another_sessions_csrf_token_is_refused(workbench: Workbench, make_client) -> None:
    other = workbench.login("acme-admin", make_client())
    theirs = re.search(r'name="csrf" value="([^"]+)"', other.get("/review").text).group(1)
    workbench.login("acme-reviewer")
    aid = workbench.ids["acme"][0]
    r = workbench.client.post(
        f"/review/audits/{aid}/decide",
        data={"csrf": theirs, "item": "claim:0", "decision": "confirm"},
    )
    assert r.status_code == 403


def test_confirm_overturn_note_are_chained_and_shown(workbench: Workbench) -> None:
    aid = workbench.ids["acme"][0]
    workbench.login("acme-reviewer")
    assert _decide(workbench, aid, "claim:0", "confirm").status_code == 303
    assert _decide(workbench, aid, "claim:1", "overturn").status_code == 422  # reason required
    assert _decide(workbench, aid, "claim:1", "overturn", "the label says 4 g").status_code == 303
    assert _decide(workbench, aid, "claim:1", "note", "checked with pharmacy").status_code == 303
    assert _decide(workbench, aid, "claim:9", "confirm").status_code == 422  # no such item
    assert _decide(workbench, aid, "claim:0", "approve").status_code == 422
    page = workbench.client.get(f"/review/audits/{aid}").text
    assert "confirmed" in page and "overturned" in page and "checked with pharmacy" in page
    doc = workbench.client.get(f"/v1/audits/{aid}", headers=workbench.auth("acme-viewer")).json()
    review = doc["review"]
    assert review["counts"] == {"open": 0, "confirmed": 1, "overturned": 1}
    assert review["events"] == 3
    by_item = {it["item"]: it for it in review["items"]}
    assert by_item["claim:1"]["decision"]["verdict"] == "supported"
    assert by_item["claim:1"]["decision"]["reason"] == "the label says 4 g"
    assert by_item["claim:1"]["notes"][0]["reason"] == "checked with pharmacy"
    assert by_item["claim:0"]["decision"]["reviewer"].startswith("key:")
    report = workbench.trail.verify()
    assert report.ok and report.checked == len(workbench.ids["acme"]) + 1 + 3


def test_tampering_one_review_event_fails_verify(workbench: Workbench) -> None:
    aid = workbench.ids["acme"][0]
    workbench.login("acme-reviewer")
    _decide(workbench, aid, "claim:0", "overturn", "wrong dose")
    assert workbench.trail.verify().ok
    with workbench.trail.session(write=True) as s:
        s.execute(update(Review).values(decision="confirm", reason=None))
    report = workbench.trail.verify()
    assert not report.ok and report.first_broken["code"] == "review_altered"


def test_bulk_confirm_of_a_filtered_selection(workbench: Workbench) -> None:
    workbench.login("acme-reviewer")
    page = workbench.client.get("/review", params={"domain": "finance"}).text
    selected = re.findall(r'name="audit" value="([^"]+)"', page)
    assert len(selected) == 3  # the fourth finance audit's open item is below the risk threshold
    r = workbench.client.post(
        "/review/bulk-confirm",
        data={"csrf": workbench.csrf(), "audit": selected, "domain": "finance", "rule": "FIN-CUR"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and "confirmed=3" in r.headers["location"]
    shown = workbench.client.get(r.headers["location"]).text
    assert '<p class="saved" role="status">3 item(s) confirmed' in shown
    after = workbench.client.get("/review", params={"domain": "finance", "rule": "FIN-CUR"}).text
    assert re.search(r'id="queue-total">0<', after) and 'class="saved"' not in after
    for junk in ("<b>3</b>", "-1", "\u00b2", "9" * 12):  # no count, no message
        assert 'class="saved"' not in workbench.client.get(f"/review?confirmed={junk}").text
    assert workbench.trail.verify().ok


def test_api_review_endpoint(workbench: Workbench) -> None:
    aid = workbench.ids["acme"][5]  # legal: claims 0-1 and citation 0
    h = workbench.auth("acme-reviewer")
    r = workbench.client.post(
        f"/v1/audits/{aid}/reviews", json={"item": "citation:0", "decision": "confirm"}, headers=h
    )
    assert r.status_code == 201 and r.json()["verdict"] == "unverified"
    bad = workbench.client.post(
        f"/v1/audits/{aid}/reviews", json={"item": "citation:7", "decision": "confirm"}, headers=h
    )
    assert bad.status_code == 422
    admin = workbench.client.post(
        f"/v1/audits/{aid}/reviews",
        json={"item": "claim:0", "decision": "note", "reason": "ask counsel"},
        headers=workbench.auth("acme-admin"),
    )
    assert admin.status_code == 201
    assert workbench.trail.verify().ok


def test_hostile_answers_render_as_text(workbench: Workbench, hostile: tuple[int, str]) -> None:
    idx, text = hostile
    aid = workbench.ids["acme"][11 + idx]
    workbench.login("acme-reviewer")
    _decide(workbench, aid, "claim:0", "note", text)  # the hostile text as a note too
    for path in (f"/review/audits/{aid}", "/review"):
        r = workbench.client.get(path)
        body = r.text
        assert r.headers["content-security-policy"].startswith("default-src 'none'")
        assert "<script>alert" not in body and "<img src=x" not in body and "<svg" not in body
        assert 'href="javascript:' not in body and 'onerror="' not in body
        assert "\u202e" not in body and "\u2066" not in body
        # the scripts on the page are only the workbench's own
        assert re.findall(r"<script[^>]*>", body) == [
            '<script src="/review/static/review.js" defer>'
        ]
    page = workbench.client.get(f"/review/audits/{aid}").text
    if "\u202e" in text:
        assert "[U+202E]" in page
    else:
        visible = html.unescape(re.sub(r"<[^>]+>", "", page))
        assert text[:20] in visible  # shown, as text


def test_static_files_are_served_locally(workbench: Workbench) -> None:
    js = workbench.client.get("/review/static/review.js")
    css = workbench.client.get("/review/static/review.css")
    assert js.status_code == 200 and css.status_code == 200
    workbench.login("acme-viewer")
    page = workbench.client.get(f"/review/audits/{workbench.ids['acme'][0]}").text
    assert "http://" not in re.sub(r'href="https?://[^"]+"', "", page).split("<main")[0]


def test_a_form_past_max_form_bytes_is_read_as_empty(workbench: Workbench) -> None:
    """The form limit is a setting (issue 29: it was a constant in the route): a sign-in padded
    past ``max_form_bytes`` is read as empty, so its token is missing (403); under a raised
    limit the same form signs in."""
    services = workbench.client.app.state.services

    def sign_in(limit: int) -> int:
        services.settings = workbench.settings.model_copy(update={"max_form_bytes": limit})
        page = workbench.client.get("/review/login")
        token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
        form = {"csrf": token, "api_key": workbench.tokens["acme-reviewer"], "pad": "x" * 3000}
        r = workbench.client.post("/review/login", data=form, follow_redirects=False)
        return r.status_code

    assert workbench.settings.max_form_bytes == 65_536
    assert sign_in(2048) == 403
    assert sign_in(8192) == 303
