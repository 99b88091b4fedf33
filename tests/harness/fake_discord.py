"""A fake of Discord's HTTP API: records what the bot would send and answers like Discord.

It replaces the aiohttp session that both the REST client and interaction webhooks use,
so every byte that would leave the process is captured (docs/testing.md, "The seam").
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

import aiohttp
import discord
from multidict import CIMultiDict
from yarl import URL

from tests.harness.discord_words import command_line_words
from tests.harness.fake_gateway import FakeGateway, FakeSocket
from tests.harness.fake_guild import FakeGuilds
from tests.harness.rate_limits import RateLimits

API = re.compile(r"^https://discord\.com/api/v\d+")
EPHEMERAL = 1 << 6

_ids = itertools.count(900_000_000_000_000_000)


def next_id() -> int:
    return next(_ids)


def fresh_snowflake() -> int:
    """An id made now, as Discord makes an interaction's: its time is when Discord created it (the
    deadline guard counts from it), and ``next_id`` in the low bits keeps ids apart."""
    return discord.utils.time_snowflake(datetime.now(UTC)) + next_id() % (1 << 22)


@dataclass
class Call:
    """One HTTP request the bot made."""

    method: str
    path: str
    body: Any
    params: dict[str, Any] | None
    status: int = 200
    duplicate: bool = False  # Discord answered with the message an earlier request (same nonce) made
    files: dict[str, bytes] = field(default_factory=dict)  # attachments sent along: file name -> bytes
    at: float = field(default_factory=time.time)  # when it was sent (seconds since the epoch)

    @property
    def payload(self) -> dict[str, Any]:
        """The message-like part: interaction callbacks nest it under ``data``."""
        if isinstance(self.body, dict) and "type" in self.body and "data" in self.body:
            return self.body.get("data") or {}
        return self.body if isinstance(self.body, dict) else {}

    @property
    def is_interaction_response(self) -> bool:
        return self.path.startswith("/interactions/") or self.path.startswith("/webhooks/")

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.payload.get("flags", 0) & EPHEMERAL)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.payload.get("embeds") or []

    @property
    def text(self) -> str:
        """Content plus every embed's visible text, for assertions about what a user reads."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [f"{f.get('name')}\n{f.get('value')}" for f in e.get("fields") or []]
            if e.get("footer"):
                parts.append(e["footer"].get("text") or "")
        return "\n".join(p for p in parts if p)

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.payload.get("components") or []

    def custom_ids(self) -> list[str]:
        found: list[str] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if "custom_id" in item:
                    found.append(item["custom_id"])
                walk(item.get("components") or [])

        walk(self.components)
        return found

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.payload.get("allowed_mentions")

    @property
    def channel_id(self) -> int | None:
        m = re.match(r"^/channels/(\d+)/messages", self.path)
        return int(m.group(1)) if m else None


@dataclass
class Fault:
    """Make matching requests fail: ``times`` answers with ``status`` before normal service."""

    method: str
    path: str  # a regular expression matched against the path
    status: int
    times: int = 1
    body: dict[str, Any] = field(default_factory=dict)

    def reason_text(self) -> str:
        return {429: "You are being rate limited.", 500: "Internal Server Error",
                503: "Service Unavailable", 403: "Missing Access", 404: "Unknown"}.get(self.status, "error")


