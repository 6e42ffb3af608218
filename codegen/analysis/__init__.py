"""Target-neutral facts over the resolved model, read by every output (the dataclass bindings,
pydantic, zod, the diff and the reference); nothing here renders text:

- `typeindex`: which objects are classes, with their attributes, discriminators, raw JSON, the
  JSON kinds a type admits;
- `pynaming`: the one name table (classes, aliases, wire <-> attribute names);
- `shapes`: type shapes (class objects, children, cycles); `payloads`: the schema-payload rule;
- `methods`: the method model; `presence`: which versions declare what; `versions`: version
  identity (label, key, subpackage, which schema answers negotiation).
"""
