"""pydantic v2 models: one self-contained module per schema (`__init__.py`), optionally in a
consumer's reviewed conventions (`--profile`). The machinery (`render`, `views`, `names`,
`profile`) is imported when the target runs; it lays its module out with the pinned ruff run of
every Python target (`codegen/pyformat.py`; no --formatter)."""

from __future__ import annotations

from collections.abc import Mapping

from ..base import Files, Option, Request, Target


def _check(options: Mapping[str, object], count: int) -> Mapping[str, object] | None:
    spec = options.get("profile")
    if spec is None:
        return None
    from .profile import load_profile

    return {"profile": load_profile(str(spec))}  # read first: a bad profile stops the run


def _render(request: Request) -> Files:
    from .profile import Profile
    from .render import render_pydantic

    profile = request.option("profile")
    assert profile is None or isinstance(profile, Profile)
    return render_pydantic(request.schemas[0], profile)


TARGET = Target(
    name="pydantic",
    summary="one module of pydantic v2 models (__init__.py) for one schema",
    render=_render,
    options=(
        Option(
            "--profile",
            "the reviewed conventions of one consumer (a JSON file, or a shipped name: python-sdk)",
            metavar="NAME|FILE",
        ),
    ),
    check_options=_check,
)
