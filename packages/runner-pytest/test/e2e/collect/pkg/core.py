from pkg.helpers import helper_that_does_not_exist


def compute(x):
    return x * 2
