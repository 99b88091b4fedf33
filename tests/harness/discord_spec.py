"""Discord's own OpenAPI spec as the judge of every request the bot makes.

The fake Discord answers whatever it is sent; real Discord refuses a body that breaks its schema
(content too long, a sixth button in a row, a description over 100 characters). Checking each
body against the spec Discord publishes makes the fake refuse what Discord refuses. The spec is
loaded and each endpoint's validator built once per process, so the check costs little per call.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match

SPEC = Path(__file__).resolve().parent / "discord-openapi" / "openapi.json.gz"
BOT_CONTENT_LIMIT = 2000  # Discord's documented limit for a bot's message content
#: Discord's documented limit the spec cannot say: "the combined sum of characters in all title,
#: description, field.name, field.value, footer.text, and author.name fields across all embeds attached
#: to a message must not exceed 6000 characters" (https://discord.com/developers/docs/resources/message,
#: "Embed Limits"). The spec holds each of those fields' own limit (256, 4096, 256, 1024, 2048, 256).
EMBEDS_TOTAL_LIMIT = 6000
DISPATCH = "x-sideline-dispatch-on-type"  # our keyword: see _dispatch
CHANNEL_MESSAGE_BODIES = ("MessageCreateRequest", "MessageEditRequestPartial", "BaseCreateMessageCreateRequest")
NO_ENDPOINT = "Discord's API has no"  # how a refusal for a missing endpoint begins


class UnknownEndpoint(LookupError):
    """The bot called something that is not in Discord's API at all."""


@dataclass(frozen=True)
class Endpoint:
    method: str
    template: str  # the spec's path, e.g. /channels/{channel_id}/messages
    pattern: re.Pattern[str]
    literal_segments: int  # more literal segments win: /messages/@original over /messages/{message_id}


