"""The functions whose converted code (StaticFunction.code) tests/jit/test_code_golden.py compares with paddle
2.6.2's; written once, imported by make_golden.py under real Paddle and by the test under minipaddle (`paddle` is
whichever library the caller passes to `functions(paddle)`)."""


def functions(paddle):
    def if_else(x):
        if x.mean() > 0:
            y = x * 2
        else:
            y = x - 1
        return y

    def while_loop(x, n):
        i = 0
        s = x
        while i < n:
            s = s + x
            i += 1
        return s

    def for_range_list(x, n):
        outs = []
        for i in range(n):
            outs.append(x * i)
        return paddle.stack(outs)

    def early_return(x):
        if x.sum() > 0:
            return x + 1
        return x - 1

    def logic_and_cast(x):
        if x.mean() > 0 and x.sum() < 10:
            x = x + 1
        return float(x.mean())

    def break_loop(x, n):
        for i in range(n):  # noqa: B007 (the loop variable is carried, as in the golden code)
            if x.mean() > 5:
                break
            x = x + 1
        return x

    return [if_else, while_loop, for_range_list, early_return, logic_and_cast, break_loop]
