"""Each worker has its own mock-server port: serve on it and fetch through it."""
import http.server
import os
import threading
import urllib.request

import pytest


@pytest.mark.parametrize("n", range(4))
def test_mock_port_is_this_workers(n):
    port = int(os.environ["ROBOTCI_MOCK_PORT"])
    worker = os.environ["ROBOTCI_WORKER_INDEX"]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"worker " + worker.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            assert response.read() == b"worker " + worker.encode()
    finally:
        server.shutdown()
        server.server_close()
    print(f"mock port {port} worker {worker}")
