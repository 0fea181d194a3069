"tinytensor.random: torch's CPU generator, seed for seed (chapter 25): the mt19937 engine and its state, the CPU's float math, the distributions, the random factories and the sampling methods."
from .engine import (Generator, default_generator, manual_seed, initial_seed, seed, get_rng_state,
                     set_rng_state)
from .factories import rand, randn, randint, rand_like, randn_like, randint_like
from .sampling import normal, bernoulli, multinomial, randperm

__all__ = ['Generator', 'default_generator', 'manual_seed', 'initial_seed', 'seed', 'get_rng_state',
           'set_rng_state', 'rand', 'randn', 'randint', 'rand_like', 'randn_like', 'randint_like',
           'normal', 'bernoulli', 'multinomial', 'randperm']
