import { z } from 'zod';

/** What a component carries: its name under `components.schemas`. */
export interface ComponentMeta {
  id: string;
}

/** Request schemas (bodies), converted with `io: 'input'`: what a client may send. */
export const requestComponents = z.registry<ComponentMeta>();

/** Response and event schemas, converted with `io: 'output'`: what a client receives. */
export const responseComponents = z.registry<ComponentMeta>();

/** Registers a request schema under `components.schemas[id]` and returns it. */
export function requestComponent<S extends z.ZodType>(id: string, schema: S): S {
  requestComponents.add(schema, { id });
  return schema;
}

/** Registers a response schema under `components.schemas[id]` and returns it. */
export function responseComponent<S extends z.ZodType>(id: string, schema: S): S {
  responseComponents.add(schema, { id });
  return schema;
}
