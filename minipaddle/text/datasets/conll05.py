"""paddle.text.datasets.Conll05st: semantic role labelling on the CoNLL-2005 test set (WSJ section), as paddle 2.6
reads it.

conll05st-tests.tar.gz holds two gzipped column files, read line by line side by side:
    conll05st-release/test.wsj/words/test.wsj.words.gz   one word per line, a blank line ends a sentence
    conll05st-release/test.wsj/props/test.wsj.props.gz   per word: the predicate column ('-' or the verb) and one
                                                          bracketed column per predicate: (A0*  *  *)  (V*)  *
Each predicate of a sentence is one sample; its bracket column becomes B-/I-/O tags. The dictionaries are text
files of one entry per line (the line number is the id): words, verbs, and the B-/I- tags.
"""

from __future__ import annotations

import gzip
import tarfile

import numpy as np

from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file

DATA_URL = "http://paddlemodels.bj.bcebos.com/conll05st/conll05st-tests.tar.gz"
DATA_MD5 = "387719152ae52d60422c016e92a742fc"
WORDDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FwordDict.txt"
WORDDICT_MD5 = "ea7fb7d4c75cc6254716f0177a506baa"
VERBDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FverbDict.txt"
VERBDICT_MD5 = "0d2977293bbb6cbefab5b0f97db1e77c"
TRGDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FtargetDict.txt"
TRGDICT_MD5 = "d8c7f03ceb5fc2e5a0fa7503a4353751"
EMB_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2Femb"
EMB_MD5 = "bf436eb0faa1f6f9103017f8be57cdb7"
UNK_IDX = 0
WORDS = "conll05st-release/test.wsj/words/test.wsj.words.gz"
PROPS = "conll05st-release/test.wsj/props/test.wsj.props.gz"


def _bracket_tags(column: list) -> list:
    """One predicate's bracket column ['(A0*', '*', '*)', '(V*)', '*'] as tags ['B-A0', 'I-A0', 'I-A0', 'B-V', 'O']."""
    tags, tag, inside = [], "O", False
    for mark in column:
        if mark == "*":
            tags.append("I-" + tag if inside else "O")
        elif mark == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in mark:
            tag = mark[1 : mark.find("*")]
            tags.append("B-" + tag)
            inside = ")" not in mark
        else:
            raise RuntimeError(f"Conll05st: unexpected label {mark!r}")
    return tags


class Conll05st(Dataset):
    """The CoNLL-2005 SRL test data. Item i is 9 int arrays of the sentence's length: word ids, the ids of the words
    two and one before the predicate, of the predicate, one and two after (each repeated over the sentence; 'bos'
    and 'eos' past the ends), the verb's id (repeated), the 0/1 mark of the 5-word window, and the tag ids.

    Args:
        data_file (str, optional): paddle's conll05st-tests.tar.gz; None looks for it in the data home.
        word_dict_file, verb_dict_file, target_dict_file (str, optional): the dictionaries (one entry per line).
        emb_file (str, optional): the word embedding file, returned by get_embedding() (not read).
        download (bool, optional): fetch missing files. Default True.

    As in paddle, an unknown word is id 0 and a sentence must end with a blank line to count. paddle numbers the tags
    in the order of a Python set (which changes from one process to the next); minipaddle sorts them, so the ids are
    the same every run: B-X and I-X are 2k and 2k + 1 for the k-th tag name X in sorted order, and 'O' comes last.
    """

    def __init__(self, data_file=None, word_dict_file=None, verb_dict_file=None, target_dict_file=None,
                 emb_file=None, download=True) -> None:  # fmt: skip
        def local(path, url, md5, arg):
            return path or dataset_file(url, md5, "conll05st", download, f"Conll05st({arg})")

        self.data_file = local(data_file, DATA_URL, DATA_MD5, "data_file")
        self.word_dict_file = local(word_dict_file, WORDDICT_URL, WORDDICT_MD5, "word_dict_file")
        self.verb_dict_file = local(verb_dict_file, VERBDICT_URL, VERBDICT_MD5, "verb_dict_file")
        self.target_dict_file = local(target_dict_file, TRGDICT_URL, TRGDICT_MD5, "target_dict_file")
        self.emb_file = local(emb_file, EMB_URL, EMB_MD5, "emb_file")
        self.word_dict = self._load_dict(self.word_dict_file)
        self.predicate_dict = self._load_dict(self.verb_dict_file)
        self.label_dict = self._load_label_dict(self.target_dict_file)
        self._load_anno()

    @staticmethod
    def _load_dict(filename: str) -> dict:
        with open(filename) as f:
            return {line.strip(): i for i, line in enumerate(f)}

    @staticmethod
    def _load_label_dict(filename: str) -> dict:
        with open(filename) as f:
            names = sorted({line.strip()[2:] for line in f if line.strip()[:2] in ("B-", "I-")})
        d = {}
        for k, name in enumerate(names):
            d["B-" + name], d["I-" + name] = 2 * k, 2 * k + 1
        d["O"] = 2 * len(names)
        return d

    def _load_anno(self) -> None:
        self.sentences, self.predicates, self.labels = [], [], []
        with tarfile.open(self.data_file) as tar:
            words = gzip.GzipFile(fileobj=tar.extractfile(WORDS)).read().splitlines()
            props = gzip.GzipFile(fileobj=tar.extractfile(PROPS)).read().splitlines()
        sentence, rows = [], []
        for word, prop in zip(words, props):
            word, prop = word.strip().decode(), prop.strip().decode().split()
            if prop:
                sentence.append(word)
                rows.append(prop)
                continue
            columns = [[row[i] for row in rows] for i in range(len(rows[0]))] if rows else []
            if columns:
                verbs = [v for v in columns[0] if v != "-"]
                for i, column in enumerate(columns[1:]):
                    self.sentences.append(sentence)
                    self.predicates.append(verbs[i])
                    self.labels.append(_bracket_tags(column))
            sentence, rows = [], []

    def __getitem__(self, idx):
        sentence, predicate, labels = self.sentences[idx], self.predicates[idx], self.labels[idx]
        n, v = len(sentence), labels.index("B-V")
        mark = [0] * len(labels)
        for k in range(v - 2, v + 3):
            if 0 <= k < len(labels):
                mark[k] = 1
        context = [sentence[k] if 0 <= k < len(labels) else ("bos" if k < v else "eos") for k in range(v - 2, v + 3)]
        word_ids = [self.word_dict.get(w, UNK_IDX) for w in sentence]
        context_ids = [[self.word_dict.get(w, UNK_IDX)] * n for w in context]
        pred_ids = [self.predicate_dict.get(predicate)] * n
        label_ids = [self.label_dict.get(t) for t in labels]
        return tuple(np.array(a) for a in (word_ids, *context_ids, pred_ids, mark, label_ids))

    def __len__(self) -> int:
        return len(self.sentences)

    def get_dict(self):
        """(word_dict, predicate_dict, label_dict)."""
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self):
        """The path of the embedding file."""
        return self.emb_file
