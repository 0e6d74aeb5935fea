#!/usr/bin/env python3
"""Writes large inputs for `make bench` of `import curl`, `import har` and `import postman`: COUNT
requests (default 2,000) over COUNT/4 distinct routes of one API, with headers, a query, JSON
bodies and, for HAR and Postman, recorded JSON responses of about 1 KB, so the sizes are like a
busy browsing session's capture or a large team collection.

    scripts/gen-captures.py curl|har|postman [COUNT] > FILE
"""
import json
import sys

BASE = "https://api.example.com"

def request(index):
    route = index % max(1, COUNT // 4)
    method = ["GET", "POST", "PATCH", "DELETE"][index % 4]
    path = f"/v1/group{route}/items/{1000 + index}"
    query = [("per_page", "30"), ("page", str(index % 7 + 1)), ("filter[state]", "open")]
    headers = [("Accept", "application/json"), ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64)"),
               ("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.secret.token"), ("X-Request-Id", f"req-{index:08d}")]
    body = None
    if method in ("POST", "PATCH"):
        body = json.dumps({"name": f"item {index}", "labels": ["a", "b"], "settings": {f"option{n}": n % 2 == 0 for n in range(8)}})
    response = json.dumps({"id": 1000 + index, "name": f"item {index}", "state": "open", "owner": {"login": "moya", "id": 7},
                           "labels": ["a", "b"], "description": "A recorded answer. " * 30})
    return method, path, query, headers, body, response

def query_text(query):
    return "&".join(f"{k.replace('[', '%5B').replace(']', '%5D')}={v}" for k, v in query)

def curl():
    out = []
    for index in range(COUNT):
        method, path, query, headers, body, _ = request(index)
        words = [f"curl '{BASE}{path}?{query_text(query)}'", f"-X {method}"]
        words += [f"-H '{k}: {v}'" for k, v in headers]
        if body:
            words += ["-H 'Content-Type: application/json'", f"--data-raw '{body}'"]
        words.append("--compressed")
        out.append(" \\\n  ".join(words))
    return "\n".join(out) + "\n"

def har():
    entries = []
    for index in range(COUNT):
        method, path, query, headers, body, response = request(index)
        req = {"method": method, "url": f"{BASE}{path}?{query_text(query)}", "httpVersion": "HTTP/2",
               "headers": [{"name": k, "value": v} for k, v in headers],
               "queryString": [{"name": k, "value": v} for k, v in query], "cookies": [],
               "headersSize": -1, "bodySize": len(body or "")}
        if body:
            req["postData"] = {"mimeType": "application/json", "text": body}
        entries.append({"startedDateTime": "2026-11-27T10:00:00.000Z", "time": 42, "request": req,
                        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2",
                                     "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [],
                                     "content": {"size": len(response), "mimeType": "application/json", "text": response},
                                     "redirectURL": "", "headersSize": -1, "bodySize": len(response)},
                        "cache": {}, "timings": {"send": 1, "wait": 40, "receive": 1}})
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "gen-captures", "version": "1"}, "entries": entries}})

def postman():
    folders = {}
    for index in range(COUNT):
        method, path, query, headers, body, response = request(index)
        raw = "{{baseUrl}}" + path + "?" + query_text(query)
        item = {"name": f"{method.title()} item {index}",
                "request": {"method": method, "header": [{"key": k, "value": v} for k, v in headers if k != "Authorization"],
                            "url": {"raw": raw, "host": ["{{baseUrl}}"], "path": [p for p in path.split("/") if p],
                                    "query": [{"key": k, "value": v} for k, v in query]}},
                "response": [{"name": "OK", "code": 200, "status": "OK",
                              "header": [{"key": "Content-Type", "value": "application/json"}], "body": response}]}
        if body:
            item["request"]["body"] = {"mode": "raw", "raw": body, "options": {"raw": {"language": "json"}}}
        folders.setdefault(f"Group {index % 20}", []).append(item)
    return json.dumps({"info": {"name": "Generated", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                       "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}", "type": "string"}]},
                       "variable": [{"key": "baseUrl", "value": BASE}, {"key": "token", "value": ""}],
                       "item": [{"name": name, "item": items} for name, items in folders.items()]})

if __name__ == "__main__":
    kind = sys.argv[1]
    COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    sys.stdout.write({"curl": curl, "har": har, "postman": postman}[kind]())
