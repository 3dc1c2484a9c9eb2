"""Drive `schemarouter gateway` over stdio with the official MCP Python SDK (`mcp` on PyPI), as
an agent would, against real upstreams imported live: `@modelcontextprotocol/server-memory`,
`mcp-server-time` and tests/gateway/flaky_mcp.py (crashes, hangs, tool errors).

Usage: agent.py SCHEMAROUTER ARTIFACT CONFIG MEMORY_FILE

Prints one `measure {...}` line per list-style call and for `get_current_time` (raw vs delivered tokens), then "ok".
"""

import asyncio
import json
import os
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

INTERNAL_ERROR = -32603


async def upstream_error(coro, upstream, code):
    try:
        r = await coro
    except MCPError as e:
        assert e.code == INTERNAL_ERROR, (e.code, e.message)
        assert e.data["upstream"] == upstream, e.data
        assert e.data["code"] == code, (e.data, e.message)
        assert e.message.startswith(f"upstream `{upstream}` failed"), e.message
        return e.message
    raise AssertionError(f"expected an upstream error, got {r}")


async def refused(coro, check):
    r = await coro
    assert r.is_error, r
    assert r.meta == {"code": "refused", "check": check}, r.meta
    return r.content[0].text


def values(r, step=0):
    assert not r.is_error, r.content
    return [rec["values"] for rec in r.structured_content["steps"][step]["records"]]


def measure(name, r):
    c = r.structured_content["calls"][0]
    print("measure " + json.dumps({"call": name, "raw_tokens": c["raw_tokens"],
                                   "delivered_tokens": c["delivered_tokens"], "raw_bytes": c["raw_bytes"]}))
    return c


