import os
import socket


def test_flaky_once():
    marker = os.environ["SUTURE_FLAKY_MARKER"]
    if not os.path.exists(marker):
        open(marker, "w").close()
        assert False, "first run fails"


def test_service_is_up():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
