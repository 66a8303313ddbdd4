"""`paddle.Model`: the training loop written once, so that training a network takes ten lines.

    model = paddle.Model(paddle.vision.models.LeNet())
    model.prepare(paddle.optimizer.Adam(parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy())
    model.fit(train_dataset, eval_dataset, epochs=2, batch_size=64)
    model.evaluate(eval_dataset)

Inside, every batch goes the same way (`train_batch`): forward, loss, backward, optimizer step, clear the
gradients, update the metrics. `fit` runs the batches of a DataLoader, epoch after epoch, and calls the
callbacks (hapi/callbacks.py) around each step: they print the progress, save checkpoints, step the learning
rate schedule, stop early, and record the History that plots read (hapi/history.py).

In dynamic mode each batch runs the Layers directly (Paddle's DynamicGraphAdapter); `save(path, training=False)`
still writes a static inference model (hapi/inference_model.py). A Model made under `paddle.enable_static()`
hands its batches, saving and loading to the static adapter (hapi/static_adapter.py), which builds train, eval
and test Programs in `prepare` and runs them with an Executor, as Paddle's StaticGraphAdapter does.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import warnings

import numpy as np

from minipaddle.core.state import STATE, no_grad
from minipaddle.core.tensor import Tensor
from minipaddle.framework.io import load as load_file
from minipaddle.framework.io import save_writer
from minipaddle.hapi.amp_configs import AmpTraining
from minipaddle.hapi.callbacks import EarlyStopping, config_callbacks
from minipaddle.hapi.history import History
from minipaddle.hapi.inference_model import save_inference_model
from minipaddle.hapi.model_summary import summary
from minipaddle.hapi.static_adapter import StaticGraphAdapter
from minipaddle.io import DataLoader, Dataset, DistributedBatchSampler
from minipaddle.metric import Metric
from minipaddle.nn import Layer
from minipaddle.static.files import check_file_set, write_file_set
from minipaddle.static.input import InputSpec
from minipaddle.tensor.creation import to_tensor
from minipaddle.tensor.math import add_n

__all__ = ["Model"]


def _to_list(value) -> list | None:
    if value is None:
        return None
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _to_numpy(value) -> np.ndarray:
    return value.numpy() if isinstance(value, Tensor) else np.asarray(value)


def _as_tensor(value) -> Tensor:
    return value if isinstance(value, Tensor) else to_tensor(value)


def _flatten(data) -> list:
    """A batch (a list, tuple or dict, maybe nested) as a flat list of its fields, as paddle.utils.flatten."""
    if isinstance(data, (list, tuple)):
        return [x for item in data for x in _flatten(item)]
    if isinstance(data, dict):
        return [x for key in sorted(data) for x in _flatten(data[key])]
    return [data]


def _length(loader):
    """len(loader), or None for data without a length (an IterableDataset)."""
    try:
        return len(loader)
    except TypeError:
        return None


class Model:
    """Wraps a network (a Layer) with its loss, optimizer and metrics, and trains, evaluates, predicts, saves and
    loads it.

    Args:
        network: the Layer to train.
        inputs: the network's inputs, a list of paddle.static.InputSpec (needed to save an inference model;
            default: one spec per parameter of `network.forward`).
        labels: the labels, a list of InputSpec (or a dict by name). Only their number matters here: each batch
            is split into `len(inputs)` inputs and the labels after them.

    Example:
        >>> net = paddle.vision.models.LeNet()
        >>> model = paddle.Model(net, inputs=[paddle.static.InputSpec([None, 1, 28, 28], 'float32', 'image')])
        >>> model.prepare(paddle.optimizer.Adam(parameters=net.parameters()), paddle.nn.CrossEntropyLoss(),
        ...               paddle.metric.Accuracy())
        >>> model.fit(train_dataset, epochs=1, batch_size=64)
    """

    def __init__(self, network, inputs=None, labels=None):
        if not isinstance(network, Layer):
            raise TypeError(f"Model: network must be a paddle.nn.Layer, got {type(network).__name__}")
        if STATE.static_mode and not isinstance(inputs, (list, tuple, dict, InputSpec)):
            raise TypeError("'inputs' must be list or tuple or dict, and couldn't be None.")  # (Paddle's words)
        self.mode = "train"
        self.network = network
        self._loss = None
        self._optimizer = None
        self._metrics = []
        self._input_info = None  # (shapes, dtypes) of the inputs last seen, when `inputs` was not given
        self._is_shape_inferred = False
        self._accumulate = 1
        self.num_iters = None  # fit/evaluate's num_iters: batches left before stopping
        self.stop_training = False
        self.history = None  # the History of the last fit
        if inputs:
            self._input_info = _input_info(inputs)
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)
        self._adapter = StaticGraphAdapter(self) if STATE.static_mode else None  # static mode: Programs

    # ---- set-up ----

    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None):
        """Set what training needs.

        Args:
            optimizer: a paddle.optimizer.Optimizer over the network's parameters (needed by fit/train_batch).
            loss: a Layer or function `loss(*outputs, *labels)` returning a Tensor (or a list to be summed).
            metrics: a paddle.metric.Metric or a list of them.
            amp_configs: mixed precision: 'O1', 'O2' or a dict with 'level' and GradScaler's arguments
                (hapi/amp_configs.py); None trains in float32.
        """
        if loss is not None and not isinstance(loss, Layer) and not callable(loss):
            raise TypeError("'loss' must be sub classes of `paddle.nn.Layer` or any callable function.")
        metrics = _to_list(metrics) or []
        for metric in metrics:
            if not isinstance(metric, Metric):
                raise TypeError(f"{type(metric).__name__} is not sub class of Metric")
        if self._adapter is not None:  # (AMP: the adapter decorates the optimizer with paddle.static.amp)
            self._optimizer, self._loss, self._metrics = optimizer, loss, metrics
            self._amp = AmpTraining(amp_configs, static=True)
            self._adapter.prepare()
            return
        self._amp = AmpTraining(amp_configs)
        self.network, optimizer = self._amp.decorate(self.network, optimizer)
        self._optimizer = optimizer
        self._loss = loss
        self._metrics = metrics
        if getattr(self, "_ddp", None) is None:
            self._ddp = _data_parallel(self.network)

    def parameters(self, *args, **kwargs) -> list:
        """The network's parameters."""
        return self.network.parameters(*args, **kwargs)

    # ---- one batch ----

    def train_batch(self, inputs, labels=None, update: bool = True):
        """Train on one batch: forward, loss, backward and (with update) an optimizer step.

        Args:
            inputs: a list of input arrays or Tensors (one per network input).
            labels: a list of label arrays or Tensors.
            update: step the optimizer and clear the gradients (False accumulates gradients).

        Returns:
            [loss arrays], or ([loss arrays], [metric values]) when there are metrics.
        """
        if self._adapter is not None:
            return self._adapter.train_batch(inputs, labels, update)
        if self._optimizer is None:
            raise RuntimeError("model not ready, please call `model.prepare()` first")
        self.network.train()
        self.mode = "train"
        inputs = [_as_tensor(x) for x in _to_list(inputs)]
        labels = [_as_tensor(y) for y in _to_list(labels) or []]
        self._note_inputs(inputs)
        amp = getattr(self, "_amp", None)
        with amp.auto_cast() if amp is not None else contextlib.nullcontext():  # (paddle casts the forward only)
            outputs = (getattr(self, "_ddp", None) or self.network)(*inputs)  # the DataParallel, when on ranks
        losses = _to_list(self._loss(*(_to_list(outputs) + labels)))
        final_loss = add_n(losses)
        if amp is not None and amp.enabled:
            amp.backward_and_step(final_loss, self._optimizer, update)
        else:
            final_loss.backward()
            if update:
                self._optimizer.minimize(final_loss)
        if update:
            self.network.clear_gradients()
        metrics = self._update_metrics(outputs, labels)
        losses = [_to_numpy(loss) for loss in losses]
        return (losses, metrics) if metrics else losses

    @no_grad()
    def eval_batch(self, inputs, labels=None):
        """Evaluate one batch (no gradients). Returns [loss arrays], ([loss arrays], [metric values]), or the
        metric values alone when there is no loss."""
        if self._adapter is not None:
            return self._adapter.eval_batch(inputs, labels)
        self.network.eval()
        self.mode = "eval"
        inputs = [_as_tensor(x) for x in _to_list(inputs)]
        labels = [_as_tensor(y) for y in _to_list(labels) or []]
        self._note_inputs(inputs)
        outputs = self.network(*inputs)
        losses = _to_list(self._loss(*(_to_list(outputs) + labels))) if self._loss else None
        metrics = self._update_metrics(outputs, labels)
        if losses is None:
            return metrics
        losses = [_to_numpy(loss) for loss in losses]
        return (losses, metrics) if metrics else losses

    @no_grad()
    def predict_batch(self, inputs) -> list:
        """The network's outputs on one batch, as a list of numpy arrays."""
        if self._adapter is not None:
            return self._adapter.predict_batch(inputs)
        self.network.eval()
        self.mode = "test"
        inputs = [_as_tensor(x) for x in _to_list(inputs)]
        self._note_inputs(inputs)
        return [_to_numpy(o) for o in _to_list(self.network(*inputs))]

    def _update_metrics(self, outputs, labels: list) -> list:
        results = []
        for metric in self._metrics:
            computed = metric.compute(*(_to_list(outputs) + labels))
            results.append(metric.update(*[_to_numpy(m) for m in _to_list(computed)]))
        return results

    def _note_inputs(self, inputs: list) -> None:
        """Remember the input shapes when no InputSpec was given: save(training=False) needs them."""
        if self._input_info is None or self._is_shape_inferred:
            self._input_info = ([list(x.shape) for x in inputs], [x.dtype for x in inputs])
            self._inputs = self._verify_spec(None, *self._input_info, is_input=True)
            self._is_shape_inferred = True

    # ---- loops ----

    def _loader(self, data, batch_size: int, shuffle: bool, drop_last: bool, num_workers: int):
        """A Dataset becomes a DataLoader over a DistributedBatchSampler (as in Paddle); a DataLoader or any
        iterable of batches is used as it is."""
        if isinstance(data, Dataset):
            sampler = DistributedBatchSampler(data, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
            return DataLoader(data, batch_sampler=sampler, num_workers=num_workers, return_list=True)
        return data

    def fit(self, train_data=None, eval_data=None, batch_size=1, epochs=1, eval_freq=1, log_freq=10, save_dir=None,
            save_freq=1, verbose=2, drop_last=False, shuffle=True, num_workers=0, callbacks=None,
            accumulate_grad_batches=1, num_iters=None):  # fmt: skip
        """Train for `epochs` epochs, evaluating on eval_data every eval_freq epochs.

        Args:
            train_data: a paddle.io.Dataset (batched here) or a DataLoader.
            eval_data: the same, for evaluation after epochs; None skips evaluation.
            batch_size: the batch size for Datasets, or [train_batch_size, eval_batch_size].
            epochs: how many passes over train_data.
            eval_freq: evaluate after epochs 0, eval_freq, 2*eval_freq, ...
            log_freq: print a step line every log_freq steps.
            save_dir: where ModelCheckpoint saves (`{save_dir}/{epoch}`, `{save_dir}/final`); None: no saving.
            save_freq: save every save_freq epochs.
            verbose: 0 silent, 1 a progress bar, 2 a line per log_freq steps, 3 with timings.
            drop_last: drop the last incomplete batch of a Dataset.
            shuffle: shuffle a Dataset every epoch.
            num_workers: DataLoader worker processes for Datasets.
            callbacks: a Callback or a list of them (paddle.callbacks).
            accumulate_grad_batches: step the optimizer every this many batches (gradients add up meanwhile).
            num_iters: stop after this many batches in all.

        After fit, `model.history` is the History of the run (a History among `callbacks` is used as it is).
        """
        if train_data is None:
            raise ValueError("Model.fit: train_data must be given")
        train_batch_size, eval_batch_size = _batch_sizes(batch_size)
        train_loader = self._loader(train_data, train_batch_size, shuffle, drop_last, num_workers)
        eval_loader = None
        if eval_data is not None:
            eval_loader = self._loader(eval_data, eval_batch_size, False, False, num_workers)
        self._accumulate = accumulate_grad_batches
        steps = _length(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(steps, int):
            if num_iters <= 0:
                raise ValueError(f"Model.fit: num_iters must be greater than 0, got {num_iters}")
            epochs = num_iters // steps + 1
            steps = min(num_iters, steps)
        callbacks = _to_list(callbacks) or []
        self.history = next((c for c in callbacks if isinstance(c, History)), None)
        if self.history is None:
            self.history = History()
            callbacks = callbacks + [self.history]
        cbks = config_callbacks(callbacks, model=self, epochs=epochs, steps=steps, log_freq=log_freq,
                                save_freq=save_freq, save_dir=save_dir, verbose=verbose,
                                metrics=self._metrics_name())  # fmt: skip
        if eval_loader is None and any(isinstance(k, EarlyStopping) for k in cbks):
            warnings.warn("EarlyStopping needs validation data.", stacklevel=2)

        self.stop_training = False
        cbks.on_begin("train")
        logs = {}
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            cbks.on_epoch_end(epoch, logs)
            if eval_loader is not None and epoch % eval_freq == 0:
                cbks.on_begin("eval", {"steps": _length(eval_loader), "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        cbks.on_end("train", logs)

    def evaluate(self, eval_data, batch_size=1, log_freq=10, verbose=2, num_workers=0, callbacks=None,
                 num_iters=None) -> dict:  # fmt: skip
        """Evaluate on eval_data (a Dataset or DataLoader).

        Returns:
            {'loss': [float], <metric name>: value, ...}: the last batch's loss and each metric over all batches.
        """
        loader = self._loader(eval_data, batch_size, False, False, num_workers)
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())  # fmt: skip
        eval_steps = _length(loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(eval_steps, int):
            if num_iters <= 0:
                raise ValueError(f"Model.evaluate: num_iters must be greater than 0, got {num_iters}")
            eval_steps = min(num_iters, eval_steps)
            self.num_iters = eval_steps
        cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, "eval")
        cbks.on_end("eval", logs)
        return {k: logs[k] for k in self._metrics_name() if k in logs}

    def predict(self, test_data, batch_size=1, num_workers=0, stack_outputs=False, verbose=1, callbacks=None) -> list:
        """The network's outputs on test_data (a Dataset or DataLoader; labels in it are ignored).

        Returns:
            One entry per network output: a tuple of per-batch numpy arrays, or with stack_outputs one array
            of all the samples.
        """
        loader = self._loader(test_data, batch_size, False, False, num_workers)
        self.num_iters = None
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        cbks.on_begin("predict", {"steps": _length(loader)})
        logs, outputs = self._run_one_epoch(loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        cbks.on_end("predict", logs)
        return outputs

    def _run_one_epoch(self, data_loader, callbacks, mode: str):
        logs, outputs = {}, []
        n_inputs = len(self._inputs)
        steps = _length(data_loader)
        for step, data in enumerate(data_loader):
            data = _flatten(data)
            batch_size = data[0].shape[0]
            callbacks.on_batch_begin(mode, step, logs)
            if mode == "predict":
                outputs.append(self.predict_batch(data[:n_inputs] if n_inputs else data))
            else:
                args = [data[:n_inputs], data[n_inputs:]]
                if mode == "train":
                    args.append((step + 1) % self._accumulate == 0 or step + 1 == steps)
                outs = getattr(self, f"{mode}_batch")(*args)
                self._log_batch(logs, outs)
            logs["step"] = step
            logs["batch_size"] = batch_size
            callbacks.on_batch_end(mode, step, logs)
            if self.num_iters is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    self.num_iters = None
                    break
        for metric in self._metrics:
            metric.reset()
        return (logs, outputs) if mode == "predict" else logs

    def _log_batch(self, logs: dict, outs) -> None:
        """Put the batch's loss (a list of floats) and each metric's running value into logs."""
        values = []
        if self._loss:
            losses = outs[0] if self._metrics else outs
            values.append([float(loss) for loss in losses])
        for metric in self._metrics:
            values.extend(_to_list(metric.accumulate()))
        logs.update(zip(self._metrics_name(), values))

    def _metrics_name(self) -> list:
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(_to_list(m.name()))
        return names

    # ---- saving and loading ----

    def save(self, path: str, training: bool = True) -> None:
        """Save the model.

        Args:
            path: a path prefix such as 'checkpoint/epoch_1'.
            training: True writes `path.pdparams` (the network's state_dict) and `path.pdopt` (the optimizer's
                state, when it has any), to resume training with `load`. False writes an inference model:
                `path.pdmodel` (the static Program) and `path.pdiparams`, for paddle.static.load_inference_model.
        """
        if not isinstance(path, str) or not os.path.basename(path):
            raise ValueError(
                "The input path MUST be format of dirname/file_prefix [dirname\\file_prefix in Windows system], "
                f"but received file_prefix is empty string: {path!r}"
            )
        if _rank() != 0:  # data-parallel ranks hold the same weights: only rank 0 writes them (as Paddle)
            return
        if not training:
            self._save_inference_model(path)
            return
        if self._adapter is not None:
            self._adapter.save(path)
            return
        # one set: a crash never leaves new weights beside old optimizer state (static/files.py)
        files = {".pdparams": save_writer(self.network.state_dict())}
        if self._optimizer is not None and self._optimizer.state_dict():
            files[".pdopt"] = save_writer(self._optimizer.state_dict())
        write_file_set(path, files, absent=() if ".pdopt" in files else (".pdopt",), what="Model.save")

    def _save_inference_model(self, path: str) -> None:
        if self._adapter is not None:
            self._adapter.save_inference_model(path)
            return
        if self._input_info is None:
            raise RuntimeError(
                "Saving inference model needs 'inputs' or running before saving. Please specify 'inputs' in Model "
                "initialization or input training data and perform a training for shape derivation."
            )
        if self._is_shape_inferred:
            warnings.warn(
                "'inputs' was not specified when Model initialization, so the input shape to be saved will be the "
                f"shape derived from the user's actual inputs. The input shape to be saved is "
                f"{self._input_info[0]}. For saving correct input shapes, please provide 'inputs' for Model "
                "initialization.",
                stacklevel=3,
            )
        save_inference_model(self.network, path, self._inputs)

    def load(self, path: str, skip_mismatch: bool = False, reset_optimizer: bool = False) -> None:
        """Load what `save(path)` wrote: parameters from `path.pdparams`, optimizer state from `path.pdopt`.

        Args:
            path: the prefix given to save (a `.pdparams`, `.pdopt` or `.pdmodel` suffix is ignored).
            skip_mismatch: skip (with a warning) the parameters missing from the file or of another shape,
                instead of raising ValueError; then the optimizer state is not loaded.
            reset_optimizer: do not load the optimizer state (start the optimizer afresh).
        """
        prefix, ext = os.path.splitext(path)
        if ext not in ("", ".pdparams", ".pdopt", ".pdmodel"):
            raise ValueError(f"Model.load: unknown postfix {ext} from weights {path!r}")
        if ext == "":
            prefix = path
        if not os.path.exists(prefix + ".pdparams"):
            raise FileNotFoundError(f"Failed to load parameters, please check path: {prefix}.pdparams does not exist")
        check_file_set(prefix, "Model.load")  # the .pdparams and .pdopt of one save, or refused
        param_state = load_file(prefix + ".pdparams")
        matched = []
        for key, param in self.network.state_dict().items():
            state = param_state.get(key, None)
            try:
                if state is None:
                    raise ValueError(f"{key} is not found in the providing file.")
                if list(state.shape) != list(param.shape):
                    raise ValueError(
                        f"{key} receives a shape {list(state.shape)}, but the expected shape is {list(param.shape)}."
                    )
            except ValueError as err:
                if not skip_mismatch:
                    raise
                warnings.warn(f"Skip loading for {key}. {err}", stacklevel=2)
                reset_optimizer = True
                continue
            matched.append((param, state))
        if self._adapter is not None:
            optim = None if reset_optimizer or not os.path.exists(prefix + ".pdopt") else load_file(prefix + ".pdopt")
            self._adapter.load(matched, optim)
            return
        for param, state in matched:
            param.set_value(state)
        if reset_optimizer or self._optimizer is None or not os.path.exists(prefix + ".pdopt"):
            return
        self._optimizer.set_state_dict(load_file(prefix + ".pdopt"))

    def summary(self, input_size=None, dtype=None) -> dict:
        """Print the network's layer table (paddle.summary) for input_size (default: the Model's `inputs`)."""
        if input_size is None and not self._inputs_known():
            raise ValueError("Model.summary: 'input_size' or the Model's 'inputs' must be set")
        return summary(self.network, input_size if input_size is not None else self._inputs, dtypes=dtype)

    def _inputs_known(self) -> bool:
        return bool(self._inputs) and all(len(spec.shape) > 1 or spec.shape[0] != -1 for spec in self._inputs)

    # ---- InputSpecs ----

    def _verify_spec(self, specs, shapes=None, dtypes=None, is_input=False) -> list:
        if specs is None:
            if not is_input:
                return []
            names = inspect.getfullargspec(self.network.forward).args[1:]
            if shapes is not None and dtypes is not None:
                return [InputSpec(shapes[i], dtypes[i], name=n) for i, n in enumerate(names[: len(shapes)])]
            return [InputSpec([None], name=n) for n in names]
        if isinstance(specs, dict):
            if is_input:
                raise TypeError("Model: inputs must be a list of InputSpec (a dict is allowed for labels only)")
            names = [n for n in inspect.getfullargspec(self.network.forward).args if n != "self"]
            specs = [specs[n] for n in names if n in specs]
        specs = _to_list(specs)
        for i, spec in enumerate(specs):
            if not isinstance(spec, InputSpec):
                raise TypeError(f"Model: inputs and labels must be paddle.static.InputSpec, got {type(spec).__name__}")
            if spec.name is None:
                raise ValueError(f"Requires Input[{i}].name != None, but receive `None` with {spec}.")
        return specs


def _input_info(inputs) -> tuple | None:
    """(shapes, dtypes) of InputSpecs given to Model."""
    specs = list(inputs.values()) if isinstance(inputs, dict) else _to_list(inputs)
    if not all(isinstance(s, InputSpec) for s in specs):
        return None
    return [list(s.shape) for s in specs], [s.dtype for s in specs]


def _batch_sizes(batch_size) -> tuple:
    """(train, eval) batch sizes from an int or a pair."""
    if isinstance(batch_size, (list, tuple)) and len(batch_size) == 2 and all(isinstance(b, int) for b in batch_size):
        return tuple(batch_size)
    if isinstance(batch_size, int) and not isinstance(batch_size, bool) and batch_size > 0:
        return batch_size, batch_size
    raise ValueError(
        f"Model.fit: batch_size must be a positive int or [train_batch_size, eval_batch_size], got {batch_size!r}"
    )


def _rank() -> int:
    return int(os.environ.get("PADDLE_TRAINER_ID", "0") or 0)


def _data_parallel(network):
    """Under `launch`/`spawn` (2+ ranks) fit trains data-parallel, as Paddle's Model: a DataParallel of the
    network (its own parameters, so saving and evaluating use the network itself)."""
    if int(os.environ.get("PADDLE_TRAINERS_NUM", "1") or 1) < 2:
        return None
    import minipaddle.distributed as dist

    dist.init_parallel_env()
    return dist.DataParallel(network)
