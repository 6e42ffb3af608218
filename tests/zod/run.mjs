// Runs generated zod modules (and, for the drift check, a TypeScript SDK's exported schemas)
// over a corpus in one node process. Usage: node run.mjs INPUT.json > OUTPUT.json
//
// INPUT: {"module": "/abs/module.ts", "cases": [{"type", "instance", "seed"}],
//         "sdk": null | "sdk-seed" | "sdk-latest"}
// OUTPUT without "sdk": {"verdicts": [bool], "roundTrips": [bool | null], "constants": {}}
//   (round trip: parse, then JSON.stringify equals the input modulo key order; null when the
//   case is invalid; constants: the module's exports that are not schemas or tables).
// INPUT {"jobs": [{"module", "cases"}]}: OUTPUT {"results": [the above, per job]}.
// OUTPUT with "sdk": {"protocolVersion", "compared", "missing": [type],
//   "probes": n, "disagreements": [{type, path, sdk, schema, value, case}]}.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

async function loadModule(path) {
  const source = readFileSync(path, "utf8");
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText.replace('from "zod"', `from ${JSON.stringify(import.meta.resolve("zod"))}`);
  const dir = mkdtempSync(join(tmpdir(), "zod-run-"));
  const file = join(dir, "module.mjs");
  writeFileSync(file, js);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v !== null && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = canon(v[k]);
    return out;
  }
  return v;
}
const same = (a, b) => JSON.stringify(canon(a)) === JSON.stringify(canon(b));

function jsonPath(path) {
  let out = "$";
  for (const k of path) {
    if (typeof k === "number") out += "[*]";
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k)) out += "." + k;
    else out += "[" + JSON.stringify(k) + "]";
  }
  return out;
}

// The definition of a zod 3 or zod 4 schema, as {kind, ...children}.
function def(s) {
  if (s?._zod?.def) {
    const d = s._zod.def;
    return { kind: d.type, d, v4: true };
  }
  if (s?._def) {
    const d = s._def;
    return { kind: String(d.typeName || "").replace(/^Zod/, "").toLowerCase(), d, v4: false };
  }
  return { kind: "", d: {} };
}

// String values of enum/literal schemas found under each object key, anywhere in `roots`.
function vocabulary(roots) {
  const vocab = new Map();
  const seen = new Set();
  const add = (key, values) => {
    if (!vocab.has(key)) vocab.set(key, new Set());
    for (const v of values) if (typeof v === "string") vocab.get(key).add(v);
  };
  const strings = (s, depth = 0) => {
    const { kind, d, v4 } = def(s);
    if (depth > 4) return [];
    if (kind === "enum" || kind === "nativeenum")
      return v4 ? Object.values(d.entries) : d.values;
    if (kind === "literal") return v4 ? d.values : [d.value];
    if (kind === "optional" || kind === "nullable" || kind === "default")
      return strings(d.innerType, depth + 1);
    if (kind === "union") return d.options.flatMap((o) => strings(o, depth + 1));
    return [];
  };
  const walk = (s) => {
    if (!s || seen.has(s)) return;
    seen.add(s);
    const { kind, d, v4 } = def(s);
    const kids = [];
    if (kind === "object") {
      const shape = typeof d.shape === "function" ? d.shape() : d.shape;
      for (const [k, v] of Object.entries(shape)) {
        add(k, strings(v));
        kids.push(v);
      }
      if (d.catchall) kids.push(d.catchall);
    } else if (kind === "optional" || kind === "nullable" || kind === "default" || kind === "readonly") kids.push(d.innerType);
    else if (kind === "union" || kind === "discriminatedunion") kids.push(...(Array.isArray(d.options) ? d.options : [...d.options.values()]));
    else if (kind === "array") kids.push(v4 ? d.element : d.type);
    else if (kind === "intersection") kids.push(d.left, d.right);
    else if (kind === "record") kids.push(d.valueType);
    else if (kind === "lazy") kids.push(v4 ? d.getter() : d.getter());
    else if (kind === "pipe" || kind === "pipeline") kids.push(d.in, d.out);
    else if (kind === "effects") kids.push(d.schema);
    kids.forEach(walk);
  };
  roots.forEach(walk);
  return vocab;
}

