"""The Tensor's attributes, Python protocols, device handling and print format."""

import json
import pathlib

import numpy as np
import pytest

import minipaddle as paddle


def test_attributes():
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.shape == [2, 3] and x.ndim == 2 and x.size == 6
    assert x.stop_gradient is True and x.grad is None and x.persistable is False
    assert str(x.place) == "Place(cpu)"
    assert x.name.startswith("generated_tensor_")
    assert isinstance(x.numpy(), np.ndarray)
    assert np.asarray(x).shape == (2, 3)
    assert x.is_leaf


def test_conversions_of_one_element_tensors():
    for t in (paddle.to_tensor(2.5), paddle.to_tensor([2.5])):
        assert float(t) == 2.5 and int(t) == 2 and bool(t) is True and t.item() == 2.5
    assert list(range(paddle.to_tensor(3))) == [0, 1, 2]
    assert f"{paddle.to_tensor(2.0):.2f}" == "2.00"
    with pytest.raises(ValueError, match="exactly one element"):
        bool(paddle.to_tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="Tensor.item"):
        paddle.to_tensor([1.0, 2.0]).item()


def test_len_and_iter():
    x = paddle.to_tensor([[1, 2], [3, 4], [5, 6]])
    assert len(x) == 3
    rows = list(x)
    assert [r.tolist() for r in rows] == [[1, 2], [3, 4], [5, 6]]
    with pytest.raises(TypeError, match="0-D"):
        len(paddle.to_tensor(1.0))


def test_operators_with_numbers_and_numpy_arrays_on_either_side():
    x = paddle.to_tensor([1.0, 2.0])
    np.testing.assert_allclose((2 - x).numpy(), [1, 0])
    np.testing.assert_allclose((2 / x).numpy(), [2, 1])
    np.testing.assert_allclose((x**2).numpy(), [1, 4])
    np.testing.assert_allclose((2**x).numpy(), [2, 4])
    out = np.array([1.0, 1.0], dtype=np.float32) + x
    assert isinstance(out, paddle.Tensor)
    assert (x == 1.0).tolist() == [True, False]
    assert (x == None) is False  # noqa: E711 (Python's identity fallback, not an error)
    assert hash(x) == hash(x) and {x: 1}[x] == 1  # identity hashing: tensors work as dict keys


def test_detach_shares_data_and_clone_copies():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    d = x.detach()
    assert d.stop_gradient and d.numpy() is x.numpy()
    c = x.clone()
    assert not c.stop_gradient and c.numpy() is not x.numpy()
    c.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1, 1])


def test_set_device():
    assert paddle.set_device("cpu") == paddle.CPUPlace()
    assert paddle.get_device() == "cpu"
    with pytest.raises(ValueError, match="CPU only"):
        paddle.set_device("gpu")
    with pytest.raises(ValueError, match="CPU only"):
        paddle.set_device("gpu:0")
    with pytest.raises(RuntimeError, match="CPU only"):  # a GPU place can be made (core/place.py), not used
        paddle.to_tensor([1.0], place=paddle.CUDAPlace(0))


GOLDEN = pathlib.Path(__file__).parent.parent / "golden" / "printing" / "cases.json"


@pytest.mark.parametrize("name", ["float", "int", "bool", "nested"])
def test_print_matches_paddle_through_the_tensor(name):
    """The golden cases (recorded from paddle 2.6) hold through Tensor.__repr__, not only format_tensor."""
    made = {
        "float": paddle.to_tensor([[1.5, 2.0], [3.0, -4.25]]),
        "int": paddle.to_tensor([1, 2, 3]),
        "bool": paddle.to_tensor([True, False]),
        "nested": paddle.to_tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7),
    }[name]
    expected = {
        "float": "Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,\n"
        "       [[ 1.50000000,  2.        ],\n        [ 3.        , -4.25000000]])",
        "int": "Tensor(shape=[3], dtype=int64, place=Place(cpu), stop_gradient=True,\n       [1, 2, 3])",
        "bool": "Tensor(shape=[2], dtype=bool, place=Place(cpu), stop_gradient=True,\n       [True , False])",
    }.get(name)
    if expected is None:  # find the recorded case with this data
        cases = json.loads(GOLDEN.read_text())
        matches = [c for c in cases if c.get("shape") == [2, 3, 4] and c["dtype"] == "float32"]
        assert matches, "the golden file should hold a 3-d float32 case"
        case = matches[0]
        made = paddle.to_tensor(np.array(case["data"], dtype=np.float32).reshape(case["shape"]))
        made.stop_gradient = case["stop_gradient"]
        expected = case["expected"]
    assert repr(made) == expected
    assert str(made) == expected


def test_zero_d_print():
    assert repr(paddle.to_tensor(3.0)) == (
        "Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,\n       3.)"
    )
