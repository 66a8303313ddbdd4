"""Imports only run down (DESIGN.md, "Floors"; docs/architecture.md, "Floors").

Every module of minipaddle is parsed with `ast` (nothing is imported), and each of its imports, at module level and
inside functions, becomes an edge of the import graph. Then:

- no circles: the graph of minipaddle's modules has no cycle. Importing `a.b.c` also runs the packages `a.b`
  (their `__init__` gather their submodules), so those count as edges too: a package whose `__init__` gathers a
  module that imports back into it is a circle, even when each file imports only a sibling.
- no import runs up a floor: FLOORS below puts every module on a floor; a module imports its own floor or lower.
- an import inside a function is either of the standard library, or listed in LAZY with its one-line reason: it
  keeps a heavy or optional package lazy, or it breaks a true cycle of the Paddle API itself.
"""

from __future__ import annotations

import ast
import pathlib
import sys
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "minipaddle"

# Lowest first. A module stands on the floor of the longest prefix listed here, and may import its own floor and
# the floors below. Inside a floor, families are siblings: they may import each other, never in a circle.
FLOORS = [
    ("core", ["minipaddle.core", "minipaddle.version"]),  # the engine: state, dtype, tensor, op, autograd; the version
    # every op, defined once; the profiler's event marks and its Benchmark (the DataLoader times its reads)
    ("ops", ["minipaddle.ops", "minipaddle.profiler.events", "minipaddle.profiler.timer"]),
    (
        "tensor",  # the public tensor functions and the namespaces made of them
        [
            "minipaddle.tensor",
            "minipaddle.linalg",
            "minipaddle.fft",
            "minipaddle.signal",
            "minipaddle.autograd",
            "minipaddle.device",
            "minipaddle.regularizer",
            "minipaddle.testing",
        ],
    ),
    ("nn", ["minipaddle.nn", "minipaddle.io", "minipaddle.metric"]),  # layers; data loading; metrics
    ("static", ["minipaddle.static"]),  # Programs, the Executor, static backward; static.nn builds on nn
    (
        "libraries",  # built on nn and static
        [
            "minipaddle.optimizer",
            "minipaddle.framework",
            "minipaddle.vision",
            "minipaddle.audio",
            "minipaddle.text",
            "minipaddle.distribution",
            "minipaddle.sparse",
            "minipaddle.geometric",
            "minipaddle.incubate",
            "minipaddle.amp",
        ],
    ),
    (
        "apps",  # the high-level API, and distributed training (which hapi's fit uses under launch)
        [
            "minipaddle.hapi",
            "minipaddle.callbacks",
            "minipaddle.hub",
            "minipaddle.utils",
            "minipaddle.reader",
            "minipaddle.batch",
            "minipaddle.distributed",
        ],
    ),
    (
        "top",
        [
            "minipaddle",
            "minipaddle.tensor_methods",
            "minipaddle.tensor.ops",
            "minipaddle.device.cuda.graphs",
            "minipaddle.device.cuda.cuda_graphed_layer",
        ],  # CUDA graphs wrap to_static functions (jit), so they stand on the top floor
    ),  # paddle.tensor.ops re-exports  # paddle.* and the binding of Tensor's methods
]

# Packages that minipaddle must never import at module level: the pictures (DESIGN.md, wall 5) and the optional
# or slow-to-import ones.
HEAVY = {"viz", "graphviz", "matplotlib", "ipywidgets", "IPython", "PIL", "visualdl", "tqdm", "scipy", "cv2"}

_ONNX = "onnx is a large package: loaded only when a model is exported or drawn"
_NAMESPACE = "paddle.tensor.X / paddle.framework.X name all of paddle.*: resolved from the top on first use"
_PROGRAM_METHODS = (
    "Program's methods over modules that read Programs (program_state -> executor -> program; serialize): a true "
    "cycle, kept at the method as paddle 2.6's Program.state_dict does (`from .executor import global_scope`)"
)
_TO_STATIC = "to_static's own cycle: converting a call converts the callee, which calls convert_call again"

