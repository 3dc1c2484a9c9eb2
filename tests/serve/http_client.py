"""Drive `schemarouter serve` with a real HTTP client (httpx2, keep-alive) and check every
response against the OpenAPI description (validated by openapi-spec-validator; bodies by
jsonschema against the response schemas of the operation and status).

Usage:
  http_client.py api URL TOKEN EXPECTED.json DOC.json
  http_client.py reload URL PID ARTIFACT EXPECTED.json   (file replaced; watcher)
  http_client.py sighup URL PID ARTIFACT EXPECTED.json   (file replaced; SIGHUP)

EXPECTED.json: `question`, `routed` (the CLI's `route --json` output), `prompt`,
`content_hash`; for reload/sighup also `a` and `b` ({path, content_hash, routing_fingerprint}
of two artifacts) and `bad` (a corrupted artifact's path). Prints one JSON line of figures,
then "ok".
"""

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import sys
import time

import httpx2
import jsonschema
from openapi_spec_validator import validate as validate_spec
from prometheus_client.openmetrics.parser import text_string_to_metric_families

SPEC = None
CHECKED = {"responses": 0}


def template_of(path):
    """The OpenAPI path template a concrete path matches, or None (unknown route)."""
    for t in SPEC["paths"]:
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", t) + "$"
        if re.match(pattern, path):
            return t
    return None


def schema_validator(schema):
    root = dict(schema)
    root["components"] = SPEC["components"]
    return jsonschema.Draft202012Validator(root)


ERROR_REF = {"$ref": "#/components/schemas/Error"}


def check(resp, method="get"):
    """Validate one response against the description; return its JSON body (or text)."""
    CHECKED["responses"] += 1
    path = resp.request.url.path
    t = template_of(path)
    ctype = resp.headers.get("content-type", "").split(";")[0].strip()
    if t is None or method not in SPEC["paths"][t]:
        # Unknown routes and methods answer with the Error schema.
        assert resp.status_code in (404, 405, 401), (path, resp.status_code)
        assert ctype == "application/json", ctype
        body = resp.json()
        schema_validator(ERROR_REF).validate(body)
        return body
    op = SPEC["paths"][t][method]
    spec_resp = op["responses"].get(str(resp.status_code)) or op["responses"]["default"]
    content = spec_resp["content"]
    assert ctype in content, (path, resp.status_code, ctype, list(content))
    if ctype == "application/json":
        body = resp.json()
        schema_validator(content[ctype]["schema"]).validate(body)
        return body
    schema_validator(content[ctype]["schema"]).validate(resp.text)
    return resp.text


def expect_error(resp, status, code, starts, method="get"):
    body = check(resp, method)
    assert resp.status_code == status, (resp.status_code, body)
    assert body["error"]["code"] == code, body
    assert body["error"]["message"].startswith(starts), body["error"]["message"]
    return body


