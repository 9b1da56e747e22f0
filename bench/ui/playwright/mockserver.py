"""A Python twin of robotci's MockServer (Sources/MockServer), as the example suite uses it.

A real HTTP/1.1 server on 127.0.0.1, port 0 (one per test), with MockServer's behaviour:

- routes: exact > parameterized (`/character/:id`) > prefix > catch-all; among routes of
  one kind the one registered last wins (mid-test "recovery" overrides);
- no matching route: 404 with an empty body (MockServer's default response);
- every response carries `Access-Control-Allow-Origin: *` and
  `Access-Control-Expose-Headers: *`; a CORS preflight (`OPTIONS` with
  `Access-Control-Request-Method`) gets 204 with the allowed methods/headers;
- `json` answers `application/json; charset=utf-8`, `image` sniffs PNG, `status` has no body;
- every request is journaled when it arrives (method, path, query, body), before it is
  answered, so `requests(...)` / `wait_for_request(...)` work like
  `serverMock.requests(method:path:)` and `serverMock.waitForRequest(method:path:timeout:)`;
- `serve_folder(folder)` serves a built app's files like `serveFolder(_:)` (content type by
  extension, `index.html` for `/`, `Cache-Control: no-store`, no path outside the folder),
  ranked between prefix routes and the catch-all.
"""
import json
import mimetypes
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, unquote_plus

JSON = "application/json; charset=utf-8"
STANDARD_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


class Response:
    def __init__(self, status=200, headers=None, body=b"", delay=None):
        self.status = status
        self.headers = dict(headers or {})
        self.body = body
        self.delay = delay

    @staticmethod
    def json(data, status=200):
        if isinstance(data, str):
            data = data.encode()
        return Response(status, {"Content-Type": JSON}, data)

    @staticmethod
    def image(data, status=200):
        kind = "image/png" if data[:8] == b"\x89PNG\r\n\x1a\n" else "application/octet-stream"
        return Response(status, {"Content-Type": kind}, data)

    @staticmethod
    def of_status(status):
        return Response(status)


class Request:
    def __init__(self, method, target, headers, body=b""):
        self.method = method
        self.body = body
        path, _, query = target.partition("?")
        self.path = path or "/"
        self.query = query
        self.headers = headers
        self.path_parameters = {}

    def json_body(self):
        return json.loads(self.body or b"null")

    @property
    def query_parameters(self):
        """Like MockRequest.queryParameters: split on & and the first =, percent-decoded."""
        out = {}
        if not self.query:
            return out
        for pair in self.query.split("&"):
            name, eq, value = pair.partition("=")
            out[unquote_plus(name)] = unquote_plus(value) if eq else ""
        return out


RANK = {"exact": 0, "parameterized": 1, "prefix": 2, "folder": 3, "catchAll": 4}


def _match(kind, pattern, path):
    if kind == "exact":
        return {} if path == pattern else None
    if kind == "prefix":
        return {} if path.startswith(pattern) else None
    if kind == "catchAll":
        return {}
    if kind == "folder":
        return {} if path.startswith(pattern) else None
    want, got = pattern.split("/"), path.split("/")
    if len(want) != len(got):
        return None
    params = {}
    for w, g in zip(want, got):
        if w.startswith(":") and len(w) > 1:
            if not g:
                return None
            params[w[1:]] = unquote(g)
        elif w != g:
            return None
    return params