# Every import inside a function that is not of the standard library: (module, imported module) -> why.
LAZY = {
    ("minipaddle.jit.ast_transform", "minipaddle.jit.dy2static"): _TO_STATIC,
    ("minipaddle.jit.dy2static.convert_call", "minipaddle.jit.ast_transform"): _TO_STATIC,
    ("minipaddle.jit.dy2static.convert_call", "minipaddle.jit.program_translator"): _TO_STATIC,
    ("minipaddle.jit.dy2static.convert_call", "minipaddle.nn"): _TO_STATIC,
    ("minipaddle.jit.dy2static.convert_call", "minipaddle.jit.partial_program"): _TO_STATIC,
    ("minipaddle.vision.image", "PIL"): "Pillow is optional: only the 'pil' image backend needs it",
    ("minipaddle.vision.transforms.functional", "PIL"): "Pillow is optional: only PIL images need it",
    ("minipaddle.hapi.callbacks", "visualdl"): "VisualDL is optional: only the VisualDL callback writes its logs",
    ("minipaddle.hapi.progressbar", "tqdm.auto"): "tqdm.auto loads ipywidgets in a notebook: only when a bar is shown",
    ("minipaddle", "minipaddle.distributed"): "paddle.distributed needs mpi4py: loaded on first use of the name",
    ("minipaddle.hapi.model", "minipaddle.distributed"): "Model.fit under launch: only with 2+ ranks (needs mpi4py)",
    (
        "minipaddle.framework",
        "minipaddle",
    ): _NAMESPACE,
    ("minipaddle.inference.predictor", "threadpoolctl"): "threadpoolctl only when a Config sets the BLAS threads",
    ("minipaddle.onnx.convert", "onnx"): _ONNX,
    ("minipaddle.onnx.export", "onnx"): _ONNX,
    ("minipaddle.onnx.graph", "onnx"): _ONNX,
    ("minipaddle.onnx.op_table", "onnx"): _ONNX,
    (
        "minipaddle.static.paddle_proto",
        "google.protobuf.message_factory",
    ): "protobuf's message factory only when a .pdmodel is read or written",
    (
        "minipaddle.static.program",
        "minipaddle.static.program_state",
    ): _PROGRAM_METHODS,
    (
        "minipaddle.static.program",
        "minipaddle.static.serialize",
    ): _PROGRAM_METHODS,
    (
        "minipaddle.tensor",
        "minipaddle",
    ): _NAMESPACE,
    ("minipaddle.utils.download", "tqdm"): "tqdm only when a download shows its progress bar",
    (
        "minipaddle.vision.models.pretrained",
        "minipaddle.utils.download",
    ): "the download helper stands in utils, above vision; only pretrained=True needs it",
    ("minipaddle.distribution.transform", "minipaddle.distribution.transformed_distribution"): (
        "Paddle's own cycle: a Transform called on a Distribution makes a TransformedDistribution of Transforms"
    ),
}


