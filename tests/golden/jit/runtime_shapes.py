"""Functions whose slices and sizes come from `paddle.shape(x)` (run-time values in a Program), converted with an
InputSpec of None batch. `functions(paddle)` makes them with the library given, so paddle 2.6.2
(make_runtime_shapes.py) and minipaddle (tests/jit/test_runtime_shapes.py) run the same code. The slicing functions
have deterministic, differentiable outputs; the creation ones return values (arange, eye, linspace) and random
tensors, whose shapes and dtypes are compared (the two generators differ). The sized_ and creation_full functions
give reshape / expand / tile / full Tensor sizes (Paddle's ShapeTensor, ShapeTensorList, expand_shapes_tensor and
repeat_times_tensor inputs)."""

BATCHES = (4, 6)


def functions(paddle) -> tuple[tuple, tuple]:
    """(SLICING, CREATION) functions written with `paddle`."""

    def slice_head(x):
        n = paddle.shape(x)[0]
        return x[: n - 1] * 2

    def slice_bounds(x):
        n = paddle.shape(x)[0]
        return x[1:n], x[n - 3 :, 1], x[:: n - 2], x[1 : n - 1, ::2]

    def slice_negative_step(x):
        n = paddle.shape(x)[0]
        return x[n - 2 :: -1], x[..., : n - 2], x[n - 1 : 0 : -2], x[: n - 3 : -1], x[-1:-n:-1]

    def set_head(x):
        n = paddle.shape(x)[0]
        y = x * 1
        y[: n - 1] = x[1:n] * 2
        return y

    def set_box(x):
        n = paddle.shape(x)[0]
        y = x * 1
        y[1:n, 2:4] = 7.0  # a Tensor bound beside a constant slice
        y[n - 2 :, ...] = y[:2] + 1
        return y

    def set_with_ints(x):
        n = paddle.shape(x)[0]
        y = x * 1
        y[: n - 1, 0] = 5.0  # an int beside a Tensor bound
        y[1:n, 2] = x[: n - 1, 3] * 10
        y[0, 1:n] = -1.0
        return y

    def slice_tensor_step(x):
        n = paddle.shape(x)[0]
        return x[:: n - 2], x[1 : n : n - 3], x[n - 1 : 0 : 3 - n], x[n - 2 : 1 - n : -1, :: n - 3]

    def set_negative_step(x):
        n = paddle.shape(x)[0]
        y = x * 1
        y[n - 2 :: -1] = x[1:n] * 2
        y[: n - 3 : -1, 1] = 9.0
        y[:: n - 2, 2:] = -3.0  # a Tensor step
        y[n - 1 : 0 : 3 - n, 3] = y[1, 0] * 10
        return y

    def set_beside_advanced(x):
        n = paddle.shape(x)[0]
        y = x * 1
        y[: n - 1, [0, 2]] = x[1:n, 3:5] * 3  # a list beside a Tensor bound
        y[1:n, [True, False, False, True, False]] = -1.0  # a mask
        y[None, : n - 2, 4] = 8.0  # None (a new axis)
        y[n - 2 :, None, 1:3] = x[0, 2:4] + 100
        return y

    def set_lists_and_masks(x):
        n = paddle.shape(x)[0]
        y = x * 1
        y[[0, 2]] = x[:2] * 3  # a list alone: paddle's index_put, nothing around it
        y[1:3, [0, 2]] = 5.0  # beside known bounds
        y[1:n, [1, -1]] = x[: n - 1, 0:2] + 10  # a negative place
        y[n - 3 :, [True, False, True, False, True]] = x[:3, 1:4] * -1  # a mask and a value of the part's shape
        y[[0, 1], 2] = 6.0  # an int beside a list
        return y

    def set_with_none(x):
        n = paddle.shape(x)[0]
        y = x * 1
        y[None, 1 : n - 1] = x[0] * 3  # None beside a Tensor bound: set_value's none_axes
        y[: n - 2, None, 3:] = -5.0
        return y

    def sized_reshape_expand_tile(x):
        n = paddle.shape(x)[0]
        column = x[:, :1]
        return (paddle.reshape(x, [n, 5, 1]), paddle.reshape(x, paddle.shape(x)), paddle.expand(column, [n, 3]),
                paddle.expand(column, paddle.shape(x)), paddle.tile(x, [n, 1]), paddle.tile(x, paddle.shape(x)[0:2]),
                paddle.broadcast_to(column, [2, paddle.shape(x)[0:1], 5]))  # fmt: skip

    def creation_values(x):
        n = paddle.shape(x)[0]
        return paddle.arange(n), paddle.arange(1, n, 2), paddle.linspace(0, 1, n), paddle.arange(n, dtype="float32")

    def creation_full(x):
        n = paddle.shape(x)[0]
        return (paddle.full([n, 2], 1.5), paddle.zeros([n, 3], "int64"), paddle.ones(paddle.shape(x), "float32"),
                paddle.full([3, n], True, "bool"), paddle.empty([n], "int32") * 0)  # fmt: skip

    def creation_eye(x):
        rows = paddle.shape(x)[0:1]
        return paddle.eye(rows), paddle.eye(rows, paddle.shape(x)[1:2])

    def creation_random(x):
        n = paddle.shape(x)[0]
        return (paddle.rand([n, 2]), paddle.randn([n]), paddle.uniform([n, 3], min=-2.0, max=2.0),
                paddle.normal(shape=[n]), paddle.randint(0, 5, [n]), paddle.standard_normal([2, n]))  # fmt: skip

    slicing = (slice_head, slice_bounds, slice_negative_step, slice_tensor_step, set_head, set_box, set_with_ints,
               set_negative_step, set_beside_advanced, set_lists_and_masks, set_with_none,
               sized_reshape_expand_tile)  # fmt: skip
    return slicing, (creation_values, creation_full, creation_eye, creation_random)


def python_readings(paddle) -> tuple:
    """Functions where minipaddle reads a slice as Python does and paddle 2.6.2 does not (not in the golden):
    going backward, a stop of -1 is Python's last index, so x[i:-1:-1] is empty (paddle reads "through index 0")."""

    def backward_to_last_index(x):
        n = paddle.shape(x)[0]
        y = x * 1
        y[n - 2 : -1 : -1] = 9.0  # writes nothing
        return x[n - 2 : -1 : -1, 1:], y, x[: n - 1 : -1, ::2], x[3:-1:-1]  # (the last: known bounds)

    return (backward_to_last_index,)


def numpy_writes(paddle) -> tuple:
    """Writes with lists where minipaddle follows numpy and paddle 2.6.2 does not (not in the golden): when the
    listed axes stay in place after a sliced one, numpy broadcasts the value to x[index]'s shape (paddle 2.6.2
    refuses a 1-D value there with a ValueError); an int beside a list that is not next to it is one more list
    (paddle takes the int first, so its axes come out in another order)."""

    def set_beside_kept_axes(x):
        n = paddle.shape(x)[0]
        y = x * 1
        y[: n - 1, [0, 2]] = paddle.to_tensor([7.0, 8.0])  # numpy: each row's columns 0 and 2 get 7 and 8
        z = paddle.unsqueeze(x * 1, 1)  # [n, 1, 5]
        z[0, :, [1, 3]] = paddle.to_tensor([[1.0], [2.0]])  # numpy: x[index] has shape [2, 1]
        z[n - 2 :, :, [4]] = -1.0
        return y, z

    return (set_beside_kept_axes,)
