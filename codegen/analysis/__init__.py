"""Target-neutral facts over the resolved model, read by every output (the dataclass bindings,
pydantic, zod, the diff and the reference); nothing here renders text:

- `classes`: which objects get a name of their own (the same for every target);
- `typeindex`: those classes with their fields (wire names; a target's index spells them),
  discriminators, raw JSON, the JSON kinds a type admits;
- `shapes`: type shapes (class objects, children, cycles); `payloads`: the schema-payload rule;
- `methods`: the method model; `presence`: which versions declare what; `users`: where a
  declaration is used (subject paths); `versions`: version identity (label, key, which schema
  answers negotiation; each target names its folders).

No module here knows a target's spelling: Python's name table is `codegen/pynaming.py` (shared by
the Python targets), each other target spells its own names.
"""
