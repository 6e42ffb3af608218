"""An MCP server over Streamable HTTP built on the standard library and one generated
multi-version package: what the official conformance suite asks a server for (its test tools,
resources and prompts), sessions, JSON and SSE responses, resumable SSE streams, sampling and
elicitation requests to the client, progress/logging/resource notifications, and Host/Origin
checks against DNS rebinding.

python examples/server.py --port 8000                      # http://127.0.0.1:8000/mcp
python examples/server.py --port 8000 --protocol-version 2025-06-18   # negotiate nothing newer

It imports `mcp_bindings` if it is on the path; otherwise it generates it (2025-03-26,
2025-06-18 and 2025-11-25) into .e2e/ of the checkout (keyed by the generator's sources), from ../shared/spec when
that is there, else by version name.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import queue
import re
import socket
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
SPECS = ("2025-03-26", "2025-06-18", "2025-11-25")


def generate_bindings() -> Path:
    """Generate the distribution into .e2e/ (once per state of the generator); its directory."""
    sources = sorted(p for top in ("codegen", "templates") for p in (ROOT / top).rglob("*.*"))
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources if p.suffix != ".pyc"))
    out = ROOT / ".e2e" / f"server-bindings-{digest.hexdigest()[:12]}"
    if not (out / "mcp_bindings" / "versions.py").is_file():
        shared = ROOT.parent / "shared" / "spec"
        inputs = [str(shared / v / "schema.ts") if shared.is_dir() else v for v in SPECS]
        cmd = [
            sys.executable,
            "-m",
            "codegen",
            *inputs,
            "-o",
            str(out),
            "--package",
            "mcp_bindings",
        ]
        subprocess.run(cmd, check=True, cwd=ROOT)
    return out


try:
    import mcp_bindings as mcp
except ImportError:  # not installed: generate it next to the checkout
    sys.path.insert(0, str(generate_bindings()))
    import mcp_bindings as mcp
from mcp_bindings import versions

PNG = base64.b64encode(
    bytes.fromhex(  # a 1x1 red pixel
        "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8"
        "cfc000000301010018dd8db00000000049454e44ae426082"
    )
).decode()
WAV = base64.b64encode(
    b"RIFF$\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0@\x1f\0\0@\x1f\0\0\x01\0\x08\0data\0\0\0\0"
).decode()
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
RETRY_MS = 500  # how long a client waits before resuming a stream the server closed


RESOURCES = {  # uri -> (name, description, MIME type)
    "test://static-text": (
        "Static Text Resource",
        "A static text resource for testing",
        "text/plain",
    ),
    "test://static-binary": (
        "Static Binary Resource",
        "A static binary resource (image) for testing",
        "image/png",
    ),
    "test://watched-resource": (
        "Watched Resource",
        "A resource that can be subscribed to",
        "text/plain",
    ),
}
TEXTS = {
    "test://static-text": "This is the content of the static text resource.",
    "test://watched-resource": "Watched resource content",
}
TOOLS = {  # name -> (description, required string arguments)
    "test_simple_text": ("Returns simple text", []),
    "test_image_content": ("Returns an image", []),
    "test_audio_content": ("Returns audio", []),
    "test_embedded_resource": ("Returns an embedded resource", []),
    "test_multiple_content_types": ("Returns text, an image and a resource", []),
    "test_tool_with_logging": ("Logs three messages while it runs", []),
    "test_tool_with_progress": ("Reports progress while it runs", []),
    "test_error_handling": ("Always fails", []),
    "test_sampling": ("Asks the client's LLM", ["prompt"]),
    "test_elicitation": ("Asks the user", ["message"]),
    "test_elicitation_sep1034_defaults": ("Asks the user, with defaults", []),
    "test_elicitation_sep1330_enums": ("Asks the user to pick from enums", []),
    "test_reconnection": ("Closes its SSE stream mid-call; the result comes on resume", []),
}
PROMPTS = {  # name -> (description, required arguments)
    "test_simple_prompt": ("A simple prompt", []),
    "test_prompt_with_arguments": ("A prompt with required arguments", ["arg1", "arg2"]),
    "test_prompt_with_embedded_resource": ("A prompt with a resource", ["resourceUri"]),
    "test_prompt_with_image": ("A prompt with an image", []),
}


class ToolError(Exception):
    """A JSON-RPC error answer (code, message) instead of a result."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class Stream:
    """The events of one SSE stream (a POST's response, or a GET stream), kept so that a client
    can resume it with Last-Event-ID. A POST's stream turns its response into SSE at its first
    event; until then the POST may still answer with plain JSON."""

    def __init__(self, session: Session, http: Handler | None = None) -> None:
        self.session, self.key, self.http = session, uuid.uuid4().hex[:12], http
        self.events: list[str] = []  # JSON texts; event `i` (1-based) has id f"{key}-{i}"
        self.wfile: Any = None  # the live connection, if any
        self.started = self.done = False

    def open(self) -> None:  # lock held: send the POST's SSE headers and a priming event
        if self.http is not None and not self.started:
            self.http.start_sse(self.session)
            self.http.wfile.write(f"id: {self.key}-0\nretry: {RETRY_MS}\ndata: \n\n".encode())
            self.wfile, self.started = self.http.wfile, True

    def send(self, message: dict[str, Any], last: bool = False) -> None:
        with self.session.lock:
            self.open()
            self.events.append(json.dumps(message))
            self.write(len(self.events))
            self.done = last
            self.session.lock.notify_all()

    def drop(self) -> None:
        """Close the connection mid-call (SSE polling): the client resumes with GET."""
        with self.session.lock:
            self.open()
            if self.wfile is not None and self.http is not None:
                self.wfile.flush()
                self.http.connection.shutdown(socket.SHUT_WR)
            self.wfile = None

    def write(self, index: int) -> None:
        try:
            if self.wfile is not None:
                self.wfile.write(
                    f"id: {self.key}-{index}\ndata: {self.events[index - 1]}\n\n".encode()
                )
                self.wfile.flush()
        except OSError:
            self.wfile = None  # the client went away: the events stay for a resume

    def follow(self, wfile: Any, after: int) -> None:
        """Replay the events after `after` on `wfile`, then forward new ones until done."""
        with self.session.lock:
            self.wfile, sent = wfile, after
            while self.wfile is wfile:
                while sent < len(self.events) and self.wfile is wfile:
                    sent += 1
                    self.write(sent)
                if self.done or not self.session.lock.wait(timeout=10) and not self.ping():
                    break
            if self.wfile is wfile:
                self.wfile = None

    def ping(self) -> bool:  # a comment line, to learn whether the client is still there
        try:
            self.wfile.write(b": ping\n\n")
            self.wfile.flush()
            return True
        except (OSError, AttributeError):
            return False


