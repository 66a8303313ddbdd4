"""paddle.reader's decorators and paddle.batch behave as paddle 2.6's (tests/golden/fidelity/reader_cases.py, recorded
by make_reader_golden.py into reader.json), and refuse what is not a reader."""

from __future__ import annotations

import importlib.util
import json

import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "reader.json")


@pytest.fixture(scope="module")
def ours():
    spec = importlib.util.spec_from_file_location("reader_cases", GOLDEN_ROOT / "fidelity" / "reader_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return json.loads(json.dumps(module.run_all(paddle)))  # tuples as JSON lists, as recorded


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_as_paddle(ours, name):
    assert ours[name] == GOLDEN[name]


def test_the_module_paths_and_names():
    import minipaddle.reader.decorator as decorator

    assert paddle.reader.shuffle is decorator.shuffle and issubclass(paddle.reader.ComposeNotAligned, ValueError)
    assert callable(paddle.batch) and paddle.batch.__module__ == "minipaddle.batch"


def test_a_sample_of_none_stops_multiprocess_reader_with_an_error():
    def reader():
        yield 1
        yield None

    for use_pipe in (True, False):
        with pytest.raises(ValueError, match="multiprocess_reader failed"):
            list(paddle.reader.multiprocess_reader([reader], use_pipe=use_pipe)())


def test_what_is_not_a_reader_is_refused():
    with pytest.raises(TypeError, match="shuffle: reader must be a function"):
        paddle.reader.shuffle([1, 2, 3], 2)
    with pytest.raises(TypeError, match="chain: readers must be a function"):
        paddle.reader.chain(lambda: iter([1]), 5)
    with pytest.raises(ValueError, match="xmap_readers: process_num must be a positive int"):
        paddle.reader.xmap_readers(abs, lambda: iter([1]), 0, 2)
    with pytest.raises(ValueError, match="readers` must be a non-empty list"):
        paddle.reader.multiprocess_reader([])
    with pytest.raises(TypeError, match="compose: unexpected keyword"):
        paddle.reader.compose(lambda: iter([1]), align=True)
