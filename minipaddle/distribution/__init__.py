"""paddle.distribution: probability distributions, transforms and KL divergences (Paddle 2.6's set).

Every distribution computes with minipaddle's tensor functions, so gradients flow into its parameters
(rsample is reparameterized where Paddle's is), and draws from minipaddle's RNG, so `paddle.seed(n)` makes
samples repeat.
"""

from minipaddle.distribution import transform
from minipaddle.distribution.bernoulli import Bernoulli
from minipaddle.distribution.beta import Beta
from minipaddle.distribution.categorical import Categorical
from minipaddle.distribution.cauchy import Cauchy
from minipaddle.distribution.dirichlet import Dirichlet
from minipaddle.distribution.distribution import Distribution
from minipaddle.distribution.exponential_family import ExponentialFamily
from minipaddle.distribution.geometric import Geometric
from minipaddle.distribution.gumbel import Gumbel
from minipaddle.distribution.independent import Independent
from minipaddle.distribution.kl import kl_divergence, register_kl
from minipaddle.distribution.laplace import Laplace
from minipaddle.distribution.lognormal import LogNormal
from minipaddle.distribution.multinomial import Multinomial
from minipaddle.distribution.normal import Normal
from minipaddle.distribution.transform import *  # noqa: F403
from minipaddle.distribution.transformed_distribution import TransformedDistribution
from minipaddle.distribution.uniform import Uniform

__all__ = [
    "Bernoulli",
    "Beta",
    "Categorical",
    "Cauchy",
    "Dirichlet",
    "Distribution",
    "ExponentialFamily",
    "Multinomial",
    "Normal",
    "Uniform",
    "kl_divergence",
    "register_kl",
    "Independent",
    "TransformedDistribution",
    "Laplace",
    "LogNormal",
    "Gumbel",
    "Geometric",
]
__all__.extend(transform.__all__)
