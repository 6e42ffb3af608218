"""The HTML shells of the multi-version reference: autoescaping templates, an inline style and
script, and a Content-Security-Policy that lets the page run its own script and nothing else
(schema text never becomes markup, and if it ever did, it could not run)."""

from __future__ import annotations

import base64
import functools
import hashlib
from typing import Any

import markupsafe

from .. import templating
from ..templating import static_source


@functools.lru_cache(maxsize=1)
def page_assets() -> dict[str, Any]:
    script = static_source("reference/page.js")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return {
        "css": markupsafe.Markup(static_source("reference/page.css")),
        "script": markupsafe.Markup(script),
        "script_sha256": digest,
    }


def render_html(template: str, **context: Any) -> str:
    env = templating.environment(autoescape=True)
    return env.get_template(template).render(page=page_assets(), **context)
