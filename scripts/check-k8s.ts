/**
 * Validates every YAML file under k8s/ offline and strictly, then cross-checks the manifests.
 *
 *   npx ts-node --transpile-only scripts/check-k8s.ts [dir]      (dir defaults to k8s)
 *
 * Schema: the Kubernetes API types of `kubernetes-types` (generated from the Kubernetes OpenAPI
 * document, one `.d.ts` per group/version), checked by the TypeScript compiler. Each YAML
 * document becomes `const docN: <Kind> = <its JSON>;` in a generated, in-memory source file, so
 * the compiler's object-literal checks give what a strict JSON-schema validator would: unknown
 * fields are rejected (excess property), types are exact (`replicas: "two"` fails), required
 * fields are required, `apiVersion`/`kind` must match. kubernetes-models' validators were not
 * used because they accept unknown fields; kubeconform/kubeval are not packaged for Debian and
 * their schemas would need a download.
 *
 * YAML is read as YAML 1.1, as kubectl and the API server read it (`on`, `yes` are booleans,
 * 0644 is octal), and a scalar that YAML 1.2 reads differently is reported too: quote it.
 *
 * Then, across all files: Deployment selectors match their pod labels; every Service, PDB and
 * Ingress backend points at something that exists (and at a named port that exists); every
 * ConfigMap/Secret key a pod asks for exists (secret.example.yaml documents the real Secret);
 * objects are unique; namespaced objects name their namespace; each kustomization.yaml lists
 * exactly the manifests beside it, never a `*.example.yaml` nor a Secret, and all agree on images.
 *
 * Fails (exit 1) with file, document number, JSON path and line for each problem; exits 2 when
 * it cannot run (a dependency missing, or its own negative self-test not failing).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';
import { Document, isNode, LineCounter, parseAllDocuments } from 'yaml';

const ROOT = resolve(__dirname, '..');
const TYPES_PACKAGE = 'kubernetes-types';

type Obj = Record<string, unknown>;

interface Manifest {
  /** Path relative to the repository root. */
  file: string;
  /** 1-based position of the document in its file. */
  index: number;
  doc: Document.Parsed;
  lines: LineCounter;
  value: Obj;
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | undefined;
}

interface Problem {
  where: string;
  message: string;
}

const problems: Problem[] = [];

function report(m: Manifest | { file: string; index?: number }, path: ReadonlyArray<string | number>, message: string): void {
  let where = m.file + (m.index !== undefined ? ` [doc ${m.index}]` : '');
  if ('doc' in m) {
    where += ` ${pointer(path)}`;
    const line = lineOf(m, path);
    if (line !== undefined) where += ` (line ${line})`;
  }
  problems.push({ where, message });
}

function pointer(path: ReadonlyArray<string | number>): string {
  return '/' + path.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** Line of the deepest node of `path` that exists in the YAML document. */
function lineOf(m: Manifest, path: ReadonlyArray<string | number>): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node: unknown = n === 0 ? m.doc.contents : m.doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return m.lines.linePos(node.range[0]).line;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// small typed accessors over parsed YAML

function asObj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) ? (v as Obj) : undefined;
}
function asArr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function asStr(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function at(v: unknown, ...path: string[]): unknown {
  let cur: unknown = v;
  for (const key of path) cur = asObj(cur)?.[key];
  return cur;
}
function labelsOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(asObj(v) ?? {})) if (typeof val === 'string') out[k] = val;
  return out;
}
function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

// ---------------------------------------------------------------------------------------------
// reading

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...yamlFiles(full));
    else if (/\.ya?ml$/.test(entry)) out.push(full);
  }
  return out;
}

