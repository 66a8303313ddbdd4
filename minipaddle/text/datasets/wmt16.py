"""paddle.text.datasets.WMT16: English-German translation pairs (Multi30k, the WMT'16 multimodal task), as paddle 2.6
reads its wmt16.tar.gz.

The tar holds wmt16/train, wmt16/test and wmt16/val: lines of 'English words<TAB>German words'. The dictionaries
are built from wmt16/train: '<s>', '<e>', '<unk>' (ids 0, 1, 2), then the words by falling count (ties in order of
first appearance), dict_size entries in all.
"""

from __future__ import annotations

import collections
import tarfile

import numpy as np

from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file

DATA_URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"
DATA_MD5 = "0c38be43600334966403524a40dcd81e"
TOTAL_EN_WORDS = 11250
TOTAL_DE_WORDS = 19220
START_MARK, END_MARK, UNK_MARK = "<s>", "<e>", "<unk>"


class WMT16(Dataset):
    """WMT'16 en-de. Item i is 3 int arrays: the source ids ('<s>' words '<e>'), the target ids ('<s>' words) and
    the next-word targets (words '<e>').

    Args:
        data_file (str, optional): paddle's wmt16.tar.gz; None looks for it in the data home.
        mode (str, optional): 'train', 'test' or 'val'. Default 'train'.
        src_dict_size, trg_dict_size (int): the dictionary sizes; must be positive.
        lang (str, optional): the source language, 'en' or 'de'. Default 'en'.
        download (bool, optional): fetch the file when it is missing. Default True.

    As paddle 2.6 does, both dictionaries count the words of the source column (so the target dictionary holds
    source-language words, and most target words are '<unk>'): items and ids are paddle's. paddle writes each
    dictionary to DATA_HOME/wmt16/<lang>_<size>.dict and reuses that file later, even for another data_file;
    minipaddle builds them from data_file each time and writes nothing.
    """

    def __init__(self, data_file=None, mode="train", src_dict_size=-1, trg_dict_size=-1, lang="en",
                 download=True) -> None:  # fmt: skip
        if not isinstance(mode, str) or mode.lower() not in ("train", "test", "val"):
            raise ValueError(f"WMT16: mode should be 'train', 'test' or 'val', but got {mode!r}")
        self.mode = mode.lower()
        self.data_file = data_file or dataset_file(DATA_URL, DATA_MD5, "wmt16", download, "WMT16(data_file)")
        self.lang = lang
        for arg, size in (("src_dict_size", src_dict_size), ("trg_dict_size", trg_dict_size)):
            if not isinstance(size, int) or size <= 0:
                raise ValueError(f"WMT16: {arg} should be set as positive number, got {size!r}")
        self.src_dict_size = min(src_dict_size, TOTAL_EN_WORDS if lang == "en" else TOTAL_DE_WORDS)
        self.trg_dict_size = min(trg_dict_size, TOTAL_DE_WORDS if lang == "en" else TOTAL_EN_WORDS)
        counts = self._count_source_words()
        self.src_dict = self._build_dict(counts, src_dict_size)
        self.trg_dict = self._build_dict(counts, trg_dict_size)
        self._load_data()

    def _count_source_words(self) -> collections.Counter:
        counts = collections.Counter()  # (a dict: its items keep the order of first appearance)
        with tarfile.open(self.data_file, mode="r") as tar:
            for line in tar.extractfile("wmt16/train"):
                pair = line.decode().strip().split("\t")
                if len(pair) == 2:
                    counts.update((pair[0] if self.lang == "en" else pair[1]).split())
        return counts

    @staticmethod
    def _build_dict(counts: collections.Counter, dict_size: int) -> dict:
        words = [START_MARK, END_MARK, UNK_MARK]
        for idx, (word, _) in enumerate(sorted(counts.items(), key=lambda x: x[1], reverse=True)):
            if idx + 3 == dict_size:  # (as paddle: a size below 3 keeps every word)
                break
            words.append(word)
        return {w: i for i, w in enumerate(words)}

    def _load_data(self) -> None:
        start, end, unk = self.src_dict[START_MARK], self.src_dict[END_MARK], self.src_dict[UNK_MARK]
        src_col = 0 if self.lang == "en" else 1
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            for line in tar.extractfile(f"wmt16/{self.mode}"):
                pair = line.decode().strip().split("\t")
                if len(pair) != 2:
                    continue
                trg = [self.trg_dict.get(w, unk) for w in pair[1 - src_col].split()]
                self.src_ids.append([start, *(self.src_dict.get(w, unk) for w in pair[src_col].split()), end])
                self.trg_ids.append([start, *trg])
                self.trg_ids_next.append([*trg, end])

    def __getitem__(self, idx):
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, lang, reverse=False):
        """The dictionary of `lang` (the source's when lang is the source language, else the target's), word -> id;
        id -> word with reverse=True (paddle 2.6 ignores reverse)."""
        d = self.src_dict if lang == self.lang else self.trg_dict
        return {v: k for k, v in d.items()} if reverse else d
