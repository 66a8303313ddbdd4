"""A first look at minipaddle: learn y = 3x + 2 with autograd and a hand-written training loop.

Run it with `make tour`. It is plain Paddle 2.x code: swap the import for `import paddle` and it runs the same.
"""

import numpy as np

import minipaddle as paddle

# Two tensors of data: 32 points on the line y = 3x + 2.
x = paddle.to_tensor(np.linspace(-1.0, 1.0, 32).astype("float32"))
y = x * 3.0 + 2.0

# The parameters start at zero. stop_gradient=False asks autograd to compute their gradients.
w = paddle.to_tensor(0.0, stop_gradient=False)
b = paddle.to_tensor(0.0, stop_gradient=False)

learning_rate = 0.2
for step in range(61):
    pred = w * x + b
    error = pred + y * -1.0  # pred - y
    loss = (error * error).mean()  # mean squared error

    loss.backward()  # fills w.grad and b.grad with d(loss)/dw and d(loss)/db

    # One step of gradient descent. no_grad: the update itself is not part of the model to differentiate.
    with paddle.no_grad():
        w = paddle.to_tensor(w + w.grad * -learning_rate, stop_gradient=False)
        b = paddle.to_tensor(b + b.grad * -learning_rate, stop_gradient=False)

    if step % 5 == 0:
        print(f"step {step:3d}   loss {loss.item():.6f}")

print(f"learned w = {w.item():.4f} (true 3), b = {b.item():.4f} (true 2)")
