"""An HTTP API for tests/gateway.rs: one well-behaved list endpoint and one endpoint per fault.

Usage: fault_server.py SECRET. Listens on 127.0.0.1 (a free port, printed on the first line of
stdout) until killed. SECRET is the API key the gateway must send as the `api_key` query
parameter; the list endpoint echoes it back in its envelope and the 500 echoes it in its body
(the gateway must scrub both).

GET  /v1/materials?formula=F   {"meta": {...}, "data": [7 records of 40 fields]} (F = Fail500: a 500)
GET  /v1/materials/ID          one record (density)
GET  /v1/slow                  answers after 5 s
GET  /v1/limited               429 with Retry-After: 1 on every odd request, 200 on even ones
GET  /v1/broken                500 with the key in its body
GET  /v1/huge                  about 3 MB, without Content-Length
GET  /v1/garbage               200 with a body that is not JSON
GET  /v1/html                200, declared application/json, with an HTML page
GET  /v1/nulls               200, {"data": [a record, null, 5, null]}
GET  /v1/reset                 closes the connection without an answer
POST /v1/echo                  {"note": <body note>, "seen_key": <api_key>}
GET  /materials/summary/?formula=F  the Materials Project's summary shape ({"data": [...],
                               "meta": {...}}), 3 records, only with SECRET in the `x-api-key`
                               header (the shipped declaration's credential, 401 otherwise)
GET  /stats                    requests per path
ANY  /raw/...                  what arrived, exactly: {"method", "path", "query" (as sent),
                               "content_type", "body" (each byte one character U+0000-U+00FF),
                               "authorization" (the header), "basic_credentials" (a Basic
                               header's `user:password`, decoded), "client_id" (the
                               X-Client-Id header)}
                               (tests/gateway/bodies.openapi.yaml)
GET  /raw/image                PNG_BYTES as image/png; /raw/pdf PDF_BYTES as application/pdf
GET  /raw/private/key.bin      the credentials received (X-Client-Id, the Basic password, the
                               Authorization header) echoed inside application/octet-stream
                               bytes; /raw/private/key.png inside a PNG's bytes; both also in
                               an `X-Echo-Key` response header; /raw/private/key-error in a 403's
                               JSON body and header
"""

import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

SECRET = sys.argv[1]
# A 1x1 PNG and the start of a PDF with binary bytes (neither is UTF-8 text).
PNG_BYTES = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC")
PDF_BYTES = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n"
HITS = {}
LOCK = threading.Lock()


