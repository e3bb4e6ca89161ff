"""Checking a JSON value against XenForo's official OpenAPI schemas (fixtures/xenforo/api/),
and a request against its operation's declared parameters and form fields (`request_errors`).

A small validator over the part of JSON Schema the document uses for responses: `$ref`,
`type` (one or a list), `properties`, `items`, `oneOf`, `required`, `additionalProperties`.
It is stricter than the document in one way, on purpose: a property the schema does not
declare is an error, so a mocked response cannot carry a field the real API never sends.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

DOCUMENT = Path(__file__).resolve().parents[3] / "fixtures" / "xenforo" / "api" / "openapi.json"
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


@cache
def document() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    return data


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = document()
        for part in schema["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def _is(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[kind])


def errors(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """Every way `value` breaks `schema` (empty when it fits)."""
    schema = _resolve(schema)
    if "oneOf" in schema:
        fits = [s for s in schema["oneOf"] if not errors(value, s, where)]
        return [] if len(fits) == 1 else [f"{where}: fits {len(fits)} of oneOf, not exactly 1"]
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(value, k) for k in kinds):
            return [f"{where}: {type(value).__name__} is not {'/'.join(kinds)}"]
    found: list[str] = []
    if isinstance(value, dict) and ("properties" in schema or schema.get("type") == "object"):
        declared = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                found.append(f"{where}: missing required {name!r}")
        extra = schema.get("additionalProperties")
        for name, item in value.items():
            if name in declared:
                found += errors(item, declared[name], f"{where}.{name}")
            elif isinstance(extra, dict):
                found += errors(item, extra, f"{where}.{name}")
            elif extra is not True and declared:
                found.append(f"{where}: {name!r} is not in the schema")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found += errors(item, schema["items"], f"{where}[{index}]")
    return found


def _template(path: str) -> str:
    paths = document()["paths"]
    if path in paths:
        return path
    for template in paths:
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", r"[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path):
            return template
    raise KeyError(f"no API path matches {path!r}")


def response_schema(method: str, path: str, status: int) -> dict[str, Any]:
    """The schema of a response: `path` is below /api/ ("/threads/2/posts")."""
    operation = document()["paths"][_template(path)][method.lower()]
    responses = operation["responses"]
    response = _resolve(responses.get(str(status)) or responses["default"])
    schema: dict[str, Any] = response["content"]["application/json"]["schema"]
    return schema


def check(method: str, path: str, status: int, body: Any) -> None:
    """AssertionError listing what in `body` the official schema does not allow."""
    problems = errors(body, response_schema(method, path, status))
    assert not problems, f"{method} {path} {status}: " + "; ".join(problems)


def _scalar_error(value: str, schema: dict[str, Any], where: str) -> list[str]:
    """A form or query value (always text) against a scalar schema."""
    kind = _resolve(schema).get("type")
    if kind == "integer" and not re.fullmatch(r"-?\d+", value):
        return [f"{where}: {value!r} is not an integer"]
    if kind == "boolean" and value not in ("0", "1", "true", "false"):
        return [f"{where}: {value!r} is not a boolean"]
    return []


def request_errors(
    method: str, path: str, query: list[tuple[str, str]], form: list[tuple[str, str]]
) -> list[str]:
    """Every way a request breaks its operation's declared query parameters and form body
    (`name[]` is the form encoding of an array `name`); empty when it fits."""
    item = document()["paths"][_template(path)]
    operation = item[method.lower()]
    declared = [
        _resolve(p) for p in [*item.get("parameters", []), *operation.get("parameters", [])]
    ]
    params = {p["name"]: p for p in declared if p.get("in") == "query"}
    found: list[str] = []
    names = {name for name, _ in query}
    for name, param in params.items():
        if param.get("required") and name not in names:
            found.append(f"?{name}: required, missing")
    for name, value in query:
        if name not in params:
            found.append(f"?{name}: not a parameter of {method} {path}")
        else:
            found += _scalar_error(value, params[name].get("schema", {}), f"?{name}")
    body = operation.get("requestBody", {}).get("content", {})
    schema = _resolve(body.get("application/x-www-form-urlencoded", {}).get("schema", {}))
    if form and not schema:
        return [*found, f"{method} {path} takes no form body"]
    fields: dict[str, list[str]] = {}
    for name, value in form:
        fields.setdefault(name.removesuffix("[]"), []).append(value)
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in fields:
            found.append(f"{name}: required, missing")
    for name, values in fields.items():
        if name not in properties:
            found.append(f"{name}: not a field of {method} {path}")
            continue
        field = _resolve(properties[name])
        if field.get("type") == "array":
            for value in values:
                found += _scalar_error(value, field.get("items", {}), name)
        elif len(values) > 1:
            found.append(f"{name}: one value expected, got {len(values)}")
        else:
            found += _scalar_error(values[0], field, name)
    return found
