"""A minimal MCP streamable-HTTP server over HTTPS, Python standard library only (tests/import_cli.rs):
answers initialize, notifications/initialized and tools/list with JSON, GET with 405.
Usage: tls_server.py CERT.pem KEY.pem; prints `listening PORT` once it accepts connections."""
import json, ssl, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

cert, key = sys.argv[1], sys.argv[2]
TOOLS = [{
    "name": "get_weather",
    "description": "Current weather for a city.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number", "description": "Air temperature, degC"}}},
    "annotations": {"readOnlyHint": True},
}]

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Mcp-Session-Id", "s1")
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        msg = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        method, mid = msg.get("method"), msg.get("id")
        if mid is None:
            return self.reply(202)
        if method == "initialize":
            result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                      "serverInfo": {"name": "weather-tls", "version": "1.0.0"}}
        elif method == "tools/list":
            result = {"tools": TOOLS}
        else:
            return self.reply(200, {"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no"}})
        self.reply(200, {"jsonrpc": "2.0", "id": mid, "result": result})

    def do_GET(self):
        self.reply(405)

    def do_DELETE(self):
        self.reply(200)

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
server.socket = ctx.wrap_socket(server.socket, server_side=True)
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
