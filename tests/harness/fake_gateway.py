"""A fake of Discord's gateway for discord.py's own connection code (the websocket the bot reads).

``FakeDiscord.ws_connect`` hands discord.py a ``FakeSocket`` when a ``FakeGateway`` is installed
(tests/harness/fake_discord.py), so ``bot.connect()`` runs as it does against Discord: HELLO,
IDENTIFY, heartbeats acknowledged, READY, a GUILD_CREATE per server, then whatever events a test
dispatches. Like Discord, the gateway reads the shard ``[shard_id, shard_count]`` of each IDENTIFY
(refusing an invalid one with close code 4010), sends a shard only the servers whose
``(guild_id >> 22) % shard_count`` is its id, and routes each server's events to that server's
shard (DMs to shard 0).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

HELLO, HEARTBEAT, IDENTIFY, RESUME, INVALID_SESSION, HEARTBEAT_ACK, DISPATCH = 10, 1, 2, 6, 9, 11, 0
INVALID_SHARD = 4010
ACK_AFTER = 0.05  # seconds


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


@dataclass
class FakeSocket:
    """One gateway connection: the surface of aiohttp's ClientWebSocketResponse discord.py uses."""

    gateway: FakeGateway
    inbox: asyncio.Queue[aiohttp.WSMessage] = field(default_factory=asyncio.Queue)
    shard: tuple[int, int] | None = None  # from its IDENTIFY; None: not sharded (every server)
    identified: bool = False
    closed: bool = False
    close_code: int | None = None
    sequence: int = 0

    def __post_init__(self) -> None:
        self.push(HELLO, {"heartbeat_interval": 41250})

    def push(self, op: int, data: Any, event: str | None = None) -> None:
        payload: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
        if op == DISPATCH:
            self.sequence += 1
            payload["s"] = self.sequence
        self.inbox.put_nowait(aiohttp.WSMessage(aiohttp.WSMsgType.TEXT, json.dumps(payload), None))

    def owns(self, guild_id: int | None) -> bool:
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, count))

    async def receive(self, timeout: float | None = None) -> aiohttp.WSMessage:  # noqa: ASYNC109 - aiohttp's signature
        return await asyncio.wait_for(self.inbox.get(), timeout)

    async def send_str(self, data: str, compress: int | None = None) -> None:
        if self.closed:
            raise ConnectionResetError("Cannot write to closing transport")
        message = json.loads(data)
        op = message.get("op")
        if op == HEARTBEAT:  # acknowledged a moment later, as over a network: discord.py times the gap
            asyncio.get_running_loop().call_later(ACK_AFTER, self.push, HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            self.gateway.identify(self, message["d"])
        elif op == RESUME:  # no session survives here: start again (discord.py identifies anew)
            self.push(INVALID_SESSION, False)

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        if self.closed:
            return False
        self.closed, self.close_code = True, code
        self.inbox.put_nowait(aiohttp.WSMessage(aiohttp.WSMsgType.CLOSED, None, None))
        return True


class FakeGateway:
    """Discord's gateway for one bot token: the servers it knows (``guilds``: their GUILD_CREATE
    payloads, by id) and the connections identified so far. ``on_ready`` is called with each socket
    once its servers are sent, e.g. to feed it interactions."""

    def __init__(self, bot_user: dict[str, Any], application_id: int) -> None:
        self.bot_user, self.application_id = bot_user, application_id
        self.guilds: dict[int, dict[str, Any]] = {}
        self.sockets: list[FakeSocket] = []
        self.identifies: list[tuple[int, int] | None] = []  # each IDENTIFY's shard field, in order
        self.on_ready: list[Callable[[FakeSocket], None]] = []

    def connect(self) -> FakeSocket:
        socket = FakeSocket(self)
        self.sockets.append(socket)
        return socket

    def identify(self, socket: FakeSocket, data: dict[str, Any]) -> None:
        shard = data.get("shard")
        if shard is not None and not (isinstance(shard, list) and len(shard) == 2
                                      and 0 <= shard[0] < shard[1]):
            socket.inbox.put_nowait(aiohttp.WSMessage(aiohttp.WSMsgType.CLOSE, INVALID_SHARD, "Invalid shard"))
            socket.closed, socket.close_code = True, INVALID_SHARD
            return
        socket.shard = (shard[0], shard[1]) if shard is not None else None
        socket.identified = True
        self.identifies.append(socket.shard)
        mine = [payload for guild_id, payload in self.guilds.items() if socket.owns(guild_id)]
        socket.push(DISPATCH, {
            "v": 10, "user": self.bot_user, "session_id": uuid.uuid4().hex,
            "resume_gateway_url": "wss://gateway.fake.invalid", "shard": list(socket.shard or (0, 1)),
            "guilds": [{"id": payload["id"], "unavailable": True} for payload in mine],
            "application": {"id": str(self.application_id), "flags": 0},
        }, "READY")
        for payload in mine:
            socket.push(DISPATCH, payload, "GUILD_CREATE")
        for hook in self.on_ready:
            hook(socket)

    def dispatch(self, event: str, data: dict[str, Any]) -> FakeSocket | None:
        """Send an event to the connection of its server's shard, as Discord does; None when no live
        connection has that shard (the event is lost, as Discord's would be for a shard that is down)."""
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        for socket in self.sockets:
            if socket.identified and not socket.closed and socket.owns(guild_id):
                socket.push(DISPATCH, data, event)
                return socket
        return None
