"""The first-party import graph reads top-down: no cycles, no import that runs back up a layer.

Every ``import``/``from ... import`` in the first-party packages counts as an edge: at module
level, inside a function (a lazy import still couples the two modules) and under
``if TYPE_CHECKING:`` (a type named across a boundary couples the two modules as much as a call).
Importing ``a.b.c`` also runs the ``__init__`` of ``a`` and ``a.b``: an import is checked against
everything those package markers load at module level (what Python really runs), not only
against the module named.

The folder list is the layer list. Wings, lowest first (a module may import from its own layer
or any layer below; the longest matching prefix decides a module's layer; ``auditor=`` means the
package facade ``auditor/__init__.py`` alone). docs/architecture.md draws the same picture.

 0. ``knowledge_graphs``  ontology, graphs, loader, verbalisation, the product-wide errors
 1. ``rules``             YAML rule packs, schema, loader
 2. ``kernels``           Triton kernels and their PyTorch references
 3. ``engine``            MoE model, loading, KV cache, generation, KG-constrained decoding
 4–11. ``auditor``        the audit library: foundation (errors, settings, types, ...),
                          extract, verify, score + risk model, stages, pipeline, the facade,
                          rendering and the decoding constraints built from the graphs
12. ``trail``             the hash-chained audit trail (+ ``migrations`` as a package marker)
13–17. ``services``       batch and chat, the gateway, reports, the REST API
18. ``kgaudit``           the Python SDK: REST client, ``@audited``, ``wrap_openai``, testing
19. entry points          ``services.cli``, ``engine.cli``, ``engine.train``, Alembic scripts
20. ``measure``           every benchmark and evaluation, risk fitting, kernel parity; its
                          commands reach the CLI through the ``kgaudit.commands`` entry points,
                          so no service imports measurement

``engine.train`` (the default model's training) sits with the entry points: nothing outside
it may use the training code; what training shares with the auditor (verbalising facts) lives
in ``knowledge_graphs``.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "knowledge_graphs",
    "rules",
    "kernels",
    "engine",
    "auditor",
    "trail",
    "services",
    "kgaudit",
    "migrations",
    "measure",
)

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
        "auditor.lookup_cache",
    ),
    ("auditor.extract",),
    ("auditor.verify",),
    ("auditor.score", "auditor.risk"),
    ("auditor.stages",),
    ("auditor.pipeline",),
    ("auditor=",),  # the facade auditor/__init__.py only
    ("auditor.render", "auditor.decoding", "auditor.rule_examples"),
    ("trail", "migrations="),
    ("services.batch", "services.chat"),
    ("services.gateway",),
    ("services.report",),
    ("services.api",),
    ("services=",),
    ("kgaudit",),
    ("services.cli", "engine.cli", "engine.train", "migrations"),
    ("measure",),
]


@cache
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


def _resolve(name: str) -> str | None:
    mods = modules()
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


@cache
def _imports(mod: str) -> tuple[frozenset[str], frozenset[str]]:
    """(every first-party module ``mod`` imports, those imported when it is loaded): the
    second set leaves out imports inside functions and under ``if TYPE_CHECKING:``."""
    path = modules()[mod]
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    every: set[str] = set()
    eager: set[str] = set()

    def targets(node: ast.Import | ast.ImportFrom) -> set[str]:
        if isinstance(node, ast.Import):
            return set(filter(None, (_resolve(a.name) for a in node.names)))
        if node.level:
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - node.level + 1])
            base = f"{base}.{node.module}" if node.module else base
        else:
            base = node.module or ""
        return set(filter(None, (_resolve(f"{base}.{a.name}") for a in node.names)))

    def visit(node: ast.AST, at_load: bool) -> None:
        for child in ast.iter_child_nodes(node):
            lazy = not at_load or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            if isinstance(child, ast.If) and _type_checking(child):
                visit(child, False)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                found = targets(child)
                every.update(found)
                if not lazy:
                    eager.update(found)
            visit(child, not lazy)

    visit(ast.parse(path.read_text(), filename=str(path)), True)
    every.discard(mod)
    eager.discard(mod)
    return frozenset(every), frozenset(eager)


def _ancestors(mod: str) -> list[str]:
    parts = mod.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


@cache
def loaded(mod: str) -> frozenset[str]:
    """Every first-party module that ``import mod`` runs: its package markers, itself, and
    what each of them imports at load time, transitively."""
    seen: set[str] = set()
    todo = [*(a for a in _ancestors(mod) if a in modules()), mod]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        todo.extend(a for a in _ancestors(m) if a in modules())
        todo.extend(_imports(m)[1])
    return frozenset(seen)


def import_graph() -> dict[str, set[str]]:
    """Module -> the first-party modules it imports, every kind of import counted."""
    return {mod: set(_imports(mod)[0]) for mod in modules()}


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


def upward_imports() -> list[str]:
    """``a -> b`` where ``b``, or a module that importing ``b`` loads (its package markers
    and what they import at load time), sits above ``a``; ``a``'s own package markers are
    already loaded and do not count."""
    out = []
    for a, targets in import_graph().items():
        mine = {*_ancestors(a), a}
        for b in sorted(targets):
            over = sorted(
                m for m in loaded(b) - loaded(a) - mine if (layer_of(m) or 0) > (layer_of(a) or 0)
            )
            if over:
                via = "" if over == [b] else f" (loads {', '.join(over)})"
                out.append(f"{a} (layer {layer_of(a)}) -> {b} (layer {layer_of(b)}){via}")
    return out


def test_no_upward_imports() -> None:
    upward = upward_imports()
    assert not upward, f"{len(upward)} upward import(s):\n" + "\n".join(upward)


def test_the_check_sees_package_markers_and_type_only_imports() -> None:
    """The measures can fail: importing the trail's schema loads the trail package marker
    (and what it loads), and a type-only import is an edge."""
    assert "trail" in loaded("trail.models")
    assert loaded("auditor.extract") >= {"auditor", "auditor.types"}
    assert "auditor.pipeline" not in loaded("auditor")  # the facade loads the pipeline lazily
