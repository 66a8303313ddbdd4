"""ExponentialFamily: the base class of distributions whose density is exp(<theta, t(x)> - F(theta)) k(x)."""

from __future__ import annotations

from minipaddle.core.autograd import grad
from minipaddle.distribution import distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(distribution.Distribution):
    r"""Base class of exponential-family distributions:

    .. math:: f_F(x; \theta) = \exp(\langle t(x), \theta\rangle - F(\theta) + k(x))

    with natural parameters :math:`\theta`, sufficient statistic :math:`t(x)`, log normalizer :math:`F` and
    carrier measure :math:`k`. A subclass gives `_natural_parameters`, `_log_normalizer` and
    `_mean_carrier_measure`; the entropy then follows from the Bregman divergence of F:
    :math:`H = F(\theta) - \langle \theta, \nabla F(\theta)\rangle - E[k(x)]`, with the gradient taken by
    autograd (so it is itself differentiable). kl_divergence between two members of the same family
    also follows (see :func:`kl_divergence`).
    """

    @property
    def _natural_parameters(self):
        raise NotImplementedError(f"{type(self).__name__} gives no natural parameters")

    def _log_normalizer(self, *natural_parameters):
        raise NotImplementedError(f"{type(self).__name__} gives no log normalizer")

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError(f"{type(self).__name__} gives no mean carrier measure")

    def entropy(self):
        """The entropy, computed from the log normalizer's gradient with respect to the natural parameters."""
        entropy_value = -self._mean_carrier_measure
        natural_parameters = []
        for parameter in self._natural_parameters:
            parameter = parameter.detach()
            parameter.stop_gradient = False
            natural_parameters.append(parameter)
        log_norm = self._log_normalizer(*natural_parameters)
        grads = grad(log_norm.sum(), natural_parameters, create_graph=True)
        entropy_value += log_norm
        event_axes = list(range(-len(self.event_shape), 0))
        for p, g in zip(natural_parameters, grads):
            # summed over the event axes (Paddle 2.6 does not, which breaks event-shaped families)
            entropy_value -= (p * g).sum(event_axes) if event_axes else p * g
        return entropy_value
