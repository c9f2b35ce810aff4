import socket


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_talks_to_service():
    conn = socket.create_connection(("127.0.0.1", free_port()), timeout=2)
    conn.close()
