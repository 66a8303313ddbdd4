"""paddle.sparse.nn.layer: the module path of paddle 2.6 (its modules re-export minipaddle's names)."""