class FakeResponse:
    def __init__(self, status: int, data: Any, headers: dict[str, str] | None = None,
                 traced: Callable[[FakeResponse], Awaitable[None]] | None = None) -> None:
        self.status = status
        self.traced = traced
        self.reason = {200: "OK", 204: "No Content", 403: "Forbidden", 404: "Not Found",
                       429: "Too Many Requests", 500: "Internal Server Error",
                       503: "Service Unavailable"}.get(status, "")
        self._raw = data if isinstance(data, bytes) else None
        self._text = "" if data is None or isinstance(data, bytes) else json.dumps(data)
        # 204 No Content has no JSON to parse (discord.py parses a body it is told is JSON)
        # case-insensitive, as aiohttp's are: discord.py reads X-Ratelimit-*, Discord sends X-RateLimit-*
        self.headers = CIMultiDict({"content-type": "application/json" if data is not None else "text/plain",
                                    **(headers or {})})

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def read(self) -> bytes:
        return self._raw if self._raw is not None else self._text.encode()

    async def json(self) -> Any:
        return json.loads(self._text) if self._text else None

    async def __aenter__(self) -> FakeResponse:
        if self.traced is not None:  # aiohttp signals the end of a request before handing the response over
            await self.traced(self)
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class FakeDiscord:
    """Stands in for ``aiohttp.ClientSession``; keeps every call in ``calls``.

    Like real Discord it refuses (400) a body its published API schema refuses, and an endpoint
    that API lacks (404); unlike real Discord it remembers each refusal in ``refusals`` and
    ``check()`` raises them, so a test fails even when the bot shrugs the error off.
    """

    made: ClassVar[list[FakeDiscord]] = []  # made since the last check_all(), held so none goes unchecked
    live: ClassVar[weakref.WeakSet[FakeDiscord]] = weakref.WeakSet()  # and those still in use (module-wide)

    def __init__(self, bot_user: dict[str, Any], application_id: int) -> None:
        FakeDiscord.made.append(self)
        FakeDiscord.live.add(self)
        self.refusals: list[str] = []  # what real Discord would have refused, and why
        self.command_line: list[str] = []  # command-line commands and flags shown to a Discord user
        self.validates = True  # against Discord's OpenAPI spec; off only where a benchmark weighs the bot alone
        self.bot_user = bot_user
        self.application_id = application_id
        self.calls: list[Call] = []
        self.faults: list[Fault] = []
        self.closed = False
        self.dm_channels: dict[int, int] = {}  # dm channel id -> user id
        self.closed_dms: set[int] = set()  # users who refuse DMs from the bot
        self.missing_channels: set[int] = set()  # channel ids that answer 404
        self.forbidden_channels: set[int] = set()  # channel ids that answer 403
        self.deleted_messages: set[int] = set()  # message ids deleted on Discord: editing one answers 404
        self.members: dict[int, dict[int, dict[str, Any]]] = {}  # guild id -> user id -> member payload
        # scheduled events, roles and members' roles (tests/harness/fake_guild.py)
        self.guilds = FakeGuilds(lambda: int(self.bot_user["id"]), self.members, next_id)
        self.hooks: list[Callable[[Call], None]] = []
        self.files: dict[str, bytes] = {}  # attachment URL -> bytes
        self._nonces: dict[tuple[int, str], dict[str, Any]] = {}  # (channel, nonce) -> message
        self.acknowledged: set[int] = set()  # interactions answered or deferred: Discord takes one callback each
        self.rate_limits: RateLimits | None = None  # Discord's rate limits, opt-in (tests/harness/rate_limits.py)
        # The bot's ``http_trace`` (discord.py's Client option; the metrics use it): told of every answer,
        # as an aiohttp session with it in ``trace_configs`` tells it.
        self.trace_configs: list[aiohttp.TraceConfig] = []
        self.gateway: FakeGateway | None = None  # the gateway, opt-in (tests/harness/fake_gateway.py)

    # --- aiohttp.ClientSession surface used by discord.py ---------------------------------
    def request(self, method: str, url: str, **kwargs: Any) -> FakeResponse:
        path = API.sub("", url)
        body = _decode(kwargs.get("data"))
        call = Call(method=method, path=path, body=body, params=kwargs.get("params"), files=_files(kwargs.get("data")))
        limited, limit_headers = self.rate_limits.check(method, path) if self.rate_limits else (None, {})
        status, data, headers = limited or self._refuse(call) or self._answer(call)
        if limited is None and status < 300:
            headers = {**headers, **limit_headers}
        call.status = status
        self.calls.append(call)
        if shown := command_line_words(call.body):
            self.command_line.append(f"{method} {path} shows the command line to a Discord user: {shown}")
        for hook in self.hooks:
            hook(call)
        return FakeResponse(status, data, headers, self._trace(method, url) if self.trace_configs else None)

    def _trace(self, method: str, url: str) -> Callable[[FakeResponse], Awaitable[None]]:
        async def request_end(response: FakeResponse) -> None:
            for config in self.trace_configs:
                params = aiohttp.TraceRequestEndParams(method, URL(url), CIMultiDict(), response)
                await config.on_request_end.send(self, config.trace_config_ctx(), params)
        return request_end

    def get(self, url: str, **kwargs: Any) -> FakeResponse:
        """The CDN: attachment downloads."""
        data = self.files.get(url)
        self.calls.append(Call(method="GET", path=url, body=None, params=None, status=200 if data else 404))
        return FakeResponse(200, data) if data is not None else FakeResponse(404, {"message": "Not Found"})

    async def close(self) -> None:
        self.closed = True

    async def ws_connect(self, url: str, **kwargs: Any) -> FakeSocket:
        """The gateway's websocket, when a test serves one (``Harness.serve_gateway``)."""
        if self.gateway is None:
            raise ConnectionError("no gateway in this test (Harness.serve_gateway starts one)")
        return self.gateway.connect()

    # --- what real Discord refuses -----------------------------------------------------------
    def _refuse(self, call: Call) -> tuple[int, Any, dict[str, str]] | None:
        if not self.validates:
            return None
        from tests.harness import discord_spec  # jsonschema and the spec load only where requests are checked

        body = call.body if isinstance(call.body, dict | list | str) else None  # a bare upload has no JSON
        if isinstance(body, str):
            why: str | None = f"{call.method} {call.path}: the body is not JSON: {body[:80]!r}"
        else:
            why = discord_spec.refusal(call.method, call.path, body)
        if why is None:
            return None
        self.refusals.append(why)
        if why.startswith(discord_spec.NO_ENDPOINT):
            return 404, {"message": "404: Not Found", "code": 0}, {}
        return 400, {"message": "Invalid Form Body", "code": 50035}, {}

    def check(self) -> None:
        """Raise what real Discord would have refused since the last check, so the test fails."""
        refusals, self.refusals = self.refusals, []
        shown, self.command_line = self.command_line, []
        if refusals:
            raise AssertionError("real Discord would refuse what the bot sent:\n" + "\n".join(refusals))
        if shown:
            raise AssertionError("a reply speaks the command line, not Discord:\n" + "\n".join(shown))

    @classmethod
    def check_all(cls) -> None:
        """Check every fake made since the last call (a test's harnesses, closed or not) or still in use."""
        fakes = {id(fake): fake for fake in [*cls.made, *cls.live]}
        cls.made = []
        refusals = [why for fake in fakes.values() for why in fake.refusals]
        shown = [what for fake in fakes.values() for what in fake.command_line]
        for fake in fakes.values():
            fake.refusals, fake.command_line = [], []
        if refusals:
            raise AssertionError("real Discord would refuse what the bot sent:\n" + "\n".join(refusals))
        if shown:
            raise AssertionError("a reply speaks the command line, not Discord:\n" + "\n".join(shown))

    # --- helpers for tests ----------------------------------------------------------------
    def sent(self, *, method: str = "POST", path_prefix: str = "") -> list[Call]:
        return [c for c in self.calls if c.method == method and c.path.startswith(path_prefix)
                and c.status < 300 and not c.duplicate]

    def channel_messages(self, channel_id: int | None = None) -> list[Call]:
        out = [c for c in self.calls if c.method == "POST" and c.channel_id is not None
               and c.status < 300 and not c.duplicate and c.channel_id not in self.dm_channels]
        return [c for c in out if channel_id is None or c.channel_id == channel_id]

    def edits(self, channel_id: int | None = None) -> list[Call]:
        """Messages the bot edited (PATCH /channels/{id}/messages/{id}) that Discord accepted."""
        out = [c for c in self.calls if c.method == "PATCH" and c.channel_id is not None and c.status < 300
               and re.match(r"^/channels/\d+/messages/\d+$", c.path)]
        return [c for c in out if channel_id is None or c.channel_id == channel_id]

    def dms(self, user_id: int | None = None) -> list[Call]:
        out = [c for c in self.calls if c.method == "POST" and c.channel_id in self.dm_channels
               and c.status < 300 and not c.duplicate]
        return [c for c in out if user_id is None or self.dm_channels[c.channel_id or 0] == user_id]

    def clear(self) -> None:
        self.calls.clear()

    # --- answers ---------------------------------------------------------------------------
    def _fault_for(self, call: Call) -> Fault | None:
        for fault in self.faults:
            if fault.times > 0 and fault.method == call.method and re.search(fault.path, call.path):
                fault.times -= 1
                return fault
        return None

    def _answer(self, call: Call) -> tuple[int, Any, dict[str, str]]:
        fault = self._fault_for(call)
        if fault is not None:
            body = fault.body or {"message": fault.reason_text(), "code": 0}
            headers = {"Via": "1.1 google", "Retry-After": str(body.get("retry_after", 0))} \
                if fault.status == 429 else {}
            return fault.status, body, headers
        method, path = call.method, call.path
        if method == "GET" and path == "/users/@me":
            return 200, self.bot_user, {}
        if method == "GET" and path == "/oauth2/applications/@me":
            return 200, self._application(), {}
        m = re.match(r"^/interactions/(\d+)/([^/]+)/callback$", path)
        if m and method == "POST":
            if int(m.group(1)) in self.acknowledged:  # a second answer, e.g. racing a deferral
                self.refusals.append(f"POST {path}: the interaction has already been acknowledged")
                return 400, {"message": "Interaction has already been acknowledged.", "code": 40060}, {}
            self.acknowledged.add(int(m.group(1)))
            return 200, self._callback(int(m.group(1)), call.body), {}
        m = re.match(r"^/webhooks/(\d+)/([^/]+)(/messages/(@original|\d+))?$", path)
        if m:
            if method == "DELETE":
                return 204, None, {}
            return 200, self._message(0, call.payload), {}
        guild_answer = self.guilds.answer(method, path, call.body)
        if guild_answer is not None:
            return guild_answer
        m = re.match(r"^/guilds/(\d+)/members/(\d+)$", path)
        if m and method == "GET":
            member = self.members.get(int(m.group(1)), {}).get(int(m.group(2)))
            return (200, member, {}) if member else (404, {"message": "Unknown Member", "code": 10007}, {})
        if method == "POST" and path == "/users/@me/channels":
            user_id = int(call.body["recipient_id"])
            channel_id = next((c for c, u in self.dm_channels.items() if u == user_id), None) or next_id()
            self.dm_channels[channel_id] = user_id
            return 200, {"id": str(channel_id), "type": 1, "recipients": [
                {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0",
                 "avatar": None}]}, {}
        m = re.match(r"^/channels/(\d+)(/.*)?$", path)
        if m:
            channel_id = int(m.group(1))
            if channel_id in self.missing_channels:
                return 404, {"message": "Unknown Channel", "code": 10003}, {}
            if channel_id in self.forbidden_channels:
                return 403, {"message": "Missing Access", "code": 50001}, {}
            if self.dm_channels.get(channel_id) in self.closed_dms:
                return 403, {"message": "Cannot send messages to this user", "code": 50007}, {}
            if method in ("POST", "PATCH") and (m.group(2) or "").startswith("/messages"):
                msg_id = int(path.rsplit("/", 1)[1]) if method == "PATCH" else 0
                if msg_id in self.deleted_messages:
                    return 404, {"message": "Unknown Message", "code": 10008}, {}
                nonce = call.payload.get("nonce") if method == "POST" else None
                if nonce is not None and call.payload.get("enforce_nonce"):
                    earlier = self._nonces.get((channel_id, str(nonce)))
                    if earlier is not None:  # Discord's enforce_nonce: no second message
                        call.duplicate = True
                        return 200, earlier, {}
                message = self._message(channel_id, call.payload, msg_id)
                if nonce is not None:
                    self._nonces[(channel_id, str(nonce))] = message
                return 200, message, {}
            if method == "POST" and (m.group(2) or "").startswith("/threads"):
                return 200, {"id": str(next_id()), "type": 12, "parent_id": str(channel_id),
                             "name": (call.body or {}).get("name", "thread"),
                             "guild_id": "0", "thread_metadata": {
                                 "archived": False, "auto_archive_duration": 1440,
                                 "archive_timestamp": _now_iso(), "locked": False}}, {}
            if method == "PUT" and "/thread-members/" in path:
                return 204, None, {}
            if method == "GET" and "/messages/" in (m.group(2) or ""):
                return 200, self._message(channel_id, {}, int(path.rsplit("/", 1)[1])), {}
            if method == "DELETE":
                return 204, None, {}
        if method == "PUT" and "/commands" in path:  # Discord gives each registered command its ids
            return 200, [{**c, "id": str(next_id()), "application_id": str(self.application_id),
                          "version": str(next_id())} for c in call.body or []], {}
        return 404, {"message": f"fake Discord has no route {method} {path}", "code": 0}, {}

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id), "name": "Sideline", "description": "", "icon": None,
            "bot_public": False, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
            "flags": 0,
        }

    def _callback(self, interaction_id: int, body: dict[str, Any]) -> dict[str, Any]:
        response_type = body.get("type", 4)
        data: dict[str, Any] = {
            "interaction": {"id": str(interaction_id), "type": 2,
                            "response_message_id": str(next_id()),
                            "response_message_loading": response_type == 5,
                            "response_message_ephemeral": bool(
                                (body.get("data") or {}).get("flags", 0) & EPHEMERAL)},
        }
        if response_type in (4, 7):
            data["resource"] = {"type": response_type, "message": self._message(0, body.get("data") or {})}
        else:
            data["resource"] = {"type": response_type}
        return data

    def _message(self, channel_id: int, payload: dict[str, Any], msg_id: int = 0) -> dict[str, Any]:
        return {
            "id": str(msg_id or next_id()), "channel_id": str(channel_id or 1), "type": 0,
            "content": payload.get("content") or "", "author": self.bot_user,
            "embeds": payload.get("embeds") or [], "attachments": [], "mentions": [],
            "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
            "timestamp": _now_iso(), "edited_timestamp": None, "flags": payload.get("flags", 0),
            "components": [],
        }


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _decode(data: Any) -> Any:
    if data is None:
        return None
    if isinstance(data, bytes | str):
        try:
            return json.loads(data)
        except ValueError:
            return data
    # multipart (files): find the JSON part
    fields = getattr(data, "_fields", None)
    if fields:
        for options, _headers, value in fields:
            if options.get("name") == "payload_json":
                return json.loads(value)
    return data