class Session:
    """One client's session: its agreed version, capabilities, log level, subscriptions, the
    streams it can resume and the answers to the requests the server sent it."""

    def __init__(self, version: str, capabilities: Any) -> None:
        self.id, self.version, self.capabilities = uuid.uuid4().hex, version, capabilities
        self.m, self.reg = mcp.bindings(version), versions.registry(version)
        self.level, self.subscriptions = "info", set[str]()
        self.lock = threading.Condition()
        self.streams: dict[str, Stream] = {}
        self.pending: dict[str, queue.Queue[Any]] = {}
        self.general: Stream | None = None  # the GET stream, for notifications outside requests

    def stream(self, http: Handler | None = None) -> Stream:
        stream = Stream(self, http)
        with self.lock:
            self.streams[stream.key] = stream
        return stream

    def updated(self, uri: str) -> None:  # a subscribed resource changed: tell the client
        if uri in self.subscriptions and self.general is not None:
            params = self.m.ResourceUpdatedNotificationParams(uri=uri)
            self.general.send(
                self.reg.notification(self.m.ResourceUpdatedNotification(params=params))
            )

    def ask(self, stream: Stream, method: versions.RequestMethod, params: Any) -> Any:
        """Send a request to the client on `stream` and wait for its decoded result."""
        rid = f"s-{uuid.uuid4().hex[:8]}"
        answer: queue.Queue[Any] = queue.Queue()
        self.pending[rid] = answer
        stream.send(mcp.request_message(method, params, id=rid, version=self.version))
        try:
            msg = answer.get(timeout=60)
        except queue.Empty:
            raise ToolError(-32001, f"no answer to {method}") from None
        finally:
            del self.pending[rid]
        if msg.kind == "error":
            raise ToolError(msg.obj.error.code, msg.obj.error.message)
        return mcp.parse_result(method, msg, version=self.version)

    def log(self, stream: Stream, level: str, data: str) -> None:
        if LEVELS.index(level) >= LEVELS.index(self.level):
            params = self.m.LoggingMessageNotificationParams(
                level=level, logger="server", data=data
            )
            stream.send(self.reg.notification(self.m.LoggingMessageNotification(params=params)))