/** First path at which two parsed values differ, if any. */
function difference(a: unknown, b: unknown, path: string[] = []): string[] | undefined {
  if (a instanceof Date || b instanceof Date) return String(a) === String(b) && typeof a === typeof b ? undefined : path;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return path;
    for (let i = 0; i < a.length; i++) {
      const d = difference(a[i], b[i], [...path, String(i)]);
      if (d) return d;
    }
    return undefined;
  }
  const oa = asObj(a);
  const ob = asObj(b);
  if (oa && ob) {
    const keys = new Set([...Object.keys(oa), ...Object.keys(ob)]);
    for (const k of keys) {
      if (!(k in oa) || !(k in ob)) return [...path, k];
      const d = difference(oa[k], ob[k], [...path, k]);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : path;
}

function readManifests(files: string[]): Manifest[] {
  const manifests: Manifest[] = [];
  for (const full of files) {
    const file = relative(ROOT, full);
    const text = readFileSync(full, 'utf8');
    const lines = new LineCounter();
    const docs = parseAllDocuments(text, { version: '1.1', lineCounter: lines, uniqueKeys: true, prettyErrors: true });
    const docs12 = parseAllDocuments(text, { version: '1.2', uniqueKeys: true });
    let count = 0;
    docs.forEach((doc, i) => {
      const index = i + 1;
      for (const e of [...doc.errors, ...doc.warnings]) report({ file, index }, [], `YAML: ${e.message.split('\n')[0]}`);
      if (doc.errors.length > 0) return;
      const value: unknown = doc.toJS({ maxAliasCount: 0 });
      if (value === null || value === undefined) return; // an empty document (e.g. a trailing ---)
      count++;
      const obj = asObj(value);
      const apiVersion = asStr(obj?.apiVersion);
      const kind = asStr(obj?.kind);
      if (!obj || !apiVersion || !kind) {
        report({ file, index }, [], 'not a Kubernetes object: apiVersion and kind must be strings');
        return;
      }
      const m: Manifest = {
        file,
        index,
        doc,
        lines,
        value: obj,
        apiVersion,
        kind,
        name: asStr(at(obj, 'metadata', 'name')) ?? '',
        namespace: asStr(at(obj, 'metadata', 'namespace')),
      };
      const other = docs12[i];
      const diff = other && other.errors.length === 0 ? difference(value, other.toJS({ maxAliasCount: 0 })) : undefined;
      if (diff) report(m, diff, 'YAML 1.1 (kubectl, the API server) and YAML 1.2 (kustomize) read this differently: quote the value');
      manifests.push(m);
    });
    if (count === 0 && problems.every((p) => !p.where.startsWith(file))) report({ file }, [], 'no YAML document in this file');
  }
  return manifests;
}

// ---------------------------------------------------------------------------------------------
// schema check through the TypeScript compiler

/** The fields of kustomize's Kustomization (kustomize.config.k8s.io/v1beta1) allowed here. */
const KUSTOMIZATION_TYPES = `
type StringMap = { [key: string]: string };
interface KustomizeTarget { group?: string; version?: string; kind?: string; name?: string; namespace?: string; labelSelector?: string; annotationSelector?: string }
interface KustomizeGeneratorOptions { labels?: StringMap; annotations?: StringMap; disableNameSuffixHash?: boolean; immutable?: boolean }
interface KustomizeGenerator { name: string; namespace?: string; behavior?: 'create' | 'replace' | 'merge'; files?: string[]; literals?: string[]; envs?: string[]; type?: string; options?: KustomizeGeneratorOptions }
interface Kustomization {
  apiVersion: 'kustomize.config.k8s.io/v1beta1';
  kind: 'Kustomization';
  metadata?: { name?: string; labels?: StringMap; annotations?: StringMap };
  namespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  resources?: string[];
  components?: string[];
  labels?: Array<{ pairs: StringMap; includeSelectors?: boolean; includeTemplates?: boolean }>;
  commonLabels?: StringMap;
  commonAnnotations?: StringMap;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
  replicas?: Array<{ name: string; count: number }>;
  patches?: Array<{ path?: string; patch?: string; target?: KustomizeTarget; options?: { allowNameChange?: boolean; allowKindChange?: boolean } }>;
  configMapGenerator?: KustomizeGenerator[];
  secretGenerator?: KustomizeGenerator[];
  generatorOptions?: KustomizeGeneratorOptions;
}
`;

interface Checked {
  /** Where to report; undefined for the self-test controls. */
  manifest: Manifest | undefined;
  label: string;
  typeExpr: string;
  module: string | undefined;
  value: unknown;
}

/** `apps/v1` -> `kubernetes-types/apps/v1`, `v1` -> core/v1, `networking.k8s.io/v1` -> networking/v1. */
function typesModuleOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return `${TYPES_PACKAGE}/core/${apiVersion}`;
  const group = apiVersion.slice(0, slash);
  const folder = group === 'internal.apiserver.k8s.io' ? 'apiserverinternal' : group.split('.')[0];
  return `${TYPES_PACKAGE}/${folder}/${apiVersion.slice(slash + 1)}`;
}

