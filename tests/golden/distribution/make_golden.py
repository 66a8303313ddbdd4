"""Record what real Paddle 2.6's paddle.distribution computes (log_prob, prob, entropy, mean, variance, kl,
cdf, transforms) and the gradients of those values with respect to the parameters, as golden cases for
tests/distribution/test_distribution_golden.py (which needs no Paddle).

Run with the reference Paddle, from outside the repo so `import paddle` finds the real one:

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/distribution/make_golden.py

Each case is a lambda written once, in source form, that both Paddle and minipaddle evaluate: its arguments
are the parameter tensors (float64 ones are differentiated), `D` is the distribution package and `T` is
to_tensor. cases.json keeps the source, the output dtype and shape; arrays.npz keeps per case the inputs
`in0`, `in1`, ..., the output `out` and the gradients `grad0`, ... of sum(out) for the float64 inputs.
"""

import json
import os
import warnings

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
f64 = np.float64
A = np.array([0.5, 1.3, 2.0])  # positive parameters, batch of 3
B = np.array([1.5, 0.7, 3.0])
LOC = np.array([-0.4, 0.0, 1.2])
P = np.array([0.2, 0.55, 0.9])  # probabilities
W = np.array([[1.0, 2.0, 3.0], [0.5, 0.25, 2.0]])  # Categorical / Multinomial weights, batch of 2
CONC = np.array([[1.5, 2.0, 0.7], [3.0, 1.0, 2.5]])  # Dirichlet concentrations
SIMPLEX = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])

