#!/usr/bin/env python3
"""Writes a large OpenAPI 3.0 document for `make bench` (import openapi) and for trying the import
by hand: OPERATIONS operations (default 1,000) over shared component schemas, with parameters,
JSON bodies, several responses and descriptions, so the size per operation is like a real API's
(GitHub's description is ~10 MB for ~1,000 operations).

    scripts/gen-openapi.py [OPERATIONS] [--json] > spec.json
"""
import json
import sys

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    operations = int(args[0]) if args else 1000
    schemas = {}
    for index in range(200):
        schemas[f"Resource{index}"] = {
            "type": "object",
            "description": f"Resource number {index}. " + "A long description of the resource. " * 8,
            "required": ["id", "name"],
            "properties": {
                "id": {"type": "integer", "format": "int64", "readOnly": True},
                "name": {"type": "string", "example": f"resource-{index}"},
                "state": {"type": "string", "enum": ["open", "closed", "archived"]},
                "created_at": {"type": "string", "format": "date-time"},
                "owner": {"$ref": f"#/components/schemas/Owner"},
                "labels": {"type": "array", "items": {"type": "string"}},
                "parent": {"$ref": f"#/components/schemas/Resource{index}"},
                "settings": {"type": "object", "properties": {
                    f"option{n}": {"type": "boolean", "description": "An option. " * 4} for n in range(12)}},
            },
        }
    schemas["Owner"] = {"type": "object", "properties": {"login": {"type": "string"}, "id": {"type": "integer"},
                                                       "email": {"type": "string", "format": "email"}}}
    schemas["Error"] = {"type": "object", "required": ["message"], "properties": {
        "message": {"type": "string"}, "documentation_url": {"type": "string", "format": "uri"}}}
    paths = {}
    for index in range(operations // 2):
        resource = f"#/components/schemas/Resource{index % 200}"
        common = [
            {"name": "per_page", "in": "query", "description": "Results per page. " * 6, "schema": {"type": "integer", "default": 30}},
            {"name": "page", "in": "query", "description": "Page number. " * 6, "schema": {"type": "integer", "default": 1}},
            {"name": "X-Request-Id", "in": "header", "schema": {"type": "string", "format": "uuid"}},
        ]
        responses = {
            "200": {"description": "OK. " * 20, "content": {"application/json": {"schema": {"$ref": resource}}}},
            "404": {"description": "Not found", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
            "422": {"description": "Invalid", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        }
        paths[f"/orgs/{{org}}/group{index}/items/{{item_id}}"] = {
            "parameters": [{"name": "org", "in": "path", "required": True, "schema": {"type": "string"}, "example": "moya"}],
            "get": {"operationId": f"get-item-{index}", "summary": f"Get item {index}", "tags": [f"group{index % 20}"],
                    "description": "Gets one item. " * 40,
                    "parameters": [{"name": "item_id", "in": "path", "required": True, "schema": {"type": "integer"}}] + common,
                    "responses": responses},
            "patch": {"operationId": f"update-item-{index}", "summary": f"Update item {index}", "tags": [f"group{index % 20}"],
                      "description": "Updates one item. " * 40,
                      "parameters": [{"name": "item_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                      "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": resource}}}},
                      "responses": responses,
                      "security": [{"token": []}]},
        }
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Generated", "version": "1.0"},
        "servers": [{"url": "https://api.generated.example"}],
        "security": [{"token": []}],
        "paths": paths,
        "components": {"schemas": schemas, "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}},
    }
    json.dump(document, sys.stdout, indent=1)
    sys.stdout.write("\n")

main()
