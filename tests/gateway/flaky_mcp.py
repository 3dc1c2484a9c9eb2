"""An MCP server (official Python SDK, MCPServer) for tests/gateway.rs whose tools misbehave.

- `echo(text)`: structured `{"text": ..., "length": ...}`;
- `crash()`: the process exits at once (the gateway must report it and start it again);
- `hang()`: never answers within the gateway's timeout;
- `shout(text)`: a tool error (`isError: true`);
- `refuse(text)`: a JSON-RPC error answered to `tools/call` (-32602, invalid params);
- `environ()`: the names of the variables of its environment, and the values of
  `FLAKY_GREETING` and `FLAKY_TOKEN` (what the gateway passed it).

With `FLAKY_START_DELAY=SECONDS` in its environment the server starts that much later (a slow
cold start: the gateway must not cancel the start with each call).
"""

import os
import time

import anyio

from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

mcp = MCPServer("flaky")


class Echo(BaseModel):
    text: str
    length: int


@mcp.tool()
def echo(text: str) -> Echo:
    """Echo the text with its length."""
    return Echo(text=text, length=len(text))


class Environ(BaseModel):
    names: list[str]
    greeting: str
    token: str


@mcp.tool()
def environ() -> Environ:
    """The names of the environment's variables, and two values."""
    return Environ(names=sorted(os.environ), greeting=os.environ.get("FLAKY_GREETING", ""),
                   token=os.environ.get("FLAKY_TOKEN", ""))


@mcp.tool()
def crash() -> Echo:
    """Exit the server process."""
    os._exit(3)


@mcp.tool()
async def hang() -> Echo:
    """Sleep far longer than any caller waits (other requests are still answered)."""
    await anyio.sleep(60)
    return Echo(text="late", length=4)


@mcp.tool()
def shout(text: str) -> Echo:
    """Always fails."""
    raise ValueError(f"cannot shout {text!r}")


@mcp.tool()
def refuse(text: str) -> Echo:
    """Always answers with a JSON-RPC error."""
    raise MCPError(code=-32602, message=f"cannot refuse {text!r}")


if __name__ == "__main__":
    time.sleep(float(os.environ.get("FLAKY_START_DELAY", "0")))
    mcp.run()
