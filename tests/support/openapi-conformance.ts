import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { asNode, type Node, resolveRef } from '@keygate/contracts/gateway';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ROOT } from './processes.ts';

export { type Node, resolveRef };

/** The committed OpenAPI document the gateway serves. */
export const OPENAPI_FILE = resolve(ROOT, 'packages/openapi/openapi.json');

/** Open on purpose: RFC 9457 lets problems carry extension members; the document object is open too. */
const OPEN_SCHEMAS = new Set(['Problem', 'ValidationProblem', 'OpenApiDocument']);
const DOCUMENT_ID = 'openapi.json';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const PROBLEM_MEDIA_TYPE = 'application/problem+json';
/** Where problem `type` URIs live; computed here again rather than imported, to check the services' own. */
const PROBLEM_TYPE_BASE = 'https://keygate.dev/problems/';

/** One operation of the document. */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  path: string;
  operation: Node;
}

/** A response as received, to check against the document. */
export interface ReceivedResponse {
  status: number;
  headers: Headers;
  /** The raw body text. */
  text: string;
}

/**
 * Closes every object schema that lists properties (`additionalProperties: false`) unless it says
 * otherwise, so a response member the document does not name fails validation. Members of `allOf`
 * stay open (they are combined with their siblings).
 */
function closeObjects(node: unknown, insideAllOf = false): unknown {
  if (Array.isArray(node)) return node.map((item) => closeObjects(item, insideAllOf));
  if (typeof node !== 'object' || node === null) return node;
  const result: Node = {};
  for (const [key, value] of Object.entries(node)) result[key] = closeObjects(value, key === 'allOf');
  if (result.properties && result.additionalProperties === undefined && !insideAllOf) {
    result.additionalProperties = false;
  }
  return result;
}

/** The document with its response component schemas closed, as ajv sees it. */
function strictCopy(document: Node): Node {
  const copy = structuredClone(document);
  const schemas = asNode(asNode(copy.components).schemas);
  for (const [name, schema] of Object.entries(schemas)) {
    if (!OPEN_SCHEMAS.has(name)) schemas[name] = closeObjects(schema);
  }
  return { ...copy, $id: DOCUMENT_ID };
}

/** Checks real responses against the document and records which operations were exercised. */
export interface ConformanceChecker {
  document: Node;
  operations: DocumentedOperation[];
  /** The operation by its operationId; throws for an unknown one. */
  operation(operationId: string): DocumentedOperation;
  /** Validates a response of `operationId`; returns a list of mismatches (empty when it conforms). */
  check(operationId: string, response: ReceivedResponse): string[];
  /** Validates a value against a schema of the document (e.g. a webhook payload schema). */
  validate(schema: unknown, value: unknown): string[];
  /** operationId → every status seen for it. */
  exercised: Map<string, Set<number>>;
}

function refToDocument(schema: unknown): Node {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${DOCUMENT_ID}#/`)) as Node;
}

function listOperations(document: Node): DocumentedOperation[] {
  return Object.entries(asNode(document.paths)).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => asNode(item)[method]).map((method) => {
      const operation = asNode(asNode(item)[method]);
      return { operationId: String(operation.operationId), method, path, operation };
    }),
  );
}

/** Loads the committed document and builds the checker (ajv 2020 with formats). */
export function createConformanceChecker(): ConformanceChecker {
  const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Node;
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(strictCopy(document));
  const compiled = new Map<string, ValidateFunction>();
  const compile = (schema: unknown) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(refToDocument(schema));
      compiled.set(key, validate);
    }
    return validate;
  };
  const validate = (schema: unknown, value: unknown): string[] => {
    const run = compile(schema);
    return run(value)
      ? []
      : (run.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  };
  const operations = listOperations(document);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const exercised = new Map<string, Set<number>>();
  const operation = (operationId: string) => {
    const found = byId.get(operationId);
    if (!found) throw new Error(`no operation ${operationId} in the document`);
    return found;
  };
  return {
    document,
    operations,
    operation,
    exercised,
    validate,
    check(operationId, response) {
      const statuses = exercised.get(operationId) ?? new Set<number>();
      statuses.add(response.status);
      exercised.set(operationId, statuses);
      return checkResponse(document, operation(operationId).operation, response, validate);
    },
  };
}

function checkHeaders(
  document: Node,
  documented: Node,
  headers: Headers,
  validate: ConformanceChecker['validate'],
) {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(asNode(documented))) {
    const header = resolveRef(document, value);
    const actual = headers.get(name);
    if (actual === null) {
      if (header.required) problems.push(`header ${name} is missing`);
      continue;
    }
    const schema = asNode(header.schema);
    const parsed = schema.type === 'integer' && /^\d+$/.test(actual) ? Number(actual) : actual;
    for (const error of validate(schema, parsed)) problems.push(`header ${name}: ${actual}: ${error}`);
  }
  return problems;
}

function checkResponse(
  document: Node,
  operation: Node,
  response: ReceivedResponse,
  validate: ConformanceChecker['validate'],
): string[] {
  const responses = asNode(operation.responses);
  const documented =
    responses[String(response.status)] ?? responses[`${String(response.status)[0]}XX`] ?? responses.default;
  if (!documented) return [`status ${response.status} is not documented`];
  const spec = resolveRef(document, documented);
  const problems = checkHeaders(document, asNode(spec.headers), response.headers, validate);
  const content = asNode(spec.content);
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (Object.keys(content).length === 0) {
    if (response.text !== '') problems.push(`an undocumented body came back: ${response.text.slice(0, 200)}`);
    return problems;
  }
  const media = content[type];
  if (!media)
    return [
      ...problems,
      `content type ${type || '(none)'} is not documented (${Object.keys(content).join(', ')})`,
    ];
  // A documented text body (the sandbox's event stream, an SVG image, a JSON-lines export) is
  // checked as the string it is.
  if (type.startsWith('text/') || type.endsWith('+xml') || type === 'application/x-ndjson') {
    return [...problems, ...validate(asNode(media).schema, response.text).map((error) => `body ${error}`)];
  }
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return [...problems, `the body is not JSON: ${response.text.slice(0, 200)}`];
  }
  const mismatches = validate(asNode(media).schema, body).map((error) => `body ${error}`);
  if (type === PROBLEM_MEDIA_TYPE) mismatches.push(...checkProblem(operation, spec, response.status, body));
  return [...problems, ...mismatches];
}

/**
 * A problem must be one the operation documents: its `type` in the operation's `x-problem-types`
 * (and the response's, when it lists them), made from its `code`, with the answer's status.
 */
function checkProblem(operation: Node, response: Node, status: number, body: unknown): string[] {
  const { code, type, status: bodyStatus } = asNode(body);
  if (typeof code !== 'string') return ['problem without a string code'];
  const mismatches: string[] = [];
  const expected = PROBLEM_TYPE_BASE + code.toLowerCase().replaceAll('_', '-');
  if (type !== expected) mismatches.push(`problem ${code}: type ${String(type)} is not ${expected}`);
  if (bodyStatus !== status)
    mismatches.push(`problem ${code}: status ${String(bodyStatus)} in a ${status} answer`);
  const ofOperation = operation['x-problem-types'];
  const ofResponse = response['x-problem-types'];
  const documented = (list: unknown) => Array.isArray(list) && list.includes(expected);
  if (!documented(ofOperation) || (Array.isArray(ofResponse) && !documented(ofResponse))) {
    mismatches.push(`problem ${code} (${status}) is not documented for this operation`);
  }
  return mismatches;
}