def record(i, formula):
    r = {
        "material_id": f"mp-{formula}-{i}",
        "formula_pretty": formula,
        "band_gap": round(1.5 + i * 0.25, 2),
    }
    # The rest of a real materials record: fields no plan asked for.
    for k in range(37):
        r[f"property_{k:02d}"] = {"value": k * i + 0.5, "unit": "arb", "note": f"measured {k} of {i}"}
    return r


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send_json(self, status, obj, headers=()):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def count(self, path):
        with LOCK:
            HITS[path] = HITS.get(path, 0) + 1
            return HITS[path]

    def echo_raw(self):
        """What a request to /raw/... carried, exactly."""
        u = urlparse(self.path)
        self.count("/raw")
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        auth = self.headers.get("Authorization")
        basic = None
        if auth and auth.startswith("Basic "):
            basic = base64.b64decode(auth[6:], validate=True).decode("utf-8")
        return self.send_json(200, {"method": self.command, "path": u.path, "query": u.query,
                                    "content_type": self.headers.get("Content-Type"),
                                    "body": body.decode("latin-1"),
                                    "authorization": auth, "basic_credentials": basic,
                                    "client_id": self.headers.get("X-Client-Id")})

    def do_PUT(self):
        if self.path.startswith("/raw/"):
            return self.echo_raw()
        return self.send_json(404, {"error": "no such path"})

    def send_bytes(self, media, body):
        self.send_response(200)
        self.send_header("Content-Type", media)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def echo_key(self, what):
        """The credentials received, echoed in binary bodies, a header and an error."""
        cid = (self.headers.get("X-Client-Id") or "").encode()
        auth = (self.headers.get("Authorization") or "").encode()
        pw = b""
        if auth.startswith(b"Basic "):
            pw = base64.b64decode(auth[6:]).split(b":", 1)[1]
        echo = [("X-Echo-Key", cid.decode())]
        if what == "key.bin":
            body, media = b"\x00\xff" + cid + b"|" + pw + b"|" + auth + b"\xfe", "application/octet-stream; note=" + cid.decode()
        elif what == "key.png":
            body, media = PNG_BYTES[:-12] + b"tEXtkey\x00" + cid + b" " + pw + PNG_BYTES[-12:], "image/png"
        else:
            return self.send_json(403, {"error": f"client {cid.decode()} with {pw.decode()} refused"}, echo)
        self.send_response(200)
        self.send_header("Content-Type", media)
        self.send_header("Content-Length", str(len(body)))
        for k, v in echo:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/raw/private/key"):
            return self.echo_key(self.path.rsplit("/", 1)[1])
        if self.path == "/raw/image":
            return self.send_bytes("image/png", PNG_BYTES)
        if self.path == "/raw/pdf":
            return self.send_bytes("application/pdf", PDF_BYTES)
        if self.path.startswith("/raw/"):
            return self.echo_raw()
        u = urlparse(self.path)
        q = parse_qs(u.query)
        n = self.count(u.path)
        if u.path == "/stats":
            return self.send_json(200, HITS)
        if u.path == "/v1/materials":
            if q.get("api_key") != [SECRET]:
                return self.send_json(401, {"error": "bad key"})
            formula = q.get("formula", ["?"])[0]
            if formula == "Fail500":
                return self.send_json(500, {"error": "no such formula"})
            meta = {
                "query": u.query,
                "trace": self.headers.get("X-Trace"),
                "key_echo": SECRET,
                "count": 7,
            }
            return self.send_json(200, {"meta": meta, "data": [record(i, formula) for i in range(7)]})
        if u.path == "/materials/summary/":
            if self.headers.get("x-api-key") != SECRET or "x-api-key" in q:
                return self.send_json(401, {"detail": "bad or missing x-api-key header"})
            formula = q.get("formula", ["?"])[0]
            data = [{"material_id": f"mp-{800 + i}", "formula_pretty": formula, "band_gap": 1.5 + i,
                     "density": 6.0 + i, "nsites": 4 * (i + 1), "theoretical": i > 0} for i in range(3)]
            return self.send_json(200, {"data": data, "meta": {"total_doc": 3, "api_version": "test"}})
        if u.path.startswith("/v1/materials/"):
            mid = u.path.rsplit("/", 1)[1]
            return self.send_json(200, {"material_id": mid, "density": 6.15, "spacegroup": "P6_3mc"})
        if u.path == "/v1/slow":
            time.sleep(5)
            return self.send_json(200, {"ok": True})
        if u.path == "/v1/limited":
            if n % 2 == 1:
                return self.send_json(429, {"error": "slow down"}, [("Retry-After", "1")])
            return self.send_json(200, {"ok": True})
        if u.path == "/v1/broken":
            return self.send_json(500, {"error": f"internal error while checking key {SECRET}"})
        if u.path == "/v1/huge":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b'{"ok": true, "pad": "' + b"x" * 65536
            try:
                for _ in range(48):
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
            return
        if u.path == "/v1/garbage":
            body = b'{"ok": tru'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if u.path == "/v1/html":
            body = b"<html><body>Please log in</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if u.path == "/v1/nulls":
            return self.send_json(200, {"data": [{"temp": 1.5}, None, 5, None]})
        if u.path == "/v1/reset":
            self.close_connection = True
            self.connection.close()
            return
        return self.send_json(404, {"error": "no such path"})

    def do_POST(self):
        if self.path.startswith("/raw/"):
            return self.echo_raw()
        u = urlparse(self.path)
        self.count(u.path)
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        if u.path == "/v1/echo":
            seen = parse_qs(u.query).get("api_key", [""])[0]
            return self.send_json(200, {"note": body.get("note"), "seen_key": seen})
        return self.send_json(404, {"error": "no such path"})

    def do_DELETE(self):
        self.count(urlparse(self.path).path)
        return self.send_json(200, {"ok": True})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
