// A small MCP server written with the official TypeScript SDK, for the import tests: its tools
// declare outputSchemas with nested objects, arrays of records, `$defs` + `$ref`s (one of them a
// cycle), one tool has no outputSchema, one is destructive, and `tools/list` is paged two tools
// at a time. `node paged_server.mjs` speaks stdio; `node paged_server.mjs --http PORT` serves
// streamable HTTP on 127.0.0.1:PORT/mcp (stateless), until killed. With `--cursor-loop` its
// paging never ends (the last page's `nextCursor` points back to an earlier page); with
// `--bad-schema` one more tool has a string for its `inputSchema`.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import http from "node:http";

const TOOLS = [
  {
    name: "get_material",
    title: "Get a material",
    description: "Computed properties of one crystal by id.",
    inputSchema: {
      type: "object",
      properties: {
        material_id: { type: "string", description: "Material id, e.g. mp-149" },
        fields: { type: "array", items: { type: "string" }, description: "Fields to return" },
      },
      required: ["material_id"],
    },
    outputSchema: {
      type: "object",
      $defs: {
        Lattice: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" }, c: { type: "number" } },
          required: ["a", "b", "c"],
        },
        Site: {
          type: "object",
          properties: { species: { type: "string" }, xyz: { type: "array", items: { type: "number" } } },
        },
      },
      properties: {
        material_id: { type: "string" },
        band_gap: { type: ["number", "null"], description: "Band gap, eV" },
        structure: {
          type: "object",
          properties: {
            lattice: { $ref: "#/$defs/Lattice" },
            sites: { type: "array", items: { $ref: "#/$defs/Site" } },
          },
        },
      },
      required: ["material_id"],
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  {
    name: "search_papers",
    description: "Papers matching a query.",
    inputSchema: {
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer", default: 10 } },
      required: ["query"],
    },
    outputSchema: {
      type: "object",
      $defs: {
        Author: { type: "object", properties: { name: { type: "string" }, orcid: { type: "string" } } },
        Paper: {
          type: "object",
          properties: {
            doi: { type: "string" },
            title: { type: "string" },
            authors: { type: "array", items: { $ref: "#/$defs/Author" } },
          },
          required: ["doi"],
        },
      },
      properties: { results: { type: "array", items: { $ref: "#/$defs/Paper" } }, total: { type: "integer" } },
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: "taxonomy",
    description: "A concept tree (recursive output).",
    inputSchema: { type: "object", properties: {} },
    outputSchema: {
      type: "object",
      $defs: {
        Node: {
          type: "object",
          properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
        },
      },
      properties: { root: { $ref: "#/$defs/Node" } },
    },
  },
  {
    name: "summarize",
    description: "Free-text summary (no outputSchema).",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  {
    name: "delete_sample",
    description: "Delete a lab sample.",
    inputSchema: { type: "object", properties: { sample_id: { type: "string" } }, required: ["sample_id"] },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  },
];

const PAGE = 2;
const LOOP = process.argv.includes("--cursor-loop");
// `--bad-schema`: one more tool whose `inputSchema` is a string, not a JSON Schema object.
const BAD = process.argv.includes("--bad-schema");

function makeServer() {
  const server = new Server({ name: "paged-materials", version: "0.3.1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const all = BAD ? [...TOOLS, { name: "broken", inputSchema: "nope" }] : TOOLS;
    const page = all.slice(start, start + PAGE);
    // `--cursor-loop`: the last page points back to the second, so paging never ends.
    const next =
      start + PAGE < all.length ? String(start + PAGE) : LOOP ? String(PAGE) : undefined;
    return next ? { tools: page, nextCursor: next } : { tools: page };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: "text", text: `called ${request.params.name}` }],
  }));
  return server;
}

const i = process.argv.indexOf("--http");
if (i >= 0) {
  const port = Number(process.argv[i + 1]);
  http
    .createServer(async (req, res) => {
      if (req.url !== "/mcp") {
        res.writeHead(404).end();
        return;
      }
      let body = "";
      for await (const chunk of req) body += chunk;
      const server = makeServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => {
        transport.close();
        server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
    })
    .listen(port, "127.0.0.1", () => console.error(`listening on ${port}`));
} else {
  await makeServer().connect(new StdioServerTransport());
}
