"""OpenTelemetry: a span per audit, child spans per stage, OpenInference attributes."""

from __future__ import annotations

import pytest

from auditor import telemetry

from .conftest import AS_OF, MEDICAL_BAD, MEDICAL_OK, serve, stop
from .fake_openai import fake_openai_app

pytest.importorskip("opentelemetry.sdk")


def _by_name(exporter) -> dict[str, object]:
    return {s.name: s for s in exporter.get_finished_spans()}


def test_an_audit_is_one_span_with_a_child_per_stage(exporter, real_auditor) -> None:
    real_auditor.audit(f"{MEDICAL_OK} {MEDICAL_BAD}", domain="medical", as_of=AS_OF)
    spans = _by_name(exporter)
    root = spans["kgaudit.audit"]
    for stage in ("kgaudit.extract", "kgaudit.verify", "kgaudit.score"):
        assert spans[stage].parent.span_id == root.context.span_id, stage
        assert spans[stage].attributes["openinference.span.kind"] == "CHAIN"
    a = root.attributes
    assert a["openinference.span.kind"] == "EVALUATOR"
    assert a["input.value"].startswith(MEDICAL_OK)
    assert a["kgaudit.fer"] == 0.5 and a["kgaudit.claims.contradicted"] == 1
    assert a["kgaudit.claims.supported"] == 1
    assert tuple(a["kgaudit.contradicted_rule_ids"]) == ("MED-DOSE-MAX",)
    assert spans["kgaudit.verify"].attributes["kgaudit.claims"] == 2


def test_hidden_inputs_stay_out(exporter, real_auditor, monkeypatch) -> None:
    monkeypatch.setattr(telemetry, "HIDE_INPUTS", True)
    real_auditor.audit(MEDICAL_OK, domain="medical", as_of=AS_OF)
    assert "input.value" not in _by_name(exporter)["kgaudit.audit"].attributes


def test_the_trail_append_is_a_span(exporter, tmp_path) -> None:
    from trail import Trail
    from trail.testing import fake_result

    trail = Trail(f"sqlite:///{tmp_path / 't.db'}")
    trail.migrate()
    try:
        trail.record(fake_result(), text="x")
    finally:
        trail.close()
    span = _by_name(exporter)["kgaudit.trail.append"]
    assert span.attributes["kgaudit.trail.seq"] == 1
    assert span.attributes["kgaudit.trail.created"] is True


@pytest.mark.slow
def test_wrap_openai_span_carries_the_messages(exporter, real_auditor) -> None:
    openai = pytest.importorskip("openai")
    from kgaudit import wrap_openai

    served = serve(fake_openai_app([MEDICAL_BAD]))
    try:
        llm = wrap_openai(
            openai.OpenAI(base_url=f"{served.url}/v1", api_key="sk-test", max_retries=0),
            domain="medical",
            as_of=AS_OF,
            auditor=real_auditor,
        )
        llm.chat.completions.create(
            model="gpt-test", messages=[{"role": "user", "content": "ibuprofen max?"}]
        )
    finally:
        stop(served)
    spans = _by_name(exporter)
    chat = spans["kgaudit.openai.chat_completion"]
    a = chat.attributes
    assert a["openinference.span.kind"] == "LLM" and a["llm.model_name"] == "gpt-test"
    assert a["llm.input_messages.0.message.role"] == "user"
    assert a["llm.input_messages.0.message.content"] == "ibuprofen max?"
    assert a["llm.output_messages.0.message.content"] == MEDICAL_BAD
    assert spans["kgaudit.audit"].parent.span_id == chat.context.span_id


def test_span_is_a_no_op_when_telemetry_is_off(monkeypatch) -> None:
    monkeypatch.setattr(telemetry, "_TRACER", None)
    with telemetry.span("x", a=1) as sp:
        sp.set_attribute("b", 2)
        assert sp is telemetry.NO_SPAN and not sp.is_recording()


@pytest.mark.parametrize(
    ("env", "prelude"),
    [({}, "import sys; sys.modules['opentelemetry'] = None; "), ({"KGAUDIT_OTEL": "off"}, "")],
    ids=["not-importable", "switched-off"],
)
def test_disabled_without_the_extra_or_by_setting(env, prelude) -> None:
    import os
    import subprocess
    import sys

    code = prelude + "from auditor import telemetry; assert not telemetry.ENABLED"
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, **env})


def test_bench_telemetry_reports_every_mode(real_auditor) -> None:
    from auditor import stages
    from measure.bench.telemetry import run_bench

    real = stages.extract
    out = run_bench(real_auditor, [("medical", MEDICAL_OK)], rounds=3, calls=20)
    assert set(out["modes"]) == {"baseline", "off", "api", "sdk"}
    assert out["modes"]["baseline"]["ratio"] == 1.0 and out["modes"]["baseline"]["hook_us"] == 0
    assert all(m["hook_ratio"] >= 1.0 for m in out["modes"].values())
    assert stages.extract is real and telemetry._TRACER is not None  # restored