async def drive(target):
    async with Client(target) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        # The gateway's tools, then every allowed endpoint re-exposed (--expose) under the
        # upstream's own name; destructive ones are not offered.
        names = sorted(tools)
        assert names == sorted(["ask", "call", "explain_plan", "list_intents", "route", "search_tools",
                                "add_observations", "create_entities", "create_relations", "open_nodes",
                                "read_graph", "search_nodes", "convert_time", "get_current_time",
                                "crash", "echo", "environ", "hang", "refuse", "shout", "vanished"]), names
        assert tools["get_current_time"].input_schema["required"] == ["timezone"], tools["get_current_time"].input_schema
        r = await c.call_tool("get_current_time", {"timezone": "America/New_York"})
        assert values(r)[0]["timezone"] == "America/New_York", values(r)

        # mcp-server-time (PyPI).
        r = await c.call_tool("call", {"tool": "mcp_time", "endpoint": "get_current_time",
                                       "arguments": {"timezone": "Asia/Tokyo"}})
        v = values(r)
        assert len(v) == 1 and v[0]["timezone"] == "Asia/Tokyo", v
        assert v[0]["datetime"].endswith("+09:00"), v
        assert r.content[0].text.startswith("[mcp_time/get_current_time]\n"), r.content[0].text
        measure("mcp_time/get_current_time", r)
        r = await c.call_tool("call", {"tool": "mcp_time", "endpoint": "convert_time", "arguments": {
            "source_timezone": "Europe/London", "time": "12:00", "target_timezone": "Asia/Kolkata"}})
        assert not r.is_error, r.content

        # @modelcontextprotocol/server-memory (npm): a list-style response.
        entities = [{"name": f"Entity {i}", "entityType": "element",
                     "observations": [f"observation {k} of entity {i}, recorded with care" for k in range(6)]}
                    for i in range(12)]
        r = await c.call_tool("call", {"tool": "memory_server", "endpoint": "create_entities",
                                       "arguments": {"entities": entities}})
        assert not r.is_error, r.content
        r = await c.call_tool("call", {"tool": "memory_server", "endpoint": "read_graph", "arguments": {},
                                       "fields": ["entities[].name"]})
        assert values(r) == [{"entities[].name": [f"Entity {i}" for i in range(12)]}], values(r)
        m = measure("memory_server/read_graph", r)
        assert m["delivered_tokens"] * 5 < m["raw_tokens"], m
        r = await c.call_tool("call", {"tool": "memory_server", "endpoint": "search_nodes",
                                       "arguments": {"query": "element"}, "fields": ["entities[].name", "entities[].entityType"]})
        assert values(r)[0]["entities[].entityType"] == ["element"] * 12, values(r)
        measure("memory_server/search_nodes", r)
        raw = await c.call_tool("call", {"tool": "memory_server", "endpoint": "read_graph", "arguments": {},
                                         "fields": ["entities[].name"], "raw": True})
        rt = raw.structured_content["raw"][0]
        assert rt["truncated"] is True and len(rt["text"].encode()) <= 2048, (rt["truncated"], len(rt["text"]))

        # The boundary.
        await refused(c.call_tool("call", {"tool": "memory_server", "endpoint": "delete_entities",
                                           "arguments": {"entityNames": ["Entity 1"]}}), "destructive")
        await refused(c.call_tool("call", {"tool": "mcp_time", "endpoint": "get_current_time",
                                           "arguments": {"timezone": 9}}), "arguments")
        await refused(c.call_tool("call", {"tool": "nope", "endpoint": "x"}), "endpoint")
        plan = (await c.call_tool("route", {"understanding": {
            "intent": None, "domain_concepts": [], "parameters": {}, "target_apis": ["mcp_time"],
            "source_constraint": None}})).structured_content
        plan["routing_fingerprint"] = "feedface"
        await refused(c.call_tool("call", {"plan": plan}), "fingerprint")

        # Faults of the flaky server: a tool error, a hang, a crash; the gateway and the other
        # upstreams keep serving, and the crashed server is started again.
        r = await c.call_tool("call", {"tool": "flaky", "endpoint": "echo", "arguments": {"text": "hello"}})
        assert values(r) == [{"length": 5, "text": "hello"}], values(r)
        await upstream_error(c.call_tool("call", {"tool": "flaky", "endpoint": "shout", "arguments": {"text": "x"}}),
                             "flaky", "upstream_tool_error")
        # A JSON-RPC error answered to `tools/call` is the upstream's proper answer that the call
        # failed: a tool error, not a malformed answer.
        msg = await upstream_error(c.call_tool("call", {"tool": "flaky", "endpoint": "refuse", "arguments": {"text": "x"}}),
                                   "flaky", "upstream_tool_error")
        assert msg == "upstream `flaky` failed (tool_error): `refuse` answered with a JSON-RPC error (-32602): cannot refuse 'x'", msg
        msg = await upstream_error(c.call_tool("call", {"tool": "flaky", "endpoint": "hang"}), "flaky", "upstream_timeout")
        assert msg == "upstream `flaky` failed (timeout): `tools/call` of `hang` did not answer within 3000 ms", msg
        r = await c.call_tool("call", {"tool": "flaky", "endpoint": "echo", "arguments": {"text": "after hang"}})
        assert values(r) == [{"length": 10, "text": "after hang"}], values(r)
        await upstream_error(c.call_tool("call", {"tool": "flaky", "endpoint": "crash"}), "flaky", "upstream_crashed")
        r = await c.call_tool("call", {"tool": "mcp_time", "endpoint": "get_current_time", "arguments": {"timezone": "UTC"}})
        assert values(r)[0]["timezone"] == "UTC", values(r)
        for _ in range(40):
            try:
                r = await c.call_tool("call", {"tool": "flaky", "endpoint": "echo", "arguments": {"text": "again"}})
                break
            except MCPError as e:
                assert e.data["code"] == "upstream_restarting", e.data
                await asyncio.sleep(0.1)
        assert values(r) == [{"length": 5, "text": "again"}], values(r)

        # ask: route, execute, project.
        r = await c.call_tool("ask", {"understanding": {
            "intent": None, "domain_concepts": [], "parameters": {"timezone": "Europe/Paris"},
            "target_apis": ["mcp_time"], "source_constraint": None}})
        assert not r.is_error, r.content
        sc = r.structured_content
        assert sc["plan"]["steps"][0]["tool"] == "mcp_time", sc["plan"]
        assert sc["tokens"]["raw"] > 0 and sc["tokens"]["delivered"] > 0, sc["tokens"]


async def main():
    # The gateway's environment; its configuration passes MEMORY_FILE_PATH on to server-memory
    # (`env` of [upstreams.memory_server]), which gets nothing else of it.
    env = dict(os.environ, MEMORY_FILE_PATH=sys.argv[4])
    target = StdioServerParameters(command=sys.argv[1], env=env,
                                   args=["gateway", "--expose", "--artifact", sys.argv[2], "--config", sys.argv[3]])
    await drive(target)
    print("ok")


asyncio.run(main())
