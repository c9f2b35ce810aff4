def unrelated():
    """Not called by any failing test: outside every scope."""
    return 1
