"""Drive `schemarouter mcp` with the official MCP Python SDK (`mcp` on PyPI).

Usage: mcp_client.py EXPECTED.json stdio SCHEMAROUTER ARTIFACT
       mcp_client.py EXPECTED.json http URL [TOKEN]

EXPECTED.json holds what the test harness computed with the CLI: `question`, `routed` (the
`schemarouter route --json` output for it), `prompt` (intent_prompt.txt) and `content_hash`.
Lists the tools, calls `route` and validates its structuredContent against the declared
outputSchema (jsonschema), checks `explain_plan` and `list_intents`, reads both resources,
gets the `understand` prompt, and checks bad input: tool execution errors (`isError: true`,
a text saying what to fix) for bad tool arguments, JSON-RPC errors for an unknown tool, prompt
or resource. Prints "ok".
"""

import asyncio
import json
import sys

import httpx2
import jsonschema
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

INVALID_PARAMS = -32602


async def expect_error(coro, code, starts):
    try:
        await coro
    except MCPError as e:
        assert e.code == code, (e.code, e.message)
        assert e.message.startswith(starts), e.message
        return e
    raise AssertionError(f"expected a JSON-RPC error starting with {starts!r}")


async def expect_tool_error(coro, tool, message, code="invalid_request"):
    """A tool execution error (MCP 2025-11-25): a result with isError and one text saying what to fix."""
    r = await coro
    assert r.is_error, r
    assert r.structured_content is None, r.structured_content
    assert [c.type for c in r.content] == ["text"], r.content
    assert r.content[0].text == f"invalid arguments for `{tool}`: {message}", r.content[0].text
    assert r.meta == {"code": code}, r.meta
    return r


SHAPE = ('send one JSON object: {"question": "..."} or {"understanding": {"intent": ..., "domain_concepts": [...], '
         '"parameters": {...}, "target_apis": [...], "source_constraint": ...}}, optionally with "k" (1-1000) and '
         '"projection" ("core", "recall", "minimal" or "all")')


