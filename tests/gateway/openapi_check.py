"""Check the gateway's `GET /openapi.json` with openapi-spec-validator, and answers the test
collected against the response schemas it declares (jsonschema, Draft 2020-12).

Usage: openapi_check.py GATEWAY_URL ANSWERS_JSON

ANSWERS_JSON: [{"path": "/v1/call", "status": 200, "body": {...}}, ...]. Prints the number of
answers checked, then "ok".
"""

import json
import sys
import urllib.request

import jsonschema
from openapi_spec_validator import validate as validate_spec

url, answers_path = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(url + "/openapi.json") as r:
    assert r.status == 200, r.status
    spec = json.load(r)
validate_spec(spec)
assert spec["servers"] == [{"url": url}], spec["servers"]
for path in ["/v1/call", "/v1/ask", "/v1/route", "/v1/search"]:
    assert "post" in spec["paths"][path], path

answers = json.load(open(answers_path, encoding="utf-8"))
for a in answers:
    op = spec["paths"][a["path"]]["post"]
    resp = op["responses"].get(str(a["status"])) or op["responses"]["default"]
    schema = dict(resp["content"]["application/json"]["schema"])
    schema["components"] = spec["components"]
    jsonschema.Draft202012Validator(schema).validate(a["body"])
print(len(answers))
print("ok")
