"""Slices whose bounds are Tensors holding -1, 0, 1, 2, -2, -4, 4, 7 or -7 when they run, on x of 4 rows
(x[0:t], x[t:], x[t::-1], x[:t:-1], x[3:t:-1], x[t:0:-1], x[::t], x[1:3:t] and writes x[:t] = v, x[t:] = v,
x[:t:-1] = v, x[t::-1] = v). make_tensor_bounds.py records what paddle 2.6.2 gives for each, in dynamic mode and
converted by to_static (x of InputSpec [4, 3] and [None, 3], t of InputSpec [1] int64);
tests/jit/test_tensor_bounds.py checks minipaddle against it. The functions use only slicing, so paddle and
minipaddle run the same code."""

VALUES = (-1, 0, 1, 2, -2, -4, 4, 7, -7)


def head(x, t):
    return x[0:t]


def tail(x, t):
    return x[t:]


def from_t_back(x, t):
    return x[t::-1]


def to_t_back(x, t):
    return x[:t:-1]


def span_back(x, t):
    return x[3:t:-1]


def span_back_to_0(x, t):
    return x[t:0:-1]


def step(x, t):
    return x[::t]


def step_span(x, t):
    return x[1:3:t]


def write_head(x, t):
    y = x * 1
    y[:t] = -1.0
    return y


def write_tail(x, t):
    y = x * 1
    y[t:] = -1.0
    return y


def write_to_t_back(x, t):
    y = x * 1
    y[:t:-1] = -1.0
    return y


def write_from_t_back(x, t):
    y = x * 1
    y[t::-1] = -1.0
    return y


FUNCTIONS = (head, tail, from_t_back, to_t_back, span_back, span_back_to_0, step, step_span, write_head, write_tail,
             write_to_t_back, write_from_t_back)  # fmt: skip
