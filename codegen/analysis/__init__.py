"""Target-neutral facts over the resolved model, read by every output (the dataclass bindings,
pydantic, zod, the diff and the reference): the type index (`typeindex`: classes with their
attribute names, discriminators, raw JSON, JSON kinds), type shapes (`shapes`), the schema-payload
rule (`payloads`), the method model (`methods`) and the cross-version presence model
(`presence`). Nothing here renders text."""
