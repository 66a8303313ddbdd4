"""paddle.audio: audio features as layers (features) and the functions they are built from (functional).

Paddle 2.6's paddle.audio also has `backends` (load, info, save: reading and writing wave files) and `datasets`
(ESC50, TESS: downloaded archives); minipaddle leaves them out, as they need files and downloads.
"""

from minipaddle.audio import features, functional

__all__ = ["functional", "features"]
