"""Losses at the edges, written once and run with either library (`paddle` passed in): which label gets a gradient,
cross-entropy and softmax on extreme logits (paddle floors the shifted logits at -64), cross-entropy without softmax
of a zero probability, and a textbook MLP trained with SGD at lr 0.5 that goes to huge losses unless the loss is
bounded as paddle's. make_loss_golden.py records run_all(paddle 2.6) into losses.json."""

import numpy as np


def label_gradients(paddle):
    """For each loss: None where the label gets no gradient, else the gradient of sum(loss) w.r.t. the label."""
    F = paddle.nn.functional
    rng = np.random.default_rng(0)
    logits = paddle.to_tensor(rng.normal(size=(3, 4)), stop_gradient=False)
    soft = paddle.to_tensor(np.full((3, 4), 0.25), stop_gradient=False)
    prob = paddle.to_tensor(rng.uniform(0.1, 0.9, size=(3, 4)), stop_gradient=False)
    label = paddle.to_tensor(rng.uniform(0, 1, size=(3, 4)), stop_gradient=False)
    log_prob = paddle.to_tensor(np.log(rng.dirichlet(np.ones(4), size=3)), stop_gradient=False)
    soft_teacher = paddle.to_tensor(rng.dirichlet(np.ones(4), size=3), stop_gradient=False)
    cases = {
        "cross_entropy_soft": (lambda: F.cross_entropy(logits, soft, soft_label=True), soft),
        "cross_entropy_soft_none": (lambda: F.cross_entropy(logits, soft, soft_label=True, reduction="none"), soft),
        "softmax_with_cross_entropy_soft": (lambda: F.softmax_with_cross_entropy(logits, soft, soft_label=True), soft),
        "CrossEntropyLoss_soft": (lambda: paddle.nn.CrossEntropyLoss(soft_label=True)(logits, soft), soft),
        "binary_cross_entropy": (lambda: F.binary_cross_entropy(prob, label), label),
        "BCELoss": (lambda: paddle.nn.BCELoss()(prob, label), label),
        "binary_cross_entropy_with_logits": (lambda: F.binary_cross_entropy_with_logits(logits, label), label),
        "BCEWithLogitsLoss": (lambda: paddle.nn.BCEWithLogitsLoss()(logits, label), label),
        "sigmoid_focal_loss": (lambda: F.sigmoid_focal_loss(logits, label), label),
        "mse_loss": (lambda: F.mse_loss(prob, label), label),
        "smooth_l1_loss": (lambda: F.smooth_l1_loss(prob, label), label),
        "kl_div": (lambda: F.kl_div(log_prob, soft_teacher), soft_teacher),
        "kl_div_batchmean": (lambda: F.kl_div(log_prob, soft_teacher, reduction="batchmean"), soft_teacher),
        "KLDivLoss_none": (lambda: paddle.nn.KLDivLoss(reduction="none")(log_prob, soft_teacher), soft_teacher),
        "kl_div_input": (lambda: F.kl_div(log_prob, soft_teacher, reduction="batchmean"), log_prob),
    }
    cases.update(more_label_gradients(paddle, rng, prob, label))
    out = {}
    for name, (fn, wrt) in cases.items():
        (g,) = paddle.grad(fn().sum(), [wrt], allow_unused=True)
        out[name] = None if g is None else np.round(g.numpy(), 6).tolist()
    return out


def more_label_gradients(paddle, rng, prob, label):
    """The other losses with a float label or target (paddle 2.6 differentiates all of these through it)."""
    F = paddle.nn.functional
    sign = paddle.to_tensor(np.sign(rng.normal(size=(3, 4))), stop_gradient=False)
    pos, neg = (paddle.to_tensor(rng.normal(size=(3, 4)), stop_gradient=False) for _ in range(2))
    var = paddle.to_tensor(rng.uniform(0.5, 1, size=(3, 4)), stop_gradient=False)
    pair = paddle.to_tensor(np.sign(rng.normal(size=(3,))), stop_gradient=False)
    return {
        "l1_loss": (lambda: F.l1_loss(prob, label), label),
        "square_error_cost": (lambda: F.square_error_cost(prob, label), label),
        "margin_ranking_loss": (lambda: F.margin_ranking_loss(prob, label, sign), sign),
        "hinge_embedding_loss": (lambda: F.hinge_embedding_loss(prob, sign), sign),
        "soft_margin_loss": (lambda: F.soft_margin_loss(prob, sign), sign),
        "multi_label_soft_margin_loss": (lambda: F.multi_label_soft_margin_loss(prob, label), label),
        "poisson_nll_loss": (lambda: F.poisson_nll_loss(prob, label), label),
        "gaussian_nll_loss": (lambda: F.gaussian_nll_loss(prob, label, var), label),
        "gaussian_nll_loss_variance": (lambda: F.gaussian_nll_loss(prob, label, var), var),
        "cosine_embedding_loss": (lambda: F.cosine_embedding_loss(prob, label, pair), pair),
        "triplet_margin_loss_positive": (lambda: F.triplet_margin_loss(prob, pos, neg), pos),
        "sigmoid_focal_loss_no_normalizer": (lambda: F.sigmoid_focal_loss(pos, label, normalizer=None), label),
        "bce_with_logits_pos_weight": (lambda: F.binary_cross_entropy_with_logits(pos, label, pos_weight=var[0]), var),
        "binary_cross_entropy_weight": (lambda: F.binary_cross_entropy(prob, label, weight=var), var),
        "smooth_l1_loss_delta": (lambda: F.smooth_l1_loss(prob, label, delta=0.5), label),
        "cross_entropy_weight": (lambda: F.cross_entropy(pos, paddle.to_tensor([0, 1, 2]), weight=var[0]), var),
    }