class Handlers:
    """The methods a client may call: each takes the session, the request's params and the
    stream to send on, and returns the version's result object."""

    def __init__(self, session: Session, stream: Stream) -> None:
        self.s, self.m, self.stream = session, session.m, stream

    def ping(self, p: Any) -> Any:
        return self.m.Result()

    def logging_setLevel(self, p: Any) -> Any:
        self.s.level = p.level
        return self.m.Result()

    def completion_complete(self, p: Any) -> Any:
        words = ["paris", "park", "party"]
        values = [w for w in words if w.startswith(p.argument.value)]
        return self.m.CompleteResult(
            completion=self.m.CompleteResultCompletion(
                values=values, total=len(values), has_more=False
            )
        )

    def tools_list(self, p: Any) -> Any:
        tools = [
            self.m.Tool(
                name=name,
                description=text,
                input_schema={
                    "type": "object",
                    "properties": {a: {"type": "string"} for a in args},
                    "required": args,
                },
            )
            for name, (text, args) in TOOLS.items()
        ]
        if self.s.version >= "2025-11-25":  # JSON Schema 2020-12 keywords stay as they are
            tools.append(
                self.m.Tool(
                    name="json_schema_2020_12_tool",
                    description="Tool with JSON Schema 2020-12 features",
                    input_schema={
                        "$schema": "https://json-schema.org/draft/2020-12/schema",
                        "type": "object",
                        "$defs": {
                            "address": {
                                "type": "object",
                                "properties": {
                                    "street": {"type": "string"},
                                    "city": {"type": "string"},
                                },
                            }
                        },
                        "properties": {
                            "name": {"type": "string"},
                            "address": {"$ref": "#/$defs/address"},
                        },
                        "additionalProperties": False,
                    },
                )
            )
        return self.m.ListToolsResult(tools=tools)

    def tools_call(self, p: Any) -> Any:
        m, args = self.m, dict(p.arguments or {})
        text = m.TextContent
        if p.name == "test_simple_text":
            content = [text(text="This is a simple text response for testing.")]
        elif p.name == "test_image_content":
            content = [m.ImageContent(data=PNG, mime_type="image/png")]
        elif p.name == "test_audio_content":
            content = [m.AudioContent(data=WAV, mime_type="audio/wav")]
        elif p.name == "test_embedded_resource":
            content = [
                self.embedded(
                    "test://embedded-resource",
                    "text/plain",
                    "This is an embedded resource content.",
                )
            ]
        elif p.name == "test_multiple_content_types":
            content = [
                text(text="Multiple content types test:"),
                m.ImageContent(data=PNG, mime_type="image/png"),
                self.embedded(
                    "test://mixed-content-resource",
                    "application/json",
                    '{"test":"data","value":123}',
                ),
            ]
        elif p.name == "test_tool_with_logging":
            for i, line in enumerate(
                ["Tool execution started", "Tool processing data", "Tool execution completed"]
            ):
                time.sleep(0.05 * (i > 0))
                self.s.log(self.stream, "info", line)
            content = [text(text="Logging tool completed")]
        elif p.name == "test_tool_with_progress":
            token = mcp.progress_token(p)  # 2025-06-18 keeps `_meta` in p.extra
            for done in (0, 50, 100):
                if token is not None:
                    params = m.ProgressNotificationParams(
                        progress_token=token, progress=done, total=100
                    )
                    self.stream.send(self.s.reg.notification(m.ProgressNotification(params=params)))
                time.sleep(0.05 * (done < 100))
            content = [text(text="Progress tool completed")]
        elif p.name == "test_error_handling":
            return m.CallToolResult(
                is_error=True,
                content=[text(text="This tool intentionally returns an error for testing")],
            )
        elif p.name == "test_sampling":
            self.need("sampling")
            msg = m.SamplingMessage(role="user", content=text(text=str(args.get("prompt", ""))))
            found = self.s.ask(
                self.stream,
                "sampling/createMessage",
                m.CreateMessageRequestParams(messages=[msg], max_tokens=100),
            )
            reply = found.content.text if isinstance(found.content, m.TextContent) else "(not text)"
            content = [text(text=f"LLM response: {reply}")]
        elif p.name in (
            "test_elicitation",
            "test_elicitation_sep1034_defaults",
            "test_elicitation_sep1330_enums",
        ):
            self.need("elicitation")
            found = self.s.ask(
                self.stream,
                "elicitation/create",
                self.elicit_params(p.name, str(args.get("message", "Please answer"))),
            )
            answer = json.dumps(dict(found.content or {}))
            label = "User response" if p.name == "test_elicitation" else "Elicitation completed"
            content = [text(text=f"{label}: action={found.action}, content={answer}")]
        elif p.name == "json_schema_2020_12_tool":
            content = [text(text=f"Hello, {args.get('name', 'nobody')}")]
        elif p.name == "test_reconnection":
            time.sleep(0.1)
            self.stream.drop()  # the client resumes with GET and Last-Event-ID after RETRY_MS
            time.sleep(RETRY_MS / 1000 + 0.2)
            content = [text(text="Reconnection test completed successfully")]
        else:
            raise ToolError(-32602, f"unknown tool {p.name!r}")
        return m.CallToolResult(content=content)

    def need(self, capability: str) -> None:
        if getattr(self.s.capabilities, capability, mcp.UNSET) is mcp.UNSET:  # `{}` is falsy
            raise ToolError(-32600, f"the client did not declare the {capability} capability")

    def elicit_params(self, tool: str, message: str) -> Any:
        props: dict[str, Any]
        if tool == "test_elicitation":
            props = {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            }
        elif tool == "test_elicitation_sep1034_defaults":
            props = {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "score": {"type": "number", "default": 95.5},
                "verified": {"type": "boolean", "default": True},
                "status": {
                    "type": "string",
                    "enum": ["active", "inactive", "pending"],
                    "default": "active",
                },
            }
        else:
            three = ["option1", "option2", "option3"]
            titled = [
                {"const": f"value{i}", "title": t}
                for i, t in enumerate(["First Option", "Second Option", "Third Option"], 1)
            ]
            choices = [
                {"const": f"value{i}", "title": t}
                for i, t in enumerate(["First Choice", "Second Choice", "Third Choice"], 1)
            ]
            props = {
                "untitledSingle": {"type": "string", "enum": three},
                "titledSingle": {"type": "string", "oneOf": titled},
                "legacyEnum": {
                    "type": "string",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"],
                },
                "untitledMulti": {"type": "array", "items": {"type": "string", "enum": three}},
                "titledMulti": {"type": "array", "items": {"anyOf": choices}},
            }
        required = ["username", "email"] if tool == "test_elicitation" else []
        schema = {"type": "object", "properties": props, "required": required}
        # 2025-06-18 has one params class; from 2025-11-25 the form kind is one of two
        cls = getattr(self.m, "ElicitRequestFormParams", None) or self.m.ElicitRequestParams
        return cls(message=message, requested_schema=schema)

    def embedded(self, uri: str, mime: str, body: str) -> Any:
        return self.m.EmbeddedResource(
            resource=self.m.TextResourceContents(uri=uri, mime_type=mime, text=body)
        )

    def resources_list(self, p: Any) -> Any:
        return self.m.ListResourcesResult(
            resources=[
                self.m.Resource(uri=uri, name=n, description=d, mime_type=t)
                for uri, (n, d, t) in RESOURCES.items()
            ]
        )

    def resources_templates_list(self, p: Any) -> Any:
        template = self.m.ResourceTemplate(
            uri_template="test://template/{id}/data",
            name="Resource Template",
            description="A resource template with parameter substitution",
            mime_type="application/json",
        )
        return self.m.ListResourceTemplatesResult(resource_templates=[template])

    def resources_read(self, p: Any) -> Any:
        m, uri = self.m, p.uri
        if uri == "test://static-binary":
            return m.ReadResourceResult(
                contents=[m.BlobResourceContents(uri=uri, mime_type="image/png", blob=PNG)]
            )
        if uri in TEXTS:
            return m.ReadResourceResult(
                contents=[m.TextResourceContents(uri=uri, mime_type="text/plain", text=TEXTS[uri])]
            )
        if found := re.fullmatch(r"test://template/([^/]+)/data", uri):
            data = json.dumps(
                {"id": found[1], "templateTest": True, "data": f"Data for ID: {found[1]}"},
                separators=(",", ":"),
            )
            return m.ReadResourceResult(
                contents=[m.TextResourceContents(uri=uri, mime_type="application/json", text=data)]
            )
        raise ToolError(-32002, f"resource not found: {uri}")

    def resources_subscribe(self, p: Any) -> Any:
        self.s.subscriptions.add(p.uri)
        threading.Timer(0.1, self.s.updated, [p.uri]).start()  # as if it changed
        return self.m.Result()

    def resources_unsubscribe(self, p: Any) -> Any:
        self.s.subscriptions.discard(p.uri)
        return self.m.Result()

    def prompts_list(self, p: Any) -> Any:
        m = self.m
        return m.ListPromptsResult(
            prompts=[
                m.Prompt(
                    name=n,
                    description=d,
                    arguments=[
                        m.PromptArgument(name=a, description=f"argument {a}", required=True)
                        for a in args
                    ],
                )
                for n, (d, args) in PROMPTS.items()
            ]
        )

    def prompts_get(self, p: Any) -> Any:
        m, args = self.m, dict(p.arguments or {})

        def say(content: Any) -> Any:
            return m.PromptMessage(role="user", content=content)

        if p.name == "test_simple_prompt":
            messages = [say(m.TextContent(text="This is a simple prompt for testing."))]
        elif p.name == "test_prompt_with_arguments":
            messages = [
                say(
                    m.TextContent(
                        text=f"Prompt with arguments: arg1='{args.get('arg1')}', arg2='{args.get('arg2')}'"
                    )
                )
            ]
        elif p.name == "test_prompt_with_embedded_resource":
            messages = [
                say(
                    self.embedded(
                        args.get("resourceUri", "test://example"),
                        "text/plain",
                        "Embedded resource content for testing.",
                    )
                ),
                say(m.TextContent(text="Please process the embedded resource above.")),
            ]
        elif p.name == "test_prompt_with_image":
            messages = [
                say(m.ImageContent(data=PNG, mime_type="image/png")),
                say(m.TextContent(text="Please analyze the image above.")),
            ]
        else:
            raise ToolError(-32602, f"unknown prompt {p.name!r}")
        return m.GetPromptResult(messages=messages)


