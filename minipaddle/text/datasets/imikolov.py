"""paddle.text.datasets.Imikolov: the Penn Treebank corpus of Mikolov's simple-examples.tgz, as paddle 2.6 reads it:
a dictionary of the words seen more than `min_word_freq` times in ptb.train.txt and ptb.valid.txt (with '<s>' and
'<e>' counted once per line), then either n-grams ('NGRAM': every window of `window_size` ids of '<s>' line '<e>')
or sequence pairs ('SEQ': ('<s>' + line, line + '<e>'))."""

from __future__ import annotations

import collections
import tarfile

import numpy as np

from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"
MD5 = "30177ea32e27c525793142b6bf2c8e2d"


class Imikolov(Dataset):
    """The PTB language-modelling data: items are tuples of numpy arrays of word ids.

    Args:
        data_file (str, optional): the path of paddle's simple-examples.tgz; None looks for it in the data home.
        data_type (str, optional): 'NGRAM' (n-grams of window_size ids) or 'SEQ' (source and target sequences).
        window_size (int, optional): the n of the n-grams (required for NGRAM); for SEQ, longer lines are skipped
            when > 0. Default -1.
        mode (str, optional): 'train' or 'test' (ptb.train.txt or ptb.test.txt). Default 'train'.
        min_word_freq (int, optional): words seen this many times or fewer are '<unk>'. Default 50.
        download (bool, optional): fetch the file when it is missing. Default True.
    """

    def __init__(self, data_file=None, data_type="NGRAM", window_size=-1, mode="train", min_word_freq=50,
                 download=True) -> None:  # fmt: skip
        if not isinstance(data_type, str) or data_type.upper() not in ("NGRAM", "SEQ"):
            raise ValueError(f"Imikolov: data type should be 'NGRAM' or 'SEQ', but got {data_type!r}")
        if not isinstance(mode, str) or mode.lower() not in ("train", "test"):
            raise ValueError(f"Imikolov: mode should be 'train' or 'test', but got {mode!r}")
        self.data_type, self.mode = data_type.upper(), mode.lower()
        self.window_size, self.min_word_freq = window_size, min_word_freq
        self.data_file = data_file or dataset_file(URL, MD5, "imikolov", download, "Imikolov(data_file)")
        if self.data_type == "NGRAM" and window_size < 0:
            raise ValueError(f"Imikolov: NGRAM data needs window_size >= 0, got {window_size}")
        self.word_idx = self._build_word_dict()
        self.data = self._load()

    def _lines(self, tar, name: str):
        return tar.extractfile(f"./simple-examples/data/{name}").read().splitlines(keepends=True)

    def _build_word_dict(self) -> dict:
        freq = collections.Counter()
        with tarfile.open(self.data_file) as tar:
            for name in ("ptb.train.txt", "ptb.valid.txt"):
                for line in self._lines(tar, name):
                    freq.update(line.strip().split())
                    freq["<s>"] += 1
                    freq["<e>"] += 1
        freq.pop("<unk>", None)  # it goes last
        kept = sorted(((w, n) for w, n in freq.items() if n > self.min_word_freq), key=lambda x: (-x[1], x[0]))
        word_idx = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _load(self) -> list:
        unk, data = self.word_idx["<unk>"], []
        with tarfile.open(self.data_file) as tar:
            for line in self._lines(tar, f"ptb.{self.mode}.txt"):
                if self.data_type == "NGRAM":
                    words = ["<s>"] + line.strip().split() + ["<e>"]
                    if len(words) >= self.window_size:
                        ids = [self.word_idx.get(w, unk) for w in words]
                        data += [tuple(ids[i - self.window_size : i]) for i in range(self.window_size, len(ids) + 1)]
                else:
                    ids = [self.word_idx.get(w, unk) for w in line.strip().split()]
                    src, trg = [self.word_idx["<s>"]] + ids, ids + [self.word_idx["<e>"]]
                    if not (self.window_size > 0 and len(src) > self.window_size):
                        data.append((src, trg))
        return data

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)