# name -> (lambda source over the inputs, [input arrays])
CASES = {
    # Normal
    "normal_log_prob": ("lambda m, s: D.Normal(m, s).log_prob(T(np.array([0.3, -1.0, 2.5])))", [LOC, A]),
    "normal_probs": ("lambda m, s: D.Normal(m, s).probs(T(np.array([0.3, -1.0, 2.5])))", [LOC, A]),
    "normal_prob": ("lambda m, s: D.Normal(m, s).prob(T(np.array([0.3, -1.0, 2.5])))", [LOC, A]),
    "normal_entropy": ("lambda m, s: D.Normal(m, s).entropy()", [LOC, A]),
    "normal_mean": ("lambda m, s: D.Normal(m, s).mean", [LOC, A]),
    "normal_variance": ("lambda m, s: D.Normal(m, s).variance", [LOC, A]),
    "normal_kl": ("lambda m, s, m2, s2: D.Normal(m, s).kl_divergence(D.Normal(m2, s2))", [LOC, A, B, B]),
    "normal_kl_fn": ("lambda m, s, m2, s2: D.kl_divergence(D.Normal(m, s), D.Normal(m2, s2))", [LOC, A, B, B]),
    "normal_numbers": ("lambda: D.Normal(1, 2.0).log_prob(T(0.5))", []),
    "normal_lists": ("lambda: D.Normal([0.0, 1.0], 2.0).entropy()", []),
    "normal_numpy64": ("lambda: D.Normal(np.array([0.0, 1.0]), 2.0).log_prob(T(np.array([0.5, 0.5])))", []),
    "normal_f32_value64": ("lambda: D.Normal(0.0, 1.0).log_prob(T(np.array([0.5, 2.0])))", []),
    "normal_broadcast": ("lambda: D.Normal(T([[0.0], [1.0]]), T([1.0, 2.0, 3.0])).log_prob(T(0.5))", []),
    # Uniform
    "uniform_log_prob": ("lambda a, b: D.Uniform(a, a + b).log_prob(T(np.array([0.6, 1.0, 9.0])))", [A, B]),
    "uniform_probs": ("lambda a, b: D.Uniform(a, a + b).probs(T(np.array([0.6, 1.0, 9.0])))", [A, B]),
    "uniform_entropy": ("lambda a, b: D.Uniform(a, a + b).entropy()", [A, B]),
    "uniform_numbers": ("lambda: D.Uniform(0, 3).log_prob(T([1.0, 4.0]))", []),
    "uniform_lists": ("lambda: D.Uniform([0.0, 1.0], [2.0, 5.0]).entropy()", []),
    # Categorical
    "categorical_entropy": ("lambda w: D.Categorical(w).entropy()", [W]),
    "categorical_probs_1d": ("lambda w: D.Categorical(w[0]).probs(T([0, 2, 1]))", [W]),
    "categorical_log_prob_1d": ("lambda w: D.Categorical(w[0]).log_prob(T([[0, 2], [1, 1]]))", [W]),
    "categorical_probs_batch_1d_value": ("lambda w: D.Categorical(w).probs(T([0, 2]))", [W]),
    "categorical_probs_batch_2d_value": ("lambda w: D.Categorical(w).log_prob(T([[1], [2]]))", [W]),
    "categorical_kl": ("lambda w, v: D.Categorical(w).kl_divergence(D.Categorical(v))", [W, CONC]),
    "categorical_kl_fn": ("lambda w, v: D.kl_divergence(D.Categorical(w), D.Categorical(v))", [W, CONC]),
    "categorical_list": ("lambda: D.Categorical([1.0, 2.0, 5.0]).entropy()", []),
    # Bernoulli
    "bernoulli_log_prob": ("lambda p, v: D.Bernoulli(p).log_prob(v)", [P, np.array([1.0, 0.0, 1.0])]),
    "bernoulli_prob": ("lambda p, v: D.Bernoulli(p).prob(v)", [P, np.array([1.0, 0.0, 1.0])]),
    "bernoulli_entropy": ("lambda p: D.Bernoulli(p).entropy()", [P]),
    "bernoulli_mean": ("lambda p: D.Bernoulli(p).mean", [P]),
    "bernoulli_variance": ("lambda p: D.Bernoulli(p).variance", [P]),
    "bernoulli_cdf": ("lambda p, v: D.Bernoulli(p).cdf(v)", [P, np.array([-0.5, 0.5, 1.0])]),
    "bernoulli_kl": ("lambda p, q: D.kl_divergence(D.Bernoulli(p), D.Bernoulli(q))", [P, P[::-1].copy()]),
    "bernoulli_edges": ("lambda: D.Bernoulli(T([0.0, 1.0])).log_prob(T([0.0, 0.0]))", []),
    "bernoulli_float": ("lambda: D.Bernoulli(0.3).entropy()", []),
    # Beta
    "beta_log_prob": ("lambda a, b: D.Beta(a, b).log_prob(T(np.array([0.3, 0.5, 0.9])))", [A, B]),
    "beta_prob": ("lambda a, b: D.Beta(a, b).prob(T(np.array([0.3, 0.5, 0.9])))", [A, B]),
    "beta_entropy": ("lambda a, b: D.Beta(a, b).entropy()", [A, B]),
    "beta_mean": ("lambda a, b: D.Beta(a, b).mean", [A, B]),
    "beta_variance": ("lambda a, b: D.Beta(a, b).variance", [A, B]),
    "beta_kl": ("lambda a, b, c, d: D.kl_divergence(D.Beta(a, b), D.Beta(c, d))", [A, B, B, A]),
    "beta_numbers": ("lambda: D.Beta(2.0, 3.0).log_prob(T(0.25))", []),
    # Dirichlet
    "dirichlet_log_prob": ("lambda c: D.Dirichlet(c).log_prob(T(SIMPLEX))", [CONC]),
    "dirichlet_prob": ("lambda c: D.Dirichlet(c).prob(T(SIMPLEX))", [CONC]),
    "dirichlet_entropy": ("lambda c: D.Dirichlet(c).entropy()", [CONC]),
    "dirichlet_mean": ("lambda c: D.Dirichlet(c).mean", [CONC]),
    "dirichlet_variance": ("lambda c: D.Dirichlet(c).variance", [CONC]),
    "dirichlet_kl": ("lambda c, d: D.kl_divergence(D.Dirichlet(c), D.Dirichlet(d))", [CONC, CONC[::-1].copy()]),
    # Laplace
    "laplace_log_prob": ("lambda m, s, v: D.Laplace(m, s).log_prob(v)", [LOC, A, np.array([0.3, -1.0, 2.5])]),
    "laplace_entropy": ("lambda m, s: D.Laplace(m, s).entropy()", [LOC, A]),
    "laplace_mean_variance": ("lambda m, s: D.Laplace(m, s).mean + D.Laplace(m, s).variance", [LOC, A]),
    "laplace_stddev": ("lambda m, s: D.Laplace(m, s).stddev", [LOC, A]),
    "laplace_cdf": ("lambda m, s, v: D.Laplace(m, s).cdf(v)", [LOC, A, np.array([0.3, -1.0, 2.5])]),
    "laplace_icdf": ("lambda m, s, v: D.Laplace(m, s).icdf(v)", [LOC, A, np.array([0.3, 0.5, 0.95])]),
    "laplace_kl": ("lambda m, s, m2, s2: D.kl_divergence(D.Laplace(m, s), D.Laplace(m2, s2))", [LOC, A, B, B]),
    "laplace_numbers": ("lambda: D.Laplace(0.0, 2.0).log_prob(1.5)", []),
    # LogNormal
    "lognormal_log_prob": ("lambda m, s: D.LogNormal(m, s).log_prob(T(np.array([0.3, 1.0, 2.5])))", [LOC, A]),
    "lognormal_probs": ("lambda m, s: D.LogNormal(m, s).probs(T(np.array([0.3, 1.0, 2.5])))", [LOC, A]),
    "lognormal_entropy": ("lambda m, s: D.LogNormal(m, s).entropy()", [LOC, A]),
    "lognormal_mean": ("lambda m, s: D.LogNormal(m, s).mean", [LOC, A]),
    "lognormal_variance": ("lambda m, s: D.LogNormal(m, s).variance", [LOC, A]),
    "lognormal_kl": ("lambda m, s, m2, s2: D.kl_divergence(D.LogNormal(m, s), D.LogNormal(m2, s2))", [LOC, A, B, B]),
    # Gumbel
    "gumbel_log_prob": ("lambda m, s: D.Gumbel(m, s).log_prob(T(np.array([0.3, -1.0, 2.5])))", [LOC, A]),
    "gumbel_prob": ("lambda m, s: D.Gumbel(m, s).prob(T(np.array([0.3, -1.0, 2.5])))", [LOC, A]),
    "gumbel_cdf": ("lambda m, s: D.Gumbel(m, s).cdf(T(np.array([0.3, -1.0, 2.5])))", [LOC, A]),
    "gumbel_entropy": ("lambda m, s: D.Gumbel(m, s).entropy()", [LOC, A]),
    "gumbel_mean": ("lambda m, s: D.Gumbel(m, s).mean", [LOC, A]),
    "gumbel_variance": ("lambda m, s: D.Gumbel(m, s).variance", [LOC, A]),
    "gumbel_stddev": ("lambda m, s: D.Gumbel(m, s).stddev", [LOC, A]),
    # Cauchy
    "cauchy_log_prob": ("lambda m, s, v: D.Cauchy(m, s).log_prob(v)", [LOC, A, np.array([0.3, -1.0, 2.5])]),
    "cauchy_prob": ("lambda m, s, v: D.Cauchy(m, s).prob(v)", [LOC, A, np.array([0.3, -1.0, 2.5])]),
    "cauchy_cdf": ("lambda m, s, v: D.Cauchy(m, s).cdf(v)", [LOC, A, np.array([0.3, -1.0, 2.5])]),
    "cauchy_entropy": ("lambda m, s: D.Cauchy(m, s).entropy()", [LOC, A]),
    "cauchy_kl": ("lambda m, s, m2, s2: D.kl_divergence(D.Cauchy(m, s), D.Cauchy(m2, s2))", [LOC, A, B, B]),
    "cauchy_numbers": ("lambda: D.Cauchy(0.5, 2.0).log_prob(T([0.0, 3.0]))", []),
    # Geometric
    "geometric_pmf": ("lambda p: D.Geometric(p).pmf(T(np.array([0.0, 2.0, 5.0])))", [P]),
    "geometric_log_pmf": ("lambda p: D.Geometric(p).log_pmf(3)", [P]),
    "geometric_cdf": ("lambda p: D.Geometric(p).cdf(T(np.array([0.0, 2.0, 5.0])))", [P]),
    "geometric_entropy": ("lambda p: D.Geometric(p).entropy()", [P]),
    "geometric_mean": ("lambda p: D.Geometric(p).mean", [P]),
    "geometric_variance": ("lambda p: D.Geometric(p).variance", [P]),
    "geometric_kl": ("lambda p, q: D.kl_divergence(D.Geometric(p), D.Geometric(q))", [P, P[::-1].copy()]),
    "geometric_float": ("lambda: D.Geometric(0.25).entropy()", []),
    # Multinomial
    "multinomial_log_prob": (
        "lambda w, v: D.Multinomial(6, w).log_prob(v)",
        [W, np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 6.0]])],
    ),
    "multinomial_prob_int": ("lambda w: D.Multinomial(3, w).prob(T([1, 1, 1]))", [W]),
    "multinomial_entropy": ("lambda w: D.Multinomial(5, w).entropy()", [W]),
    "multinomial_mean": ("lambda w: D.Multinomial(5, w).mean", [W]),
    "multinomial_variance": ("lambda w: D.Multinomial(5, w).variance", [W]),
    "multinomial_zero_prob": ("lambda: D.Multinomial(3, T([0.0, 0.5, 0.5])).log_prob(T([0.0, 1.0, 2.0]))", []),
    # Independent
    "independent_log_prob": (
        "lambda m, s: D.Independent(D.Normal(m, s), 1).log_prob(T(np.array([0.3, -1.0, 2.5])))",
        [LOC, A],
    ),
    "independent_entropy": ("lambda a, b: D.Independent(D.Beta(a, b), 1).entropy()", [A, B]),
    "independent_mean": ("lambda a, b: D.Independent(D.Beta(a, b), 1).mean", [A, B]),
    # TransformedDistribution and transforms
    "td_affine_log_prob": (
        "lambda m, s: D.TransformedDistribution(D.Normal(m, s), [D.AffineTransform(T(1.0, dtype='float64'),"
        " T(2.0, dtype='float64'))]).log_prob(T(np.array([0.3, -1.0, 2.5])))",
        [LOC, A],
    ),
    "td_chain_log_prob": (
        "lambda m, s: D.TransformedDistribution(D.Normal(m, s), [D.ExpTransform(), D.PowerTransform("
        "T(2.0, dtype='float64'))]).log_prob(T(np.array([0.3, 1.0, 2.5])))",
        [LOC, A],
    ),
    "td_sigmoid_log_prob": (
        "lambda m, s: D.TransformedDistribution(D.Normal(m, s), [D.SigmoidTransform()])"
        ".log_prob(T(np.array([0.3, 0.5, 0.9])))",
        [LOC, A],
    ),
    "td_tanh_log_prob": (
        "lambda m, s: D.TransformedDistribution(D.Normal(m, s), [D.TanhTransform()])"
        ".log_prob(T(np.array([0.3, -0.5, 0.9])))",
        [LOC, A],
    ),
    "td_independent_log_prob": (
        "lambda m, s: D.TransformedDistribution(D.Independent(D.Normal(m, s), 1), [D.ExpTransform()])"
        ".log_prob(T(np.array([0.3, 1.0, 2.5])))",
        [LOC, A],
    ),
    "td_stickbreaking_log_prob": (
        "lambda m, s: D.TransformedDistribution(D.Independent(D.Normal(m[:2], s[:2]), 1), "
        "[D.StickBreakingTransform()]).log_prob(T(np.array([0.2, 0.5, 0.3])))",
        [LOC, A],
    ),
    "abs_forward": ("lambda x: D.AbsTransform().forward(x)", [LOC]),
    "affine_forward": ("lambda x, a, b: D.AffineTransform(a, b).forward(x)", [LOC, A, B]),
    "affine_inverse": ("lambda x, a, b: D.AffineTransform(a, b).inverse(x)", [LOC, A, B]),
    "affine_fldj": ("lambda x, a, b: D.AffineTransform(a, b).forward_log_det_jacobian(x)", [LOC, A, B]),
    "affine_ildj": ("lambda x, a, b: D.AffineTransform(a, b).inverse_log_det_jacobian(x)", [LOC, A, B]),
    "exp_fldj": ("lambda x: D.ExpTransform().forward_log_det_jacobian(x)", [LOC]),
    "exp_ildj": ("lambda x: D.ExpTransform().inverse_log_det_jacobian(x)", [A]),
    "power_forward": ("lambda x, p: D.PowerTransform(p).forward(x)", [A, B]),
    "power_inverse": ("lambda x, p: D.PowerTransform(p).inverse(x)", [A, B]),
    "power_fldj": ("lambda x, p: D.PowerTransform(p).forward_log_det_jacobian(x)", [A, B]),
    "sigmoid_forward": ("lambda x: D.SigmoidTransform().forward(x)", [LOC]),
    "sigmoid_inverse": ("lambda x: D.SigmoidTransform().inverse(x)", [P]),
    "sigmoid_fldj": ("lambda x: D.SigmoidTransform().forward_log_det_jacobian(x)", [LOC]),
    "tanh_forward": ("lambda x: D.TanhTransform().forward(x)", [LOC]),
    "tanh_inverse": ("lambda x: D.TanhTransform().inverse(x)", [P]),
    "tanh_fldj": ("lambda x: D.TanhTransform().forward_log_det_jacobian(x)", [LOC]),
    "softmax_forward": ("lambda x: D.SoftmaxTransform().forward(x)", [CONC]),
    "softmax_inverse": ("lambda x: D.SoftmaxTransform().inverse(x)", [SIMPLEX]),
    "stickbreaking_forward": ("lambda x: D.StickBreakingTransform().forward(x)", [CONC]),
    "stickbreaking_inverse": ("lambda x: D.StickBreakingTransform().inverse(x)", [SIMPLEX]),
    "stickbreaking_fldj": ("lambda x: D.StickBreakingTransform().forward_log_det_jacobian(x)", [CONC]),
    "chain_forward": ("lambda x: D.ChainTransform([D.ExpTransform(), D.TanhTransform()]).forward(x)", [LOC]),
    "chain_fldj": (
        "lambda x: D.ChainTransform([D.ExpTransform(), D.TanhTransform()]).forward_log_det_jacobian(x)",
        [LOC],
    ),
    "chain_inverse": ("lambda x: D.ChainTransform([D.SigmoidTransform(), D.ExpTransform()]).inverse(x)", [A + 1]),
    "independent_transform_fldj": (
        "lambda x: D.IndependentTransform(D.ExpTransform(), 1).forward_log_det_jacobian(x)",
        [CONC],
    ),
    "reshape_forward": ("lambda x: D.ReshapeTransform((3,), (3, 1)).forward(x)", [CONC]),
    "reshape_fldj": ("lambda x: D.ReshapeTransform((3,), (1, 3)).forward_log_det_jacobian(x)", [CONC]),
    "stack_forward": (
        "lambda x: D.StackTransform([D.ExpTransform(), D.TanhTransform()], 0).forward(x)",
        [CONC[:, :2].T.copy()],
    ),
    "stack_fldj": (
        "lambda x: D.StackTransform([D.ExpTransform(), D.TanhTransform()], 1).forward_log_det_jacobian(x)",
        [CONC[:, :2].copy()],
    ),
}