function typesDir(): string {
  try {
    return dirname(require.resolve(`${TYPES_PACKAGE}/package.json`, { paths: [ROOT] }));
  } catch {
    throw new Error(`${TYPES_PACKAGE} is not installed (a devDependency): run npm ci`);
  }
}

function schemaTarget(m: Manifest, dir: string): Checked | undefined {
  if (m.kind === 'Kustomization') {
    return { manifest: m, label: `${m.file} [doc ${m.index}]`, typeExpr: 'Kustomization', module: undefined, value: m.value };
  }
  const module = typesModuleOf(m.apiVersion);
  const dts = join(dir, `${module.slice(TYPES_PACKAGE.length + 1)}.d.ts`);
  const known = existsSync(dts) && new RegExp(`^export interface ${m.kind} \\{`, 'm').test(readFileSync(dts, 'utf8'));
  if (!known || !/^[A-Za-z][A-Za-z0-9]*$/.test(m.kind)) {
    report(m, ['kind'], `no schema for ${m.apiVersion} ${m.kind}: only built-in Kubernetes kinds of ${TYPES_PACKAGE} are accepted (a removed or custom API?)`);
    return undefined;
  }
  return { manifest: m, label: `${m.file} [doc ${m.index}]`, typeExpr: m.kind, module, value: m.value };
}

/** Negative controls: the check must reject both, or it is not checking anything. */
function selfTestControls(): Checked[] {
  const deployment = (spec: Obj): Obj => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'control' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec },
  });
  return [
    { manifest: undefined, label: 'self-test: replicas: "two"', typeExpr: 'Deployment', module: `${TYPES_PACKAGE}/apps/v1`, value: deployment({ replicas: 'two' }) },
    { manifest: undefined, label: 'self-test: unknown field replicaz', typeExpr: 'Deployment', module: `${TYPES_PACKAGE}/apps/v1`, value: deployment({ replicaz: 2 }) },
  ];
}

function nodeAt(sf: ts.SourceFile, pos: number): ts.Node {
  let found: ts.Node = sf;
  const visit = (n: ts.Node): void => {
    if (pos >= n.getStart(sf) && pos < n.getEnd()) {
      found = n;
      ts.forEachChild(n, visit);
    }
  };
  ts.forEachChild(sf, visit);
  return found;
}

/** JSON path of a node inside a generated `const docN: T = {...}` literal. */
function jsonPathOf(node: ts.Node): string[] {
  const path: string[] = [];
  for (let n: ts.Node | undefined = node; n && !ts.isVariableDeclaration(n); n = n.parent) {
    if (ts.isPropertyAssignment(n) && (ts.isStringLiteral(n.name) || ts.isIdentifier(n.name))) path.unshift(n.name.text);
    const parent: ts.Node | undefined = n.parent;
    if (parent && ts.isArrayLiteralExpression(parent)) path.unshift(String(parent.elements.indexOf(n as ts.Expression)));
  }
  return path;
}

