"""Reference answers to the exercises, for the course's automatic checks (MINIPADDLE_SOLUTIONS=1).

Students: try the exercise first; the answers are here to make the notebooks run green in CI, not to be read
before you have one of your own.
"""
