// The query schemas are part of the API's contract, shared with the OpenAPI document.
export {
  ActivityQuerySchema,
  InstantSchema,
  ListKeysQuerySchema,
  LogsQuerySchema,
  UsageQuerySchema,
} from '@keygate/contracts/gateway';