def evaluate(paddle_module, source, inputs, differentiate=True):
    """Evaluate a case with `paddle_module` (Paddle or minipaddle): (output, gradients of sum(output))."""
    namespace = {
        "D": paddle_module.distribution,
        "T": paddle_module.to_tensor,
        "np": np,
        "SIMPLEX": SIMPLEX,
    }
    fn = eval(source, namespace)  # noqa: S307 (our own case table)
    tensors = [paddle_module.to_tensor(a, stop_gradient=not differentiate or a.dtype != f64) for a in inputs]
    out = fn(*tensors)
    grads = []
    leaves = [t for t in tensors if not t.stop_gradient]
    if leaves and not out.stop_gradient:
        grads = paddle_module.grad([out.sum()], leaves, allow_unused=True)
    return out, grads


def record_in_child(source, inputs, path):
    """Evaluate one case in a forked child and save its arrays to `path`: Paddle 2.6 segfaults in the backward
    of some compositions (broadcast_tensors_grad), and a crash must only cost that case its gradients."""
    pid = os.fork()
    if pid == 0:
        try:
            out, grads = evaluate(paddle, source, inputs)
            arrays = {"out": out.numpy(), "dtype": np.array(str(out.dtype).replace("paddle.", ""))}
            arrays.update({f"grad{i}": g.numpy() for i, g in enumerate(grads) if g is not None})
            np.savez(path, **arrays)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return status == 0 and os.path.exists(path)


def main():
    cases, arrays = {}, {}
    warnings.simplefilter("ignore")
    tmp = os.path.join("/tmp", f"distribution_golden_{os.getpid()}.npz")
    for name, (source, inputs) in CASES.items():
        if os.path.exists(tmp):
            os.remove(tmp)
        if record_in_child(source, inputs, tmp):
            with np.load(tmp) as data:
                got = {k: data[k] for k in data.files}
            dtype = str(got.pop("dtype"))
        else:  # Paddle crashed in the backward: keep the values, no gradients
            print(f"{name}: Paddle's backward crashed; recording values only")
            out, _ = evaluate(paddle, source, inputs, differentiate=False)
            got, dtype = {"out": out.numpy()}, str(out.dtype).replace("paddle.", "")
        cases[name] = {"source": source, "dtype": dtype, "shape": list(got["out"].shape)}
        arrays.update({f"{name}/in{i}": a for i, a in enumerate(inputs)})
        arrays.update({f"{name}/{k}": v for k, v in got.items()})
    if os.path.exists(tmp):
        os.remove(tmp)
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(HERE, "arrays.npz"), **arrays)
    print(f"recorded {len(cases)} cases")


if __name__ == "__main__":
    main()
