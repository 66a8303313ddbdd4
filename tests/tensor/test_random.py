"""Random numbers: paddle.seed makes every random function repeat, the generator state can be saved and put
back, draws happen when an op runs (also in static mode), and each distribution has the right support."""

import numpy as np
import pytest

import minipaddle as paddle

DRAWS = {
    "rand": lambda: paddle.rand([3, 2]),
    "randn": lambda: paddle.randn([4]),
    "standard_normal": lambda: paddle.standard_normal([2, 2], dtype="float64"),
    "uniform": lambda: paddle.uniform([5], min=2.0, max=3.0),
    "normal": lambda: paddle.normal(1.0, 2.0, [3]),
    "normal_tensor": lambda: paddle.normal(paddle.zeros([3]), paddle.ones([3])),
    "randint": lambda: paddle.randint(0, 100, [6]),
    "randperm": lambda: paddle.randperm(10),
    "bernoulli": lambda: paddle.bernoulli(paddle.full([8], 0.5)),
    "multinomial": lambda: paddle.multinomial(paddle.to_tensor([0.2, 0.3, 0.5]), 4, replacement=True),
    "multinomial_no_replacement": lambda: paddle.multinomial(paddle.to_tensor([[1.0, 2.0, 3.0, 4.0]]), 3),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_the_same_seed_gives_the_same_numbers(name):
    draw = DRAWS[name]
    paddle.seed(123)
    first = [draw().numpy() for _ in range(3)]
    paddle.seed(123)
    again = [draw().numpy() for _ in range(3)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    paddle.seed(124)
    other = np.concatenate([draw().numpy().ravel() for _ in range(3)])
    assert not np.array_equal(np.concatenate([a.ravel() for a in first]), other)


def test_rng_state_replays_the_draws_made_after_it():
    paddle.seed(5)
    paddle.rand([2])
    state = paddle.get_rng_state()
    after = paddle.randn([4]).numpy()
    paddle.rand([3])  # move on
    paddle.set_rng_state(state)
    np.testing.assert_array_equal(paddle.randn([4]).numpy(), after)
    assert paddle.get_cuda_rng_state() == [] and paddle.set_cuda_rng_state([]) is None


def test_uniform_with_its_own_seed_repeats_and_leaves_the_global_generator_alone():
    paddle.seed(9)
    expected_next = paddle.rand([3]).numpy()
    paddle.seed(9)
    a = paddle.uniform([4], seed=77).numpy()
    b = paddle.uniform([4], seed=77).numpy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(paddle.rand([3]).numpy(), expected_next)


def test_static_program_draws_when_it_runs_not_when_it_is_built():
    main, startup = paddle.static.Program(), paddle.static.Program()
    paddle.seed(1)
    paddle.enable_static()
    try:
        with paddle.static.program_guard(main, startup):
            out = paddle.rand([4])
        exe = paddle.static.Executor()
        first = exe.run(main, fetch_list=[out])[0]
        second = exe.run(main, fetch_list=[out])[0]
        paddle.seed(1)
        replay = exe.run(main, fetch_list=[out])[0]
    finally:
        paddle.disable_static()
    assert not np.array_equal(first, second)  # a new draw each run
    np.testing.assert_array_equal(replay, first)  # building the Program drew nothing


def test_dtypes_follow_paddle():
    assert paddle.rand([2]).dtype == paddle.float32
    assert paddle.randint(5, shape=[2]).dtype == paddle.int64
    assert paddle.randint(0, 5, [2], dtype="int32").dtype == paddle.int32
    assert paddle.randperm(3).dtype == paddle.int64 and paddle.randperm(3, "float32").dtype == paddle.float32
    assert paddle.bernoulli(paddle.full([2], 0.5, "float64")).dtype == paddle.float64
    paddle.set_default_dtype("float64")
    try:
        assert paddle.rand([1]).dtype == paddle.float64 and paddle.normal(shape=[1]).dtype == paddle.float64
    finally:
        paddle.set_default_dtype("float32")


def test_values_lie_in_their_support():
    paddle.seed(0)
    u = paddle.uniform([2000], min=-2.0, max=3.0).numpy()
    assert u.min() >= -2.0 and u.max() < 3.0 and abs(u.mean() - 0.5) < 0.15
    n = paddle.normal(10.0, 2.0, [4000]).numpy()
    assert abs(n.mean() - 10.0) < 0.2 and abs(n.std() - 2.0) < 0.2
    i = paddle.randint(-3, 4, [2000]).numpy()
    assert set(np.unique(i)) == set(range(-3, 4))
    assert sorted(paddle.randperm(50).numpy()) == list(range(50))
    b = paddle.bernoulli(paddle.to_tensor([0.0, 1.0] * 50)).numpy()
    np.testing.assert_array_equal(b, [0.0, 1.0] * 50)


def test_multinomial_follows_the_weights():
    paddle.seed(3)
    picks = paddle.multinomial(paddle.to_tensor([1.0, 0.0, 3.0]), 4000, replacement=True).numpy()
    assert 1 not in picks  # a zero weight is never drawn
    assert abs((picks == 2).mean() - 0.75) < 0.05
    rows = paddle.multinomial(paddle.to_tensor([[1.0, 1.0, 0.0, 5.0], [2.0, 0.0, 2.0, 2.0]]), 3).numpy()
    for row, zero in zip(rows, (2, 1)):
        assert len(set(row)) == 3 and zero not in row  # without replacement: distinct, never a zero weight


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: paddle.rand([2], dtype="int32"), TypeError, "rand: dtype must be float"),
        (lambda: paddle.rand([2, -1]), ValueError, "rand: dimensions must be >= 0"),
        (lambda: paddle.rand("abc"), TypeError, "rand: shape"),
        (lambda: paddle.randint(5, 2), ValueError, "randint: low must be less than high"),
        (lambda: paddle.randint(-5), ValueError, "randint: with high=None, low must be > 0"),
        (lambda: paddle.randint(0, 5, [2], dtype="float32"), TypeError, "randint: dtype must be an integer"),
        (lambda: paddle.randperm(-1), ValueError, "randperm: n must be >= 0"),
        (lambda: paddle.randperm(2.5), TypeError, "randperm: n must be an int"),
        (lambda: paddle.normal(0.0, -1.0, [2]), ValueError, "normal: std must be >= 0"),
        (lambda: paddle.normal(0.0, 1.0), ValueError, "normal: give `shape`"),
        (lambda: paddle.normal(paddle.zeros([2]), paddle.ones([3])), ValueError, "do not broadcast"),
        (lambda: paddle.bernoulli(paddle.to_tensor([0.5, 2.0])), ValueError, "bernoulli: x holds probabilities"),
        (lambda: paddle.bernoulli(paddle.to_tensor([0, 1])), TypeError, "bernoulli: x must be a float tensor"),
        (lambda: paddle.bernoulli([0.5]), TypeError, "bernoulli: x must be a Tensor"),
        (lambda: paddle.multinomial(paddle.to_tensor([0.2, 0.8]), 3), ValueError, "without replacement"),
        (lambda: paddle.multinomial(paddle.to_tensor([-0.2, 0.8])), ValueError, "must be finite and >= 0"),
        (lambda: paddle.multinomial(paddle.to_tensor([0.0, 0.0])), ValueError, "at least one positive weight"),
        (lambda: paddle.multinomial(paddle.ones([2, 2, 2])), ValueError, "multinomial: x must be 1-D or 2-D"),
        (lambda: paddle.seed("abc"), TypeError, "seed: seed must be an int"),
        (lambda: paddle.set_rng_state(["a", "b"]), ValueError, "set_rng_state"),
        (lambda: paddle.set_cuda_rng_state([1]), ValueError, "CPU only"),
    ],
)
def test_bad_arguments_raise_clear_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_uniform_with_min_above_max_draws_between_them_as_paddle():
    out = paddle.uniform([200], min=1.0, max=0.0).numpy()  # paddle 2.6.2: min + (max - min) * u, no error
    assert ((out > 0.0) & (out <= 1.0)).all() and out.std() > 0.1
