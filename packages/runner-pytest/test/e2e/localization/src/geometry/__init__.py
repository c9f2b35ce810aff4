"""Plane geometry helpers."""
from .shapes import *
from .transform import scale
from .units import to_cm
