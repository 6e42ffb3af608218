"""View model of the typed method registry of a distribution's application types (the part of
`app/convert.py` that types `parse_message`, `parse_result` and `serialize`): the application
classes of each method's messages and results, and the `(method, version) -> result classes`
table `serialize(..., method=M)` checks. The method strings as `Literal` unions are versions.py's
(`MethodName`, `RequestMethod`; codegen/targets/python/bindings/versions_views.py).

Pure: the application model and the versions' method models in, plain template contexts out;
the application name of each version's type is read from server_views.AppFacts (its one owner).
"""

from __future__ import annotations

from dataclasses import dataclass

from ....analysis.envelopes import envelopes
from ....analysis.methods import method_model
from ....analysis.versions import Version
from ....pynaming import PyIndex
from ....pytext import code_literal
from ..appmodel import AppModel
from .server_views import AppFacts
from .views import Context

APP = "_app"  # how convert.py imports the application models
EMPTY_RESULT = "EmptyResult"  # decodes to `Result`


@dataclass(frozen=True)
class AppMethodView:
    key: str  # method literal
    result_hint: str  # union of its application result classes over every version


@dataclass(frozen=True)
class AppMethodsView:
    request_hint: str  # union of the application request classes
    notification_hint: str
    response_hint: str
    result_hint: str
    requests: tuple[AppMethodView, ...]  # for the overloads (by method)
    results: tuple[tuple[str, str], ...]  # ("(method, version)" literal, tuple of class literals)
    typing_imports: str  # what convert.py imports from typing


def _union(names: list[str]) -> str:
    seen = list(dict.fromkeys(names))
    return " | ".join(f"{APP}.{n}" for n in seen) or "object"


def _tuple(items: list[str]) -> str:
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def app_methods_view(
    model: AppModel, versions: tuple[Version, ...], app: Context
) -> AppMethodsView:
    facts = AppFacts(model, app)
    requests: list[str] = []
    notifications: list[str] = []
    responses: list[str] = []
    results: dict[str, list[str]] = {}
    rows: list[tuple[str, str, list[str]]] = []
    for v in versions:
        env = envelopes(PyIndex(v.resolved))
        responses += [facts.py(v.key, n) for n in (env.result, env.error) if n is not None]
        for m in method_model(v.resolved).methods:
            if m.kind == "notification":
                notifications.append(facts.py(v.key, m.type_name))
                continue
            requests.append(facts.py(v.key, m.type_name))
            names = ["Result" if w == EMPTY_RESULT else facts.py(v.key, w) for w in m.result_types]
            results.setdefault(m.method, []).extend(names)
            rows.append((m.method, v.key, names))
    all_results = [n for method in sorted(results) for n in results[method]]
    typing = ["Final", "Literal", "TypeAlias"] + (["overload"] if results else [])
    return AppMethodsView(
        typing_imports=", ".join(typing),
        request_hint=_union(requests),
        notification_hint=_union(notifications),
        response_hint=_union(responses),
        result_hint=_union(all_results),
        requests=tuple(AppMethodView(code_literal(k), _union(results[k])) for k in sorted(results)),
        results=tuple(
            (_tuple([code_literal(m), code_literal(k)]), _tuple([code_literal(n) for n in names]))
            for m, k, names in sorted(rows, key=lambda row: row[0])
        ),
    )
