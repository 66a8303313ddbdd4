"""`paddle.autograd.autograd`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.autograd.functional import Hessian, Jacobian, hessian, jacobian

__all__ = ["Hessian", "Jacobian", "hessian", "jacobian"]