def _files(data: Any) -> dict[str, bytes]:
    """The attachments of a multipart request, read and rewound (discord.py may send them again)."""
    found: dict[str, bytes] = {}
    for options, _headers, value in getattr(data, "_fields", None) or ():
        filename = options.get("filename")
        if filename and hasattr(value, "read"):
            found[filename] = value.read()
            value.seek(0)
    return found


async def settle(baseline: set[asyncio.Task[Any]], limit_seconds: float = 10.0) -> None:
    """Wait for every task discord.py started since ``baseline`` (command and view dispatch)."""
    me = asyncio.current_task()
    loop_deadline = asyncio.get_running_loop().time() + limit_seconds
    while True:
        pending = {
            t for t in asyncio.all_tasks()
            if t is not me and t not in baseline and not t.done() and not _is_background(t)
        }
        if not pending:
            return
        remaining = loop_deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            raise TimeoutError(f"tasks still running: {[t.get_name() for t in pending]}")
        await asyncio.wait(pending, timeout=remaining)


def _is_background(task: asyncio.Task[Any]) -> bool:
    name = task.get_name()
    coro = task.get_coro()
    coro_name = getattr(coro, "__qualname__", "") or ""
    return "timeout" in name or "timeout" in coro_name or name.startswith("sideline-bg")
