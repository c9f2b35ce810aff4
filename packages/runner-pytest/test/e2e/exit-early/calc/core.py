import os


def add(a, b):
    return a - b


def twice(a):
    return a * 2