@functools.cache
def spec() -> dict[str, Any]:
    """The spec, with the places where the live API differs from it (see discord-openapi/README.md)."""
    with gzip.open(SPEC, "rt", encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    schemas = doc["components"]["schemas"]
    # Discord takes a snowflake as a JSON integer too, which is how discord.py sends some ids.
    schemas["SnowflakeType"] = {**schemas["SnowflakeType"], "type": ["string", "integer"], "minimum": 0}
    for name in CHANNEL_MESSAGE_BODIES:
        schemas[name]["properties"]["content"] = {**schemas[name]["properties"]["content"],
                                                  "maxLength": BOT_CONTENT_LIMIT}
    return doc


@functools.cache
def _endpoints(first_segment: str) -> tuple[Endpoint, ...]:
    """The endpoints under one first segment (channels, interactions, ...), most literal first."""
    return tuple(e for e in _all_endpoints() if e.template.split("/")[1] in (first_segment, "")
                 or e.template.split("/")[1].startswith("{"))


@functools.cache
def _all_endpoints() -> tuple[Endpoint, ...]:
    found = []
    for template, item in spec()["paths"].items():
        segments = template.strip("/").split("/")
        regex = "/".join("[^/]+" if s.startswith("{") else re.escape(s) for s in segments)
        literal = sum(not s.startswith("{") for s in segments)
        for method in item:
            if method in ("get", "put", "post", "patch", "delete"):
                found.append(Endpoint(method.upper(), template, re.compile(f"^/{regex}/?$"), literal))
    return tuple(sorted(found, key=lambda e: -e.literal_segments))


def endpoint(method: str, path: str) -> str:
    """The spec's path template for a request, or UnknownEndpoint saying what is missing."""
    path = path.split("?", 1)[0]
    matches = [e for e in _endpoints(path.lstrip("/").split("/", 1)[0]) if e.pattern.match(path)]
    for e in matches:
        if e.method == method:
            return e.template
    if matches:
        raise UnknownEndpoint(f"{NO_ENDPOINT} {method} on {matches[0].template} (called as {path})")
    raise UnknownEndpoint(f"{NO_ENDPOINT} endpoint {method} {path}: not in tests/harness/discord-openapi")


@functools.cache
def _validator(method: str, template: str) -> Any:
    """The request body's schema for one endpoint, or None where the endpoint takes no body."""
    operation = spec()["paths"][template][method.lower()]
    content = (operation.get("requestBody") or {}).get("content") or {}
    for media in ("application/json", "multipart/form-data"):  # multipart's payload_json is the JSON body
        if media in content:
            return Validator(_inline(content[media]["schema"], _components()))
    return None


@functools.cache
def _components() -> dict[str, dict[str, Any]]:
    """Component schemas inlined so far, shared by every endpoint's validator."""
    return {}


def _inline(node: Any, done: dict[str, dict[str, Any]]) -> Any:
    """The schema with its $refs replaced by the schemas they name, and its unions made cheap.

    Following each $ref through a registry and trying every branch of each union took some 20 ms
    a message on a busy machine; inlined and dispatched on ``type``, the same check takes about 1 ms.
    """
    if isinstance(node, list):
        return [_inline(item, done) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = _ref_name(node["$ref"])
        if name not in done:  # filled in place, so a schema that contains itself stays finite
            done[name] = {}
            done[name].update(_inline(spec()["components"]["schemas"][name], done))
        return done[name]
    return {key: _inline(value, done) for key, value in _cheap_unions(node).items()}


def _ref_name(ref: str) -> str:
    prefix = "#/components/schemas/"
    if not ref.startswith(prefix):
        raise ValueError(f"unexpected $ref {ref} in a request body schema")
    return ref[len(prefix):]


def _cheap_unions(node: dict[str, Any]) -> dict[str, Any]:
    """Same meaning, less work: an enum for a oneOf of consts, a dispatch on ``type`` for a tagged
    union, and "null or X" checked as one of the two rather than both."""
    node = dict(node)
    branches = node.get("oneOf")
    if branches and all("const" in b and set(b) <= {"const", "title", "description"} for b in branches):
        node["enum"] = [b["const"] for b in node.pop("oneOf")]
        return node
    nullable = [b for b in branches or () if b != {"type": "null"}]
    if branches and len(branches) == 2 and len(nullable) == 1 and not {"if", "then", "else"} & set(node):
        node.pop("oneOf")
        node["if"], node["else"] = {"type": "null"}, nullable[0]
        return node
    for union in ("oneOf", "anyOf"):
        tags = _tags(node.get(union) or [])
        if tags is not None and DISPATCH not in node:
            node[DISPATCH] = [[values, branch] for values, branch in zip(tags, node.pop(union), strict=True)]
    return node


def _dispatch(validator: Any, cases: list[list[Any]], instance: Any, schema: Any) -> Iterator[ValidationError]:
    """Check an object against the one branch its ``type`` names, as Discord reads a tagged union."""
    if not validator.is_type(instance, "object"):
        yield ValidationError(f"{_short(instance)} is not an object")
        return
    tag = instance.get("type")
    for values, branch in cases:
        if any(tag == value and type(tag) is type(value) for value in values):
            yield from validator.descend(instance, branch)
            return
    known = sorted(value for values, _ in cases for value in values)
    yield ValidationError(f"{tag!r} is not a type Discord takes here: {known}", path=["type"])


Validator = validators.extend(Draft202012Validator, {DISPATCH: _dispatch})


def _tags(branches: list[Any]) -> list[list[Any]] | None:
    """Each branch's ``type`` values, if every branch is an object told apart by its ``type``."""
    if len(branches) < 2:
        return None
    tags = []
    for branch in branches:
        schema = spec()["components"]["schemas"][_ref_name(branch["$ref"])] if "$ref" in branch else branch
        tag = (schema.get("properties") or {}).get("type") or {}
        if "enum" not in tag or "type" not in (schema.get("required") or ()):
            return None
        tags.append(tag["enum"])
    every = [value for values in tags for value in values]
    return tags if len(every) == len(set(every)) else None


_verdicts: dict[tuple[str, str, str], str | None] = {}  # the same body twice (a polite refusal) is judged once


def refusal(method: str, path: str, body: Any) -> str | None:
    """Why real Discord would refuse this request, or None if it would take it."""
    try:
        template = endpoint(method, path)
    except UnknownEndpoint as e:
        return str(e)
    if body is None:
        return None
    key = (method, template, json.dumps(body, sort_keys=True))
    if key not in _verdicts:
        if len(_verdicts) > 20_000:
            _verdicts.clear()
        _verdicts[key] = _judge(method, template, body)
    return _verdicts[key]


def _judge(method: str, template: str, body: Any) -> str | None:
    validator = _validator(method, template)
    if validator is None:
        return f"{method} {template} takes no body, but the bot sent {_short(body)}"
    error = best_match(validator.iter_errors(body))
    if error is None:
        return _embeds_too_long(method, template, body)
    limit = f" [{error.validator} {error.validator_value}]" if str(error.validator).startswith(("max", "min")) else ""
    return f"{method} {template}: {error.json_path}: {_short(error.message)}{limit}"


def _embeds_too_long(method: str, template: str, body: Any) -> str | None:
    """The 6,000-character sum over a message's embeds (EMBEDS_TOTAL_LIMIT), in a message, an
    interaction's answer (its ``data``) or a webhook's message."""
    message = body.get("data") if isinstance(body, dict) and isinstance(body.get("data"), dict) else body
    embeds = message.get("embeds") if isinstance(message, dict) else None
    if not isinstance(embeds, list):
        return None
    total = 0
    for embed in embeds:
        if not isinstance(embed, dict):
            continue
        texts = [embed.get("title"), embed.get("description"), (embed.get("footer") or {}).get("text"),
                 (embed.get("author") or {}).get("name")]
        texts += [text for field in embed.get("fields") or [] for text in (field.get("name"), field.get("value"))]
        total += sum(len(t) for t in texts if isinstance(t, str))
    if total <= EMBEDS_TOTAL_LIMIT:
        return None
    return f"{method} {template}: $.embeds: {total} characters in all, over Discord's {EMBEDS_TOTAL_LIMIT}"


def _short(text: Any, limit: int = 160) -> str:
    text = text if isinstance(text, str) else json.dumps(text)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"