class MockServer:
    def __init__(self):
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._routes = []  # (kind, method or None, pattern, handler), registration order
        self._journal = []  # Request, arrival order
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, like MockServer

            def log_message(self, *args):
                pass

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = Request(self.command, self.path, self.headers, body)
                response = server._answer(request)
                if response.delay:
                    time.sleep(response.delay)
                self.send_response_only(response.status)  # no Server/Date headers, like MockServer
                headers = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "*"}
                headers.update(response.headers)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(response.body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(response.body)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = _serve

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        # serve_forever notices shutdown() only between polls: a short interval keeps stop()
        # at ~10 ms (the default 0.5 s would add up to half a second to every test's teardown).
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01},
                                        name="mockserver", daemon=True)
        self._thread.start()

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def stop(self):
        self._httpd.shutdown()
        self._httpd.server_close()

    # Routes (MockServer+Routes.swift)

    def register(self, method, path, handler):
        self._add("exact", method, path, handler)

    def register_prefix(self, method, prefix, handler):
        self._add("prefix", method, prefix, handler)

    def register_parameterized(self, method, pattern, handler):
        self._add("parameterized", method, pattern, handler)

    def register_catch_all(self, handler):
        self._add("catchAll", None, None, handler)

    def serve_folder(self, folder, at="/"):
        """`serveFolder(_:at:)`: GET (and HEAD) of the files under `folder` at the prefix `at`,
        `index.html` for the prefix itself."""
        root = os.path.realpath(folder)

        def serve(request):
            segments = [unquote(s) for s in request.path[len(at):].split("/") if s]
            if any(s in ("..", ".") or "/" in s or "\\" in s or "\0" in s for s in segments):
                return Response(404, {"Content-Type": "text/plain; charset=utf-8"}, b"refused")
            path = os.path.realpath(os.path.join(root, *segments))
            if os.path.isdir(path):
                path = os.path.join(path, "index.html")
            if not (path == root or path.startswith(root + os.sep)) or not os.path.isfile(path):
                return Response(404, {"Content-Type": "text/plain; charset=utf-8"}, b"no such file")
            with open(path, "rb") as f:
                data = f.read()
            kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
                kind += "; charset=utf-8"
            return Response(200, {"Content-Type": kind, "Cache-Control": "no-store"}, data)

        self._add("folder", "GET", at, serve)

    def _add(self, kind, method, pattern, handler):
        with self._lock:
            self._routes.append((kind, method, pattern, handler))

    # Recording (MockServer+Recording.swift)

    @property
    def all_requests(self):
        with self._lock:
            return list(self._journal)

    def requests(self, method, path):
        return [r for r in self.all_requests if r.method == method and r.path == path]

    def did_receive(self, method, path):
        return bool(self.requests(method, path))

    def wait_for_request(self, method, path, timeout=10.0):
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for r in self._journal:
                    if r.method == method and r.path == path:
                        return r
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no {method} {path} within {timeout} s")
                self._changed.wait(left)

    # Answering (MockHTTPHandler.answer)

    def _answer(self, request):
        with self._changed:
            self._journal.append(request)
            self._changed.notify_all()
            routes = list(self._routes)
        if request.method == "OPTIONS" and request.headers.get("Access-Control-Request-Method") is not None \
                and not any(m == "OPTIONS" and _match(k, p, request.path) is not None for k, m, p, _ in routes):
            requested = request.headers.get("Access-Control-Request-Method") or "GET"
            methods = [requested] + [m for m in STANDARD_METHODS if m != requested.upper()]
            return Response(204, {
                "Access-Control-Allow-Methods": ", ".join(methods),
                "Access-Control-Allow-Headers": request.headers.get("Access-Control-Request-Headers") or "*",
                "Access-Control-Max-Age": "600",
            })
        best = None
        for kind, method, pattern, handler in reversed(routes):
            if method is not None and not (method == request.method or (request.method == "HEAD" and method == "GET")):
                continue
            if best is not None and RANK[best[0]] <= RANK[kind]:
                continue
            params = _match(kind, pattern, request.path)
            if params is None:
                continue
            best = (kind, handler, params)
            if RANK[kind] == 0:
                break
        if best is None:
            return Response(404)
        request.path_parameters = best[2]
        try:
            return best[1](request)
        except Exception as error:  # MockServer: a throwing handler answers 500 with the message
            return Response(500, {"Content-Type": "text/plain; charset=utf-8"}, f"handler threw: {error}".encode())
