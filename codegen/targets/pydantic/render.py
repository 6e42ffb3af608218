"""The pydantic v2 target: one self-contained module of models per schema (`DIR/__init__.py`).

IR -> names (`names.py`, the seam to the shared naming machinery) -> view (`views.py`, with a
profile's section: `profile.py`) -> `templates/pydantic/module.py.j2` -> ruff (imports sorted,
then `ruff format`: every Python target's one run, `codegen/pyformat.py`). pydantic (>= 2.12)
is a dependency of the output only, never of the generator.
"""

from __future__ import annotations

from ... import ir
from ...pyformat import format_files
from .profile import Profile, load_profile
from .views import module_view

__all__ = ["load_profile", "render_pydantic"]


def render_pydantic(resolved: ir.Resolved, profile: Profile | None = None) -> dict[str, str]:
    """The files of one schema's module: `__init__.py` (relative path -> text)."""
    from ...templating import render  # after the bindings package (templating imports it)

    section = profile.section(resolved.protocol_version) if profile is not None else None
    view = module_view(resolved, section)
    text = render("pydantic/module.py.j2", view=view)
    return format_files({"__init__.py": text}, "ruff", view.first_party)
