"""paddle.tensor: the tensor functions, grouped as Paddle groups them (creation, math, manipulation, linalg,
logic), plus the printing rules (to_string) and the binding of methods onto Tensor (methods)."""
