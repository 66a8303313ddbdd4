"""paddle.text: decoding for sequence labelling (viterbi_decode, ViterbiDecoder).

Paddle's text datasets (Conll05st, Imdb, Imikolov, Movielens, UCIHousing, WMT14, WMT16) download their data from
the internet when built, so they are not here.
"""

from minipaddle.text.viterbi_decode import ViterbiDecoder, viterbi_decode

__all__ = ["ViterbiDecoder", "viterbi_decode"]
