"""paddle.text.datasets.Imdb: movie reviews labelled positive (0) or negative (1), read from paddle's
aclImdb_v1.tar.gz as paddle 2.6 does: lower-cased, punctuation removed, split on whitespace; the dictionary holds
the words seen more than `cutoff` times in all reviews (most frequent first), then '<unk>'."""

from __future__ import annotations

import collections
import re
import string
import tarfile

import numpy as np

from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"
MD5 = "7c2ac02c03563afcf9b574c7e56c153a"


class Imdb(Dataset):
    """The IMDB sentiment data: item i is (word ids of review i, [label]), label 0 for positive, 1 for negative.

    Args:
        data_file (str, optional): the path of paddle's aclImdb_v1.tar.gz; None looks for it in the data home.
        mode (str, optional): 'train' or 'test'. Default 'train'.
        cutoff (int, optional): words seen this many times or fewer are '<unk>'. Default 150.
        download (bool, optional): fetch the file when it is missing. Default True.

    Attributes:
        word_idx (dict): word (bytes) -> id.
    """

    def __init__(self, data_file=None, mode="train", cutoff=150, download=True) -> None:
        if not isinstance(mode, str) or mode.lower() not in ("train", "test"):
            raise ValueError(f"Imdb: mode should be 'train' or 'test', but got {mode!r}")
        self.mode = mode.lower()
        self.data_file = data_file or dataset_file(URL, MD5, "imdb", download, "Imdb(data_file)")
        self.word_idx = self._build_word_dict(cutoff)
        unk = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, kind in ((0, "pos"), (1, "neg")):
            for doc in self._tokenize(re.compile(rf"aclImdb/{self.mode}/{kind}/.*\.txt$")):
                self.docs.append([self.word_idx.get(w, unk) for w in doc])
                self.labels.append(label)

    def _build_word_dict(self, cutoff: int) -> dict:
        freq = collections.Counter()
        for doc in self._tokenize(re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")):
            freq.update(doc)
        kept = sorted(((w, n) for w, n in freq.items() if n > cutoff), key=lambda x: (-x[1], x[0]))
        word_idx = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _tokenize(self, pattern) -> list:
        punctuation = string.punctuation.encode("latin-1")
        docs = []
        with tarfile.open(self.data_file) as tar:
            for member in tar:
                if pattern.match(member.name):
                    text = tar.extractfile(member).read().rstrip(b"\n\r")
                    docs.append(text.translate(None, punctuation).lower().split())
        return docs

    def __getitem__(self, idx):
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self) -> int:
        return len(self.docs)