function typeCheck(targets: Checked[], controls: Checked[]): void {
  const all = [...targets, ...controls];
  const aliases = new Map<string, string>();
  for (const t of all) if (t.module && !aliases.has(t.module)) aliases.set(t.module, `K${aliases.size}`);

  let source = [...aliases].map(([module, alias]) => `import type * as ${alias} from ${JSON.stringify(module)};`).join('\n');
  source += '\n' + KUSTOMIZATION_TYPES + '\n';
  const spans: Array<{ start: number; end: number; target: Checked }> = [];
  all.forEach((t, i) => {
    const type = t.module ? `${aliases.get(t.module)}.${t.typeExpr}` : t.typeExpr;
    const start = source.length;
    source += `export const doc${i}: ${type} = ${JSON.stringify(t.value, null, 2)};\n`;
    spans.push({ start, end: source.length, target: t });
  });

  const fileName = join(ROOT, '.check-k8s.generated.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, onError, create) => (name === fileName ? ts.createSourceFile(name, source, lang, true) : getSourceFile.call(host, name, lang, onError, create));
  host.fileExists = (name) => name === fileName || fileExists.call(host, name);
  host.readFile = (name) => (name === fileName ? source : readFile.call(host, name));

  const program = ts.createProgram([fileName], options, host);
  const sf = program.getSourceFile(fileName);
  if (!sf) throw new Error('the TypeScript compiler did not load the generated file');
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];

  const hit = new Set<Checked>();
  for (const d of diagnostics) {
    const text = ts
      .flattenDiagnosticMessageText(d.messageText, '\n')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' / ')
      .replace(/'[^']{80,}'/g, "'{…}'"); // the compiler spells out whole object types: cut them
    const span = d.file === sf && d.start !== undefined ? spans.find((s) => d.start! >= s.start && d.start! < s.end) : undefined;
    if (!span) throw new Error(`TypeScript could not check the manifests: ${text}`);
    hit.add(span.target);
    if (span.target.manifest) report(span.target.manifest, jsonPathOf(nodeAt(sf, d.start!)), text);
  }
  for (const c of controls) {
    if (!hit.has(c)) throw new Error(`self-test failed: the check accepted a broken manifest (${c.label})`);
  }
}

// ---------------------------------------------------------------------------------------------
// cross-checks

const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'ClusterRole',
  'ClusterRoleBinding',
  'StorageClass',
  'IngressClass',
  'PriorityClass',
  'CustomResourceDefinition',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'RuntimeClass',
  'CSIDriver',
  'CSINode',
  'VolumeAttachment',
  'APIService',
  'FlowSchema',
  'PriorityLevelConfiguration',
]);
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

