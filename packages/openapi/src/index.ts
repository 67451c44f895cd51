export { buildDocument, DOCUMENT_VERSION, loadDefaultRouteTable, OPERATIONS } from './build-document.ts';
export { DOCUMENT_FILE, GENERATE_COMMAND, writeDocument } from './generate.ts';
export type { JsonSchema } from './json-schema.ts';
export type { HttpMethod, OperationKind, OperationSpec } from './operation.ts';
export { listProblemTypes, type ProblemTypeEntry } from './problems.ts';