def _modules() -> dict[str, tuple[pathlib.Path, bool]]:
    mods = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        mods[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return mods


MODULES = _modules()


def _targets(module: str, is_package: bool, node) -> list[str]:
    """The modules an import statement names (`from a import b` names `a.b` when that is a module, else `a`)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        here = module.split(".") if is_package else module.split(".")[:-1]
        here = here[: len(here) - node.level + 1]
        base = ".".join(here + ([base] if base else []))
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool) -> None:
        self.module, self.is_package, self.depth = module, is_package, 0
        self.found: list[tuple[str, int, bool]] = []  # (imported module, line, inside a function)

    def visit_FunctionDef(self, node) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_Import(self, node) -> None:
        for target in dict.fromkeys(_targets(self.module, self.is_package, node)):
            self.found.append((target, node.lineno, self.depth > 0))

    visit_ImportFrom = visit_Import


def _imports() -> list[tuple[str, str, int, bool]]:
    """Every import of every module: (module, imported module, line, inside a function)."""
    out = []
    for module, (path, is_package) in MODULES.items():
        visitor = _Imports(module, is_package)
        visitor.visit(ast.parse(path.read_text(), str(path)))
        out.extend((module, target, line, in_function) for target, line, in_function in visitor.found)
    return out


IMPORTS = _imports()


def _floor(module: str) -> int:
    best, floor = -1, None
    for i, (_, prefixes) in enumerate(FLOORS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, floor = len(p), i
    assert floor is not None, f"{module} stands on no floor: add it to FLOORS"
    return floor


def _where(module: str, line: int) -> str:
    return f"{MODULES[module][0].relative_to(ROOT)}:{line}"


def _runs(source: str, target: str) -> list[str]:
    """The minipaddle modules that importing `target` from `source` runs: the target, and the packages above it
    (their `__init__`) that are not already running because `source` is inside them."""
    if target not in MODULES:
        return []
    parts = target.split(".")
    parents = [".".join(parts[:i]) for i in range(2, len(parts))]
    return [p for p in parents if not source.startswith(p + ".")] + [target]


# The one circle the design keeps on purpose: an op module's grad rules call their sibling ops through the `ops`
# package (`ops.multiply(g, y)`), looked up when a gradient is computed, after every op module has loaded.
OPS_NAMESPACE = "minipaddle.ops"


def _graph() -> dict[str, set[str]]:
    graph = defaultdict(set)
    for source, target, _, in_function in IMPORTS:
        if in_function and (source, target) in LAZY:
            continue
        if source.startswith(OPS_NAMESPACE + ".") and target == OPS_NAMESPACE:
            continue
        for m in _runs(source, target):
            if m != source:
                graph[source].add(m)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for root in sorted(MODULES):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
    return out


def test_every_module_stands_on_a_floor():
    for module in MODULES:
        _floor(module)


def test_no_import_circles():
    cycles = _cycles(_graph())
    assert not cycles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_no_import_runs_up_a_floor():
    upward = []
    for source, target, line, in_function in IMPORTS:
        if in_function and (source, target) in LAZY:
            continue  # listed with its reason: a cycle broken on purpose, resolved when the function runs
        if target.startswith("minipaddle") and (target in MODULES) and _floor(target) > _floor(source):
            upward.append(
                f"{_where(source, line)}: {source} ({FLOORS[_floor(source)][0]}) imports {target} "
                f"({FLOORS[_floor(target)][0]})"
            )
    assert not upward, "imports that run up a floor:\n" + "\n".join(upward)


def test_imports_inside_functions_are_listed_with_their_reason():
    unlisted = []
    for source, target, line, in_function in IMPORTS:
        top = target.split(".")[0]
        if in_function and top not in sys.stdlib_module_names and (source, target) not in LAZY:
            unlisted.append(f"{_where(source, line)}: {source} imports {target} inside a function")
    assert not unlisted, "imports inside functions, not in LAZY:\n" + "\n".join(unlisted)


def test_heavy_packages_are_never_imported_at_module_level():
    eager = [
        f"{_where(source, line)}: {source} imports {target}"
        for source, target, line, in_function in IMPORTS
        if not in_function and target.split(".")[0] in HEAVY
    ]
    assert not eager, "heavy packages imported at module level:\n" + "\n".join(eager)


def test_every_lazy_entry_is_still_used():
    used = {(source, target) for source, target, _, in_function in IMPORTS if in_function}
    stale = sorted(set(LAZY) - used)
    assert not stale, f"LAZY lists imports that no longer exist: {stale}"


def test_the_checker_sees_a_circle_and_an_upward_import():
    """The checks above can fail: a made-up graph with a circle has one, and ops importing nn runs up."""
    graph = defaultdict(set, {"minipaddle.tensor.math": {"minipaddle.tensor.creation"}})
    graph["minipaddle.tensor.creation"].add("minipaddle.tensor.math")
    assert _cycles(graph) == [["minipaddle.tensor.creation", "minipaddle.tensor.math"]]
    assert _floor("minipaddle.nn.functional") > _floor("minipaddle.ops.elementwise")
    assert _runs("minipaddle.nn.functional.dropout", "minipaddle.static.train_switch") == [
        "minipaddle.static",
        "minipaddle.static.train_switch",
    ]
