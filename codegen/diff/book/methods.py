"""The rule book's method rules: a method added, removed, or changed in kind, direction,
carrier, message type, params, result or alternative results."""

from __future__ import annotations

from ..levels import Condition, Rule

METHOD_RULES: tuple[Rule, ...] = (
    Rule(
        id="method-added",
        category="method",
        sender="compatible",
        receiver="risky",
        mirror="method-removed",
        purpose="a method string appears in the message unions",
        why=(
            "new method: nobody must send it, but old peers that receive it answer"
            " method-not-found, which new senders must expect"
        ),
    ),
    Rule(
        id="method-removed",
        category="method",
        sender="breaking",
        receiver="compatible",
        mirror="method-added",
        purpose="a method string disappears from the message unions",
        why="old senders still send it, new receivers no longer handle it",
    ),
    Rule(
        id="method-kind-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-kind-changed",
        purpose="a method changes between request and notification",
        why="old senders wait for a response that never comes, or send one nobody expects",
    ),
    Rule(
        id="method-direction-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-direction-changed",
        purpose="the side that sends a method changes (client_to_server <-> server_to_client)",
        why="old code sends it the old way and does not handle it the new way",
    ),
    Rule(
        id="method-direction-widened",
        category="method",
        sender="compatible",
        receiver="breaking",
        mirror="method-direction-narrowed",
        purpose="a method sent by one side may now be sent by both",
        why="the side that starts receiving it has no handler in its old code",
    ),
    Rule(
        id="method-direction-narrowed",
        category="method",
        sender="breaking",
        receiver="compatible",
        mirror="method-direction-widened",
        purpose="a method sent by both sides may now be sent by only one",
        why="old code on the side that lost it still sends it to peers that no longer handle it",
    ),
    Rule(
        id="method-transport-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-transport-changed",
        purpose=(
            "a request moves between a JSON-RPC message and an input request inside "
            "InputRequiredResult"
        ),
        why="old code looks for the request on the old carrier and never sees it on the new one",
    ),
    Rule(
        id="method-type-changed",
        category="method",
        sender="info",
        receiver="info",
        mirror="method-type-changed",
        purpose="the declared type of a method's message changes name",
        why="names are not on the wire; the shapes of both types are compared separately",
    ),
    Rule(
        id="method-params-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-params-changed",
        purpose="a request's or notification's params type changes to one of another shape",
        why="old senders build the old params, old receivers parse the old params",
    ),
    Rule(
        id="method-params-retyped",
        category="method",
        sender="info",
        receiver="info",
        mirror="method-params-retyped",
        purpose="a params type changes name but not shape",
        why="same shape under another name: wire-compatible",
    ),
    Rule(
        id="method-result-changed",
        category="method",
        sender="breaking",
        receiver="breaking",
        mirror="method-result-changed",
        purpose="a request is answered by a result type of another shape",
        why="old responders send the old result, old requesters parse the old result",
    ),
    Rule(
        id="method-result-retyped",
        category="method",
        sender="info",
        receiver="info",
        mirror="method-result-retyped",
        purpose="a result type changes name but not shape",
        why="same shape under another name: wire-compatible",
    ),
    Rule(
        id="method-result-alternative-added",
        category="method",
        sender="compatible",
        receiver="breaking",
        mirror="method-result-alternative-removed",
        purpose=(
            "a request may now also be answered by another result type"
            " (InputRequiredResult, CreateTaskResult)"
        ),
        why="old requesters cannot parse the new kind of answer",
        conditions=(
            Condition(
                fact="on_request",
                when="the alternative answers only requests that ask for it (CreateTaskResult,"
                " for a request with `params.task`)",
                sender="compatible",
                receiver="compatible",
                why="sent only to requests that ask for it, which old requesters never do",
            ),
        ),
    ),
    Rule(
        id="method-result-alternative-removed",
        category="method",
        sender="breaking",
        receiver="compatible",
        mirror="method-result-alternative-added",
        purpose="a request may no longer be answered by an alternative result type",
        why="old responders may still send the alternative that new requesters no longer accept",
        conditions=(
            Condition(
                fact="on_request",
                when="the alternative answered only requests that asked for it (CreateTaskResult)",
                sender="compatible",
                receiver="compatible",
                why="old responders sent it only when asked, which new requesters cannot do",
            ),
        ),
    ),
)
