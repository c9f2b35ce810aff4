from pkg.core import compute
