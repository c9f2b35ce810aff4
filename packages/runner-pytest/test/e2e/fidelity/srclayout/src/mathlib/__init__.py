def origin():
    return "source"