class App:
    """The sessions, and the version cap: what `initialize` may agree to."""

    def __init__(self, cap: str) -> None:
        self.supported = mcp.PROTOCOL_VERSIONS[: mcp.PROTOCOL_VERSIONS.index(cap) + 1]
        self.sessions: dict[str, Session] = {}


class Handler(BaseHTTPRequestHandler):
    server: Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet: errors go to stderr anyway
        pass

    def reply(
        self, status: int, body: object = None, headers: dict[str, str] | None = None
    ) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def fail(self, status: int, code: int, message: str) -> None:
        self.reply(
            status, {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
        )

    def start_sse(self, session: Session) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Mcp-Session-Id", session.id)
        self.end_headers()

    def local(self) -> bool:
        """Host and Origin must name this machine (DNS rebinding); else a 403 answer."""
        host = urlsplit(f"//{self.headers.get('Host', '')}").hostname or ""
        origin = urlsplit(self.headers.get("Origin") or "//localhost").hostname or ""
        if host in LOCAL_HOSTS and origin in LOCAL_HOSTS:
            return True
        self.fail(403, -32600, "forbidden Host or Origin")
        return False

    def session(self) -> Session | None:
        """The request's session, or None after an error answer."""
        if not self.local():
            return None
        sid = self.headers.get("Mcp-Session-Id")
        session = self.server.app.sessions.get(sid or "")
        if session is None:
            self.fail(
                404 if sid else 400, -32600, "unknown session" if sid else "missing Mcp-Session-Id"
            )
        return session

    def do_GET(self) -> None:
        if urlsplit(self.path).path != "/mcp":
            return self.reply(404)
        if "text/event-stream" not in self.headers.get("Accept", ""):
            return self.reply(406)
        if (session := self.session()) is None:
            return
        key, _, index = self.headers.get("Last-Event-ID", "").rpartition("-")
        stream = session.streams.get(key)
        self.start_sse(session)
        if stream is not None and index.isdigit():  # resume: what was missed, then the rest
            return stream.follow(self.wfile, int(index))
        session.general = session.stream()
        session.general.follow(self.wfile, 0)

    def do_DELETE(self) -> None:
        if (session := self.session()) is not None:
            del self.server.app.sessions[session.id]
            self.reply(200)

    def do_POST(self) -> None:
        if urlsplit(self.path).path != "/mcp":
            return self.reply(404)
        try:
            value = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        except ValueError:
            return self.fail(400, -32700, "parse error")
        if isinstance(value, dict) and value.get("method") == "initialize":
            return self.initialize(value) if self.local() else None
        if (session := self.session()) is None:
            return
        version = self.headers.get("MCP-Protocol-Version", session.version)
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", version):
            return self.fail(400, -32600, f"bad MCP-Protocol-Version {version!r}")
        try:
            msg = mcp.parse_message(value, version=session.version, direction="client_to_server")
        except mcp.ValidationError as err:
            rid = value.get("id") if isinstance(value, dict) else None
            code = -32601 if isinstance(err, mcp.UnknownMethodError) else -32602
            return self.reply(
                400 if rid is None else 200, session.reg.error(rid, code, str(err), validate=False)
            )
        if msg.kind in ("result", "error"):  # an answer to a request the server sent
            if (waiting := session.pending.get(str(msg.id))) is not None:
                waiting.put(msg)
            return self.reply(202)
        if msg.kind == "notification":
            return self.reply(202)
        self.answer(session, msg)

    def initialize(self, value: dict[str, Any]) -> None:
        """A new session, in the version `answer_initialize` picks within the cap."""
        asked = str(value.get("params", {}).get("protocolVersion", ""))
        agreed = versions.answer_initialize(asked, self.server.app.supported)
        reg = versions.registry(agreed)
        try:
            msg = mcp.parse_message(value, version=agreed, direction="client_to_server")
        except mcp.ValidationError as err:
            return self.reply(200, reg.error(value.get("id"), -32602, str(err), validate=False))
        request: Any = msg.obj  # the agreed version's InitializeRequest
        session = Session(agreed, request.params.capabilities)
        self.server.app.sessions[session.id] = session
        m = session.m
        caps = m.ServerCapabilities(
            tools=m.ServerCapabilitiesTools(list_changed=True),
            logging={},
            completions={},
            resources=m.ServerCapabilitiesResources(subscribe=True, list_changed=True),
            prompts=m.ServerCapabilitiesPrompts(list_changed=True),
        )
        me = m.Implementation(name="mcp-codegen-example-server", version="1.0.0")
        result = m.InitializeResult(protocol_version=agreed, capabilities=caps, server_info=me)
        self.reply(200, reg.result(msg.id, result), {"Mcp-Session-Id": session.id})

    def answer(self, session: Session, msg: Any) -> None:
        """Run a request: a JSON response if it sent nothing before its result, else the SSE
        stream its first notification or request opened (the result is its last event)."""
        sse = "text/event-stream" in self.headers.get("Accept", "")
        stream = session.stream(self if sse else None)
        handler = getattr(Handlers(session, stream), msg.method.replace("/", "_"), None)
        try:
            if handler is None:
                raise ToolError(-32601, f"method not found: {msg.method}")
            out = session.reg.result(msg.id, handler(getattr(msg.obj, "params", None)))
        except ToolError as err:
            out = session.reg.error(msg.id, err.code, str(err))
        if stream.started:
            stream.send(out, last=True)
        else:
            self.reply(200, out, {"Mcp-Session-Id": session.id})


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, app: App) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.app = app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--protocol-version", default=mcp.PROTOCOL_VERSIONS[-1], choices=mcp.PROTOCOL_VERSIONS
    )
    args = parser.parse_args()
    server = Server(args.port, App(args.protocol_version))
    print(
        f"MCP server on http://127.0.0.1:{server.server_port}/mcp (protocol {args.protocol_version})",
        flush=True,
    )
    server.serve_forever()


if __name__ == "__main__":
    main()
