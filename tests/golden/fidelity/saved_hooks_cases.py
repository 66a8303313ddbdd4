"""paddle.autograd.saved_tensors_hooks, run with either library (`paddle` passed in): which tensors each op packs
(shape, dtype, values), how many backward unpacks, and the gradients, also when unpack_hook gives back other values;
make_saved_hooks_golden.py records run_all(paddle 2.6) into saved_hooks.json, tests/autograd/test_saved_tensors_hooks.py
compares."""

A = [[1.0, 2.0], [3.0, 4.0]]
B = [[0.5, -1.0], [2.0, 1.5]]


def _grad(t):
    return None if t.grad is None else t.grad.numpy().tolist()


def _recorded(paddle, f):
    """Run f(a, b) inside the hooks and backward from its sum: what was packed, unpacked, and the gradients."""
    log = []

    def pack(x):
        log.append(["pack", list(x.shape), str(x.dtype).replace("paddle.", ""), x.numpy().round(4).tolist()])
        return x.numpy()

    def unpack(x):
        log.append(["unpack", list(x.shape)])
        return paddle.to_tensor(x)

    a = paddle.to_tensor(A, stop_gradient=False)
    b = paddle.to_tensor(B, stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        y = f(a, b)
    packed = list(log)
    log.clear()
    y.sum().backward()
    return {"pack": packed, "unpack": list(log), "grad_a": _grad(a), "grad_b": _grad(b)}


def _pylayer(paddle):
    class Multiply(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, dy):
            a, b = ctx.saved_tensor()
            return dy * b, dy * a

    return Multiply


def run_all(paddle):
    F = paddle.nn.functional
    out = {
        "multiply": _recorded(paddle, paddle.multiply),
        "add": _recorded(paddle, paddle.add),
        "matmul": _recorded(paddle, paddle.matmul),
        "tanh": _recorded(paddle, lambda a, b: paddle.tanh(a)),
        "exp": _recorded(paddle, lambda a, b: paddle.exp(a)),
        "relu": _recorded(paddle, lambda a, b: F.relu(paddle.subtract(a, b))),
        "sigmoid": _recorded(paddle, lambda a, b: F.sigmoid(a)),
        "pylayer": _recorded(paddle, _pylayer(paddle).apply),
    }

    # unpack_hook's values are what the gradient is computed from
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(lambda x: x.numpy(), lambda x: paddle.to_tensor(x * 10)):
        y = paddle.multiply(a, b)
    y.sum().backward()
    out["unpack_scaled"] = {"grad_a": _grad(a), "grad_b": _grad(b)}

    # outside the block, and where no gradient is recorded, nothing is packed
    calls = []
    with paddle.autograd.saved_tensors_hooks(lambda x: calls.append(1) or x, lambda x: x):
        pass
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    paddle.multiply(a, a).sum().backward()
    with paddle.autograd.saved_tensors_hooks(lambda x: calls.append(1) or x, lambda x: x):
        paddle.multiply(paddle.to_tensor([1.0]), paddle.to_tensor([2.0]))
    out["packs_outside_or_without_grad"] = len(calls)
    return out