function crossCheck(manifests: Manifest[]): void {
  const objects = manifests.filter((m) => m.kind !== 'Kustomization');
  const seen = new Map<string, Manifest>();
  for (const m of objects) {
    if (!m.name) report(m, ['metadata'], 'metadata.name is required');
    if (!CLUSTER_SCOPED.has(m.kind) && !m.namespace) report(m, ['metadata'], 'metadata.namespace is required (so that kubectl apply -f lands it in the right namespace)');
    const id = `${m.apiVersion.split('/').slice(0, -1).join('/')}|${m.kind}|${m.namespace ?? ''}|${m.name}`;
    const first = seen.get(id);
    if (first) report(m, ['metadata', 'name'], `duplicate ${m.kind} ${m.name}: also in ${first.file} [doc ${first.index}]`);
    else seen.set(id, m);
  }

  const inNs = (kind: string, ns: string | undefined) => objects.filter((o) => o.kind === kind && o.namespace === ns);
  const workloads = objects.filter((o) => WORKLOADS.has(o.kind));
  const podLabels = (w: Manifest) => labelsOf(at(w.value, 'spec', 'template', 'metadata', 'labels'));
  const containersOf = (w: Manifest): Array<{ c: unknown; path: Array<string | number> }> =>
    ['initContainers', 'containers'].flatMap((list) => asArr(at(w.value, 'spec', 'template', 'spec', list)).map((c, i) => ({ c, path: ['spec', 'template', 'spec', list, i] })));
  const portNames = (w: Manifest) =>
    new Set(
      containersOf(w)
        .flatMap(({ c }) => asArr(at(c, 'ports')).map((p) => asStr(at(p, 'name'))))
        .filter(Boolean),
    );

  for (const w of workloads) {
    const selector = labelsOf(at(w.value, 'spec', 'selector', 'matchLabels'));
    if (at(w.value, 'spec', 'selector', 'matchExpressions') === undefined && !selects(selector, podLabels(w))) {
      report(w, ['spec', 'selector', 'matchLabels'], 'the selector does not match the pod template labels');
    }
    for (const { c, path } of containersOf(w)) {
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        const port = at(c, probe, 'httpGet', 'port');
        if (typeof port === 'string' && !asArr(at(c, 'ports')).some((p) => at(p, 'name') === port)) {
          report(w, [...path, probe, 'httpGet', 'port'], `the container has no port named ${port}`);
        }
      }
      asArr(at(c, 'envFrom')).forEach((e, i) => {
        for (const [field, kind] of [
          ['configMapRef', 'ConfigMap'],
          ['secretRef', 'Secret'],
        ] as const) {
          const ref = at(e, field);
          const name = asStr(at(ref, 'name'));
          if (name && at(ref, 'optional') !== true && !inNs(kind, w.namespace).some((o) => o.name === name)) {
            report(w, [...path, 'envFrom', i, field, 'name'], `no ${kind} ${name} in namespace ${w.namespace} under k8s/ (secrets: document them in secret.example.yaml)`);
          }
        }
      });
      asArr(at(c, 'env')).forEach((e, i) => {
        for (const [field, kind] of [
          ['configMapKeyRef', 'ConfigMap'],
          ['secretKeyRef', 'Secret'],
        ] as const) {
          const ref = at(e, 'valueFrom', field);
          const name = asStr(at(ref, 'name'));
          const key = asStr(at(ref, 'key'));
          if (!name || !key || at(ref, 'optional') === true) continue;
          const source = inNs(kind, w.namespace).find((o) => o.name === name);
          const keys = new Set([...Object.keys(asObj(at(source?.value, 'data')) ?? {}), ...Object.keys(asObj(at(source?.value, 'stringData')) ?? {})]);
          if (!source) report(w, [...path, 'env', i, 'valueFrom', field], `no ${kind} ${name} in namespace ${w.namespace} under k8s/`);
          else if (!keys.has(key)) report(w, [...path, 'env', i, 'valueFrom', field, 'key'], `${kind} ${name} (${source.file}) has no key ${key}`);
        }
      });
    }
  }

  for (const s of objects.filter((o) => o.kind === 'Service')) {
    const selector = labelsOf(at(s.value, 'spec', 'selector'));
    if (Object.keys(selector).length === 0) continue; // a Service without selector (external endpoints)
    const targets = workloads.filter((w) => w.namespace === s.namespace && selects(selector, podLabels(w)));
    if (targets.length === 0) report(s, ['spec', 'selector'], 'selects no pods of any workload under k8s/');
    asArr(at(s.value, 'spec', 'ports')).forEach((p, i) => {
      const target = at(p, 'targetPort');
      if (typeof target === 'string' && targets.length > 0 && !targets.every((w) => portNames(w).has(target))) {
        report(s, ['spec', 'ports', i, 'targetPort'], `not every selected workload has a container port named ${target}`);
      }
    });
  }

  for (const p of objects.filter((o) => o.kind === 'PodDisruptionBudget')) {
    const selector = labelsOf(at(p.value, 'spec', 'selector', 'matchLabels'));
    if (!workloads.some((w) => w.namespace === p.namespace && selects(selector, podLabels(w)))) {
      report(p, ['spec', 'selector'], 'selects no pods of any workload under k8s/');
    }
  }

  for (const ing of objects.filter((o) => o.kind === 'Ingress')) {
    asArr(at(ing.value, 'spec', 'rules')).forEach((rule, r) => {
      asArr(at(rule, 'http', 'paths')).forEach((path, i) => {
        const where = ['spec', 'rules', r, 'http', 'paths', i, 'backend', 'service'];
        const name = asStr(at(path, 'backend', 'service', 'name'));
        if (!name) return;
        const svc = inNs('Service', ing.namespace).find((s) => s.name === name);
        if (!svc) {
          report(ing, [...where, 'name'], `no Service ${name} in namespace ${ing.namespace} under k8s/`);
          return;
        }
        const portName = asStr(at(path, 'backend', 'service', 'port', 'name'));
        const portNumber = at(path, 'backend', 'service', 'port', 'number');
        const ports = asArr(at(svc.value, 'spec', 'ports'));
        if (!ports.some((p) => (portName !== undefined && at(p, 'name') === portName) || (portNumber !== undefined && at(p, 'port') === portNumber))) {
          report(ing, [...where, 'port'], `Service ${name} has no such port`);
        }
      });
    });
  }

  checkKustomizations(manifests);
}