async def api(url, token, exp, doc_path):
    global SPEC
    committed = json.load(open(doc_path, encoding="utf-8"))
    validate_spec(committed)
    SPEC = committed
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(base_url=url, headers=auth) as c, httpx2.AsyncClient(base_url=url) as anon:
        served = check(await c.get("/openapi.json"))
        assert served == committed, "GET /openapi.json differs from docs/http-api.openapi.json"

        # Bearer token: every request needs it.
        for path in ["/healthz", "/v1/intents", "/metrics", "/nope"]:
            r = await anon.get(path)
            expect_error(r, 401, "unauthorized", "this server requires a bearer token")
            assert r.headers["www-authenticate"] == "Bearer"
        expect_error(await anon.post("/v1/route", json={"question": "x"}), 401, "unauthorized",
                     "this server requires a bearer token", "post")
        expect_error(await anon.get("/healthz", headers={"Authorization": f"Bearer {token}x"}), 401,
                     "unauthorized", "wrong bearer token")
        expect_error(await anon.get("/healthz", headers={"Authorization": token}), 401,
                     "unauthorized", "the Authorization header must be `Bearer <token>`")

        assert check(await c.get("/healthz")) == {"status": "ok"}
        ready = check(await c.get("/readyz"))
        assert ready["status"] == "ready"
        s = ready["artifact"]
        assert s["content_hash"] == exp["content_hash"], s
        assert (s["project"], s["tools"], s["endpoints"], s["fields"], s["concepts"], s["intents"]) == (
            "materials-16", 16, 17, 398, 192, 13), s

        routes_ok = 0
        r = await c.post("/v1/route", json={"question": exp["question"]})
        body = check(r, "post")
        routes_ok += 1
        assert r.status_code == 200
        assert body == {**exp["routed"], "artifact_hash": exp["content_hash"]}, "differs from `route --json`"
        assert r.headers["x-artifact-hash"] == exp["content_hash"]

        u = exp["routed"]["understanding"]
        r = await c.post("/v1/route", json={"understanding": u, "k": 2, "projection": "all"})
        body = check(r, "post")
        routes_ok += 1
        assert body["understanding"] == u
        assert len(body["plan"]["steps"][0]["fields"]) > len(exp["routed"]["plan"]["steps"][0]["fields"])

        # Search: the same ranking as `schemarouter search --json`.
        r = await c.post("/v1/search", json={"query": exp["search_query"], "k": 3})
        body = check(r, "post")
        assert body == {**exp["searched"], "artifact_hash": exp["content_hash"]}, body
        assert r.headers["x-artifact-hash"] == exp["content_hash"]
        expect_error(await c.post("/v1/search", json={"query": ""}), 400, "invalid_request",
                     '`query` is empty; give a question or keywords such as "current weather in London"', "post")
        expect_error(await c.post("/v1/search", json={"question": "x"}), 400, "invalid_request",
                     "not a valid search request: unknown field `question`, expected `query` or `k`; "
                     'send one JSON object: {"query": "..."}, optionally with "k" (1-1000, default 10)', "post")
        r = await c.get("/v1/search")
        expect_error(r, 405, "method_not_allowed", "GET is not allowed on /v1/search; use POST")

        intents = check(await c.get("/v1/intents"))
        assert len(intents["intents"]) == 13 and intents["artifact_hash"] == exp["content_hash"]
        r = await c.get("/v1/prompt")
        assert check(r) == exp["prompt"]
        assert r.headers["content-type"] == "text/plain; charset=utf-8"
        tool = check(await c.get("/v1/tools/materials_project"))
        assert tool["tool"]["id"] == "materials_project" and len(tool["tool"]["endpoints"]) == 1, tool["tool"]["id"]

        # Bad requests: the right 4xx, a JSON error saying what to fix.
        expect_error(await c.get("/v1/tools/nope"), 404, "unknown_tool",
                     "no tool `nope` in the artifact; known tools: aflow, arxiv, cod,")
        post = lambda content, **kw: c.post("/v1/route", content=content,
                                            headers={"Content-Type": "application/json", **kw})
        expect_error(await post(b'{"question": '), 400, "invalid_json", "the body is not valid JSON (EOF while parsing", "post")
        expect_error(await post(b'\xff\xfe'), 400, "invalid_json", "the body is not valid JSON", "post")
        expect_error(await post(b'[1, 2]'), 400, "invalid_request", "expected a JSON object, found an array", "post")
        expect_error(await post(b'{"question": 5}'), 400, "invalid_request",
                     "not a valid route request: invalid type: integer `5`, expected a string", "post")
        expect_error(await post(b'{"question": "x", "k": "two"}'), 400, "invalid_request",
                     "not a valid route request: invalid type: string \"two\", expected u64", "post")
        expect_error(await post(b'{"question": "x", "projection": "some"}'), 400, "invalid_request",
                     "not a valid route request: unknown variant `some`, expected one of `core`, `recall`, `minimal`, `all`", "post")
        expect_error(await post(b'{"question": "x", "extra": 1}'), 400, "invalid_request",
                     "not a valid route request: unknown field `extra`", "post")
        expect_error(await post(b'{"understanding": {"intent": 5}}'), 400, "invalid_request",
                     "not a valid route request: invalid type: integer `5`, expected a string", "post")
        expect_error(await post(b'{}'), 400, "invalid_request", "give `question` (a text) or `understanding` (an object)", "post")
        expect_error(await post(b'{"question": "  "}'), 400, "invalid_request", "`question` is empty", "post")
        expect_error(await post(json.dumps({"question": "x" * 2001}).encode()), 400, "question_too_long",
                     "`question` has 2001 characters; at most 2000 are accepted", "post")
        expect_error(await post(json.dumps({"question": "x", "k": 0}).encode()), 400, "invalid_request",
                     "`k` must be between 1 and 1000, got 0", "post")
        big = json.dumps({"question": "x", "understanding": {"domain_concepts": ["y" * 70000]}}).encode()
        # Answered before the body is read: the server closes the connection and says so, so
        # that the client's next request goes on a new one (it could find the old one closed).
        r = await post(big)
        expect_error(r, 413, "payload_too_large", "the body is larger than 65536 bytes", "post")
        assert r.headers.get("connection") == "close", r.headers
        r = await c.post("/v1/route", content=b"question=x",
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        expect_error(r, 415, "unsupported_media_type", "the body must be JSON", "post")
        assert r.headers.get("connection") == "close", r.headers
        expect_error(await c.get("/v2/route"), 404, "not_found", "no route GET /v2/route")
        r = await c.get("/v1/route")
        expect_error(r, 405, "method_not_allowed", "GET is not allowed on /v1/route; use POST")
        assert r.headers["allow"] == "POST"
        expect_error(await c.delete("/healthz"), 405, "method_not_allowed", "DELETE is not allowed on /healthz; use GET", "delete")

        # Many at once on kept-alive connections: all answered, all the same plan.
        rs = await asyncio.gather(*[c.post("/v1/route", json={"question": exp["question"]}) for _ in range(64)])
        for r in rs:
            assert check(r, "post")["plan"] == exp["routed"]["plan"]
        routes_ok += 64

        # A body that never finishes is cut off by the request timeout (408), not left hanging.
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(b"POST /v1/route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Authorization: Bearer " + token.encode() + b"\r\nContent-Length: 100\r\n\r\n{\"question\"")
            started = time.monotonic()
            reply = sock.recv(65536).decode()
            waited = time.monotonic() - started
        assert reply.startswith("HTTP/1.1 408"), reply
        assert '"code":"timeout"' in reply, reply
        assert 1.5 < waited < 10, waited

        # Metrics: exact counts for what this script sent.
        text = check(await c.get("/metrics"))
        fams = {f.name: f for f in text_string_to_metric_families(text)}
        req = {(s.labels["route"], s.labels["status"]): s.value for s in fams["schemarouter_requests"].samples}
        assert req[("/v1/route", "200")] == routes_ok, req
        assert req[("/v1/route", "413")] == 1 and req[("/v1/route", "415")] == 1, req
        assert req[("/v1/route", "408")] == 1, req
        assert req[("/v1/route", "400")] == 12, req
        assert req[("unmatched", "401")] == 1 and req[("/healthz", "401")] == 3, req
        assert req[("/v1/search", "200")] == 1 and req[("/v1/search", "400")] == 2, req
        assert req[("/v1/search", "405")] == 1, req
        info = [s for s in fams["schemarouter_artifact_info"].samples]
        assert len(info) == 1 and info[0].labels["content_hash"] == exp["content_hash"], info
        hist = fams["schemarouter_request_duration_seconds"]
        count = [s.value for s in hist.samples if s.name.endswith("_count") and s.labels["route"] == "/v1/route"]
        assert count == [sum(v for (route, _), v in req.items() if route == "/v1/route")], count
        assert fams["schemarouter_artifact_load_duration_seconds"].samples[0].value > 0
    print(json.dumps({"responses_checked": CHECKED["responses"]}))


def replace(src, dst):
    """Replace dst atomically with a copy of src (as `compile` does: temporary file, rename)."""
    tmp = dst + ".tmp-test"
    shutil.copyfile(src, tmp)
    os.replace(tmp, dst)


async def reload(url, pid, artifact, exp, use_sighup):
    a, b = exp["a"], exp["b"]
    fp = {a["content_hash"]: a["routing_fingerprint"], b["content_hash"]: b["routing_fingerprint"]}
    stop = asyncio.Event()
    seqs, failures = [], []
    latest = {"hash": None}

    async def worker(client, i):
        seq = []
        while not stop.is_set():
            try:
                r = await client.post("/v1/route", json={"question": exp["question"]})
                body = r.json()
                if r.status_code != 200:
                    failures.append((r.status_code, body))
                    continue
                h = body["artifact_hash"]
                if fp.get(h) != body["plan"]["routing_fingerprint"] or r.headers["x-artifact-hash"] != h:
                    failures.append(("mismatch", h, body["plan"]["routing_fingerprint"]))
                seq.append(h)
                latest["hash"] = h
            except Exception as e:  # a dropped connection or a timeout is a failure
                failures.append(("error", repr(e)))
        seqs.append(seq)

    async def wait_for(h, limit=15.0):
        t = time.monotonic()
        while time.monotonic() - t < limit:
            if latest["hash"] == h:
                return time.monotonic() - t
            await asyncio.sleep(0.01)
        raise AssertionError(f"hash {h} never served")

    limits = httpx2.Limits(max_connections=16, max_keepalive_connections=16)
    async with httpx2.AsyncClient(base_url=url, limits=limits, timeout=10) as c:
        tasks = [asyncio.create_task(worker(c, i)) for i in range(16)]
        await wait_for(a["content_hash"])
        await asyncio.sleep(0.3)
        replace(b["path"], artifact)
        if use_sighup:
            # Without the watcher the file is not re-read until SIGHUP.
            await asyncio.sleep(0.5)
            assert latest["hash"] == a["content_hash"], "reloaded without SIGHUP"
            os.kill(pid, signal.SIGHUP)
        swap_b = await wait_for(b["content_hash"])
        await asyncio.sleep(0.3)
        # A corrupted artifact is refused; the old one keeps answering.
        replace(exp["bad"], artifact)
        if use_sighup:
            os.kill(pid, signal.SIGHUP)
        await asyncio.sleep(1.0)
        assert latest["hash"] == b["content_hash"]
        replace(a["path"], artifact)
        if use_sighup:
            os.kill(pid, signal.SIGHUP)
        swap_a = await wait_for(a["content_hash"])
        await asyncio.sleep(0.3)
        stop.set()
        await asyncio.gather(*tasks)
        metrics = (await c.get("/metrics")).text
    assert failures == [], failures[:5]
    total = sum(len(s) for s in seqs)
    for s in seqs:
        # Each worker sees A, then B, then A again: never an older artifact after a newer one.
        changes = sum(1 for x, y in zip(s, s[1:]) if x != y)
        assert changes <= 2, changes
    seen = {h for s in seqs for h in s}
    assert seen == {a["content_hash"], b["content_hash"]}, seen
    fams = {f.name: f for f in text_string_to_metric_families(metrics)}
    reloads = {s.labels["result"]: s.value for s in fams["schemarouter_artifact_reloads"].samples}
    assert reloads.get("swapped") == 2 and reloads.get("refused") == 1, reloads
    print(json.dumps({"requests": total, "failed": 0, "swap_b_s": round(swap_b, 3), "swap_a_s": round(swap_a, 3)}))


def main():
    mode, url = sys.argv[1], sys.argv[2]
    if mode == "api":
        asyncio.run(api(url, sys.argv[3], json.load(open(sys.argv[4], encoding="utf-8")), sys.argv[5]))
    else:
        pid, artifact = int(sys.argv[3]), sys.argv[4]
        exp = json.load(open(sys.argv[5], encoding="utf-8"))
        asyncio.run(reload(url, pid, artifact, exp, mode == "sighup"))
    print("ok")


main()
