"""Every `given…` of Scenarios/UITestCase+Scenarios.swift and its TodoBackend, in Python."""
import json
import threading

from mockserver import Response

GROCERIES = [
    {"id": 1, "title": "Buy milk", "completed": False},
    {"id": 2, "title": "Walk the dog", "completed": False},
    {"id": 3, "title": "Pay rent", "completed": True},
]


class TodoBackend:
    """An in-memory /todos backend for one test (TodoBackend.swift)."""

    def __init__(self, items):
        self._lock = threading.Lock()
        self._items = [dict(item) for item in items]
        self._next = max((item["id"] for item in items), default=0) + 1

    @property
    def current(self):
        with self._lock:
            return [dict(item) for item in self._items]

    def respond(self, request):
        """The answer to a request under /todos, None for any other path."""
        if request.path == "/todos":
            if request.method == "GET":
                return Response.json(json.dumps(self.current))
            if request.method == "POST":
                return self._create(request.json_body())
            return Response.of_status(405)
        if not request.path.startswith("/todos/"):
            return None
        try:
            id_ = int(request.path[len("/todos/"):])
        except ValueError:
            return None
        if request.method == "PATCH":
            return self._update(id_, request.json_body())
        if request.method == "DELETE":
            return self._delete(id_)
        return Response.of_status(405)

    def _create(self, draft):
        with self._lock:
            item = {"id": self._next, "title": draft["title"], "completed": bool(draft.get("completed"))}
            self._next += 1
            self._items.append(item)
        return Response.json(json.dumps(item), status=201)

    def _update(self, id_, changes):
        with self._lock:
            for item in self._items:
                if item["id"] == id_:
                    for key in ("title", "completed"):
                        if key in changes:
                            item[key] = changes[key]
                    return Response.json(json.dumps(item))
        return Response.of_status(404)

    def _delete(self, id_):
        with self._lock:
            before = len(self._items)
            self._items = [item for item in self._items if item["id"] != id_]
            removed = len(self._items) < before
        return Response.of_status(204 if removed else 404)


# Initial scenarios

def given_list_succeeds(mock, items=GROCERIES):
    backend = TodoBackend(items)
    mock.register_catch_all(lambda request: backend.respond(request) or Response.of_status(404))
    return backend


def given_empty_list_succeeds(mock):
    return given_list_succeeds(mock, [])


def given_saving_fails(mock, items=GROCERIES):
    backend = TodoBackend(items)

    def answer(request):
        if request.method == "GET":
            return backend.respond(request) or Response.of_status(404)
        return Response.of_status(500)
    mock.register_catch_all(answer)


def given_all_requests_fail(mock):
    mock.register_catch_all(lambda request: Response.of_status(500))


# Recovery scenarios

def given_list_recovers(mock, items=GROCERIES):
    backend = TodoBackend(items)
    mock.register("GET", "/todos", lambda request: backend.respond(request) or Response.of_status(404))


# The request journal

def sent_bodies(mock, method, path):
    return [json.loads(r.body) for r in mock.requests(method, path)]
