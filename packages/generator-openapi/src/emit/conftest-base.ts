/**
 * The fixed part of the generated conftest.py: the client that records each test's requests and
 * answers, the credential, and the checks against api_contract.json. Python, as written to disk.
 */
export const CONFTEST_BASE = String.raw`"""Fixtures and checks of the generated API tests (written by suture generate api).

The tests run without suture: API_BASE_URL names the service (default: the one they were written
for), and the credential comes from the environment variable named in api_contract.json. Each test
records its requests and answers in .exchanges/, the evidence of a bug report.
"""

import json
import os
import re
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import requests
from jsonschema import Draft202012Validator, FormatChecker

HERE = Path(__file__).resolve().parent
CONTRACT = json.loads((HERE / "api_contract.json").read_text(encoding="utf-8"))
BASE_URL = os.environ.get("API_BASE_URL", CONTRACT["baseUrl"]).rstrip("/")
AUTH = CONTRACT.get("auth") or {}
RESPONSE_TIME_LIMIT_S = float(os.environ.get("API_MAX_RESPONSE_S", CONTRACT["responseTimeLimitS"]))
EXCHANGES = HERE / ".exchanges"
NO_BODY = object()
_PHASE = {"now": "call"}


def pytest_configure(config):
    config.addinivalue_line("markers", "case(id): the case id (TC-###) of the test in testcases.md")


def pytest_sessionstart(session):
    try:
        requests.get(BASE_URL, timeout=10)
    except requests.RequestException as error:
        pytest.exit(
            f"{BASE_URL} is unreachable ({type(error).__name__}); start the service or set API_BASE_URL",
            returncode=3,
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    _PHASE["now"] = "setup"
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    _PHASE["now"] = "call"
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    _PHASE["now"] = "teardown"
    yield


def credential():
    token = os.environ.get(AUTH.get("env", "API_TOKEN"), "")
    if not token or not AUTH:
        return {}, {}
    if AUTH["kind"] == "apiKey":
        if AUTH.get("in") == "query":
            return {}, {AUTH["name"]: token}
        return {AUTH["name"]: token}, {}
    if AUTH["kind"] == "basic":
        return {"Authorization": f"Basic {token}"}, {}
    return {"Authorization": f"Bearer {token}"}, {}


def _shown_headers(headers):
    secret = {"authorization", (AUTH.get("name") or "").lower()}
    return {k: ("***" if k.lower() in secret else v) for k, v in headers.items()}


def _body_of(resp):
    try:
        return resp.json()
    except ValueError:
        return resp.text[:4000]


class Api:
    """requests, with every call of a test's setup and body kept in .exchanges/<test>.json."""

    def __init__(self, nodeid):
        self.session = requests.Session()
        self.file = EXCHANGES / (re.sub(r"[^A-Za-z0-9_.-]", "_", nodeid) + ".json")
        self.exchanges = []
        self.file.unlink(missing_ok=True)

    def call(self, method, path, path_args=None, query=None, json=NO_BODY, raw=None, auth=True, headers=None):
        args = path_args or {}
        url = BASE_URL + re.sub(r"\{([^}]+)\}", lambda m: quote(str(args.get(m.group(1), m.group(0))), safe=""), path)
        sent_headers, params = (credential() if auth else ({}, {}))
        sent_headers = {**sent_headers, **(headers or {})}
        params = {**params, **(query or {})}
        kwargs = {}
        if raw is not None:
            kwargs["data"] = raw
            sent_headers.setdefault("Content-Type", "application/json")
        elif json is not NO_BODY:
            kwargs["json"] = json
        started = time.monotonic()
        resp = self.session.request(method, url, params=params or None, headers=sent_headers, timeout=30, **kwargs)
        elapsed = time.monotonic() - started
        if _PHASE["now"] != "teardown":
            self.exchanges.append(
                {
                    "phase": _PHASE["now"],
                    "method": method,
                    "path": path,
                    "pathArgs": args,
                    "query": query or {},
                    "url": resp.request.url,
                    "request": {
                        "headers": _shown_headers(sent_headers),
                        "body": raw if raw is not None else (None if json is NO_BODY else json),
                        "raw": raw is not None,
                    },
                    "response": {
                        "status": resp.status_code,
                        "headers": {k: v for k, v in resp.headers.items() if k.lower() in ("content-type", "location")},
                        "body": _body_of(resp) if resp.content else None,
                    },
                    "elapsedMs": round(elapsed * 1000, 1),
                }
            )
            EXCHANGES.mkdir(exist_ok=True)
            self.file.write_text(json_dumps(self.exchanges), encoding="utf-8")
        return resp


def json_dumps(value):
    return json.dumps(value, indent=1, default=str)


class Cleanup:
    """Deletes what a test created, newest first, after it (not recorded: it is not what was tested)."""

    def __init__(self):
        self.calls = []

    def add(self, method, path, path_args):
        self.calls.append((method, path, path_args))


@pytest.fixture
def api(request):
    client = Api(request.node.nodeid)
    yield client
    client.session.close()


@pytest.fixture
def cleanup(api):
    pending = Cleanup()
    yield pending
    for method, path, args in reversed(pending.calls):
        try:
            api.call(method, path, path_args=args)
        except requests.RequestException:
            pass


def _where(resp):
    return f"{resp.request.method} {resp.request.path_url}"


def _snippet(resp):
    return resp.text[:300].replace("\n", " ")


def _declared(operation, status):
    responses = CONTRACT["operations"][operation]["responses"]
    for key in (str(status), f"{str(status)[0]}XX", "default"):
        if key in responses:
            return responses[key]
    return None


def _same_media(got, want):
    if got == want or want in ("*/*", ""):
        return True
    if want.endswith("/*"):
        return got.startswith(want[:-1])
    return want.endswith("json") and (got.endswith("+json") or got == "application/json")


def _check_body(resp, operation):
    spec = _declared(operation, resp.status_code)
    if spec is None or not resp.content:
        return
    if spec.get("contentType"):
        got = resp.headers.get("Content-Type", "").split(";")[0].strip().lower()
        want = spec["contentType"].split(";")[0].strip().lower()
        assert _same_media(got, want), f"{_where(resp)} answered Content-Type {got or 'none'}; {operation} declares {want}"
    if spec.get("schema") is None:
        return
    try:
        body = resp.json()
    except ValueError:
        raise AssertionError(f"{_where(resp)} answered {resp.status_code} with a body that is not JSON: {_snippet(resp)}")
    validator = Draft202012Validator(spec["schema"], format_checker=FormatChecker())
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/" + "/".join(str(p) for p in errors[0].absolute_path)
        raise AssertionError(
            f"{_where(resp)} answered {resp.status_code} with a body that does not match the schema of {operation}: at {where}: {errors[0].message}"
        )


def assert_no_server_error(resp):
    assert resp.status_code < 500, f"{_where(resp)} answered {resp.status_code}, a server error: {_snippet(resp)}"


def assert_status(resp, *statuses):
    assert_no_server_error(resp)
    wanted = " or ".join(str(s) for s in statuses)
    assert resp.status_code in statuses, f"{_where(resp)} answered {resp.status_code}, expected {wanted}: {_snippet(resp)}"


def assert_client_error(resp, operation):
    assert_no_server_error(resp)
    assert 400 <= resp.status_code < 500, (
        f"{_where(resp)} answered {resp.status_code} to a request that breaks the document; expected a 4xx: {_snippet(resp)}"
    )
    _check_body(resp, operation)


def assert_contract(resp, operation):
    """The answer is declared for the operation: its status, Content-Type, schema and time."""
    assert_no_server_error(resp)
    declared = sorted(CONTRACT["operations"][operation]["responses"])
    assert _declared(operation, resp.status_code) is not None, (
        f"{_where(resp)} answered {resp.status_code}, which {operation} does not declare (it declares {', '.join(declared)})"
    )
    _check_body(resp, operation)
    seconds = resp.elapsed.total_seconds()
    assert seconds <= RESPONSE_TIME_LIMIT_S, f"{_where(resp)} took {seconds:.2f} s, over the limit of {RESPONSE_TIME_LIMIT_S} s"
`;
