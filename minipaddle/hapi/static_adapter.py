"""paddle.Model under `paddle.enable_static()`: the static adapter (Paddle's hapi StaticGraphAdapter).

In static mode the network's Layers hold Variables, not values, so Model cannot run a batch by calling them.
Instead `prepare` builds three Programs once, as Paddle's adapter does:

    train   inputs -> network -> loss, metrics' compute -> optimizer.minimize(loss)   (backward + update ops;
            with amp_configs the optimizer is wrapped by paddle.static.amp.decorate, as Paddle's adapter does)
    eval    inputs -> network -> loss, metrics' compute                                (a for_test clone)
    test    inputs -> network -> outputs                                               (a for_test clone)

and runs the startup Program once for the values not yet in the global Scope. Each `train_batch` / `eval_batch` /
`predict_batch` is then one `Executor.run` of its Program, fed the batch and fetching the losses and what the
metrics need; the metrics are updated on the fetched arrays. Parameters and optimizer state live in the global
Scope; `save` and `load` read and write them there, in the same files as dynamic mode's Model.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core.tensor import Tensor
from minipaddle.framework.io import save_writer
from minipaddle.static import executor as static_executor
from minipaddle.static.files import write_file_set
from minipaddle.static.input import InputSpec
from minipaddle.static.input import data as static_data
from minipaddle.static.io import save_inference_model
from minipaddle.static.master_weights import restart_master_weights
from minipaddle.static.program import default_main_program, default_startup_program, program_guard
from minipaddle.tensor.math import add_n

__all__ = ["StaticGraphAdapter"]

MODES = ("train", "eval", "test")


def _to_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _feed_value(x) -> np.ndarray:
    return x.numpy() if isinstance(x, Tensor) else np.asarray(x)


class StaticGraphAdapter:
    """Runs a Model's batches as Programs (see the module docstring)."""

    def __init__(self, model) -> None:
        self.model = model
        self._startup = default_startup_program()  # where the network's parameters were declared
        self._orig = default_main_program()
        self._progs: dict = {}
        self._inputs: dict = {}
        self._labels: dict = {}
        self._endpoints: dict = {}
        self._executor = None

    # ---- building ----

    def prepare(self) -> None:
        self._progs.clear()
        for mode in MODES:
            self._make_program(mode)
        self._initialize()

    def _make_program(self, mode: str) -> None:
        model = self.model
        prog = self._orig.clone()
        if mode != "train":  # (ops of the user's main program, e.g. a learning-rate schedule, run in train only)
            del prog.global_block().ops[:]
        losses, metrics = [], []
        with program_guard(prog, self._startup):
            inputs = [_feed(spec) for spec in model._inputs]
            labels = [_feed(spec) for spec in model._labels]
            outputs = _to_list(model.network.forward(*inputs))  # (forward, as Paddle's adapter calls it)
            if mode != "test" and model._loss:
                losses = _to_list(model._loss(*(outputs + labels)))
            if mode != "test":
                metrics = [_to_list(m.compute(*(outputs + labels))) for m in model._metrics]
            if mode == "train" and model._optimizer is not None:
                amp = getattr(model, "_amp", None)
                optimizer = amp.static_decorate(model._optimizer) if amp is not None and amp.enabled else None
                (optimizer or model._optimizer).minimize(add_n(losses))
        if mode != "train":
            prog = prog.clone(for_test=True)  # dropout off, batch norm on its running statistics
        self._progs[mode] = prog
        self._inputs[mode], self._labels[mode] = inputs, labels
        self._endpoints[mode] = {"output": outputs, "loss": losses, "metric": metrics}

    def _initialize(self) -> None:
        """Run the startup Program for the persistable values the global Scope does not hold yet (the network's
        weights may have been set already: they are kept)."""
        if self._executor is None:
            self._executor = static_executor.Executor()
        scope = static_executor.global_scope()
        fresh = static_executor.Scope()
        with static_executor.scope_guard(fresh):
            self._executor.run(self._startup)
        kept = [name for name in fresh.vars if name in scope.vars]
        for name, value in fresh.vars.items():
            if name not in scope.vars:
                scope.vars[name] = value
        self._restart_master_weights(kept)  # (a master the startup made from a parameter value not kept)

    def _restart_master_weights(self, written) -> None:
        """Parameters written into the Scope after the startup Program restart their float32 master weights, as
        the static loads do (static/master_weights.py)."""
        if "train" in self._progs:
            restart_master_weights(self._progs["train"], static_executor.global_scope(), written)

    # ---- one batch ----

    def train_batch(self, inputs, labels=None, update: bool = True):
        if self.model._optimizer is None:
            raise RuntimeError("model not ready, please call `model.prepare()` first")
        if not update:
            raise NotImplementedError("Model.train_batch: update=False is not supported in static mode (as Paddle)")
        self.model.mode = "train"
        return self._run(inputs, labels)

    def eval_batch(self, inputs, labels=None):
        self.model.mode = "eval"
        return self._run(inputs, labels)

    def predict_batch(self, inputs):
        self.model.mode = "test"
        return self._run(inputs, None)

    def _run(self, inputs, labels=None):
        mode = self.model.mode
        if mode not in self._progs:
            raise RuntimeError("Model is not ready, please call `model.prepare()` first")
        inputs, labels = _to_list(inputs), _to_list(labels)
        if len(inputs) != len(self._inputs[mode]):
            raise ValueError(
                f"Model.{mode}_batch: {len(inputs)} inputs given but the network takes {len(self._inputs[mode])}"
            )
        feed = {v.name: _feed_value(x) for v, x in zip(self._inputs[mode], inputs) if x is not None}
        if mode != "test":
            feed.update({v.name: _feed_value(y) for v, y in zip(self._labels[mode], labels)})
        ends = self._endpoints[mode]
        if mode == "test":
            fetch = ends["output"]
        else:
            metric_vars = [v for group in ends["metric"] for v in group]
            fetch = ends["loss"] + metric_vars
        values = self._executor.run(self._progs[mode], feed=feed, fetch_list=fetch)
        values = [np.asarray(v) for v in values]
        if mode == "test":
            return values
        n_loss = len(ends["loss"])
        metrics, k = [], n_loss
        for metric, group in zip(self.model._metrics, ends["metric"]):
            metrics.append(metric.update(*values[k : k + len(group)]))
            k += len(group)
        if n_loss and metrics:
            return values[:n_loss], metrics
        return values[:n_loss] if n_loss else metrics

    # ---- state ----

    def parameters(self, *args, **kwargs) -> list:
        return self.model.network.parameters(*args, **kwargs)

    def _optimizer_vars(self) -> list:
        """The optimizer's persistable state in the train Program (accumulators, step counters): every persistable
        variable that is not one of the network's parameters or buffers, nor a learning rate the Executor sets."""
        prog = self._progs.get("train")
        if prog is None or self.model._optimizer is None:
            return []
        own = {v.name for v in self.model.network.state_dict().values()}
        lr = {name for name, _ in prog.lr_feeds}
        return sorted(
            v.name
            for v in prog.global_block().vars.values()
            if v.persistable and v.name not in own and v.name not in lr and not v.name.startswith(("feed", "fetch"))
        )

    def save(self, prefix: str) -> None:
        """`prefix.pdparams` (the network's state_dict, by structured name) and `prefix.pdopt` (the optimizer's
        variables by name), read from the global Scope, written as one set."""
        scope = static_executor.global_scope()
        params = {key: np.array(scope.vars[v.name]) for key, v in self.model.network.state_dict().items()}
        files = {".pdparams": save_writer(params)}
        optim = {name: np.array(scope.vars[name]) for name in self._optimizer_vars() if name in scope.vars}
        if optim:
            files[".pdopt"] = save_writer(optim)
        write_file_set(prefix, files, absent=() if optim else (".pdopt",), what="Model.save")

    def load(self, param_state_pairs: list, optim_state) -> None:
        """Put the loaded values into the global Scope: each parameter's under its Variable's name, the
        optimizer's under theirs (state saved by a static Model; a dynamic Model's optimizer state has other
        names and is refused)."""
        scope = static_executor.global_scope()
        for param, state in param_state_pairs:
            scope.vars[param.name] = np.array(state, dtype=param.dtype.np)
        if not optim_state or self.model._optimizer is None:
            self._restart_master_weights([param.name for param, _ in param_state_pairs])
            return
        wanted = self._optimizer_vars()
        missing = [name for name in wanted if name not in optim_state]
        if missing:
            raise ValueError(
                f"Model.load: the optimizer state file has no value for {missing[:3]} (static mode names the "
                "optimizer's variables by Program variable; state saved by a dynamic-mode Model does not match: "
                "load with reset_optimizer=True)"
            )
        for name in wanted:
            scope.vars[name] = np.array(optim_state[name])
        self._restart_master_weights([param.name for param, _ in param_state_pairs])

    def save_inference_model(self, prefix: str) -> None:
        """The test Program, pruned to the outputs, with the parameters from the global Scope."""
        if "test" not in self._progs:
            raise RuntimeError("Model is not ready, please call `model.prepare()` first")
        save_inference_model(prefix, self._inputs["test"], self._endpoints["test"]["output"], self._executor,
                             program=self._progs["test"])  # fmt: skip


def _feed(spec: InputSpec):
    return static_data(spec.name, spec.shape, spec.dtype)
