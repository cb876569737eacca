"""The first-party import graph reads top-down: no cycles, no import that runs back up a layer.

Every ``import``/``from ... import`` in the first-party packages counts as an edge, at module
level or inside a function (a lazy import still couples the two modules). Imports under
``if TYPE_CHECKING:`` are not edges: they never run.

Layers, lowest first (a module may import from its own layer or any layer below; the longest
matching prefix decides a module's layer, ``auditor`` alone means the package facade
``auditor/__init__.py``). docs/architecture.md draws the same picture.

 0. ``knowledge_graphs``  ontology, graphs, loader, verbalisation, the product-wide errors
 1. ``rules``             YAML rule packs, schema, loader
 2. ``kernels``           Triton kernels and their PyTorch references
 3. ``engine``            MoE model, loading, KV cache, generation, KG-constrained decoding
 4. auditor foundation    ``auditor.errors``, ``auditor.settings``, ``auditor.types``,
                          ``auditor.deadline``, ``auditor.version``, ``auditor.fmt``, ``auditor.memo``,
                          ``auditor.telemetry`` (OpenTelemetry spans), ``auditor.claim_table``
                          (results as rows of claims), and the
                          database schema ``auditor.trail.models`` (+ ``auditor.trail.canonical``,
                          the hashing it stamps): the trail's tables and the citation-lookup
                          cache the online citation check keeps
 5. ``auditor.extract``   text -> claim frames
 6. ``auditor.verify``    claim -> verdict + evidence
 7. scoring               ``auditor.score``, ``auditor.risk`` (the runtime risk model)
 8. ``auditor.stages``    the stage verbs; 9. ``auditor.pipeline`` the Auditor; 10. the facade
11. recording             ``auditor.trail`` (+ ``migrations`` as a package marker), ``auditor.render``
12. ``auditor.generation`` auditing the engine's generations (KG-constrained vs free)
13. evaluation            ``auditor.evaluation``, risk fitting, rule examples, the audit
                          benchmarks (``auditor.bench_audit``, ``auditor.bench_adversarial``,
                          ``auditor.bench_telemetry``)
14. services              ``auditor.batch``, ``auditor.chat``
15. ``auditor.report``    compliance reports over trails and batches
16. ``auditor.api``       REST API (every HTTP route lives under ``auditor.api.routes``)
17. ``kgaudit``           the Python SDK: REST client, ``@audited``, ``wrap_openai``, testing
18. entry points          ``auditor.cli``, ``engine.cli``, ``engine.train``, Alembic scripts

``engine.train`` (the default model's training) sits with the entry points: nothing outside
it may use the training code; what training shares with the auditor (verbalising facts) lives
in ``knowledge_graphs``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("knowledge_graphs", "rules", "kernels", "engine", "auditor", "kgaudit", "migrations")

LAYERS: list[tuple[str, ...]] = [
    ("knowledge_graphs",),
    ("rules",),
    ("kernels",),
    ("engine",),
    (
        "auditor.errors",
        "auditor.settings",
        "auditor.types",
        "auditor.deadline",
        "auditor.version",
        "auditor.fmt",
        "auditor.memo",
        "auditor.input_file",
        "auditor.telemetry",
        "auditor.claim_table",
        "auditor.trail.models",
        "auditor.trail.canonical",
    ),
    ("auditor.extract",),
    ("auditor.verify",),
    ("auditor.score", "auditor.risk"),
    ("auditor.stages",),
    ("auditor.pipeline",),
    ("auditor=",),  # the facade auditor/__init__.py only
    ("auditor.trail", "migrations=", "auditor.render"),
    ("auditor.generation",),
    (
        "auditor.evaluation",
        "auditor.risk.data",
        "auditor.risk.fit",
        "auditor.rule_examples",
        "auditor.bench_audit",
        "auditor.bench_adversarial",
        "auditor.bench_telemetry",
    ),
    ("auditor.batch", "auditor.chat"),
    ("auditor.gateway",),
    ("auditor.report",),
    ("auditor.api",),
    ("kgaudit",),
    ("auditor.cli", "engine.cli", "engine.train", "migrations", "auditor.gateway.bench"),
]


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every first-party Python file."""
    out = {}
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = f
    return out


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def import_graph() -> dict[str, set[str]]:
    """Module -> the first-party modules it imports (``from pkg import name`` resolves to
    ``pkg.name`` when that is a module, else to ``pkg``)."""
    mods = modules()

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        targets: set[str] = set()

        def visit(node: ast.AST, package: str = package, targets: set[str] = targets) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _type_checking(child):
                    for c in child.orelse:
                        visit(c)
                    continue
                if isinstance(child, ast.Import):
                    targets.update(filter(None, (resolve(a.name) for a in child.names)))
                elif isinstance(child, ast.ImportFrom):
                    if child.level:
                        parts = package.split(".")
                        base = ".".join(parts[: len(parts) - child.level + 1])
                        base = f"{base}.{child.module}" if child.module else base
                    else:
                        base = child.module or ""
                    targets.update(filter(None, (resolve(f"{base}.{a.name}") for a in child.names)))
                visit(child)

        visit(ast.parse(path.read_text(), filename=str(path)))
        targets.discard(mod)
        graph[mod] = targets
    return graph


def layer_of(mod: str) -> int | None:
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            exact = p.endswith("=")
            p = p.rstrip("=")
            matches = mod == p or (not exact and mod.startswith(p + "."))
            if matches and (best is None or len(p) > best[0]):
                best = (len(p), i)
    return None if best is None else best[1]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_every_module_has_a_layer() -> None:
    missing = sorted(m for m in modules() if layer_of(m) is None)
    assert not missing, f"modules without a layer in tests/test_imports.py: {missing}"


def test_no_import_cycles() -> None:
    graph = import_graph()
    found = cycles(graph)
    detail = [
        f"{sorted(c)}: " + ", ".join(f"{a} -> {b}" for a in c for b in sorted(graph[a]) if b in c)
        for c in found
    ]
    assert not found, f"{len(found)} import cycle(s):\n" + "\n".join(detail)


def test_no_upward_imports() -> None:
    graph = import_graph()
    upward = sorted(
        f"{a} (layer {layer_of(a)}) -> {b} (layer {layer_of(b)})"
        for a, targets in graph.items()
        for b in targets
        if (layer_of(a) or 0) < (layer_of(b) or 0)
    )
    assert not upward, f"{len(upward)} upward import(s):\n" + "\n".join(upward)
