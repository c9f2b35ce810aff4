import os


def render(text):
    """Colours its output as CLI libraries do: unless NO_COLOR is set."""
    if "NO_COLOR" in os.environ:
        return text
    return "\x1b[32m" + text + "\x1b[0m"
