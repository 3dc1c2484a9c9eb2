"""Load a `schemarouter graph --format cypher` script into an embedded graph database and run
queries against it (used by tests/graph_db.rs).

usage: load.py kuzu|falkordb SCRIPT QUERIES.json

QUERIES.json is a JSON list of Cypher queries. Prints one JSON object: {"results": [rows...]},
one list of rows (each a list of values) per query. The Kuzu script is executed whole, as Kuzu's
own multi-statement `execute` reads it; the FalkorDB script one line (statement) at a time.
"""

import json
import os
import sys
import tempfile


def kuzu_run(script, queries):
    import kuzu

    with tempfile.TemporaryDirectory() as d:
        db = kuzu.Database(os.path.join(d, "db"))
        conn = kuzu.Connection(db)
        conn.execute(script)
        out = []
        for q in queries:
            r = conn.execute(q)
            rows = []
            while r.has_next():
                rows.append(r.get_next())
            out.append(rows)
        return out


def falkordb_run(script, queries):
    from redislite.falkordb_client import FalkorDB

    with tempfile.TemporaryDirectory() as d:
        db = FalkorDB(os.path.join(d, "falkor.db"))
        g = db.select_graph("schema")
        for line in script.split("\n"):
            if line:
                g.query(line)
        out = [g.query(q).result_set for q in queries]
        db.close()
        return out


def main():
    engine, script_path, queries_path = sys.argv[1:4]
    # newline="": a carriage return inside a Kuzu string literal stays one.
    with open(script_path, encoding="utf-8", newline="") as f:
        script = f.read()
    with open(queries_path, encoding="utf-8") as f:
        queries = json.load(f)
    run = {"kuzu": kuzu_run, "falkordb": falkordb_run}[engine]
    json.dump({"results": run(script, queries)}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
