"""LiveMCPBench's tool catalog (its `mcp_arg_*.json`: 70 servers, `tools[].parameter` as
name -> "(type) description") as one MCP `tools/list` file per server, for
`schemarouter import mcp OUT/*.json --project P` (the embeddings are ignored).

Usage: python3 bench/livemcpbench_tools.py CATALOG.json OUT_DIR
"""
import json, re, sys, os, collections
src = sys.argv[1]
out = sys.argv[2]
os.makedirs(out, exist_ok=True)
d = json.load(open(src))
n = 0
seen = collections.Counter()
def snake(s): return re.sub(r'_+', '_', re.sub(r'[^a-z0-9]', '_', s.lower())).strip('_')
for s in d:
    tools = []
    for t in s['tools']:
        props = {}
        for pname, spec in (t.get('parameter') or {}).items():
            m = re.match(r'^\((\w+)\)\s*(.*)$', spec or '', re.S)
            ty, desc = (m.group(1), m.group(2)) if m else ('string', spec or '')
            ty = {'str':'string','int':'integer','float':'number','bool':'boolean','list':'array','dict':'object'}.get(ty, ty)
            if ty not in ('string','integer','number','boolean','array','object'):
                ty = 'string'
            p = {'type': ty}
            if desc: p['description'] = desc
            props[pname] = p
        tools.append({'name': t['name'], 'description': t.get('description') or '',
                      'inputSchema': {'type': 'object', 'properties': props}})
        n += 1
    name = s['server_name']
    key = snake(name)
    seen[key] += 1
    if seen[key] > 1:
        name = f"{name} {seen[key]}"
    doc = {'serverInfo': {'name': name, 'version': '0'},
           'instructions': s.get('server_description') or '', 'tools': tools}
    fn = snake(name)
    json.dump(doc, open(os.path.join(out, fn + '.json'), 'w'), indent=1, ensure_ascii=False)
print(len(d), 'servers', n, 'tools')
