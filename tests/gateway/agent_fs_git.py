"""Drive `schemarouter gateway` over stdio with the official MCP Python SDK (`mcp` on PyPI), as
an agent would, against `@modelcontextprotocol/server-filesystem` (npm) and `mcp-server-git`
(PyPI), both imported live by tests/gateway.rs.

Usage: agent_fs_git.py SCHEMAROUTER ARTIFACT FILES_DIR REPO_DIR

FILES_DIR holds file_1.txt ... file_30.txt ("content N\\n") and sub/deep.md ("x\\n"); REPO_DIR is
a git repository on branch `main` with 25 commits of fixed author, dates and content (so fixed
hashes); its `git_log` endpoint is declared with the fields commit, author, date and message
(records path `[]`). Prints one `measure {...}` line per call (raw vs delivered tokens), then
"ok".
"""

import asyncio
import json
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

FS, GIT = "secure_filesystem_server", "mcp_git"


def values(r, step=0):
    assert not r.is_error, r.content
    return [rec["values"] for rec in r.structured_content["steps"][step]["records"]]


def measure(name, r):
    c = r.structured_content["calls"][0]
    print("measure " + json.dumps({"call": name, "raw_tokens": c["raw_tokens"],
                                   "delivered_tokens": c["delivered_tokens"], "raw_bytes": c["raw_bytes"]}))
    return c


async def refused(coro, check):
    r = await coro
    assert r.is_error, r
    assert r.meta == {"code": "refused", "check": check}, r.meta
    return r.content[0].text


async def filesystem(c, files):
    call = lambda endpoint, arguments: c.call_tool("call", {"tool": FS, "endpoint": endpoint, "arguments": arguments})
    names = sorted([f"file_{i}.txt" for i in range(1, 31)])
    r = await call("list_directory", {"path": files})
    assert values(r) == [{"content": "\n".join([f"[FILE] {n}" for n in names] + ["[DIR] sub"])}], values(r)
    assert r.structured_content["steps"][0]["fields"][0]["type"] == "string", r.structured_content["steps"][0]["fields"]
    measure(f"{FS}/list_directory", r)
    r = await call("read_text_file", {"path": f"{files}/file_3.txt"})
    assert values(r) == [{"content": "content 3\n"}], values(r)
    r = await call("directory_tree", {"path": f"{files}/sub"})
    assert values(r) == [{"content": json.dumps([{"name": "deep.md", "type": "file"}], indent=2)}], values(r)
    r = await call("directory_tree", {"path": files})
    tree = json.loads(values(r)[0]["content"])
    assert sorted(e["name"] for e in tree) == sorted(names + ["sub"]), tree
    measure(f"{FS}/directory_tree", r)
    r = await call("search_files", {"path": files, "pattern": "**/*.md"})
    assert values(r) == [{"content": f"{files}/sub/deep.md"}], values(r)
    r = await call("get_file_info", {"path": f"{files}/file_1.txt"})
    info = values(r)[0]["content"]
    assert "size: 10" in info and "isFile: true" in info, info
    # A path outside the allowed directory: the server's own error, named as the upstream's.
    try:
        await call("read_text_file", {"path": "/etc/hostname"})
        raise AssertionError("reading outside the allowed directory succeeded")
    except MCPError as e:
        assert e.data["code"] == "upstream_tool_error", e.data
        assert e.data["upstream"] == FS, e.data
    # Writing is destructive (the server's annotation): refused at the boundary, not executed.
    await refused(call("write_file", {"path": f"{files}/new.txt", "content": "x"}), "destructive")
    r = await call("list_directory", {"path": files})
    assert "new.txt" not in values(r)[0]["content"], values(r)


async def git(c, repo):
    call = lambda endpoint, arguments: c.call_tool("call", {"tool": GIT, "endpoint": endpoint, "arguments": arguments})
    r = await call("git_status", {"repo_path": repo})
    assert values(r) == [{"result": "Repository status:\nOn branch main\nnothing to commit, working tree clean"}], values(r)
    assert r.structured_content["issues"] == [], r.structured_content["issues"]
    # git_log prints its commits as blocks of `Key: value` lines; declared with the fields
    # commit, author, date, message (records path `[]`) they are read as records and projected.
    r = await call("git_log", {"repo_path": repo, "max_count": 2})
    assert values(r) == [
        {"commit": "2a24d522b0492e1384135f9de46e7fef1915889f", "author": "Tester",
         "date": "2026-01-08 12:00:00+00:00", "message": "commit number 25: change f.txt"},
        {"commit": "d6de4e3bed57ee3c04f6e7f4c3e33ad398aa139c", "author": "Tester",
         "date": "2026-01-07 12:00:00+00:00", "message": "commit number 24: change f.txt"}], values(r)
    assert r.structured_content["issues"] == [], r.structured_content["issues"]
    r = await call("git_log", {"repo_path": repo, "max_count": 25})
    log = values(r)
    assert len(log) == 25 and log[-1]["message"] == "commit number 1: change f.txt", log
    measure(f"{GIT}/git_log", r)
    r = await c.call_tool("call", {"tool": GIT, "endpoint": "git_log", "fields": ["commit", "date"],
                                   "arguments": {"repo_path": repo, "max_count": 25}})
    assert values(r)[0] == {"commit": "2a24d522b0492e1384135f9de46e7fef1915889f",
                            "date": "2026-01-08 12:00:00+00:00"}, values(r)
    measure(f"{GIT}/git_log commit,date", r)
    r = await call("git_show", {"repo_path": repo, "revision": "HEAD~24"})
    assert values(r)[0]["result"].endswith("+++ b/f.txt\n@@ -0,0 +1 @@\n+line 1\n"), values(r)
    await refused(call("git_reset", {"repo_path": repo}), "destructive")
    await refused(call("git_log", {"repo_path": repo, "max_count": "two"}), "arguments")


async def main():
    target = StdioServerParameters(command=sys.argv[1], args=["gateway", "--artifact", sys.argv[2]])
    async with Client(target) as c:
        await filesystem(c, sys.argv[3])
        await git(c, sys.argv[4])
    print("ok")


asyncio.run(main())
