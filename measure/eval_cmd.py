"""``kgaudit eval``: measured quality on the generated benchmark and the golden realistic set."""

from __future__ import annotations

import time
from pathlib import Path

import click
import orjson

from auditor.errors import UsageError

_GOLDEN_DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "golden"


@click.group("eval", invoke_without_command=True)
@click.option(
    "--domain",
    "domains",
    multiple=True,
    type=click.Choice(["finance", "medical", "legal"]),
    help="Only this domain (repeatable).",
)
@click.option("--per-domain", default=300, show_default=True, help="Generated answers per domain.")
@click.option("--seed", default=7, show_default=True, help="Seed of the generated benchmark.")
@click.option(
    "--golden",
    "golden_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder of golden cases (default: tests/golden of the source tree, if present).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option("--misses", "show_misses", is_flag=True, help="List every claim-level miss.")
@click.option(
    "--fit", is_flag=True, help="Refit the calibrated risk model on the benchmark and save it."
)
@click.pass_context
def eval_group(
    ctx: click.Context,
    domains: tuple[str, ...],
    per_domain: int,
    seed: int,
    golden_dir: Path | None,
    fmt: str,
    show_misses: bool,
    fit: bool,
) -> None:
    """Generate a labelled benchmark from the graphs, audit it, and print precision/recall/F1,
    claim-level accuracy per domain and per hallucination type, and the FER error; then the
    same metrics on the golden realistic answers."""
    if ctx.invoked_subcommand is not None:
        return
    if per_domain < 1:
        raise UsageError("--per-domain must be at least 1")
    from auditor import get_auditor
    from measure.evaluation.benchmark import generate_benchmark
    from measure.evaluation.golden import load_golden
    from measure.evaluation.metrics import evaluate

    auditor = get_auditor()
    wanted = domains or ("finance", "medical", "legal")
    t0 = time.perf_counter()
    cases = generate_benchmark(auditor.kb, seed=seed, per_domain=per_domain, domains=tuple(wanted))

    audited: list[tuple[object, object]] = []

    def run(case):  # type: ignore[no-untyped-def]
        result = auditor.audit(case.text, domain=case.domain, as_of=case.as_of)
        audited.append((case, result))
        return result

    report: dict[str, object] = {
        "seed": seed,
        "per_domain": per_domain,
        "kg_version": auditor.kb.kg_version,
        "rules_version": auditor.rules.version,
    }
    bench = evaluate(cases, run)
    report["benchmark"] = bench["domains"]
    from measure.risk import evaluate_risk

    report["risk"] = evaluate_risk(audited)  # type: ignore[arg-type]
    gdir = golden_dir or (_GOLDEN_DEFAULT if _GOLDEN_DEFAULT.exists() else None)
    gold_misses: list[dict[str, object]] = []
    if gdir is not None:
        golden = [g for g in load_golden(gdir) if g.domain in wanted]
        if golden:
            gres = evaluate([g.as_case() for g in golden], run)
            report["golden"] = gres["domains"]
            report["golden_cases"] = len(golden)
            gold_misses = gres["misses"]
    if fit:
        from measure.risk.fit import fit_and_save

        report["fit"] = fit_and_save(auditor, seed=seed, per_domain=per_domain)
    report["seconds"] = round(time.perf_counter() - t0, 1)
    if fmt == "json":
        if show_misses:
            report["misses"] = {"benchmark": bench["misses"], "golden": gold_misses}
        click.echo(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())
        return
    _print(
        report, "benchmark", f"generated benchmark (seed {seed}, {per_domain} answers per domain)"
    )
    if "golden" in report:
        _print(
            report, "golden", f"golden realistic answers ({report['golden_cases']} cases, {gdir})"
        )
    from measure.risk.fit import describe, metrics_table

    if report["risk"]:
        title = "calibrated risk on the generated benchmark (Brier, ECE 10 bins, ROC AUC)"
        click.echo(metrics_table(report["risk"], title))  # type: ignore[arg-type]
    if "fit" in report:
        click.echo(describe(report["fit"]))  # type: ignore[arg-type]
    if show_misses:
        for m in [*bench["misses"], *gold_misses]:
            click.echo(
                f"  miss {m['case']}: expected {m['expected']}, got {m['got']}: {m['sentence']}"
            )
    click.echo(
        f"\nkg {report['kg_version']} · rules {report['rules_version']} · {report['seconds']} s"
    )


def _print(report: dict[str, object], key: str, title: str) -> None:
    click.echo(f"\n{title}")
    click.echo(
        f"{'domain':<9}{'answers':>8}{'prec':>8}{'recall':>8}{'F1':>8}{'claim acc':>11}{'FER MAE':>9}"
    )
    rows = report[key]
    assert isinstance(rows, dict)
    for d, s in rows.items():
        click.echo(
            f"{d:<9}{s['answers']:>8}{s['precision']:>8.3f}{s['recall']:>8.3f}{s['f1']:>8.3f}"
            f"{(s['claim_accuracy'] or 0):>11.3f}{(s['fer_mae'] if s['fer_mae'] is not None else 0):>9.3f}"
        )
    kinds = sorted({k for s in rows.values() for k in s["recall_by_kind"]})
    if kinds:
        click.echo("answer-level recall per hallucination type:")
        for k in kinds:
            vals = "  ".join(
                f"{d}={rows[d]['recall_by_kind'][k]:.3f}"
                for d in rows
                if k in rows[d]["recall_by_kind"]
            )
            click.echo(f"  {k:<22}{vals}")


@eval_group.command(
    "generation",
    # every option (and --help) goes to measure.evaluation.generation's own command
    context_settings={
        "ignore_unknown_options": True,
        "allow_extra_args": True,
        "help_option_names": [],
    },
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def generation_command(args: tuple[str, ...]) -> None:
    """Answer held-out questions with the default model, constrained and not, and audit them."""
    try:
        from measure.evaluation.generation import main as run_generation_eval
    except ModuleNotFoundError as exc:
        raise UsageError(
            f"'kgaudit eval generation' needs the engine extra ({exc.name} is missing): "
            "pip install 'kgaudit[engine]'"
        ) from exc
    run_generation_eval(list(args))


_REALISTIC_DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "realistic"
_TRUTH_DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "truth"
_truth_option = click.option(
    "--truth",
    "truth_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Truth-corpus JSONL file(s) (default: tests/truth/*.jsonl of the source tree).",
)


@eval_group.command("realistic")
@click.option(
    "--cases",
    "cases_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder of span-labelled long answers (default: tests/realistic of the source tree).",
)
@click.option(
    "--dev",
    "dev_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Extra JSONL file(s) of cases in the same shape (repeatable).",
)
@_truth_option
@click.option(
    "--domain",
    "domains",
    multiple=True,
    type=click.Choice(["finance", "medical", "legal"]),
    help="Only this domain (repeatable).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option("--failures", "show_failures", is_flag=True, help="List every case that fails.")
def realistic_command(
    cases_dir: Path | None,
    dev_files: tuple[Path, ...],
    truth_files: tuple[Path, ...],
    domains: tuple[str, ...],
    fmt: str,
    show_failures: bool,
) -> None:
    """Answer-level false-positive rate and recall, precision of contradicted and supported
    claims, recall and localisation of checkable errors on long realistic answers, and
    contradictions on the truth corpus."""
    from auditor import get_auditor
    from measure.evaluation.realistic import judge, load_cases, summarise, truth_outcomes

    folder = cases_dir or (_REALISTIC_DEFAULT if _REALISTIC_DEFAULT.is_dir() else None)
    if cases_dir is not None and not cases_dir.is_dir():
        raise UsageError(f"--cases {cases_dir} is not a folder")
    truth = list(truth_files) or sorted(_TRUTH_DEFAULT.glob("*.jsonl"))
    wanted = set(domains or ("finance", "medical", "legal"))
    auditor = get_auditor()
    t0 = time.perf_counter()
    cases = [c for c in load_cases(folder, dev_files) if c.domain in wanted]
    outcomes = [judge(c, auditor.audit(c.text, domain=c.domain, as_of=c.as_of)) for c in cases]
    by_domain = {d: summarise([o for o in outcomes if o.case.domain == d]) for d in sorted(wanted)}
    by_domain["all"] = summarise(outcomes)
    truth_rows = truth_outcomes(
        [f for f in truth if f.stem in wanted or not truth_files],
        lambda text, dom, day: auditor.audit(text, domain=dom, as_of=day),
    )
    truth_rows = {d: r for d, r in truth_rows.items() if d in wanted}
    report = {
        "cases": len(cases),
        "metrics": by_domain,
        "truth": truth_rows,
        "failures": [
            {
                "id": o.case.id,
                "false_contradictions": o.false_contradictions,
                "missed": [e["span"] for e in o.missed],
                "supports_on_errors": o.supports_on_errors,
            }
            for o in outcomes
            if not o.ok or o.supports_on_errors
        ],
        "seconds": round(time.perf_counter() - t0, 2),
    }
    if fmt == "json":
        click.echo(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())
        return
    click.echo(f"realistic answers ({len(cases)} cases)")
    head = f"{'domain':<9}{'answers':>8}{'clean':>6}{'FPR':>7}{'recall':>7}"
    head += f"{'P(contra)':>10}{'P(supp)':>9}{'err recall':>11}{'localis.':>9}{'sup@err':>8}"
    click.echo(head)

    def f(v: float | None) -> str:
        return "  n/a" if v is None else f"{v:.3f}"

    for d, m in by_domain.items():
        click.echo(
            f"{d:<9}{m['answers']:>8}{m['clean']:>6}{f(m['answer_fpr']):>7}"
            f"{f(m['answer_recall']):>7}{f(m['contradicted_precision']):>10}"
            f"{f(m['supported_precision']):>9}{f(m['checkable_recall']):>11}"
            f"{f(m['localisation']):>9}{m['supports_on_errors']:>8}"
        )
    if truth_rows:
        click.echo("truth corpus (must yield no contradiction)")
        for d, r in sorted(truth_rows.items()):
            click.echo(
                f"  {d:<9}{r['passages']:>5} passages  {r['passages_with_contradictions']:>4} "
                f"with contradictions  ({r['contradictions']} contradicted claims)"
            )
    if show_failures:
        for o in outcomes:
            if o.ok and not o.supports_on_errors:
                continue
            click.echo(f"- {o.case.id}")
            for fc in o.false_contradictions:
                click.echo(f"    false contradiction: {fc['text'][:120]!r} — {fc['why'][:160]}")
            for e in o.missed:
                click.echo(f"    missed ({e.get('kind')}): {e['span'][:120]!r}")
            for what in o.supports_on_errors:
                click.echo(f"    supported inside an error span: {what[:160]}")
        for _, r in sorted(truth_rows.items()):
            for ex in r["examples"]:
                click.echo(f"- truth {ex['id']}: {ex['why'][:200]}")
    click.echo(f"{report['seconds']} s")


_CORPUS_DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "real"


@eval_group.command("corpus")
@click.option(
    "--corpus",
    "corpus_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder of <domain>.jsonl records (default: tests/corpus/real of the source tree).",
)
@click.option(
    "--domain",
    "domains",
    multiple=True,
    type=click.Choice(["finance", "medical", "legal"]),
    help="Only this domain (repeatable).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option("--failures", "show_failures", is_flag=True, help="List every failing record.")
def corpus_command(
    corpus_dir: Path | None, domains: tuple[str, ...], fmt: str, show_failures: bool
) -> None:
    """Real-phrasing corpus (sentences written by others, claims labelled by hand): false
    alarms on correct text, coverage of in-graph claims and agreement with the labels."""
    from auditor import get_auditor
    from measure.evaluation.corpus import evaluate, load_records, schema_problems

    folder = corpus_dir or _CORPUS_DEFAULT
    if not folder.is_dir():
        raise UsageError(f"--corpus {folder} is not a folder")
    records = load_records(folder, domains or ("finance", "medical", "legal"))
    problems = [p for r in records for p in schema_problems(r)]
    if problems:
        raise UsageError(f"{folder}: {problems[0]} ({len(problems)} problem(s) in all)")
    auditor = get_auditor()
    t0 = time.perf_counter()
    report = evaluate(records, lambda text, dom, day: auditor.audit(text, domain=dom, as_of=day))
    report["seconds"] = round(time.perf_counter() - t0, 2)
    if fmt == "json":
        click.echo(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())
        return

    def f(v: float | None) -> str:
        return "  n/a" if v is None else f"{v:.3f}"

    click.echo(f"real-phrasing corpus ({len(records)} records, {folder})")
    click.echo(f"{'domain':<9}{'records':>8}{'in-graph':>9}{'false alarms':>13}"
               f"{'coverage':>9}{'agreement':>10}{'wrong sup.':>11}")  # fmt: skip
    for d, m in report["metrics"].items():
        click.echo(
            f"{d:<9}{m['records']:>8}{m['in_graph_claims']:>9}{m['false_alarms']:>13}"
            f"{f(m['coverage']):>9}{f(m['agreement']):>10}{m['wrong_supports']:>11}"
        )
    if show_failures:
        for row in report["failures"]:
            click.echo(f"- {row['id']}: {row['text'][:100]!r}")
            for why in row["false_alarms"]:
                click.echo(f"    false alarm: {why[:160]}")
            for d in row["disagreements"]:
                click.echo(f"    {d['verdict']} but labelled {d['label']}: {d['span'][:80]!r}")
            for m in row["missed"]:
                click.echo(f"    missed ({m['relation']}, {m['verdict']}): {m['span'][:80]!r}")
    click.echo(f"{report['seconds']} s")


@eval_group.command("citations")
@click.option("--real", default=2000, show_default=True, help="Real citations (must verify).")
@click.option("--swapped", default=2000, show_default=True, help="Name + another case's cite.")
@click.option("--nonexistent", default=1000, show_default=True, help="Pages that start no case.")
@click.option("--seed", default=7, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def citations_command(real: int, swapped: int, nonexistent: int, seed: int, fmt: str) -> None:
    """Supreme Court citations from the SCDB list: real ones must be verified, swapped names
    and nonexistent pages contradicted."""
    from measure.evaluation.citations import main as run_citation_eval

    run_citation_eval(
        ["--real", str(real), "--swapped", str(swapped), "--nonexistent", str(nonexistent),
         "--seed", str(seed), "--format", fmt]
    )  # fmt: skip


_PARAPHRASE_DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "paraphrase"
_DEV_DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "realistic_dev"


@eval_group.command("metamorphic")
@_truth_option
@click.option(
    "--cases",
    "cases_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder of realistic cases (default: tests/realistic of the source tree).",
)
@click.option(
    "--dev",
    "dev_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Dev-set JSONL file(s) (default: ../shared/data/realistic_dev/answers*.jsonl, if present).",
)
@click.option(
    "--corpus",
    "corpus_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="An extra folder: its */*.yaml cases and *.jsonl files (realistic shape).",
)
@click.option(
    "--paraphrase",
    "paraphrase_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder of paraphrase wording sets (default: tests/corpus/paraphrase).",
)
@click.option(
    "--domain",
    "domains",
    multiple=True,
    type=click.Choice(["finance", "medical", "legal"]),
    help="Only this domain (repeatable).",
)
@click.option(
    "--only",
    "kinds",
    multiple=True,
    type=click.Choice(["value", "qualifier", "paraphrase"]),
    help="Only this relation (repeatable; default all three).",
)
@click.option("--limit", default=0, help="At most this many passages per corpus (0: all).")
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="JSON report."
)
def metamorphic_command(
    truth_files: tuple[Path, ...],
    cases_dir: Path | None,
    dev_files: tuple[Path, ...],
    corpus_dir: Path | None,
    paraphrase_dir: Path | None,
    domains: tuple[str, ...],
    kinds: tuple[str, ...],
    limit: int,
    out: Path | None,
) -> None:
    """Metamorphic tests: a supported claim whose value is replaced must be contradicted, a
    swapped qualifier must not stay supported by the old qualifier's fact, and paraphrases
    must keep their verdict; rates per corpus and domain, failures listed (docs/metamorphic.md)."""
    from auditor import get_auditor
    from measure.evaluation.metamorphic import (
        load_paraphrase_sets,
        load_passages,
        run_metamorphic,
    )

    if cases_dir is not None and not cases_dir.is_dir():
        raise UsageError(f"--cases {cases_dir} is not a folder")
    if limit < 0:
        raise UsageError("--limit must be 0 or more")
    truth = list(truth_files) or sorted(_TRUTH_DEFAULT.glob("*.jsonl"))
    dev = list(dev_files) or sorted(_DEV_DEFAULT.glob("answers*.jsonl"))
    folder = cases_dir or (_REALISTIC_DEFAULT if _REALISTIC_DEFAULT.is_dir() else None)
    pdir = paraphrase_dir or _PARAPHRASE_DEFAULT
    wanted = set(domains or ("finance", "medical", "legal"))
    passages = [p for p in load_passages(truth, folder, dev, corpus_dir) if p.domain in wanted]
    if limit:
        seen: dict[str, int] = {}
        kept = []
        for p in passages:
            seen[p.corpus] = seen.get(p.corpus, 0) + 1
            if seen[p.corpus] <= limit:
                kept.append(p)
        passages = kept
    try:
        sets = load_paraphrase_sets(pdir) if pdir.is_dir() else []
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    sets = [s for s in sets if s["domain"] in wanted]
    auditor = get_auditor()
    t0 = time.perf_counter()
    report = run_metamorphic(
        passages,
        sets,
        lambda text, dom, day: auditor.audit(text, domain=dom, as_of=day),
        kinds or ("value", "qualifier", "paraphrase"),
        auditor.kb,
    )
    report["seconds"] = round(time.perf_counter() - t0, 1)
    report["kg_version"] = auditor.kb.kg_version
    if out is not None:
        out.write_text(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode(), "utf-8")
    for kind in ("value", "qualifier", "paraphrase"):
        if kind not in report:
            continue
        click.echo(f"{kind} ({len(report[kind]['failures'])} failures)")
        for key, r in report[kind]["rates"].items():
            rate = "n/a" if r["rate"] is None else f"{r['rate']:.4f}"
            click.echo(f"  {key:<32}{r['ok']:>6}/{r['n']:<6}{rate:>8}")
    click.echo(f"{report['passages']} passages · {report['seconds']} s" +
               (f" · report {out}" if out else ""))  # fmt: skip