function checkKustomizations(manifests: Manifest[]): void {
  const images = new Map<string, { value: string; where: Manifest }>();
  for (const k of manifests.filter((m) => m.kind === 'Kustomization')) {
    const dir = dirname(join(ROOT, k.file));
    const listed = new Set<string>();
    asArr(k.value.resources).forEach((entry, i) => {
      const res = asStr(entry);
      if (!res) return;
      if (/^[a-z]+:\/\/|^(github\.com|gitlab\.com)\//.test(res)) {
        report(k, ['resources', i], 'remote resources are not allowed: vendor them so that builds are offline and reproducible');
        return;
      }
      const full = resolve(dir, res);
      listed.add(full);
      if (!existsSync(full)) report(k, ['resources', i], `${res} does not exist`);
      else if (statSync(full).isDirectory()) {
        if (!['kustomization.yaml', 'kustomization.yml', 'Kustomization'].some((f) => existsSync(join(full, f)))) report(k, ['resources', i], `${res} has no kustomization.yaml`);
      } else if (/\.example\.ya?ml$/.test(res)) {
        report(k, ['resources', i], `${res} is an example, not a resource: it must not be listed`);
      } else {
        for (const m of manifests.filter((x) => join(ROOT, x.file) === full && x.kind === 'Secret')) {
          report(k, ['resources', i], `${res} holds Secret ${m.name}: secrets are created out of band, never kept in git`);
        }
      }
    });
    for (const entry of readdirSync(dir).sort()) {
      const full = join(dir, entry);
      if (!/\.ya?ml$/.test(entry) || /^kustomization\.ya?ml$/.test(entry) || /\.example\.ya?ml$/.test(entry) || statSync(full).isDirectory()) continue;
      if (!listed.has(full)) report(k, ['resources'], `${entry} is beside this kustomization but not listed in resources`);
    }
    asArr(k.value.images).forEach((img, i) => {
      const name = asStr(at(img, 'name'));
      if (!name) return;
      const value = JSON.stringify([at(img, 'newName') ?? name, at(img, 'newTag') ?? null, at(img, 'digest') ?? null]);
      const prev = images.get(name);
      if (!prev) images.set(name, { value, where: k });
      else if (prev.value !== value) report(k, ['images', i], `image ${name} is set differently in ${prev.where.file}: keep them in step`);
    });
  }
}

// ---------------------------------------------------------------------------------------------

function main(): void {
  const dir = resolve(ROOT, process.argv[2] ?? 'k8s');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${relative(ROOT, dir) || dir} is not a folder`);
  const files = yamlFiles(dir);
  if (files.length === 0) throw new Error(`no YAML file under ${relative(ROOT, dir)}`);
  const typesRoot = typesDir();
  const version = (JSON.parse(readFileSync(join(typesRoot, 'package.json'), 'utf8')) as { version: string }).version;

  const manifests = readManifests(files);
  const targets = manifests.map((m) => schemaTarget(m, typesRoot)).filter((t): t is Checked => t !== undefined);
  typeCheck(targets, selfTestControls());
  crossCheck(manifests);

  if (problems.length > 0) {
    for (const p of problems) console.error(`${p.where}: ${p.message}`);
    console.error(`check-k8s: ${problems.length} problem(s) in ${relative(ROOT, dir)}/`);
    process.exitCode = 1;
    return;
  }
  console.log(`check-k8s: ${manifests.length} documents in ${files.length} files under ${relative(ROOT, dir)}/ are valid (${TYPES_PACKAGE}@${version}, strict)`);
}

try {
  main();
} catch (error) {
  console.error(`check-k8s: cannot check: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