// Instances with one literal-keyed string replaced by each other value of its key's vocabulary.
function* probes(instance, vocab) {
  function* visit(node, path) {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) yield* visit(node[i], [...path, i]);
    } else if (node !== null && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (typeof v === "string" && vocab.has(k))
          for (const alt of vocab.get(k)) if (alt !== v) yield { path: [...path, k], value: alt };
        yield* visit(v, [...path, k]);
      }
    }
  }
  for (const { path, value } of visit(instance, [])) {
    const copy = structuredClone(instance);
    let target = copy;
    for (const k of path.slice(0, -1)) target = target[k];
    target[path[path.length - 1]] = value;
    yield { instance: copy, path, value };
  }
}

function firstIssuePath(result) {
  const issue = result.error?.issues?.[0];
  if (!issue) return [];
  let path = issue.path ?? [];
  // zod 3 reports a failed union at the union; its members' issues say where inside
  const inner = issue.unionErrors?.map((e) => e.issues?.[0]?.path ?? []) ?? [];
  const deepest = inner.reduce((a, b) => (b.length > a.length ? b : a), []);
  return deepest.length > path.length ? deepest : path;
}

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
if (input.probe_only) {
  const sdk = await import(import.meta.resolve(`${input.sdk}/types.js`));
  process.stdout.write(JSON.stringify({ protocolVersion: sdk.LATEST_PROTOCOL_VERSION }));
  process.exit(0);
}
async function verdicts(job) {
  const ours = await loadModule(job.module);
  const verdicts = [];
  const roundTrips = [];
  for (const c of job.cases) {
    const r = ours.SCHEMAS[c.type].safeParse(c.instance);
    verdicts.push(r.success);
    roundTrips.push(r.success ? same(JSON.parse(JSON.stringify(r.data)), c.instance) : null);
  }
  // the module's plain values (its constants), to check schema text arrived as data
  const constants = Object.fromEntries(
    Object.entries(ours).filter(([, v]) => v === null || typeof v !== "object"),
  );
  const pwned = globalThis.PWNED ?? null; // set only if schema text ran as code
  return { verdicts, roundTrips, constants, pwned };
}

if (input.jobs) {
  const results = [];
  for (const job of input.jobs) results.push(await verdicts(job));
  process.stdout.write(JSON.stringify({ results }));
} else if (!input.sdk) {
  process.stdout.write(JSON.stringify(await verdicts(input)));
} else {
  const ours = await loadModule(input.module);
  const sdk = await import(import.meta.resolve(`${input.sdk}/types.js`));
  const sdkSchemas = (t) => sdk[`${t}Schema`];
  const vocab = vocabulary(Object.values(sdk).filter((v) => def(v).kind));
  for (const [k, vs] of vocabulary(Object.values(ours.SCHEMAS))) {
    if (!vocab.has(k)) vocab.set(k, new Set());
    for (const v of vs) vocab.get(k).add(v);
  }
  const missing = new Set();
  const disagreements = [];
  let compared = 0;
  let probeCount = 0;
  const check = (c, instance, detail) => {
    const theirs = sdkSchemas(c.type).safeParse(instance);
    const mine = ours.SCHEMAS[c.type].safeParse(instance);
    compared++;
    if (theirs.success === mine.success) return;
    const path = detail?.path ?? firstIssuePath(theirs.success ? mine : theirs);
    disagreements.push({
      type: c.type,
      path: jsonPath(path),
      sdk: theirs.success,
      schema: mine.success,
      value: detail ? detail.value : null,
      case: c.description + (detail ? `: literal at ${jsonPath(detail.path)} = ${JSON.stringify(detail.value)}` : ""),
    });
  };
  for (const c of input.cases) {
    if (!sdkSchemas(c.type) || !ours.SCHEMAS[c.type]) {
      missing.add(c.type);
      continue;
    }
    check(c, c.instance, null);
    if (c.seed)
      for (const p of probes(c.instance, vocab)) {
        probeCount++;
        check(c, p.instance, p);
      }
  }
  process.stdout.write(
    JSON.stringify({
      protocolVersion: sdk.LATEST_PROTOCOL_VERSION,
      compared,
      probes: probeCount,
      missing: [...missing].sort(),
      disagreements,
    }),
  );
}