async def drive(target, exp):
    async with Client(target) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert sorted(tools) == ["explain_plan", "list_intents", "route", "search_tools"], sorted(tools)
        route = tools["route"]
        schema = route.output_schema
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["title"] == "Plan", schema.get("title")
        assert route.input_schema["properties"].keys() >= {"question", "understanding", "k", "projection"}

        # route: a question
        r = await c.call_tool("route", {"question": exp["question"]})
        assert not r.is_error, r.content
        jsonschema.validate(r.structured_content, schema, cls=jsonschema.Draft202012Validator)
        assert r.structured_content == exp["routed"]["plan"], "plan differs from `schemarouter route --json`"
        assert r.meta["artifact_hash"] == exp["content_hash"], r.meta
        assert r.meta["understanding"] == exp["routed"]["understanding"], r.meta
        text = r.content[0].text
        assert text.splitlines()[0] == "planned: 1 step(s), intent electronic_property", text
        assert text.splitlines()[-1] == "artifact " + exp["content_hash"], text

        # route: an Understanding, with options
        u = exp["routed"]["understanding"]
        # (the default `core` projection adds no group fields when the concepts match, so the
        # paper's `recall` projection plans more fields than the default)
        r2 = await c.call_tool("route", {"understanding": u, "k": 1, "projection": "recall"})
        jsonschema.validate(r2.structured_content, schema, cls=jsonschema.Draft202012Validator)
        assert r2.structured_content["steps"][0]["tool"] == exp["routed"]["plan"]["steps"][0]["tool"]
        assert len(r2.structured_content["steps"][0]["fields"]) > len(exp["routed"]["plan"]["steps"][0]["fields"])

        # search_tools: the same ranking as `schemarouter search --json`
        s = await c.call_tool("search_tools", {"query": exp["search_query"], "k": 3})
        assert not s.is_error, s.content
        jsonschema.validate(s.structured_content, tools["search_tools"].output_schema,
                            cls=jsonschema.Draft202012Validator)
        assert s.structured_content["hits"] == exp["searched"]["hits"], s.structured_content
        assert s.structured_content["artifact_hash"] == exp["content_hash"]
        first = exp["searched"]["hits"][0]
        assert s.content[0].text.splitlines()[0].startswith(f"1. {first['tool']}/{first['endpoint']} (score "), s.content[0].text
        await expect_tool_error(c.call_tool("search_tools", {"query": " "}), "search_tools",
                                '`query` is empty; give a question or keywords such as "current weather in London"')
        await expect_tool_error(c.call_tool("search_tools", {"query": "x", "k": 0}), "search_tools",
                                "`k` must be between 1 and 1000, got 0")

        # explain_plan, for a question and for the plan route returned
        e1 = await c.call_tool("explain_plan", {"question": exp["question"]})
        assert e1.content[0].text.startswith("Understanding: intent=electronic_property"), e1.content[0].text
        e2 = await c.call_tool("explain_plan", {"plan": r.structured_content})
        assert e2.content[0].text.startswith("Plan: planned (intent: electronic_property"), e2.content[0].text
        assert e2.content[0].text in e1.content[0].text

        # list_intents
        li = await c.call_tool("list_intents", {})
        jsonschema.validate(li.structured_content, tools["list_intents"].output_schema)
        ids = [i["id"] for i in li.structured_content["intents"]]
        assert len(ids) == 13 and "electronic_property" in ids, ids

        # resources
        uris = sorted(str(x.uri) for x in (await c.list_resources()).resources)
        assert uris == ["schemarouter://artifact", "schemarouter://prompt"], uris
        p = await c.read_resource("schemarouter://prompt")
        assert p.contents[0].text == exp["prompt"]
        a = await c.read_resource("schemarouter://artifact")
        summary = json.loads(a.contents[0].text)
        assert summary["content_hash"] == exp["content_hash"], summary
        assert (summary["project"], summary["tools"], summary["endpoints"], summary["fields"]) == ("materials-16", 16, 17, 398), summary
        assert summary["concepts"] == 192 and summary["intents"] == 13, summary

        # the Understand-step prompt
        prompts = [x.name for x in (await c.list_prompts()).prompts]
        assert prompts == ["understand"], prompts
        g = await c.get_prompt("understand", {"question": exp["question"]})
        assert [m.content.text for m in g.messages] == [exp["prompt"], "Question: " + exp["question"]]

        # bad tool arguments: tool execution errors the model can correct
        await expect_tool_error(c.call_tool("route", {"question": 5}), "route",
                                "not a valid route request: invalid type: integer `5`, expected a string; " + SHAPE)
        await expect_tool_error(c.call_tool("route", {}), "route",
                                "give `question` (a text) or `understanding` (an object); " + SHAPE)
        await expect_tool_error(c.call_tool("route", {"question": "x", "extra": 1}), "route",
                                "not a valid route request: unknown field `extra`, expected one of `question`, "
                                "`understanding`, `k`, `projection`; " + SHAPE)
        await expect_tool_error(c.call_tool("route", {"question": "x" * 2001}), "route",
                                "`question` has 2001 characters; at most 2000 are accepted (--max-question-chars): shorten it",
                                code="question_too_long")
        await expect_tool_error(c.call_tool("route", {"question": "x", "understanding": {}}), "route",
                                "give either `question` or `understanding`, not both")
        await expect_tool_error(c.call_tool("route", {"understanding": {"intent": 5}}), "route",
                                "not a valid route request: invalid type: integer `5`, expected a string; " + SHAPE)
        await expect_tool_error(c.call_tool("route", {"question": "x", "k": 0}), "route",
                                "`k` must be between 1 and 1000, got 0")
        await expect_tool_error(c.call_tool("explain_plan", {"question": ""}), "explain_plan",
                                '`question` is empty; ask a question such as "Molecular weight and SMILES of aspirin"')
        await expect_tool_error(c.call_tool("list_intents", {"x": 1}), "list_intents",
                                "list_intents takes no arguments; remove `x`")
        # protocol errors: unknown tool, resource or prompt
        await expect_error(c.read_resource("schemarouter://nope"), INVALID_PARAMS, "no resource `schemarouter://nope`")
        await expect_error(c.get_prompt("understand", {}), INVALID_PARAMS, "the `understand` prompt needs the argument `question`")
        await expect_error(c.get_prompt("nope", {}), INVALID_PARAMS, "no prompt `nope`")
        await expect_error(c.call_tool("nope", {}), INVALID_PARAMS,
                           "unknown tool `nope`; the tools are route, search_tools, explain_plan and list_intents")
        # still serving after the errors
        r3 = await c.call_tool("route", {"question": exp["question"]})
        assert r3.structured_content == exp["routed"]["plan"]


async def main():
    exp = json.load(open(sys.argv[1], encoding="utf-8"))
    if sys.argv[2] == "stdio":
        target = StdioServerParameters(command=sys.argv[3], args=["mcp", "--artifact", sys.argv[4]])
        await drive(target, exp)
    else:
        url = sys.argv[3]
        token = sys.argv[4] if len(sys.argv) > 4 else None
        if token:
            # Without the token the server answers 401 before any MCP exchange.
            async with httpx2.AsyncClient() as h:
                resp = await h.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
                assert resp.status_code == 401, resp.status_code
                assert resp.json()["error"]["code"] == "unauthorized", resp.text
                # Malformed JSON, an oversized body and a foreign Origin: refused by the
                # transport with a 4xx whose body is a JSON-RPC error.
                hdrs = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
                        "Accept": "application/json, text/event-stream"}
                resp = await h.post(url, content=b"{", headers=hdrs)
                assert resp.status_code == 400, resp.status_code
                err = resp.json()
                assert err["jsonrpc"] == "2.0" and err["id"] is None, resp.text
                assert err["error"]["code"] == -32700, resp.text
                assert "EOF while parsing" in err["error"]["message"], resp.text
                resp = await h.post(url, content=b"x" * 70000, headers=hdrs)
                assert resp.status_code == 413, resp.status_code
                assert resp.json()["error"] == {
                    "code": -32600,
                    "message": "Payload Too Large: request body exceeds 65536 bytes",
                }, resp.text
                init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "t", "version": "0"}}}
                resp = await h.post(url, json=init,
                                    headers={**hdrs, "Origin": "http://evil.example"})
                assert resp.status_code == 403, resp.status_code
                assert resp.json()["error"] == {
                    "code": -32600,
                    "message": "Forbidden: Origin header is not allowed",
                }, resp.text
            client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
            async with client:
                await drive(streamable_http_client(url, http_client=client), exp)
        else:
            await drive(url, exp)
    print("ok")


asyncio.run(main())
