"""paddle.text: decoding for sequence labelling (viterbi_decode, ViterbiDecoder) and the text datasets that read
paddle's files (text/datasets/: UCIHousing, Imdb, Imikolov, Conll05st, Movielens, WMT14, WMT16).
"""

from minipaddle.text import datasets
from minipaddle.text.datasets import WMT14, WMT16, Conll05st, Imdb, Imikolov, Movielens, UCIHousing
from minipaddle.text.viterbi_decode import ViterbiDecoder, viterbi_decode

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16", "ViterbiDecoder", "datasets",
           "viterbi_decode"]  # fmt: skip
