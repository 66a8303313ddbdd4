"""paddle.device.cuda.graphs, .cuda_graphed_layer and paddle.utils.environments against paddle 2.6's CPU build
(tests/golden/fidelity/cuda_graphs_cases.py, recorded by make_cuda_graphs_golden.py into cuda_graphs.json): the
same values, error kinds and messages, and minipaddle's refusals of bad arguments name the function."""

from __future__ import annotations

import importlib.util

import pytest

import minipaddle as paddle
from minipaddle.device.cuda import graphs
from minipaddle.device.cuda.cuda_graphed_layer import CUDAGraphedLayer
from minipaddle.utils import environments
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "cuda_graphs.json")


def _ours() -> dict:
    path = GOLDEN_ROOT / "fidelity" / "cuda_graphs_cases.py"
    spec = importlib.util.spec_from_file_location("cuda_graphs_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run_all(paddle)


OURS = _ours()
CASES = [(part, case) for part in sorted(GOLDEN) for case in sorted(GOLDEN[part])]


@pytest.mark.parametrize(("part", "case"), CASES)
def test_answers_as_paddle_without_cuda(part, case):
    assert OURS[part][case] == GOLDEN[part][case]


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="wrap_cuda_graph: mode must be one of"):
        graphs.wrap_cuda_graph(lambda t: t, mode="bad")
    with pytest.raises(TypeError, match="wrap_cuda_graph: function must be callable"):
        graphs.wrap_cuda_graph(3)
    with pytest.raises(TypeError, match="memory_pool must be 'default', 'new' or a function"):
        graphs.wrap_cuda_graph(lambda t: t, memory_pool=object())
    with pytest.raises(TypeError, match="cuda_graph_transform: program must be a paddle.static.Program"):
        graphs.cuda_graph_transform("main")
    with pytest.raises(TypeError, match="CUDAGraphedLayer: layer must be a paddle.nn.Layer"):
        CUDAGraphedLayer(lambda t: t)
    with pytest.raises(TypeError, match="IntegerEnvironmentVariable.set: value must be an integer, got str"):
        environments.IntegerEnvironmentVariable("MINIPADDLE_ENV_CASE", 1).set("2")
    with pytest.raises(TypeError, match="EnvironmentVariableGuard: variable must be an EnvironmentVariable"):
        environments.EnvironmentVariableGuard("MINIPADDLE_ENV_CASE", 1)
