"""paddle's high-level API: `Model` (train, evaluate, predict, save and load in a few lines), its callbacks,
`summary` and `flops`.

    model.py            Model: the training loop, written once
    callbacks.py        Callback and Paddle's callbacks (progress, checkpoints, LR schedule, early stop, ...)
    history.py          History: every step's loss and metrics as plain data, for live plots
    progressbar.py      Paddle's step lines, and the tqdm bar of verbose=1
    model_summary.py    summary: the table of layers, shapes and parameter counts
    flops.py            flops: the operations of one forward pass, layer by layer
    inference_model.py  Model.save(training=False): the network traced into a static inference model
"""

from minipaddle.hapi import callbacks
from minipaddle.hapi.flops import flops
from minipaddle.hapi.model import Model
from minipaddle.hapi.model_summary import summary

__all__ = ["Model", "callbacks", "flops", "summary"]