def extreme_logits(paddle):
    F = paddle.nn.functional
    out = {}
    for dt in ("float32", "float64"):
        big = paddle.to_tensor(np.array([[2000.0, 0.0, -2000.0], [0.0, 0.0, 0.0], [30.0, 0.0, -30.0]], dt),
                               stop_gradient=False)  # fmt: skip
        loss = F.cross_entropy(big, paddle.to_tensor(np.array([2, 0, 2])), reduction="none")
        (grad,) = paddle.grad(loss.sum(), [big])
        weights = paddle.to_tensor(np.array([[1.0, 2.0, 3.0]] * 3, dt))
        (g_log_softmax,) = paddle.grad((F.log_softmax(big) * weights).sum(), [big])
        (g_softmax,) = paddle.grad((F.softmax(big) * weights).sum(), [big])
        soft = F.cross_entropy(big, paddle.to_tensor(np.array([[0.0, 0.0, 1.0]] * 3, dt)), soft_label=True,
                               reduction="none")  # fmt: skip
        out[dt] = {
            "loss": loss.numpy().ravel().tolist(), "grad": grad.numpy().tolist(),
            "soft_loss": soft.numpy().ravel().tolist(),
            "softmax": F.softmax(big).numpy().tolist(), "log_softmax": F.log_softmax(big).numpy().tolist(),
            "log_softmax_axis0": F.log_softmax(big, axis=0).numpy().tolist(),
            "g_log_softmax": g_log_softmax.numpy().tolist(), "g_softmax": g_softmax.numpy().tolist(),
        }  # fmt: skip
    p = paddle.to_tensor(np.array([[1.0, 0.0, 0.0]], "float32"))
    out["no_softmax_zero_prob"] = F.cross_entropy(p, paddle.to_tensor([2]), use_softmax=False,
                                                  reduction="none").numpy().ravel().tolist()  # fmt: skip
    return out


def textbook_mlp(paddle, epochs=3):
    """784-256-10 with a hand-written dropout (mask from a comparison, astype, division), CrossEntropyLoss
    (reduction='none') and SGD at lr 0.5 on inputs of scale 3: the mean and max loss of each step's batch."""
    rng = np.random.default_rng(0)
    X = (rng.normal(size=(128, 784)) * 3).astype("float32")
    Y = rng.integers(0, 10, size=(128, 1)).astype("int64")
    U = rng.uniform(size=(epochs * 4, 32, 256)).astype("float32")  # the dropout draws, the same for both libraries
    W1 = paddle.to_tensor(rng.normal(0, 0.01, (784, 256)).astype("float32"), stop_gradient=False)
    b1 = paddle.to_tensor(np.zeros(256, "float32"), stop_gradient=False)
    W2 = paddle.to_tensor(rng.normal(0, 0.01, (256, 10)).astype("float32"), stop_gradient=False)
    b2 = paddle.to_tensor(np.zeros(10, "float32"), stop_gradient=False)
    loss_fn = paddle.nn.CrossEntropyLoss(reduction="none")
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[W1, b1, W2, b2])
    means, maxes = [], []
    for step in range(epochs * 4):
        i = (step % 4) * 32
        x, y = paddle.to_tensor(X[i : i + 32]), paddle.to_tensor(Y[i : i + 32])
        h = paddle.nn.functional.relu(paddle.matmul(x, W1) + b1)
        mask = (paddle.to_tensor(U[step]) > 0.5).astype("float32")
        h = h * mask / (1.0 - 0.5)
        loss = loss_fn(paddle.matmul(h, W2) + b2, y)
        loss.mean().backward()
        opt.step()
        opt.clear_grad()
        means.append(float(loss.mean()))
        maxes.append(float(loss.max()))
    return {"mean": means, "max": maxes}


def hsigmoid_paths(paddle):
    """hsigmoid_loss of the default tree for label sets whose largest class is below num_classes - 1 (every path is
    read over the tree's depth, so a short one adds log(2) per missing node), and of a custom tree."""
    rng = np.random.default_rng(1)
    x = paddle.to_tensor(rng.normal(size=(3, 4)))
    w = paddle.to_tensor(rng.normal(size=(5, 4)))
    b = paddle.to_tensor(rng.normal(size=(5, 1)))
    out = {}
    for labels in ([0, 1, 1], [0, 5, 2], [3, 3, 3], [4, 0, 1]):
        loss = paddle.nn.functional.hsigmoid_loss(x, paddle.to_tensor(labels), 6, w, b)
        out[str(labels)] = np.round(loss.numpy().ravel(), 6).tolist()
    table = paddle.to_tensor([[0, 1, -1], [0, 2, 4], [3, -1, -1]])
    code = paddle.to_tensor([[1, 0, 0], [0, 1, 1], [1, 0, 0]])
    loss = paddle.nn.functional.hsigmoid_loss(x, paddle.to_tensor([0, 1, 2]), 6, w, b, path_table=table, path_code=code)
    out["custom"] = np.round(loss.numpy().ravel(), 6).tolist()
    return out


def run_all(paddle):
    return {"label_gradients": label_gradients(paddle), "extreme_logits": extreme_logits(paddle),
            "textbook_mlp": textbook_mlp(paddle), "hsigmoid_paths": hsigmoid_paths(paddle)}  # fmt: skip
