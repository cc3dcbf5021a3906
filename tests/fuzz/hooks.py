"""Schemathesis hooks for Clearway's fuzz run (scripts/fuzz.sh).

FUZZ_BASE_URL  the server under test, e.g. http://127.0.0.1:18090
FUZZ_USER      the demo account to act as; empty: no token at all

The token comes from the development-only test login and is fetched again after a 401
(a generated logout call revokes the session it ran with). The `envelope` check holds every
JSON answer to the wire's envelope: an object with an integer `code` and a string `message`.
"""

import json
import os
import urllib.parse
import urllib.request

import schemathesis

BASE = os.environ["FUZZ_BASE_URL"].rstrip("/")
USER = os.environ.get("FUZZ_USER", "")

# Routes whose JSON answer is not the envelope by design (the OpenAPI document itself).
NOT_ENVELOPED = {"/api/openapi.json"}

if USER:

    @schemathesis.auth(refresh_interval=60, retry_on=[401])
    class TestLogin:
        def get(self, case, context):
            query = urllib.parse.urlencode({"userName": USER})
            with urllib.request.urlopen(f"{BASE}/api/v1/oauth/token/test?{query}", timeout=10) as r:
                body = json.load(r)
            if body.get("code") != 200 or not isinstance(body.get("data"), str):
                raise RuntimeError(f"test login for {USER!r} failed: {body}")
            return body["data"]

        def set(self, case, data, context):
            case.headers = case.headers or {}
            case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.check
def envelope(ctx, response, case):
    """Every JSON answer is {code: int, message: str, ...}."""
    ctype = response.headers.get("content-type", [""])
    ctype = ctype[0] if isinstance(ctype, list) else ctype
    # application/json only: JSON lines (application/x-ndjson, the audit export) is a file.
    if ctype.split(";")[0].strip().lower() != "application/json" or case.path in NOT_ENVELOPED:
        return None
    try:
        body = json.loads(response.content)
    except ValueError as err:
        raise AssertionError(f"answer says JSON but does not parse: {err}")
    if not isinstance(body, dict):
        raise AssertionError(f"answer is not an envelope object: {type(body).__name__}")
    if not isinstance(body.get("code"), int) or not isinstance(body.get("message"), str):
        raise AssertionError(f"answer lacks the envelope's code/message: {str(body)[:200]}")
    return None
