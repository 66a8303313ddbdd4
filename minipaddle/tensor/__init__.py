"""paddle.tensor: the tensor functions, grouped as Paddle groups them (creation, math, manipulation, linalg,
logic), plus the printing rules (to_string). Tensor's methods are bound by minipaddle/tensor_methods.py, on top."""
