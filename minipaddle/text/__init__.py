"""paddle.text: decoding for sequence labelling (viterbi_decode, ViterbiDecoder) and the text datasets that read
paddle's files (text/datasets/: UCIHousing, Imdb, Imikolov; Conll05st, Movielens, WMT14 and WMT16 are not here yet).
"""

from minipaddle.text import datasets
from minipaddle.text.datasets import Imdb, Imikolov, UCIHousing
from minipaddle.text.viterbi_decode import ViterbiDecoder, viterbi_decode

__all__ = ["Imdb", "Imikolov", "UCIHousing", "ViterbiDecoder", "datasets", "viterbi_decode"]
