"""tk is toolkit under a shorter name, as toolz ships tlz."""
import sys

import toolkit

sys.modules[__name__] = toolkit
