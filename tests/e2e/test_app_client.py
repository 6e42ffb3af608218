"""A client written only against the application types (`<distribution>.app`): it negotiates with
each peer for each version the e2e suite asks for, lists the tools and calls one, building every
message it sends as an application object (`app.serialize` for the agreed version) and reading
every result as one (`app.parse_result`). No version subpackage is named anywhere: the code is
the same whatever version the peer agrees to.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .bindings import DIST_PACKAGE, VERSIONS, Bindings
from .conftest import Spawn
from .stdio import StdioPeer

pytestmark = pytest.mark.spec

TOOLS = {"node": ("echo", {"message": "hi"}, "Echo: hi"), "python": ("add", {"a": 1, "b": 1}, "2")}
CLIENT = {"name": "mcp-codegen-app-client", "version": "0.1.0"}
METHOD_NOT_FOUND = -32601


class AppSession:
    """A session that speaks application types only."""

    def __init__(self, peer: StdioPeer, pkg: ModuleType) -> None:
        self.peer, self.app, self.versions = peer, pkg.app, pkg.versions
        self.version = ""
        self.stateless = False

    def request(self, obj: Any) -> Any:
        """Send an application request object; the result as an application object."""
        obj.id = self.peer.next_id()
        if self.stateless:
            params = obj.params if obj.params else self.app.PaginatedRequestParams()
            params.meta = self.envelope()
            obj.params = params
        response = self.peer.request(self.app.serialize(obj, version=self.version))
        if "error" in response:
            raise RpcError(response["error"]["code"], response["error"]["message"])
        return self.app.parse_result(obj.method, response["result"], version=self.version)

    def envelope(self) -> Any:
        app = self.app
        # Older versions take any value under these keys (an index signature of `unknown`), so
        # the application type holds them as JSON.
        return app.RequestMetaObject(
            # the protocol version the key stands for (a draft's key is its label)
            io_modelcontextprotocol_protocol_version=self.versions.bindings(
                self.version
            ).LATEST_PROTOCOL_VERSION,
            io_modelcontextprotocol_client_info=dict(CLIENT),
            io_modelcontextprotocol_client_capabilities={},
        )

    def connect(self, asked: str) -> str:
        app = self.app
        if self.versions.HANDSHAKES[asked] == "server/discover":
            self.version, self.stateless = asked, True
            try:
                found = self.request(app.DiscoverRequest(id=0, params=app.RequestParams()))
            except RpcError as err:
                if err.code != METHOD_NOT_FOUND:
                    raise
                self.stateless = False  # an initialize-era server: offer its latest version
                return self.initialize(self.versions.initialize_version())
            self.version = self.versions.choose_version(found.supported_versions)
            return self.version
        return self.initialize(asked)

    def initialize(self, offer: str) -> str:
        app = self.app
        self.version = offer
        params = app.InitializeRequestParams(
            protocol_version=offer,
            capabilities=app.ClientCapabilities(),
            client_info=app.Implementation(**CLIENT),
        )
        result = self.request(app.InitializeRequest(params=params))
        self.version = self.versions.accept_initialize(result.protocol_version)
        self.peer.send(self.app.serialize(app.InitializedNotification(), version=self.version))
        return self.version


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


@pytest.fixture(scope="module")
def pkg(distribution: Path, bindings: dict[str, Bindings]) -> ModuleType:
    importlib.import_module(f"{DIST_PACKAGE}.app")
    return importlib.import_module(DIST_PACKAGE)


@pytest.mark.slow
@pytest.mark.parametrize("asked", VERSIONS)
def test_app_client(spawn: Spawn, peer_name: str, argv: list[str], asked: str, pkg: Any) -> None:
    peer = spawn(argv, name=peer_name, inherit_env=False)
    session = AppSession(peer, pkg)
    try:
        agreed = session.connect(asked)
        app = pkg.app
        listed = session.request(app.ListToolsRequest())
        assert type(listed) is app.ListToolsResult
        name, arguments, expected = TOOLS[peer_name]
        assert name in {t.name for t in listed.tools}
        params = app.CallToolRequestParams(name=name, arguments=arguments)
        result = session.request(app.CallToolRequest(params=params))
        assert type(result) is app.CallToolResult and not result.is_error
        texts = [c.text for c in result.content if isinstance(c, app.TextContent)]
        assert any(expected in t for t in texts), texts
        print(f"\n{peer_name} asked {asked}: agreed {agreed}, {len(listed.tools)} tools, {texts}")
    finally:
        peer.close()
