"""paddle.get_flags / paddle.set_flags, and the one flag with an effect: FLAGS_check_nan_inf."""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.core.state import KNOWN_FLAGS


@pytest.fixture(autouse=True)
def default_flags():
    yield
    paddle.set_flags(dict(KNOWN_FLAGS))


def test_get_flags_by_name_list_and_tuple():
    assert paddle.get_flags("FLAGS_check_nan_inf") == {"FLAGS_check_nan_inf": False}
    got = paddle.get_flags(["FLAGS_check_nan_inf", "FLAGS_eager_delete_tensor_gb"])
    assert got == {"FLAGS_check_nan_inf": False, "FLAGS_eager_delete_tensor_gb": 0.0}  # paddle 2.6's defaults
    assert paddle.get_flags(("FLAGS_allocator_strategy",)) == {"FLAGS_allocator_strategy": "auto_growth"}


def test_set_flags_converts_to_the_flag_type():
    paddle.set_flags({"FLAGS_check_nan_inf": 1, "FLAGS_eager_delete_tensor_gb": 2, "FLAGS_paddle_num_threads": 4})
    got = paddle.get_flags(["FLAGS_check_nan_inf", "FLAGS_eager_delete_tensor_gb", "FLAGS_paddle_num_threads"])
    assert got == {"FLAGS_check_nan_inf": True, "FLAGS_eager_delete_tensor_gb": 2.0, "FLAGS_paddle_num_threads": 4}
    assert type(got["FLAGS_check_nan_inf"]) is bool and type(got["FLAGS_eager_delete_tensor_gb"]) is float


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: paddle.get_flags("FLAGS_nope"), ValueError, "get_flags: unknown flag 'FLAGS_nope'"),
        (lambda: paddle.get_flags("check_nan_inf"), ValueError, "unknown flag"),
        (lambda: paddle.get_flags(3), TypeError, "a flag name or a list/tuple of names, got int"),
        (lambda: paddle.set_flags({"FLAGS_nope": 1}), ValueError, "set_flags: unknown flag 'FLAGS_nope'"),
        (lambda: paddle.set_flags(["FLAGS_check_nan_inf"]), TypeError, "must be a dict"),
        (lambda: paddle.set_flags({"FLAGS_check_nan_inf": "yes"}), TypeError, "FLAGS_check_nan_inf takes a bool"),
        (lambda: paddle.set_flags({"FLAGS_paddle_num_threads": 1.5}), TypeError, "takes a int, got float"),
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_a_bad_entry_changes_nothing():
    with pytest.raises(TypeError):
        paddle.set_flags({"FLAGS_check_nan_inf": True, "FLAGS_paddle_num_threads": "many"})
    assert paddle.get_flags("FLAGS_check_nan_inf") == {"FLAGS_check_nan_inf": False}


def test_check_nan_inf_off_lets_nan_through():
    with np.errstate(divide="ignore"):
        assert np.isinf(paddle.log(paddle.to_tensor([0.0, 1.0])).numpy()[0])


def test_check_nan_inf_names_the_op_that_made_the_first_nan_or_inf():
    paddle.set_flags({"FLAGS_check_nan_inf": True})
    x = paddle.to_tensor([0.0, 1.0])
    assert paddle.exp(x).numpy()[0] == 1.0  # finite results pass
    assert paddle.argmax(x).item() == 1  # integer results are not checked
    with np.errstate(all="ignore"):
        with pytest.raises(RuntimeError, match=r"^log: output 0 holds 0 NaN and 1 Inf values"):
            paddle.log(x)
        with pytest.raises(RuntimeError, match=r"^divide: output 0 holds 1 NaN and 0 Inf"):
            x / x


def test_check_nan_inf_in_a_layer_and_in_backward():
    model = paddle.nn.Sequential(paddle.nn.Linear(2, 2))
    paddle.set_flags({"FLAGS_check_nan_inf": True})
    with np.errstate(all="ignore"), pytest.raises(RuntimeError, match=r"^matmul: output 0 in Layer 0 holds"):
        model(paddle.to_tensor([[np.inf, 1.0]]))
    x = paddle.to_tensor([0.0, 4.0], stop_gradient=False)
    y = paddle.sqrt(x)  # finite, but its gradient at 0 is 1 / (2 * sqrt(0)) = inf
    with np.errstate(all="ignore"), pytest.raises(RuntimeError, match="Inf values"):
        y.sum().backward()
