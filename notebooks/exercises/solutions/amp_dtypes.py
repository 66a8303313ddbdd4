"""Reference answer for notebook 07's exercise: the dtype each op of the small network computes in under O1."""

prediction = {
    "matmul": "float16",  # white list: matmul_v2
    "add": "float32",  # gray: the bias is float32, so promote picks float32
    "relu": "float32",  # gray: its input (the add's output) is float32
    "softmax": "float32",  # black list
}
