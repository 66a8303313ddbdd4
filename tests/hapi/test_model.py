"""paddle.Model beyond what the goldens show: argument errors, gradient accumulation, num_iters, data without a
length, the inference model, load's error paths."""

from __future__ import annotations

import os

import numpy as np
import pytest

import minipaddle as paddle
from tests.hapi.workload import X, Y, dataset, mlp, model


def _params(m) -> list:
    return [p.numpy().copy() for p in m.parameters()]


def test_network_must_be_a_layer():
    with pytest.raises(TypeError, match="network must be a paddle.nn.Layer"):
        paddle.Model(lambda x: x)


def test_prepare_checks_loss_and_metrics():
    m = paddle.Model(mlp())
    with pytest.raises(TypeError, match="'loss' must be"):
        m.prepare(loss="cross_entropy")
    with pytest.raises(TypeError, match="is not sub class of Metric"):
        m.prepare(metrics=["acc"])


def test_train_batch_needs_prepare_and_fit_needs_data():
    m = paddle.Model(mlp())
    with pytest.raises(RuntimeError, match="call `model.prepare\\(\\)` first"):
        m.train_batch([X[:4]], [Y[:4]])
    with pytest.raises(ValueError, match="train_data must be given"):
        model().fit()
    with pytest.raises(ValueError, match="batch_size"):
        model().fit(dataset(), batch_size=0)


def test_inputspec_without_name_is_refused():
    with pytest.raises(ValueError, match=r"Requires Input\[0\].name != None"):
        paddle.Model(mlp(), inputs=[paddle.static.InputSpec([None, 4], "float32")])


def test_eval_batch_without_loss_returns_metrics():
    m = paddle.Model(mlp())
    m.prepare(metrics=paddle.metric.Accuracy())
    (acc,) = m.eval_batch([X[:10]], [Y[:10]])
    assert 0.0 <= acc <= 1.0


def test_accumulation_equals_summed_gradients():
    """accumulate_grad_batches=2: the optimizer steps once, on the gradients of two batches added up."""
    paddle.seed(3)
    a = model()
    b = model()
    b.network.set_state_dict(a.network.state_dict())
    a.fit(dataset(20), batch_size=10, epochs=1, verbose=0, shuffle=False, accumulate_grad_batches=2)
    # b: one step on the sum of the two batch losses' gradients
    for lo in (0, 10):
        logits = b.network(paddle.to_tensor(X[lo : lo + 10]))
        paddle.nn.functional.cross_entropy(logits, paddle.to_tensor(Y[lo : lo + 10])).backward()
    b._optimizer.step()
    for pa, pb in zip(_params(a), _params(b)):
        np.testing.assert_allclose(pa, pb, rtol=1e-5, atol=1e-6)


def test_num_iters_stops_after_that_many_batches():
    m = model()
    m.fit(dataset(), batch_size=10, epochs=5, verbose=0, num_iters=6)
    assert [r["global_step"] for r in m.history.train_steps] == [1, 2, 3, 4, 5, 6]
    h = paddle.callbacks.History()
    m.evaluate(dataset(), batch_size=10, verbose=0, num_iters=2, callbacks=[h])
    assert h.evals[0]["samples"] == 20


def test_fit_again_after_early_stopping_trains_again():
    m = model(lr=3.0)
    es = paddle.callbacks.EarlyStopping(monitor="loss", patience=0, save_best_model=False, verbose=0)
    m.fit(dataset(), dataset(), batch_size=40, epochs=5, verbose=0, callbacks=[es])
    m.fit(dataset(), batch_size=40, epochs=2, verbose=0)
    assert len(m.history.train_epochs) == 2


class _Stream(paddle.io.IterableDataset):
    def __iter__(self):
        for i in range(0, 40, 10):
            yield X[i : i + 10], Y[i : i + 10]


def test_data_without_a_length_prints_step_counts():
    m = model()
    loader = paddle.io.DataLoader(_Stream(), batch_size=None)
    m.fit(loader, epochs=1, verbose=0)
    assert len(m.history.train_steps) == 4
    out = m.predict(loader, stack_outputs=True, verbose=0)
    assert out[0].shape == (40, 3)


def test_verbose3_adds_timings(capsys):
    model().fit(dataset(), batch_size=20, epochs=1, verbose=3, log_freq=1, shuffle=False)
    line = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("step 1/2")][0]
    assert " - avg_reader_cost: " in line and " sec - avg_batch_cost: " in line and " samples/sec - " in line


def test_callbacks_must_be_callbacks():
    with pytest.raises(TypeError, match="paddle.callbacks.Callback"):
        model().fit(dataset(), verbose=0, callbacks=[print])


# ---- saving ----


def test_save_inference_model_runs_in_an_executor(tmp_path):
    spec = paddle.static.InputSpec([None, 4], "float32", "x")
    m = model(inputs=[spec])
    m.fit(dataset(), batch_size=20, epochs=1, verbose=0)
    prefix = str(tmp_path / "infer" / "mlp")
    m.save(prefix, training=False)
    assert sorted(os.listdir(tmp_path / "infer")) == ["mlp.pdiparams", "mlp.pdmodel", "mlp.pdset"]  # a set
    assert m.network.training  # put back in training mode, with its own parameters
    assert all(type(p).__name__ == "Parameter" for p in m.network.parameters())
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        (out,) = exe.run(program, feed={feeds[0]: X[:5]}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    assert feeds == ["x"]
    np.testing.assert_allclose(out, m.predict_batch([X[:5]])[0], rtol=1e-6)


def test_inference_save_needs_shapes(tmp_path):
    m = model()
    with pytest.raises(RuntimeError, match="Saving inference model needs 'inputs'"):
        m.save(str(tmp_path / "m"), training=False)
    m.train_batch([X[:4]], [Y[:4]])  # now the input shape is known, with a warning that it was guessed
    with pytest.warns(UserWarning, match="The input shape to be saved is \\[\\[4, 4\\]\\]"):
        m.save(str(tmp_path / "m"), training=False)
    assert os.path.exists(tmp_path / "m.pdmodel")


def test_save_needs_a_file_prefix(tmp_path):
    with pytest.raises(ValueError, match="file_prefix is empty"):
        model().save(str(tmp_path) + "/")


def test_load_errors(tmp_path):
    m = model()
    with pytest.raises(FileNotFoundError, match="Failed to load parameters"):
        m.load(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="unknown postfix .pt"):
        m.load(str(tmp_path / "m.pt"))


def test_load_accepts_each_suffix(tmp_path):
    a = model()
    a.fit(dataset(), batch_size=20, epochs=1, verbose=0)
    a.save(str(tmp_path / "m"))
    for suffix in ("", ".pdparams", ".pdopt", ".pdmodel"):
        b = model()
        b.load(str(tmp_path / "m") + suffix)
        for pa, pb in zip(_params(a), _params(b)):
            np.testing.assert_array_equal(pa, pb)


def test_model_summary_needs_a_size():
    with pytest.raises(ValueError, match="'input_size' or the Model's 'inputs'"):
        model().summary()
    assert model().summary((1, 4)) == {"total_params": 67, "trainable_params": 67}
