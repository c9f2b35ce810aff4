"""A tiny inventory package used by suture's polyglot example."""
